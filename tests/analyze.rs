//! `fow analyze` end to end: a short known game, the CSV, determinism, Stockfish when it
//! is installed, and bad input.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{fails, fow, ok, tournament};
use fow_analysis::{read_analysis, MoveAnalysis, MoveLabel, MATE_CP};
use fow_records::load_game;
use fow_variants::RuleSet;

/// 1. e4 f6 2. Qh5 a6 3. Qxe8: Black's second move leaves its king to the queen.
const FOOL: &str =
    "[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n1. e4 f6 2. Qh5 a6 3. Qxe8 1-0\n";

const HEADER: &str = "ply,mover,uci,san,cp_before,cp_after,best,win_before,win_after,drop,label,accuracy,king_left_capturable,highlight,cause,boards,fog_drop,fog_bad,fog_from,belief_truth";

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    fs::write(&p, text).unwrap();
    p
}

fn rows(csv: &Path, game: &Path, number: Option<u64>) -> Vec<MoveAnalysis> {
    let g = load_game(game, number, &RuleSet::thesis()).unwrap();
    read_analysis(csv, &g).unwrap()
}

fn check_bounds(rows: &[MoveAnalysis]) {
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r.ply, i + 1);
        for v in [r.win_before, r.win_after, r.accuracy] {
            assert!((0.0..=100.0).contains(&v), "{r:?}");
        }
        assert!(r.drop >= 0.0 && r.drop <= 100.0, "{r:?}");
        assert!(r.cp_before.abs() <= MATE_CP && r.cp_after.abs() <= MATE_CP);
        let engine_choice = !r.best.is_empty() && r.uci == r.best;
        assert_eq!(
            r.label,
            MoveLabel::of(r.drop, engine_choice, r.king_left_capturable),
            "{r:?}"
        );
        // "best" is the engine's own move, and never one that hangs the king.
        if r.label == MoveLabel::Best {
            assert!(
                engine_choice && !r.king_left_capturable && r.drop == 0.0,
                "{r:?}"
            );
        }
        // Each position is valued once: the value after a move is the next one's before.
        if let Some(next) = rows.get(i + 1) {
            assert_eq!(r.cp_after, next.cp_before, "ply {}", r.ply);
        }
    }
}

#[test]
fn a_hanging_king_is_a_blunder_and_flagged() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = write(dir.path(), "fool.pgn", FOOL);
    let csv = dir.path().join("a.csv");
    let out = ok(&[
        "analyze",
        pgn.to_str().unwrap(),
        "--depth",
        "3",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(out.contains("White: Ann\nBlack: Bob\nRules: thesis\nResult: 1-0, White wins"));
    assert!(
        out.contains("Engine: MyStockfish depth 3, nodes 200000"),
        "{out}"
    );
    let line = |start: &str| {
        out.lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no line {start}: {out}"))
            .to_string()
    };
    let a6 = line("2... a6 ");
    assert!(a6.contains("blunder") && a6.contains(" king hangs"), "{a6}");
    assert!(
        a6.contains("#+1"),
        "value after: White takes the king next: {a6}"
    );
    let qxe8 = line("3. Qxe8 ");
    assert!(
        qxe8.contains("#+1") && qxe8.contains("#+0") && qxe8.contains("best"),
        "{qxe8}"
    );
    assert!(!qxe8.contains("king hangs"));
    assert!(!line("1. e4 ").contains("king hangs"));
    assert!(
        out.contains("Black (Bob): accuracy ") && out.contains("1 blunder\n"),
        "{out}"
    );
    assert!(
        out.contains("  king left capturable after 1 move: 2... a6\n"),
        "{out}"
    );
    assert!(
        out.contains("White (Ann): accuracy ") && out.contains("  king never left capturable\n")
    );

    let text = fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().next(), Some(HEADER));
    let r = rows(&csv, &pgn, None);
    assert_eq!(r.len(), 5);
    check_bounds(&r);
    assert_eq!(r[3].san, "a6");
    assert_eq!(r[3].uci, "a7a6");
    assert_eq!(r[3].mover, "black");
    assert!(r[3].king_left_capturable);
    assert_eq!(r[3].label, MoveLabel::Blunder);
    assert_eq!(r[3].cp_after, MATE_CP - 1.0);
    assert!(r[3].win_after < 0.01 && r[3].accuracy < 20.0, "{:?}", r[3]);
    assert_eq!(r[4].best, "h5e8");
    assert_eq!(r[4].cp_after, MATE_CP);
    assert_eq!(r.iter().filter(|m| m.king_left_capturable).count(), 1);
    // White played only best or good moves.
    assert!(r
        .iter()
        .filter(|m| m.mover == "white")
        .all(|m| m.drop < 5.0));
}

