#!/usr/bin/env python3
"""Checks the repository's text: docs describe the software, links resolve, pages stay short.

Run from anywhere: `python3 scripts/check_docs.py`. Exits 1 and lists every finding when

- a line of a tracked text file (Markdown, Rust, Python, shell, TOML, the CI script) speaks of
  how the work was done rather than of the software: numbered or ordinal work sessions,
  issue numbers, nicknamed machines ("the old machine"), or paths outside the repository;
- a Markdown link, or a repository path in backticks, names a file that does not exist, or a
  link points outside the repository;
- a page of `docs/` is over 500 lines, or the pages together are over 2,500 lines;
- a line of a prose page of `docs/` (all but the register) is over 120 characters outside
  tables and fenced code.

`--self-test` runs the patterns on lines that must and must not be flagged, and the line-length
check on a small page.
"""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_PAGE_LINES = 500
MAX_DOCS_LINES = 2500
# The registers of experiments are tables, not prose: each has its own cap and is not counted in
# the prose pages' total.
REGISTERS = {"experiments.md", "blackhole-experiments.md"}
MAX_REGISTER_LINES = 300
MAX_LINE_CHARS = 120  # a prose line; table rows and fenced code may be longer
TEXT_SUFFIXES = {".md", ".rs", ".py", ".sh", ".toml", ".txt"}
TEXT_NAMES = {"run", "fuzz"}  # .ci/run, .ci/fuzz
THIS_FILE = Path(__file__).resolve()

_ORDINAL = (
    r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
    r"thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|"
    r"thirtieth|fortieth|fiftieth|"
    r"(?:twenty|thirty|forty|fifty)-(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)"
    r"|\d+(?:st|nd|rd|th))"
)
_WHEN = r"(?:last|previous|earlier|next|this|later|prior|past|future|same|other|another)"

# (name, pattern): each names the words of process it catches.
PATTERNS = [
    ("a work session", re.compile(rf"\b(?:{_ORDINAL}|{_WHEN})[- ]sessions?\b", re.I)),
    ("a work session", re.compile(r"\bsessions?\s*(?:#\s*)?\d+", re.I)),
    ("a work session", re.compile(r"\bsessions?\s+of\s+(?:work|the\s+team)\b", re.I)),
    ("an issue number", re.compile(r"\bissues?\s*#?\s*\d+", re.I)),
    ("an issue number", re.compile(r"(?:^|(?<=[\s(]))#\d{1,4}\b(?![\w;-])")),
    ("a helper's work", re.compile(
        r"\bhelpers?\s+(?:ran|run|runs|built|compiled|wrote|measured|found|played|tried)\b"
        r"|\b(?:by|from|a|the)\s+helper'?s?\s+(?:session|run|agent|match)", re.I)),
    ("a nicknamed machine", re.compile(
        r"\b(?:old|older|new|newer|fast|faster|slow|slower|loaded|quiet|busy|idle|other|"
        r"first|second|third|previous|earlier|later)[- ]machine(?:'s|s)?\b", re.I)),
    ("a path outside the repository", re.compile(r"\.\./shared\b|\bshared/seeds\b|\bDESIGN\.md\b")),
    ("who ran what", re.compile(r"\b(?:we|I|the team)\s+(?:ran|measured|tried|played)\b")),
]

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
# A repository path in backticks, as pages name files: `crates/rave-mcts/src/tree.rs`.
REPO_PATH = re.compile(r"`((?:crates|docs|scripts|examples|benches|fuzz)/[A-Za-z0-9_./-]+)`")


def tracked_files():
    out = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True
    ).stdout.decode()
    for name in out.split("\0"):
        if not name:
            continue
        path = ROOT / name
        if not path.is_file() or path.resolve() == THIS_FILE:
            continue
        if "/fixtures/" in name or name.startswith("fuzz/corpus/"):
            continue  # data, not text about the software
        if path.suffix in TEXT_SUFFIXES or path.name in TEXT_NAMES:
            yield path


def process_findings(path, lines):
    for number, line in enumerate(lines, 1):
        for name, pattern in PATTERNS:
            match = pattern.search(line)
            if match:
                yield f"{path.relative_to(ROOT)}:{number}: {name}: {match.group(0)!r}"


