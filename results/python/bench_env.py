"""Environment speed: fow's Python API against OpenSpiel's dark_chess, and fow.VecGames.

(a) Random play on one thread, steps per second, in alternating rounds in one process:

- fow.Game, per step: the side to move's observation planes and legal-action mask
  (``g.tensor(g.turn)``, ``g.mask()``), its legal actions (``g.legal_actions()``), a
  random choice among them (``random.Random.choice``) and the move (``g.play(a)``); a
  finished game is replaced by ``fow.Game()``.
- OpenSpiel ``dark_chess``, per step: ``state.observation_tensor(state.current_player())``
  (1,738 floats), ``state.legal_actions()``, the same random choice, and
  ``state.apply_action(a)``; a finished game is replaced by ``game.new_initial_state()``.
  OpenSpiel builds no mask: fow does strictly more work per step. "fow.Game, OpenSpiel's
  calls" drops the mask, so that both do the same work: planes, legal actions, the move.
- fow's PettingZoo environment (``fow.env``, when this checkout has it), per move:
  ``env.last()`` (observation and mask of the agent to act), a random legal action from
  the mask (``numpy.flatnonzero``), ``env.step(a)``; the dead agents' ``step(None)`` at a
  game's end are timed but not counted as steps. It is compared with OpenSpiel's own
  Python environment, ``open_spiel.python.rl_environment.Environment("dark_chess")``
  with observations (its information-state tensors are not implemented for
  dark_chess), whose step returns the acting player's observation and legal actions.

The ratio is taken per round (fow's steps/s over OpenSpiel's in the same round) and the
median reported, so that load from other jobs on the machine shifts both alike.

(b) fow.VecGames: N games stepped at once, steps per second (N times the batch steps a
second), with the random legal moves drawn in Rust (``step_random``) or sampled in numpy
from the masks the previous step returned (``step(actions)``), unpacked and packed; on
all cores (rayon's default) and, in a child process, on one (``RAYON_NUM_THREADS=1``).

Run with a release build (see results/python/README.md):

    cargo build -p fow-python --release
    ln -sf ../../target/release/lib_fow.so python/fow/_fow.abi3.so
    PYTHONPATH=python python3 results/python/bench_env.py > results/python/bench_env.txt
"""

import argparse
import os

# One thread means one: numpy's OpenBLAS threads would otherwise wait spinning beside it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import platform
import random
import statistics
import subprocess
import sys
import time

import numpy as np  # noqa: E402

import fow  # noqa: E402


def fow_steps(steps, seed, mask=True):
    """fow.Game's random-play steps per second (see the module docstring); without
    ``mask``, the calls OpenSpiel's side makes (planes, legal actions, the move)."""
    rng = random.Random(seed)
    g = fow.Game()
    start = time.perf_counter()
    for _ in range(steps):
        if g.is_over:
            g = fow.Game()
        g.tensor(g.turn)
        if mask:
            g.mask()
        g.play(rng.choice(g.legal_actions()))
    return steps / (time.perf_counter() - start)


def openspiel_steps(game, steps, seed):
    """OpenSpiel dark_chess's random-play steps per second (see the module docstring)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    start = time.perf_counter()
    for _ in range(steps):
        if state.is_terminal():
            state = game.new_initial_state()
        state.observation_tensor(state.current_player())
        state.apply_action(rng.choice(state.legal_actions()))
    return steps / (time.perf_counter() - start)


def pettingzoo_steps(make_env, steps, seed):
    """fow's PettingZoo environment's moves per second (see the module docstring)."""
    rng = np.random.default_rng(seed)
    env = make_env()
    env.reset(seed=seed)
    moves = 0
    start = time.perf_counter()
    while moves < steps:
        if not env.agents:
            env.reset()
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        moves += 1
    return moves / (time.perf_counter() - start)


def pettingzoo_env():
    """A maker of fow's PettingZoo environment, or the reason there is none."""
    try:
        import fow.env as fow_env
    except ImportError as e:
        return None, f"not measured: fow.env does not import ({e})"
    return fow_env.env, None


