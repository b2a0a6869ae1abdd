"""fow: fog-of-war chess in Python.

fow's rules (both rule sets, with their switches), each side's view as fog-FEN and as
planes, a fixed action encoding, information states, a PettingZoo environment
(:mod:`fow.env`), and every fow bot, all from the Rust library that the ``fow`` command
is built on.

>>> import fow
>>> g = fow.Game("thesis")
>>> g.play("e2e4")
>>> g.view("black")
'rnbqkbnr/pppppppp/8/8/????????/????????/????????/???????? b kq -'

The action encoding (``fow.ACTIONS`` = 4288 actions, the same for every position):

- ``from * 64 + to`` (0 to 4095) for each move that does not promote, castling written as
  the king's move (``e1g1``); squares count a1 = 0, b1 = 1, ..., h8 = 63;
- ``4096 + side * 96 + piece * 24 + file * 3 + direction`` (4096 to 4287) for promotions:
  side 0 White, 1 Black; piece 0 knight, 1 bishop, 2 rook, 3 queen; the pawn's file
  (a = 0); direction 0 capturing towards the a-file, 1 straight, 2 towards the h-file.

The observation planes (``fow.PLANES`` = 16, each 8 by 8 indexed [rank][file], rank 1
and the a-file first, for both sides): 0-5 our pawn, knight, bishop, rook, queen, king;
6-11 the enemy pieces we see, in the same order; 12 fog (squares we do not see); 13 our
rooks that may still castle; 14 the en passant square when we see one; 15 all ones when
we are White.

The information state's rows (``fow.INFO_PLANES`` = 38 planes each, one row per turn):
0-15 the view when the turn began; 16 the square the move left; 17 the square it
reached; 18-21 all ones when it promoted to a knight, bishop, rook or queen; 22-37 the
view right after the move. Then, when the side has seen more since its last move (it is
to move, it is Black before its first move, or the game ended on the other side's move),
a last row with its view now and zeros for the rest.
"""

from ._fow import (
    ACTIONS,
    INFO_PLANES,
    PLANES,
    Bot,
    FowError,
    Game,
    GameStart,
    Observation,
    VecGames,
    __version__,
    action_to_uci,
    match,
    players,
    register_bot,
    resume,
    tournament,
    uci_to_action,
)
from .results import read_results

__all__ = [
    "ACTIONS",
    "INFO_PLANES",
    "PLANES",
    "Bot",
    "FowError",
    "Game",
    "GameStart",
    "Observation",
    "VecGames",
    "__version__",
    "action_to_uci",
    "match",
    "players",
    "read_results",
    "register_bot",
    "resume",
    "tournament",
    "uci_to_action",
]
