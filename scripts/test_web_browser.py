#!/usr/bin/env python3
"""The browser test of `havannah serve`: a whole size-4 game played by clicking cells in
headless Chromium, driven through chromedriver with the W3C WebDriver protocol (Python 3
standard library only).

    python3 scripts/test_web_browser.py [--screenshot PATH] [--binary PATH]

It builds `havannah` (debug profile) unless --binary names one, starts `havannah serve` on a
free port and chromedriver on another, opens the page, starts a size-4 game (White, pie rule
off, 0.2 s a move for the engine) and keeps clicking the first empty cell the page offers
until the game ends. It checks the board (a stone for every move), the move list, the
engine's statistics, the result banner and the highlighted winning chain, and saves a
screenshot of the finished game (default: target/web-browser-test.png).

Needs Chromium and its driver (Debian: `apt-get install chromium chromium-driver`). Exits 0
when every check passes, 1 otherwise.
"""

import argparse
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
# Generous bounds against hangs, not timing requirements.
STARTUP_SECONDS = 60
GAME_SECONDS = 300


class Failure(Exception):
    """A check that did not hold."""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(what, predicate, seconds):
    """predicate()'s first truthy value, polled until `seconds` have passed."""
    deadline = time.monotonic() + seconds
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise Failure(f"timed out waiting for {what}")
        time.sleep(0.1)


class WebDriver:
    """The few WebDriver commands the test needs."""

    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"
        self.session = None

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return json.load(response).get("value")
        except urllib.error.HTTPError as e:
            detail = e.read().decode(errors="replace")[:500]
            raise Failure(f"WebDriver {method} {path}: {e.code} {detail}") from e

    def ready(self):
        try:
            return self.call("GET", "/status").get("ready")
        except (OSError, Failure):
            return False

    def start(self, chromium):
        options = {"args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                            "--disable-dev-shm-usage", "--window-size=1280,1000"]}
        if chromium:
            options["binary"] = chromium
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome",
                                                 "goog:chromeOptions": options}}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def s(self, path):
        return f"/session/{self.session}{path}"

    def open(self, url):
        self.call("POST", self.s("/url"), {"url": url})

    def find_all(self, css):
        found = self.call("POST", self.s("/elements"), {"using": "css selector", "value": css})
        return [e[ELEMENT] for e in found]

    def find(self, css):
        found = self.find_all(css)
        if not found:
            raise Failure(f"no element {css!r} on the page")
        return found[0]

    def click(self, element):
        self.call("POST", self.s(f"/element/{element}/click"), {})

    def text(self, element):
        return self.call("GET", self.s(f"/element/{element}/text"))

    def attribute(self, element, name):
        return self.call("GET", self.s(f"/element/{element}/attribute/{name}"))

    def selected(self, element):
        return self.call("GET", self.s(f"/element/{element}/selected"))

    def script(self, source, *args):
        return self.call("POST", self.s("/execute/sync"), {"script": source, "args": list(args)})

    def screenshot(self, path):
        png = base64.b64decode(self.call("GET", self.s("/screenshot")))
        with open(path, "wb") as f:
            f.write(png)

    def quit(self):
        if self.session:
            try:
                self.call("DELETE", self.s(""))
            except (OSError, Failure):
                pass


def build():
    """The debug `havannah` binary, built now."""
    subprocess.run(["cargo", "build", "--quiet", "-p", "havannah-cli", "--bin", "havannah"],
                   cwd=ROOT, check=True)
    return os.path.join(ROOT, "target", "debug", "havannah")


def start_server(binary):
    """`havannah serve --port 0` and the address it prints."""
    server = subprocess.Popen([binary, "serve", "--port", "0"], stdout=subprocess.PIPE,
                              text=True)
    line = server.stdout.readline()
    if "http://" not in line:
        server.kill()
        raise Failure(f"havannah serve printed no address: {line!r}")
    return server, line[line.index("http://"):].split()[0]


def program(*names):
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    return None


def new_game(driver):
    """Starts a size-4 game: White, pie rule off, 0.2 s a move."""
    driver.click(driver.find("#size option:first-child"))
    driver.click(driver.find("#time option[value='200']"))
    driver.click(driver.find("#human option[value='white']"))
    pie = driver.find("#pie")
    if driver.selected(pie):
        driver.click(pie)
    driver.click(driver.find("#start"))
    wait_until("the size-4 board", lambda: len(driver.find_all("#board polygon.cell")) == 37,
               STARTUP_SECONDS)


def texts(driver, css):
    """The text of every element matching `css`, read at once (the page redraws its board
    and move list on every update, so element references go stale)."""
    return driver.script("return Array.from(document.querySelectorAll(arguments[0]))"
                         ".map(e => e.textContent);", css)


