#!/bin/sh
# Paired timing of two fow builds (OLD NEW [ROUNDS]), alternating: SubgameSolver against
# BeliefSearch, 20 games on one job, seed 11; prints the round, the build, the seconds and
# a hash of games.csv (the games must be alike).
old=$1; new=$2; rounds=${3:-3}
for r in $(seq 1 $rounds); do
  for b in old new; do
    eval bin=\$$b
    rm -rf /tmp/pe-$b
    s=$(date +%s.%N)
    $bin match SubgameSolver BeliefSearch --games 20 --seed 11 -j 1 -q --out /tmp/pe-$b > /dev/null 2>&1
    e=$(date +%s.%N)
    echo "$r $b $(echo "$e - $s" | bc) $(md5sum < /tmp/pe-$b/games.csv | cut -c1-12)"
  done
done
