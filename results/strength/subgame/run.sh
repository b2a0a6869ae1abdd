#!/bin/sh
# SubgameSolver's second version (the defaults now) against BeliefSearch (issue 47,
# second round), release build, 2 jobs on the 2-core machine. Every match is game pairs
# from the standard start, seed 2023; the figures are in README.md and each folder's
# match.json; ms/move is from each folder's times.csv.
set -e
cd "$(dirname "$0")/../../.."
fow=target/release/fow
out=results/strength/subgame
cargo build --release -q
# The reference runs: 400 games under each rule set.
$fow match SubgameSolver BeliefSearch --games 400 -q --out $out/thesis-400
$fow match SubgameSolver BeliefSearch --games 400 --rules chesscom -q --out $out/chesscom-400
# The settings explored, 40 games each (explore/<name>).
for spec in SubgameSolver SubgameSolver:pick=best SubgameSolver:boards=16 \
    SubgameSolver:candidates=2 SubgameSolver:margin=0.5 SubgameSolver:candidates=8,margin=3 \
    SubgameSolver:keep=200000; do
  name=$(echo "$spec" | sed 's/^SubgameSolver:\{0,1\}//; s/[=,]/_/g; s/^$/defaults/')
  $fow match "$spec" BeliefSearch --games 40 -q --out $out/explore/$name
done
# The larger belief again, 60 more games with another seed.
$fow match SubgameSolver:keep=200000 BeliefSearch --games 60 --seed 2024 -q --out $out/explore/keep_200000-seed2024
# Third round: growing the subgame (grow=N replies become the bot's next decision),
# leaves a ply deeper (depth=2) and twins (stale=1), 40 games each with seeds 2023 and
# 2024, beside the defaults with seed 2024 (explore/defaults is seed 2023); then the
# defaults, depth=2, stale=1 and pick=best over 200 more games each with seed 2025.
for spec in grow=64 grow=1000 depth=2 stale=1; do
  name=$(echo "$spec" | tr = _)
  $fow match "SubgameSolver:$spec" BeliefSearch --games 40 -q --out $out/explore/$name
  $fow match "SubgameSolver:$spec" BeliefSearch --games 40 --seed 2024 -q --out $out/explore/$name-seed2024
done
$fow match SubgameSolver BeliefSearch --games 40 --seed 2024 -q --out $out/explore/defaults-seed2024
for spec in SubgameSolver SubgameSolver:depth=2 SubgameSolver:stale=1 SubgameSolver:pick=best; do
  name=$(echo "$spec" | sed 's/^SubgameSolver:\{0,1\}//; s/=/_/g; s/^$/defaults/')
  $fow match "$spec" BeliefSearch --games 200 --seed 2025 -q --out $out/explore/$name-200-seed2025
done
# How far an exact belief reaches: 20 SubgameSolver games replayed for each side with
# an exact belief of up to 20,000, 100,000 and 1,000,000 boards (exact/).
for cap in 20000 100000 1000000; do
  $fow bench --games 200 --repeat 1 --belief-games 0 --exec-games 0 --solver-games 20 \
    --exact-cap $cap > $out/exact/cap-$cap.txt
done
# At equal time: BeliefSearch with twice the boards and nodes (its ms/move near
# SubgameSolver's).
$fow match SubgameSolver BeliefSearch:sample=96,nodes=3000000 --games 40 -q --out $out/equal-time
# 160 more (sixth session, seed 2024).
$fow match SubgameSolver BeliefSearch:sample=96,nodes=3000000 --games 160 --seed 2024 -q --out $out/equal-time-seed2024
# The budget curve: the subgame values boards until time= ms have passed (not
# deterministic: a clock decides how many boards), 20 games each.
for t in 50 200 500 2000; do
  $fow match "SubgameSolver:time=$t,boards=100000,nodes=0" BeliefSearch --games 20 -q --out $out/budget/time-$t
done
# 40 more games a point (sixth session, seed 2024, the quiet machine).
for t in 50 200 500 2000; do
  $fow match "SubgameSolver:time=$t,boards=100000,nodes=0" BeliefSearch --games 40 --seed 2024 -q --out $out/budget/time-$t-seed2024
