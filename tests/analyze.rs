//! `fow analyze` end to end: a short known game, the CSV, determinism, Stockfish when it
//! is installed, and bad input.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{fails, fow, ok, tournament};
use fow_analysis::{read_analysis, MoveAnalysis, MoveLabel, Phase, MATE_CP};
use fow_records::load_game;
use fow_variants::RuleSet;

/// 1. e4 f6 2. Qh5 a6 3. Qxe8: Black's second move leaves its king to the queen.
const FOOL: &str =
    "[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n1. e4 f6 2. Qh5 a6 3. Qxe8 1-0\n";

const HEADER: &str = "ply,mover,uci,san,cp_before,cp_after,best,win_before,win_after,drop,label,accuracy,king_left_capturable,phase,highlight,cause,boards,fog_drop,fog_bad,fog_from,belief_truth";

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

    // 1. e4 f6 is the Barnes Defense; 2. Qh5 leaves the table. Nothing is developed or
    // exchanged before the king falls: every move is in the opening.
    assert!(
        out.contains(
            "Opening: B00 Barnes Defense, in the table to 1... f6 (ply 2); \
             out of it from 2. Qh5 (ply 3)\n"
        ),
        "{out}"
    );
    assert!(out.contains("-- opening --\n1. e4 ") && !out.contains("-- middlegame"));
    for side in ["White (Ann)", "Black (Bob)"] {
        let summary = out.split(side).nth(1).unwrap();
        let by_phase = summary.lines().nth(1).unwrap();
        assert!(
            by_phase.starts_with("  accuracy by phase: opening ")
                && by_phase.ends_with(", middlegame no moves, endgame no moves"),
            "{by_phase}"
        );
    }

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
    assert!(r.iter().all(|m| m.phase == Some(Phase::Opening)), "{r:?}");
    // White played only best or good moves.
    assert!(r
        .iter()
        .filter(|m| m.mover == "white")
        .all(|m| m.drop < 5.0));
}

/// The opening by position and the game phases, in the report and the CSV: the Closed
/// Ruy Lopez (C92) to 9. h3 with both kings castled, out of the table with 9... a5; the
/// middlegame begins with the next move, and each side's accuracy by phase is the mean of
/// its rows in that phase.
#[test]
fn opening_and_phases_in_report_and_csv() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = write(
        dir.path(),
        "ruy.pgn",
        "[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"*\"]\n\n\
         1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O\n\
         9. h3 a5 10. d4 Bb7 11. d5 Nb8 12. Nbd2 Nbd7 13. Nf1 Nc5 14. Bc2 c6 *\n",
    );
    let csv = dir.path().join("ruy.csv");
    let args = [
        "analyze",
        pgn.to_str().unwrap(),
        "--depth",
        "2",
        "--nodes",
        "5000",
    ];
    let out = ok(&[&args[..], &["--csv", csv.to_str().unwrap()]].concat());
    assert!(
        out.contains(
            "Opening: C92 Ruy Lopez: Closed, in the table to 9. h3 (ply 17); \
             out of it from 9... a5 (ply 18)\n"
        ),
        "{out}"
    );
    assert!(out.contains("\n-- middlegame --\n10. d4 "), "{out}");
    assert!(!out.contains("-- endgame --"));
    let r = rows(&csv, &pgn, None);
    let first_middle = r.iter().position(|m| m.phase == Some(Phase::Middlegame));
    assert_eq!(first_middle, Some(18), "{r:?}");
    assert!(r[..18].iter().all(|m| m.phase == Some(Phase::Opening)));
    assert!(r[18..].iter().all(|m| m.phase == Some(Phase::Middlegame)));
    for (side, name) in [("white", "White (Ann)"), ("black", "Black (Bob)")] {
        let mean = |phase| {
            let a: Vec<f64> = r
                .iter()
                .filter(|m| m.mover == side && m.phase == Some(phase))
                .map(|m| m.accuracy)
                .collect();
            (a.iter().sum::<f64>() / a.len() as f64, a.len())
        };
        let ((o, no), (m, nm)) = (mean(Phase::Opening), mean(Phase::Middlegame));
        let line = format!(
            "{name}: accuracy {:.1}% over 14 moves; ",
            r.iter()
                .filter(|x| x.mover == side)
                .map(|x| x.accuracy)
                .sum::<f64>()
                / 14.0
        );
        let by_phase = format!(
            "  accuracy by phase: opening {o:.1}% ({no} moves), middlegame {m:.1}% ({nm} moves), \
             endgame no moves\n"
        );
        let at = out.find(&line).unwrap_or_else(|| panic!("{line} in {out}"));
        assert!(
            out[at..].lines().nth(1).map(|l| format!("{l}\n")) == Some(by_phase.clone()),
            "{by_phase} in {out}"
        );
    }
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

