"""Results folders as Python objects: what ``fow tournament``, ``fow match`` (and
``fow.tournament``, ``fow.match``) leave, read back.

>>> r = fow.read_results("results/runs/20261126-040501")      # doctest: +SKIP
>>> r.ratings[0].player, r.ratings[0].elo                       # doctest: +SKIP
>>> print(r.text)                                               # doctest: +SKIP
>>> r.games_frame()                                             # doctest: +SKIP

Every game is checked on reading as every fow command checks it (legal moves, a result
and reason the replay agrees with, its tag under the run's key); the ratings are fitted
as ``fow tournament`` and ``fow rate`` fit them (BayesElo's model, with the thesis and
maximum-likelihood fits beside), and a match's statistics are computed as ``fow match``
writes them to ``match.json``. ``*_frame()`` gives pandas DataFrames where pandas is
installed.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional

from ._fow import results_json

__all__ = ["Game", "Rating", "Opponent", "MatchStats", "Results", "read_results"]


@dataclass(frozen=True)
class Game:
    """A row of ``games.csv``: the game's number in the schedule (``id``), its round,
    the players' specs, the game seed, the result (``1-0``, ``0-1``, ``1/2-1/2``), the
    reason it ended, plies, the detail of a player failure, the moves in UCI, and the
    start FEN (``None`` for the standard start)."""

    id: int
    round: int
    white: str
    black: str
    seed: int
    result: str
    reason: str
    plies: int
    detail: str
    moves: List[str]
    start: Optional[str] = None


@dataclass(frozen=True)
class Rating:
    """A row of the ratings table (``ratings.csv``, with ``summary.csv``'s time per
    move): BayesElo's rating and the half-width of its 95% interval (``None`` for a
    player no fit relates to the others), the thesis's and the maximum-likelihood
    ratings, games, points and score."""

    player: str
    games: int
    points: float
    score_percent: Optional[float]
    elo: Optional[float]
    elo_ci95: Optional[float]
    thesis_elo: Optional[float]
    mle_elo: Optional[float]
    mle_ci95: Optional[float]
    rated: bool
    ms_per_move: Optional[float]


@dataclass(frozen=True)
class Opponent:
    """The game pairs of a match against one opponent: pentanomial counts (pairs scoring
    0, 0.5, 1, 1.5 and 2 points for the player under test), W/D/L, score, Elo and nElo
    with their 95% intervals (``{"value", "lower", "upper"}``, an infinite end ``None``),
    LOS, the pairs' draw ratio, and the SPRT's state (``{"llr", "lower", "upper",
    "verdict"}``) when the match has one."""

    opponent: str
    pentanomial: List[int]
    pairs: int
    games: int
    wins: int
    draws: int
    losses: int
    score: Optional[float]
    elo: Optional[Dict[str, Optional[float]]]
    nelo: Optional[Dict[str, Optional[float]]]
    los: Optional[float]
    pair_draw_ratio: Optional[float]
    sprt: Optional[Dict[str, Any]] = None


@dataclass(frozen=True)
class MatchStats:
    """A match's statistics, as ``match.json`` holds them: the player under test, the
    rules, the SPRT (``None`` for a fixed match), whether it ended the match early, and
    one :class:`Opponent` per opponent."""

    player: str
    rules: str
    sprt: Optional[str]
    stopped: bool
    opponents: List[Opponent]


@dataclass(frozen=True)
class Results:
    """A results folder read back: ``dir``, ``config`` (tournament.json's settings as a
    dict: players, labels, games_per_pair, rules, seed, nodes, schedule, sprt, games),
    ``games`` (:class:`Game`), ``ratings`` (:class:`Rating`, ``None`` when no fit applies,
    e.g. a player against itself), ``match`` (:class:`MatchStats` for a match folder),
    ``text`` (the tables as ``fow tournament`` / ``fow match`` print them) and ``notes``.
    """

    dir: str
    config: Optional[Dict[str, Any]]
    games: List[Game]
    ratings: Optional[List[Rating]]
    match: Optional[MatchStats]
    text: str
    notes: List[str] = field(default_factory=list)

    def rating(self, player: str) -> Rating:
        """The ratings row of ``player`` (its label: ``name=`` where given, else its
        spec); raises ``KeyError`` for a player not in the table."""
        for r in self.ratings or []:
            if r.player == player:
                return r
        raise KeyError(player)

    def games_frame(self):
        """The games as a pandas DataFrame, one row per game (``moves`` as a list)."""
        return _frame([asdict(g) for g in self.games], Game)

    def ratings_frame(self):
        """The ratings table as a pandas DataFrame, one row per player."""
        return _frame([asdict(r) for r in self.ratings or []], Rating)

    def match_frame(self):
        """A match's statistics as a pandas DataFrame, one row per opponent."""
        rows = [asdict(o) for o in (self.match.opponents if self.match else [])]
        return _frame(rows, Opponent)

    def __str__(self) -> str:
        return self.text


def _frame(rows, cls):
    """``rows`` as a DataFrame with ``cls``'s columns; raises ``ImportError`` saying so
    when pandas is not installed."""
    try:
        import pandas
    except ImportError as e:
        raise ImportError("a DataFrame needs pandas (pip install pandas)") from e
    columns = [f for f in cls.__dataclass_fields__]
    return pandas.DataFrame(rows, columns=columns)


def read_results(dir, method: str = "bayeselo") -> Results:
    """Reads the results folder ``dir`` (or its ``games.csv``): its games, checked as
    every fow command checks them, the ratings as ``fow tournament`` fits them (``method``
    adds columns as ``fow rate --method`` does: ``thesis``, ``mle`` or ``both``) and, for
    a match, its statistics. Raises ``fow.FowError`` for a folder that does not read."""
    data = json.loads(results_json(os.fspath(dir), method))
    games = [Game(**g) for g in data["games"]]
    ratings = None
    if data["ratings"] is not None:
        ratings = [Rating(**r) for r in data["ratings"]]
    match = None
    if data["match"] is not None:
        m = data["match"]
        match = MatchStats(
            player=m["player"],
            rules=m["rules"],
            sprt=m.get("sprt"),
            stopped=m["stopped"],
            opponents=[Opponent(**o) for o in m["opponents"]],
        )
    text = data["match_text"] if match is not None else data["ratings_text"]
    return Results(
        dir=data["dir"],
        config=data["config"],
        games=games,
        ratings=ratings,
        match=match,
        text=text,
        notes=data["notes"],
    )
