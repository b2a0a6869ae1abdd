#!/usr/bin/env bash
# Paired speed comparison of two builds of the belief update (issue 47's "faster belief
# update"): both `belief_hold` binaries (arena/examples/belief_hold.rs) replay the same
# games with the same belief spec at the same moment, one per core, cores swapped every
# round; prints each round's wall times, the check that both held the true board at the
# same turns (their reports, times aside, are identical), and the geometric mean of the
# time ratio B/A over the rounds (below 1: B is faster).
#
#   results/bench/paired-belief.sh ROUNDS BINARY_A BINARY_B SPEC [GAMES=10]
#
# The games are SubgameSolver's side of results/strength/subgame/thesis-400.
set -euo pipefail
rounds=${1:?rounds}; a=${2:?binary A}; b=${3:?binary B}; spec=${4:?belief spec}; games=${5:-10}
dir=results/strength/subgame/thesis-400
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { taskset -c "$1" "$2" "$dir" SubgameSolver "$spec" "$games"; }
for i in $(seq "$rounds"); do
  if (( i % 2 )); then ca=0 cb=1; else ca=1 cb=0; fi
  run $ca "$a" >"$tmp/a" & run $cb "$b" >"$tmp/b"; wait
  ta=$(sed 's/.*; \([0-9.]*\) s$/\1/' "$tmp/a"); tb=$(sed 's/.*; \([0-9.]*\) s$/\1/' "$tmp/b")
  same=$([ "$(sed 's/; [0-9.]* s$//' "$tmp/a")" = "$(sed 's/; [0-9.]* s$//' "$tmp/b")" ] && echo same || echo DIFFERENT)
  echo "$ta $tb $same"
done | awk -v spec="$spec" '{r=$2/$1; l+=log(r); n++; printf "%s: A %.1f s, B %.1f s, B/A %.3f, reports %s\n", spec, $1, $2, r, $3} END {printf "%s: geometric mean B/A over %d rounds: %.3f\n", spec, n, exp(l/n)}'
