"""No leak: what a player receives from the environment depends only on what it has seen
(fow.no_leak's two checks), and the checks catch leaks planted on purpose."""

import pytest

pytest.importorskip("pettingzoo", reason="the environment needs pettingzoo")

import numpy as np  # noqa: E402

from fow import no_leak  # noqa: E402
from fow.env import FowEnv  # noqa: E402

RULES = ["thesis", "chesscom"]


def paired(cls, rules, walks=30, seed=1):
    return no_leak.paired_games(lambda: cls(rules=rules), walks, seed)


def changed(cls, rules, positions=60, seed=1):
    return no_leak.hidden_changes(
        lambda fen: cls(rules=rules, fen=fen), positions, seed, rules=rules
    )


@pytest.mark.parametrize("rules", RULES)
def test_histories_alike_to_a_player_give_it_the_same(rules):
    report = paired(FowEnv, rules)
    assert report.leaks == []
    # The check compared many pairs whose hidden states differ, or it proves nothing.
    assert report.hidden_differs >= 100, report


@pytest.mark.parametrize("rules", RULES)
def test_what_a_player_receives_never_depends_on_hidden_pieces(rules):
    report = changed(FowEnv, rules)
    assert report.leaks == []
    assert report.hidden_differs >= 100, report


def test_switches_and_a_draw_limit_leak_nothing():
    report = no_leak.paired_games(
        lambda: FowEnv(
            rules="thesis",
            switches={"en_passant": True, "promotion": "any", "draw_plies": 20, "repetition": 2},
        ),
        20,
        seed=7,
        prefix=60,
    )
    assert report.leaks == [] and report.hidden_differs >= 50, report


# Leaks planted on purpose: each shows the player something of the hidden state, as a
# plausible bug would. The checks must find every one of them.


def _hidden_enemy(game, player):
    """The first (from a1) enemy piece hidden from `player`: (square, plane) or None."""
    view = no_leak._squares(game.view(player).split()[0])
    true = no_leak._squares(game.fen.split()[0])
    theirs = str.islower if player == "white" else str.isupper
    for sq, (seen, piece) in enumerate(zip(view, true)):
        if seen == "?" and piece != "." and theirs(piece):
            return sq, 6 + "pnbrqk".index(piece.lower())
    return None


class SeesOneHiddenPiece(FowEnv):
    """Observation planes that show one hidden enemy piece."""

    def observe(self, agent):
        obs = super().observe(agent)
        found = _hidden_enemy(self._game, agent)
        if found is not None:
            sq, plane = found
            planes = obs["observation"].copy()
            planes[plane, sq // 8, sq % 8] = 1
            obs["observation"] = planes
        return obs


class RecallsTheOpponentsMove(FowEnv):
    """An information state that records the opponent's last move."""

    def info_state(self, agent):
        moves = self._game.moves
        last = moves[-1] if moves and self._game.turn == agent else "-"
        return super().info_state(agent) + f"\nthey played {last}"


class ShowsHiddenPawns(FowEnv):
    """An information-state tensor whose last row's enemy-pawn plane comes from the true
    board (as a tensor filled from the position instead of the view would)."""

    def info_state_tensor(self, agent):
        t = super().info_state_tensor(agent).copy()
        pawn = "p" if agent == "white" else "P"
        true = no_leak._squares(self._game.fen.split()[0])
        for sq, piece in enumerate(true):
            t[-1, 6, sq // 8, sq % 8] = piece == pawn
        return t


class TellsTheClock(FowEnv):
    """Infos that carry the plies since the last capture or pawn move (hidden: the
    opponent's pawn moves in the fog count)."""

    def observe(self, agent):
        self.infos[agent] = dict(self.infos[agent], clock=int(self._game.fen.split()[4]))
        return super().observe(agent)


class MasksACaptureInTheFog(FowEnv):
    """A mask that also marks a move onto the first hidden enemy piece (as a move
    generator that took captures from the true board would)."""

    def observe(self, agent):
        obs = super().observe(agent)
        found = _hidden_enemy(self._game, agent)
        if obs["action_mask"].any() and found is not None:
            mask = obs["action_mask"].copy()
            mask[found[0]] = 1
            obs["action_mask"] = mask
        return obs


@pytest.mark.parametrize(
    "leaky",
    [
        SeesOneHiddenPiece,
        RecallsTheOpponentsMove,
        ShowsHiddenPawns,
        TellsTheClock,
        MasksACaptureInTheFog,
    ],
)
def test_paired_games_catch_a_planted_leak(leaky):
    report = paired(leaky, "thesis", walks=15)
    assert report.leaks, f"{leaky.__name__} went unnoticed: {report}"


@pytest.mark.parametrize("leaky", [SeesOneHiddenPiece, ShowsHiddenPawns, TellsTheClock])
def test_hidden_changes_catch_a_planted_leak(leaky):
    report = changed(leaky, "thesis", positions=30)
    assert report.leaks, f"{leaky.__name__} went unnoticed: {report}"


def test_receipts_differ_where_they_should():
    # The comparison itself: equal receipts pass, a changed plane or dtype does not.
    e = FowEnv()
    e.reset()
    a = no_leak.receipts(e, "white")
    b = no_leak.receipts(e, "white")
    assert no_leak.difference(a, b) is None
    b["observation"] = b["observation"].copy()
    b["observation"][12, 7, 7] = 0
    assert no_leak.difference(a, b) == "observation"
    b = dict(a, action_mask=a["action_mask"].astype(np.uint8))
    assert no_leak.difference(a, b) == "action_mask"
