//! `--shard I/N` and `fow merge`: shards of one run merge into the files of the whole run
//! played on one machine (tournaments, and matches whose SPRT the merge recomputes), a
//! merge again gives the same files, and merges that cannot be complete name what is
//! missing or different, writing nothing.

mod common;
use common::*;

use std::fs;
use std::path::{Path, PathBuf};

const PLAYERS: &str = "RandomMove,CaptureLargest,Supporter";

/// Plays `fow tournament --players PLAYERS -n 4` (plus `extra`) into `dir`.
fn tournament(dir: &Path, extra: &[&str]) -> String {
    let mut args = vec!["tournament", "--players", PLAYERS, "-n", "4", "-q", "--out"];
    args.push(dir.to_str().unwrap());
    args.extend_from_slice(extra);
    ok(&args)
}

fn shards(base: &Path, n: u32, extra: &[&str]) -> Vec<PathBuf> {
    (1..=n)
        .map(|i| {
            let dir = base.join(format!("shard-{i}"));
            let shard = format!("{i}/{n}");
            let mut args = vec!["--shard", &shard];
            args.extend_from_slice(extra);
            let out = tournament(&dir, &args);
            assert!(out.contains(&format!("games of shard {i}/{n} (")), "{out}");
            dir
        })
        .collect()
}

fn merge_args<'a>(out: &'a Path, dirs: &'a [PathBuf]) -> Vec<&'a str> {
    let mut args = vec!["merge", out.to_str().unwrap()];
    args.extend(dirs.iter().map(|d| d.to_str().unwrap()));
    args
}

#[test]
fn shards_of_a_tournament_merge_into_the_one_machine_files() {
    let tmp = tempfile::tempdir().unwrap();
    let single = tmp.path().join("single");
    tournament(&single, &[]);
    let dirs = shards(tmp.path(), 3, &[]);
    let merged = tmp.path().join("merged");
    let out = ok(&merge_args(&merged, &dirs));
    assert!(out.contains("merged 3 shards: 24 games of 24"), "{out}");
    assert!(out.contains("Crosstable"), "{out}");
    let files = [
        "tournament.json",
        "games.csv",
        "crosstable.csv",
        "ratings.csv",
        "los.csv",
    ];
    for f in files {
        assert_eq!(read(&merged, f), read(&single, f), "{f}");
    }
    // Again, into the same folder: the same files.
    ok(&merge_args(&merged, &dirs));
    for f in files {
        assert_eq!(
            read(&merged, f),
            read(&single, f),
            "{f} after a second merge"
        );
    }
    // The shards in another order.
    let reversed: Vec<PathBuf> = dirs.iter().rev().cloned().collect();
    let again = tmp.path().join("again");
    ok(&merge_args(&again, &reversed));
    assert_eq!(read(&again, "games.csv"), read(&single, "games.csv"));
}

#[test]
fn a_merge_with_games_missing_names_them_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dirs = shards(tmp.path(), 3, &[]);
    let out = tmp.path().join("out");
    let o = out.to_str().unwrap();
    let (d1, d2, d3) = (
        dirs[0].to_str().unwrap(),
        dirs[1].to_str().unwrap(),
        dirs[2].to_str().unwrap(),
    );
    fails(&["merge", o, d1, d3], "shard 2/3 was not given (8 games)");
    // Shard 3 killed after five games (and half a line).
    let games = dirs[2].join("games.csv");
    let text = fs::read_to_string(&games).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    fs::write(
        &games,
        format!("{}\n{}", lines[..6].join("\n"), &lines[6][..20]),
    )
    .unwrap();
    fails(
        &["merge", o, d1, d2, d3],
        &format!("shard 3/3 ({d3}) lacks 3 (resume it)"),
    );
    assert!(!out.exists());
    // Resumed, it merges.
    ok(&["tournament", "--resume", "--out", d3, "-q"]);
    ok(&["merge", o, d1, d2, d3]);
    // A folder given twice, or a whole run.
    fails(&["merge", o, d1, d1], "is given twice");
    let whole = tmp.path().join("whole");
    tournament(&whole, &[]);
    fails(
        &["merge", o, whole.to_str().unwrap()],
        "holds a whole run, not a shard",
    );
}

#[test]
fn shards_of_different_runs_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let a = shards(&tmp.path().join("a"), 2, &[]);
    let b = shards(&tmp.path().join("b"), 2, &["--seed", "7"]);
    let c = shards(&tmp.path().join("c"), 3, &[]);
    let out = tmp.path().join("out");
    let o = out.to_str().unwrap();
    let s = |d: &PathBuf| d.to_str().unwrap().to_string();
    fails(
        &["merge", o, &s(&a[0]), &s(&b[1])],
        "are not shards of one run: their settings differ in seed (2023 and 7)",
    );
    fails(
        &["merge", o, &s(&a[0]), &s(&c[1])],
        "one is split into 2 shards, the other into 3",
    );
    // A folder holding another run is not overwritten.
    ok(&["merge", o, &s(&a[0]), &s(&a[1])]);
    fails(
        &["merge", o, &s(&b[0]), &s(&b[1])],
        "already holds another run",
    );
}

