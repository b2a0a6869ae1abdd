#!/usr/bin/env bash
# Installs, from the Python package index, what the Python package's build and tests
# need (tests/python.rs): maturin (builds the wheel), numpy (its arrays), pytest, and the
# optional packages its tests use where present: pettingzoo and gymnasium (the
# environment's API test), open_spiel (the side-by-side benchmark and the pyspiel
# registration), pandas (results as DataFrames). Idempotent. Needs Python 3.9 or newer
# with pip; without them it says so and fails, and the Python tests are skipped.
set -euo pipefail

python=${PYTHON:-python3}
if ! "$python" -c 'import sys; assert sys.version_info >= (3, 9)' 2>/dev/null; then
    echo "install-python-tools: Python 3.9 or newer is needed ($python)" >&2
    exit 1
fi
if ! "$python" -m pip --version >/dev/null 2>&1; then
    echo "install-python-tools: pip is missing (Debian: apt-get install python3-pip python3-venv)" >&2
    exit 1
fi

pip_install() {
    # A system Python that Debian manages refuses plain installs (PEP 668): then install
    # for this user.
    "$python" -m pip install --quiet --disable-pip-version-check "$@" 2>/dev/null ||
        "$python" -m pip install --quiet --disable-pip-version-check --user --break-system-packages "$@"
}

pip_install "maturin>=1.5,<2" numpy pytest
pip_install "pettingzoo>=1.24" "gymnasium>=0.29" ||
    echo "install-python-tools: pettingzoo not installed; the environment's API tests will be skipped" >&2
pip_install open_spiel ||
    echo "install-python-tools: open_spiel not installed; its tests and the side-by-side benchmark will be skipped" >&2
pip_install pandas ||
    echo "install-python-tools: pandas not installed; the DataFrame tests will be skipped" >&2
command -v maturin >/dev/null || echo "install-python-tools: maturin is installed but not on PATH (add ~/.local/bin)" >&2
"$python" -m pip show maturin numpy pytest 2>/dev/null | grep -E '^(Name|Version)'
