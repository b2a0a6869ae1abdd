//! End-to-end tests of the `fow` program, run as a user would.

mod common;
use common::*;

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const PLAYERS: &str = "RandomMove,CaptureKing,CaptureLargest,Supporter";

/// Runs a 4-player, 4-games-per-pair tournament into `dir` and returns what it printed.
fn small_tournament(dir: &Path, seed: &str, jobs: &str) -> String {
    ok(&[
        "tournament",
        "--players",
        PLAYERS,
        "--games",
        "4",
        "--seed",
        seed,
        "--jobs",
        jobs,
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ])
}

#[test]
fn tournament_is_deterministic_across_job_counts() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    for (dir, jobs) in [(&a, "1"), (&b, "2")] {
        let out = small_tournament(dir, "5", jobs);
        assert!(out.contains("48 games on disk"), "{out}");
        assert!(
            out.contains("Elo   ±95%") && out.contains("Likelihood of superiority"),
            "{out}"
        );
    }
    for f in [
        "games.csv",
        "crosstable.csv",
        "ratings.csv",
        "tournament.json",
    ] {
        assert_eq!(
            read(&a, f),
            read(&b, f),
            "{f} differs between --jobs 1 and 2"
        );
    }
    let games = String::from_utf8(read(&a, "games.csv")).unwrap();
    assert_eq!(games.lines().count(), 49);
    let summary = String::from_utf8(read(&a, "summary.csv")).unwrap();
    assert!(
        summary.lines().next().unwrap().ends_with("avg_ms_per_move"),
        "{summary}"
    );
    assert_eq!(summary.lines().count(), 5);
    let ratings = String::from_utf8(read(&a, "ratings.csv")).unwrap();
    assert!(
        ratings.starts_with("index,player,games,points"),
        "{ratings}"
    );
    assert!(ratings.contains("\n1,RandomMove,24,"), "{ratings}");
    // Another seed gives other games.
    let c = tmp.path().join("c");
    small_tournament(&c, "6", "2");
    assert_ne!(read(&a, "games.csv"), read(&c, "games.csv"));
}

#[test]
fn a_killed_tournament_resumes_without_losing_or_repeating_games() {
    let tmp = tempfile::tempdir().unwrap();
    let full = tmp.path().join("full");
    let killed = tmp.path().join("killed");
    let args = |dir: &Path| -> Vec<String> {
        [
            "tournament",
            "--players",
            PLAYERS,
            "--games",
            "60",
            "--seed",
            "9",
            "--quiet",
            "--out",
            dir.to_str().unwrap(),
        ]
        .map(String::from)
        .to_vec()
    };
    let full_args = args(&full);
    ok(&full_args.iter().map(String::as_str).collect::<Vec<_>>());

    let mut child = Command::new(env!("CARGO_BIN_EXE_fow"))
        .args(args(&killed))
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once some games are on disk (or it finished: then resume has nothing to do).
    for _ in 0..400 {
        std::thread::sleep(Duration::from_millis(5));
        let rows = fs::read_to_string(killed.join("games.csv")).map_or(0, |t| t.lines().count());
        if rows > 30 || child.try_wait().unwrap().is_some() {
            break;
        }
    }
    child.kill().ok();
    child.wait().unwrap();

    let resume = [
        "tournament",
        "--resume",
        "--quiet",
        "--out",
        killed.to_str().unwrap(),
    ];
    let out = ok(&resume);
    assert!(out.contains("720 games on disk"), "{out}");
    assert_eq!(read(&full, "games.csv"), read(&killed, "games.csv"));
    assert_eq!(read(&full, "ratings.csv"), read(&killed, "ratings.csv"));
    // Resuming a finished tournament plays nothing.
    let out = ok(&resume);
    assert!(out.contains("0 played now"), "{out}");
    // The settings come from the folder.
    fails(
        &[
            "tournament",
            "--resume",
            "--games",
            "3",
            "--out",
            killed.to_str().unwrap(),
        ],
        "--resume takes its settings",
    );
    fails(
        &[
            "tournament",
            "--players",
            PLAYERS,
            "--out",
            killed.to_str().unwrap(),
        ],
        "already holds a tournament",
    );
}

