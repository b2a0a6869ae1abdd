"""fow.Game: the action encoding both ways, perft against the `fow perft` command, random
play to the end, results, errors with fow's messages, and views against tensors."""

import random
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

import fow
from command import fow_command

RULES = ["thesis", "chesscom"]
FILES = "abcdefgh"
REPO = Path(__file__).resolve().parents[2]

# Pawns one step from promoting for both sides, with pieces to capture on the last ranks.
PROMOTING = [
    "rn2k1nr/PPPPPPPP/8/8/8/8/pppppppp/RN2K1NR w - - 0 1",
    "rn2k1nr/PPPPPPPP/8/8/8/8/pppppppp/RN2K1NR b - - 0 1",
]


def square(index):
    return FILES[index % 8] + str(index // 8 + 1)


def documented_uci(action):
    """The UCI text of an action by the encoding as documented in help(fow), or None."""
    if action < 4096:
        return square(action // 64) + square(action % 64)
    a = action - 4096
    side, piece, file, direction = a // 96, a % 96 // 24, a % 24 // 3, a % 3
    to_file = file + direction - 1
    if not 0 <= to_file < 8:
        return None
    ranks = ("7", "8") if side == 0 else ("2", "1")
    return FILES[file] + ranks[0] + FILES[to_file] + ranks[1] + "nbrq"[piece]


def random_games(rules, seed, games, fen=None, **switches):
    """Yields every position (a fow.Game) of `games` random games, the last one over."""
    rng = random.Random(seed)
    for _ in range(games):
        g = fow.Game(rules, fen=fen, **switches)
        while True:
            yield g
            if g.is_over:
                break
            g.play(rng.choice(g.legal_moves()))


# --- the action encoding -------------------------------------------------------------


def test_every_action_maps_to_its_documented_uci_and_back():
    seen = set()
    for action in range(fow.ACTIONS):
        uci = documented_uci(action)
        if uci is None:
            # A promotion capturing off the board: a number with no move.
            with pytest.raises(fow.FowError, match=f"^{action} is no move: .* off the board"):
                fow.action_to_uci(action)
            continue
        assert fow.action_to_uci(action) == uci
        assert fow.uci_to_action(uci) == action
        seen.add(uci)
    # 2 sides x 4 pieces x 2 edge files have no capture off the board.
    assert len(seen) == fow.ACTIONS - 16
    for bad in [-1, fow.ACTIONS, 10**30]:
        with pytest.raises(fow.FowError, match="is not an action"):
            fow.action_to_uci(bad)


@pytest.mark.parametrize(
    "text, message",
    [
        ("e2e9", "is not a move in UCI notation"),
        ("e7e8k", "is not a move in UCI notation"),
        ("", "is not a move in UCI notation"),
        ("a7c8q", "is no move of fog-of-war chess"),
        ("e6e7q", "is no move of fog-of-war chess"),
        ("e7e8p", "is not a move in UCI notation"),
    ],
)
def test_text_that_is_no_move_is_refused(text, message):
    with pytest.raises(fow.FowError, match=message):
        fow.uci_to_action(text)


def check_legal_moves_encode_both_ways(g):
    moves, actions = g.legal_moves(), g.legal_actions()
    assert len(moves) == len(actions) == len(set(actions))
    for uci, action in zip(moves, actions):
        assert fow.uci_to_action(uci) == action
        assert fow.action_to_uci(action) == uci
    assert sorted(np.flatnonzero(g.mask())) == sorted(actions)


@pytest.mark.parametrize("rules", RULES)
def test_every_legal_move_of_random_games_encodes_both_ways(rules):
    positions = 0
    for g in random_games(rules, seed=1, games=12):
        check_legal_moves_encode_both_ways(g)
        positions += 1
    assert positions > 500


@pytest.mark.parametrize("rules, pieces", [("thesis", {"q"}), ("chesscom", set("nbrq"))])
@pytest.mark.parametrize("fen", PROMOTING)
def test_promotions_encode_both_ways(rules, pieces, fen):
    g = fow.Game(rules, fen=fen)
    check_legal_moves_encode_both_ways(g)
    promotions = [m for m in g.legal_moves() if len(m) == 5]
    assert {m[4] for m in promotions} == pieces
    # Straight ahead and both capturing directions occur.
    assert {FILES.index(m[2]) - FILES.index(m[0]) for m in promotions} == {-1, 0, 1}
    for a in g.legal_actions():
        if fow.action_to_uci(a) in promotions:
            assert 4096 <= a < fow.ACTIONS
    for g in random_games(rules, seed=2, games=6, fen=fen):
        check_legal_moves_encode_both_ways(g)


# --- perft against the command ---------------------------------------------------------


def cli_switches(switches):
    args = []
    for key, value in switches.items():
        args += ["--" + key.replace("_", "-"), str(value)]
    return args


def cli_perft(fen, depth, rules, switches):
    out = subprocess.run(
        [fow_command(), "perft", "--fen", fen, "--depth", str(depth), "--rules", rules]
        + cli_switches(switches),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return int(re.search(r"perft\(\d+\) = (\d+)", out).group(1))


def python_perft(g, depth):
    """Perft through the Python API alone: a captured king ends a line."""
    if depth == 1:
        return len(g.legal_moves())
    n = 0
    for m in g.legal_moves():
        child = g.clone()
        child.play(m)
        n += 1 if child.reason == "king captured" else python_perft(child, depth - 1)
    return n


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
PERFT = [
    (START, 3),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3),
    ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 3),
    ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 2),
    (PROMOTING[0], 2),
]


