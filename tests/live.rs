//! `--live` as a user runs it: `fow tournament` and `fow match` with a live feed leave
//! the same files as without it and no `live/`, refuse a program player outside the
//! sandbox, and `--resume`, `fow merge` and `fow export` take no account of the live
//! files a killed run left (the feed itself, ply by ply, is `arena/tests/live.rs`).

mod common;

use std::fs;
use std::path::Path;

use common::{fails, ok};
use fow_records::{live_file, LiveFile, LiveHeader, GAMES_FILE, LIVE_DIR};
use fow_variants::{Position, RuleSet};

/// A stale live file of game `id` in `dir`, as a run killed in that game leaves it.
fn stale(dir: &Path, id: u64) {
    let header = LiveHeader {
        id,
        round: 0,
        white: "RandomMove".into(),
        black: "CaptureLargest".into(),
        rules: RuleSet::thesis(),
        start: Position::startpos().fen(),
    };
    let mut f = LiveFile::create(dir, &header).unwrap();
    f.push(
        &Position::startpos()
            .parse_uci("e2e4", &RuleSet::thesis())
            .unwrap(),
    );
}

fn games(dir: &Path) -> Vec<u8> {
    fs::read(dir.join(GAMES_FILE)).unwrap()
}

#[test]
fn a_live_match_leaves_the_same_games_and_no_live_files() {
    let tmp = tempfile::tempdir().unwrap();
    let [plain, live] = ["plain", "live"].map(|d| tmp.path().join(d));
    for (dir, extra) in [(&plain, None), (&live, Some("--live"))] {
        let mut args = vec!["match", "RandomMove", "CaptureLargest", "--games", "4"];
        args.extend(["-q", "--jobs", "2", "--out", dir.to_str().unwrap()]);
        args.extend(extra);
        ok(&args);
    }
    assert_eq!(games(&plain), games(&live));
    assert!(!live.join(LIVE_DIR).exists());
}

#[test]
fn live_refuses_a_program_player_outside_the_sandbox() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("t");
    let out = out.to_str().unwrap();
    let players = "RandomMove,exec:cmd=python3 bot.py,name=Mine";
    let args = [
        "tournament",
        "--players",
        players,
        "--games",
        "1",
        "--live",
        "--out",
        out,
    ];
    fails(&args, "Mine runs without the sandbox");
    fails(&args, "add sandbox=bwrap to its spec");
    assert!(!Path::new(out).exists(), "a refused run leaves no folder");
    fails(
        &[
            "match",
            "exec:cmd=true",
            "uci:cmd=true",
            "--live",
            "--out",
            out,
        ],
        "exec:cmd=true, uci:cmd=true run without the sandbox",
    );
    // A run begun without the feed is refused it on resuming.
    let players = "RandomMove,exec:cmd=true,name=Mine";
    ok(&[
        "tournament",
        "--players",
        players,
        "--games",
        "1",
        "-q",
        "--out",
        out,
    ]);
    fails(
        &["tournament", "--resume", "--out", out, "--live"],
        "Mine runs without the sandbox",
    );
}

#[test]
fn resume_clears_a_killed_runs_live_files_and_merge_and_export_ignore_them() {
    let tmp = tempfile::tempdir().unwrap();
    let base = ["--players", "RandomMove,CaptureLargest", "--games", "2"];
    let quiet = ["-q", "--jobs", "1", "--seed", "3"];
    // Two shards, the first killed in game 0 (its file left), the second whole.
    let dirs = [1, 2].map(|i| tmp.path().join(format!("s{i}")));
    for (i, dir) in dirs.iter().enumerate() {
        let shard = format!("{}/2", i + 1);
        let mut args = vec!["tournament", "--out", dir.to_str().unwrap()];
        args.extend(base.iter().chain(&quiet));
        args.extend(["--shard", &shard, "--live"]);
        ok(&args);
    }
    stale(&dirs[0], 0);
    stale(&dirs[1], 1);
    // Merge into a folder that holds only a stale feed: it is no other run's file.
    let merged = tmp.path().join("merged");
    stale(&merged, 2);
    let (m, s1, s2) = (
        merged.to_str().unwrap(),
        dirs[0].to_str().unwrap(),
        dirs[1].to_str().unwrap(),
    );
    ok(&["merge", m, s1, s2]);
    assert!(!merged.join(LIVE_DIR).exists(), "the merge leaves no feed");
    assert!(live_file(&dirs[0], 0).exists(), "the shards are only read");
    let pgn = tmp.path().join("s1.pgn");
    ok(&["export", s1, "--all", "--out", pgn.to_str().unwrap()]);
    assert!(fs::read_to_string(&pgn).unwrap().contains("[White "));
    // Resumed, with or without --live, the feed is cleared and the games stay.
    let before = games(&dirs[0]);
    ok(&["tournament", "--resume", "--out", s1, "-q"]);
    ok(&["tournament", "--resume", "--out", s2, "-q", "--live"]);
    assert!(!dirs[0].join(LIVE_DIR).exists() && !dirs[1].join(LIVE_DIR).exists());
    assert_eq!(games(&dirs[0]), before);
}
