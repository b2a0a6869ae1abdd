"""Checks that what a player receives from an environment depends only on what it has
seen, never on the hidden state: the no-leak check of ``tests/test_no_leak.py`` and
``results/python/no_leak.py``, usable on any environment with ``FowEnv``'s methods (a
wrapper of your own, say).

A player *receives*, from an environment ``e``: ``e.observe(player)`` (planes and mask),
``e.info_state(player)``, ``e.info_state_tensor(player)``, and its reward, termination,
truncation and infos. Two checks, both driving environments through these methods only:

- ``paired_games``: two games in lockstep whose histories are identical from the
  player's side while the opponent's moves differ in the fog. *Identical from the
  player's side* is the rules' definition: the same own moves, and at each point where
  the player observes (the start, its turns, right after each of its moves, the end) the
  same *look*: its ``FogView`` (``Game.view``, fog-FEN) and, at the end, the result and
  its reason, which are public. At each such point the player's receipts from both
  environments must be equal. After one of its own moves the player may learn more (its
  piece sees new squares): when the looks then differ, the pair is told apart and the
  walk stops there.
- ``hidden_changes``: from positions of random games, changes what the player cannot see
  (moves, removes or swaps the opponent's hidden pieces, drops the opponent's castling
  rights, changes the clocks); where the player's visible squares and the true pieces on
  them are unchanged, environments started from the two positions must give the player
  equal receipts. Sameness is computed here from the true positions (FEN), not from the
  views under test, so a view that shows too much cannot hide its own leak.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from . import FowError, Game

AGENTS = ("white", "black")


@dataclass
class Report:
    """What a check compared and what it found."""

    #: Pairs of states compared (each a point where the player observes).
    compared: int = 0
    #: Of those, the pairs whose true positions differ (FEN: board, rights, clocks).
    hidden_differs: int = 0
    #: Walks or positions checked.
    cases: int = 0
    #: One line per leak found: where, and which receipt differed.
    leaks: list[str] = field(default_factory=list)

    def add(self, other: "Report") -> None:
        """Adds `other`'s counts and leaks to this report's."""
        self.compared += other.compared
        self.hidden_differs += other.hidden_differs
        self.cases += other.cases
        self.leaks += other.leaks


def receipts(e: Any, player: str) -> dict[str, Any]:
    """All that `player` receives from the environment `e` now."""
    obs = e.observe(player)
    return {
        "observation": obs["observation"],
        "action_mask": obs["action_mask"],
        "info_state": e.info_state(player),
        "info_state_tensor": e.info_state_tensor(player),
        "reward": e.rewards[player],
        "terminated": e.terminations[player],
        "truncated": e.truncations[player],
        "infos": e.infos[player],
        "to move": e.agent_selection == player,
    }


def difference(a: dict[str, Any], b: dict[str, Any]) -> str | None:
    """The name of the first receipt that differs between `a` and `b`, or None."""
    for key in a:
        x, y = a[key], b[key]
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            same = (
                isinstance(x, np.ndarray)
                and isinstance(y, np.ndarray)
                and x.dtype == y.dtype
                and np.array_equal(x, y)
            )
        else:
            same = type(x) is type(y) and x == y
        if not same:
            return key
    return None


def look(game: Game, player: str) -> tuple:
    """What `player` can tell of `game` now, by the rules: its view (fog-FEN), and the
    result and its reason, public once the game is over."""
    return (game.view(player), game.result, game.reason)


def _done(e: Any) -> bool:
    """Whether the environment's game ended or was truncated."""
    return any(e.terminations.values()) or any(e.truncations.values())


def _compare(report: Report, a: Any, b: Any, player: str, where: str) -> bool:
    """Compares the player's receipts from `a` and `b`; records a leak; whether equal."""
    report.compared += 1
    if a.game.fen != b.game.fen:
        report.hidden_differs += 1
    d = difference(receipts(a, player), receipts(b, player))
    if d is not None:
        report.leaks.append(
            f"{where}: {player}'s {d} differs between two histories identical from its side "
            f"(moves {' '.join(a.game.moves)} | {' '.join(b.game.moves)})"
        )
        return False
    return True


def _by_look(game: Game, player: str) -> dict[tuple, list[tuple[int, str]]]:
    """The side to move's actions grouped by the look `player` gets right after each,
    with the true position (FEN) each reaches."""
    out: dict[tuple, list[tuple[int, str]]] = {}
    for action in game.legal_actions():
        after = game.clone()
        after.play(action)
        out.setdefault(look(after, player), []).append((action, after.fen))
    return out


def _opponent_moves(rng: random.Random, a: Game, b: Game, player: str):
    """Two opponent actions, one in `a` and one in `b`, after which `player` gets the
    same look, preferring two that leave different true positions; None if none."""
    la, lb = _by_look(a, player), _by_look(b, player)
    common = [k for k in la if k in lb]
    if not common:
        return None
    rng.shuffle(common)
    for k in common:
        apart = [(x, y) for x, fx in la[k] for y, fy in lb[k] if fx != fy]
        if apart:
            return rng.choice(apart)
    k = common[0]
    return rng.choice(la[k])[0], rng.choice(lb[k])[0]


