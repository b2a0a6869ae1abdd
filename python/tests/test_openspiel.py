"""fow's rules in OpenSpiel (fow.openspiel): pyspiel's state API plays random games to the
end under fow's rules, with each player's own observations and information states."""

import pickle
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel game needs open_spiel")

import fow  # noqa: E402
import fow.openspiel  # noqa: E402, F401  (registers python_fow)


def test_the_game_is_registered_with_its_shape():
    game = pyspiel.load_game("python_fow")
    assert game.num_players() == 2
    assert game.num_distinct_actions() == fow.ACTIONS
    assert game.max_game_length() == 400
    assert game.observation_tensor_shape() == [fow.PLANES, 8, 8]
    assert game.information_state_tensor_shape() == [201, fow.INFO_PLANES, 8, 8]
    t = game.get_type()
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.provides_information_state_tensor and t.provides_observation_tensor


@pytest.mark.parametrize(
    "params",
    [{}, {"rules": "chesscom"}, {"rules": "thesis", "en_passant": "on", "draw_plies": 30}],
)
def test_random_games_through_the_state_api_follow_fows_rules(params):
    # A short game keeps the information-state tensors small (31 rows, not 201).
    game = pyspiel.load_game("python_fow", dict(params, max_plies=60))
    switches = {k: v for k, v in params.items() if k != "rules"}
    rules = params.get("rules", "thesis")
    rows = game.information_state_tensor_shape()[0]
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state()
        twin = fow.Game(rules, **switches)  # the same moves on fow's own game
        while not state.is_terminal():
            player = state.current_player()
            assert player == ("white", "black").index(twin.turn)
            legal = state.legal_actions()
            assert legal == sorted(twin.legal_actions())
            for p, color in enumerate(("white", "black")):
                assert state.observation_string(p) == twin.view(color)
                obs = np.asarray(state.observation_tensor(p)).reshape(fow.PLANES, 8, 8)
                assert np.array_equal(obs, twin.tensor(color))
                assert state.information_state_string(p) == twin.info_state(color)
                info = np.asarray(state.information_state_tensor(p))
                info = info.reshape(rows, fow.INFO_PLANES, 8, 8)
                mine = twin.info_state_tensor(color)
                assert np.array_equal(info[: len(mine)], mine) and not info[len(mine) :].any()
            action = rng.choice(legal)
            assert state.action_to_string(player, action) == fow.action_to_uci(action)
            state.apply_action(action)
            twin.play(action)
        assert twin.is_over or twin.ply == game.max_game_length()
        want = {"1-0": [1.0, -1.0], "0-1": [-1.0, 1.0]}.get(twin.result, [0.0, 0.0])
        assert state.returns() == want
        assert state.current_player() == pyspiel.PlayerId.TERMINAL


def test_max_plies_ends_the_game_as_a_draw():
    game = pyspiel.load_game("python_fow(max_plies=6)")
    state = game.new_initial_state()
    for action in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]:
        assert not state.is_terminal()
        state.apply_action(fow.uci_to_action(action))
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


def test_pyspiel_random_sim_test_passes_with_serialization():
    for params in ({"max_plies": 80}, {"rules": "chesscom", "repetition": 0, "max_plies": 80}):
        pyspiel.random_sim_test(
            pyspiel.load_game("python_fow", params), num_sims=3, serialize=True, verbose=False
        )


def test_states_pickle_and_clone():
    game = pyspiel.load_game("python_fow", {"rules": "chesscom", "draw_plies": 50})
    state = game.new_initial_state()
    for action in ["e2e4", "d7d5", "e4d5"]:
        state.apply_action(fow.uci_to_action(action))
    for copy in (pickle.loads(pickle.dumps(state)), state.clone()):
        assert copy.history() == state.history()
        assert copy.information_state_string(1) == state.information_state_string(1)
        assert copy.game.switches == state.game.switches
    state.clone().apply_action(state.legal_actions()[0])
    assert len(state.history()) == 3


def test_openspiel_mcts_plays_fow():
    mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
    evaluate_bots = pytest.importorskip("open_spiel.python.algorithms.evaluate_bots")
    game = pyspiel.load_game("python_fow", {"max_plies": 40})
    rng = np.random.RandomState(1)
    bots = [
        mcts.MCTSBot(game, 2, 10, mcts.RandomRolloutEvaluator(1, rng), random_state=rng),
        pyspiel.make_uniform_random_bot(1, 2),
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize(
    "params",
    [
        {"rules": "blitz"},
        {"fen": "8/8/8"},
        {"max_plies": 0},
        {"castling": "maybe"},
        {"draw_plies": -5},
    ],
)
def test_bad_parameters_raise_fows_errors(params):
    with pytest.raises(fow.FowError):
        pyspiel.load_game("python_fow", params)


def test_observers_other_than_a_players_own_are_refused():
    game = pyspiel.load_game("python_fow")
    public = pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    with pytest.raises(fow.FowError):
        game.make_py_observer(public)
