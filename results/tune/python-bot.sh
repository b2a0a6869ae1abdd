#!/bin/sh
# A program bot tuned through the protocol: the greedy Python example's greed (the
# chance of its greedy move) and queen (what taking a queen is worth) from greed=0.2,
# queen=3, the two candidates against each other, 100 batches of 4 pairs (800 games).
# Then the tuned spec plays the start spec, 200 games.
# Run from the repository root after `cargo build --release`.
set -e
out=/tmp/fow-python-bot
rm -rf $out $out-match
target/release/fow tune --tune-file results/tune/python-bot.toml \
  --batches 100 --pairs 4 --seed 11 -q --out $out
spec=$(python3 -c "import json; print(json.load(open('$out/best.json'))['player'])")
target/release/fow match "$spec" "exec:cmd=python3 examples/greedy_bot.py,greed=0.2,queen=3" \
  -n 200 --seed 7 -q --out $out-match | grep -E "^Games|Elo"