#[test]
fn a_sharded_match_merges_to_the_same_sprt_verdict_as_one_machine() {
    let tmp = tempfile::tempdir().unwrap();
    let args = |dir: &Path, shard: Option<&str>| {
        let mut v = vec![
            "match",
            "CaptureLargest",
            "Supporter",
            "--sprt",
            "elo0=0,elo1=100",
            "--games",
            "200",
            "-q",
            "--out",
            dir.to_str().unwrap(),
        ];
        if let Some(s) = shard {
            v.extend(["--shard", s]);
        }
        ok(&v)
    };
    let single = tmp.path().join("single");
    let out = args(&single, None);
    assert!(out.contains("SPRT: H0 accepted"), "{out}");
    let dirs: Vec<PathBuf> = (1..=2)
        .map(|i| {
            let d = tmp.path().join(format!("s{i}"));
            let out = args(&d, Some(&format!("{i}/2")));
            assert!(out.contains("`fow merge` applies the SPRT"), "{out}");
            d
        })
        .collect();
    let merged = tmp.path().join("merged");
    let out = ok(&merge_args(&merged, &dirs));
    assert!(out.contains("(the SPRT decided)"), "{out}");
    assert!(out.contains("SPRT: H0 accepted"), "{out}");
    for f in ["games.csv", "match.json", "tournament.json"] {
        assert_eq!(read(&merged, f), read(&single, f), "{f}");
    }
}

#[test]
fn bad_shards_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let o = tmp.path().join("x");
    let o = o.to_str().unwrap();
    for bad in ["0/3", "4/3", "1/0", "two/3"] {
        fails(
            &["tournament", "--shard", bad, "--out", o],
            &format!("'{bad}' is not a shard"),
        );
    }
    // A secret key must be shared by the shards.
    fails(
        &[
            "tournament",
            "--players",
            "RandomMove,exec:cmd=python3 tests/bots/control.py",
            "--shard",
            "1/2",
            "--out",
            o,
        ],
        "--secret-key FILE",
    );
    let key = tmp.path().join("bad.key");
    fs::write(&key, "xyz\n").unwrap();
    fails(
        &[
            "tournament",
            "--secret-key",
            key.to_str().unwrap(),
            "--out",
            o,
        ],
        "bad.key:1: a key is 32 hexadecimal digits",
    );
}

#[test]
fn a_stored_shard_that_does_not_exist_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dirs = shards(tmp.path(), 2, &[]);
    // Settings with a tag cannot be edited (tests/tags.rs): shards as an older fow
    // wrote them.
    for d in &dirs {
        as_before_tags(d);
    }
    let cfg = dirs[0].join("tournament.json");
    let text = fs::read_to_string(&cfg).unwrap();
    fs::write(&cfg, text.replace("\"index\": 1", "\"index\": 0")).unwrap();
    let d = dirs[0].to_str().unwrap();
    fails(
        &["tournament", "--resume", "--out", d],
        "shard 0/2 does not exist",
    );
    let out = tmp.path().join("out");
    fails(
        &["merge", out.to_str().unwrap(), d, dirs[1].to_str().unwrap()],
        "shard 0/2 does not exist",
    );
    // A reader that does not resume it refuses its rows instead of panicking.
    fails(&["rate", d], "not a game of shard 0/2");
}

/// A merge killed after writing its key, or with its temporaries half written, leaves
/// them in the output folder: the next merge writes over them instead of calling the
/// folder another run's. A file of fow's names but another content still blocks it.
#[test]
fn a_killed_merges_leftovers_do_not_block_the_next_merge() {
    let tmp = tempfile::tempdir().unwrap();
    let key = tmp.path().join("run.key");
    fs::write(&key, "0123456789abcdef0123456789abcdef\n").unwrap();
    let dirs = shards(tmp.path(), 2, &["--secret-key", key.to_str().unwrap()]);
    let single = tmp.path().join("single");
    ok(&merge_args(&single, &dirs));
    let merged = tmp.path().join("merged");
    fs::create_dir(&merged).unwrap();
    fs::copy(single.join("secret.key"), merged.join("secret.key")).unwrap();
    fs::write(merged.join("tournament.json.tmp"), "{\"players\": [").unwrap();
    fs::write(merged.join("games.csv.tmp"), "id,round,wh").unwrap();
    ok(&merge_args(&merged, &dirs));
    for f in ["tournament.json", "games.csv", "secret.key"] {
        assert_eq!(read(&merged, f), read(&single, f), "{f}");
    }
    // Another run's key, or a file fow does not write, is not a left-over.
    for (name, text) in [
        ("secret.key", "ffffffffffffffffffffffffffffffff\n"),
        ("notes.txt", "mine\n"),
    ] {
        let other = tmp.path().join(format!("other-{name}"));
        fs::create_dir(&other).unwrap();
        fs::write(other.join(name), text).unwrap();
        fails(
            &merge_args(&other, &dirs),
            &format!("holds no run ({name} is there)"),
        );
        assert_eq!(fs::read_to_string(other.join(name)).unwrap(), text);
    }
}

/// `fow merge t1 t1 t2`: the output folder given as a shard too is named as such, before
/// any lock (not blamed on "another fow command").
#[test]
fn an_output_folder_given_as_a_shard_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let dirs = shards(tmp.path(), 2, &[]);
    let (a, b) = (dirs[0].to_str().unwrap(), dirs[1].to_str().unwrap());
    fails(
        &["merge", a, a, b],
        &format!("the output folder {a} is also given as a shard ({a})"),
    );
    fails(&["merge", b, a, &format!("{b}/")], "also given as a shard");
    let out = tmp.path().join("out");
    fails(
        &["merge", out.to_str().unwrap(), a, a],
        &format!("{a} is given twice"),
    );
    assert!(!out.exists());
}
