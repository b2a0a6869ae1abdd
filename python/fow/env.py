"""fow as a PettingZoo environment: fog-of-war chess in the AEC (agent by agent) API.

>>> from fow.env import env
>>> e = env(rules="thesis", max_plies=400)
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     if terminated or truncated:
...         action = None
...     else:
...         action = e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

``env(**options)`` is the environment as PettingZoo's own environments give it (wrapped
in PettingZoo's ``OrderEnforcingWrapper``, which refuses a ``step`` before ``reset``);
``raw_env(**options)``, the same as ``FowEnv(**options)``, is the bare environment.

Options (all keywords):

- ``rules``: ``"thesis"`` (the default) or ``"chesscom"``, fow's two rule sets;
- ``switches``: a dict of rule switches that change the rule set, as ``fow.Game`` takes
  them (``{"en_passant": True, "draw_plies": 50, "repetition": 3, "promotion": "any",
  "castling": "rights"}``);
- ``fen``: the start position (FEN); the standard one when ``None``. The side to move in
  it moves first;
- ``max_plies``: after this many plies a game that is not over is truncated (both agents'
  truncations become True, rewards 0); ``None`` (the default): no limit, the rules alone
  end the game (both rule sets draw after a number of plies without progress);
- ``render_mode``: ``None``, ``"ansi"`` (``render()`` returns the text) or ``"human"``
  (``render()`` prints it, and each ``step`` renders).

Bad options raise ``fow.FowError`` with fow's message.

Agents: ``"white"`` and ``"black"`` (``possible_agents``), the side to move first being
``agent_selection`` after ``reset``.

Spaces, the same for both agents:

- ``action_space(agent)``: ``Discrete(fow.ACTIONS)`` (4288), the fixed action encoding
  of ``help(fow)``: ``fow.uci_to_action("e2e4")`` and ``fow.action_to_uci(a)`` convert;
- ``observation_space(agent)``: a ``Dict`` of

  - ``"observation"``: ``Box(0, 1, (16, 8, 8), uint8)``: the agent's own view of the
    current position, as ``fow.Game.tensor(agent)`` (the 16 planes of ``help(fow)``);
    the agent not to move sees the position as it left it after its own move;
  - ``"action_mask"``: ``Box(0, 1, (4288,), int8)``: 1 for each legal action of the
    agent to move; all zeros for the other agent and once the game is over.

Steps: ``step(action)`` plays the agent to move's action (an integer of the action
space; a UCI string is taken too). An illegal action raises ``fow.FowError`` and changes
nothing; wrap the environment in PettingZoo's ``TerminateIllegalWrapper`` to make an
illegal action lose instead. Once an agent is terminated or truncated, its only action is
``None``, as in every PettingZoo environment.

Rewards: at the end of the game, +1 to the winner and -1 to the loser, 0 to both for a
draw; 0 before the end and on truncation. ``terminations`` become True for both agents
when the game ends (a king captured, no legal move, the no-progress or repetition
rules), ``truncations`` when ``max_plies`` is reached.

Infos: ``infos[agent]["legal_moves"]`` holds the agent to move's legal moves in UCI (an
empty list for the other agent); at the end, both agents' infos also hold ``"result"``
(``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, or ``"*"`` when truncated) and ``"reason"``
(``"king captured"``, ``"no legal moves"``, ``"no progress"``, ``"repetition"``, or
``"max plies"``).

Information states: ``info_state(agent)`` (text) and ``info_state_tensor(agent)``
(uint8, shape ``(rows, 38, 8, 8)``) are the agent's perfect-recall information state,
its own moves and everything it has seen, from ``fow.Game.info_state`` (see
``help(fow)``). What an agent receives, its observation, mask, infos and information
state, depends only on what it has seen: ``tests/test_no_leak.py`` checks it.

Seeding: the rules have no chance, so a game depends on the actions alone.
``reset(seed=n)`` seeds ``np_random`` and each agent's action and observation spaces
(``seed + 0`` for white, ``seed + 1`` for black), so that agents sampling from
``action_space(agent)`` play the same games for the same seed. ``reset``'s ``options``
are not used (PettingZoo's API passes them).

``render()`` writes the ply, the side to move or the result, and three diagrams side by
side: the true board, White's view and Black's view (``?`` for fog). It shows hidden
pieces: it is for people watching, never for an agent.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import ACTIONS, PLANES, FowError, Game

AGENTS = ("white", "black")


def env(**options: Any) -> AECEnv:
    """The environment as PettingZoo's environments give it: ``FowEnv(**options)`` in
    PettingZoo's ``OrderEnforcingWrapper``. The options are ``FowEnv``'s."""
    return wrappers.OrderEnforcingWrapper(FowEnv(**options))


def raw_env(**options: Any) -> "FowEnv":
    """The bare environment, ``FowEnv(**options)``, as PettingZoo's ``raw_env``."""
    return FowEnv(**options)