/// "best" is the engine's own move: a move as good by the engine's values but not its
/// choice is "excellent" (the manual's example game, `fow play --seed 186`).
#[test]
fn best_means_the_engines_move() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = write(
        dir.path(),
        "demo.pgn",
        "[White \"Human\"]\n[Black \"RandomMove\"]\n[Result \"1-0\"]\n\n\
         1. e4 Nc6 2. Bc4 e6 3. Qh5 Ke7 4. Qxf7 Nf6 5. Qxe7 1-0\n",
    );
    let out = ok(&["analyze", pgn.to_str().unwrap()]);
    let line = |start: &str| {
        let l = out
            .lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no line {start}: {out}"));
        l.split_whitespace().skip(7).collect::<Vec<_>>().join(" ")
    };
    // label, engine's move, flag
    assert_eq!(line("1. e4 "), "excellent Nc3");
    assert_eq!(line("1... Nc6 "), "best Nc6");
    assert!(
        line("4... Nf6 ").starts_with("blunder Kxf7 king hangs; decision: "),
        "{out}"
    );
    assert_eq!(line("5. Qxe7 "), "best Qxe7");
    for l in out.lines().filter(|l| l.contains(" king hangs")) {
        assert!(!l.contains(" best ") && !l.contains(" excellent "), "{l}");
    }
}

/// A PGN game from `fen` with `moves`, between Ann and Bob.
fn from_fen(dir: &Path, name: &str, fen: &str, moves: &str) -> PathBuf {
    let text = format!(
        "[White \"Ann\"]\n[Black \"Bob\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n[Result \"*\"]\n\n{moves} *\n"
    );
    write(dir, name, &text)
}

/// Black's knight goes to a6 or c6 in White's fog; White's queen then goes where only
/// the knight on c6 attacks it (luck) or where either would (decision).
#[test]
fn mistakes_are_explained_by_the_boards_the_mover_could_not_rule_out() {
    let dir = tempfile::tempdir().unwrap();
    let knight = "1n5k/6pp/4B1PP/8/8/8/8/4Q1K1 b - - 0 1";
    for (moves, cause, bad) in [
        ("1... b8c6 2. e1a5", "luck", "50%"),
        ("1... b8c6 2. e1b4", "decision", "100%"),
    ] {
        let pgn = from_fen(dir.path(), "k.pgn", knight, moves);
        let csv = dir.path().join("k.csv");
        let p = pgn.to_str().unwrap();
        let out = ok(&["analyze", p, "--depth", "2", "--csv", csv.to_str().unwrap()]);
        let queen = out.lines().find(|l| l.starts_with("2. Q")).unwrap();
        let flag = format!("{cause}: bad on {bad} of 2 boards, mean drop ");
        assert!(
            queen.contains(" blunder ") && queen.contains(&flag),
            "{flag} in {out}"
        );
        // White's summary: the blunder's win chance under its cause.
        let summary = out
            .lines()
            .find(|l| l.starts_with("  win chance lost: "))
            .unwrap_or_else(|| panic!("{out}"));
        let lost = format!("{cause} {:.1} (1 move)", rows(&csv, &pgn, None)[1].drop);
        assert!(summary.contains(&lost), "{lost} in {summary}");
        let r = rows(&csv, &pgn, None);
        assert_eq!(r[1].cause.as_str(), cause);
        assert_eq!(
            (r[1].boards, r[1].fog_from, r[1].belief_truth),
            (2, 0, None)
        );
        // Switched off: no cause.
        let out = ok(&["analyze", p, "--depth", "2", "--fog-boards", "0"]);
        assert!(!out.contains(cause) && !out.contains("by cause"), "{out}");
    }
}

