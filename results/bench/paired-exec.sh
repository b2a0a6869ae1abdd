#!/usr/bin/env bash
# Paired cost of a program player's start and end (and turn round trip) of two fow
# binaries: rounds alternate A and B (A first in odd rounds, B first in even ones), each
# `fow bench --exec-games GAMES` (`fow serve RandomMove` as a program against the
# built-in RandomMove, one thread). Prints each round's figures and B/A, then the
# geometric mean of B/A over the rounds.
#
#   results/bench/paired-exec.sh ROUNDS BINARY_A BINARY_B [GAMES=100]
set -euo pipefail
rounds=${1:?rounds}
a=${2:?binary A}
b=${3:?binary B}
games=${4:-100}

run() { # binary -> "us_per_turn ms_per_game"
  "$1" bench --games 1 --repeat 1 --belief-games 0 --perft-depth 1 --jobs 1 \
    --exec-games "$games" 2>&1 |
    awk '/us per turn round trip/ {for (i = 1; i <= NF; i++) {if ($(i+1) == "us" && $(i+2) == "per" && $(i+3) == "turn") t = $i; if ($(i+1) == "ms" && $(i+2) == "per" && $(i+3) == "game") g = $i}} END {print t, g}'
}

for i in $(seq "$rounds"); do
  if (( i % 2 )); then ra=$(run "$a"); rb=$(run "$b"); else rb=$(run "$b"); ra=$(run "$a"); fi
  echo "$ra $rb"
done | awk '{
  rt = $3 / $1; rg = $4 / $2; lt += log(rt); lg += log(rg); n++
  printf "A turn %s us, start+end %s ms | B turn %s us, start+end %s ms | B/A turn %.3f start+end %.3f\n", $1, $2, $3, $4, rt, rg
} END { printf "geometric mean B/A over %d rounds: turn %.3f, start+end %.3f\n", n, exp(lt / n), exp(lg / n) }'
