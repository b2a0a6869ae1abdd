"""fow.VecGames: N games stepped together agree move by move with fow.Game; packed and
unpacked arrays agree; finished games restart; bad input is refused."""

import numpy as np
import pytest

import fow

REASONS = fow.VecGames.REASONS


def expected_reward(game, mover):
    """+1, -1 or 0 for `mover` in a finished `game`."""
    if game.winner is None:
        return 0.0
    return 1.0 if game.winner == mover else -1.0


def check_arrays(v, games, obs, masks):
    """The VecGames arrays are, game by game, what fow.Game gives its side to move."""
    assert obs.shape == (len(v), fow.PLANES, 8, 8) and obs.dtype == np.uint8
    assert masks.shape == (len(v), fow.ACTIONS) and masks.dtype == np.uint8
    turns = v.turn
    for i, g in enumerate(games):
        assert turns[i] == (0 if g.turn == "white" else 1)
        np.testing.assert_array_equal(obs[i], g.tensor(g.turn), err_msg=f"game {i}")
        np.testing.assert_array_equal(masks[i], g.mask(), err_msg=f"game {i}")
        assert sorted(np.flatnonzero(masks[i])) == sorted(g.legal_actions())


@pytest.mark.parametrize(
    "rules, switches",
    [
        ("thesis", {}),
        ("chesscom", {}),
        # Short draw limits, so that every way a game ends occurs in a short test.
        ("chesscom", {"draw_plies": 12}),
    ],
)
def test_agrees_move_by_move_with_game(rules, switches):
    n, steps = 5, 250
    v = fow.VecGames(n, rules=rules, seed=11, **switches)
    games = [fow.Game(rules, **switches) for _ in range(n)]
    obs, masks = v.reset()
    check_arrays(v, games, obs, masks)
    rng = np.random.default_rng(3)
    ended = set()
    for step in range(steps):
        if step % 2:
            actions = v.random_actions()
        else:
            # Sampled from the masks in numpy, as an agent would.
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, masks, rewards, dones, info = v.step(actions)
        assert rewards.dtype == np.float32 and dones.dtype == np.bool_
        for i, a in enumerate(actions):
            g = games[i]
            mover = g.turn
            g.play(int(a))
            assert bool(dones[i]) == g.is_over, f"game {i}, step {step}"
            assert not info["truncated"][i]
            if g.is_over:
                assert rewards[i] == expected_reward(g, mover)
                assert REASONS[info["reason"][i]] == g.reason
                ended.add(g.reason)
                games[i] = fow.Game(rules, **switches)
            else:
                assert rewards[i] == 0.0 and info["reason"][i] == 0
        assert np.array_equal(info["turn"], v.turn)
        check_arrays(v, games, obs, masks)
    assert "king captured" in ended
    if switches:
        assert "no progress" in ended


def test_step_random_is_step_of_random_actions():
    a = fow.VecGames(8, rules="chesscom", seed=5)
    b = fow.VecGames(8, rules="chesscom", seed=5)
    for _ in range(60):
        got = a.step_random()
        want = b.step(b.random_actions())
        for x, y in zip(got[:4], want[:4]):
            np.testing.assert_array_equal(x, y)
        for key in ("turn", "truncated", "reason"):
            np.testing.assert_array_equal(got[4][key], want[4][key])


def test_same_seed_same_games_other_seed_other_games():
    def run(seed):
        v = fow.VecGames(4, seed=seed)
        for _ in range(30):
            v.step_random()
        return [v.fen(i) for i in range(4)]

    assert run(7) == run(7)
    assert run(7) != run(8)
    # Games of one batch draw from streams of their own.
    assert len(set(run(7))) > 1


