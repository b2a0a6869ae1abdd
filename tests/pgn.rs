//! `fow export` and `fow import`: PGN out of results folders and PGN files, results
//! folders out of PGN, round trips, chess.com's games and malformed files.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{fails, fow, ok, tournament};
use fow_records::{load_games, read_games, GameRow, SavedGame, GAMES_FILE};
use fow_variants::{read_pgn, RuleSet};

fn chesscom() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/chesscom-fow")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The games.csv of a folder without its last column, the tag.
fn untagged(dir: &Path) -> String {
    let text = fs::read_to_string(dir.join(GAMES_FILE)).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.rsplit_once(',').unwrap().0)
        .collect();
    lines.join("\n")
}

/// Runs `fow` expecting exit 2; returns stdout and stderr.
fn partly(args: &[&str]) -> (String, String) {
    let out = fow(args);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "fow {args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    (String::from_utf8(out.stdout).unwrap(), err)
}

/// The moves of games, as UCI, with their number and result.
fn summary(games: &[SavedGame]) -> Vec<(u64, String, Option<String>)> {
    games
        .iter()
        .map(|g| {
            let moves: Vec<String> = g.moves.iter().map(|m| m.uci()).collect();
            (g.number, moves.join(" "), g.result.map(|r| r.to_string()))
        })
        .collect()
}

/// Checks PGN text as `fow export` must write it: tags of every game, SAN, 80 columns.
fn check_pgn_text(text: &str, games: usize) {
    let parsed = read_pgn(text).unwrap();
    assert_eq!(parsed.len(), games);
    for g in &parsed {
        for tag in [
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "Variant",
            "Rules",
            "RuleSwitches",
            "FowGame",
        ] {
            assert!(g.tag(tag).is_some(), "no {tag} tag in {:?}", g.tags);
        }
        assert_eq!(g.tag("Variant"), Some("Fog of War"));
        // Every move text is the SAN of its move (no check marks).
        let rules: RuleSet = g.tag("Rules").unwrap().parse().unwrap();
        let replay = g.replay(&rules).unwrap();
        for (i, text) in g.moves.iter().enumerate() {
            assert_eq!(*text, replay.positions[i].san(&replay.moves[i], &rules));
            assert!(!text.ends_with('+') && !text.ends_with('#'));
        }
    }
    // Move text in lines of at most 80 columns (tag lines cannot be wrapped).
    assert!(
        text.lines()
            .filter(|l| !l.starts_with('['))
            .all(|l| l.len() <= 80),
        "a move line over 80 columns"
    );
}

#[test]
fn tournament_export_import_round_trip() {
    for rules in ["thesis", "chesscom"] {
        let dir = tempfile::tempdir().unwrap();
        let results = dir.path().join("results");
        ok(&[
            "tournament",
            "--players",
            "RandomMove,CaptureLargest,Supporter",
            "--games",
            "3",
            "--rules",
            rules,
            "--jobs",
            "2",
            "-q",
            "--out",
            s(&results),
        ]);
        let original = load_games(&results, &RuleSet::thesis()).unwrap();
        assert_eq!(original.len(), 18);
        let pgn = dir.path().join("games.pgn");
        let out = ok(&["export", s(&results), "-o", s(&pgn)]);
        assert_eq!(out, format!("wrote 18 games to {}\n", pgn.display()));
        let text = fs::read_to_string(&pgn).unwrap();
        check_pgn_text(&text, 18);
        assert!(text.contains(&format!("[Rules \"{rules}\"]")));
        assert!(text.contains("[Seed \""), "{text}");
        assert!(text.contains("[Termination \"king captured\"]"), "{text}");
        // export -> load_games: the same games, numbers, seeds, rules.
        let loaded = load_games(&pgn, &RuleSet::thesis()).unwrap();
        assert_eq!(summary(&loaded), summary(&original));
        for (a, b) in loaded.iter().zip(&original) {
            assert_eq!((a.seed, a.rules, &a.white), (b.seed, b.rules, &b.white));
        }
        // export -> import: games.csv byte for byte but the tags (under another key), and
        // the same rules.
        let imported = dir.path().join("imported");
        let out = ok(&["import", s(&pgn), "--out", s(&imported)]);
        assert!(
            out.contains(&format!("imported 18 games of 3 players, rules {rules}")),
            "{out}"
        );
        assert_eq!(untagged(&imported), untagged(&results));
        let back = load_games(&imported, &RuleSet::thesis()).unwrap();
        assert_eq!(summary(&back), summary(&original));
        assert!(back.iter().all(|g| g.rules == original[0].rules));
        // The imported folder is a results folder: fow rate reads it.
        let rated = ok(&["rate", s(&imported.join(GAMES_FILE))]);
        assert!(rated.contains("Supporter"), "{rated}");
    }
}

