//! End-to-end tests of `fow dataset`.

mod common;
use common::*;

use std::fs;

use fow_players::nn::dataset::read_dataset;

const CHESSCOM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/chesscom-fow");

#[test]
fn datasets_from_pgn_and_tournaments_are_reproducible() {
    let tmp = tempfile::tempdir().unwrap();
    let one = tmp.path().join("oferwald.fownn");
    let out = ok(&[
        "dataset",
        CHESSCOM,
        "--player",
        "oferwald",
        "--out",
        one.to_str().unwrap(),
    ]);
    assert!(out.contains("80 games read"), "{out}");
    let (h, ex) = read_dataset(&mut fs::File::open(&one).unwrap()).unwrap();
    assert_eq!(h.selection, "oferwald");
    assert_eq!(h.examples as usize, ex.len());
    // About half the plies of 80 games.
    assert!((1000..5000).contains(&ex.len()), "{}", ex.len());
    // Every move played is among the example's legal moves.
    for e in &ex {
        assert!(e.legal_pairs(&h.rules).contains(&(e.from, e.to)));
    }
    let both = tmp.path().join("both.fownn");
    ok(&["dataset", CHESSCOM, "--out", both.to_str().unwrap()]);
    let (_, all) = read_dataset(&mut fs::File::open(&both).unwrap()).unwrap();
    assert!(all.len() > ex.len() + 1000);
    // Same inputs, same bytes.
    let again = tmp.path().join("again.fownn");
    ok(&[
        "dataset",
        CHESSCOM,
        "--player",
        "oferwald",
        "--out",
        again.to_str().unwrap(),
    ]);
    assert_eq!(fs::read(&one).unwrap(), fs::read(&again).unwrap());

    // From a tournament: only the selected bot's decisions.
    let t = tmp.path().join("t");
    ok(&[
        "tournament",
        "--players",
        "RandomMove,CaptureLargest",
        "--games",
        "3",
        "--quiet",
        "--out",
        t.to_str().unwrap(),
    ]);
    let games = t.join("games.csv");
    let d = tmp.path().join("cl.fownn");
    let out = ok(&[
        "dataset",
        games.to_str().unwrap(),
        "--player",
        "CaptureLargest",
        "--out",
        d.to_str().unwrap(),
    ]);
    assert!(out.contains("6 games read"), "{out}");
    let (h, ex) = read_dataset(&mut fs::File::open(&d).unwrap()).unwrap();
    assert_eq!(h.rules, fow_variants::RuleSet::thesis());
    assert!(!ex.is_empty());
}

#[test]
fn bad_dataset_inputs_get_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("x.fownn");
    let check = |args: &[&str], needle: &str| {
        let o = fow(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{err}");
    };
    check(
        &[
            "dataset",
            CHESSCOM,
            "--player",
            "nobody",
            "--out",
            out.to_str().unwrap(),
        ],
        "no side named nobody",
    );
    let bad = tmp.path().join("bad.pgn");
    fs::write(
        &bad,
        "[White \"a\"]\n[Black \"b\"]\n\n1. e2e4 e7e5 2. e4e5 *\n",
    )
    .unwrap();
    check(
        &[
            "dataset",
            bad.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        "bad.pgn:4",
    );
    check(
        &[
            "dataset",
            tmp.path().join("none.csv").to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        "none.csv",
    );
}
