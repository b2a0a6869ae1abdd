"""Python bots in fow's runs (fow.tournament, fow.match, fow.resume): the CLI's results
folders, the seeds, faults, Ctrl-C, and the same bot over the bot protocol."""

import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import fow
from command import fow_command
from fow.serve import serve

from runs_bots import FirstMove, Greedy, LastMove, Seeded

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parents[1]
# Where the fow under test was imported from (the installed wheel, or python/ in a
# development tree), for the programs the tests start.
INSTALLED = Path(fow.__file__).resolve().parents[1]
RUN_FILES = {
    "tournament.json",
    "games.csv",
    "times.csv",
    "crosstable.csv",
    "ratings.csv",
    "summary.csv",
    "los.csv",
}


def cli(*args):
    """Runs the fow command (skipping the test where it is not built)."""
    exe = fow_command()
    done = subprocess.run([exe, *args], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def read(path):
    return Path(path).read_bytes()


def test_a_python_bot_plays_a_tournament_into_the_files_of_the_cli(tmp_path):
    r = fow.tournament(
        [FirstMove, "RandomMove", "CaptureKing"], games=2, seed=3, out=tmp_path / "t", jobs=2
    )
    assert RUN_FILES <= set(os.listdir(tmp_path / "t"))
    assert r.config["players"] == ["FirstMove", "RandomMove", "CaptureKing"]
    assert len(r.games) == 3 * 2 * 2
    assert [g.id for g in r.games] == list(range(12))
    assert r.rating("FirstMove").games == 8
    assert "Ratings:" in r.text and "FirstMove" in r.text
    # Same seed, same games and ratings, whatever the threads.
    again = fow.tournament(
        [FirstMove, "RandomMove", "CaptureKing"], games=2, seed=3, out=tmp_path / "u", jobs=1
    )
    for f in ("games.csv", "ratings.csv", "crosstable.csv"):
        assert read(tmp_path / "t" / f) == read(tmp_path / "u" / f), f
    assert [x.elo for x in again.ratings] == [x.elo for x in r.ratings]


class Recorder:
    """Records what it is told: the game start and each observation's type and colour."""

    told = []

    def start(self, game):
        Recorder.told.append(game)
        self.color = game.color

    def choose(self, obs):
        assert isinstance(obs, fow.Observation) and obs.color == self.color
        return obs.legal_moves()[0]


def test_a_bot_is_told_its_colour_seed_rules_and_start_and_nothing_else(tmp_path):
    Recorder.told = []
    fow.tournament([Recorder, "RandomMove"], games=2, seed=11, out=tmp_path / "a", jobs=1)
    told = Recorder.told
    assert len(told) == 4
    assert all(isinstance(t, fow.GameStart) for t in told)
    public = {n for n in dir(told[0]) if not n.startswith("_")}
    assert public == {"color", "seed", "rules", "fen"}
    assert sorted(t.color for t in told) == ["black", "black", "white", "white"]
    assert len({t.seed for t in told}) == 4, "each game its own seed"
    assert {t.rules for t in told} == {"thesis"}
    assert {t.fen for t in told} == {fow.GameStart("white").fen}
    # The same seeds again from the same run seed; others from another.
    seeds = [t.seed for t in told]
    Recorder.told = []
    fow.tournament([Recorder, "RandomMove"], games=2, seed=11, out=tmp_path / "b", jobs=1)
    assert [t.seed for t in Recorder.told] == seeds
    Recorder.told = []
    fow.tournament([Recorder, "RandomMove"], games=2, seed=12, out=tmp_path / "c", jobs=1)
    assert not set(t.seed for t in Recorder.told) & set(seeds)
    # In a match each player keeps its seed in both games of a pair.
    Recorder.told = []
    fow.match(Recorder, "RandomMove", games=4, seed=11, out=tmp_path / "m", jobs=1)
    s = [t.seed for t in Recorder.told]
    assert s[0] == s[1] and s[2] == s[3] and s[0] != s[2]
    # Rules with switches reach it as text that fow.Game reads back.
    Recorder.told = []
    fow.tournament(
        [Recorder, "RandomMove"], games=1, rules="chesscom", draw_plies=50, out=tmp_path / "r", jobs=1
    )
    rules = Recorder.told[0].rules
    assert rules.startswith("custom(") and "draw-plies=50" in rules
    assert fow.Game(rules=rules).rules_name == "custom"


class FailsInChoose:
    def start(self, game):
        self.moves = 0

    def choose(self, obs):
        self.moves += 1
        if self.moves == 3:
            raise ValueError("boom at move 3")
        return obs.legal_moves()[0]


class FailsInStart:
    def start(self, game):
        raise RuntimeError("no start")

    def choose(self, obs):
        return obs.legal_moves()[0]


class AnswersNoMove:
    def start(self, game):
        pass

    def choose(self, obs):
        return "zz"


class AnswersIllegal:
    def start(self, game):
        pass

    def choose(self, obs):
        return "e2e5" if obs.color == "white" else "e7e4"


def test_a_fault_loses_the_game_with_the_reason_and_the_traceback_in_the_logs(tmp_path):
    dir = tmp_path / "faults"
    r = fow.tournament(
        [FailsInChoose, FailsInStart, AnswersNoMove, AnswersIllegal],
        gauntlet="RandomMove",
        games=1,
        seed=1,
        out=dir,
        jobs=2,
    )
    expected = {
        "FailsInChoose": ("player error", "FailsInChoose: choose raised ValueError: boom at move 3"),
        "FailsInStart": ("player error", "FailsInStart: start raised RuntimeError: no start"),
        "AnswersNoMove": ("protocol error", "AnswersNoMove: choose returned 'zz', which is not a UCI move"),
        "AnswersIllegal": ("illegal move", None),
    }
    assert len(r.games) == 8
    for g in r.games:
        bot, side = (g.white, "white") if g.white != "RandomMove" else (g.black, "black")
        reason, detail = expected[bot]
        assert g.result == ("0-1" if side == "white" else "1-0"), g
        assert g.reason == reason, g
        if detail is not None:
            assert g.detail == detail
        else:
            assert g.detail in ("e2e5", "e7e4")
        log = dir / "logs" / f"{g.id}-{side}.stderr"
        if reason == "player error":
            text = log.read_text()
            assert "Traceback (most recent call last)" in text
            assert ("boom at move 3" in text and "in choose" in text) or "no start" in text
        else:
            assert not log.exists()
    # A log for each game lost by an exception, and no other.
    errors = sum(g.reason == "player error" for g in r.games)
    assert len(list((dir / "logs").iterdir())) == errors == 4


class Interrupter:
    """RandomMove-like from its seed; raises KeyboardInterrupt at its second move of the
    game `interrupt_in` (counting the games it starts, from 0)."""

    started = 0
    interrupt_in = None

    def start(self, game):
        self.game = Interrupter.started
        Interrupter.started += 1
        self.moves = 0
        self.inner = Seeded()
        self.inner.start(game)

    def choose(self, obs):
        self.moves += 1
        if self.moves == 2 and self.game == Interrupter.interrupt_in:
            raise KeyboardInterrupt
        return self.inner.choose(obs)


def test_a_keyboard_interrupt_in_a_bot_halts_the_run_keeping_complete_games(tmp_path):
    players = [Interrupter, "RandomMove", "CaptureKing"]
    Interrupter.started, Interrupter.interrupt_in = 0, None
    whole = tmp_path / "whole"
    fow.tournament(players, games=2, seed=5, out=whole, jobs=1)
    # One job plays the schedule in order: Interrupter's third game is game 2.
    dir = tmp_path / "halted"
    Interrupter.started, Interrupter.interrupt_in = 0, 2
    with pytest.raises(KeyboardInterrupt) as e:
        fow.tournament(players, games=2, seed=5, out=dir, jobs=1)
    assert str(dir) in str(e.value)
    kept = fow.read_results(dir)
    assert [g.id for g in kept.games] == [0, 1], "complete games only, the one in flight dropped"
    Interrupter.interrupt_in = None
    r = fow.resume(dir, bots=[Interrupter], jobs=2)
    assert len(r.games) == 12
    for f in ("games.csv", "ratings.csv"):
        assert read(dir / f) == read(whole / f), f


def test_ctrl_c_keeps_complete_games_and_the_cli_resumes_the_folder(tmp_path):
    players = ["RandomMove", "CaptureKing", "CaptureLargest"]
    whole = tmp_path / "whole"
    fow.tournament(players, games=2, seed=9, out=whole, jobs=2)

    def interrupt_after_three(done, total):
        assert total == 12
        if done == 3:
            raise KeyboardInterrupt

    dir = tmp_path / "halted"
    with pytest.raises(KeyboardInterrupt):
        fow.tournament(players, games=2, seed=9, out=dir, jobs=1, progress=interrupt_after_three)
    assert [g.id for g in fow.read_results(dir).games] == [0, 1, 2]
    cli("tournament", "--resume", "--out", str(dir), "--quiet", "--jobs", "2")
    for f in ("games.csv", "ratings.csv", "crosstable.csv"):
        assert read(dir / f) == read(whole / f), f


def test_an_exception_in_progress_halts_the_run_and_is_raised(tmp_path):
    def fails_after_two(done, total):
        if done == 2:
            raise ValueError("progress failed")

    dir = tmp_path / "halted"
    with pytest.raises(ValueError, match="progress failed"):
        fow.tournament(["RandomMove", "CaptureKing"], games=3, seed=2, out=dir, jobs=1, progress=fails_after_two)
    assert [g.id for g in fow.read_results(dir).games] == [0, 1]
    assert len(fow.resume(dir).games) == 6


def test_a_sigint_halts_the_run_and_the_folder_resumes(tmp_path):
    players = ["RandomMove", "CaptureKing", "Supporter"]
    whole = tmp_path / "whole"
    fow.tournament(players, games=2, seed=4, out=whole, jobs=1)
    sent = []

    def sigint_once(done, total):
        if done == 2 and not sent:
            sent.append(done)
            os.kill(os.getpid(), signal.SIGINT)

    dir = tmp_path / "halted"
    with pytest.raises(KeyboardInterrupt):
        fow.tournament(players, games=2, seed=4, out=dir, jobs=1, progress=sigint_once)
    ids = [g.id for g in fow.read_results(dir).games]
    # However far the run got before the signal was seen: whole games, in order.
    assert len(ids) >= 2 and ids == list(range(len(ids)))
    fow.resume(dir)
    assert read(dir / "games.csv") == read(whole / "games.csv")


def exec_spec(cls):
    """`cls` of runs_bots as an exec: player over the bot protocol (fow.serve)."""
    path = os.pathsep.join([str(INSTALLED), str(TESTS)])
    return f"exec:cmd={sys.executable} -m fow.serve runs_bots:{cls.__name__},name={cls.__name__},env.PYTHONPATH={path}"


def test_the_same_bots_over_the_protocol_play_the_same_games_and_ratings(tmp_path):
    bots = [FirstMove, LastMove, Greedy]
    inproc = tmp_path / "inproc"
    r = fow.tournament(bots, games=2, seed=1, out=inproc, jobs=2)
    programs = tmp_path / "exec"
    cli(
        "tournament",
        "--players",
        ",".join(exec_spec(b) for b in bots),
        "--games",
        "2",
        "--seed",
        "1",
        "--out",
        str(programs),
        "--quiet",
        "--jobs",
        "2",
    )
    x = fow.read_results(programs)
    # The game seeds differ (they derive from the players' specs): these bots ignore them.
    same = lambda g: (g.id, g.round, g.result, g.reason, g.plies, g.detail, g.moves)  # noqa: E731
    assert [same(g) for g in x.games] == [same(g) for g in r.games]
    assert {g.reason for g in r.games} - {"king captured", "no progress"} == set()
    assert [g.plies for g in r.games] != [r.games[0].plies] * len(r.games)
    for f in ("ratings.csv", "crosstable.csv", "los.csv"):
        assert read(programs / f) == read(inproc / f), f
    assert [(a.player, a.elo) for a in x.ratings] == [(a.player, a.elo) for a in r.ratings]


def game_json(rules):
    """The `rules` of a new_game message, as fow sends them."""
    return {
        "thesis": {"en_passant": False, "promotion": "queen-only", "castling": "positional", "draw_plies": 200, "repetition": None},
        "chesscom": {"en_passant": True, "promotion": "any", "castling": "rights", "draw_plies": 100, "repetition": 3},
    }[rules]


class Keeper:
    """Keeps what it is given; plays a random move from its seed."""

    kept = []

    def start(self, game):
        Keeper.kept.append(game)
        self.rng = __import__("random").Random(game.seed)

    def choose(self, obs):
        Keeper.kept.append(obs)
        return self.rng.choice(obs.legal_actions())


@pytest.mark.parametrize("rules", ["thesis", "chesscom"])
def test_serve_gives_a_bot_exactly_what_it_gets_in_process(rules):
    """Each turn of a game, sent as fow sends it, reaches the bot as the observation the
    arena hands an in-process bot (fow.Game.observation), and the start as a GameStart."""
    g = fow.Game(rules)
    lines = [{"type": "hello", "protocol": 1}]
    lines.append({"type": "new_game", "color": "black", "rules": game_json(rules), "seed": 99, "options": {}, "start": g.fen})
    expected = [fow.GameStart("black", seed=99, rules=rules)]
    rng = __import__("random").Random(5)
    while not g.is_over and g.ply < 120:
        obs = g.observation()
        if obs.color == "black":
            lines.append({"type": "turn", "ply": obs.ply, "view": obs.view, "previous": obs.previous, "legal": obs.legal_moves(), "budget": {"nodes": None, "ms": None}, "timeout_ms": 10000})
            expected.append(obs)
        g.play(rng.choice(obs.legal_moves()))
    lines += [{"type": "game_end", "result": "1-0", "outcome": "loss", "reason": "king captured"}, {"type": "quit"}]
    out = io.StringIO()
    Keeper.kept = []
    serve(Keeper, "Keeper", io.StringIO("".join(json.dumps(m) + "\n" for m in lines)), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers[0] == {"type": "hello", "protocol": 1, "name": "Keeper", "options": []}
    assert answers[1] == {"type": "ready"}
    assert all(a["type"] == "move" for a in answers[2:]) and len(answers) == len(expected) + 1
    assert len(Keeper.kept) == len(expected) > 10
    for got, want in zip(Keeper.kept, expected):
        assert got == want


def test_serve_reports_an_exception_as_an_error_with_its_traceback(capsys):
    lines = [
        {"type": "new_game", "color": "white", "rules": game_json("thesis"), "seed": 1, "options": {}},
        {"type": "turn", "ply": 0, "view": fow.Game().view("white"), "previous": None, "legal": fow.Game().legal_moves(), "budget": {}, "timeout_ms": 1},
    ]

    class Broken:
        def start(self, game):
            pass

        def choose(self, obs):
            raise ValueError("boom")

    out = io.StringIO()
    serve(Broken, "Broken", io.StringIO("".join(json.dumps(m) + "\n" for m in lines)), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers[-1] == {"type": "error", "message": "choose raised ValueError: boom"}
    assert "Traceback" in capsys.readouterr().err


def test_bad_players_and_settings_are_refused_with_fow_errors(tmp_path):
    with pytest.raises(fow.FowError, match="not an instance"):
        fow.tournament([FirstMove(), "RandomMove"], games=1, out=tmp_path / "a")
    with pytest.raises(fow.FowError, match="unknown bot 'Nobody'"):
        fow.tournament(["Nobody", "RandomMove"], games=1, out=tmp_path / "b")

    class NoChoose:
        def start(self, game):
            pass

    with pytest.raises(fow.FowError, match="no choose"):
        fow.tournament([NoChoose, "RandomMove"], games=1, out=tmp_path / "c")
    Other = type("FirstMove", (FirstMove,), {})
    with pytest.raises(fow.FowError, match="two Python bots are named FirstMove"):
        fow.tournament([FirstMove, Other], games=1, out=tmp_path / "d")
    with pytest.raises(fow.FowError, match="taken"):
        fow.register_bot(FirstMove, name="RandomMove")
    with pytest.raises(fow.FowError, match="positive even number"):
        fow.match(FirstMove, "RandomMove", games=3, out=tmp_path / "e")
    with pytest.raises(fow.FowError, match="one opponent"):
        fow.match(FirstMove, ["RandomMove", "CaptureKing"], sprt="elo0=0,elo1=10", out=tmp_path / "f")
    with pytest.raises(fow.FowError, match="sprt"):
        fow.match(FirstMove, "RandomMove", sprt="elo0=10", out=tmp_path / "g")
    with pytest.raises(fow.FowError, match="method"):
        fow.tournament([FirstMove, "RandomMove"], games=1, method="elo", out=tmp_path / "h")
    with pytest.raises(fow.FowError, match="jobs"):
        fow.tournament([FirstMove, "RandomMove"], games=1, jobs=0, out=tmp_path / "i")
    fow.tournament([FirstMove, "RandomMove"], games=1, out=tmp_path / "j")
    with pytest.raises(fow.FowError, match="already holds a tournament"):
        fow.tournament([FirstMove, "RandomMove"], games=1, out=tmp_path / "j")
    # A registered name builds anywhere a spec does, fow.Bot included.
    name = fow.register_bot(Greedy, name="GreedyPy")
    bot = fow.Bot(name)
    bot.start("white", seed=1)
    assert bot.choose(fow.Game().observation()) in fow.Game().legal_moves()


def test_a_match_of_python_bots_writes_match_json(tmp_path):
    r = fow.match(Seeded, [FirstMove, "RandomMove"], games=4, seed=2, out=tmp_path / "m", jobs=2)
    written = json.loads((tmp_path / "m" / "match.json").read_text())
    assert written["player"] == "Seeded"
    assert [o["opponent"] for o in written["opponents"]] == ["FirstMove", "RandomMove"]
    assert r.match.player == "Seeded" and len(r.match.opponents) == 2
    assert [o.games for o in r.match.opponents] == [4, 4]
    assert r.text.startswith("Seeded against FirstMove")
