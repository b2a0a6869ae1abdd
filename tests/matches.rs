//! `fow match`: game pairs, a fixed match or an SPRT, the same games and verdict whatever
//! --jobs, self-play, gauntlets, and its refusals.

mod common;
use common::*;

use std::fs;
use std::path::Path;

fn json(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(dir.join("match.json")).unwrap()).unwrap()
}

#[test]
fn a_fixed_match_plays_pairs_and_does_not_depend_on_jobs() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |name: &str, jobs: &str| {
        let dir = tmp.path().join(name);
        let out = ok(&[
            "match",
            "CaptureLargest",
            "RandomMove",
            "--games",
            "40",
            "-q",
            "--jobs",
            jobs,
            "--out",
            dir.to_str().unwrap(),
        ]);
        (dir, out)
    };
    let (a, out) = run("a", "1");
    let (b, _) = run("b", "2");
    assert!(out.contains("CaptureLargest against RandomMove"), "{out}");
    assert!(out.contains("Ptnml(0-2):"), "{out}");
    let read = |d: &Path, f: &str| fs::read(d.join(f)).unwrap();
    assert_eq!(read(&a, "games.csv"), read(&b, "games.csv"));
    assert_eq!(read(&a, "match.json"), read(&b, "match.json"));
    let j = json(&a);
    let o = &j["opponents"][0];
    assert_eq!(o["opponent"], "RandomMove");
    let ptnml: Vec<u64> = o["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(ptnml.iter().sum::<u64>(), 20, "{o}");
    assert_eq!(o["games"], 40);
    assert!(j["sprt"].is_null());
}

#[test]
fn an_sprt_stops_at_the_same_pair_whatever_the_jobs() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |name: &str, jobs: &str| {
        let dir = tmp.path().join(name);
        ok(&[
            "match",
            "CaptureLargest",
            "RandomMove",
            "--sprt",
            "elo0=0,elo1=100",
            "--games",
            "2000",
            "-q",
            "--jobs",
            jobs,
            "--out",
            dir.to_str().unwrap(),
        ]);
        dir
    };
    let a = run("a", "1");
    let b = run("b", "2");
    assert_eq!(
        fs::read(a.join("games.csv")).unwrap(),
        fs::read(b.join("games.csv")).unwrap()
    );
    let j = json(&a);
    assert_eq!(j, json(&b));
    let o = &j["opponents"][0];
    assert_eq!(o["sprt"]["verdict"], "H1 accepted", "{o}");
    assert!(o["sprt"]["llr"].as_f64().unwrap() >= o["sprt"]["upper"].as_f64().unwrap());
    assert_eq!(j["stopped"], true);
    assert!(o["games"].as_u64().unwrap() < 2000);
}

