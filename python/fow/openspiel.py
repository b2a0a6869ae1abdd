"""fow's rules as an OpenSpiel game: importing this module registers ``python_fow`` with
OpenSpiel's Python API (``pyspiel``, from the ``open-spiel`` package), so that
OpenSpiel's algorithms and tools that work on any game run on fow's rules.

>>> import pyspiel
>>> import fow.openspiel
>>> game = pyspiel.load_game("python_fow", {"rules": "chesscom"})
>>> state = game.new_initial_state()
>>> state.apply_action(state.legal_actions()[0])
>>> state.information_state_string(1)
'black\\nnow rnbqkbnr/pppppppp/8/8/????????/????????/????????/???????? b kq -'

The game: two players, 0 White and 1 Black, moving in turn (no chance nodes);
``num_distinct_actions()`` is ``fow.ACTIONS`` (4288) in fow's action encoding
(``state.action_to_string`` writes UCI); returns +1, -1 or 0 for a draw at the end.

Parameters:

- ``rules``: the preset, ``"thesis"`` (the default) or ``"chesscom"``;
- ``en_passant`` (``"on"``, ``"off"``), ``promotion`` (``"queen"``, ``"any"``),
  ``castling`` (``"off"``, ``"positional"``, ``"rights"``), ``draw_plies`` and
  ``repetition`` (a number; 0 turns the rule off): switches that change the preset,
  each its own parameter (OpenSpiel's game strings have no room for fow's
  ``key=value`` lists); the default, ``""`` or -1, keeps the preset's setting. So
  ``pyspiel.load_game("python_fow(rules=chesscom,draw_plies=50)")``;
- ``fen``: the start position; ``""`` (the default) for the standard one;
- ``max_plies``: OpenSpiel needs a bounded game with fixed-size tensors, so a game that
  reaches this many plies ends there as a draw (default 400; about 1% of random games
  under either rule set go longer). fow's own rules have no such limit.

Observations (each player's own, nothing hidden):

- ``observation_string(p)`` / ``observation_tensor(p)``: the player's view now as
  fog-FEN and as fow's 16 planes of 8 by 8 (``observation_tensor_shape()`` is
  ``[16, 8, 8]``);
- ``information_state_string(p)`` / ``information_state_tensor(p)``: the perfect-recall
  information state, ``fow.Game.info_state`` and ``info_state_tensor``, the tensor's rows
  padded with zeros to ``(max_plies + 1) // 2 + 1`` rows of 38 planes (201 by default:
  about 489,000 numbers).

What works: ``pyspiel.load_game``, the state API (``legal_actions``, ``apply_action``,
``clone``, ``returns``, ``history``, observation and information-state strings and
tensors), ``pyspiel.random_sim_test``, and algorithms that only play states forward,
such as ``open_spiel.python.algorithms.mcts`` with a random-rollout evaluator or
``open_spiel.python.algorithms.evaluate_bots``. What does not: anything that enumerates
the game tree (CFR, exploitability, sequence-form methods): the game is far too large;
and information-set MCTS (``pyspiel.ISMCTSBot``), which needs states resampled from an
information state, which this game does not provide. Python games also run far slower
than OpenSpiel's C++ games; ``fow.env`` is the fast way to play from Python.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from . import ACTIONS, INFO_PLANES, PLANES, FowError, Game, action_to_uci

SHORT_NAME = "python_fow"
#: The rule switches, each a parameter whose default ("" or -1) keeps the preset's.
SWITCHES = {"en_passant": "", "promotion": "", "castling": "", "draw_plies": -1, "repetition": -1}
DEFAULTS = {"rules": "thesis", **SWITCHES, "fen": "", "max_plies": 400}
COLORS = ("white", "black")

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Fog-of-war chess (fow)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


def _info_rows(max_plies: int) -> int:
    """The information-state tensor's rows: a side's most turns, plus its view now."""
    return (max_plies + 1) // 2 + 1


class FowGame(pyspiel.Game):
    """fow's fog-of-war chess as an OpenSpiel game (parameters: ``rules``, the
    switches, ``fen``, ``max_plies``; see the module's docstring)."""

    def __init__(self, params: dict[str, Any] | None = None):
        p = dict(DEFAULTS, **(params or {}))
        max_plies = p["max_plies"]
        if isinstance(max_plies, bool) or not isinstance(max_plies, int) or max_plies < 1:
            raise FowError(f"max_plies is a whole number from 1, not {max_plies!r}")
        # Checks the rules and the start position once, with fow's messages.
        self.rules = p["rules"]
        self.switches = {
            k: ("off" if p[k] == 0 else p[k]) for k, keep in SWITCHES.items() if p[k] != keep
        }
        Game(self.rules, p["fen"] or None, **self.switches)
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTIONS,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_plies,
        )
        super().__init__(_GAME_TYPE, info, p)
        self.fen = p["fen"] or None
        self.max_plies = max_plies

    def new_initial_state(self) -> "FowState":
        """A game at its start position."""
        return FowState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "FowObserver":
        """The observer of a player's view (``perfect_recall=False``, the default) or of
        its information state (``perfect_recall=True``)."""
        return FowObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            _info_rows(self.max_plies),
            params,
        )


