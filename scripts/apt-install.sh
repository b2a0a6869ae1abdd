#!/usr/bin/env bash
# Shared by the install-*.sh scripts: `apt_install NAME PACKAGE [apt-get options]`
# installs a Debian package as root or through `sudo -n`, refreshing the package list
# and retrying once when the first try fails (a stale list may name a version the mirror
# no longer has). Messages go to stderr; without root or sudo it says so and fails.

apt_install() {
    local name=$1 package=$2
    shift 2
    local sudo
    if [ "$(id -u)" -eq 0 ]; then
        sudo=()
    elif command -v sudo >/dev/null 2>&1; then
        sudo=(sudo -n)
    else
        echo "$name: need root or sudo for apt-get install $package" >&2
        return 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    if ! "${sudo[@]}" apt-get install -y -q "$@" "$package" >&2; then
        "${sudo[@]}" apt-get update -q >&2
        "${sudo[@]}" apt-get install -y -q "$@" "$package" >&2
    fi
}
