"""The PettingZoo environment (fow.env): PettingZoo's own API and seed tests, whole games
to the end, truncation, masks, rendering, information states and refused input."""

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the environment needs pettingzoo")
pytest.importorskip("gymnasium", reason="the environment needs gymnasium")

import fow  # noqa: E402
from fow.env import env, raw_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402


# api_test's advice that does not fit here: it names only its own environments as
# having dict observations, and the agents are "white" and "black" by design.
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:We recommend agents to be named")
@pytest.mark.parametrize("rules", ["thesis", "chesscom"])
def test_pettingzoo_api_test_passes(rules):
    api_test(env(rules=rules), num_cycles=300)
    api_test(raw_env(rules=rules, max_plies=40), num_cycles=300)


def test_pettingzoo_seed_test_passes():
    seed_test(lambda: env(rules="chesscom"), num_cycles=300)


def random_game(e, seed):
    """Plays `e` to the end with seeded random legal actions; returns the actions, the
    rewards summed per agent, and the last (terminated, truncated, info) per agent."""
    rng = random.Random(seed)
    e.reset(seed=seed)
    actions, total, last = [], {"white": 0, "black": 0}, {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        total[agent] += reward
        if terminated or truncated:
            last[agent] = (terminated, truncated, info)
            e.step(None)
            continue
        a = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        actions.append(a)
        e.step(a)
    return actions, total, last


@pytest.mark.parametrize("rules", ["thesis", "chesscom"])
def test_random_games_end_with_the_rules_result(rules):
    ends = set()
    for seed in range(12):
        e = env(rules=rules)
        actions, total, last = random_game(e, seed)
        # The same moves on a bare fow.Game give the result the rewards must follow.
        g = fow.Game(rules)
        for a in actions:
            g.play(a)
        assert g.is_over
        ends.add(g.reason)
        want = {"1-0": (1, -1), "0-1": (-1, 1), "1/2-1/2": (0, 0)}[g.result]
        assert (total["white"], total["black"]) == want
        for agent in ("white", "black"):
            terminated, truncated, info = last[agent]
            assert terminated and not truncated
            assert info["result"] == g.result and info["reason"] == g.reason
        assert e.agents == []
    assert "king captured" in ends


def test_truncation_at_max_plies():
    e = env(max_plies=7)
    actions, total, last = random_game(e, 3)
    assert len(actions) == 7
    assert total == {"white": 0, "black": 0}
    for agent in ("white", "black"):
        terminated, truncated, info = last[agent]
        assert truncated and not terminated
        assert info == {"legal_moves": [], "result": "*", "reason": "max plies"}


def test_observations_masks_and_infos_follow_the_game():
    e = raw_env(rules="chesscom")
    e.reset()
    rng = random.Random(5)
    for _ in range(60):
        agent = e.agent_selection
        if e.terminations[agent]:
            break
        g = e.game
        assert agent == g.turn
        obs, _, _, _, info = e.last()
        legal = sorted(g.legal_actions())
        assert np.flatnonzero(obs["action_mask"]).tolist() == legal
        assert obs["action_mask"].dtype == np.int8
        assert info["legal_moves"] == g.legal_moves()
        other = "black" if agent == "white" else "white"
        assert not e.observe(other)["action_mask"].any()
        assert e.infos[other] == {"legal_moves": []}
        for a in (agent, other):
            assert np.array_equal(e.observe(a)["observation"], g.tensor(a))
            assert e.observation_space(a).contains(e.observe(a))
        e.step(rng.choice(legal))


def test_illegal_and_malformed_actions_are_refused_and_change_nothing():
    e = env()
    e.reset()
    before = (e.game.fen, e.agent_selection, e.info_state("white"))
    for bad in [fow.uci_to_action("e2e5"), -1, fow.ACTIONS, 2.5, "e7e5", None, True]:
        with pytest.raises(fow.FowError):
            e.step(bad)
        assert (e.game.fen, e.agent_selection, e.info_state("white")) == before
    e.step(np.int32(fow.uci_to_action("e2e4")))  # numpy integers are actions too
    e.step("e7e5")  # and UCI text
    assert e.game.moves == ["e2e4", "e7e5"]


def test_terminate_illegal_wrapper_makes_an_illegal_move_lose():
    e = wrappers.TerminateIllegalWrapper(raw_env(), illegal_reward=-1)
    e.reset()
    e.step(fow.uci_to_action("e2e5"))
    assert e.terminations == {"white": True, "black": True}
    assert e.rewards == {"white": -1, "black": 0}


def test_dead_agents_take_only_none_and_a_finished_env_asks_for_reset():
    e = raw_env(max_plies=1)
    e.reset()
    e.step(fow.uci_to_action("e2e4"))
    with pytest.raises(ValueError):
        e.step(0)
    e.step(None)
    e.step(None)
    assert e.agents == []
    with pytest.raises(fow.FowError, match="reset"):
        e.step(None)


def test_bad_options_and_agents_are_refused():
    with pytest.raises(fow.FowError):
        raw_env(rules="blitz")
    with pytest.raises(fow.FowError):
        raw_env(fen="not a fen")
    with pytest.raises(fow.FowError):
        raw_env(switches={"no_such_switch": 1})
    with pytest.raises(fow.FowError):
        raw_env(switches="en_passant")
    for bad in (0, -3, 2.5, True, "10"):
        with pytest.raises(fow.FowError):
            raw_env(max_plies=bad)
    with pytest.raises(fow.FowError):
        raw_env(render_mode="rgb_array")
    e = raw_env()
    for method in (e.observe, e.info_state, e.info_state_tensor, e.action_space):
        with pytest.raises(fow.FowError):
            method("player_0")


def test_options_reach_the_game():
    fen = "4k3/8/8/8/8/8/3q4/4K3 b - - 0 1"
    e = raw_env(rules="thesis", switches={"en_passant": True}, fen=fen)
    e.reset()
    assert e.agent_selection == "black"
    assert e.game.start_fen == fen
    assert "en-passant=on" in e.game.switches
    e.step(fow.uci_to_action("d2e1"))
    assert e.terminations["white"] and e.rewards == {"white": -1, "black": 1}


def test_reset_seed_seeds_the_spaces():
    def samples(seed):
        e = env()
        e.reset(seed=seed)
        return [e.action_space(a).sample() for a in ("white", "black") for _ in range(5)]

    assert samples(7) == samples(7)
    assert samples(7) != samples(8)


def test_render_shows_the_board_and_both_views(capsys):
    e = raw_env(render_mode="ansi")
    e.reset()
    e.step(fow.uci_to_action("e2e4"))
    text = e.render()
    assert text.splitlines()[0] == "ply 1: black to move"
    assert "board" in text and "white sees" in text and "black sees" in text
    # White's pawn on e4 is on the true board and in White's view, not in Black's.
    row4 = next(line for line in text.splitlines() if line.startswith("4 "))
    board, white, black = (row4[i * 21 : i * 21 + 17] for i in range(3))
    assert board == "4 . . . . P . . ."
    assert white == "4 . . . . P . . ."
    assert black == "4 ? ? ? ? ? ? ? ?"
    human = raw_env(render_mode="human")
    human.reset()
    assert "white to move" in capsys.readouterr().out
    with pytest.warns(UserWarning, match="render_mode"):
        assert raw_env().render() is None
    e.close()


def test_information_states_hold_what_each_agent_has_seen():
    e = raw_env()
    e.reset()
    # Black, before its first move, has seen its side of the start position.
    black = e.info_state_tensor("black")
    assert black.shape == (1, fow.INFO_PLANES, 8, 8)
    assert np.array_equal(black[0, : fow.PLANES], e.observe("black")["observation"])
    assert e.info_state("black").splitlines()[1].startswith("now ")
    e.step(fow.uci_to_action("e2e4"))
    e.step(fow.uci_to_action("e7e5"))
    white = e.info_state_tensor("white")
    assert white.shape == (2, fow.INFO_PLANES, 8, 8)
    assert np.array_equal(white[-1, : fow.PLANES], e.observe("white")["observation"])
    assert white[0, fow.PLANES, 1, 4] == 1 and white[0, fow.PLANES + 1, 3, 4] == 1
    assert "played e2e4" in e.info_state("white")
    assert "played e2e4" not in e.info_state("black")
    assert e.info_state("black").splitlines()[-1].startswith("1. seen")


def test_an_environment_pickles_mid_game():
    import pickle

    e = raw_env(rules="chesscom", max_plies=50)
    e.reset(seed=3)
    e.step(fow.uci_to_action("e2e4"))
    copy = pickle.loads(pickle.dumps(e))
    assert copy.game.moves == ["e2e4"] and copy.agent_selection == "black"
    assert copy.info_state("white") == e.info_state("white")
    assert copy.game.switches == e.game.switches
