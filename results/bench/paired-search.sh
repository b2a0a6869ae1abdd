#!/usr/bin/env bash
# Paired search-speed comparison of two fow binaries (PossibleBoardList's search, the
# belief measurement of `fow bench`): both run at the same moment, one per core, cores
# swapped every round; prints search M nodes/s, belief children checked/s and the
# signature of each, then the geometric mean of B/A over the rounds.
#
#   results/bench/paired-search.sh ROUNDS BINARY_A BINARY_B [BELIEF_GAMES=100]
set -euo pipefail
rounds=${1:?rounds}; a=${2:?binary A}; b=${3:?binary B}; games=${4:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { taskset -c "$1" "$2" bench --games 1000 --repeat 1 --exec-games 0 --perft-depth 1 --jobs 1 --belief-games "$games" 2>&1 |
  awk '/search:/ {s=$(NF-2)} /children checked\/s/ {for(i=1;i<=NF;i++) if ($i=="children" && $(i+1)=="checked/s,") c=$(i-2)} /^signature/ {g=$2} END {print s, c, g}'; }
for i in $(seq "$rounds"); do
  if (( i % 2 )); then ca=0 cb=1; else ca=1 cb=0; fi
  run $ca $a >"$tmp/a" & run $cb $b >"$tmp/b"; wait
  paste -d' ' "$tmp/a" "$tmp/b"
done | awk '{r=$4/$1; l+=log(r); n++; printf "A search %s children %s sig %s | B search %s children %s sig %s | B/A search %.3f\n",$1,$2,$3,$4,$5,$6,r} END {printf "geometric mean B/A search over %d rounds: %.3f\n", n, exp(l/n)}'
