//! End-to-end tests of `fow tune`: what it writes, that the tuned spec plays, that
//! `--resume` continues exactly, the GA method, and bad input.

mod common;
use common::*;

use std::fs;

#[test]
fn tune_writes_a_spec_that_plays_and_is_deterministic() {
    let tmp = tempfile::tempdir().unwrap();
    let (full, part) = (tmp.path().join("full"), tmp.path().join("part"));
    let run = |dir: &std::path::Path, batches: &str| {
        ok(&[
            "tune",
            "Planted:x=0.1,y=0.9",
            "--params",
            "x,y",
            "--r-end",
            "0.05",
            "--batches",
            batches,
            "--pairs",
            "3",
            "--seed",
            "5",
            "-q",
            "--out",
            dir.to_str().unwrap(),
        ])
    };
    let out = run(&full, "6");
    assert!(
        out.contains("tuning x, y of Planted:x=0.1,y=0.9: 6 batches of 3 game pairs (0 done)"),
        "{out}"
    );
    // The same command gives the same files (the arena's tests stop and resume a run).
    run(&part, "6");
    let csv = fs::read_to_string(part.join("tune.csv")).unwrap();
    assert_eq!(csv.lines().count(), 7, "{csv}");
    assert_eq!(
        csv.lines().next().unwrap(),
        "batch,result,score,x,y,c_x,c_y"
    );
    for f in ["tune.csv", "best.json", "checkpoint.json", "tune.json"] {
        assert_eq!(
            fs::read(full.join(f)).unwrap(),
            fs::read(part.join(f)).unwrap(),
            "{f}"
        );
    }
    let best: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(full.join("best.json")).unwrap()).unwrap();
    let spec = best["player"].as_str().unwrap();
    assert!(
        spec.starts_with("Planted:x=") && spec.contains(",y="),
        "{spec}"
    );
    let m = tmp.path().join("m");
    ok(&[
        "match",
        spec,
        "Planted",
        "-n",
        "2",
        "-q",
        "--out",
        m.to_str().unwrap(),
    ]);
    let resumed = ok(&[
        "tune",
        "--resume",
        "--batches",
        "8",
        "-q",
        "--out",
        full.to_str().unwrap(),
    ]);
    assert!(
        resumed.contains("(6 done)") && resumed.contains("2 batches"),
        "{resumed}"
    );
    fails(
        &[
            "tune",
            "--resume",
            "--seed",
            "1",
            "--out",
            full.to_str().unwrap(),
        ],
        "--resume takes its settings",
    );
    fails(
        &[
            "tune",
            "--out",
            full.to_str().unwrap(),
            "Planted",
            "--params",
            "x",
            "-q",
        ],
        "already holds a tuning run",
    );
}

#[test]
fn the_ga_method_evolves_named_parameters() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("ga");
    let out = ok(&[
        "tune",
        "Planted",
        "--params",
        "x,y",
        "--method",
        "ga",
        "--batches",
        "2",
        "--population",
        "4",
        "--survivors",
        "2",
        "--benchmark-games",
        "4",
        "-q",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        out.contains("evolving Planted (2 parameters): population 4"),
        "{out}"
    );
    let best: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("best.json")).unwrap()).unwrap();
    assert!(
        best["player"].as_str().unwrap().starts_with("Planted:x="),
        "{best}"
    );
    let more = ok(&[
        "tune",
        "--resume",
        "--batches",
        "3",
        "-q",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(more.contains("(2 done)"), "{more}");
}

#[test]
fn bad_setups_are_one_line_and_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("t.toml");
    fs::write(
        &file,
        "player = \"Planted\"\n[[param]]\nname = \"x\"\nmin = 0.9\nmax = 0.1\n",
    )
    .unwrap();
    let out = tmp.path().join("o");
    let o = out.to_str().unwrap();
    fails(
        &[
            "tune",
            "--tune-file",
            file.to_str().unwrap(),
            "-q",
            "--out",
            o,
        ],
        "t.toml:3: parameter 'x': min 0.9 is above max 0.1",
    );
    fs::write(
        &file,
        "player = \"Planted\"\n[[param]]\nname = \"x\"\nstart = [\n",
    )
    .unwrap();
    fails(
        &[
            "tune",
            "--tune-file",
            file.to_str().unwrap(),
            "-q",
            "--out",
            o,
        ],
        "t.toml:4:",
    );
    fails(
        &["tune", "Planted", "--params", "z", "-q", "--out", o],
        "Planted has no parameter 'z'",
    );
    fails(
        &["tune", "Planted:x=2", "--params", "x", "-q", "--out", o],
        "the start 2 is outside its range 0 to 1",
    );
    fails(
        &["tune", "BeliefSearch", "--params", "eval", "-q", "--out", o],
        "is not a number",
    );
    fails(
        &["tune", "Nobody", "--params", "x", "-q", "--out", o],
        "unknown bot 'Nobody'",
    );
    fails(
        &[
            "tune", "Planted", "--params", "x", "--r-end", "0", "-q", "--out", o,
        ],
        "--r-end must be more than 0",
    );
    assert!(!out.exists(), "a refused run leaves no folder");
}
