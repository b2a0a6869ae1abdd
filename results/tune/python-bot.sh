#!/bin/sh
# A program bot tuned through the protocol: the greedy Python example's greed (the
# chance of its greedy move) and queen (what taking a queen is worth) from greed=0.2,
# queen=3, each candidate against CaptureLargest, 60 batches of 4 pairs (960 games).
# Then the tuned spec and the start each play 200 games against CaptureLargest.
# Run from the repository root after `cargo build --release`.
set -e
out=/tmp/fow-python-bot
rm -rf $out $out-start $out-tuned
target/release/fow tune --tune-file results/tune/python-bot.toml --against CaptureLargest \
  --batches 60 --pairs 4 --seed 11 -q --out $out
spec=$(python3 -c "import json; print(json.load(open('$out/best.json'))['player'])")
target/release/fow match "exec:cmd=python3 examples/greedy_bot.py,greed=0.2,queen=3" CaptureLargest \
  -n 200 --seed 7 -q --out $out-start | grep -E "^Games|Elo"
target/release/fow match "$spec" CaptureLargest -n 200 --seed 7 -q --out $out-tuned | grep -E "^Games|Elo"
