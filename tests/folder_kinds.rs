//! Each results folder records the command that wrote it (issue 41, item 6), and the
//! other commands refuse it on resume and merge, naming what it is and what resumes it:
//! a match resumed as a tournament would ignore its SPRT and leave match.json stale.
//! Folders written before kinds show theirs by their files, or read as before.

mod common;
use common::*;

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_match_is_not_resumed_as_a_tournament_nor_a_tournament_as_a_match() {
    let tmp = tempfile::tempdir().unwrap();
    let m = tmp.path().join("M");
    let out = ok(&[
        "match",
        "CaptureLargest",
        "RandomMove",
        "--games",
        "2000",
        "--sprt",
        "elo0=0,elo1=50",
        "-q",
        "--out",
        s(&m),
    ]);
    assert!(out.contains("(the SPRT decided)"), "{out}");
    let games = read(&m, "games.csv");
    let verdict = read(&m, "match.json");
    fails(
        &["tournament", "--resume", "--out", s(&m)],
        &format!(
            "{} is a match folder (kind \"match\" in its tournament.json), not a tournament folder; resume it with fow match --resume --out {}",
            m.display(),
            m.display()
        ),
    );
    assert_eq!(read(&m, "games.csv"), games, "no game played");
    assert_eq!(read(&m, "match.json"), verdict);
    ok(&["match", "--resume", "--out", s(&m), "-q"]);

    let (t, _) = tournament("RandomMove,CaptureLargest", 1, "1");
    fails(
        &["match", "--resume", "--out", s(t.path())],
        &format!(
            "is a tournament folder (kind \"tournament\" in its tournament.json), not a match folder; resume it with fow tournament --resume --out {}",
            t.path().display()
        ),
    );
    fails(
        &["evolve", "--resume", "--out", s(t.path())],
        "is a tournament folder (kind \"tournament\" in its tournament.json), not an evolve folder; resume it with fow tournament --resume",
    );
}

#[test]
fn folders_written_before_kinds_show_theirs_by_their_files() {
    let tmp = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // A committed match of an older fow (no kind): its settings hold an SPRT.
    let m = tmp.path().join("sprt");
    fs::create_dir(&m).unwrap();
    for f in ["tournament.json", "games.csv", "times.csv", "match.json"] {
        fs::copy(
            root.join("results/match-examples/sprt-h0").join(f),
            m.join(f),
        )
        .unwrap();
    }
    fails(
        &["tournament", "--resume", "--out", s(&m)],
        "is a match folder (the SPRT in its tournament.json), not a tournament folder; resume it with fow match --resume",
    );
    // A match without an SPRT shows it by its match.json, a tournament by neither.
    let g = tmp.path().join("pairs");
    ok(&[
        "match",
        "CaptureLargest",
        "RandomMove",
        "--games",
        "4",
        "-q",
        "--out",
        s(&g),
    ]);
    as_before_tags(&g);
    fails(
        &["tournament", "--resume", "--out", s(&g)],
        "is a match folder (its match.json), not a tournament folder",
    );
    ok(&["match", "--resume", "--out", s(&g), "-q"]);
    let (t, _) = tournament("RandomMove,CaptureLargest", 1, "1");
    as_before_tags(t.path());
    ok(&["tournament", "--resume", "--out", s(t.path()), "-q"]);
    fails(
        &["match", "--resume", "--out", s(t.path())],
        "is a tournament folder (its tournament.json), not a match folder",
    );
}

#[test]
fn evolve_play_and_import_folders_are_refused_where_they_do_not_belong() {
    let tmp = tempfile::tempdir().unwrap();
    let evo = tmp.path().join("evo");
    ok(&[
        "evolve",
        "--quiet",
        "--epochs",
        "1",
        "--population",
        "3",
        "--survivors",
        "1",
        "--benchmark-games",
        "0",
        "--jobs",
        "1",
        "--out",
        s(&evo),
    ]);
    let e = evo.display();
    fails(
        &["tournament", "--resume", "--out", s(&evo)],
        &format!("{e} is an evolve folder (its evolve.json), not a tournament folder; resume it with fow evolve --resume --out {e}"),
    );
    fails(
        &["match", "--resume", "--out", s(&evo)],
        "is an evolve folder (its evolve.json), not a match folder",
    );
    fails(
        &["rate", s(&evo)],
        "an evolve folder (its evolve.json) holds no games",
    );
    let out = tmp.path().join("merged");
    fails(
        &["merge", s(&out), s(&evo)],
        "is an evolve folder (its evolve.json): only the shards of a tournament or a match merge",
    );

    // A game of fow play.
    let play = tmp.path().join("play");
    let mut child = Command::new(FOW)
        .args(["play", "--bot", "RandomMove", "--out", s(&play)])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"resign\n").unwrap();
    assert!(child.wait().unwrap().success());
    fails(
        &["tournament", "--resume", "--out", s(&play)],
        "is a play folder (kind \"play\" in its tournament.json), not a tournament folder; a game of fow play is finished when it is saved",
    );
    fails(
        &["merge", s(&out), s(&play)],
        "is a play folder (kind \"play\" in its tournament.json): only the shards of a tournament or a match merge",
    );
    // Rating a game of fow play or an import is rating its games.
    ok(&["rate", s(&play)]);

    let import = tmp.path().join("import");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    ok(&[
        "import",
        s(&root.join("data/chesscom-fow")),
        "--out",
        s(&import),
    ]);
    fails(
        &["match", "--resume", "--out", s(&import)],
        "is an import folder (kind \"import\" in its tournament.json), not a match folder; an import is not resumed",
    );
    fails(
        &["merge", s(&out), s(&import)],
        "is an import folder (kind \"import\" in its tournament.json): only the shards of a tournament or a match merge",
    );
    ok(&["rate", s(&import)]);
    assert!(!out.exists());
}
