"""A bot written in Python plays a tournament against fow's built-in bots, in-process.

    pip install ./python          # once (or scripts/install-python-tools.sh, then maturin)
    python3 examples/python_tournament.py

The run is written as `fow tournament` writes it (games.csv, ratings.csv, ...), to the
folder printed at the end; `fow rate DIR` and `fow replay DIR` read it.
"""

import random

import fow

VALUE = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9, "k": 100}


class Hunter:
    """Takes the most valuable enemy piece it sees, a random move otherwise."""

    def start(self, game):
        # All randomness from the seed fow gives: the same games for the same run seed.
        self.rng = random.Random(game.seed)
        self.mine = str.isupper if game.color == "white" else str.islower

    def choose(self, obs):
        pieces = obs.pieces()  # square -> letter, of the pieces it sees

        def gain(move):
            target = pieces.get(move[2:4])
            return 0 if target is None or self.mine(target) else VALUE[target.lower()]

        moves = obs.legal_moves()
        best = max(gain(m) for m in moves)
        return self.rng.choice([m for m in moves if gain(m) == best])


if __name__ == "__main__":
    results = fow.tournament(
        [Hunter, "RandomMove", "CaptureLargest", "Supporter"], games=20, seed=1
    )
    print(results.text)
    print("written to", results.dir)