#[test]
fn rate_reproduces_the_thesis_table() {
    let names = "RandomMove,CaptureKing,CaptureLargest,CaptureWithLargestDifference,Supporter,\
PositionaryEvaluator,NeuralNetworkPlayer,SimpleStockfish,PossibleBoardGenerator,PossibleBoardList";
    let matrix = concat!(env!("CARGO_MANIFEST_DIR"), "/data/thesis/match_results.txt");
    let tmp = tempfile::tempdir().unwrap();
    let out = ok(&[
        "rate",
        matrix,
        "--names",
        names,
        "--method",
        "both",
        "--out",
        tmp.path().to_str().unwrap(),
    ]);
    for elo in [
        "388.39", "839.62", "764.03", "919.92", "992.05", "514.08", "964.88", "1100.75", "1525.73",
    ] {
        assert!(out.contains(elo), "{elo} missing:\n{out}");
    }
    let csv = String::from_utf8(read(tmp.path(), "ratings.csv")).unwrap();
    assert!(csv.contains("PossibleBoardList,1800,1754.5"), "{csv}");
    let explained = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("Thesis Elo: ") || l.starts_with("MLE Elo: "))
            .unwrap_or_else(|| panic!("no line says what the columns are:\n{out}"))
            .to_string()
    };
    let both = explained(&out);
    assert!(
        both.contains("Thesis Elo: ") && both.contains("MLE ±95% its 95% interval"),
        "{both}"
    );
    assert!(both.ends_with("both with RandomMove = 0."), "{both}");
    let out = ok(&["rate", matrix, "--method", "thesis", "--anchor", "P10=1000"]);
    assert!(out.contains("1000.00") && out.contains("-525.73"), "{out}");
    // Only the columns shown are explained: no MLE and no interval for the thesis method.
    let thesis = explained(&out);
    assert!(
        thesis.starts_with("Thesis Elo: ") && !thesis.contains("MLE"),
        "{thesis}"
    );
    assert!(
        thesis.contains("with P10 = 1000; a point estimate"),
        "{thesis}"
    );
    let mle = explained(&ok(&["rate", matrix, "--method", "mle"]));
    assert!(
        mle.starts_with("MLE Elo: ")
            && !mle.contains("Thesis")
            && mle.contains("MLE ±95%: its 95% interval"),
        "{mle}"
    );
    let bayeselo = ok(&["rate", matrix]);
    assert!(
        !bayeselo.contains("Thesis Elo: ") && !bayeselo.contains("MLE Elo: "),
        "{bayeselo}"
    );
    fails(
        &["rate", matrix, "--anchor", "Nobody=0"],
        "no player 'Nobody'",
    );
}