class FowState(pyspiel.State):
    """A game of fog-of-war chess in progress: a ``fow.Game`` under OpenSpiel's state
    API."""

    def __init__(self, game: FowGame):
        super().__init__(game)
        self.game = Game(game.rules, game.fen, **game.switches)
        self._max_plies = game.max_plies

    def current_player(self) -> int:
        """0 (White) or 1 (Black) to move, or ``pyspiel.PlayerId.TERMINAL``."""
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return COLORS.index(self.game.turn)

    def _legal_actions(self, player: int) -> list[int]:
        """The player's legal actions, in increasing order."""
        return sorted(self.game.legal_actions())

    def _apply_action(self, action: int) -> None:
        """Plays the action (legal: OpenSpiel checks it against ``legal_actions``)."""
        self.game.play(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        """The action as UCI (``e2e4``)."""
        return action_to_uci(action)

    def is_terminal(self) -> bool:
        """Whether the game is over, or reached ``max_plies``."""
        return self.game.is_over or self.game.ply >= self._max_plies

    def returns(self) -> list[float]:
        """+1 to the winner and -1 to the loser at the end; zeros for a draw, a game
        stopped at ``max_plies`` and one going on."""
        winner = self.game.winner
        if winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == "white" else [-1.0, 1.0]

    def __str__(self) -> str:
        """The true position as FEN (for debugging: it shows hidden pieces)."""
        return self.game.fen


class FowObserver:
    """A player's view, or its information state, as OpenSpiel's Python observer
    interface asks: ``tensor`` (flat float32) and ``dict`` (shaped views of it),
    ``set_from(state, player)`` and ``string_from(state, player)``."""

    def __init__(self, iig_obs_type, info_rows: int, params):
        if params:
            raise FowError(f"fow's observer takes no parameters, not {params!r}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not (
            iig_obs_type.public_info
        ):
            raise FowError(
                "fow's observer gives a player's own view: public and private information "
                "together (private_info=SINGLE_PLAYER)"
            )
        self.perfect_recall = iig_obs_type.perfect_recall
        shape = (info_rows, INFO_PLANES, 8, 8) if self.perfect_recall else (PLANES, 8, 8)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        name = "info_state" if self.perfect_recall else "observation"
        self.dict = {name: self.tensor.reshape(shape)}
        self._shaped = self.dict[name]

    def set_from(self, state: FowState, player: int) -> None:
        """Fills ``tensor`` with what `player` has seen in `state`."""
        color = COLORS[player]
        if self.perfect_recall:
            rows = state.game.info_state_tensor(color)
            self._shaped[: len(rows)] = rows
            self._shaped[len(rows) :] = 0
        else:
            self._shaped[:] = state.game.tensor(color)

    def string_from(self, state: FowState, player: int) -> str:
        """What `player` has seen in `state` as text: its information state, or its view
        as fog-FEN."""
        color = COLORS[player]
        if self.perfect_recall:
            return state.game.info_state(color)
        return state.game.view(color)


pyspiel.register_game(_GAME_TYPE, FowGame)
