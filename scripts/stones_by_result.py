#!/usr/bin/env python3
"""The stones each side spent early, by how the game ended for A.

    python3 scripts/stones_by_result.py LOG RECORD [LOG RECORD ...] [--plies N]

LOG is the output of `blackhole referee -v` (lines "game N A Red: A scores S ..."), RECORD the
file its `--record` wrote. Games are grouped by A's score (72 or less, 73-74, a draw at 75, a
win) and, for each group, the mean stone of each side and its share of stones of 13 or more
are printed over the first N plies (default 12) in blocks of four plies: each side's first
two moves, the next two, and so on.
"""

import re
import sys
from collections import defaultdict

from stone_stats import moves_of, plies_option

GROUPS = ["<= 72", "73-74", "75", ">= 76"]


def group(score):
    if score <= 72:
        return GROUPS[0]
    if score < 75:
        return GROUPS[1]
    return GROUPS[2] if score == 75 else GROUPS[3]


def scores_of(path):
    """A's score of each game of a referee log, by game number."""
    scores = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"game (\d+) A (Red|Blue): A scores (\d+)", line)
            if m:
                scores[int(m.group(1))] = int(m.group(3))
    return scores


def scored_games(args):
    """(A plays Red, blocked cells, moves, A's score) of each game of the LOG RECORD pairs in
    `args` that has a score in its log."""
    for log, record in zip(args[::2], args[1::2]):
        scores = scores_of(log)
        with open(record) as f:
            for line in f:
                parsed = moves_of(line)
                game = int(line.split()[1]) if parsed else None
                if game in scores:
                    a_red, blocked, moves = parsed
                    yield a_red, blocked, moves, scores[game]


def main(args):
    plies = plies_option(args, 12)
    if not args or len(args) % 2:
        sys.exit(__doc__)
    stones = defaultdict(list)
    games = defaultdict(int)
    for a_red, _, moves, score in scored_games(args):
        g = group(score)
        games[g] += 1
        for ply, (_, value) in enumerate(moves[:plies]):
            side = "A" if (ply % 2 == 0) == a_red else "B"
            stones[g, side, ply // 4].append(value)
    blocks = range((plies + 3) // 4)
    head = [f"{side}: plies {4 * b + 1}-{min(4 * b + 4, plies)}" for side in "AB" for b in blocks]
    print("| A's score | games | " + " | ".join(head) + " |")
    print("|---|---:|" + "---|" * len(head))
    for g in GROUPS:
        cells = []
        for side in "AB":
            for b in blocks:
                xs = stones[g, side, b]
                share = sum(v >= 13 for v in xs) / len(xs) if xs else 0
                mean = sum(xs) / len(xs) if xs else 0
                cells.append(f"{mean:.2f} ({share:.0%})")
        print(f"| {g} | {games[g]} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
