#!/usr/bin/env python3
"""A's mean score by how open the cell was where A played each of its first moves.

    python3 scripts/score_by_openness.py LOG RECORD [LOG RECORD ...] [--moves N]

LOG and RECORD as for `score_by_stone.py`. For each of A's first N moves (default 4), the games
are split by the cell's empty neighbours when A played there (closed: 0-3, open: 4-6) and by
A's stone (6 or less, 7-10, 11 or more), and A's mean score ± its standard error is printed for
each class, with the number of games. As with the stones, the classes are the search's
choices, so a difference is a lead, not a proof.
"""

import sys

from score_by_stone import mean_and_error
from stone_stats import int_option, neighbours
from stones_by_result import scored_games

STONES = [("<= 6", range(1, 7)), ("7-10", range(7, 11)), (">= 11", range(11, 16))]
OPENNESS = [("closed (0-3)", range(0, 4)), ("open (4-6)", range(4, 7))]


def classes_of_moves(blocked, moves, a_red, count):
    """(openness class, stone class) of each of A's first `count` moves."""
    filled = set(blocked)
    out = []
    for ply, (c, value) in enumerate(moves[: 2 * count]):
        if (ply % 2 == 0) == a_red:
            empty = sum(1 for n in neighbours(c) if n not in filled)
            o = next(i for i, (_, r) in enumerate(OPENNESS) if empty in r)
            s = next(i for i, (_, r) in enumerate(STONES) if value in r)
            out.append((o, s))
        filled.add(c)
    return out


def main(args):
    moves = int_option(args, "--moves", 4)
    if not args or len(args) % 2:
        sys.exit(__doc__)
    # scores[move][openness][stone]: A's scores of the games in that class.
    scores = [[[[] for _ in STONES] for _ in OPENNESS] for _ in range(moves)]
    for a_red, blocked, played, score in scored_games(args):
        for k, (o, s) in enumerate(classes_of_moves(blocked, played, a_red, moves)):
            scores[k][o][s].append(score)
    names = [f"{o}, stone {s}" for o, _ in OPENNESS for s, _ in STONES]
    print("| A's move | " + " | ".join(names) + " |")
    print("|---:|" + "---|" * len(names))
    for k in range(moves):
        cells = [mean_and_error(xs) for by_stone in scores[k] for xs in by_stone]
        print(f"| {k + 1} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
