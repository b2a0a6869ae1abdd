#!/bin/sh
# BeliefSearch's five parameters that act under thesis rules (mean, king, risk, model,
# exposure), tuned from today's defaults at its default budget: 60 batches of 4 game
# pairs (480 games), r_end 0.02 (belief-search.toml). Then the tuned spec against the
# defaults, 200 games under thesis rules. Run from the repository root after
# `cargo build --release` (about an hour of both cores of the 2-core machine).
set -e
out=/tmp/fow-belief-tune
rm -rf $out $out-thesis
target/release/fow tune --tune-file results/tune/belief-search.toml --batches 60 --pairs 4 \
  --seed 43 -q --out $out
spec=$(python3 -c "import json; print(json.load(open('$out/best.json'))['player'])")
target/release/fow match "$spec" BeliefSearch -n 200 --seed 7 -q --out $out-thesis | grep -E "^Games|Elo|LOS"