done
# A round robin with every built-in bot (the exploiter aside: it needs a target).
$fow tournament --players RandomMove,CaptureKing,CaptureLargest,CaptureWithLargestDifference,Supporter,PositionaryEvaluator,NeuralNetworkPlayer,SimpleStockfish,PossibleBoardGenerator,PossibleBoardList,BeliefSearch,SubgameSolver -n 20 -q --jobs 2 --out $out/round-robin
# Where it loses: its first 40 lost games of thesis-400, analysed with full information
# (the games.csv beside the run's tournament.json, so that their rows are checked), and
# its belief over them (and over 40 won games) as the web app's overlay replays it.
lost=$(mktemp -d)
python3 $out/lost_games.py $out/thesis-400 40 > $lost/games.csv
cp $out/thesis-400/tournament.json $lost/
$fow analyze $lost/games.csv --all -j 1 > $out/losses/output.txt
$fow web $out --listen 127.0.0.1:8099 & web=$!
sleep 2
python3 $out/losses/overlay.py 40 > $out/losses/overlay.txt
python3 $out/losses/overlay.py 40 thesis-400 SubgameSolver won > $out/losses/overlay-won.txt
kill $web
# Fourth round: how often a belief holds the true board, SubgameSolver's side of the
# first 40 games of thesis-400 replayed with each belief (hold/output.txt), and the
# belief of 100,000 boards over 200 games with seed 2025.
cargo build --release -q -p fow-arena --example belief_hold
for spec in BeliefSearch BeliefSearch:keep=50000 BeliefSearch:keep=100000 BeliefSearch:keep=200000 \
    BeliefSearch:model=off BeliefSearch:model=0.5 BeliefSearch:model=6 BeliefSearch:carry=on \
    BeliefSearch:guesses=1000; do
  target/release/examples/belief_hold $out/thesis-400 SubgameSolver $spec 40
done > $out/hold/output.txt
$fow match SubgameSolver:keep=100000 BeliefSearch --games 200 --seed 2025 -q --out $out/explore/keep_100000-200-seed2025
# The million-board exact replay again after the faster update (exact/cap-1000000-faster.txt).
$fow bench --games 200 --repeat 1 --belief-games 0 --exec-games 0 --solver-games 20 \
  --exact-cap 1000000 > $out/exact/cap-1000000-faster.txt
# BeliefSearch with the same larger belief against BeliefSearch (after the faster update).
$fow match BeliefSearch:keep=100000 BeliefSearch --games 200 --seed 2025 -q --out $out/explore/beliefsearch_keep_100000-200-seed2025
# Fifth round: a learned evaluation (learned/). The fit that wrote
# players/src/search/learned.txt (lambda 1), and the two looser fits; the runs of a looser
# table need it copied over players/src/search/learned.txt and a rebuild first.
cargo build --release -q -p fow-arena --example texel
l=$out/learned
for lam in 1.0 0.3 0.1; do
  if [ $lam = 1.0 ]; then table=players/src/search/learned.txt; else table=$l/table-lambda-$lam.txt; fi
  target/release/examples/texel $table $lam 300 $(cat $l/games.txt) > $l/fit-lambda-$lam.txt
done
for seed in 2026 2027; do
  $fow match BeliefSearch:eval=learned BeliefSearch --games 200 --seed $seed -q --out $l/bs-thesis-seed$seed
  $fow match BeliefSearch:eval=learned BeliefSearch --games 200 --seed $seed --rules chesscom -q --out $l/bs-chesscom-seed$seed
  $fow match SubgameSolver:eval=learned,leafeval=learned BeliefSearch --games 200 --seed $seed -q --out $l/ss-leaf-thesis-seed$seed
  $fow match SubgameSolver:eval=learned,leafeval=learned BeliefSearch --games 200 --seed $seed --rules chesscom -q --out $l/ss-leaf-chesscom-seed$seed
done
$fow match SubgameSolver:eval=learned BeliefSearch --games 200 --seed 2026 -q --out $l/ss-thesis-seed2026
$fow match SubgameSolver:eval=learned BeliefSearch --games 200 --seed 2026 --rules chesscom -q --out $l/ss-chesscom-seed2026
# With table-lambda-0.3.txt, then table-lambda-0.1.txt, as players/src/search/learned.txt:
# $fow match BeliefSearch:eval=learned BeliefSearch --games 200 --seed 2026 -q --out $l/bs-lambda-0.3-thesis-seed2026
# $fow match BeliefSearch:eval=learned BeliefSearch --games 200 --seed 2026 -q --out $l/bs-lambda-0.1-thesis-seed2026
# Which part acts: the learned evaluation at the leaves alone, and the tapered one there.
$fow match SubgameSolver:leafeval=learned BeliefSearch --games 200 --seed 2026 -q --out $l/ss-leafonly-thesis-seed2026
$fow match SubgameSolver:leafeval=tapered BeliefSearch --games 200 --seed 2026 -q --out $l/ss-leaftapered-thesis-seed2026
# The control: the defaults at the same seeds.
for seed in 2026 2027; do
  $fow match SubgameSolver BeliefSearch --games 200 --seed $seed -q --out $l/ss-defaults-thesis-seed$seed
done
for seed in 2026 2027; do
  $fow match SubgameSolver BeliefSearch --games 200 --seed $seed --rules chesscom -q --out $l/ss-defaults-chesscom-seed$seed
done
