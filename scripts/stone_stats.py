#!/usr/bin/env python3
"""Which stones each side plays early, from `blackhole referee --record` files.

    python3 scripts/stone_stats.py RECORDS... [--plies N]

For each ply up to N (default 14) and each side (A, the player named in the record, and
B, its opponent): the mean stone value, the mean number of empty neighbours of the cell
played, and the share of stones of 13 or more. The board is Blackhole's triangle of 8 rows
(row A holds 8 cells, row H one), as in `crates/blackhole/src/board.rs`.
"""

import sys
from collections import defaultdict

ROWS = 8
STEPS = [(1, 0), (-1, 0), (0, 1), (0, -1), (-1, 1), (1, -1)]


def cell(name):
    """(row, number) of a cell name such as "C4"."""
    row, number = "ABCDEFGH".index(name[0]), int(name[1:])
    if not 1 <= number <= ROWS - row:
        raise ValueError(f"no cell {name}")
    return row, number


def neighbours(c):
    row, number = c
    for dr, dn in STEPS:
        r, n = row + dr, number + dn
        if 0 <= r < ROWS and 1 <= n <= ROWS - r:
            yield r, n


def moves_of(line):
    """(A plays Red, blocked cells, [(cell, value)]) of one record line, or None."""
    words = line.split()
    if len(words) < 4 or words[0] != "game":
        return None
    blocked_at, moves_at = words.index("blocked"), words.index("moves")
    blocked = {cell(w) for w in words[blocked_at + 1 : moves_at]}
    moves = []
    for w in words[moves_at + 1 :]:
        name, value = w.split("=")
        moves.append((cell(name), int(value)))
    return words[3] == "Red", blocked, moves


def int_option(args, name, default):
    """The value of option `name` (e.g. `--plies N`) in `args` (removed from them), or
    `default`."""
    if name not in args:
        return default
    i = args.index(name)
    value = int(args[i + 1])
    del args[i : i + 2]
    return value


def plies_option(args, default):
    """The value of `--plies N` in `args` (removed from them), or `default`."""
    return int_option(args, "--plies", default)


def main(args):
    plies = plies_option(args, 14)
    if not args:
        sys.exit(__doc__)
    seen = defaultdict(lambda: defaultdict(list))
    for path in args:
        with open(path) as f:
            for line in f:
                record = moves_of(line)
                if record is None:
                    continue
                a_red, filled, moves = record
                for ply, (c, value) in enumerate(moves[:plies]):
                    side = "A" if (ply % 2 == 0) == a_red else "B"
                    empty = sum(1 for n in neighbours(c) if n not in filled)
                    seen[ply][side].append((value, empty))
                    filled.add(c)
    print("| ply | A: mean stone | A: empty neighbours | A: stones >= 13 "
          "| B: mean stone | B: empty neighbours | B: stones >= 13 |")
    print("|---|---|---|---|---|---|---|")
    for ply in sorted(seen):
        cells = []
        for side in "AB":
            xs = seen[ply][side]
            n = len(xs)
            cells += [f"{sum(v for v, _ in xs) / n:.2f}",
                      f"{sum(e for _, e in xs) / n:.2f}",
                      f"{sum(v >= 13 for v, _ in xs) / n:.0%}"]
        print(f"| {ply + 1} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