#[test]
fn export_picks_games_and_writes_to_stdout() {
    let (dir, rows) = tournament("RandomMove,CaptureKing", 2, "1");
    let out = ok(&["export", s(dir.path()), "--game", "2,0"]);
    let games = read_pgn(&out).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("FowGame"), Some("2"));
    assert_eq!(games[0].tag("Round"), Some("2"));
    assert_eq!(games[1].tag("FowGame"), Some("0"));
    assert_eq!(games[0].tag("White"), Some(rows[2].white.as_str()));
    assert_eq!(
        games[0].tag("Seed"),
        Some(rows[2].seed.to_string().as_str())
    );
    assert_eq!(games[0].tag("Result"), Some(rows[2].result.as_str()));
    assert_eq!(games[0].moves.len(), rows[2].plies);
    let all = ok(&["export", s(dir.path()), "--all"]);
    assert_eq!(read_pgn(&all).unwrap().len(), 4);
    assert_eq!(ok(&["export", s(dir.path())]), all);
    fails(
        &["export", s(dir.path()), "--game", "9"],
        "has no game 9 (its 4 games are numbered 0 to 3)",
    );
    fails(&["export", "/nonexistent/x.pgn"], "no such file or folder");
    let (_, err) = partly(&["export", s(dir.path()), "--game", "1", "--all"]);
    assert!(err.contains("cannot be used with"), "{err}");
}

#[test]
fn chesscom_games_import_and_reexport_with_identical_moves() {
    let original = load_games(&chesscom(), &RuleSet::thesis()).unwrap();
    assert_eq!(original.len(), 80);
    let dir = tempfile::tempdir().unwrap();
    let imported = dir.path().join("cc");
    let out = ok(&["import", s(&chesscom()), "--out", s(&imported)]);
    assert!(
        out.starts_with("imported 80 games of 78 players, rules chesscom"),
        "{out}"
    );
    let rows: Vec<GameRow> = read_games(&imported.join(GAMES_FILE)).unwrap();
    assert_eq!(rows.len(), 80);
    assert!(rows.iter().all(|r| r.seed == 0));
    let reasons = |r: &str| rows.iter().filter(|x| x.reason == r).count();
    assert_eq!(reasons("king captured"), 63, "{rows:?}");
    assert_eq!(reasons("timeout"), 8);
    assert_eq!(reasons("resignation"), 9);
    let resigned = rows.iter().find(|r| r.reason == "resignation").unwrap();
    assert!(resigned.detail.contains("resigned"), "{resigned:?}");
    let back = load_games(&imported, &RuleSet::thesis()).unwrap();
    assert_eq!(summary(&back), summary(&original));
    // Re-export the imported folder and the original files: the same moves in SAN.
    let from_folder = dir.path().join("from-folder.pgn");
    let from_files = dir.path().join("from-files.pgn");
    ok(&["export", s(&imported), "-o", s(&from_folder)]);
    ok(&["export", s(&chesscom()), "-o", s(&from_files)]);
    for file in [&from_folder, &from_files] {
        let text = fs::read_to_string(file).unwrap();
        check_pgn_text(&text, 80);
        let again = load_games(file, &RuleSet::thesis()).unwrap();
        assert_eq!(summary(&again), summary(&original));
        assert!(again.iter().all(|g| g.rules == RuleSet::chesscom()));
    }
    let files = fs::read_to_string(&from_files).unwrap();
    // The chess.com tags survive; the date becomes a PGN date.
    assert!(files.contains("[Site \"www.chess.com/variants/fog-of-war/game/44536413\"]"));
    assert!(files.contains("[Date \"2023.04.11\"]"));
    assert!(files.contains("[WhiteElo \"1500\"]"));
    assert!(files.contains("[Event \"?\"]"));
    // Castling, promotion and en passant in SAN.
    assert!(files.contains(" O-O-O ") && files.contains(" O-O "));
    assert!(files.contains("=Q"));
    assert!(!files.contains("Ke1g1"));
    // And the re-exported file imports again to the same games.csv rows (each import
    // tags them under its own key).
    let again = dir.path().join("again");
    ok(&["import", s(&from_files), "--out", s(&again)]);
    assert_eq!(untagged(&again), untagged(&imported));
}