def cells(driver, css):
    """The `data-cell` of every element matching `css`, read at once."""
    return driver.script("return Array.from(document.querySelectorAll(arguments[0]))"
                         ".map(e => e.getAttribute('data-cell'));", css)


def move_list(driver):
    return texts(driver, "#moves li")


def play(driver):
    """Clicks the first empty cell offered until the banner shows a result; the moves."""
    deadline = time.monotonic() + GAME_SECONDS
    clicks = 0
    while True:
        if time.monotonic() > deadline:
            raise Failure("the game did not end in time")
        banner_shown = driver.script("return !document.getElementById('result').hidden;")
        if banner_shown:
            return move_list(driver), clicks
        playable = driver.find_all("#board polygon.cell.playable")
        if not playable:
            time.sleep(0.1)
            continue
        before = len(move_list(driver))
        try:
            cell = driver.attribute(playable[0], "data-cell")
            driver.click(playable[0])
        except Failure as e:
            if "stale element" in str(e):
                continue  # redrawn between finding and clicking: find it again
            raise
        clicks += 1
        moves = wait_until(f"{cell} in the move list",
                           lambda: (lambda m: m if len(m) > before else None)(move_list(driver)),
                           STARTUP_SECONDS)
        if moves[before] != cell:
            raise Failure(f"clicked {cell}, the move list says {moves[before]}")


def check_end(driver, moves, clicks):
    """The board, the move list, the statistics and the banner of the finished game."""
    if len(moves) < 7 or clicks < 4:
        raise Failure(f"a size-4 game takes at least 7 moves; {len(moves)} played")
    stones = set(cells(driver, "#board circle.stone"))
    if stones != set(moves) or len(moves) != len(set(moves)):
        raise Failure(f"the board's stones {sorted(stones)} are not the moves {moves}")
    whites = set(cells(driver, "#board circle.stone.white"))
    if whites != set(moves[0::2]):
        raise Failure(f"White's stones {sorted(whites)} are not moves 1, 3, 5, ... {moves}")
    banner = texts(driver, "#result")[0]
    status = texts(driver, "#status")[0]
    if status != banner:
        raise Failure(f"the status {status!r} does not say the result {banner!r}")
    sims, win_rate = texts(driver, "#sims")[0], texts(driver, "#winrate")[0]
    if sims in ("", "–") or not ("%" in win_rate or "proven" in win_rate):
        raise Failure(f"no engine statistics shown: {sims!r}, {win_rate!r}")
    chain = cells(driver, "#board polygon.cell.chain")
    if "Draw" in banner:
        if chain:
            raise Failure(f"a draw with a winning chain {chain}")
        return banner
    winner = "white" if banner.startswith("White wins") else "black" if banner.startswith("Black wins") else None
    if winner is None:
        raise Failure(f"the banner names no winner: {banner!r}")
    own = whites if winner == "white" else stones - whites
    if len(chain) < 4 or not set(chain) <= own:
        raise Failure(f"the winning chain {chain} is not {winner}'s stones {sorted(own)}")
    if moves[-1] not in chain:
        raise Failure(f"the last move {moves[-1]} is not in the winning chain {chain}")
    return banner


def run(args):
    chromium = program("chromium", "chromium-browser", "google-chrome")
    chromedriver = program("chromedriver")
    if not chromedriver:
        raise Failure("chromedriver is not installed (apt-get install chromium chromium-driver)")
    binary = args.binary or build()
    processes = []
    driver = None
    try:
        server, url = start_server(binary)
        processes.append(server)
        port = free_port()
        processes.append(subprocess.Popen([chromedriver, f"--port={port}"],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        driver = WebDriver(port)
        wait_until("chromedriver", driver.ready, STARTUP_SECONDS)
        driver.start(chromium)
        driver.open(url)
        wait_until("the page", lambda: driver.find_all("#board polygon.cell"), STARTUP_SECONDS)
        new_game(driver)
        moves, clicks = play(driver)
        banner = check_end(driver, moves, clicks)
        os.makedirs(os.path.dirname(os.path.abspath(args.screenshot)), exist_ok=True)
        driver.screenshot(args.screenshot)
        print(f"browser test passed: {len(moves)} moves ({clicks} clicked), {banner}; "
              f"screenshot {args.screenshot}")
    finally:
        if driver:
            driver.quit()
        for process in processes:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--screenshot", default=os.path.join(ROOT, "target", "web-browser-test.png"),
                        help="where to save the screenshot of the finished game")
    parser.add_argument("--binary", help="a built havannah program (default: build it)")
    args = parser.parse_args()
    try:
        run(args)
    except Failure as e:
        print(f"browser test failed: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