/// `--all`: every game of a folder, the same report and files whatever `--jobs`, each
/// game's rows those of the game analysed alone, and each player's accuracy the mean of
/// its rows.
#[test]
fn a_whole_run_is_its_games_and_the_same_whatever_jobs() {
    let (dir, games) = tournament("SimpleStockfish,CaptureLargest,RandomMove", 1, "2");
    let folder = dir.path().to_str().unwrap();
    let file = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let run = |jobs: &str, csv: &str, json: &str| {
        ok(&[
            "analyze", folder, "--all", "--depth", "2", "--nodes", "3000", "--jobs", jobs, "--csv",
            csv, "--json", json,
        ])
    };
    let one = run("1", &file("1.csv"), &file("1.json"));
    let three = run("3", &file("3.csv"), &file("3.json"));
    let strip = |s: &str| s.replace(&file("3."), &file("1."));
    let read = |path: &str| fs::read_to_string(path).unwrap();
    assert_eq!(strip(&three), one, "same report whatever --jobs");
    assert_eq!(read(&file("3.csv")), read(&file("1.csv")), "same CSV");
    assert_eq!(read(&file("3.json")), read(&file("1.json")), "same JSON");
    assert!(one.starts_with(&format!("{folder}: 6 games, ")), "{one}");

    let run_csv = fs::read_to_string(file("1.csv")).unwrap();
    assert_eq!(run_csv.lines().next().unwrap(), format!("game,{HEADER}"));
    let plies: usize = games.iter().map(|g| g.plies).sum();
    assert_eq!(run_csv.lines().count(), 1 + plies);
    let mut rows_of = std::collections::BTreeMap::<String, Vec<MoveAnalysis>>::new();
    for g in &games {
        let alone = file(&format!("game{}.csv", g.id));
        let number = g.id.to_string();
        ok(&[
            "analyze", folder, "--game", &number, "--depth", "2", "--nodes", "3000", "--csv",
            &alone,
        ]);
        let r = rows(Path::new(&file("1.csv")), dir.path(), Some(g.id));
        assert_eq!(
            r,
            rows(Path::new(&alone), dir.path(), Some(g.id)),
            "game {}",
            g.id
        );
        check_bounds(&r);
        for m in r {
            let player = if m.mover == "white" {
                &g.white
            } else {
                &g.black
            };
            rows_of.entry(player.clone()).or_default().push(m);
        }
    }
    for (player, r) in &rows_of {
        let mean = r.iter().map(|m| m.accuracy).sum::<f64>() / r.len() as f64;
        let blunders = r.iter().filter(|m| m.label == MoveLabel::Blunder).count();
        let line = one
            .lines()
            .find(|l| l.starts_with(&format!("{player} ")))
            .unwrap_or_else(|| panic!("no line for {player}: {one}"));
        let cells: Vec<&str> = line.split_whitespace().collect();
        // player, games, moves, accuracy, best .. blunder, hangs, lost
        assert_eq!(cells[1], "4", "{line}");
        assert_eq!(cells[2], r.len().to_string(), "{line}");
        assert_eq!(cells[3], format!("{mean:.1}%"), "{line}");
        assert_eq!(cells[9], blunders.to_string(), "{line}");
    }
    // The JSON: each player's figures as the text's, each game's moves as the CSV's.
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(file("1.json")).unwrap()).unwrap();
    assert_eq!(json["games"].as_array().unwrap().len(), 6);
    for p in json["players"].as_array().unwrap() {
        let r = &rows_of[p["player"].as_str().unwrap()];
        assert_eq!(p["summary"]["total"]["moves"], r.len());
        let white = r.iter().filter(|m| m.mover == "white").count();
        assert_eq!(p["summary"]["by"]["side"]["white"]["moves"], white);
    }
}