/// `fow export` names each game's opening by position in `ECO` and `Opening` tags: all 80
/// chess.com games get one (the game's own, as `SavedGame::opening` finds it), a
/// transposition is named by the position it reaches, a source's own tags are replaced,
/// and a game with no position in the table gets none.
#[test]
fn export_names_openings_by_position() {
    let out = ok(&["export", s(&chesscom())]);
    let exported = read_pgn(&out).unwrap();
    assert_eq!(exported.len(), 80);
    let saved = load_games(&chesscom(), &RuleSet::thesis()).unwrap();
    for g in &exported {
        let number: u64 = g.tag("FowGame").unwrap().parse().unwrap();
        let o = saved.iter().find(|s| s.number == number).unwrap().opening();
        let o = o.unwrap_or_else(|| panic!("game {number} has no opening"));
        assert_eq!(g.tag("ECO"), Some(o.eco.as_str()), "game {number}");
        assert_eq!(g.tag("Opening"), Some(o.name.as_str()), "game {number}");
    }
    // game-001.pgn: 1. d4 e6 2. e4, the table's 1. e4 e6 2. d4.
    assert!(
        out.contains("[ECO \"C00\"]\n[Opening \"French Defense: Normal Variation\"]\n"),
        "{out}"
    );
    let dir = tempfile::tempdir().unwrap();
    let own = dir.path().join("own.pgn");
    fs::write(
        &own,
        "[White \"a\"]\n[Black \"b\"]\n[ECO \"A00\"]\n[Opening \"Wrong\"]\n[Result \"*\"]\n\n\
         1. c4 e6 2. d4 d5 3. h4 *\n\n\
         [White \"c\"]\n[Black \"d\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\
         [Result \"*\"]\n\n1. e4 *\n",
    )
    .unwrap();
    let games = read_pgn(&ok(&["export", s(&own)])).unwrap();
    assert_eq!(games[0].tag("ECO"), Some("D30"));
    assert_eq!(games[0].tag("Opening"), Some("Queen's Gambit Declined"));
    assert_eq!(games[0].tags.iter().filter(|(k, _)| k == "ECO").count(), 1);
    assert!(games[0].tags.iter().all(|(_, v)| v != "Wrong"));
    assert_eq!((games[1].tag("ECO"), games[1].tag("Opening")), (None, None));
}

#[test]
fn malformed_game_in_the_middle_is_skipped_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.pgn");
    let game = |n: usize| fs::read_to_string(chesscom().join(format!("game-{n:03}.pgn"))).unwrap();
    // Game 2 (of 4) gets an illegal 12th move for White, game 3 a broken variation.
    let broken = game(1).replace("\n12. Ke1c1 ", "\n12. Ke1e3 ");
    assert_ne!(broken, game(1));
    let variation = game(2).replace("\n5. ", "\n(5. a2a3) 5. ");
    let text = format!("{}\n{}\n{}\n{}", game(0), broken, variation, game(3));
    fs::write(&bad, &text).unwrap();
    let line = text
        .lines()
        .position(|l| l.starts_with("12. Ke1e3"))
        .unwrap()
        + 1;
    let var_line = text
        .lines()
        .position(|l| l.starts_with("(5. a2a3)"))
        .unwrap()
        + 1;
    let out_dir = dir.path().join("imported");
    let (out, err) = partly(&["import", s(&bad), "--out", s(&out_dir)]);
    let b = bad.display();
    assert_eq!(
        err,
        format!(
            "fow: skipped {b}:{line}: game 2: move 12. Ke1e3: illegal move 'Ke1e3'\n\
             fow: skipped {b}:{var_line}: game 3: variations in parentheses are not supported\n\
             fow: error: 2 games of 4 skipped (listed above); 2 games imported\n"
        )
    );
    assert!(out.starts_with("imported 2 games"), "{out}");
    let rows = read_games(&out_dir.join(GAMES_FILE)).unwrap();
    assert_eq!(rows.iter().map(|r| r.id).collect::<Vec<_>>(), [1, 4]);
    // Commands that read one game read it past the bad ones, and name the bad one when
    // asked for it; load_games stops at the first with the same message.
    let shown = ok(&["replay", s(&bad), "--game", "4", "--print"]);
    assert!(shown.contains("game 4: "), "{shown}");
    fails(
        &["replay", s(&bad), "--game", "2", "--print"],
        &format!("{b}:{line}: game 2: move 12. Ke1e3: illegal move 'Ke1e3'"),
    );
    fails(
        &["replay", s(&bad), "--game", "3", "--print"],
        &format!("{b}:{var_line}: game 3: variations in parentheses are not supported"),
    );
    let e = load_games(&bad, &RuleSet::thesis()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("{b}:{line}: game 2: move 12. Ke1e3: illegal move 'Ke1e3'")
    );
    // Export writes the good games, names the bad ones and exits 2; asking for a good
    // game alone works, asking for the bad one names its error.
    let (pgn, err) = partly(&["export", s(&bad)]);
    assert_eq!(read_pgn(&pgn).unwrap().len(), 2);
    assert!(err.contains("game 2: move 12. Ke1e3"), "{err}");
    let one = ok(&["export", s(&bad), "--game", "4"]);
    assert_eq!(read_pgn(&one).unwrap()[0].tag("FowGame"), Some("4"));
    fails(
        &["export", s(&bad), "--game", "2"],
        &format!("{b}:{line}: game 2: move 12. Ke1e3: illegal move 'Ke1e3'"),
    );
}

