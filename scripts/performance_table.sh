#!/usr/bin/env bash
# The speed tables of docs/performance.md in one run of one engine version: simulations a second
# of `havannah search-bench` for `uct`, `rave` and `best` at sizes 4 to 10 on one and two
# threads, two threads against one in games, and `best` beside morat-havannah
# (scripts/speed_vs_morat.sh). Run it with nothing else running, on two cores.
#
#   scripts/performance_table.sh HAVANNAH MORAT
#
# HAVANNAH: a `havannah` binary (`cargo build --release -p havannah-cli`); MORAT: a
# morat-havannah binary (`make morat-havannah` in a clone of tewalds/morat). The playout table
# is `HAVANNAH playout-table --seconds 2`, run apart. Output: Markdown rows; each search-bench
# report (with its phase table) is kept in the folder LOGS (default: a new temporary folder).
set -euo pipefail

HAVANNAH=${1:?usage: performance_table.sh HAVANNAH MORAT}
MORAT=${2:?usage: performance_table.sh HAVANNAH MORAT}
LOGS=${LOGS:-$(mktemp -d)}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")

rate() { sed -n 's/^all: .*s, \([0-9]*\) simulations\/s.*/\1/p'; }

mkdir -p "$LOGS"
echo "search-bench reports in $LOGS"
echo "| configuration | threads | size 4 | size 6 | size 8 | size 10 |"
echo "|---|---:|---:|---:|---:|---:|"
for config in uct rave best; do
  for threads in 1 2; do
    cores=0
    [ "$threads" = 2 ] && cores=0,1
    row="| \`$config\` | $threads |"
    for size in 4 6 8 10; do
      log="$LOGS/$config-$threads-$size.txt"
      taskset -c "$cores" "$HAVANNAH" search-bench --size "$size" --config "$config" \
        --threads "$threads" > "$log"
      r=$(rate < "$log")
      row="$row $r |"
    done
    echo "$row"
  done
done

echo
echo "Two threads against one in games (size 10, 0.5 s a move, the balanced suite):"
out=$(mktemp -d)
"$HAVANNAH" selfplay --size 10 --openings "$ROOT/openings/havannah-10.txt" --games 4 \
  --time-per-move 0.5 --seed 5 --player-a best:threads=2 --player-b best --out "$out" --quiet |
  grep -E '^(Mean time|Simulations a second)'
rm -rf "$out"

echo
echo "\`best\` beside morat-havannah, one thread each, 1 s a search:"
CORE=0 "$HERE/speed_vs_morat.sh" "$HAVANNAH" "$MORAT" 1 2 | grep '^size'
