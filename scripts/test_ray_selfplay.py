#!/usr/bin/env python3
"""The Ray scale-out test: a match played as 4 shards on a local Ray instance and merged must
be game for game the match one selfplay run plays.

    cargo build --example selfplay && python3 scripts/test_ray_selfplay.py

Exits 0 when the games agree, 1 (with the first difference) when they do not.
"""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MATCH = ["--size", "4", "--games", "10", "--opening", "1", "--simulations", "40",
         "--player-a", "best", "--player-b", "uct", "--seed", "7"]


def selfplay_binary():
    """The selfplay example, built in the dev profile (what `cargo test` builds)."""
    subprocess.run(["cargo", "build", "--quiet", "--example", "selfplay"], cwd=ROOT, check=True)
    return os.path.join(ROOT, "target", "debug", "examples", "selfplay")


def games(path):
    """(number, first player, winner, moves) of every game of a match.tsv."""
    with open(path, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.startswith("game\t")]
    return [(row[1], row[2], row[3], row[-1]) for row in rows]


def main():
    selfplay = selfplay_binary()
    with tempfile.TemporaryDirectory() as tmp:
        whole = os.path.join(tmp, "whole")
        subprocess.run([selfplay, *MATCH, "--out", whole], check=True, capture_output=True)
        merged = os.path.join(tmp, "merged")
        driver = [sys.executable, os.path.join(HERE, "ray_selfplay.py"), "--shards", "4",
                  "--selfplay", selfplay, "--out", merged, "--", *MATCH]
        run = subprocess.run(driver, capture_output=True, text=True, check=False)
        print(run.stdout)
        if run.returncode != 0:
            print(run.stderr, file=sys.stderr)
            return 1
        expected, got = games(os.path.join(whole, "match.tsv")), games(
            os.path.join(merged, "match.tsv"))
        if len(expected) != 10 or expected != got:
            for e, g in zip(expected, got):
                if e != g:
                    print(f"first difference: one run {e}, Ray shards {g}", file=sys.stderr)
                    break
            print(f"{len(expected)} games in one run, {len(got)} merged", file=sys.stderr)
            return 1
    print("ray scale-out test passed: 4 shards merged = one run, 10 games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
