#!/usr/bin/env bash
# Builds a profile-guided (PGO) release binary of fow at target/pgo/release/fow.
#
# The plain `cargo build --release` binary is the reference; this one plays the same games
# (same `fow bench` signature) and is faster because the compiler lays out the hot paths
# from a measured profile (see "A faster build" in docs/src/measured.md and the sixth stop of
# 2026-11-23 in results/bench/HISTORY.md for the figures). Optional: nothing else in fow needs it.
#
#   scripts/build-pgo.sh            # about 5 minutes on a 2-core machine
#   target/pgo/release/fow bench
#
# Steps:
#   1. finds llvm-profdata of the active toolchain (installs the rustup component
#      `llvm-tools` if it is missing; the profile format must match rustc's LLVM);
#   2. builds an instrumented fow in target/pgo-gen;
#   3. runs it on a training workload that covers the whole tool, not only the
#      benchmark: random games under both presets and perft (`fow bench`, another seed
#      than the one `fow bench` reports), PossibleBoardList's belief tracking, and a
#      one-game-per-pair round robin of every built-in bot under each preset;
#   4. merges the profile and builds target/pgo/release/fow with it.
# The build keeps the flags of .cargo/config.toml (the profile flags are added to them).
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "build-pgo: $*" >&2; }

host=$(rustc -vV | sed -n 's/^host: //p')
sysroot=$(rustc --print sysroot)
profdata="$sysroot/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
    say "llvm-profdata not found; installing the rustup component llvm-tools"
    rustup component add llvm-tools || {
        say "could not install llvm-tools (rustup component add llvm-tools); no PGO build"
        exit 1
    }
fi
[ -x "$profdata" ] || { say "no llvm-profdata at $profdata after installing llvm-tools"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
raw="$work/raw"
merged="$PWD/target/pgo/fow.profdata"
mkdir -p target/pgo

# `--config` arrays are joined with those of .cargo/config.toml, so the target-cpu flag
# stays; RUSTFLAGS would replace it.
flags() { echo "target.$host.rustflags=['$1']"; }

say "building the instrumented binary (target/pgo-gen)"
cargo build --release --bin fow --target-dir target/pgo-gen \
    --config "$(flags "-Cprofile-generate=$raw")"
gen=target/pgo-gen/release/fow

say "training run: random games, perft and belief tracking (fow bench --seed 7)"
"$gen" bench --seed 7 --games 4000 --repeat 1 --perft-depth 4 --belief-games 4 \
    --exec-games 0 >/dev/null
for rules in thesis chesscom; do
    say "training run: a round robin of every built-in bot, one game per pair ($rules)"
    "$gen" tournament --games 1 --rules "$rules" --seed 7 --out "$work/$rules" >/dev/null
done

"$profdata" merge -o "$merged" "$raw"
say "profile: $merged"

say "building the optimized binary (target/pgo)"
cargo build --release --bin fow --target-dir target/pgo \
    --config "$(flags "-Cprofile-use=$merged")"
say "done: target/pgo/release/fow"
