#!/bin/sh
# SubgameSolver's first measurements against BeliefSearch (issue 47), release build,
# 2 jobs on the 2-core machine. Each match is game pairs from the standard start,
# seed 2023; the figures are in README.md and each folder's match.json.
set -e
cd "$(dirname "$0")/../../.."
fow=target/release/fow
cargo build --release -q
$fow match SubgameSolver BeliefSearch --games 100 -q --out results/strength/subgame/thesis-100
$fow match SubgameSolver BeliefSearch --games 40 --rules chesscom -q --out results/strength/subgame/chesscom-40
$fow match SubgameSolver PossibleBoardList --games 40 -q --out results/strength/subgame/vs-pbl-40