#[test]
fn a_player_against_itself_scores_near_half_and_an_sprt_above_zero_accepts_h0() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("self");
    let out = ok(&[
        "match",
        "RandomMove",
        "RandomMove",
        "--sprt",
        "elo0=20,elo1=40",
        "--games",
        "20000",
        "-q",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let o = &json(&dir)["opponents"][0];
    assert_eq!(o["sprt"]["verdict"], "H0 accepted", "{out}");
    let score = o["score"].as_f64().unwrap();
    assert!((score - 0.5).abs() < 0.1, "{score}");
}

#[test]
fn a_gauntlet_meets_each_opponent() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    ok(&[
        "match",
        "CaptureLargest",
        "RandomMove,CaptureKing",
        "--games",
        "10",
        "-q",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let j = json(&dir);
    let names: Vec<&str> = j["opponents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["opponent"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["RandomMove", "CaptureKing"]);
    assert_eq!(read_games_count(&dir), 20);
}

/// Every folder a gauntlet writes reads back (`rate`, `export`, `--resume`); a tournament
/// gauntlet that lists its own player among the opponents would schedule one game twice
/// (the same players and seed), so it is refused before any game, and a self-play match
/// (game pairs: two different games) still reads back.
#[test]
fn gauntlet_folders_read_back_and_a_gauntlet_against_itself_is_refused_before_playing() {
    let tmp = tempfile::tempdir().unwrap();
    let refused = tmp.path().join("refused");
    fails(
        &[
            "tournament",
            "--gauntlet",
            "RandomMove",
            "--players",
            "RandomMove,CaptureLargest",
            "-n",
            "1",
            "-q",
            "--out",
            refused.to_str().unwrap(),
        ],
        "'RandomMove' is the gauntlet's player and also one of its opponents",
    );
    assert!(!refused.exists(), "nothing written before the refusal");

    let g = tmp.path().join("g");
    let g = g.to_str().unwrap();
    ok(&[
        "tournament",
        "--gauntlet",
        "RandomMove",
        "--players",
        "CaptureLargest,CaptureKing",
        "-n",
        "1",
        "-q",
        "--out",
        g,
    ]);
    let m = tmp.path().join("m");
    let m = m.to_str().unwrap();
    ok(&[
        "match",
        "RandomMove",
        "RandomMove",
        "-n",
        "4",
        "-q",
        "--out",
        m,
    ]);
    assert!(ok(&["rate", g]).contains("CaptureKing"));
    for dir in [g, m] {
        assert!(ok(&["export", dir]).contains("[Event "));
    }
    ok(&["tournament", "--resume", "-q", "--out", g]);
    ok(&["match", "--resume", "-q", "--out", m]);
}

fn read_games_count(dir: &Path) -> usize {
    fow_records::read_games(&dir.join("games.csv"))
        .unwrap()
        .len()
}

#[test]
fn bad_matches_are_refused_before_any_game() {
    fails(
        &["match", "RandomMove", "CaptureKing", "--games", "7"],
        "positive even number",
    );
    fails(
        &[
            "match",
            "RandomMove",
            "CaptureKing",
            "--sprt",
            "elo0=5,elo1=0",
        ],
        "--sprt",
    );
    fails(
        &[
            "match",
            "RandomMove",
            "CaptureKing,CaptureLargest",
            "--sprt",
            "elo0=0,elo1=5",
        ],
        "one opponent",
    );
    fails(&["match", "NoSuchBot", "RandomMove"], "NoSuchBot");
}

#[test]
fn a_match_under_a_clock_records_each_sides_time_left() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("tc");
    let out = ok(&[
        "match",
        "CaptureLargest",
        "RandomMove",
        "--tc",
        "30+0.5",
        "--games",
        "4",
        "-q",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(out.contains("the same seed can give other games"), "{out}");
    let games = fow_records::read_games(&dir.join("games.csv")).unwrap();
    let clocks: Vec<fow_records::ClockRow> =
        fow_records::read_rows(&dir.join("clocks.csv")).unwrap();
    assert_eq!(clocks.len(), games.len());
    for (g, c) in games.iter().zip(&clocks) {
        assert_eq!(g.id, c.id);
        let left: Vec<u64> = c.clocks_ms.split(' ').map(|t| t.parse().unwrap()).collect();
        assert_eq!(left.len(), g.plies, "one entry per move");
        assert!(left.iter().all(|&ms| ms > 0));
    }
    fails(
        &["match", "A", "B", "--tc", "fast"],
        "--tc: time control 'fast'",
    );
    fails(
        &["tournament", "--tc", "0+1"],
        "the base time must be more than 0",
    );
}

#[test]
fn a_killed_sprt_match_resumes_to_the_same_verdict() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("m");
    let d = dir.to_str().unwrap();
    let args = [
        "match",
        "RandomMove",
        "RandomMove",
        "--sprt",
        "elo0=20,elo1=40",
        "--games",
        "20000",
        "-q",
        "--out",
        d,
    ];
    ok(&args);
    let whole = fs::read(dir.join("games.csv")).unwrap();
    let report = json(&dir);
    // As a kill would leave it: the first 30 games, in another order.
    let text = String::from_utf8(whole.clone()).unwrap();
    let mut lines: Vec<&str> = text.lines().take(31).collect();
    lines.swap(2, 9);
    fs::write(dir.join("games.csv"), lines.join("\n") + "\n").unwrap();
    fs::remove_file(dir.join("match.json")).unwrap();
    ok(&["match", "--resume", "--out", d, "-q"]);
    assert_eq!(fs::read(dir.join("games.csv")).unwrap(), whole);
    assert_eq!(json(&dir), report);
    fails(
        &["match", "--resume", "--out", d, "--games", "4"],
        "--resume takes its settings",
    );
}

#[test]
fn a_match_from_openings_plays_each_opening_as_a_pair_and_resumes_them() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("m");
    let args = |extra: &[&str]| {
        let mut v = vec![
            "match",
            "CaptureLargest",
            "RandomMove",
            "--games",
            "12",
            "-q",
            "--rules",
            "chesscom",
            "--openings",
            "data/chesscom-fow",
            "--opening-plies",
            "8",
            "--opening-order",
            "random",
            "--out",
        ];
        v.push(dir.to_str().unwrap());
        v.extend_from_slice(extra);
        v.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let run = |extra: &[&str]| {
        let a = args(extra);
        ok(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let out = run(&[]);
    assert!(
        out.contains("openings: 80 positions from data/chesscom-fow after 8 plies, random order"),
        "{out}"
    );
    let games = fs::read_to_string(dir.join("games.csv")).unwrap();
    let rows: Vec<&str> = games.lines().skip(1).collect();
    assert_eq!(rows.len(), 12);
    // The column start, before the tag.
    let start = |row: &str| row.rsplit(',').nth(1).unwrap().to_string();
    for pair in rows.chunks(2) {
        assert_eq!(start(pair[0]), start(pair[1]), "a pair shares its opening");
        assert!(start(pair[0]).contains(" w "), "{}", pair[0]);
    }
    assert_ne!(start(rows[0]), start(rows[2]), "each pair its own opening");
    // Cut after two pairs: --resume plays the rest from the stored openings alone.
    let kept: Vec<&str> = games.lines().take(5).collect();
    fs::write(dir.join("games.csv"), kept.join("\n") + "\n").unwrap();
    let resumed = ok(&["match", "--resume", "--out", dir.to_str().unwrap(), "-q"]);
    assert!(resumed.contains("openings: 80 positions"), "{resumed}");
    assert_eq!(fs::read_to_string(dir.join("games.csv")).unwrap(), games);
    // The games replay and export from their start.
    let pgn = ok(&["export", dir.to_str().unwrap()]);
    assert!(pgn.contains("[SetUp \"1\"]"), "{pgn}");
}

#[test]
fn bad_openings_are_refused_by_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let book = tmp.path().join("book.epd");
    fs::write(
        &book,
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\n4k3/8/8/8/8/8/4R3/4K3 w - - 0 1\n",
    )
    .unwrap();
    let b = book.to_str().unwrap();
    let out = tmp.path().join("x");
    let o = out.to_str().unwrap();
    fails(
        &[
            "match",
            "CaptureLargest",
            "RandomMove",
            "--openings",
            b,
            "--out",
            o,
        ],
        &format!("{b}:2: White is to move and can capture the king"),
    );
    fails(
        &[
            "tournament",
            "--openings",
            "/nonexistent/book.epd",
            "--out",
            o,
        ],
        "/nonexistent/book.epd",
    );
    fails(
        &[
            "tournament",
            "--openings",
            b,
            "--opening-plies",
            "4",
            "--out",
            o,
        ],
        "--opening-plies is for PGN openings",
    );
    fails(
        &[
            "tournament",
            "--openings",
            b,
            "--opening-order",
            "shuffled",
            "--out",
            o,
        ],
        "unknown opening order 'shuffled'",
    );
    assert!(!out.join("tournament.json").exists());
}

/// An openings file's FEN clocks and trailing fields are read as `fow view` reads a FEN
/// (one reader): a clock that is not a whole number that fits, or a field after the
/// clocks, is refused by file and line, never read as 0; EPD operations still read.
#[test]
fn openings_clocks_are_read_as_fen_clocks_or_refused_by_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let book = tmp.path().join("book.epd");
    let b = book.to_str().unwrap();
    let out = tmp.path().join("x");
    let o = out.to_str().unwrap();
    let board = "4k3/8/8/8/8/8/4P3/4K3 w - -";
    for (tail, why) in [
        (
            "99999999999999999999 1",
            "the half-move clock 99999999999999999999 is too large",
        ),
        ("-5 1", "the half-move clock is a whole number, not '-5'"),
        (
            "150.5 1",
            "the half-move clock is a whole number, not '150.5'",
        ),
        ("0 1.5", "the move number is a whole number, not '1.5'"),
        ("0 1 junk", "unexpected 7th field 'junk'"),
        ("0 1 0", "unexpected 7th field '0'"),
        ("hmvc -5;", "hmvc"),
    ] {
        fs::write(&book, format!("# a comment\n{board} 0 1\n{board} {tail}\n")).unwrap();
        let args = [
            "match",
            "CaptureLargest",
            "RandomMove",
            "--openings",
            b,
            "--out",
            o,
        ];
        fails(&args, &format!("{b}:3: "));
        fails(&args, why);
        // `fow view` refuses the same FEN with the same reason.
        if !tail.starts_with("hmvc") {
            fails(&["view", &format!("{board} {tail}")], why);
        }
    }
    assert!(!out.exists());
    // EPD: operations after the four fields, clocks from hmvc and fmvn (or none).
    fs::write(
        &book,
        format!("{board} bm e3; id \"a;b\"; hmvc 7; fmvn 30;\n{board} id \"x\";\n{board}\n"),
    )
    .unwrap();
    ok(&[
        "match",
        "CaptureLargest",
        "RandomMove",
        "-n",
        "6",
        "-q",
        "--openings",
        b,
        "--out",
        o,
    ]);
    let games = fow_records::read_games(&out.join("games.csv")).unwrap();
    let starts: Vec<&str> = games.iter().step_by(2).map(|g| g.start.as_str()).collect();
    assert_eq!(
        starts,
        [
            format!("{board} 7 30"),
            format!("{board} 0 1"),
            format!("{board} 0 1")
        ]
    );
}
