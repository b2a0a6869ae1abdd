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

source "$(dirname "$0")/apt-install.sh"
apt_install install-chromium chromium --no-install-recommends

if path=$(find_chromium); then
    echo "$path"
else
    echo "install-chromium: apt-get finished but no chromium was found" >&2
    exit 1
fi
