"""Type stubs of fow's native module (python/src/*.rs); see help(fow) for the encodings."""

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str
ACTIONS: int
"""The number of actions: 4288 (4096 from-to moves and 192 promotions)."""
PLANES: int
"""The planes of one view: 16."""
INFO_PLANES: int
"""The planes of one row of an information state: 38."""

Color = Union[str, int]
"""'white' / 'w' / 0 or 'black' / 'b' / 1."""
MoveLike = Union[str, int]
"""A move as UCI text ('e2e4', 'e7e8q') or as an action number."""

class FowError(ValueError):
    """An error of fow's, with its one-line message."""

def uci_to_action(uci: str) -> int:
    """The action number of a UCI move; FowError for text that is no move."""

def action_to_uci(action: int) -> str:
    """The UCI text of an action number; FowError outside 0..ACTIONS."""

def players() -> List[Tuple[str, str, List[Tuple[str, str, str, str]]]]:
    """Every built-in bot: (name, description, [(parameter, default, range, what it does)])."""

class Observation:
    """All a player is given for one decision, and nothing more."""

    def __init__(
        self, view: str, previous: Optional[str] = None, ply: int = 0, rules: str = "thesis"
    ) -> None: ...
    @property
    def color(self) -> str: ...
    @property
    def ply(self) -> int: ...
    @property
    def view(self) -> str: ...
    @property
    def previous(self) -> Optional[str]: ...
    @property
    def rules(self) -> str: ...
    def legal_moves(self) -> List[str]: ...
    def legal_actions(self) -> List[int]: ...
    def is_legal(self, mv: MoveLike) -> bool: ...
    def tensor(self) -> npt.NDArray[np.uint8]:
        """The view as uint8 planes, shape (16, 8, 8)."""
    def mask(self) -> npt.NDArray[np.uint8]:
        """The legal-action mask, shape (ACTIONS,)."""
    def pieces(self) -> Dict[str, str]:
        """The pieces it sees, its own and the enemy's: square ('e4') to letter ('P', 'n')."""
    def fog(self) -> List[str]:
        """The squares in fog, a1 first."""
    def diagram(self) -> str: ...

class Game:
    """A game of fog-of-war chess: the true position, the moves, the result, each side's view."""

    def __init__(self, rules: str = "thesis", fen: Optional[str] = None, **switches: Any) -> None: ...
    @classmethod
    def replay(
        cls, moves: Sequence[str], rules: str = "thesis", fen: Optional[str] = None, **switches: Any
    ) -> "Game": ...
    @property
    def rules_name(self) -> str: ...
    @property
    def switches(self) -> str: ...
    @property
    def fen(self) -> str: ...
    @property
    def start_fen(self) -> str: ...
    @property
    def turn(self) -> str: ...
    @property
    def ply(self) -> int: ...
    @property
    def moves(self) -> List[str]: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def result(self) -> str: ...
    @property
    def winner(self) -> Optional[str]: ...
    @property
    def reason(self) -> Optional[str]: ...
    def legal_moves(self) -> List[str]: ...
    def legal_actions(self) -> List[int]: ...
    def mask(self) -> npt.NDArray[np.uint8]: ...
    def play(self, mv: MoveLike) -> None: ...
    def clone(self) -> "Game": ...
    def view(self, color: Color) -> str: ...
    def tensor(self, color: Color) -> npt.NDArray[np.uint8]: ...
    def observation(self) -> Observation: ...
    def info_state(self, color: Color) -> str: ...
    def info_state_tensor(self, color: Color) -> npt.NDArray[np.uint8]: ...
    def board(self) -> str: ...
    def diagram(self, color: Color) -> str: ...
    def perft(self, depth: int) -> int: ...

class Bot:
    """A player built from a spec (see fow.players()): a built-in bot, exec: or uci:."""

    def __init__(self, spec: str) -> None: ...
    @property
    def spec(self) -> str: ...
    @property
    def nodes(self) -> int: ...
    def start(
        self,
        color: Color,
        seed: int = 0,
        rules: str = "thesis",
        fen: Optional[str] = None,
        **switches: Any,
    ) -> None: ...
    def choose(self, obs: Observation, nodes: Optional[int] = None) -> str: ...