class FowEnv(AECEnv):
    """Fog-of-war chess as a PettingZoo AEC environment: agents ``"white"`` and
    ``"black"``, each observing only its own view (the module's docstring lists the
    options and spaces)."""

    metadata = {
        "render_modes": ["ansi", "human"],
        "name": "fow_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str = "thesis",
        switches: dict[str, Any] | None = None,
        fen: str | None = None,
        max_plies: int | None = None,
        render_mode: str | None = None,
    ):
        super().__init__()
        if switches is not None and not isinstance(switches, dict):
            raise FowError(
                f"switches are a dict like {{'en_passant': True}}, not {switches!r}"
            )
        self._rules = rules
        self._switches = dict(switches or {})
        self._fen = fen
        # The game now, also checking the rules, switches and start position.
        self._game = Game(rules, fen, **self._switches)
        if max_plies is not None and (
            isinstance(max_plies, bool) or not isinstance(max_plies, (int, np.integer))
            or max_plies < 1
        ):
            raise FowError(f"max_plies is a whole number from 1, or None, not {max_plies!r}")
        self.max_plies = None if max_plies is None else int(max_plies)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise FowError(
                f"render_mode is 'ansi', 'human' or None, not {render_mode!r}"
            )
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = []
        self._action_spaces = {a: spaces.Discrete(ACTIONS) for a in AGENTS}
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, (PLANES, 8, 8), np.uint8),
                    "action_mask": spaces.Box(0, 1, (ACTIONS,), np.int8),
                }
            )
            for a in AGENTS
        }
        self.np_random, self.np_random_seed = seeding.np_random(None)
        self._start()

    def _start(self) -> None:
        """A new game from the start position, every agent live."""
        self._game = Game(self._rules, self._fen, **self._switches)
        self.agents = list(AGENTS)
        self.rewards = {a: 0 for a in AGENTS}
        self._cumulative_rewards = {a: 0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {"legal_moves": []} for a in AGENTS}
        self.agent_selection = self._game.turn
        self.infos[self.agent_selection]["legal_moves"] = self._game.legal_moves()

    @property
    def game(self) -> Game:
        """The true game (a copy): the hidden state, for the harness and for tests,
        never for an agent."""
        return self._game.clone()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a new game. ``seed`` seeds ``np_random`` and the agents' spaces (the
        rules have no chance); ``options`` are not used."""
        if seed is not None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
            for i, a in enumerate(AGENTS):
                self._action_spaces[a].seed(seed + i)
                self._observation_spaces[a].seed(seed + i)
        self._start()
        if self.render_mode == "human":
            self.render()

    def action_space(self, agent: str) -> spaces.Discrete:
        """``Discrete(fow.ACTIONS)``, the same object for each call (so seeding lasts)."""
        return self._action_spaces[self._agent(agent)]

    def observation_space(self, agent: str) -> spaces.Dict:
        """The ``Dict`` of ``"observation"`` (``Box`` uint8 ``(16, 8, 8)``) and
        ``"action_mask"`` (``Box`` int8 ``(fow.ACTIONS,)``), the same object for each
        call."""
        return self._observation_spaces[self._agent(agent)]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation: its own view of the current position as planes, and
        its legal-action mask (all zeros unless it is to move in a game not over)."""
        agent = self._agent(agent)
        if agent == self._game.turn:
            mask = self._game.mask().view(np.int8)
        else:
            mask = np.zeros(ACTIONS, np.int8)
        return {"observation": self._game.tensor(agent), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Plays the action of the agent to move (``None`` once it is terminated or
        truncated). Raises ``fow.FowError`` for an illegal action, changing nothing."""
        if not self.agents:
            raise FowError("the game is over and both agents have left: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or isinstance(action, (bool, np.bool_)):
            raise FowError(f"{agent} is to move: an action is a number, not {action!r}")
        self._game.play(action)
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        game = self._game
        if game.is_over:
            winner = game.winner
            for a in AGENTS:
                self.rewards[a] = 0 if winner is None else (1 if a == winner else -1)
                self.terminations[a] = True
                self.infos[a] = {"legal_moves": [], "result": game.result, "reason": game.reason}
            self.agent_selection = _other(agent)
        elif self.max_plies is not None and game.ply >= self.max_plies:
            for a in AGENTS:
                self.truncations[a] = True
                self.infos[a] = {"legal_moves": [], "result": "*", "reason": "max plies"}
            self.agent_selection = game.turn
        else:
            self.agent_selection = game.turn
            self.infos[agent] = {"legal_moves": []}
            self.infos[self.agent_selection] = {"legal_moves": game.legal_moves()}
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def info_state(self, agent: str) -> str:
        """``agent``'s perfect-recall information state as text (``fow.Game.info_state``):
        its turns (what it saw, what it played, what it saw then), its view now when it has
        seen more since, and the result at the end."""
        return self._game.info_state(self._agent(agent))

    def info_state_tensor(self, agent: str) -> np.ndarray:
        """``agent``'s information state as uint8 planes of shape ``(rows, 38, 8, 8)``
        (``fow.Game.info_state_tensor``): a row per turn, then its view now when it has
        seen more since."""
        return self._game.info_state_tensor(self._agent(agent))

    def render(self) -> str | None:
        """The game as text: the ply and the side to move or the result, then the true
        board, White's view and Black's view side by side. Returned for ``"ansi"``,
        printed for ``"human"``; with no render mode, a warning and ``None``."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() called without a render_mode: FowEnv(render_mode='ansi') returns text"
            )
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _text(self) -> str:
        """The text ``render`` shows."""
        g = self._game
        if g.is_over:
            head = f"ply {g.ply}: {g.result} ({g.reason})"
        elif any(self.truncations.values()):
            head = f"ply {g.ply}: truncated at max_plies={self.max_plies}"
        else:
            head = f"ply {g.ply}: {g.turn} to move"
        columns = [
            ["board"] + g.board().splitlines(),
            ["white sees"] + g.diagram("white").splitlines(),
            ["black sees"] + g.diagram("black").splitlines(),
        ]
        width = max(len(line) for col in columns for line in col) + 4
        rows = zip(*columns)
        body = "\n".join("".join(cell.ljust(width) for cell in row).rstrip() for row in rows)
        return f"{head}\n{body}"

    def close(self) -> None:
        """Nothing to release (the text renderer holds no window)."""

    def __repr__(self) -> str:
        return (
            f"FowEnv(rules={self._rules!r}, switches={self._switches!r}, fen={self._fen!r}, "
            f"max_plies={self.max_plies!r}, render_mode={self.render_mode!r})"
        )

    def _agent(self, agent: Any) -> str:
        """``agent`` checked: ``"white"`` or ``"black"``."""
        if agent not in AGENTS:
            raise FowError(f"an agent is 'white' or 'black', not {agent!r}")
        return agent


def _other(agent: str) -> str:
    """The other agent."""
    return AGENTS[1 - AGENTS.index(agent)]
