#!/usr/bin/env python3
"""A's mean score by the stone A played at each of its first moves, from recorded games.

    python3 scripts/score_by_stone.py LOG RECORD [LOG RECORD ...] [--moves N]

LOG is the output of `blackhole referee -v`, RECORD the file its `--record` wrote (as for
`stones_by_result.py`). For each of A's first N moves (default 8), the games are split by the
stone A played there (10 or less, 11-12, 13 or more) and A's mean score ± its standard error
is printed for each class, with the number of games. The classes are not chosen at random (a
search picks a big stone where it sees a reason), so a difference is a lead, not a proof.
"""

import sys
from math import sqrt

from stone_stats import int_option
from stones_by_result import scored_games

CLASSES = [("<= 10", range(1, 11)), ("11-12", range(11, 13)), (">= 13", range(13, 16))]


def mean_and_error(xs):
    """The mean of `xs` and its standard error ("-" for fewer than two)."""
    if len(xs) < 2:
        return "-"
    m = sum(xs) / len(xs)
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    return f"{m:.2f} ± {sqrt(var / len(xs)):.2f} ({len(xs)})"


def main(args):
    moves = int_option(args, "--moves", 8)
    if not args or len(args) % 2:
        sys.exit(__doc__)
    # scores[move][class]: A's scores of the games where A's move `move` was of that class.
    scores = [[[] for _ in CLASSES] for _ in range(moves)]
    for a_red, _, played, score in scored_games(args):
        ours = played[0 if a_red else 1 :: 2]
        for k, (_, value) in enumerate(ours[:moves]):
            c = next(i for i, (_, r) in enumerate(CLASSES) if value in r)
            scores[k][c].append(score)
    print("| A's move | " + " | ".join(f"stone {name}" for name, _ in CLASSES) + " |")
    print("|---:|" + "---|" * len(CLASSES))
    for k in range(moves):
        cells = [mean_and_error(xs) for xs in scores[k]]
        print(f"| {k + 1} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