/// The queen to c6, where the knight takes it, but the knight shields its king from the
/// rook; after 1... Kf8 2. Qxa8 White, a knight down before, is up the exchange.
#[test]
fn a_confirmed_sacrifice_is_brilliant_in_the_report_and_the_csv() {
    let dir = tempfile::tempdir().unwrap();
    let pin = "r3k3/p3nppp/7n/7b/8/8/2Q2PPP/4R1K1 w - - 0 1";
    let pgn = from_fen(dir.path(), "pin.pgn", pin, "1. c2c6 e8f8 2. c6a8");
    let csv = dir.path().join("pin.csv");
    let out = ok(&[
        "analyze",
        pgn.to_str().unwrap(),
        "--depth",
        "2",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    let qc6 = out.lines().find(|l| l.starts_with("1. Qc6 ")).unwrap();
    assert!(qc6.ends_with(" brilliant"), "{out}");
    assert!(out.contains("  brilliant: 1. Qc6\n"), "{out}");
    let r = rows(&csv, &pgn, None);
    assert_eq!(r[0].highlight.as_str(), "brilliant");
    assert!(r[1..].iter().all(|m| m.highlight.as_str().is_empty()));
}

#[test]
fn tournament_games_analyse_deterministically() {
    let (dir, games) = tournament("SimpleStockfish,CaptureLargest", 1, "1");
    let g = &games[1];
    let folder = dir.path().to_str().unwrap();
    let number = g.id.to_string();
    let csv = dir.path().join("a.csv");
    let args = [
        "analyze",
        folder,
        "--game",
        &number,
        "--depth",
        "3",
        "--nodes",
        "20000",
        "--csv",
        csv.to_str().unwrap(),
    ];
    let first = ok(&args);
    let first_csv = fs::read(&csv).unwrap();
    assert_eq!(ok(&args), first, "same settings, same report");
    assert_eq!(fs::read(&csv).unwrap(), first_csv, "same CSV");
    assert!(
        first.contains(&format!("games.csv game {}", g.id)),
        "{first}"
    );
    let r = rows(&csv, dir.path(), Some(g.id));
    assert_eq!(r.len(), g.plies);
    check_bounds(&r);
    // The report's accuracy is the mean of the rows'.
    let white: Vec<f64> = r
        .iter()
        .filter(|m| m.mover == "white")
        .map(|m| m.accuracy)
        .collect();
    let mean = white.iter().sum::<f64>() / white.len() as f64;
    assert!(
        first.contains(&format!("White ({}): accuracy {mean:.1}%", g.white)),
        "{mean:.1} in {first}"
    );
    // A king capture ends at exactly +-MATE_CP for the winner.
    if g.reason == "king captured" {
        let last = r.last().unwrap();
        let sign = if g.result == "1-0" { 1.0 } else { -1.0 };
        assert_eq!(last.cp_after, sign * MATE_CP);
        assert!(
            r[r.len() - 2].king_left_capturable,
            "the loser's last move hung the king"
        );
    }
}

#[test]
fn a_draw_by_the_rules_ends_at_zero() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = write(
        dir.path(),
        "draw.pgn",
        "[Result \"1/2-1/2\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 1/2-1/2\n",
    );
    let csv = dir.path().join("d.csv");
    let out = ok(&[
        "analyze",
        pgn.to_str().unwrap(),
        "--draw-plies",
        "4",
        "--depth",
        "2",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(out.contains("Rules: custom("), "{out}");
    let mut rules = RuleSet::thesis();
    rules.set("draw-plies", "4").unwrap();
    let g = load_game(&pgn, None, &rules).unwrap();
    let r = read_analysis(&csv, &g).unwrap();
    assert_eq!(r.len(), 4);
    assert_eq!(r[3].cp_after, 0.0);
    assert!(r.iter().all(|m| !m.king_left_capturable));
}

/// The Stockfish program, if installed.
fn stockfish() -> Option<String> {
    for p in ["stockfish", "/usr/games/stockfish"] {
        if Command::new(p)
            .stdin(std::process::Stdio::null())
            .output()
            .is_ok()
        {
            return Some(p.to_string());
        }
    }
    None
}

#[test]
fn stockfish_finds_the_same_blunder() {
    let Some(sf) = stockfish() else {
        eprintln!("skipped: stockfish is not installed (scripts/install-stockfish.sh)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let pgn = write(dir.path(), "fool.pgn", FOOL);
    let csv = dir.path().join("sf.csv");
    let out = ok(&[
        "analyze",
        pgn.to_str().unwrap(),
        "--engine",
        "stockfish",
        "--stockfish",
        &sf,
        "--nodes",
        "20000",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(out.contains("Engine: Stockfish"), "{out}");
    assert!(out.contains("nodes 20000"), "{out}");
    let r = rows(&csv, &pgn, None);
    assert_eq!(r.len(), 5);
    check_bounds(&r);
    assert_eq!(r[3].label, MoveLabel::Blunder);
    assert!(r[3].king_left_capturable);
    assert_eq!(
        r[3].cp_after,
        MATE_CP - 1.0,
        "decided without asking Stockfish"
    );
    // The opening moves are close to equal for Stockfish.
    assert!(r[0].cp_before.abs() < 100.0, "{:?}", r[0]);
    // 1... f6 is a known weak move: Stockfish sees White better after it.
    assert!(r[1].cp_after > r[1].cp_before, "{:?}", r[1]);
    assert!(!r[1].best.is_empty());
}

#[test]
fn bad_input_is_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = write(dir.path(), "fool.pgn", FOOL);
    let p = pgn.to_str().unwrap();
    fails(
        &["analyze", "/nonexistent/game.pgn"],
        "/nonexistent/game.pgn",
    );
    fails(&["analyze", p, "--game", "7"], "has no game 7");
    fails(&["analyze", p, "--depth", "0"], "--depth must be 1 to 20");
    fails(
        &[
            "analyze",
            p,
            "--engine",
            "stockfish",
            "--stockfish",
            "/nonexistent/sf",
        ],
        "engine '/nonexistent/sf' not found",
    );
    // A program that is not a UCI engine.
    if Path::new("/bin/true").is_file() {
        fails(
            &[
                "analyze",
                p,
                "--engine",
                "stockfish",
                "--stockfish",
                "/bin/true",
            ],
            "true: the engine exited",
        );
    }
    fails(
        &["analyze", p, "--engine", "stockfish", "--depth", "3"],
        "--depth is MyStockfish's",
    );
    let bad = write(dir.path(), "bad.pgn", "1. e4 e5 2. Ke3 1-0\n");
    fails(&["analyze", bad.to_str().unwrap()], "Ke3");
    // A CSV in a folder that does not exist is bad input (exit 2, one line): the path
    // is what is wrong, not the system.
    let out = fow(&[
        "analyze",
        p,
        "--depth",
        "1",
        "--csv",
        "/nonexistent/dir/a.csv",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("/nonexistent/dir/a.csv: no such file or folder") && !err.contains("panicked"),
        "{err}"
    );
}