def rl_environment_steps(steps, seed):
    """OpenSpiel's own Python environment (open_spiel.python.rl_environment) on
    dark_chess: each step returns the acting player's observation (1,738 floats) and
    legal actions; a random legal action is chosen as fow's environment chooses it."""
    from open_spiel.python import rl_environment

    rng = np.random.default_rng(seed)
    env = rl_environment.Environment(
        "dark_chess", observation_type=rl_environment.ObservationType.OBSERVATION
    )
    ts = env.reset()
    start = time.perf_counter()
    for _ in range(steps):
        if ts.last():
            ts = env.reset()
        player = ts.observations["current_player"]
        legal = ts.observations["legal_actions"][player]
        ts = env.step([int(legal[rng.integers(len(legal))])])
    return steps / (time.perf_counter() - start)


def single_thread(rounds, scale):
    import pyspiel

    game = pyspiel.load_game("dark_chess")
    make_env, missing = pettingzoo_env()
    # Each side: its steps a round, how a round is timed, and the side it is compared
    # with (game API with game API, environment with environment).
    sides = {
        "fow.Game": (40000, fow_steps, "OpenSpiel dark_chess"),
        "fow.Game, OpenSpiel's calls": (
            40000,
            lambda n, r: fow_steps(n, r, mask=False),
            "OpenSpiel dark_chess",
        ),
        "OpenSpiel dark_chess": (4000, lambda n, r: openspiel_steps(game, n, r), None),
        "fow PettingZoo env": (
            10000,
            (lambda n, r: pettingzoo_steps(make_env, n, r)) if make_env else None,
            "OpenSpiel rl_environment",
        ),
        "OpenSpiel rl_environment": (3000, rl_environment_steps, None),
    }
    figures = {k: [] for k in sides}
    # Warm up each side once, untimed in the figures.
    for n, run, _ in sides.values():
        if run:
            run(200, 0)
    for r in range(rounds):
        order = list(sides)
        if r % 2:
            order.reverse()
        for side in order:
            n, run, _ = sides[side]
            if run:
                figures[side].append(run(max(200, int(n * scale)), r))
    print(f"(a) random play, one thread, {rounds} rounds, alternating order")
    print(
        f"{'':28} {'steps a round':>13} {'median steps/s':>15} {'median ratio':>13} "
        f"{'ratio range':>12}  against"
    )
    for side, (n, run, against) in sides.items():
        if not figures[side]:
            print(f"{side:28} {missing}")
            continue
        base = figures[against] if against else figures[side]
        ratios = [a / b for a, b in zip(figures[side], base)]
        print(
            f"{side:28} {max(200, int(n * scale)):>13} {statistics.median(figures[side]):>15,.0f} "
            f"{statistics.median(ratios):>12.1f}x {min(ratios):>5.1f}-{max(ratios):.1f}x  "
            f"{against or ''}"
        )
    print("(ratio: the side's steps/s over the compared side's in the same round)")


POPCOUNT = np.array([bin(b).count("1") for b in range(256)], dtype=np.int64)
# NTH_BIT[b, j]: the position of byte b's j-th set bit (lowest first).
NTH_BIT = np.zeros((256, 8), dtype=np.int64)
for _b in range(256):
    _bits = [k for k in range(8) if _b >> k & 1]
    NTH_BIT[_b, : len(_bits)] = _bits