def test_reset_with_a_seed_restarts_the_streams():
    v = fow.VecGames(3, seed=1)
    for _ in range(5):
        v.step_random()
    obs, masks = v.reset(seed=9)
    assert (v.plies == 0).all()
    fresh = fow.VecGames(3, seed=9)
    fresh_obs, fresh_masks = fresh.reset()
    np.testing.assert_array_equal(obs, fresh_obs)
    np.testing.assert_array_equal(masks, fresh_masks)
    np.testing.assert_array_equal(v.random_actions(), fresh.random_actions())


@pytest.mark.parametrize("rules", ["thesis", "chesscom"])
def test_packed_and_unpacked_agree(rules):
    n = 6
    plain = fow.VecGames(n, rules=rules, seed=2)
    packed = fow.VecGames(n, rules=rules, seed=2, packed=True)
    assert packed.packed and not plain.packed

    def same(p_obs, p_masks, q_obs, q_masks):
        assert q_obs.shape == (n, fow.PLANES) and q_obs.dtype == np.uint64
        assert q_masks.shape == (n, fow.ACTIONS // 8) and q_masks.dtype == np.uint8
        bits = np.unpackbits(q_obs.astype("<u8").view(np.uint8), axis=1, bitorder="little")
        np.testing.assert_array_equal(bits.reshape(n, fow.PLANES, 8, 8), p_obs)
        np.testing.assert_array_equal(
            np.unpackbits(q_masks, axis=1, bitorder="little"), p_masks
        )

    same(*plain.reset(), *packed.reset())
    for _ in range(150):
        actions = plain.random_actions()
        np.testing.assert_array_equal(actions, packed.random_actions())
        p = plain.step(actions)
        q = packed.step(actions)
        same(p[0], p[1], q[0], q[1])
        for x, y in zip(p[2:4], q[2:4]):
            np.testing.assert_array_equal(x, y)


def play_uci(v, moves):
    """Plays the same UCI move in every game."""
    return v.step(np.full(len(v), fow.uci_to_action(moves), dtype=np.int64))


def test_a_captured_king_ends_the_game_and_it_restarts():
    v = fow.VecGames(3, seed=0)
    start_obs, start_masks = v.reset()
    for m in ["e2e4", "f7f6", "d1h5", "a7a6"]:
        obs, masks, rewards, dones, info = play_uci(v, m)
        assert not dones.any() and (rewards == 0).all()
    obs, masks, rewards, dones, info = play_uci(v, "h5e8")
    assert dones.all() and (rewards == 1.0).all()
    assert not info["truncated"].any()
    assert [REASONS[r] for r in info["reason"]] == ["king captured"] * 3
    # Auto-reset: the arrays are the new game's first, White to move.
    assert (info["turn"] == 0).all() and (v.plies == 0).all()
    np.testing.assert_array_equal(obs, start_obs)
    np.testing.assert_array_equal(masks, start_masks)
    assert v.fen(0) == fow.Game().fen


def test_a_repetition_draws_and_the_game_restarts():
    v = fow.VecGames(2, rules="chesscom", repetition=2)
    for m in ["g1f3", "g8f6", "f3g1"]:
        assert not play_uci(v, m)[3].any()
    obs, masks, rewards, dones, info = play_uci(v, "f6g8")
    assert dones.all() and (rewards == 0).all()
    assert [REASONS[r] for r in info["reason"]] == ["repetition"] * 2
    assert (v.plies == 0).all()


def test_max_plies_truncates_and_restarts():
    v = fow.VecGames(4, seed=3, max_plies=3)
    start_obs, _ = v.reset()
    for k in range(1, 4):
        obs, masks, rewards, dones, info = v.step_random()
        assert np.array_equal(v.plies, np.full(4, k % 3))
    assert dones.all() and info["truncated"].all() and (rewards == 0).all()
    assert [REASONS[r] for r in info["reason"]] == ["max plies"] * 4
    np.testing.assert_array_equal(obs, start_obs)


@pytest.mark.parametrize("n, packed", [(3, False), (5, True), (2, True)])
def test_arrays_are_aligned_and_writable(n, packed):
    v = fow.VecGames(n, packed=packed)
    obs, masks, rewards, dones, info = v.step_random()
    for a in (obs, masks, rewards, dones, *info.values()):
        assert a.flags.aligned and a.flags.writeable and a.flags.c_contiguous
    # Masks are whole 64-bit words, readable as such.
    words = masks.view("<u8")
    assert words.shape == (n, masks.shape[1] // 8) and words.flags.aligned


def test_returned_arrays_are_not_overwritten_by_the_next_step():
    v = fow.VecGames(2, seed=4)
    obs, masks, *_ = v.step_random()
    kept = obs.copy(), masks.copy()
    v.step_random()
    np.testing.assert_array_equal(obs, kept[0])
    np.testing.assert_array_equal(masks, kept[1])


def test_an_illegal_action_names_the_game_and_the_move_and_changes_nothing():
    v = fow.VecGames(4, seed=6)
    twin = fow.VecGames(4, seed=6)
    actions = v.random_actions()
    twin.random_actions()
    bad = actions.copy()
    bad[2] = fow.uci_to_action("e2e5")
    with pytest.raises(fow.FowError, match=r"^game 2: illegal move e2e5 .*not among the 20 legal moves"):
        v.step(bad)
    assert [v.fen(i) for i in range(4)] == [twin.fen(i) for i in range(4)]
    got, want = v.step(actions), twin.step(actions)
    for x, y in zip(got[:4], want[:4]):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize(
    "actions, message",
    [
        ([fow.ACTIONS, 0], r"game 0: 4288 is not an action \(0 to 4287\)"),
        ([-1, 0], r"game 0: -1 is not an action"),
        (np.array([2**64 - 1, 0], dtype=np.uint64), r"game 0: 18446744073709551615 is not"),
        ([796, 1.5], r"actions are integers .* not float64"),
        ([True, False], r"actions are integers .* not bool"),
        (["e2e4", "e2e4"], r"actions are integers"),
        ([796], r"actions have shape \(2,\), one per game, not \(1,\)$"),
        ([[796, 796]], r"actions have shape \(2,\), one per game, not \(1, 2\)$"),
        (796, r"actions have shape \(2,\), one per game, not \(\)$"),
    ],
)
def test_bad_actions_are_refused(actions, message):
    v = fow.VecGames(2)
    with pytest.raises(fow.FowError, match=message):
        v.step(actions)
    assert (v.plies == 0).all()


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"n": 0}, r"n is the number of games, 1 to 65536, not 0"),
        ({"n": 70000}, r"not 70000"),
        ({"n": 2, "max_plies": 0}, r"max_plies is at least 1"),
        ({"n": 2, "seed": -1}, r"a seed is an integer from 0 to 2\*\*64 - 1, not -1"),
        ({"n": 2, "rules": "blitz"}, r"blitz"),
        ({"n": 2, "en_passant": "maybe"}, r"maybe"),
        ({"n": 2, "colour": "on"}, r"colour"),
    ],
)
def test_bad_settings_are_refused(kwargs, message):
    with pytest.raises(fow.FowError, match=message):
        fow.VecGames(**kwargs)


def test_bad_reset_seed_and_game_index_are_refused():
    v = fow.VecGames(2)
    with pytest.raises(fow.FowError, match="a seed is"):
        v.reset(seed=-3)
    with pytest.raises(fow.FowError, match="there is no game 2 of 2"):
        v.fen(2)
    with pytest.raises(fow.FowError, match="there is no game -1 of 2"):
        v.fen(-1)


def test_settings_read_back():
    v = fow.VecGames(3, rules="chesscom", seed=4, max_plies=9, packed=True, draw_plies=20)
    assert len(v) == 3 and v.seed == 4 and v.max_plies == 9 and v.packed
    assert v.rules_name == "custom" and "draw-plies=20" in v.switches
    assert repr(v).startswith("fow.VecGames(n=3, ")
