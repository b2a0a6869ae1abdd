#!/bin/sh
# SubgameSolver's first version against BeliefSearch (issue 47, first round), release
# build, 2 jobs on the 2-core machine. Each match is game pairs from the standard start,
# seed 2023; the figures are in ../README.md and each folder's match.json.
#
# These folders were made at commit 287467b, when `SubgameSolver` at its defaults was the
# first version (a subgame over every legal move). The same bot is now
# `SubgameSolver:candidates=0`, but a spec's text takes part in the games' seeds, so
# the same games come back only from that commit: `git checkout 287467b` first.
set -e
cd "$(dirname "$0")/../../../.."
fow=target/release/fow
cargo build --release -q
out=results/strength/subgame/first-version
$fow match SubgameSolver BeliefSearch --games 100 -q --out $out/thesis-100
$fow match SubgameSolver BeliefSearch --games 40 --rules chesscom -q --out $out/chesscom-40
$fow match SubgameSolver PossibleBoardList --games 40 -q --out $out/vs-pbl-40
