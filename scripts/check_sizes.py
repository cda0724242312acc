#!/usr/bin/env python3
"""Checks that no library source file has more than 800 non-test lines.

Run from anywhere: `python3 scripts/check_sizes.py` (CI runs it). A non-test line is a line of
a `.rs` file under `crates/*/src/` outside items marked `#[cfg(test)]` (the `mod tests { ... }`
blocks and test-only helpers). A file over the limit should be split along its seams into a
module tree. Function length is checked by clippy (`too_many_lines`, threshold in
`clippy.toml`). `--list N` prints the N largest files.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 800
CFG_TEST = re.compile(r"^\s*#\[cfg\((?:test|all\(test[^\]]*)\)\]\s*$")


def strip_strings(line):
    """The line without string and char literals and comments, for brace counting."""
    line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
    line = re.sub(r"'(?:[^'\\]|\\.)'", "''", line)
    return line.split("//", 1)[0]


def non_test_lines(text):
    lines = text.splitlines()
    count = 0
    i = 0
    while i < len(lines):
        if not CFG_TEST.match(lines[i]):
            count += 1
            i += 1
            continue
        # Skip the attribute, further attributes, and the item they mark.
        i += 1
        while i < len(lines) and lines[i].lstrip().startswith("#["):
            i += 1
        depth = 0
        opened = False
        while i < len(lines):
            code = strip_strings(lines[i])
            depth += code.count("{") - code.count("}")
            opened = opened or "{" in code
            i += 1
            if (opened and depth <= 0) or (not opened and code.rstrip().endswith(";")):
                break
    return count


def main():
    args = sys.argv[1:]
    sizes = []
    for path in sorted(ROOT.glob("crates/*/src/**/*.rs")):
        sizes.append((non_test_lines(path.read_text(encoding="utf-8")), path.relative_to(ROOT)))
    if args[:1] == ["--list"]:
        for count, path in sorted(sizes, reverse=True)[: int(args[1]) if len(args) > 1 else 20]:
            print(f"{count:6} {path}")
        return 0
    over = [(c, p) for c, p in sizes if c > LIMIT]
    for count, path in over:
        print(f"{path}: {count} non-test lines (at most {LIMIT})")
    if over:
        return 1
    print(f"check_sizes: every library file has at most {LIMIT} non-test lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
