#!/usr/bin/env bash
# Installs the libtorch that `fow train` (cargo feature `torch`, crate fow-train) links
# against: PyTorch 2.13.0 from PyPI in a Python virtual environment, without its ~2 GB
# of CUDA wheels (only the two CUDA libraries libtorch_cpu.so needs at load time).
# tch 0.26.0 requires exactly this PyTorch version.
#
# Usage: scripts/install-libtorch.sh [VENV_DIR]     (default: .libtorch/venv in the repo)
# Then:  source .libtorch/env.sh && cargo build --release --features torch
#
# Idempotent: a second run checks what is there and installs only what is missing.
# For training on an NVIDIA GPU install the full wheel set instead
# (`FULL=1 scripts/install-libtorch.sh`, about 4.7 GB installed).
set -euo pipefail

TORCH_VERSION=2.13.0
CUDA_RUNTIME=nvidia-cuda-runtime==13.0.96
CUDA_CUPTI=nvidia-cuda-cupti==13.0.85

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${1:-$repo/.libtorch/venv}"
mkdir -p "$(dirname "$venv")"
venv="$(cd "$(dirname "$venv")" && pwd)/$(basename "$venv")"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
    echo "creating virtual environment $venv"
    "$python" -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check)
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
torch="$site/torch"

installed() { "${pip[@]}" show "$1" 2>/dev/null | grep -qx "Version: $2"; }

if [ "${FULL:-0}" = 1 ]; then
    installed torch "$TORCH_VERSION" || "${pip[@]}" install "torch==$TORCH_VERSION"
else
    installed torch "$TORCH_VERSION" || "${pip[@]}" install --no-deps "torch==$TORCH_VERSION"
    for spec in "$CUDA_RUNTIME" "$CUDA_CUPTI"; do
        installed "${spec%%==*}" "${spec##*==}" || "${pip[@]}" install --no-deps "$spec"
    done
fi

if [ ! -f "$torch/lib/libtorch_cpu.so" ]; then
    echo "error: $torch/lib/libtorch_cpu.so is missing after the install" >&2
    exit 1
fi

# libtorch_cpu.so loads libcudart.so.13 and libcupti.so.13 from the nvidia wheels.
libs="$torch/lib"
for d in "$site"/nvidia/cu13/lib "$site"/nvidia/*/lib; do
    if [ -d "$d" ] && ls "$d"/*.so* >/dev/null 2>&1; then
        case ":$libs:" in *":$d:"*) ;; *) libs="$libs:$d" ;; esac
    fi
done

env_file="$(dirname "$venv")/env.sh"
cat >"$env_file" <<ENV
# Written by scripts/install-libtorch.sh; source it before building with --features torch.
export LIBTORCH="$torch"
export LIBTORCH_CXX11_ABI=1
export LD_LIBRARY_PATH="$libs\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
ENV

echo
echo "libtorch $TORCH_VERSION is in $torch ($(du -sh "$venv" | cut -f1) in $venv)."
echo "To build and run fow with training, export:"
echo "  export LIBTORCH=\"$torch\""
echo "  export LIBTORCH_CXX11_ABI=1"
echo "  export LD_LIBRARY_PATH=\"$libs\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}\""
echo "or run: source $env_file"
echo "then:   cargo build --release --features torch"