class GameStart:
    """What a Python bot is told when a game begins: its colour, its seed, the rules and
    the public start position (FEN)."""

    def __init__(self, color: Color, seed: int = 0, rules: str = "thesis", fen: Optional[str] = None) -> None: ...
    @property
    def color(self) -> str: ...
    @property
    def seed(self) -> int: ...
    @property
    def rules(self) -> str: ...
    @property
    def fen(self) -> str: ...

def register_bot(bot: Any, name: Optional[str] = None) -> str:
    """Registers a Python bot class (or a callable that makes a bot) under its name (or
    `name`); returns the spec name it plays under in runs."""

def tournament(
    players: Optional[Sequence[Any]] = None,
    *,
    games: Optional[int] = None,
    gauntlet: Any = None,
    rules: str = "thesis",
    seed: Optional[int] = None,
    nodes: Optional[int] = None,
    jobs: Optional[int] = None,
    out: Optional[str] = None,
    method: str = "bayeselo",
    progress: Optional[Callable[[int, int], Any]] = None,
    **switches: Any,
) -> Any:
    """A round robin (or a gauntlet) of specs and Python bot classes, written as
    `fow tournament` writes it; returns fow.read_results(folder)."""

def match(
    a: Any,
    b: Any,
    *,
    games: Optional[int] = None,
    sprt: Optional[str] = None,
    rules: str = "thesis",
    seed: Optional[int] = None,
    nodes: Optional[int] = None,
    jobs: Optional[int] = None,
    out: Optional[str] = None,
    progress: Optional[Callable[[int, int], Any]] = None,
    **switches: Any,
) -> Any:
    """Game pairs of A against B (or a gauntlet), with an optional SPRT, written as
    `fow match` writes it; returns fow.read_results(folder)."""

def resume(
    dir: str,
    *,
    bots: Optional[Sequence[Any]] = None,
    jobs: Optional[int] = None,
    progress: Optional[Callable[[int, int], Any]] = None,
) -> Any:
    """Finishes an interrupted run in `dir` with the settings stored there."""

def results_json(dir: str, method: str = "bayeselo") -> str:
    """A results folder read and rated, as JSON (fow.read_results builds on it)."""

class VecGames:
    """N games stepped at once with numpy arrays in and out; a game that ends starts
    again at once (auto-reset). With packed=True, observations are (n, 16) uint64
    bitboards and masks (n, ACTIONS // 8) bits (numpy.unpackbits(..., bitorder="little"))."""

    REASONS: Tuple[str, ...]
    def __init__(
        self,
        n: int,
        rules: str = "thesis",
        seed: int = 0,
        max_plies: Optional[int] = None,
        packed: bool = False,
        **switches: Any,
    ) -> None: ...
    def __len__(self) -> int: ...
    def reset(self, seed: Optional[int] = None) -> Tuple[np.ndarray, np.ndarray]:
        """Starts every game again: (observations, masks) of the side to move."""
    def step(
        self, actions: Any
    ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, np.ndarray]]:
        """Plays one action per game: (observations, masks, rewards, dones, info)."""
    def step_random(
        self,
    ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, np.ndarray]]:
        """step(random_actions()) without the round trip through Python."""
    def random_actions(self) -> npt.NDArray[np.int64]: ...
    @property
    def turn(self) -> npt.NDArray[np.uint8]: ...
    @property
    def plies(self) -> npt.NDArray[np.uint32]: ...
    def fen(self, i: int) -> str: ...
    @property
    def packed(self) -> bool: ...
    @property
    def seed(self) -> int: ...
    @property
    def max_plies(self) -> Optional[int]: ...
    @property
    def rules_name(self) -> str: ...
    @property
    def switches(self) -> str: ...
