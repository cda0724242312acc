#!/usr/bin/env bash
# Simulations a second of `havannah gtp` (one thread) and morat-havannah (one thread), side by
# side: each engine searches the same four positions for the same time, one after the other,
# RUNS times, on the core given by CORE.
#
#   scripts/speed_vs_morat.sh HAVANNAH MORAT [SECONDS] [RUNS]
#
# HAVANNAH: a `havannah` binary (`cargo build --release -p havannah-cli`: target/release/havannah);
# MORAT: a morat-havannah binary (`make morat-havannah` in a clone of tewalds/morat).
# Output: one tab-separated line a search (position, run, engine, simulations a second), then a
# summary line a position with each engine's mean and the ratio of the means. POSITIONS
# chooses some of them (e.g. POSITIONS="8-2 10-2").
#
# The positions: after two stones at sizes 4, 6, 8 and 10, and in the middle game (30 moves at
# size 8, 40 at size 10: the opening of a `havannah selfplay` game from the balanced suite,
# `--simulations 20000 --seed 1`), White or Black to move as the moves say.
set -euo pipefail

HAVANNAH=${1:?usage: speed_vs_morat.sh HAVANNAH MORAT [SECONDS] [RUNS]}
MORAT=${2:?usage: speed_vs_morat.sh HAVANNAH MORAT [SECONDS] [RUNS]}
SECONDS_A_MOVE=${3:-1}
RUNS=${4:-2}
CORE=${CORE:-0}

declare -A MOVES=(
  [4-2]="e5 c3"
  [6-2]="h8 d5"
  [8-2]="n13 e5"
  [8-30]="n13 e5 l12 m9 m11 n9 l11 e6 m14 g2 l13 n14 m13 n12 k13 f7 j11 k12 j12 k11 k10 j10 l9
    k9 k14 l15 i13 e7 h13 f5"
  [10-2]="e13 h11"
  [10-40]="e13 h11 n6 g12 s12 i13 m7 g11 h13 f10 n8 g9 i10 f9 h10 e10 m15 f12 e11 g10 f11 e8 g7 d9
    d8 f7 g8 f8 e9 d7 j11 e6 d6 c8 c7 c6 i9 e12 o8 c10"
)

# The GTP lines that set up position $1 (size-moves) and end with a `genmove`; $2: the time
# command of the engine.
gtp_lines() {
  local size=${1%-*} colour=w
  echo "boardsize $size"
  for mv in ${MOVES[$1]}; do
    echo "play $colour $mv"
    if [ $colour = w ]; then colour=b; else colour=w; fi
  done
  echo "$2"
  echo "genmove $colour"
  echo "quit"
}

ours() {
  gtp_lines "$1" "time_settings 0 $SECONDS_A_MOVE 1" |
    taskset -c "$CORE" "$HAVANNAH" gtp --no-pie 2>&1 >/dev/null |
    sed -n 's/^simulations [0-9]* (\([0-9]*\)\/s).*/\1/p'
}

morat() {
  gtp_lines "$1" "time -m $SECONDS_A_MOVE -g 0 -f 0"$'\n'"params -t 1" |
    taskset -c "$CORE" "$MORAT" -v 2>&1 >/dev/null |
    sed -n 's/^Finished: .* \([0-9]*\) Games\/s/\1/p'
}

for pos in ${POSITIONS:-4-2 6-2 8-2 8-30 10-2 10-40}; do
  ours_sum=0
  morat_sum=0
  for run in $(seq "$RUNS"); do
    a=$(ours "$pos")
    b=$(morat "$pos")
    printf '%s\t%s\thavannah\t%s\n%s\t%s\tmorat\t%s\n' "$pos" "$run" "$a" "$pos" "$run" "$b"
    ours_sum=$((ours_sum + a))
    morat_sum=$((morat_sum + b))
  done
  awk -v p="$pos" -v a="$ours_sum" -v b="$morat_sum" -v n="$RUNS" 'BEGIN {
    printf "size %s, %s moves: havannah %.0f, morat %.0f simulations a second, %.2f times\n",
      substr(p, 1, index(p, "-") - 1), substr(p, index(p, "-") + 1), a / n, b / n, a / b }'
done
