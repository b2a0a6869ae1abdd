#!/usr/bin/env bash
# Paired speed comparison of two fow binaries on this 2-core machine, whose speed drifts
# by tens of percent within minutes: in each round both binaries run `fow bench` (one
# job, games only) at the same moment, one per core (taskset), cores swapped every
# round, so that both see the same phase of the machine. Prints each round's figures
# (M plies/s, best of REPEAT) and B/A, then the geometric mean of B/A over the rounds.
#
#   results/bench/paired.sh ROUNDS BINARY_A BINARY_B [REPEAT=25]
#
# A binary against itself (an A/A run) shows the method's own spread: here, single
# rounds of best-of-5 differed by up to 8% (one outlier 43%); best-of-25 rounds by 1-6%.
set -euo pipefail
rounds=${1:?rounds}
a=${2:?binary A}
b=${3:?binary B}
repeat=${4:-25}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() { # core binary -> "thesis chesscom"
  taskset -c "$1" "$2" bench --belief-games 0 --exec-games 0 --perft-depth 1 --jobs 1 \
    --repeat "$repeat" 2>&1 |
    awk '/thesis   1 job/ {t = $(NF-4)} /chesscom 1 job/ {c = $(NF-4)} END {print t, c}'
}

for i in $(seq "$rounds"); do
  if (( i % 2 )); then ca=0 cb=1; else ca=1 cb=0; fi
  run "$ca" "$a" >"$tmp/a" &
  run "$cb" "$b" >"$tmp/b"
  wait
  paste -d' ' "$tmp/a" "$tmp/b"
done | awk '{
  rt = $3 / $1; rc = $4 / $2; lt += log(rt); lc += log(rc); n++
  printf "A thesis %s chesscom %s | B thesis %s chesscom %s | B/A thesis %.3f chesscom %.3f\n", $1, $2, $3, $4, rt, rc
} END { printf "geometric mean B/A over %d rounds: thesis %.3f chesscom %.3f\n", n, exp(lt / n), exp(lc / n) }'