#[test]
fn rate_rates_a_player_that_lost_everything_with_the_prior_and_marks_one_never_met() {
    // C lost all its games: BayesElo's prior rates it (as BayesElo does), the thesis and
    // MLE fits cannot. D played nobody: no fit relates it to the others.
    let tmp = tempfile::tempdir().unwrap();
    let matrix = tmp.path().join("m.txt");
    fs::write(
        &matrix,
        "(---/---/---) ( 5/ 2/ 3) ( 4/ 0/ 0) ( 0/ 0/ 0)\n\
         ( 3/ 1/ 6) (---/---/---) ( 4/ 0/ 0) ( 0/ 0/ 0)\n\
         ( 0/ 0/ 4) ( 0/ 0/ 4) (---/---/---) ( 0/ 0/ 0)\n\
         ( 0/ 0/ 0) ( 0/ 0/ 0) ( 0/ 0/ 0) (---/---/---)\n",
    )
    .unwrap();
    let out_dir = tmp.path().join("out");
    let out = ok(&[
        "rate",
        matrix.to_str().unwrap(),
        "--names",
        "A,B,C,D",
        "--method",
        "both",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let row = |name: &str| {
        out.lines()
            .skip_while(|l| *l != "Ratings:")
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{out}"))
    };
    assert_eq!(
        row("3  C").matches("not rated (unlinked)").count(),
        2,
        "{out}"
    );
    assert_eq!(
        row("4  D").matches("not rated (unlinked)").count(),
        3,
        "{out}"
    );
    assert!(out.contains("note: not rated (unlinked): D"), "{out}");
    assert!(
        out.contains("note: rated by BayesElo's prior only: C"),
        "{out}"
    );
    let csv = String::from_utf8(read(&out_dir, "ratings.csv")).unwrap();
    assert!(csv.contains(",elo,elo_ci95,rated"), "{csv}");
    let c = csv.lines().find(|l| l.starts_with("3,C,")).unwrap();
    assert!(
        c.starts_with("3,C,16,0,0.00,,,,-") && c.ends_with(",yes"),
        "{csv}"
    );
    assert!(csv.contains("\n4,D,0,0,,,,,,,no\n"), "{csv}");
    // The LOS table holds the players BayesElo rates.
    let los = String::from_utf8(read(&out_dir, "los.csv")).unwrap();
    assert_eq!(los.lines().next(), Some("index,player,A,B,C"), "{los}");
    let anchored = ok(&[
        "rate",
        matrix.to_str().unwrap(),
        "--names",
        "A,B,C,D",
        "--anchor",
        "C=0",
    ]);
    assert!(anchored.contains("relative to C = 0"), "{anchored}");
    fails(
        &[
            "rate",
            matrix.to_str().unwrap(),
            "--names",
            "A,B,C,D",
            "--anchor",
            "D=0",
        ],
        "D is not rated (unlinked)",
    );
}

#[test]
fn rate_reads_a_games_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let printed = ok(&[
        "tournament",
        "--players",
        "RandomMove,CaptureLargest",
        "--games",
        "5",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let games = dir.join("games.csv");
    let rated = ok(&["rate", games.to_str().unwrap()]);
    let line = |s: &str| {
        s.lines()
            .find(|l| l.contains(" CaptureLargest ") && l.contains('%'))
            .unwrap()
            .to_string()
    };
    // Same numbers as the tournament printed (minus its ms/move column).
    assert!(
        line(&printed).starts_with(&line(&rated).trim_end().to_string()),
        "{printed}\n{rated}"
    );
    // A malformed row is reported with file and line.
    let text = fs::read_to_string(&games).unwrap();
    let broken = tmp.path().join("broken.csv");
    fs::write(
        &broken,
        text.replacen(",king captured,", ",fell asleep,", 1),
    )
    .unwrap();
    fails(&["rate", broken.to_str().unwrap()], "broken.csv:");
}

/// A self-match has no ratings, and `fow rate` says so instead of a bare refusal.
#[test]
fn rate_says_why_a_self_match_has_no_ratings() {
    // A bot against itself (the committed SPRT example that accepts H0).
    fails(
        &["rate", "results/match-examples/sprt-h0"],
        "plays itself: a player against itself has no rating to fit",
    );
}

/// `fow rate` reads what `replay` and `export` read: a results folder, its games.csv, a
/// PGN file and a folder of PGN files, with the same ratings.
#[test]
fn rate_reads_a_folder_or_pgn_like_replay_and_export() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let d = dir.to_str().unwrap();
    ok(&[
        "tournament",
        "--players",
        "RandomMove,CaptureLargest,CaptureKing",
        "--games",
        "3",
        "--quiet",
        "--out",
        d,
    ]);
    let ratings = |out: &str| {
        out.lines()
            .skip_while(|l| *l != "Ratings:")
            .take_while(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let of_folder = ratings(&ok(&["rate", d]));
    assert!(of_folder.contains("CaptureLargest"), "{of_folder}");
    assert_eq!(
        ratings(&ok(&["rate", dir.join("games.csv").to_str().unwrap()])),
        of_folder
    );
    let pgn_dir = tmp.path().join("pgn");
    fs::create_dir(&pgn_dir).unwrap();
    let pgn = pgn_dir.join("all.pgn");
    ok(&["export", d, "--out", pgn.to_str().unwrap()]);
    assert_eq!(ratings(&ok(&["rate", pgn.to_str().unwrap()])), of_folder);
    // An undecided game in a PGN folder is left out, and says so.
    fs::write(
        pgn_dir.join("open.pgn"),
        "[White \"RandomMove\"]\n[Black \"CaptureKing\"]\n[Result \"*\"]\n\n1. e4 *\n",
    )
    .unwrap();
    let out = ok(&["rate", pgn_dir.to_str().unwrap()]);
    assert_eq!(ratings(&out), of_folder);
    assert!(
        out.contains("note: 1 of 19 games left out: undecided (result *)"),
        "{out}"
    );
    // A folder with neither games.csv nor PGN files: one line, as export says it.
    let empty = tmp.path().join("empty");
    fs::create_dir(&empty).unwrap();
    fails(
        &["rate", empty.to_str().unwrap()],
        "no .pgn files (and no games.csv) in the folder",
    );
}

#[test]
fn bad_input_gets_one_line_and_exit_2() {
    fails(
        &["tournament", "--players", "RandomMove,Nobody"],
        "unknown bot 'Nobody' (known: RandomMove",
    );
    fails(
        &["tournament", "--players", "RandomMove:depth=3,CaptureKing"],
        "unknown parameter 'depth'",
    );
    fails(
        &["tournament", "--rules", "blitz"],
        "unknown rule preset 'blitz'",
    );
    fails(
        &[
            "tournament",
            "--rules",
            "chesscom",
            "--castling",
            "sometimes",
        ],
        "bad value 'sometimes'",
    );
    fails(&["view", "not a fen"], "malformed FEN");
    fails(
        &["perft", "--fen", "8/8/8/8/8/8/8/K7 w - - 0 1"],
        "black has 0 kings",
    );
    fails(&["rate", "/no/such/file"], "/no/such/file");
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("m.txt");
    fs::write(&bad, "(---/---/---) (1/0/x)\n(0/0/1) (---/---/---)\n").unwrap();
    fails(&["rate", bad.to_str().unwrap()], "m.txt: line 1");
}

/// Mistakes clap catches (bad option values, unknown options and subcommands, missing
/// values) are one `fow: error:` line too, with clap's hints and a pointer to the help;
/// and so are the settings checked before any work starts, which must leave no folder.
#[test]
fn command_line_mistakes_are_one_line_before_any_work() {
    fails(
        &["tournament", "--games", "-1"],
        "fow: error: unexpected argument '-1' found (see fow tournament --help)",
    );
    fails(
        &["perft", "--depth", "abc"],
        "fow: error: invalid value 'abc' for '--depth <DEPTH>'",
    );
    fails(
        &["tournament", "--method", "foo"],
        "[possible values: bayeselo, thesis, mle, both]",
    );
    fails(
        &["tornament"],
        "similar subcommands exist: 'rate', 'tournament'",
    );
    fails(
        &["play"],
        "the following required arguments were not provided: --bot <SPEC>",
    );
    fails(&["bench", "--repeat", "0"], "--repeat must be at least 1");
    fails(&["bench", "--games", "0"], "--games must be at least 1");
    fails(
        &["bench", "--perft-depth", "9"],
        "--perft-depth must be between 1 and 8",
    );
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let d = dir.to_str().unwrap();
    let base = [
        "tournament",
        "--players",
        "RandomMove,CaptureKing",
        "--out",
        d,
    ];
    let with = |extra: &[&'static str]| -> Vec<&str> {
        base.iter().copied().chain(extra.iter().copied()).collect()
    };
    fails(&with(&["--jobs", "0"]), "--jobs must be at least 1");
    fails(
        &with(&["--move-time-limit", "0"]),
        "--move-time-limit must be at least 1 ms",
    );
    // A count of 0 is not "off" in disguise: the message names the way to say off.
    fails(
        &with(&["--draw-plies", "0"]),
        "--draw-plies 0: the count must be at least 1 ply; write --draw-plies off to turn the rule off",
    );
    fails(
        &with(&["--repetition", "0"]),
        "write --repetition off to turn the rule off",
    );
    fails(
        &with(&["--rules", "chesscom,draw-plies=0"]),
        "write draw-plies=off to turn the rule off",
    );
    fails(
        &["perft", "--depth", "1", "--draw-plies", "00"],
        "--draw-plies 00: the count must be at least 1 ply",
    );
    assert!(ok(&["perft", "--depth", "1", "--draw-plies", "off"]).contains("draw-plies=off"));
    fails(
        &with(&["--games", "2000000000"]),
        "4000000000 games (2 players, 2000000000 per ordered pair) is more than one tournament holds",
    );
    assert!(!dir.exists(), "no folder for a refused tournament");
    fails(
        &["tournament", "--resume", "--out", d],
        "holds no tournament to resume",
    );
    fails(
        &["evolve", "--resume", "--out", d],
        "holds no evolution to resume",
    );
    let game = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/chesscom-fow/game-000.pgn"
    );
    fails(
        &["replay", game, "--print", "--analysis", "/no/such.csv"],
        "/no/such.csv: no such file",
    );
}

/// `dataset` and `tune-material` read a results folder as its games.csv, and make the
/// folder their output goes into.
#[test]
fn learning_commands_read_a_results_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    small_tournament(&dir, "3", "1");
    let d = dir.to_str().unwrap();
    let csv = dir.join("games.csv");
    let c = csv.to_str().unwrap();
    let values = tmp.path().join("new/values.json");
    let from_dir = ok(&["tune-material", d, "--out", values.to_str().unwrap()]);
    assert!(values.is_file(), "{from_dir}");
    let from_csv = ok(&["tune-material", c]);
    let fit = |out: &str| -> String {
        out.lines()
            .filter(|l| !l.contains(": rules") && !l.starts_with("written to"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(fit(&from_dir), fit(&from_csv));
    let set = tmp.path().join("sets/a.fownn");
    let out = ok(&["dataset", d, "--out", set.to_str().unwrap()]);
    assert!(out.contains("48 games read"), "{out}");
    assert!(set.is_file());
}

#[test]
fn perft_view_players_and_bench_work() {
    let out = ok(&["perft", "--depth", "3"]);
    assert!(out.contains("perft(3) = 8902"), "{out}");
    let out = ok(&["perft", "--depth", "2", "--divide", "--rules", "chesscom"]);
    assert_eq!(
        out.lines().filter(|l| l.contains(": 20")).count(),
        20,
        "{out}"
    );
    let out = ok(&[
        "view",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "--ascii",
    ]);
    assert!(
        out.contains("white:    ????????/????????/????????/????????/8/8/PPPPPPPP/RNBQKBNR w KQ -"),
        "{out}"
    );
    assert!(
        out.contains("black:    rnbqkbnr/pppppppp/8/8/????????/????????/????????/???????? b kq -"),
        "{out}"
    );
    let out = ok(&["players"]);
    for b in [
        "RandomMove",
        "CaptureKing",
        "CaptureLargest",
        "CaptureWithLargestDifference",
        "Supporter",
        "SimpleStockfish",
        "PossibleBoardGenerator",
        "PossibleBoardList",
        "cap=20000",
    ] {
        assert!(out.contains(b), "{out}");
    }
    let sig = |jobs: &str| {
        let out = ok(&[
            "bench",
            "--games",
            "200",
            "--perft-depth",
            "3",
            "--belief-games",
            "2",
            // Its own test in fow-arena, with small budgets (at their defaults these bots
            // are slow in a debug build).
            "--solver-games",
            "0",
            "--jobs",
            jobs,
        ]);
        assert!(
            out.contains("M plies/s")
                && out.contains("M nodes/s")
                && out.contains("M children checked/s")
                && out.contains("set size per decision: median"),
            "{out}"
        );
        // The parallel line compares with the one-job runs it alternated with.
        assert_eq!(
            out.matches("x one job; median of rounds ").count(),
            if jobs == "1" { 0 } else { 2 },
            "{out}"
        );
        out.lines()
            .find(|l| l.starts_with("signature:"))
            .unwrap()
            .to_string()
    };
    assert_eq!(sig("1"), sig("2"));
    let top = ok(&["--help"]);
    for cmd in ["tournament", "rate", "players", "perft", "view", "bench"] {
        let line = top
            .lines()
            .find(|l| l.trim_start().starts_with(cmd))
            .unwrap_or_default();
        assert!(
            line.len() > cmd.len() + 20,
            "fow --help lacks a line on {cmd}:\n{top}"
        );
        let out = ok(&[cmd, "--help"]);
        assert!(
            out.contains("Usage: fow ") && out.len() > 100,
            "{cmd} --help is too thin:\n{out}"
        );
    }
}

#[test]
fn search_bots_play_the_same_games_on_any_number_of_jobs() {
    let tmp = tempfile::tempdir().unwrap();
    let players = "SimpleStockfish:depth=2,PossibleBoardGenerator:depth=2,\
                   PossibleBoardList:cap=500,sample=4,nodes=20000,CaptureLargest";
    let run = |jobs: &str| {
        let dir = tmp.path().join(jobs);
        let out = ok(&[
            "tournament",
            "--players",
            players,
            "--games",
            "1",
            "--seed",
            "3",
            "--jobs",
            jobs,
            "--quiet",
            "--out",
            dir.to_str().unwrap(),
        ]);
        assert!(
            out.contains("PossibleBoardList:cap=500,sample=4,nodes=20000"),
            "{out}"
        );
        fs::read_to_string(dir.join("games.csv")).unwrap()
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    // 4 players, 12 games, none lost to a fault.
    assert_eq!(one.lines().count(), 13);
    for reason in ["illegal", "panic", "timeout", "error"] {
        assert!(!one.to_lowercase().contains(reason), "{one}");
    }
}

/// A reader that closes the pipe early (`fow players | head -1`) costs the rest of the
/// output, not a panic: the command finishes its work (a tournament writes its files)
/// and exits with status 0.
#[test]
fn closed_stdout_ends_quietly() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let cases: [&[&str]; 3] = [
        &["players"],
        &["perft", "--depth", "3", "--divide"],
        &[
            "tournament",
            "--players",
            "RandomMove,CaptureKing",
            "--games",
            "2",
            "--quiet",
            "--out",
            dir.to_str().unwrap(),
        ],
    ];
    for args in cases {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fow"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Close the reading end before the program writes.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {:?} {err}", out.status);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    for file in ["games.csv", "crosstable.csv", "ratings.csv"] {
        assert!(dir.join(file).is_file(), "{file}");
    }
}

/// A failing standard output (a full disk behind a redirection) is one error line and
/// exit status 1.
#[test]
fn failing_stdout_is_one_error_line() {
    let Ok(full) = fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not a Linux machine
    };
    let out = Command::new(env!("CARGO_BIN_EXE_fow"))
        .arg("players")
        .stdout(full)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("fow: error: standard output:"), "{err}");
}

/// Bare `fow` shows the usage and says what is missing on a `fow: error:` line, exit 2;
/// asking for help is no error.
#[test]
fn bare_fow_prints_its_usage_and_an_error_line() {
    let out = fow(&[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("Usage: fow <COMMAND>"), "{err}");
    assert_eq!(
        err.trim_end().lines().last(),
        Some("fow: error: no command given (see fow --help)"),
        "{err}"
    );
    assert!(ok(&["--help"]).contains("Usage: fow <COMMAND>"));
    assert!(ok(&["help"]).contains("Usage: fow <COMMAND>"));
    assert!(ok(&["help", "replay"]).contains("Usage: fow replay"));
}

/// A PGN file that is not UTF-8 text (UTF-16 as Windows programs save it, Latin-1, UTF-16
/// without a byte-order mark) is bad input: one line naming the file and the line, exit
/// 2, for every command that reads PGN. A UTF-8 byte-order mark is fine. An output that
/// cannot be written is a failure: exit 1.
#[test]
fn pgn_files_that_are_not_utf8_text_are_bad_input() {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = "[White \"a\"]\n[Black \"b\"]\n\n1. e4 e5 *\n";
    let file = |name: &str, bytes: Vec<u8>| {
        let p = tmp.path().join(name);
        fs::write(&p, bytes).unwrap();
        p.to_str().unwrap().to_string()
    };
    let utf16: Vec<u8> = format!("\u{feff}{pgn}")
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let utf16 = file("utf16.pgn", utf16);
    let no_bom = file(
        "nobom.pgn",
        pgn.encode_utf16().flat_map(u16::to_le_bytes).collect(),
    );
    let latin1 = file(
        "latin1.pgn",
        pgn.replace("\"b\"", "\"Jos\u{e9}\"")
            .chars()
            .map(|c| c as u8)
            .collect(),
    );
    let bom8 = file("bom8.pgn", format!("\u{feff}{pgn}").into_bytes());
    let out = tmp.path().join("out");
    for (path, needle) in [
        (
            &utf16,
            "utf16.pgn:1: not UTF-8 text but UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8",
        ),
        (
            &no_bom,
            "nobom.pgn:1: a NUL byte: not a text file (UTF-16 without a byte-order mark?); save it as UTF-8",
        ),
        (
            &latin1,
            "latin1.pgn:2: not UTF-8 text: byte 0xE9 at column 12 (Latin-1 or another encoding?); save it as UTF-8",
        ),
    ] {
        fails(&["replay", path], needle);
        fails(&["export", path], needle);
        fails(&["import", path, "--out", out.to_str().unwrap()], needle);
        fails(&["tune-material", path], needle);
        assert!(!out.exists(), "import wrote {}", out.display());
    }
    assert!(ok(&["export", &bom8]).contains("[Black \"b\"]"));
    // An output in a folder that does not exist is a bad path: exit 2, one line.
    let nowhere = tmp.path().join("no/such/folder/x.pgn");
    let o = fow(&["export", &bom8, "--out", nowhere.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("x.pgn: no such file or folder"), "{err}");
}

#[test]
fn counts_of_one_are_singular() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("one");
    let out = ok(&[
        "tournament",
        "--players",
        "RandomMove,CaptureLargest",
        "--games",
        "1",
        "--jobs",
        "1",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        out.starts_with(
            "2 players, 1 game per ordered pair, 2 games, rules thesis, seed 2023, 1 job -> "
        ),
        "{out}"
    );
    // Word by word: a speed such as "521 games/s" is not "1 games".
    let words: Vec<&str> = out.split_whitespace().collect();
    assert!(
        !words
            .windows(2)
            .any(|w| w[0] == "1" && (w[1].starts_with("games") || w[1].starts_with("jobs"))),
        "{out}"
    );
}

/// Every table, report and plot names a player the same way: a program's `name=` where
/// given, else its spec; the data files (games.csv, tournament.json) keep the spec.
#[test]
fn a_program_player_goes_by_its_name_everywhere() {
    if !python("a Python bot") {
        return;
    }
    let bot = "exec:cmd=python3 examples/random_bot.py,name=RandomPy";
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().join("t");
    let m = tmp.path().join("m");
    let (t_, m_) = (t.to_str().unwrap(), m.to_str().unwrap());
    let shown = |out: &str| {
        assert!(out.contains("RandomPy"), "{out}");
        assert!(
            !out.contains("exec:"),
            "a spec in a table or report:\n{out}"
        );
    };
    let players = format!("CaptureLargest,{bot}");
    shown(&ok(&[
        "tournament",
        "--players",
        &players,
        "--games",
        "2",
        "--quiet",
        "--out",
        t_,
    ]));
    shown(&ok(&["rate", t_]));
    shown(&ok(&["rate", t.join("games.csv").to_str().unwrap()]));
    let pgn = tmp.path().join("games.pgn");
    ok(&["export", t_, "--out", pgn.to_str().unwrap()]);
    shown(&ok(&["rate", pgn.to_str().unwrap()]));
    shown(&ok(&["replay", t_, "--game", "0", "--print"]));
    shown(&ok(&[
        "analyze", t_, "--game", "0", "--depth", "1", "--nodes", "100",
    ]));
    shown(&ok(&[
        "match",
        bot,
        "CaptureLargest",
        "--games",
        "2",
        "--quiet",
        "--out",
        m_,
    ]));
    let json = String::from_utf8(read(&m, "match.json")).unwrap();
    shown(&json);
    // The files that record the games keep the spec.
    for (dir, f) in [
        (&t, "games.csv"),
        (&t, "tournament.json"),
        (&m, "tournament.json"),
    ] {
        let text = String::from_utf8(read(dir, f)).unwrap();
        assert!(text.contains("random_bot.py"), "{f}: {text}");
    }
}
