#!/usr/bin/env bash
# fow against the lean floor (results/bench/lean-floor), run at the same moment, one per
# core, cores swapped every round, like paired.sh: how far fow's arena path is from the
# same per-ply work without fow's layers, in the machine's current phase. Prints each
# round's thesis one-job figures (M plies/s) and the geometric mean of lean/fow.
#
#   cargo build --release
#   cargo build --release --manifest-path results/bench/lean-floor/Cargo.toml --target-dir target/lean-floor
#   results/bench/paired-lean.sh ROUNDS [FOW_BINARY=target/release/fow] [REPEAT=25]
#
# fow times thesis then chess.com (REPEAT runs each); the lean floor plays thesis only,
# so it runs 1.6 x REPEAT times to span about the same wall time.
set -euo pipefail
rounds=${1:?rounds}
fow=${2:-target/release/fow}
repeat=${3:-25}
lean=target/lean-floor/release/lean-floor
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for i in $(seq "$rounds"); do
  if (( i % 2 )); then cl=0 cf=1; else cl=1 cf=0; fi
  taskset -c "$cl" "$lean" 20000 $(( repeat * 8 / 5 )) | awk '{print $4}' >"$tmp/lean" &
  taskset -c "$cf" "$fow" bench --belief-games 0 --exec-games 0 --perft-depth 1 --jobs 1 \
    --repeat "$repeat" 2>&1 | awk '/thesis   1 job/ {print $(NF-4)}' >"$tmp/fow"
  wait
  paste -d' ' "$tmp/fow" "$tmp/lean"
done | awk '{
  r = $2 / $1; s += log(r); n++
  printf "fow thesis %s | lean floor %s | lean/fow %.3f\n", $1, $2, r
} END { printf "geometric mean lean/fow over %d rounds: %.3f\n", n, exp(s / n) }'
