#!/usr/bin/env python3
"""The no-leak check at scale: fow.no_leak's two checks on fow's PettingZoo environment
over 10^5 compared pairs of states (by default), under both rule sets, written to
results/python/no_leak.txt.

Run from the repository root with the package installed (`pip install ./python`) or
built in place (`cargo build -p fow-python --release` and python/fow/_fow.abi3.so
linked to target/release/lib_fow.so):

    python3 results/python/no_leak.py [--states 100000] [--seed 44] [--out FILE]

Each check runs in batches until it has compared its share of the states: paired games
(two histories identical from one player's side, the opponent's moves differing in the
fog) 60%, hidden changes (positions changed where the player cannot see) 40%, each split
evenly between the thesis and chess.com rules. Exits 1 if a leak is found.
"""

import argparse
import os
import platform
import sys
import time

try:
    import fow
except ImportError:  # run from a clone without installing: use python/ in place
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
    import fow

from fow import no_leak
from fow.env import FowEnv


def run(check, target, seed):
    """Runs `check(seed)` batch after batch until `target` pairs are compared."""
    total = no_leak.Report()
    batch = 0
    while total.compared < target:
        total.add(check(seed + batch))
        batch += 1
    return total


def main():
    """Runs the checks and writes the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=44)
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "no_leak.txt"))
    args = parser.parse_args()
    lines = [
        "fow's PettingZoo environment: no leak (results/python/no_leak.py)",
        f"fow {fow.__version__}, Python {platform.python_version()}, seed {args.seed}, "
        f"{args.states} compared pairs of states asked",
        "",
        f"{'check':<16}{'rules':<10}{'cases':>8}{'compared':>10}{'hidden differs':>16}"
        f"{'leaks':>7}{'seconds':>9}",
    ]
    leaks = []
    grand = no_leak.Report()
    for name, share in (("paired games", 0.3), ("hidden changes", 0.2)):
        for rules in ("thesis", "chesscom"):
            if name == "paired games":
                def check(seed, rules=rules):
                    return no_leak.paired_games(lambda: FowEnv(rules=rules), 100, seed)
            else:
                def check(seed, rules=rules):
                    return no_leak.hidden_changes(
                        lambda fen: FowEnv(rules=rules, fen=fen), 200, seed, rules=rules
                    )
            start = time.perf_counter()
            r = run(check, int(args.states * share), args.seed * 1000)
            seconds = time.perf_counter() - start
            grand.add(r)
            leaks += r.leaks
            lines.append(
                f"{name:<16}{rules:<10}{r.cases:>8}{r.compared:>10}{r.hidden_differs:>16}"
                f"{len(r.leaks):>7}{seconds:>9.1f}"
            )
            print(lines[-1], flush=True)
    lines += [
        f"{'all':<26}{grand.cases:>8}{grand.compared:>10}{grand.hidden_differs:>16}"
        f"{len(grand.leaks):>7}",
        "",
        "compared: pairs of states at which the player observes, its receipts (observation",
        "planes, action mask, information state text and tensor, reward, termination,",
        "truncation, infos) compared; hidden differs: of those, pairs whose true positions",
        "differ (board, castling rights, en passant square or clocks).",
        "",
        "no leak found" if not leaks else f"{len(leaks)} leaks found:",
    ]
    lines += leaks[:20]
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"written to {args.out}")
    sys.exit(1 if leaks else 0)


if __name__ == "__main__":
    main()
