//! Saved games are checked when they are read: every command that reads `games.csv` or
//! PGN refuses a game its own rules contradict (a result the moves do not make, a wrong
//! ply count, a "king captured" without a capture, an empty name, a repeated row, a PGN
//! of another variant) with one `fow: error: FILE:LINE: ...` line and exit 2, and
//! `tournament --resume` never drops or replaces a file it cannot read.

mod common;
use common::*;

use std::fs;
use std::path::{Path, PathBuf};

use fow_records::GAMES_FILE;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A finished 2-player, 2-games-per-pair tournament (4 games) and its games.csv text.
fn results() -> (tempfile::TempDir, PathBuf, String) {
    let (dir, _) = tournament("RandomMove,CaptureKing", 2, "1");
    let csv = dir.path().join(GAMES_FILE);
    let text = fs::read_to_string(&csv).unwrap();
    (dir, csv, text)
}

/// The fields of line `line` (1-based) of a games.csv without quoted fields, edited by
/// `edit`, written back.
fn edit_row(csv: &Path, line: usize, edit: impl FnOnce(&mut Vec<String>)) {
    let text = fs::read_to_string(csv).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut fields: Vec<String> = lines[line - 1].split(',').map(String::from).collect();
    assert_eq!(fields.len(), 11, "{}", lines[line - 1]);
    edit(&mut fields);
    lines[line - 1] = fields.join(",");
    fs::write(csv, lines.join("\n") + "\n").unwrap();
}

/// The 1-based line of the first row whose reason is `reason`.
fn line_of(text: &str, reason: &str) -> usize {
    text.lines()
        .position(|l| l.contains(&format!(",{reason},")))
        .unwrap_or_else(|| panic!("no '{reason}' row in\n{text}"))
        + 1
}

