#!/usr/bin/env bash
# The default tournament (10 bots, 20 games per ordered pair, 1,800 games) played once on
# one machine and once in 4 shards merged with `fow merge`: the files must be identical.
# Usage: results/scale/merged-equals-single.sh [FOW] [WORKDIR]; exits 1 on a difference.
set -euo pipefail
fow=${1:-target/release/fow}
work=${2:-$(mktemp -d)}
"$fow" tournament --out "$work/single" -q | grep "games on disk"
for i in 1 2 3 4; do
    "$fow" tournament --shard "$i/4" --out "$work/shard-$i" -q | grep "games on disk"
done
"$fow" merge "$work/merged" "$work"/shard-{1,2,3,4} | head -1
for f in tournament.json games.csv crosstable.csv ratings.csv los.csv; do
    cmp "$work/single/$f" "$work/merged/$f"
    echo "$f: identical"
done
sha256sum "$work/single/games.csv" "$work/merged/games.csv"
