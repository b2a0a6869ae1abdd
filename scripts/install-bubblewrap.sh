#!/usr/bin/env bash
# Installs bubblewrap (bwrap), which runs untrusted program players in a sandbox
# (`sandbox=bwrap` in an exec: or uci: spec), from the Debian package and prints its path.
# Idempotent: an installed bwrap is only reported. Needs root (or sudo) for apt-get;
# without either it says so and fails. bwrap also needs the kernel to allow it to make
# namespaces (as root, or unprivileged user namespaces); the sandbox test says "skipped"
# with the reason where it cannot run.
set -euo pipefail

if path=$(command -v bwrap 2>/dev/null); then
    echo "$path"
    exit 0
fi

source "$(dirname "$0")/apt-install.sh"
apt_install install-bubblewrap bubblewrap

if path=$(command -v bwrap 2>/dev/null); then
    echo "$path"
else
    echo "install-bubblewrap: apt-get finished but no bwrap was found" >&2
    exit 1
fi
