//! Tamper-evident results (issue 41, item 7): forgeries the rules cannot see (a result
//! flipped by dropping the king capture and writing "timeout", a win appended by a bot,
//! a setting edited in every shard) are refused by their tags, naming file and line, by
//! every reader: `rate`, `--resume`, `merge`. A run under a public seed says once that
//! its rows are not authenticated; a folder written before tags reads with one note.

mod common;
use common::*;

use std::fs;
use std::path::{Path, PathBuf};

const PLAYERS: &str = "RandomMove,CaptureLargest";

/// A fresh secret key in `dir/run.key` (32 hexadecimal digits).
fn key_file(dir: &Path) -> PathBuf {
    let key = dir.join("run.key");
    let k = fow_records::seed::SeedKey::random().unwrap();
    fs::write(&key, k.to_hex() + "\n").unwrap();
    key
}

/// `fow tournament` of PLAYERS into `dir`, with `extra` options; returns the output.
fn run(dir: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "tournament",
        "--players",
        PLAYERS,
        "-n",
        "3",
        "-q",
        "--out",
        dir.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let out = fow(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The lines of a games.csv and the index of each column of its header.
fn table(csv: &Path) -> (Vec<String>, impl Fn(&str) -> usize) {
    let text = fs::read_to_string(csv).unwrap();
    let lines: Vec<String> = text.lines().map(String::from).collect();
    let header: Vec<String> = lines[0].split(',').map(String::from).collect();
    let col = move |name: &str| header.iter().position(|h| h == name).unwrap();
    (lines, col)
}

/// Rewrites the first row that a king capture ended as a rule-legal forgery: its last
/// move (the capture) dropped and the game recorded as a timeout of the side that was
/// to make it, so that the loser wins. Returns the row's 1-based line and its game id.
fn flip_by_timeout(csv: &Path) -> (usize, String) {
    let (mut lines, col) = table(csv);
    let i = (1..lines.len())
        .find(|&i| lines[i].split(',').nth(col("reason")) == Some("king captured"))
        .expect("a game ended by a king capture");
    let mut f: Vec<String> = lines[i].split(',').map(String::from).collect();
    let mut moves: Vec<String> = f[col("moves")].split(' ').map(String::from).collect();
    moves.pop();
    f[col("moves")] = moves.join(" ");
    f[col("plies")] = moves.len().to_string();
    f[col("reason")] = "timeout".into();
    f[col("result")] = if f[col("result")] == "1-0" {
        "0-1"
    } else {
        "1-0"
    }
    .into();
    let id = f[col("id")].clone();
    lines[i] = f.join(",");
    fs::write(csv, lines.join("\n") + "\n").unwrap();
    (i + 1, id)
}

#[test]
fn a_result_flipped_within_the_rules_is_refused_by_rate_resume_and_merge() {
    let tmp = tempfile::tempdir().unwrap();
    let key = key_file(tmp.path());
    let k = key.to_str().unwrap();
    let dir = tmp.path().join("t");
    run(&dir, &["--secret-key", k]);
    let csv = dir.join("games.csv");
    let (line, id) = flip_by_timeout(&csv);
    let forged = fs::read(&csv).unwrap();
    let d = dir.to_str().unwrap();
    let needle = format!(
        "{}:{line}: game {id}: the row does not match its tag",
        csv.display()
    );
    fails(&["rate", d], &needle);
    fails(&["export", d, "--game", &id], &needle);
    fails(&["tournament", "--resume", "--out", d, "-q"], &needle);
    assert_eq!(
        fs::read(&csv).unwrap(),
        forged,
        "--resume left the file as it was"
    );

    // The same forgery in one shard of a run: the merge refuses it.
    let shards: Vec<PathBuf> = (1..=2)
        .map(|i| {
            let s = tmp.path().join(format!("shard-{i}"));
            run(&s, &["--secret-key", k, "--shard", &format!("{i}/2")]);
            s
        })
        .collect();
    let csv = shards[1].join("games.csv");
    let (line, id) = flip_by_timeout(&csv);
    let out = tmp.path().join("merged");
    fails(
        &[
            "merge",
            out.to_str().unwrap(),
            shards[0].to_str().unwrap(),
            shards[1].to_str().unwrap(),
        ],
        &format!(
            "{}:{line}: game {id}: the row does not match its tag",
            csv.display()
        ),
    );
    assert!(!out.exists(), "the merge wrote nothing");
}

#[test]
fn a_win_appended_by_a_bot_is_refused_by_resume_naming_its_line() {
    let tmp = tempfile::tempdir().unwrap();
    let key = key_file(tmp.path());
    let dir = tmp.path().join("t");
    run(&dir, &["--secret-key", key.to_str().unwrap()]);
    // The run as a kill leaves it after two games, and a bot that can write to the
    // folder appends a win for itself in game 2: the right players, round and seed (as
    // the schedule has them), one legal move and a resignation of its opponent.
    let csv = dir.join("games.csv");
    let (lines, col) = table(&csv);
    let mut f: Vec<String> = lines[3].split(',').map(String::from).collect();
    f[col("moves")] = "e2e4".into();
    f[col("plies")] = "1".into();
    f[col("reason")] = "resignation".into();
    f[col("result")] = "1-0".into();
    let forged = format!("{}\n{}\n", lines[..3].join("\n"), f.join(","));
    fs::write(&csv, &forged).unwrap();
    let d = dir.to_str().unwrap();
    fails(
        &["tournament", "--resume", "--out", d, "-q"],
        &format!(
            "{}:4: game {}: the row does not match its tag",
            csv.display(),
            f[col("id")]
        ),
    );
    assert_eq!(fs::read_to_string(&csv).unwrap(), forged);
    // Without the forged row the run resumes and its rows check.
    fs::write(&csv, lines[..3].join("\n") + "\n").unwrap();
    ok(&["tournament", "--resume", "--out", d, "-q"]);
    ok(&["rate", d]);
}

#[test]
fn a_setting_edited_in_every_shard_is_refused_by_merge() {
    let tmp = tempfile::tempdir().unwrap();
    let key = key_file(tmp.path());
    let shards: Vec<PathBuf> = (1..=2)
        .map(|i| {
            let s = tmp.path().join(format!("shard-{i}"));
            run(
                &s,
                &[
                    "--secret-key",
                    key.to_str().unwrap(),
                    "--shard",
                    &format!("{i}/2"),
                ],
            );
            s
        })
        .collect();
    for s in &shards {
        let cfg = s.join("tournament.json");
        let text = fs::read_to_string(&cfg).unwrap();
        assert!(text.contains("\"nodes\": null"), "{text}");
        fs::write(&cfg, text.replace("\"nodes\": null", "\"nodes\": 1000")).unwrap();
    }
    let cfg = shards[0].join("tournament.json");
    let tag_line = fs::read_to_string(&cfg)
        .unwrap()
        .lines()
        .position(|l| l.trim_start().starts_with("\"tag\""))
        .map_or(0, |i| i + 1);
    let needle = format!(
        "{}:{tag_line}: the settings do not match their tag",
        cfg.display()
    );
    let out = tmp.path().join("merged");
    let (a, b) = (shards[0].to_str().unwrap(), shards[1].to_str().unwrap());
    fails(&["merge", out.to_str().unwrap(), a, b], &needle);
    assert!(!out.exists(), "the merge wrote nothing");
    fails(&["tournament", "--resume", "--out", a], &needle);
    fails(&["rate", a], &needle);
}

/// The lines of a command's stderr.
fn stderr_lines(out: &std::process::Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn a_public_seed_says_once_that_the_rows_are_not_authenticated() {
    let tmp = tempfile::tempdir().unwrap();
    let shards: Vec<PathBuf> = (1..=2)
        .map(|i| {
            let s = tmp.path().join(format!("shard-{i}"));
            let out = run(&s, &["--seed", "5", "--shard", &format!("{i}/2")]);
            let err = stderr_lines(&out);
            assert_eq!(err.len(), 1, "{err:?}");
            assert!(err[0].starts_with("note: the games of "), "{err:?}");
            assert!(err[0].contains("are not authenticated: their seed is public"));
            s
        })
        .collect();
    // Three folders read (two shards, then the merged run): one note.
    let merged = tmp.path().join("merged");
    let out = fow(&[
        "merge",
        merged.to_str().unwrap(),
        shards[0].to_str().unwrap(),
        shards[1].to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let err = stderr_lines(&out);
    assert_eq!(err.len(), 1, "{err:?}");
    assert!(err[0].contains("their seed is public"), "{err:?}");
    // A secret key: no note.
    let key = key_file(tmp.path());
    let secret = tmp.path().join("secret");
    let out = run(&secret, &["--secret-key", key.to_str().unwrap()]);
    assert_eq!(stderr_lines(&out), Vec::<String>::new());
    let out = fow(&["rate", secret.to_str().unwrap()]);
    assert!(out.status.success());
    assert_eq!(stderr_lines(&out), Vec::<String>::new());
}

#[test]
fn a_folder_written_before_tags_reads_with_one_note() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let old = root.join("results/thesis-bots-100");
    let out = fow(&["rate", old.to_str().unwrap()]);
    assert!(out.status.success());
    let err = stderr_lines(&out);
    assert_eq!(err.len(), 1, "{err:?}");
    assert!(
        err[0].starts_with(&format!(
            "note: {} predates authenticated rows",
            old.display()
        )),
        "{err:?}"
    );
    // Two of them read by one command: still one note, naming both.
    let other = root.join("results/all-bots-100");
    let out = fow(&[
        "tune-material",
        old.to_str().unwrap(),
        other.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let err = stderr_lines(&out);
    assert_eq!(err.len(), 1, "{err:?}");
    assert!(
        err[0].contains(&format!(
            "{} and {} predate authenticated rows",
            old.display(),
            other.display()
        )),
        "{err:?}"
    );
}

#[test]
fn an_import_is_tagged_under_a_key_of_its_own() {
    let tmp = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tmp.path().join("imported");
    let d = dir.to_str().unwrap();
    ok(&[
        "import",
        root.join("data/chesscom-fow").to_str().unwrap(),
        "--out",
        d,
    ]);
    assert!(dir.join("secret.key").is_file());
    let out = fow(&["rate", d]);
    assert!(out.status.success());
    assert_eq!(stderr_lines(&out), Vec::<String>::new());
    let csv = dir.join("games.csv");
    let (line, id) = flip_by_timeout(&csv);
    fails(
        &["rate", d],
        &format!(
            "{}:{line}: game {id}: the row does not match its tag",
            csv.display()
        ),
    );
}
