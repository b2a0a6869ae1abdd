"""fow.Observation's views of the board agree with its fog-FEN and with the game."""

import random

import fow


def squares_of_fog_fen(view):
    """Square -> letter ('?' for fog) from a fog-FEN's board."""
    out = {}
    for i, row in enumerate(view.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
                continue
            out["abcdefgh"[f] + str(8 - i)] = ch
            f += 1
    return out


def test_pieces_and_fog_agree_with_the_fog_fen_in_random_games():
    rng = random.Random(5)
    for rules in ("thesis", "chesscom"):
        for _ in range(10):
            g = fow.Game(rules)
            while not g.is_over:
                o = g.observation()
                seen = squares_of_fog_fen(o.view)
                assert o.pieces() == {s: p for s, p in seen.items() if p != "?"}
                assert set(o.fog()) == {s for s, p in seen.items() if p == "?"}
                assert o == fow.Observation(o.view, o.previous, o.ply, rules)
                g.play(rng.choice(o.legal_moves()))
