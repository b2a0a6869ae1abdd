#!/usr/bin/env bash
# Installs Chromium, the browser of the HTML replay's test (tests/browser.rs), from the
# Debian packages (apt-get install chromium) and prints its path. Idempotent: an
# installed Chromium is only reported. Needs root (or sudo) for apt-get; without either
# it says so and fails. The test is skipped (with a message) when Chromium is missing.
set -euo pipefail

find_chromium() {
    for name in chromium chromium-browser; do
        command -v "$name" 2>/dev/null && return 0
    done
    return 1
}

if path=$(find_chromium); then
    echo "$path"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo -n)
else
    echo "install-chromium: need root or sudo for apt-get install chromium" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
# A stale package list may name a version the mirror no longer has: update then retry.
if ! apt-cache policy chromium 2>/dev/null | grep -q 'Candidate: [0-9]' \
    || ! "${sudo[@]}" apt-get install -y -q --no-install-recommends chromium >&2; then
    "${sudo[@]}" apt-get update -q >&2
    "${sudo[@]}" apt-get install -y -q --no-install-recommends chromium >&2
fi

if path=$(find_chromium); then
    echo "$path"
else
    echo "install-chromium: apt-get finished but no chromium was found" >&2
    exit 1
fi
