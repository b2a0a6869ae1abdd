#!/usr/bin/env python3
"""SPSA against the thesis's GA on PositionaryEvaluator's five capture values (from 0):
the benchmark score against CaptureLargest after each number of tuning games.

Run from the repository root with a release build: python3 results/tune/spsa-vs-ga.py
Writes results/tune/spsa-vs-ga.csv and prints the table (see results/tune/README.md).
Tuning games only are counted (not the benchmark games, which both methods would not
need in a real run); each benchmark score is over 400 games (200 pairs) with seed 7."""

import csv, json, os, shutil, subprocess, sys

FOW = "target/release/fow"
TUNE_FILE = "results/tune/pe-captures.toml"
WORK = "/tmp/fow-spsa-vs-ga"
BENCH_GAMES = 400
SEEDS = [1, 2]


def fow(*args):
    subprocess.run([FOW, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def benchmark(spec, tag):
    out = os.path.join(WORK, "bench-" + tag)
    shutil.rmtree(out, ignore_errors=True)
    fow("match", spec, "CaptureLargest", "-n", str(BENCH_GAMES), "--seed", "7", "-q", "--out", out)
    with open(os.path.join(out, "match.json")) as f:
        return json.load(f)["opponents"][0]["score"]


def spec_of(player, names, values):
    keys = ",".join(f"{n}={v}" for n, v in zip(names, values))
    base = player.split(":")[0]
    return f"{base}:{keys}"


def spsa(seed, batches=400, pairs=8, every=50):
    out = os.path.join(WORK, f"spsa-{seed}")
    shutil.rmtree(out, ignore_errors=True)
    fow("tune", "--tune-file", TUNE_FILE, "--r-end", "0.02", "--batches", str(batches),
        "--pairs", str(pairs), "--seed", str(seed), "-q", "--out", out)
    with open(os.path.join(out, "tune.json")) as f:
        cfg = json.load(f)
    names = [p["name"] for p in cfg["space"]["params"]]
    start = [p["start"] for p in cfg["space"]["params"]]
    with open(os.path.join(out, "tune.csv")) as f:
        rows = list(csv.DictReader(f))
    points = []
    for b in range(0, batches + 1, every):
        values = start if b == 0 else [float(rows[b - 1][n]) for n in names]
        points.append((b * pairs * 2, benchmark(spec_of(cfg["space"]["player"], names, values), f"spsa-{seed}-{b}")))
    return points


def ga(seed, epochs=24, population=16):
    out = os.path.join(WORK, f"ga-{seed}")
    shutil.rmtree(out, ignore_errors=True)
    fow("tune", "--tune-file", TUNE_FILE, "--method", "ga", "--batches", str(epochs),
        "--population", str(population), "--survivors", "4", "--step", "0.1",
        "--benchmark", "CaptureLargest", "--benchmark-games", "0", "--seed", str(seed), "-q", "--out", out)
    with open(os.path.join(out, "evolve.json")) as f:
        cfg = json.load(f)
    names = [p["name"] for p in cfg["space"]["params"]]
    per_epoch = population * (population - 1)
    points = [(0, benchmark(cfg["space"]["player"], f"ga-{seed}-start"))]
    # The best of each epoch is in the checkpoint's history only as an index; replay the
    # evolution's best.json at its end, and the start: the GA keeps no per-epoch vector,
    # so it is run again for each length (deterministic: the same seed gives the same
    # first epochs).
    for e in range(4, epochs + 1, 4):
        sub = os.path.join(WORK, f"ga-{seed}-{e}")
        shutil.rmtree(sub, ignore_errors=True)
        fow("tune", "--tune-file", TUNE_FILE, "--method", "ga", "--batches", str(e),
            "--population", str(population), "--survivors", "4", "--step", "0.1",
            "--benchmark", "CaptureLargest", "--benchmark-games", "0", "--seed", str(seed), "-q", "--out", sub)
        with open(os.path.join(sub, "best.json")) as f:
            best = json.load(f)
        points.append((e * per_epoch, benchmark(best["player"], f"ga-{seed}-{e}")))
    return points


def main():
    os.makedirs(WORK, exist_ok=True)
    table = []
    for seed in SEEDS:
        for games, score in spsa(seed):
            table.append(("spsa", seed, games, score))
            print("spsa", seed, games, f"{score:.4f}", flush=True)
        for games, score in ga(seed):
            table.append(("ga", seed, games, score))
            print("ga", seed, games, f"{score:.4f}", flush=True)
    with open("results/tune/spsa-vs-ga.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["method", "seed", "tuning_games", "benchmark_score"])
        w.writerows(table)


if __name__ == "__main__":
    sys.exit(main())
