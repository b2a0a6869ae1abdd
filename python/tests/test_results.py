"""fow.read_results: results folders as Python objects, equal to the files the CLI
writes (games.csv, ratings.csv, match.json) and to what it prints."""

import csv
import json
import shutil
import subprocess
from dataclasses import asdict
from pathlib import Path

import pytest

import fow
from command import fow_command
from runs_bots import Seeded

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "results" / "match-examples"


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def number(x):
    """A rating as ratings.csv writes it."""
    return "" if x is None else f"{x:.2f}"


@pytest.fixture(scope="module")
def tournament(tmp_path_factory):
    dir = tmp_path_factory.mktemp("results") / "t"
    fow.tournament([Seeded, "RandomMove", "CaptureKing"], games=4, seed=8, out=dir, jobs=2)
    return dir


def test_games_are_the_rows_of_games_csv(tournament):
    r = fow.read_results(tournament)
    csv_rows = rows(tournament / "games.csv")
    assert len(r.games) == len(csv_rows) == 24
    for g, row in zip(r.games, csv_rows):
        assert isinstance(g, fow.results.Game)
        assert (g.id, g.round, g.white, g.black, g.seed) == (
            int(row["id"]),
            int(row["round"]),
            row["white"],
            row["black"],
            int(row["seed"]),
        )
        assert (g.result, g.reason, g.plies, g.detail) == (row["result"], row["reason"], int(row["plies"]), row["detail"])
        assert g.moves == row["moves"].split() and len(g.moves) == g.plies
        assert g.start is None
    assert r.config["players"] == ["Seeded", "RandomMove", "CaptureKing"]
    assert r.config["seed"] == 8 and r.config["schedule"] == "round robin"
    # A games.csv path reads as its folder does.
    assert fow.read_results(tournament / "games.csv").games == r.games


def test_ratings_are_the_rows_of_ratings_csv(tournament):
    r = fow.read_results(tournament)
    written = rows(tournament / "ratings.csv")
    assert [x.player for x in r.ratings] == [w["player"] for w in written]
    for x, w in zip(r.ratings, written):
        assert x.games == int(w["games"]) and x.points == float(w["points"])
        assert number(x.elo) == w["elo"] and number(x.elo_ci95) == w["elo_ci95"]
        assert number(x.thesis_elo) == w["thesis_elo"] and number(x.mle_elo) == w["mle_elo"]
        assert x.rated == (w["rated"] == "yes")
        assert x.ms_per_move is not None and x.ms_per_move >= 0
    assert abs(sum(x.elo for x in r.ratings)) < 1e-6, "BayesElo's ratings are relative to the pool average"
    assert r.rating("CaptureKing").player == "CaptureKing"
    with pytest.raises(KeyError):
        r.rating("Nobody")
    both = fow.read_results(tournament, method="both")
    assert "Thesis Elo" in both.text and "MLE Elo" in both.text
    assert [x.elo for x in both.ratings] == [x.elo for x in r.ratings]


def test_the_text_is_what_the_cli_prints(tmp_path):
    exe = fow_command()
    dir = tmp_path / "t"
    out = subprocess.run(
        [exe, "tournament", "--players", "RandomMove,CaptureKing,Supporter", "--games", "2", "--seed", "3", "--out", str(dir), "--quiet"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    r = fow.read_results(dir)
    assert r.text and r.text in out
    rated = subprocess.run([exe, "rate", str(dir)], cwd=REPO, capture_output=True, text=True, check=True).stdout
    # `fow rate` fits the same ratings (it prints no times).
    for x in r.ratings:
        assert f"{x.elo:.2f}" in rated


def test_a_match_reads_its_statistics_as_match_json_has_them(tmp_path):
    dir = tmp_path / "m"
    r = fow.match("CaptureLargest", "RandomMove", games=10, seed=4, out=dir, jobs=2)
    written = json.loads((dir / "match.json").read_text())
    assert asdict(r.match) == written
    again = fow.read_results(dir)
    assert again.match == r.match
    o = again.match.opponents[0]
    assert o.wins + o.draws + o.losses == o.games == 10 and sum(o.pentanomial) == o.pairs == 5
    assert again.text.startswith("CaptureLargest against RandomMove (thesis rules):")


@pytest.mark.parametrize("example", ["sprt-h0", "sprt-h1", "gauntlet", "openings"])
def test_the_committed_match_examples_read_as_their_match_json(example):
    dir = EXAMPLES / example
    if not (dir / "match.json").is_file():
        pytest.skip(f"{dir} is not in this checkout")
    r = fow.read_results(dir)
    assert asdict(r.match) == json.loads((dir / "match.json").read_text())
    if example == "openings":
        assert all(g.start for g in r.games)


def test_a_player_against_itself_has_statistics_but_no_ratings(tmp_path):
    r = fow.match("RandomMove", "RandomMove", games=4, seed=1, out=tmp_path / "self")
    assert r.ratings is None
    assert any("plays itself" in n for n in r.notes)
    assert r.match.opponents[0].games == 4


def test_a_folder_that_does_not_read_is_a_fow_error(tmp_path, tournament):
    with pytest.raises(fow.FowError, match="no games.csv"):
        fow.read_results(tmp_path / "nothing")
    bad = tmp_path / "bad"
    shutil.copytree(tournament, bad)
    text = (bad / "games.csv").read_text()
    (bad / "games.csv").write_text(text.replace("king captured", "no progress", 1))
    with pytest.raises(fow.FowError, match="games.csv:"):
        fow.read_results(bad)
    with pytest.raises(fow.FowError, match="method"):
        fow.read_results(tournament, method="elo")


def test_frames_where_pandas_is_installed(tournament, tmp_path):
    pandas = pytest.importorskip("pandas", reason="pandas is not installed (pip install pandas)")
    r = fow.read_results(tournament)
    games = r.games_frame()
    assert isinstance(games, pandas.DataFrame)
    assert len(games) == 24 and list(games.columns)[:4] == ["id", "round", "white", "black"]
    assert games["plies"].tolist() == [g.plies for g in r.games]
    ratings = r.ratings_frame()
    assert ratings["player"].tolist() == [x.player for x in r.ratings]
    m = fow.match("CaptureLargest", ["RandomMove", "CaptureKing"], games=2, seed=1, out=tmp_path / "g")
    frame = m.match_frame()
    assert frame["opponent"].tolist() == ["RandomMove", "CaptureKing"]
    assert r.match_frame().empty
