#!/usr/bin/env bash
# How long `fow analyze --all` takes on the default tournament (`fow tournament` on
# defaults: the ten default players, 20 games per ordered pair, 1,800 games, seed 2023),
# at the default analysis settings (MyStockfish depth 4, 200000 nodes per position).
#
# From the repository root, after `cargo build --release`:
#   results/analysis/run-time.sh [ROUNDS] [full]
# plays the tournament into $WORK (once; deterministic), analyses its first ROUNDS rounds
# (a round is one game of every ordered pair: 90 games; default 1) and extrapolates to
# the 1,800 games by positions; with `full`, analyses all 1,800 games as well. Each
# analysis prints its report on stdout, and `fow analyze`'s own timing line (stderr) is
# kept. Environment: FOW (the binary), WORK (scratch folder), JOBS (threads, default 2).
set -euo pipefail
FOW=${FOW:-target/release/fow}
WORK=${WORK:-/tmp/fow-analysis-run-time}
JOBS=${JOBS:-2}
ROUNDS=${1:-1}
mkdir -p "$WORK"
if [ ! -f "$WORK/tournament/games.csv" ]; then
    "$FOW" tournament --jobs "$JOBS" --quiet --out "$WORK/tournament" >/dev/null 2>&1
fi
mkdir -p "$WORK/sample"
cp "$WORK/tournament/tournament.json" "$WORK/sample/"
awk -F, -v r="$ROUNDS" 'NR == 1 || $2 < r' "$WORK/tournament/games.csv" >"$WORK/sample/games.csv"

# `fow analyze --all` on a folder; prints the report and the timing line; sets SECONDS_TAKEN
# and POSITIONS.
analyse() {
    local dir=$1
    echo "== $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg): fow analyze $dir --all --jobs $JOBS"
    "$FOW" analyze "$dir" --all --jobs "$JOBS" 2>"$WORK/stderr"
    local line
    line=$(grep '^analysed ' "$WORK/stderr")
    echo "$line"
    echo "== load after $(cut -d' ' -f1-3 /proc/loadavg)"
    POSITIONS=$(echo "$line" | awk '{print $2}')
    SECONDS_TAKEN=$(echo "$line" | awk '{for (i = 1; i < NF; i++) if ($i == "in") print $(i + 1)}')
}

ALL=$(awk -F, 'NR > 1 {p += $8 + 1} END {print p}' "$WORK/tournament/games.csv")
analyse "$WORK/sample"
awk -v p="$POSITIONS" -v s="$SECONDS_TAKEN" -v all="$ALL" -v j="$JOBS" 'BEGIN {
    printf "sample: %d positions in %.1f s on %d threads: %.0f positions/s\n", p, s, j, p / s
    printf "the 1,800 games: %d positions, extrapolated %.0f s (%.1f min)\n", all, all * s / p, all * s / p / 60
}'
if [ "${2:-}" = full ]; then
    analyse "$WORK/tournament"
    awk -v p="$POSITIONS" -v s="$SECONDS_TAKEN" -v j="$JOBS" 'BEGIN {
        printf "the 1,800 games: %d positions in %.1f s (%.1f min) on %d threads: %.0f positions/s\n", p, s, s / 60, j, p / s
    }'
fi