@pytest.mark.parametrize(
    "rules, switches",
    [("thesis", {}), ("chesscom", {}), ("thesis", {"en_passant": "on", "promotion": "any"})],
)
@pytest.mark.parametrize("fen, depth", PERFT)
def test_perft_equals_the_fow_perft_command(rules, switches, fen, depth):
    g = fow.Game(rules, fen=fen, **switches)
    want = cli_perft(fen, depth, rules, switches)
    assert g.perft(depth) == want
    assert python_perft(g, min(depth, 2)) == g.perft(min(depth, 2))


def test_perft_differs_where_the_rules_do():
    # En passant (f6) and underpromotion change the counts: the comparison above is not
    # between equal numbers by chance.
    ep, promo = PERFT[3][0], PERFT[4][0]
    assert fow.Game("thesis", fen=ep).perft(1) + 1 == fow.Game("chesscom", fen=ep).perft(1)
    assert fow.Game("thesis", fen=promo).perft(1) < fow.Game("chesscom", fen=promo).perft(1)


def test_python_perft_three_plies_from_the_start():
    assert python_perft(fow.Game(), 3) == 8902


# --- random play, results, errors ------------------------------------------------------


@pytest.mark.parametrize("rules", RULES)
def test_random_play_ends_with_a_consistent_result(rules):
    reasons = set()
    for g in random_games(rules, seed=4, games=25):
        if not g.is_over:
            assert g.result == "*" and g.winner is None and g.reason is None
            continue
        reasons.add(g.reason)
        assert g.legal_moves() == [] and g.legal_actions() == []
        assert not g.mask().any()
        assert g.ply == len(g.moves)
        if g.reason == "king captured":
            mover = "black" if g.ply % 2 == 0 else "white"
            assert g.winner == mover
            assert g.result == ("1-0" if mover == "white" else "0-1")
        else:
            assert g.reason in {"no progress", "repetition", "no legal moves"}
            assert g.winner is None and g.result == "1/2-1/2"
        with pytest.raises(fow.FowError, match=rf"^the game is over \({g.reason}\)$"):
            g.play(g.moves[-1])
        with pytest.raises(fow.FowError, match="the game is over"):
            g.observation()
        again = fow.Game.replay(g.moves, rules=rules)
        assert (again.fen, again.result, again.reason) == (g.fen, g.result, g.reason)
    assert "king captured" in reasons


def cli_error(args):
    """The one-line message the `fow` command gives for bad input."""
    run = subprocess.run([fow_command()] + args, capture_output=True, text=True)
    assert run.returncode != 0
    return run.stderr.strip().removeprefix("fow: error: ")


@pytest.mark.parametrize(
    "fen",
    ["xx", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "8/8/8/8/8/8/8/9 w - - 0 1"],
)
def test_a_bad_fen_raises_fows_message(fen):
    with pytest.raises(fow.FowError) as e:
        fow.Game(fen=fen)
    assert str(e.value) == cli_error(["perft", "--fen", fen, "--depth", "1"])


def test_a_bad_preset_or_switch_raises_fows_message():
    with pytest.raises(fow.FowError) as e:
        fow.Game("blitz")
    assert str(e.value) == cli_error(["perft", "--rules", "blitz", "--depth", "1"])
    assert str(e.value) == "unknown rule preset 'blitz' (known: thesis, chesscom)"
    with pytest.raises(fow.FowError, match=r"^unknown rule switch 'colour' \(known: "):
        fow.Game(colour="on")
    with pytest.raises(fow.FowError, match=r"^bad value 'maybe' for rule switch 'en_passant'"):
        fow.Game(en_passant="maybe")


def test_a_position_that_cannot_start_is_refused():
    with pytest.raises(fow.FowError, match="white has 0 kings"):
        fow.Game(fen="4k3/8/8/8/8/8/8/8 w - - 0 1")


