//! End-to-end tests of `fow tune-material`.

mod common;
use common::*;

use std::fs;
use std::path::Path;

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

const PIECES: [&str; 5] = ["pawn", "knight", "bishop", "rook", "queen"];

#[test]
fn fits_the_chesscom_games() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("values.json");
    let printed = ok(&[
        "tune-material",
        &data("data/chesscom-fow"),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(printed.contains("80 games"), "{printed}");
    assert!(printed.contains("pawn=100"), "{printed}");
    // The pawn's value is too uncertain for "knight 1164" to mean much: it says so.
    assert!(
        printed.contains("\nwarning: the pawn's value 0.1565 ± 0.0843 (s.e.) is not clearly above 0 (95% interval -0.0087 to 0.3218)"),
        "{printed}"
    );
    let json: serde_json::Value = serde_json::from_str(&fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(json["games"], 80);
    assert_eq!(json["skip"], 2);
    assert_eq!(json["rules"][0], "chesscom");
    assert!(json["samples"].as_u64().unwrap() > 1000, "{json}");
    let v: Vec<f64> = PIECES
        .iter()
        .map(|p| json["values"][format!("capture.{p}")].as_f64().unwrap())
        .collect();
    assert_eq!(json["values"].as_object().unwrap().len(), 5);
    // What these 80 games say robustly (also with --skip 0..3 and --l2 0..10): every
    // piece is worth something and the usual order holds (the pawn's value is small and
    // the least certain).
    assert!(v.iter().all(|&x| x > 0.0), "{v:?}");
    assert!(
        v[4] > v[3] && v[3] > v[2] && v[2] > v[1] && v[1] > v[0],
        "{v:?}"
    );
    assert_eq!(json["pawn_100"]["pawn"], 100);
    let queen = json["pawn_100"]["queen"].as_f64().unwrap();
    assert!((queen - (100.0 * v[4] / v[0]).round()).abs() < 1e-9);
    // The L2 penalty shrinks the values.
    let strong = dir.path().join("strong.json");
    ok(&[
        "tune-material",
        &data("data/chesscom-fow"),
        "--l2",
        "100",
        "--out",
        strong.to_str().unwrap(),
    ]);
    let s: serde_json::Value = serde_json::from_str(&fs::read_to_string(&strong).unwrap()).unwrap();
    assert!(s["values"]["capture.queen"].as_f64().unwrap() < v[4]);
}

#[test]
fn reads_a_games_csv_with_its_tournament_rules() {
    let dir = tempfile::tempdir().unwrap();
    let text = fs::read_to_string(data("results/thesis-bots-100/games.csv")).unwrap();
    let head: Vec<&str> = text.lines().take(201).collect();
    let games = dir.path().join("games.csv");
    fs::write(&games, head.join("\n") + "\n").unwrap();
    fs::copy(
        data("results/thesis-bots-100/tournament.json"),
        dir.path().join("tournament.json"),
    )
    .unwrap();
    let printed = ok(&["tune-material", games.to_str().unwrap()]);
    assert!(printed.contains("rules thesis"), "{printed}");
    assert!(printed.contains("200 games"), "{printed}");
    assert!(!printed.contains("warning:"), "{printed}");
    for p in PIECES {
        assert!(printed.contains(p), "{printed}");
    }
    // The same games given twice count once.
    let twice = ok(&[
        "tune-material",
        games.to_str().unwrap(),
        games.to_str().unwrap(),
    ]);
    assert!(twice.contains("200 games"), "{twice}");
    assert!(twice.contains("200 duplicates skipped"), "{twice}");
}

#[test]
fn malformed_input_is_one_line_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("bad.pgn");
    fs::write(&pgn, "[Result \"1-0\"]\n\n1. e2e4 e7e5\n2. Zz9 1-0\n").unwrap();
    fails(
        &["tune-material", pgn.to_str().unwrap()],
        &format!("{}:4: cannot read move 'Zz9'", pgn.display()),
    );
    // A move that does not replay names its number.
    let folder = dir.path().join("folder");
    fs::create_dir(&folder).unwrap();
    let illegal = folder.join("illegal.pgn");
    fs::write(&illegal, "[Result \"1-0\"]\n\n1. e2e4 e7e5\n2. e4e5 1-0\n").unwrap();
    fails(
        &["tune-material", folder.to_str().unwrap()],
        &format!("{}:4: game 1: move 2. e4e5", illegal.display()),
    );
    let csv = dir.path().join("games.csv");
    fs::write(
        &csv,
        "id,round,white,black,seed,result,reason,plies,detail,moves\n\
         0,0,A,B,1,0-1,timeout,2,,e2e4 e7e5\n\
         1,0,B,A,2,0-1,king captured,2,,e2e4 e2e4\n",
    )
    .unwrap();
    fails(
        &["tune-material", csv.to_str().unwrap()],
        &format!("{}:3: game 1, ply 2", csv.display()),
    );
    fails(&["tune-material", "/no/such/file.pgn"], "/no/such/file.pgn");
}

/// Inputs that leave nothing to fit are one error line, not an all-zero table.
#[test]
fn nothing_to_fit_is_an_error() {
    // Past every capture: only positions before the first one, all with equal material.
    fails(
        &["tune-material", &data("data/chesscom-fow"), "--skip", "1000"],
        "none of the 1100 samples left in 80 games has a material difference, so there is nothing to fit (--skip 1000 leaves out the positions 1 to 1000 plies after each capture); lower --skip",
    );
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("open.pgn");
    fs::write(&pgn, "[Result \"*\"]\n\n1. e2e4 e7e5 *\n").unwrap();
    fails(
        &["tune-material", pgn.to_str().unwrap()],
        "no game to fit: 1 game read, all left out (undecided, player faults)",
    );
}
