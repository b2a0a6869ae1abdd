#!/bin/sh
# SPSA finds a planted optimum: Planted's (x, y) from the far corner (0.05, 0.95) to
# (0.7, 0.3), five seeds, 1000 batches of 8 game pairs each (16,000 games a run).
# Run from the repository root after `cargo build --release`; writes
# results/tune/planted.csv (the end of each run and its distance from the optimum).
set -e
out=/tmp/fow-planted
echo "seed,x,y,distance" > results/tune/planted.csv
for seed in 1 2 3 4 5; do
  rm -rf $out-$seed
  target/release/fow tune Planted:x=0.05,y=0.95 --params x,y --r-end 0.05 \
    --batches 1000 --pairs 8 --seed $seed -q --out $out-$seed > /dev/null
  python3 - "$out-$seed" "$seed" >> results/tune/planted.csv <<'PY'
import json, math, sys
v = json.load(open(sys.argv[1] + "/best.json"))["values"]
print(f"{sys.argv[2]},{v['x']:.4f},{v['y']:.4f},{math.hypot(v['x'] - 0.7, v['y'] - 0.3):.4f}")
PY
done
cat results/tune/planted.csv
