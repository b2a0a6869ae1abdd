#!/bin/sh
# BeliefSearch's second tuning run (belief-search-2.toml): the five parameters that act
# under thesis rules, from today's defaults, at the default budget; 150 batches of 4
# game pairs (1,200 games). Then the tuned spec against the defaults: an SPRT (elo0=0,
# elo1=10, alpha=beta=0.05) under thesis rules, stopped at 400 games if undecided, and
# 400 games under chesscom rules. Run from the repository root after
# `cargo build --release`; about two hours of both cores of the 2-core machine.
set -e
out=${1:-/tmp/fow-belief-tune-2}
rm -rf $out $out-thesis $out-chesscom
target/release/fow tune --tune-file results/tune/belief-search-2.toml --batches 150 --pairs 4 \
  --seed 4302 -q --out $out
spec=$(python3 -c "import json; print(json.load(open('$out/best.json'))['player'])")
echo "tuned: $spec"
target/release/fow match "$spec" BeliefSearch -n 400 --sprt elo0=0,elo1=10,alpha=0.05,beta=0.05 \
  --seed 8 -q --out $out-thesis
target/release/fow match "$spec" BeliefSearch -n 400 --rules chesscom --seed 9 -q --out $out-chesscom