/// `--json`: a game's report, which `fow replay` reads as it reads the CSV; the replay
/// of another game of the same folder refuses it.
#[test]
fn the_json_report_is_what_replay_reads() {
    let (dir, games) = tournament("SimpleStockfish,CaptureLargest", 1, "1");
    let folder = dir.path().to_str().unwrap();
    let (csv, json) = (dir.path().join("a.csv"), dir.path().join("a.json"));
    let number = games[1].id.to_string();
    ok(&[
        "analyze",
        folder,
        "--game",
        &number,
        "--depth",
        "2",
        "--nodes",
        "3000",
        "--csv",
        csv.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    let report: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["game"], games[1].id);
    assert_eq!(report["white"], games[1].white.as_str());
    assert_eq!(report["plies"], games[1].plies);
    assert_eq!(report["result"], games[1].result.as_str());
    let from_json: Vec<MoveAnalysis> = serde_json::from_value(report["moves"].clone()).unwrap();
    assert_eq!(from_json, rows(&csv, dir.path(), Some(games[1].id)));
    let accuracy = report["summary"]["white"]["total"]["accuracy"]
        .as_f64()
        .unwrap();
    let white: Vec<f64> = from_json
        .iter()
        .filter(|m| m.mover == "white")
        .map(|m| m.accuracy)
        .collect();
    assert!((accuracy - white.iter().sum::<f64>() / white.len() as f64).abs() < 1e-9);

    let replay = |file: &Path| {
        let out = ok(&[
            "replay",
            folder,
            "--game",
            &number,
            "--print",
            "--analysis",
            file.to_str().unwrap(),
        ]);
        let analysis: Vec<String> = out
            .lines()
            .filter(|l| l.starts_with("analysis: ") || l.starts_with("accuracy: "))
            .map(|l| l.replace(file.to_str().unwrap(), "FILE"))
            .collect();
        assert_eq!(analysis.len(), 1 + games[1].plies, "{out}");
        analysis
    };
    assert_eq!(replay(&json), replay(&csv));
    let other = games[0].id.to_string();
    fails(
        &[
            "replay",
            folder,
            "--game",
            &other,
            "--print",
            "--analysis",
            json.to_str().unwrap(),
        ],
        "the analysis is of another game",
    );
}

#[test]
fn bad_input_to_a_whole_run_is_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = write(dir.path(), "fool.pgn", FOOL);
    let p = pgn.to_str().unwrap();
    fails(
        &["analyze", p, "--all", "--jobs", "0"],
        "--jobs must be at least 1",
    );
    fails(
        &["analyze", p, "--all", "--depth", "0"],
        "--depth must be 1 to 20",
    );
    // A run stops at a game that contradicts its moves: file and line named.
    let many = write(
        dir.path(),
        "many.pgn",
        &format!("{FOOL}\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n"),
    );
    fails(
        &["analyze", many.to_str().unwrap(), "--all"],
        "many.pgn:9: game 2: move 2. Ke3",
    );
    let twice = write(
        dir.path(),
        "twice.pgn",
        "[FowGame \"4\"]\n\n1. e2e4 1-0\n\n[FowGame \"4\"]\n\n1. d2d4 1-0\n",
    );
    fails(
        &["analyze", twice.to_str().unwrap(), "--all"],
        "are both game 4",
    );
    // --game and --all contradict; --jobs is for --all.
    for args in [["--all", "--game"], ["--jobs", "2"]] {
        let mut a = vec!["analyze", p];
        a.extend(args);
        if args[0] == "--all" {
            a.push("1");
        }
        let out = fow(&a);
        assert_eq!(out.status.code(), Some(2), "{a:?}");
    }
    // A JSON analysis that is not one.
    let bad = write(
        dir.path(),
        "bad.json",
        "{\n  \"moves\": [\n    {\"ply\": \"one\"}\n  ]\n}\n",
    );
    fails(
        &["replay", p, "--print", "--analysis", bad.to_str().unwrap()],
        "bad.json:3: invalid type",
    );
}
