#!/usr/bin/env python3
"""The cost of a Python bot's move in-process (fow.tournament) against the same bot as
an `exec:` program over the bot protocol (python3 -m fow.serve), per move.

The bot is trivial (the first legal move), so what is measured is the overhead: in
process, the call under the GIL with a fow.Observation; as a program, the JSON turn
message, the pipe both ways and the Observation rebuilt from the message. Both play
RandomMove with one job, in alternating rounds (the same run seed; the games differ,
since game seeds derive from the players' specs, so times are per move); each side's
time per move is the arena's own (times.csv: from the previous move to the bot's
answer), so a program's start-up (once per game) is not in it but in the wall time per
game, reported beside it. The ratio is the median over the rounds.

    cargo build -p fow-python --release
    ln -sf ../../target/release/lib_fow.so python/fow/_fow.abi3.so
    python3 results/python/bench_pybot.py > results/python/bench_pybot.txt
"""

import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "python"))
sys.path.insert(0, str(HERE))

import fow  # noqa: E402

ROUNDS = 7
GAMES = 20  # per round and side: 10 per colour against RandomMove


class FirstLegal:
    """Plays the first legal move."""

    def start(self, game):
        pass

    def choose(self, obs):
        return obs.legal_moves()[0]


def run(player, out):
    """One round: FirstLegal (in-process or as a program) against RandomMove; its time
    per move (ms), its moves, and the wall time per game (ms)."""
    started = time.perf_counter()
    r = fow.tournament([player, "RandomMove"], games=GAMES // 2, seed=1, out=out, jobs=1)
    wall = (time.perf_counter() - started) * 1000 / len(r.games)
    me = r.ratings[0]
    moves = sum((g.plies + (g.white == r.config["players"][0])) // 2 for g in r.games)
    return me.ms_per_move, moves, wall, r.games


def main():
    path = os.pathsep.join([str(REPO / "python"), str(HERE)])
    program = f"exec:cmd={sys.executable} -m fow.serve bench_pybot:FirstLegal,name=FirstLegal,env.PYTHONPATH={path}"
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(ROUNDS):
            a = run(FirstLegal, Path(tmp) / f"in-{i}")
            b = run(program, Path(tmp) / f"exec-{i}")
            rows.append((a, b))
    print(f"# {Path(__file__).name}: a Python bot's move in-process against the same bot as exec: (fow.serve)")
    print(f"# fow {fow.__version__}, Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores; one job; "
          f"{ROUNDS} alternating rounds of {GAMES} games against RandomMove (seed 1)")
    print(f"# lib: {Path(fow._fow.__file__).resolve()}; load average at the end {os.getloadavg()[0]:.1f} (a shared machine)")
    print("round  in-process ms/move  exec ms/move  ratio  in-process ms/game  exec ms/game  moves in/exec")
    for i, (a, b) in enumerate(rows):
        print(f"{i:5d}  {a[0]:18.4f}  {b[0]:12.4f}  {b[0] / a[0]:5.1f}  {a[2]:17.1f}  {b[2]:12.1f}  {a[1]:6d}/{b[1]}")
    ratio = statistics.median(b[0] / a[0] for a, b in rows)
    inproc = statistics.median(a[0] for a, _ in rows)
    exec_ = statistics.median(b[0] for _, b in rows)
    print(f"median: in-process {inproc * 1000:.1f} us/move, exec {exec_ * 1000:.1f} us/move: "
          f"exec costs {ratio:.1f} times as much per move (in-process saves {(exec_ - inproc) * 1000:.1f} us a move)")
    game_ratio = statistics.median(b[2] / a[2] for a, b in rows)
    print(f"median wall time per game (the program started once a game): exec {game_ratio:.1f} times in-process")


if __name__ == "__main__":
    main()
