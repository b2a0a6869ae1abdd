//! Every file or folder argument of every subcommand, given a path that cannot be what it
//! names: a missing path, a folder where a file is expected, a file where a folder is
//! expected (the path itself, or a file standing in the path), and a file that cannot be
//! read (or written). Each is bad input: exit status 2, exactly one line on stderr,
//! `fow: error: ...` naming the path, no panic. The table lists every subcommand that
//! `fow --help` lists and every argument whose value names a file or folder; a guard
//! fails when one is missing from it.

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::help::{commands, help, value_arguments};
use common::*;

/// What an argument names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A file to read.
    InFile,
    /// A folder to read (a results folder).
    InDir,
    /// A file or a folder to read (games: a results folder, a games.csv, a PGN file or a
    /// folder of them).
    InAny,
    /// A file to write.
    OutFile,
    /// A folder to write into (made when missing).
    OutDir,
    /// A program to run.
    Program,
    /// A folder of results folders to read (`fow web`'s roots: any folder, an empty one
    /// included).
    Roots,
}

/// A bad path, made for one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Case {
    /// Nothing there.
    Missing,
    /// An empty folder (for a file; for a results folder, one without its files).
    Folder,
    /// A regular file.
    File,
    /// A path under a regular file (`file/x`): a file where a folder is expected.
    UnderFile,
    /// A file (or for folders a folder) without permissions.
    Unreadable,
}

impl Kind {
    /// The bad paths for an argument of this kind.
    fn cases(self) -> &'static [Case] {
        use Case::*;
        match self {
            Kind::InFile | Kind::InAny => &[Missing, Folder, UnderFile, Unreadable],
            Kind::InDir => &[Missing, Folder, File, UnderFile, Unreadable],
            // A missing output is made; a missing parent folder is made too.
            Kind::OutFile => &[Folder, UnderFile, Unreadable],
            Kind::OutDir => &[File, UnderFile, Unreadable],
            Kind::Program => &[Missing, Folder, File],
            Kind::Roots => &[Missing, File, UnderFile, Unreadable],
        }
    }
}

/// One file or folder argument: the command (`params import`), the argument as `fow
/// COMMAND --help` names it (`<FILE>`, `--out`), a command line where `@` is the path under
/// test and `%R` (a results folder), `%S1`, `%S2` (two shards of one run), `%PGN`, `%DS` (a
/// dataset) and `%NUMS` (PositionaryEvaluator's parameters as a list of numbers) are good
/// inputs, `%FRESH` a path where nothing is yet, and the kind.
struct Arg {
    command: &'static str,
    arg: &'static str,
    line: &'static [&'static str],
    kind: Kind,
}

const fn arg(
    command: &'static str,
    arg: &'static str,
    kind: Kind,
    line: &'static [&'static str],
) -> Arg {
    Arg {
        command,
        arg,
        line,
        kind,
    }
}

use Kind::*;

/// A few quick games.
const GAMES: &[&str] = &["--players", "RandomMove,CaptureLargest", "-n", "1", "-q"];

