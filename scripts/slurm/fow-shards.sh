#!/usr/bin/env bash
# Runs a fow tournament or match on a Slurm cluster: a job array whose task I plays shard
# I/N (`--shard I/N`) into OUT/shard-I, and a job that starts when every task has
# succeeded and joins the shards with `fow merge OUT/merged OUT/shard-1 ... OUT/shard-N`.
#
#   scripts/slurm/fow-shards.sh --shards N --out OUT [--fow PATH] [--sbatch "OPTIONS"] \
#       -- tournament|match ARGS...
#
#   --shards N     the array size: how many shards (jobs) to split the run into
#   --out OUT      a folder on the shared file system (every node reads and writes it)
#   --fow PATH     the fow binary, on the shared file system (default: `fow` on PATH,
#                  else target/release/fow of this script's repository)
#   --sbatch OPTS  options for both sbatch calls: partition, time limit, account,
#                  --cpus-per-task (each shard plays --jobs games at once, by default
#                  SLURM_CPUS_PER_TASK, else 1)
#
# Without --seed in ARGS, a secret key is drawn once into OUT/run.key and every shard
# reads it (--secret-key), so that the shards play the games of one run. The job
# scripts are written to OUT/shard.sbatch and OUT/merge.sbatch: a shard that failed is
# rerun with `sbatch --array=I OUT/shard.sbatch` (it resumes its folder), the merge with
# `sbatch OUT/merge.sbatch`. Prints the two job ids on its last line.
set -euo pipefail

shards="" out="" fow="" sbatch_opts=""
while [ $# -gt 0 ]; do
    case "$1" in
        --shards) shards=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --fow) fow=$2; shift 2 ;;
        --sbatch) sbatch_opts=$2; shift 2 ;;
        --) shift; break ;;
        *) echo "fow-shards: unknown option $1 (see the top of $0)" >&2; exit 2 ;;
    esac
done
if [ $# -lt 1 ] || { [ "$1" != tournament ] && [ "$1" != match ]; }; then
    echo "fow-shards: give the fow command after --: tournament ... or match ..." >&2
    exit 2
fi
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || { echo "fow-shards: --shards N (N >= 1)" >&2; exit 2; }
[ -n "$out" ] || { echo "fow-shards: --out OUT (on the shared file system)" >&2; exit 2; }
if [ -z "$fow" ]; then
    fow=$(command -v fow 2>/dev/null || echo "$(cd "$(dirname "$0")/../.." && pwd)/target/release/fow")
fi
[ -x "$fow" ] || { echo "fow-shards: no fow binary at $fow (cargo build --release, or --fow PATH)" >&2; exit 2; }
fow=$(cd "$(dirname "$fow")" && pwd)/$(basename "$fow")
mkdir -p "$out"
out=$(cd "$out" && pwd)

args=("$@")
for a in "${args[@]}"; do
    case "$a" in
        --out | --out=* | --shard | --shard=* | --resume)
            echo "fow-shards: leave $a out of the fow arguments (the script sets it)" >&2
            exit 2 ;;
    esac
done
has() { printf '%s\n' "${args[@]}" | grep -qx -e "$1" -e "$1=.*"; }
key_args=()
if ! has --seed && ! has --secret-key; then
    if [ ! -f "$out/run.key" ]; then
        (umask 077 && od -An -tx1 -N16 /dev/urandom | tr -d ' \n' > "$out/run.key")
    fi
    key_args=(--secret-key "$out/run.key")
fi
jobs_text=""
if ! has --jobs && ! has -j; then
    jobs_text='--jobs "${SLURM_CPUS_PER_TASK:-1}"'
fi

quote() { printf '%q ' "$@"; }
shard_dirs=""
for i in $(seq "$shards"); do shard_dirs+=$(quote "$out/shard-$i"); done

{
    echo '#!/usr/bin/env bash'
    echo '#SBATCH --job-name=fow-shard'
    echo "#SBATCH --array=1-$shards"
    echo "#SBATCH --output=$out/slurm-shard-%a.out"
    echo "# One shard of a fow run (scripts/slurm/fow-shards.sh): task I plays shard I/$shards"
    echo '# into shard-I, or resumes it when the folder holds it already.'
    echo 'set -euo pipefail'
    echo 'i=$SLURM_ARRAY_TASK_ID'
    echo "dir=$(printf '%q' "$out")/shard-\$i"
    echo 'if [ -f "$dir/tournament.json" ]; then'
    echo "    exec $(quote "$fow" "${args[0]}")--resume --out \"\$dir\" --quiet $jobs_text"
    echo 'fi'
    echo "exec $(quote "$fow" "${args[@]}" "${key_args[@]}")--shard \"\$i/$shards\" --out \"\$dir\" --quiet $jobs_text"
} > "$out/shard.sbatch"
{
    echo '#!/usr/bin/env bash'
    echo '#SBATCH --job-name=fow-merge'
    echo "#SBATCH --output=$out/slurm-merge.out"
    echo "# Joins the shards of a fow run (scripts/slurm/fow-shards.sh) into merged/."
    echo 'set -euo pipefail'
    echo "exec $(quote "$fow")merge $(quote "$out/merged")$shard_dirs"
} > "$out/merge.sbatch"
chmod +x "$out/shard.sbatch" "$out/merge.sbatch"

# shellcheck disable=SC2086
array=$(sbatch --parsable $sbatch_opts "$out/shard.sbatch")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable $sbatch_opts --dependency=afterok:"$array" "$out/merge.sbatch")
merge=${merge%%;*}
echo "fow-shards: job array $array ($shards shards into $out/shard-I), merge job $merge (into $out/merged)"
echo "$array $merge"
