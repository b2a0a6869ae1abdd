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

source "$(dirname "$0")/apt-install.sh"
apt_install install-stockfish stockfish

if path=$(find_stockfish); then
    echo "$path"
else
    echo "install-stockfish: apt-get finished but no stockfish was found" >&2
    exit 1
fi