/// Runs `fow` expecting exit 2 and `needle` on stderr, every line of which is one of
/// fow's (no panic); returns stdout. For the commands that write the good games and list
/// the bad ones (`export`, `import`).
fn partly(args: &[&str], needle: &str) -> String {
    let out = fow(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "fow {args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.lines().all(|l| l.starts_with("fow: ")), "{err}");
    assert!(err.contains(needle), "'{needle}' not in: {err}");
    String::from_utf8(out.stdout).unwrap()
}

/// Every command that reads a results folder refuses it with `needle` in its one line;
/// those that read one game refuse game `id`, and export leaves it out.
fn all_readers_refuse(dir: &Path, id: &str, needle: &str) {
    let d = s(dir);
    let tmp = tempfile::tempdir().unwrap();
    let set = tmp.path().join("x.fownn");
    fails(&["rate", s(&dir.join(GAMES_FILE))], needle);
    fails(&["replay", d, "--game", id, "--print"], needle);
    fails(&["export", d, "--game", id], needle);
    let pgn = partly(&["export", d], needle);
    assert!(!pgn.contains(&format!("[FowGame \"{id}\"]")), "{pgn}");
    fails(&["tune-material", d], needle);
    fails(&["dataset", d, "--out", s(&set)], needle);
    fails(&["rate", d], needle);
}

#[test]
fn a_result_that_contradicts_the_moves_is_refused() {
    let (dir, csv, text) = results();
    let line = line_of(&text, "king captured");
    let mut id = String::new();
    edit_row(&csv, line, |f| {
        id = f[0].clone();
        f[5] = if f[5] == "1-0" { "0-1" } else { "1-0" }.into();
    });
    let needle = format!("{}:{line}: game {id}: ", csv.display());
    fails(&["analyze", s(dir.path()), "--game", &id], &needle);
    all_readers_refuse(dir.path(), &id, &needle);
    fails(
        &["replay", s(dir.path()), "--game", &id, "--print"],
        "captured the king",
    );
}

#[test]
fn a_wrong_ply_count_is_refused() {
    let (dir, csv, text) = results();
    let line = line_of(&text, "king captured");
    let mut id = String::new();
    edit_row(&csv, line, |f| {
        id = f[0].clone();
        f[7] = "999".into();
    });
    all_readers_refuse(dir.path(), &id, &format!("{}:{line}: ", csv.display()));
    fails(&["rate", s(dir.path())], "999");
}

#[test]
fn a_king_capture_without_moves_is_refused() {
    let (dir, csv, text) = results();
    let line = line_of(&text, "king captured");
    let mut id = String::new();
    edit_row(&csv, line, |f| {
        id = f[0].clone();
        f[7] = "0".into();
        f[9] = String::new();
    });
    all_readers_refuse(dir.path(), &id, &format!("{}:{line}: ", csv.display()));
    fails(&["rate", s(dir.path())], "no move was played");
}

#[test]
fn an_empty_player_name_is_refused() {
    let (dir, csv, _) = results();
    edit_row(&csv, 3, |f| f[2] = String::new());
    all_readers_refuse(dir.path(), "1", &format!("{}:3: ", csv.display()));
    fails(&["rate", s(dir.path())], "White's name is empty");
    // Also in a games.csv alone (no tournament.json beside it).
    let alone = tempfile::tempdir().unwrap();
    let copy = alone.path().join("games.csv");
    fs::copy(&csv, &copy).unwrap();
    fails(&["rate", s(&copy)], &format!("{}:3: ", copy.display()));
}

#[test]
fn a_duplicated_row_is_not_counted_twice() {
    let (dir, csv, text) = results();
    let lines: Vec<&str> = text.lines().collect();
    let doubled = format!("{}\n{}\n", text.trim_end(), lines[2]);
    fs::write(&csv, &doubled).unwrap();
    let last = doubled.lines().count();
    all_readers_refuse(dir.path(), "1", &format!("{}:3: ", csv.display()));
    fails(&["rate", s(dir.path())], &format!("lines 3 and {last}"));
    // Alone, without the schedule of a tournament.json, and with another id: the same
    // game (players and seed) twice.
    let alone = tempfile::tempdir().unwrap();
    let copy = alone.path().join("games.csv");
    let mut row: Vec<&str> = lines[2].split(',').collect();
    row[0] = "77";
    fs::write(&copy, format!("{}\n{}\n", text.trim_end(), row.join(","))).unwrap();
    fails(
        &["rate", s(&copy)],
        &format!("{}:{last}: game 77: ", copy.display()),
    );
}

#[test]
fn resume_refuses_and_keeps_a_games_csv_it_cannot_read() {
    let (dir, csv, text) = results();
    let d = s(dir.path());
    // Binary junk without a newline (what cutting a partial line would wipe out), junk
    // with newlines, and a valid file whose row contradicts its moves.
    let junk: Vec<u8> = (0u8..=255)
        .filter(|&b| b != b'\n')
        .cycle()
        .take(3000)
        .collect();
    let mut lines_junk = junk.clone();
    lines_junk[100] = b'\n';
    lines_junk[2000] = b'\n';
    let line = line_of(&text, "king captured");
    let edited = {
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let mut f: Vec<String> = lines[line - 1].split(',').map(String::from).collect();
        f[5] = if f[5] == "1-0" { "0-1" } else { "1-0" }.into();
        lines[line - 1] = f.join(",");
        lines.join("\n") + "\n"
    };
    for (bytes, needle) in [
        (junk, format!("{}:1: ", csv.display())),
        (lines_junk, format!("{}:1: ", csv.display())),
        (edited.into_bytes(), format!("{}:{line}: ", csv.display())),
    ] {
        fs::write(&csv, &bytes).unwrap();
        fails(&["tournament", "--resume", "-q", "--out", d], &needle);
        assert_eq!(fs::read(&csv).unwrap(), bytes, "games.csv was changed");
    }
    // A row cut short by a kill (no newline at the end) is still dropped and replayed.
    let cut = &text[..text.len() - 10];
    fs::write(&csv, cut).unwrap();
    let out = ok(&["tournament", "--resume", "-q", "--out", d]);
    assert!(out.contains("1 played now"), "{out}");
    assert_eq!(fs::read_to_string(&csv).unwrap(), text);
}

#[test]
fn a_pgn_of_another_variant_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = tmp.path().join("zh.pgn");
    fs::write(
        &pgn,
        "[Event \"?\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n[Variant \"Crazyhouse\"]\n\n\
         1. e4 e5 2. Nf3 Nc6 *\n",
    )
    .unwrap();
    let needle = format!("{}:1: game 1: ", pgn.display());
    fails(&["replay", s(&pgn), "--print"], &needle);
    fails(&["replay", s(&pgn), "--print"], "Crazyhouse");
    fails(&["export", s(&pgn)], &needle);
    fails(&["export", s(&pgn), "--game", "1"], &needle);
    partly(
        &["import", s(&pgn), "--out", s(&tmp.path().join("i"))],
        "Crazyhouse",
    );
    let set = tmp.path().join("x.fownn");
    fails(&["dataset", s(&pgn), "--out", s(&set)], &needle);
    fails(&["tune-material", s(&pgn)], &needle);
    // chess.com's spelling and ours are fog of war.
    for variant in ["Fog of War", "fog-of-war", "FogOfWar"] {
        fs::write(
            &pgn,
            format!("[Variant \"{variant}\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n"),
        )
        .unwrap();
        ok(&["export", s(&pgn)]);
    }
}

#[test]
fn a_pgn_whose_result_contradicts_its_moves_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = tmp.path().join("g.pgn");
    // White captures the king on move 3, but the PGN says Black won.
    fs::write(
        &pgn,
        "[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n\n1. e4 f6 2. Qh5 a6 3. Qxe8 0-1\n",
    )
    .unwrap();
    let needle = format!("{}:", pgn.display());
    fails(&["replay", s(&pgn), "--print"], &needle);
    fails(&["export", s(&pgn)], "captured the king");
    // A termination the moves do not make, and a time forfeit of the side not to move.
    fs::write(
        &pgn,
        "[Result \"1-0\"]\n[Termination \"King captured • 1-0\"]\n\n1. e4 f6 2. Qh5 1-0\n",
    )
    .unwrap();
    fails(&["export", s(&pgn)], &needle);
    fs::write(
        &pgn,
        "[Result \"0-1\"]\n[Termination \"Black forfeits on time • 0-1\"]\n\n1. e4 f6 0-1\n",
    )
    .unwrap();
    fails(&["export", s(&pgn)], &needle);
}

#[test]
fn the_committed_results_and_data_read_cleanly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for dir in [
        "results/thesis-reproduction",
        "results/all-bots-100",
        "results/thesis-bots-100",
        "results/uci-stockfish",
    ] {
        let out = ok(&["rate", s(&root.join(dir)), "--method", "thesis"]);
        assert!(out.contains("CaptureLargest"), "{dir}: {out}");
    }
    ok(&["export", s(&root.join("data/chesscom-fow"))]);
}
