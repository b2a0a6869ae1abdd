#!/usr/bin/env bash
# Installs Stockfish, the reference engine of the `uci:` player, from the Debian packages
# (apt-get install stockfish) and prints its path. Idempotent: an installed Stockfish is
# only reported. Needs root (or sudo) for apt-get; without either it says so and fails.
set -euo pipefail

find_stockfish() {
    command -v stockfish 2>/dev/null && return 0
    [ -x /usr/games/stockfish ] && echo /usr/games/stockfish && return 0
    return 1
}

if path=$(find_stockfish); then
    echo "$path"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo -n)
else
    echo "install-stockfish: need root or sudo for apt-get install stockfish" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
if ! "${sudo[@]}" apt-get install -y -q stockfish >&2; then
    "${sudo[@]}" apt-get update -q >&2
    "${sudo[@]}" apt-get install -y -q stockfish >&2
fi

if path=$(find_stockfish); then
    echo "$path"
else
    echo "install-stockfish: apt-get finished but no stockfish was found" >&2
    exit 1
fi
