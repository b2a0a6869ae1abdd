#!/usr/bin/env bash
# `fow tune` across a Slurm allocation: one job whose tasks share every batch's game
# pairs. Submit it from fow's folder on the shared file system, with the allocation's
# shape as sbatch options and `fow tune`'s arguments after the script:
#
#   sbatch --nodes=4 --ntasks-per-node=1 --cpus-per-task=32 --time=24:00:00 \
#       scripts/slurm/tune.sh "BeliefSearch:nodes=20000" --params mean,king,risk,sample \
#       --rules thesis --batches 300 --pairs 128 --out /project/me/tune/bs --verify
#
# fow tune runs each batch as `srun --ntasks=4 fow tune-worker`: task I plays the I-th
# quarter of the batch's pairs with its 32 cores and leaves their scores in OUT/work/,
# and fow tune joins them in order and moves the parameters, exactly as one machine
# would (the same tune.csv, byte for byte, under node budgets). Give each task at least
# as many pairs as it has cores (--pairs 128 = 4 tasks x 32). A job that ends early
# (time limit, a node lost) loses at most the batch in flight: submit it again with
# `--resume --out OUT` (and --batches to go further). Its log is fow-tune-JOBID.out in
# the folder it was submitted from. FOW=PATH runs another fow binary.
#SBATCH --job-name=fow-tune
#SBATCH --output=fow-tune-%j.out
set -euo pipefail

fow=${FOW:-}
if [ -z "$fow" ]; then
    fow=$(command -v fow || echo "${SLURM_SUBMIT_DIR:-.}/target/release/fow")
fi
exec "$fow" tune --srun "$@"