def link_findings(path, lines):
    in_code = False
    for number, line in enumerate(lines, 1):
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        for target in LINK.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("#"):
                continue  # a URL or an anchor in the same page
            file_part = target.split("#", 1)[0]
            resolved = (path.parent / file_part).resolve()
            where = f"{path.relative_to(ROOT)}:{number}"
            if ROOT not in resolved.parents and resolved != ROOT:
                yield f"{where}: a link outside the repository: {target}"
            elif not resolved.exists():
                yield f"{where}: a link to a file that does not exist: {target}"
        for named in REPO_PATH.findall(line):
            if "." not in named.rsplit("/", 1)[-1]:
                continue  # a folder, which may be one the programs write
            if not (ROOT / named).exists() and not (path.parent / named).exists():
                yield f"{path.relative_to(ROOT)}:{number}: a path that does not exist: {named}"


def long_line_findings(path, lines):
    in_code = False
    for number, line in enumerate(lines, 1):
        stripped = line.lstrip()
        if stripped.startswith("```"):  # a fence, also one indented under a list item
            in_code = not in_code
            continue
        if in_code or stripped.startswith("|"):
            continue
        if len(line) > MAX_LINE_CHARS:
            yield (
                f"{path.relative_to(ROOT)}:{number}: a prose line of {len(line)} characters "
                f"(at most {MAX_LINE_CHARS})"
            )


def page_findings():
    total = 0
    for page in sorted((ROOT / "docs").glob("*.md")):
        count = len(page.read_text(encoding="utf-8").splitlines())
        if page.name in REGISTERS:
            if count > MAX_REGISTER_LINES:
                yield f"{page.relative_to(ROOT)}: {count} lines (at most {MAX_REGISTER_LINES})"
            continue
        total += count
        if count > MAX_PAGE_LINES:
            yield f"{page.relative_to(ROOT)}: {count} lines (at most {MAX_PAGE_LINES})"
    if total > MAX_DOCS_LINES:
        yield f"docs/*.md: {total} lines in all (at most {MAX_DOCS_LINES})"


def self_test():
    flagged = [
        "as the thirty-first session measured",
        "Session 34 found",
        "the last session's note",
        "see issue 17",
        "closes #54",
        "helpers compiled beside it",
        "on the old machine",
        "the fast machine's figures",
        "in ../shared/seeds/README.md",
        "as DESIGN.md says",
        "we ran 100 games",
    ]
    clean = [
        "A GTP session over any player",
        "let mut session = GtpSession::new(player);",
        "each session owns its game",
        "a helper function for the tests",
        "Helpers shared by the integration tests",
        "on 2 cores, wormhole 1.6 s a game",
        "the issue of a move",
        "color: #333;",
        "&#8203;",
        "version 0.1.0 (2026-11-28, commit 47a9972)",
    ]
    ok = True
    page = [
        "# A page",
        "x" * 121,  # flagged: line 2
        "| " + "t" * 130 + " |",
        "```sh",
        "c" * 130,
        "```",
        "1. An item:",
        "   ```sh",
        "   " + "c" * 130,
        "   ```",
        "w" * MAX_LINE_CHARS,
        "y" * 200,  # flagged: line 12, the indented block is closed
    ]
    found = list(long_line_findings(ROOT / "docs" / "page.md", page))
    expected = [
        f"docs/page.md:2: a prose line of 121 characters (at most {MAX_LINE_CHARS})",
        f"docs/page.md:12: a prose line of 200 characters (at most {MAX_LINE_CHARS})",
    ]
    if found != expected:
        print(f"self-test: long lines found {found}, expected {expected}")
        ok = False
    for line in flagged:
        if not any(p.search(line) for _, p in PATTERNS):
            print(f"self-test: not flagged: {line!r}")
            ok = False
    for line in clean:
        hits = [n for n, p in PATTERNS if p.search(line)]
        if hits:
            print(f"self-test: flagged as {hits}: {line!r}")
            ok = False
    print("self-test passed" if ok else "self-test FAILED")
    return 0 if ok else 1


def main():
    if "--self-test" in sys.argv[1:]:
        return self_test()
    findings = []
    for path in tracked_files():
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except UnicodeDecodeError:
            continue
        findings.extend(process_findings(path, lines))
        if path.suffix == ".md":
            findings.extend(link_findings(path, lines))
        if path.parent == ROOT / "docs" and path.suffix == ".md" and path.name not in REGISTERS:
            findings.extend(long_line_findings(path, lines))
    findings.extend(page_findings())
    for finding in findings:
        print(finding)
    if findings:
        print(f"check_docs: {len(findings)} finding(s)")
        return 1
    print("check_docs: clean")
    return 0


if __name__ == "__main__":
    sys.exit(main())
