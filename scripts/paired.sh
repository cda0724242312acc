#!/bin/sh
# Summaries of `blackhole referee -v` logs (lines "game N A Red: A scores S after M moves").
#   scripts/paired.sh X.log           A's mean score ± s.e., W/D/L, forfeits
#   scripts/paired.sh X.log Y.log     also X − Y per game, paired: games 2k-1 and 2k are played
#                                     on the same blocked cells, so a pair's difference is the
#                                     mean over its two games; only pairs complete in both logs
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 X.log [Y.log]" >&2
    exit 2
fi
for f in "$@"; do
    [ -r "$f" ] || { echo "$0: cannot read $f" >&2; exit 2; }
done
awk '
FNR == 1 { file++ }
/^game [0-9]+ A (Red|Blue): A scores [0-9]+/ {
    g = $2; s = $7
    score[file, g] = s
    if (g > last) last = g
    if (file == 1) {
        n++; sum += s; sq += s * s
        if (s > 75) w++; else if (s == 75) d++; else l++
        if (/forfeit/) f++
    }
}
END {
    if (n == 0) { print "no games in " ARGV[1]; exit 1 }
    m = sum / n
    se = n > 1 ? sqrt((sq - n * m * m) / (n - 1) / n) : 0
    printf "%s: %d games, mean %.2f ± %.2f, W/D/L %d/%d/%d, forfeits %d\n",
        ARGV[1], n, m, se, w, d, l, f
    if (file < 2) exit 0
    for (k = 1; 2 * k <= last; k++) {
        a = 2 * k - 1; b = 2 * k
        if (((1, a) in score) && ((1, b) in score) && ((2, a) in score) && ((2, b) in score)) {
            x = (score[1, a] + score[1, b] - score[2, a] - score[2, b]) / 2
            p++; ps += x; pq += x * x
        }
    }
    if (p == 0) { print "no complete pairs in both logs"; exit 1 }
    pm = ps / p
    pse = p > 1 ? sqrt((pq - p * pm * pm) / (p - 1) / p) : 0
    printf "paired with %s: %+.2f ± %.2f a game over %d pairs\n", ARGV[2], pm, pse, p
}' "$@"
