"""Python bots for the tests of runs (test_runs.py), importable by ``python3 -m
fow.serve runs_bots:NAME`` too, so that the same classes play in-process and as
``exec:`` programs. The first three ignore their seed: they play the same games
whatever seed a run gives them, which lets a run of them in-process and one over the
protocol (whose game seeds differ, since they derive from the players' specs) be
compared game by game."""

import random

# Piece weights as fow's bots have them (pawn 1, knight 3, bishop 3, rook 5, queen 10,
# king 100).
WEIGHTS = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 10, "k": 100}


def board_of(view):
    """The squares of a fog-FEN's board: {"e4": "P", ...}; "?" for fog."""
    squares = {}
    for i, row in enumerate(view.split()[0].split("/")):
        rank = 8 - i
        file = 0
        for c in row:
            if c.isdigit():
                file += int(c)
                continue
            squares["abcdefgh"[file] + str(rank)] = c
            file += 1
    return squares


class FirstMove:
    """Plays the first legal move."""

    def start(self, game):
        self.color = game.color

    def choose(self, obs):
        return obs.legal_moves()[0]


class LastMove:
    """Plays the last legal move, as an action number."""

    def start(self, game):
        pass

    def choose(self, obs):
        return obs.legal_actions()[-1]


class Greedy:
    """Captures the heaviest piece it sees (the first such move), else its first move
    towards the enemy's side; keeps a count of its turns and hears the end."""

    def start(self, game):
        self.turns = 0
        self.white = game.color == "white"

    def choose(self, obs):
        self.turns += 1
        board = board_of(obs.view)
        best, best_value = None, 0
        for m in obs.legal_moves():
            target = board.get(m[2:4], "")
            value = WEIGHTS.get(target.lower(), 0) if target not in ("", "?") else 0
            if value > best_value:
                best, best_value = m, value
        if best is not None:
            return best
        forward = [m for m in obs.legal_moves() if (m[3] > m[1]) == self.white and m[3] != m[1]]
        return (forward or obs.legal_moves())[0]

    def finish(self, outcome, reason):
        assert outcome in ("win", "loss", "draw") and reason


class Seeded:
    """A random legal move from its seed."""

    def start(self, game):
        self.rng = random.Random(game.seed)

    def choose(self, obs):
        return self.rng.choice(obs.legal_moves())