/// Every file or folder argument of every subcommand.
const TABLE: &[Arg] = &[
    arg(
        "tournament",
        "--out",
        OutDir,
        &["tournament", "@@GAMES", "--out", "@"],
    ),
    arg(
        "tournament",
        "--out",
        InDir,
        &["tournament", "--resume", "-q", "--out", "@"],
    ),
    arg(
        "tournament",
        "--openings",
        InAny,
        &["tournament", "@@GAMES", "--openings", "@"],
    ),
    arg(
        "tournament",
        "--secret-key",
        InFile,
        &["tournament", "@@GAMES", "--secret-key", "@"],
    ),
    arg(
        "match",
        "--out",
        OutDir,
        &[
            "match",
            "RandomMove",
            "CaptureLargest",
            "-n",
            "2",
            "-q",
            "--out",
            "@",
        ],
    ),
    arg(
        "match",
        "--out",
        InDir,
        &["match", "--resume", "-q", "--out", "@"],
    ),
    arg(
        "match",
        "--openings",
        InAny,
        &[
            "match",
            "RandomMove",
            "CaptureLargest",
            "-n",
            "2",
            "--openings",
            "@",
        ],
    ),
    arg(
        "match",
        "--secret-key",
        InFile,
        &[
            "match",
            "RandomMove",
            "CaptureLargest",
            "-n",
            "2",
            "--secret-key",
            "@",
        ],
    ),
    arg(
        "exploit",
        "--out",
        OutDir,
        &[
            "exploit",
            "RandomMove",
            "--particles",
            "1",
            "-n",
            "2",
            "-q",
            "--out",
            "@",
        ],
    ),
    arg(
        "exploit",
        "--out",
        InDir,
        &["exploit", "--resume", "-q", "--out", "@"],
    ),
    arg(
        "exploit",
        "--openings",
        InAny,
        &["exploit", "RandomMove", "-n", "2", "--openings", "@"],
    ),
    arg(
        "exploit",
        "--secret-key",
        InFile,
        &["exploit", "RandomMove", "-n", "2", "--secret-key", "@"],
    ),
    arg("merge", "<OUT>", OutDir, &["merge", "@", "%S1", "%S2"]),
    arg("merge", "<DIR>", InDir, &["merge", "%FRESH", "%S1", "@"]),
    arg("merge", "<DIR>", InDir, &["merge", "%FRESH", "@", "%S2"]),
    arg("compare-thesis", "<DIR>", InDir, &["compare-thesis", "@"]),
    arg("rate", "<FILE>", InAny, &["rate", "@"]),
    arg("rate", "--out", OutDir, &["rate", "%R", "--out", "@"]),
    arg("replay", "<FILE>", InAny, &["replay", "--print", "@"]),
    arg(
        "replay",
        "--html",
        OutFile,
        &["replay", "%R", "--html", "@"],
    ),
    arg(
        "replay",
        "--analysis",
        InFile,
        &["replay", "--print", "%R", "--analysis", "@"],
    ),
    arg(
        "replay",
        "--stockfish",
        Program,
        &[
            "replay",
            "--print",
            "%R",
            "--analyze",
            "--engine",
            "stockfish",
            "--stockfish",
            "@",
        ],
    ),
    arg("export", "<SOURCE>", InAny, &["export", "@"]),
    arg("export", "--out", OutFile, &["export", "%R", "--out", "@"]),
    arg(
        "import",
        "<FILE_OR_FOLDER>",
        InAny,
        &["import", "@", "--out", "%FRESH"],
    ),
    arg("import", "--out", OutDir, &["import", "%PGN", "--out", "@"]),
    arg("tune-material", "<INPUT>", InAny, &["tune-material", "@"]),
    arg(
        "tune-material",
        "--out",
        OutFile,
        &["tune-material", "%R", "--out", "@"],
    ),
    arg(
        "evolve",
        "--start",
        InFile,
        &[
            "evolve",
            "--start",
            "@",
            "--epochs",
            "1",
            "--population",
            "2",
            "--survivors",
            "1",
            "--benchmark-games",
            "0",
            "-q",
            "--out",
            "%FRESH",
        ],
    ),
    arg(
        "evolve",
        "--out",
        OutDir,
        &[
            "evolve",
            "--epochs",
            "1",
            "--population",
            "2",
            "--survivors",
            "1",
            "--benchmark-games",
            "0",
            "-q",
            "--out",
            "@",
        ],
    ),
    arg(
        "evolve",
        "--out",
        InDir,
        &["evolve", "--resume", "-q", "--out", "@"],
    ),
    arg(
        "tune",
        "--tune-file",
        InFile,
        &[
            "tune",
            "Planted",
            "--tune-file",
            "@",
            "--batches",
            "1",
            "-q",
            "--out",
            "%FRESH",
        ],
    ),
    arg(
        "tune",
        "--openings",
        InFile,
        &[
            "tune",
            "Planted",
            "--params",
            "x",
            "--openings",
            "@",
            "--batches",
            "1",
            "-q",
            "--out",
            "%FRESH",
        ],
    ),
    arg(
        "tune",
        "--out",
        OutDir,
        &[
            "tune",
            "Planted",
            "--params",
            "x",
            "--batches",
            "1",
            "--pairs",
            "1",
            "-q",
            "--out",
            "@",
        ],
    ),
    arg(
        "tune",
        "--out",
        InDir,
        &["tune", "--resume", "-q", "--out", "@"],
    ),
    arg(
        "params show",
        "<SPEC>",
        InFile,
        &["params", "show", "PositionaryEvaluator:params=@"],
    ),
    arg(
        "params import",
        "<FILE>",
        InFile,
        &["params", "import", "@"],
    ),
    arg(
        "params import",
        "--out",
        OutFile,
        &["params", "import", "%NUMS", "--out", "@"],
    ),
    arg(
        "dataset",
        "<INPUT>",
        InAny,
        &["dataset", "@", "--out", "%FRESH"],
    ),
    arg(
        "dataset",
        "--out",
        OutFile,
        &["dataset", "%R", "--out", "@"],
    ),
    arg(
        "train",
        "<DATASET>",
        InFile,
        &["train", "@", "--out", "%FRESH"],
    ),
    arg("train", "--out", OutDir, &["train", "%DS", "--out", "@"]),
    arg("accuracy", "<DATASET>", InFile, &["accuracy", "@"]),
    arg(
        "accuracy",
        "--weights",
        InFile,
        &["accuracy", "%DS", "--weights", "@"],
    ),
    arg("analyze", "<FILE>", InAny, &["analyze", "@"]),
    arg(
        "analyze",
        "--csv",
        OutFile,
        &["analyze", "%R", "--depth", "1", "--csv", "@"],
    ),
    arg(
        "analyze",
        "--json",
        OutFile,
        &["analyze", "%R", "--depth", "1", "--json", "@"],
    ),
    arg(
        "analyze",
        "--stockfish",
        Program,
        &["analyze", "%R", "--engine", "stockfish", "--stockfish", "@"],
    ),
    arg(
        "play",
        "--out",
        OutDir,
        &["play", "--bot", "RandomMove", "--out", "@"],
    ),
    arg(
        "web",
        "<DIRS>",
        Roots,
        &["web", "@", "--listen", "127.0.0.1:0"],
    ),
];