def test_an_illegal_move_raises_and_changes_nothing():
    g = fow.Game()
    with pytest.raises(fow.FowError, match=r"^illegal move e2e5: not among the 20 legal moves$"):
        g.play("e2e5")
    with pytest.raises(fow.FowError, match=r"^illegal move a1a1: not among the 20 legal moves$"):
        g.play(0)
    with pytest.raises(fow.FowError, match="is not a move in UCI notation"):
        g.play("e2")
    with pytest.raises(fow.FowError, match="a move is UCI text"):
        g.play(1.5)
    assert g.ply == 0 and g.fen == START


@pytest.mark.parametrize(
    "colour, message",
    [("red", "a colour is 'white' or 'black', not 'red'"), (2, "a colour is 0 \\(white\\) or 1 \\(black\\), not 2")],
)
def test_an_unknown_colour_is_refused(colour, message):
    g = fow.Game()
    for method in (g.view, g.tensor, g.diagram, g.info_state, g.info_state_tensor):
        with pytest.raises(fow.FowError, match=message):
            method(colour)


def test_colours_are_read_every_documented_way():
    g = fow.Game()
    g.play("e2e4")
    for name, forms in [("white", ["white", "w", "WHITE", 0]), ("black", ["black", "b", 1])]:
        for c in forms:
            assert g.view(c) == g.view(name)


# --- views and tensors -----------------------------------------------------------------


def parse_view(text):
    """A fog-FEN as (grid[rank][file] of a piece letter, '?' or '.', side, castling, ep)."""
    board, side, castling, ep = text.split(" ")
    grid = []
    for row in reversed(board.split("/")):
        cells = []
        for ch in row:
            cells += ["."] * int(ch) if ch.isdigit() else [ch]
        assert len(cells) == 8, text
        grid.append(cells)
    assert len(grid) == 8, text
    return grid, side, castling, ep


def true_grid(fen):
    return parse_view(" ".join(fen.split(" ")[:4]))[0]


def check_view_against_tensor(g, colour):
    grid, side, castling, ep = parse_view(g.view(colour))
    t = g.tensor(colour)
    assert t.shape == (fow.PLANES, 8, 8) and t.dtype == np.uint8
    assert set(np.unique(t)) <= {0, 1}
    assert side == colour[0]
    white = colour == "white"
    truth = true_grid(g.fen)
    expected = np.zeros((fow.PLANES, 8, 8), dtype=np.uint8)
    for r in range(8):
        for f in range(8):
            cell = grid[r][f]
            if cell == "?":
                expected[12, r, f] = 1
                continue
            # What a side sees is the truth, and nothing of its own is hidden from it.
            assert cell == truth[r][f], (g.fen, colour)
            if cell != ".":
                ours = cell.isupper() == white
                expected[(0 if ours else 6) + "pnbrqk".index(cell.lower()), r, f] = 1
    for r in range(8):
        for f in range(8):
            own = truth[r][f] != "." and truth[r][f].isupper() == white
            assert not (own and grid[r][f] == "?")
    rank = 0 if white else 7
    for letter, file in [("k", 7), ("q", 0)]:
        if (letter.upper() if white else letter) in castling:
            expected[13, rank, file] = 1
    if ep != "-":
        expected[14, int(ep[1]) - 1, FILES.index(ep[0])] = 1
    expected[15] = 1 if white else 0
    np.testing.assert_array_equal(t, expected, err_msg=f"{g.fen} {colour}")
    assert g.diagram(colour).count("?") == int(t[12].sum())


@pytest.mark.parametrize("rules", RULES)
def test_views_and_tensors_agree(rules):
    starts = [None, PERFT[1][0], PERFT[3][0], PROMOTING[0]]
    for i, fen in enumerate(starts):
        for g in random_games(rules, seed=10 + i, games=2, fen=fen):
            for colour in ("white", "black"):
                check_view_against_tensor(g, colour)
            if not g.is_over:
                o = g.observation()
                assert o.color == g.turn and o.view == g.view(g.turn)
                np.testing.assert_array_equal(o.tensor(), g.tensor(g.turn))
                np.testing.assert_array_equal(o.mask(), g.mask())
                assert o.legal_actions() == g.legal_actions()


def test_an_en_passant_square_shows_in_view_and_tensor():
    g = fow.Game("chesscom")
    for m in ["e2e4", "d7d5", "e4e5", "f7f5"]:
        g.play(m)
    assert g.view("white").endswith(" w KQ f6")
    assert g.tensor("white")[14, 5, 5] == 1 and g.tensor("white")[14].sum() == 1
    assert fow.uci_to_action("e5f6") in g.legal_actions()
    thesis = fow.Game.replay(g.moves, rules="thesis")
    assert thesis.view("white").endswith(" -") and thesis.tensor("white")[14].sum() == 0