def paired_games(
    make_env: Callable[[], Any],
    walks: int,
    seed: int,
    prefix: int = 40,
    plies: int = 300,
) -> Report:
    """`walks` pairs of games from `make_env()` (an environment with ``FowEnv``'s
    methods and its ``game`` property), each pair first sharing a random prefix of up to
    `prefix` plies, then walking apart in the fog for up to `plies` plies as seen by a
    random player; the player's receipts are compared at each point where it observes."""
    rng = random.Random(seed)
    report = Report()
    for w in range(walks):
        report.cases += 1
        player = rng.choice(AGENTS)
        a, b = make_env(), make_env()
        a.reset(seed=seed + w)
        b.reset(seed=seed + w)
        for _ in range(rng.randrange(prefix + 1)):
            if _done(a):
                break
            action = rng.choice(a.game.legal_actions())
            a.step(action)
            b.step(action)
        where = f"walk {w}"
        if not _compare(report, a, b, player, where):
            continue
        for _ in range(plies):
            if _done(a) or _done(b):
                break
            ga, gb = a.game, b.game
            if a.agent_selection != player:
                pair = _opponent_moves(rng, ga, gb, player)
                if pair is None:
                    break
                a.step(pair[0])
                b.step(pair[1])
                if not _compare(report, a, b, player, f"{where}, ply {ga.ply + 1}"):
                    break
            else:
                action = rng.choice(ga.legal_actions())
                a.step(action)
                b.step(action)
                if look(a.game, player) != look(b.game, player):
                    break  # its own move showed it something that tells them apart
                if not _compare(report, a, b, player, f"{where}, ply {ga.ply + 1}"):
                    break
    return report


def _squares(board_fen: str) -> list[str]:
    """The 64 squares of a FEN board, a1 first: a piece letter, or '.' when empty."""
    rows = []
    for row in board_fen.split("/"):
        cells = []
        for ch in row:
            cells += ["."] * int(ch) if ch.isdigit() else [ch]
        rows.append(cells)
    return [c for row in reversed(rows) for c in row]


def _board_fen(squares: list[str]) -> str:
    """A FEN board from 64 squares, a1 first."""
    rows = []
    for rank in range(7, -1, -1):
        text, empty = "", 0
        for c in squares[rank * 8 : rank * 8 + 8]:
            if c == ".":
                empty += 1
            else:
                text += (str(empty) if empty else "") + c
                empty = 0
        rows.append(text + (str(empty) if empty else ""))
    return "/".join(rows)


def _visible(game: Game, player: str) -> list[bool]:
    """The squares `player` sees, a1 first (the rules' visibility, read from the
    view's fog marks only: what stands on them is read from the true position)."""
    return [c != "?" for c in _squares(game.view(player).split()[0])]


def _disturb(fen: str, visible: list[bool], player: str, rng: random.Random) -> str | None:
    """`fen` with one change `player` cannot see, or None when there is none to make."""
    board, turn, castling, ep, half, full = fen.split()
    sq = _squares(board)
    theirs = str.islower if player == "white" else str.isupper
    hidden = [i for i, c in enumerate(sq) if c != "." and theirs(c) and not visible[i]]
    movable = [i for i in hidden if sq[i].lower() != "k"]
    free = [i for i, c in enumerate(sq) if c == "." and not visible[i]]
    kind = rng.randrange(5)
    touched = None
    if kind == 0 and movable and free:
        i, j = rng.choice(movable), rng.choice(free)
        if sq[i].lower() == "p" and j // 8 in (0, 7):
            return None
        sq[i], sq[j], touched = ".", sq[i], sq[i]
    elif kind == 1 and movable:
        i = rng.choice(movable)
        sq[i], touched = ".", sq[i]
    elif kind == 2 and [i for i in movable if sq[i].lower() != "p"]:
        i = rng.choice([i for i in movable if sq[i].lower() != "p"])
        role = rng.choice("nbrq")
        touched = sq[i]
        sq[i] = role.upper() if sq[i].isupper() else role
    elif kind == 3:
        castling = "".join(c for c in castling if not theirs(c)) or "-"
    elif kind == 4:
        half, full = str(rng.randrange(150)), str(rng.randrange(1, 300))
    else:
        return None
    if touched is not None and touched.lower() == "r":
        castling = "".join(c for c in castling if not theirs(c)) or "-"
    return " ".join([_board_fen(sq), turn, castling, ep, half, full])


def _same_look(a: Game, b: Game, player: str) -> bool:
    """Whether `player` sees the same in both true positions: the same visible squares,
    the same true pieces on them, the same own castling rights (from the FENs)."""
    va, vb = _visible(a, player), _visible(b, player)
    sa, sb = _squares(a.fen.split()[0]), _squares(b.fen.split()[0])
    ours = str.isupper if player == "white" else str.islower
    rights = lambda g: [c for c in g.fen.split()[2] if ours(c)]  # noqa: E731
    return va == vb and all(sa[i] == sb[i] for i in range(64) if va[i]) and rights(a) == rights(b)


def hidden_changes(
    make_env: Callable[[str], Any],
    positions: int,
    seed: int,
    rules: str = "thesis",
    changes: int = 4,
    plies: int = 80,
) -> Report:
    """From `positions` positions of seeded random games under `rules`, up to `changes`
    changes each that a random player cannot see; where it sees the same, environments
    from `make_env(fen)` at the two positions must give it equal receipts."""
    rng = random.Random(seed)
    report = Report()
    for p in range(positions):
        g = Game(rules)
        for _ in range(rng.randrange(plies + 1)):
            if g.is_over:
                break
            g.play(rng.choice(g.legal_actions()))
        if g.is_over:
            continue
        report.cases += 1
        player = rng.choice(AGENTS)
        visible = _visible(g, player)
        base = make_env(g.fen)
        base.reset()
        for _ in range(changes):
            fen = _disturb(g.fen, visible, player, rng)
            if fen is None:
                continue
            try:
                other = make_env(fen)
            except FowError:
                continue  # not a position a game can start from
            other.reset()
            if not _same_look(base.game, other.game, player):
                continue
            _compare(report, base, other, player, f"position {p} ({g.fen} -> {fen})")
    return report