/// Commands with no file or folder argument.
const NO_PATHS: &[&str] = &["players", "perft", "view", "bench", "serve"];

/// Value names of arguments that name a file or folder.
fn names_a_path(value: &str) -> bool {
    [
        "FILE", "DIR", "OUT", "PATH", "FOLDER", "DATASET", "INPUT", "SOURCE",
    ]
    .iter()
    .any(|w| value.contains(w))
}

#[test]
fn the_table_lists_every_command_and_every_path_argument() {
    let listed: BTreeSet<&str> = TABLE.iter().map(|a| a.command).collect();
    let mut missing = Vec::new();
    for (command, _) in commands() {
        if NO_PATHS.contains(&command.as_str()) {
            continue;
        }
        let words: Vec<&str> = command.split(' ').collect();
        let h = help(&words);
        if words.len() == 1 && h.contains("\nCommands:") {
            continue; // a group (`params`): its commands are listed on their own
        }
        if !listed.contains(command.as_str()) {
            missing.push(format!("fow {command}"));
            continue;
        }
        for (arg, value) in value_arguments(&h) {
            let in_table = TABLE.iter().any(|a| a.command == command && a.arg == arg);
            if names_a_path(&value) && !in_table {
                missing.push(format!("fow {command} {arg} <{value}>"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "not in tests/bad_paths.rs's table (add them, or to NO_PATHS): {missing:?}"
    );
    let h = "Arguments:\n  <OUT>\n          The folder\n  <DIR>...\n          Shards\n\nOptions:\n      --out <FILE.csv>  Out\n  -q, --quiet  Quiet\n  -n, --games <N>\n";
    assert_eq!(
        value_arguments(h),
        [
            ("<OUT>".to_string(), "OUT".to_string()),
            ("<DIR>".into(), "DIR".into()),
            ("--out".into(), "FILE.csv".into()),
            ("--games".into(), "N".into()),
        ]
    );
}

/// The good inputs the command lines refer to.
struct Inputs {
    _tmp: tempfile::TempDir,
    root: PathBuf,
}

impl Inputs {
    fn new() -> Inputs {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().to_path_buf();
        let p = |n: &str| root.join(n).to_str().unwrap().to_string();
        let players = ["--players", "RandomMove,CaptureLargest", "-n", "1", "-q"];
        ok(&[&["tournament"][..], &players, &["--out", &p("R")]].concat());
        for (dir, shard) in [("S1", "1/2"), ("S2", "2/2")] {
            let out = p(dir);
            let args = [&players[..], &["--shard", shard, "--out", &out]].concat();
            ok(&[&["tournament"][..], &args].concat());
        }
        ok(&["export", &p("R"), "--out", &p("g.pgn")]);
        ok(&["dataset", &p("R"), "--out", &p("d.fds")]);
        // PositionaryEvaluator's parameters as a plain list of numbers.
        let shown = ok(&["params", "show", "PositionaryEvaluator"]);
        let numbers: Vec<&str> = shown
            .lines()
            .filter_map(|l| l.split_whitespace().nth(1))
            .collect();
        fs::write(root.join("nums.txt"), numbers.join(" ")).unwrap();
        Inputs { _tmp: tmp, root }
    }

    /// The command line of `arg` with `path` as the path under test; `fresh` is a path
    /// where nothing is yet, for outputs that are not under test.
    fn line(&self, arg: &Arg, path: &Path, fresh: &Path) -> Vec<String> {
        let p = |n: &str| self.root.join(n).to_str().unwrap().to_string();
        let mut line = Vec::new();
        for w in arg.line {
            match *w {
                "@" => line.push(path.to_str().unwrap().to_string()),
                "@@GAMES" => line.extend(GAMES.iter().map(|s| s.to_string())),
                "%R" => line.push(p("R")),
                "%S1" => line.push(p("S1")),
                "%S2" => line.push(p("S2")),
                "%PGN" => line.push(p("g.pgn")),
                "%DS" => line.push(p("d.fds")),
                "%NUMS" => line.push(p("nums.txt")),
                "%FRESH" => line.push(fresh.to_str().unwrap().to_string()),
                w if w.contains('@') => {
                    line.push(w.replace('@', path.to_str().unwrap()));
                }
                w => line.push(w.to_string()),
            }
        }
        line
    }
}

/// Makes the bad path of `case` for an argument of `kind` in `dir`; returns it and the
/// path the error must name.
fn bad_path(dir: &Path, kind: Kind, case: Case) -> (PathBuf, PathBuf) {
    let file = dir.join("file");
    fs::write(&file, "not what fow reads\n").unwrap();
    let path = match case {
        Case::Missing => dir.join("missing"),
        Case::Folder => {
            fs::create_dir(dir.join("folder")).unwrap();
            dir.join("folder")
        }
        Case::File => file.clone(),
        Case::UnderFile => return (file.join("x"), file),
        Case::Unreadable => {
            let p = dir.join("locked");
            match kind {
                InDir | OutDir | Roots => fs::create_dir(&p).unwrap(),
                _ => fs::write(&p, "1 2 3\n").unwrap(),
            }
            let mode = if kind == OutDir { 0o500 } else { 0o000 };
            fs::set_permissions(&p, fs::Permissions::from_mode(mode)).unwrap();
            p
        }
    };
    (path.clone(), path)
}

/// Whether permissions stop this process reading a file (not for root).
fn permissions_hold() -> bool {
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("locked");
    fs::write(&p, "x").unwrap();
    fs::set_permissions(&p, fs::Permissions::from_mode(0o000)).unwrap();
    fs::read(&p).is_err()
}

#[test]
fn every_path_argument_refuses_a_bad_path_with_one_line_and_exit_2() {
    let inputs = Inputs::new();
    let permissions = permissions_hold();
    if !permissions {
        eprintln!(
            "skipped: running as root, permissions do not stop reading (the unreadable-file cases)"
        );
    }
    let mut failures = Vec::new();
    for (i, a) in TABLE.iter().enumerate() {
        for &case in a.kind.cases() {
            if case == Case::Unreadable && !permissions {
                continue;
            }
            let dir = tempfile::tempdir().unwrap();
            let (path, named) = bad_path(dir.path(), a.kind, case);
            let fresh = dir.path().join("fresh");
            let line = inputs.line(a, &path, &fresh);
            let out = Command::new(FOW)
                .args(&line)
                .stdin(Stdio::null())
                .output()
                .expect("fow runs");
            let err = String::from_utf8_lossy(&out.stderr);
            let needle = if a.command == "train" && !cfg!(feature = "torch") {
                "fow train needs libtorch".to_string()
            } else {
                named.display().to_string()
            };
            let good = out.status.code() == Some(2)
                && err.lines().count() == 1
                && err.starts_with("fow: error: ")
                && err.contains(&needle)
                && !err.contains("panicked");
            if !good {
                failures.push(format!(
                    "row {i}, {case:?} ({:?}): fow {} -> exit {:?}, stderr: {err}",
                    a.kind,
                    line.join(" "),
                    out.status.code()
                ));
            }
            if case == Case::Missing && path.exists() {
                failures.push(format!(
                    "row {i}: fow {} made the missing {}",
                    line.join(" "),
                    path.display()
                ));
            }
            // Let the temporary folder go, whatever its modes.
            let _ =
                fs::set_permissions(dir.path().join("locked"), fs::Permissions::from_mode(0o700));
        }
    }
    assert!(
        failures.is_empty(),
        "{} bad paths not refused cleanly:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The other side of the line: a write the system fails (a full disk) is a failure, exit
/// status 1, not bad input.
#[test]
fn a_full_disk_is_a_failure_not_bad_input() {
    if !Path::new("/dev/full").exists() {
        return; // not a Linux machine
    }
    let inputs = Inputs::new();
    let r = inputs.root.join("R");
    let out = fow(&["export", r.to_str().unwrap(), "--out", "/dev/full"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("fow: error: /dev/full: "), "{err}");
}