#[test]
fn import_refuses_what_games_csv_cannot_hold() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("mixed.pgn");
    fs::write(
        &pgn,
        "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 f6 2. Qh5 a6 3. Qxe8 1-0\n\n\
         [White \"c\"]\n[Black \"d\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 *\n\n\
         [White \"e\"]\n[Black \"f\"]\n\n1. e4 e5 *\n\n\
         [White \"g\"]\n[Black \"h\"]\n[Rules \"thesis\"]\n[Result \"0-1\"]\n\n1. e4 0-1\n\n\
         [White \"i\"]\n[Black \"j\"]\n\n1. e4 Nc6 1/2-1/2\n",
    )
    .unwrap();
    let out_dir = dir.path().join("out");
    let (out, err) = partly(&[
        "import",
        s(&pgn),
        "--out",
        s(&out_dir),
        "--rules",
        "chesscom",
    ]);
    assert!(
        out.contains("imported 1 game of 2 players, rules chesscom"),
        "{out}"
    );
    let p = pgn.display();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 5, "{err}");
    assert!(
        lines[0].starts_with(&format!(
            "fow: skipped {p} game 2: starts from the position"
        )),
        "{err}"
    );
    assert!(
        lines[1].starts_with(&format!("fow: skipped {p} game 3: no result (*)")),
        "{err}"
    );
    assert!(
        lines[2].contains("game 4: rules thesis differ from the folder's (chesscom"),
        "{err}"
    );
    assert!(
        lines[3].contains("game 5: a draw the rules did not make"),
        "{err}"
    );
    assert_eq!(
        lines[4],
        "fow: error: 4 games of 5 skipped (listed above); 1 game imported"
    );
    // The FEN game exports fine (PGN holds any start).
    let one = ok(&["export", s(&pgn), "--game", "2", "--rules", "chesscom"]);
    assert!(
        one.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]"),
        "{one}"
    );
    // An existing results folder is not touched; nothing importable writes nothing.
    fails(
        &["import", s(&pgn), "--out", s(&out_dir)],
        "already holds games; choose another folder",
    );
    let none = dir.path().join("none.pgn");
    fs::write(&none, "[White \"x\"]\n\n1. e4 *\n").unwrap();
    let (_, err) = partly(&["import", s(&none), "--out", s(&dir.path().join("n"))]);
    assert!(
        err.ends_with("fow: error: the game could not be imported; nothing written\n"),
        "{err}"
    );
    assert!(!dir.path().join("n").exists());
    fails(
        &[
            "import",
            "/nonexistent.pgn",
            "--out",
            s(&dir.path().join("m")),
        ],
        "no such file or folder",
    );
    // SAN input with a missing disambiguation is one clear error.
    let amb = dir.path().join("amb.pgn");
    fs::write(
        &amb,
        "[FEN \"4k3/8/8/8/R6R/8/8/4K3 w - - 0 1\"]\n\n1. Rd4 *\n",
    )
    .unwrap();
    fails(
        &["export", s(&amb), "--game", "1"],
        "game 1: move 1. Rd4: ambiguous move 'Rd4' (could be Rad4, Rhd4)",
    );
}
