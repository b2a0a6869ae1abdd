#!/usr/bin/env python3
"""Paper estimate of the wall time of the thesis reproduction (`fow tournament --preset
thesis`, 9,000 games) with PossibleBoardList thinking 0.5 s per move, the thesis's budget,
on 1, 10 and 100 nodes of 32 cores, from the per-game costs measured in
results/thesis-reproduction (its games.csv and times.csv).

Model: every game occupies one core from start to end; a game costs the measured
thinking time of its two sides, except that each PossibleBoardList move costs 0.5 s
instead of its measured ~8 ms. The run is split into shards as `--shard I/N` splits it
(every N-th game), one shard per node, each node playing its shard with 32 jobs. A node's
wall time is at least its total work / 32 and at least its longest game (greedy list
scheduling, as `fow tournament --jobs 32` takes the next game when a thread is free, is
within the longest game of the ideal); the run's wall time is its slowest node's. Usage:

    python3 results/scale/estimate.py [results/thesis-reproduction] > results/scale/thesis-estimate.md
"""

import csv
import heapq
import sys
from pathlib import Path

PBL = "PossibleBoardList"
SECONDS_PER_PBL_MOVE = 0.5
CORES_PER_NODE = 32


def game_costs(folder: Path):
    """Each game's cost in seconds, in schedule order, and counts for the notes."""
    games = {int(r["id"]): r for r in csv.DictReader(open(folder / "games.csv"))}
    costs = []
    pbl_moves = 0
    measured_pbl_ms = 0.0
    for t in csv.DictReader(open(folder / "times.csv")):
        g = games[int(t["id"])]
        cost = 0.0
        for side in ("white", "black"):
            if g[side] == PBL:
                moves = int(t[f"{side}_moves"])
                pbl_moves += moves
                measured_pbl_ms += float(t[f"{side}_ms"])
                cost += moves * SECONDS_PER_PBL_MOVE
            else:
                cost += float(t[f"{side}_ms"]) / 1000
        costs.append(cost)
    return costs, pbl_moves, measured_pbl_ms


def node_wall(costs, cores):
    """Greedy list scheduling of `costs` in order on `cores` threads: the makespan."""
    free = [0.0] * min(cores, max(1, len(costs)))
    heapq.heapify(free)
    end = 0.0
    for c in costs:
        start = heapq.heappop(free)
        heapq.heappush(free, start + c)
        end = max(end, start + c)
    return end


def hms(seconds):
    h, rest = divmod(int(round(seconds)), 3600)
    m, s = divmod(rest, 60)
    return f"{h} h {m:02d} min" if h else f"{m} min {s:02d} s"


def main():
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "results/thesis-reproduction")
    costs, pbl_moves, measured_ms = game_costs(folder)
    total = sum(costs)
    print("# Wall time of the thesis reproduction at the thesis's budget: a paper estimate\n")
    print(f"Made by `python3 results/scale/estimate.py {folder}` from the per-game costs")
    print(f"measured in `{folder}` (9,000 games, node budgets, this 2-core VM).\n")
    print(f"- games: {len(costs)}; games with PossibleBoardList: "
          f"{sum(1 for c in costs if c >= SECONDS_PER_PBL_MOVE)}")
    print(f"- PossibleBoardList moves: {pbl_moves} (measured {measured_ms / max(pbl_moves, 1):.1f} ms "
          f"per move at its node budget; counted at {SECONDS_PER_PBL_MOVE} s, the thesis's budget)")
    print(f"- total work: {total / 3600:.1f} core-hours; longest game {max(costs) / 60:.1f} min; "
          f"mean game {total / len(costs):.1f} s\n")
    print("| nodes × cores | shards | wall time (estimate) | bound: work / cores | bound: longest game |")
    print("|---|---|---|---|---|")
    for nodes, cores in ((1, 2), (1, CORES_PER_NODE), (10, CORES_PER_NODE), (100, CORES_PER_NODE)):
        shard_walls = []
        for i in range(nodes):
            shard = [c for k, c in enumerate(costs) if k % nodes == i]
            shard_walls.append(node_wall(shard, cores))
        wall = max(shard_walls)
        note = " (this VM)" if cores == 2 else ""
        print(f"| {nodes} × {cores}{note} | {nodes} | {hms(wall)} | "
              f"{hms(total / (nodes * cores))} | {hms(max(costs))} |")
    print("\nNot counted: start-up of a job (seconds), the merge (well under a minute for")
    print("9,000 games), and queueing on a shared cluster. On 100 nodes the longest games")
    print("bound the run: more nodes would not help; shorter moves would.")


if __name__ == "__main__":
    main()