def sample_from_masks(masks, rng, packed):
    """One uniformly random legal action per game from the masks alone, in numpy: the
    masks as 64-bit words (packing unpacked masks first), the set words, and in the
    chosen word the chosen bit."""
    if not packed:
        masks = np.packbits(masks, axis=1, bitorder="little")
    n = len(masks)
    words = masks.view("<u8")
    width = words.shape[1]
    flat = np.flatnonzero(words)
    w = words.ravel()[flat]
    w_bytes = w.view(np.uint8).reshape(-1, 8)
    ones = POPCOUNT[w_bytes].sum(axis=1)
    counts = np.bincount(flat // width, weights=ones, minlength=n).astype(np.int64)
    target = np.cumsum(counts) - counts + (rng.random(n) * counts).astype(np.int64)
    ends = np.cumsum(ones)
    word = np.searchsorted(ends, target, side="right")
    j = target - (ends[word] - ones[word])
    chosen = w_bytes[word]
    byte_ends = np.cumsum(POPCOUNT[chosen], axis=1)
    byte = (byte_ends <= j[:, None]).sum(axis=1)
    rows = np.arange(n)
    j -= byte_ends[rows, byte] - POPCOUNT[chosen[rows, byte]]
    return (flat[word] % width) * 64 + byte * 8 + NTH_BIT[chosen[rows, byte], j]


def vector(rounds, scale, sizes):
    threads = os.environ.get("RAYON_NUM_THREADS", f"all {os.cpu_count()} cores")
    print(f"(b) fow.VecGames steps per second (N games x batch steps a second), threads: {threads}")
    print(f"{'':8} {'N':>6} {'step_random':>13} {'numpy sampling':>15}")
    for packed in (False, True):
        for n in sizes:
            v = fow.VecGames(n, seed=1, packed=packed)
            batches = max(10, int(400_000 * scale) // n)
            rng = np.random.default_rng(0)
            _, masks = v.reset()
            for _ in range(5):
                v.step_random()
            rust, sampled = [], []
            for _ in range(rounds):
                start = time.perf_counter()
                for _ in range(batches):
                    v.step_random()
                rust.append(n * batches / (time.perf_counter() - start))
                _, masks, *_ = v.step_random()
                start = time.perf_counter()
                for _ in range(batches):
                    _, masks, *_ = v.step(sample_from_masks(masks, rng, packed))
                sampled.append(n * batches / (time.perf_counter() - start))
            kind = "packed" if packed else "unpacked"
            print(f"{kind:8} {n:>6} {statistics.median(rust):>13,.0f} {statistics.median(sampled):>15,.0f}")
    print(f"(medians of {rounds} rounds)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--scale", type=float, default=1.0, help="steps a round, relative")
    ap.add_argument("--sizes", default="64,256,1024,4096", help="N for fow.VecGames")
    ap.add_argument("--vector-only", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",")]
    if a.vector_only:
        vector(a.rounds, a.scale, sizes)
        return
    import pyspiel  # noqa: F401  (checked before anything is timed)

    cpu = "?"
    if os.path.exists("/proc/cpuinfo"):
        with open("/proc/cpuinfo") as f:
            cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "?")
    print("bench_env.py: " + " ".join(sys.argv[1:]))
    print(f"machine: {cpu}, {os.cpu_count()} cores; load average at start {os.getloadavg()[0]:.2f}")
    print(
        f"python {platform.python_version()}, numpy {np.__version__}, fow {fow.__version__} "
        f"({os.path.realpath(fow._fow.__file__)}), open_spiel {version('open_spiel')}, "
        f"pettingzoo {version('pettingzoo')}"
    )
    print()
    single_thread(a.rounds, a.scale)
    print()
    vector(a.rounds, a.scale, sizes)
    print()
    sys.stdout.flush()
    args = [sys.executable, __file__, "--vector-only", "--rounds", str(a.rounds)]
    args += ["--scale", str(a.scale / 2), "--sizes", a.sizes]
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    subprocess.run(args, env=env, check=True)
    print()
    print(f"load average at end {os.getloadavg()[0]:.2f}")


def version(package):
    try:
        from importlib.metadata import version as v

        return v(package)
    except Exception:
        return "?"


if __name__ == "__main__":
    main()
