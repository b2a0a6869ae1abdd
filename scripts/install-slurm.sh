#!/usr/bin/env bash
# Installs Slurm (slurmctld, slurmd, sbatch, ...) and munge from the Debian packages
# slurm-wlm and munge, for the one-node test cluster of scripts/local-slurm.sh.
# Idempotent: installed programs are only reported. Needs root (or sudo) for apt-get;
# without either it says so and fails. A real cluster has its own Slurm: fow needs
# nothing installed there but the fow binary (see scripts/slurm/README.md).
set -euo pipefail

have() { command -v sbatch >/dev/null 2>&1 && command -v slurmd >/dev/null 2>&1 && command -v munged >/dev/null 2>&1; }

if ! have; then
    source "$(dirname "$0")/apt-install.sh"
    apt_install install-slurm slurm-wlm
    apt_install install-slurm munge
fi
if have; then
    command -v sbatch
else
    echo "install-slurm: apt-get finished but sbatch, slurmd or munged is missing" >&2
    exit 1
fi
