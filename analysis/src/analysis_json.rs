//! A game's analysis read back from a JSON report (`fow analyze --json`): a game's report
//! ([`GameReport`](crate::GameReport)) or a run's ([`RunReport`](crate::RunReport)), whose
//! game of the same number is taken. Each move is checked against the game as the CSV's
//! rows are, and an error names the line of the file where that move starts.

use std::path::Path;

use serde::Deserialize;
use serde_json::value::RawValue;

use fow_records::{RecordError, SavedGame};

use crate::analysis::MoveAnalysis;
use crate::analysis_rows::check_row;

/// What the reader needs of a report: a game's number and moves, or a run's games. The
/// moves stay text of the file until their game is chosen.
#[derive(Deserialize)]
struct Shape<'a> {
    #[serde(borrow, default)]
    moves: Option<Vec<&'a RawValue>>,
    #[serde(borrow, default)]
    games: Option<Vec<GameMoves<'a>>>,
}

/// One game of a run's report.
#[derive(Deserialize)]
struct GameMoves<'a> {
    game: u64,
    #[serde(borrow)]
    moves: Vec<&'a RawValue>,
}

/// The analysis of `game` in the JSON report `path`, checked against it and sorted by
/// ply (see [`read_analysis`](crate::read_analysis)).
pub fn read_analysis_json(path: &Path, game: &SavedGame) -> Result<Vec<MoveAnalysis>, RecordError> {
    let text = std::fs::read_to_string(path).map_err(fow_records::io_err(path))?;
    let bad = |line: usize, message: String| RecordError::Format {
        path: path.to_path_buf(),
        line: line as u64,
        message,
    };
    let shape: Shape = serde_json::from_str(&text).map_err(|e| bad(e.line(), json_message(&e)))?;
    let moves = match (shape.moves, shape.games) {
        (Some(moves), _) => moves,
        (None, Some(games)) => {
            let found = games.into_iter().find(|g| g.game == game.number);
            found
                .ok_or_else(|| bad(1, format!("no analysis of game {}", game.number)))?
                .moves
        }
        (None, None) => {
            return Err(bad(
                1,
                "neither a game's analysis (`moves`) nor a run's (`games`)".into(),
            ))
        }
    };
    let mut rows: Vec<MoveAnalysis> = Vec::with_capacity(moves.len());
    for raw in moves {
        let line = line_of(&text, raw.get());
        let row: MoveAnalysis = serde_json::from_str(raw.get())
            .map_err(|e| bad(line + e.line() - 1, json_message(&e)))?;
        check_row(&row, &rows, game).map_err(|m| bad(line, m))?;
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(bad(1, format!("no analysed moves of game {}", game.number)));
    }
    rows.sort_by_key(|r| r.ply);
    Ok(rows)
}

/// The 1-based line of `text` where `part`, a slice of it, begins.
fn line_of(text: &str, part: &str) -> usize {
    let offset = (part.as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// serde_json's message without its ` at line L column C` (the caller names the line).
fn json_message(e: &serde_json::Error) -> String {
    let m = e.to_string();
    match m.rfind(" at line ") {
        Some(i) => m[..i].to_string(),
        None => m,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::GameAnalysis;
    use crate::game_report::{write_json, GameReport};
    use crate::run_analysis::RunReport;
    use fow_variants::RuleSet;

    fn game(number: u64, moves: &[&str]) -> SavedGame {
        let mut g = SavedGame::from_uci("A", "B", RuleSet::thesis(), moves).unwrap();
        g.number = number;
        g.source = format!("test game {number}");
        g
    }

    fn analysis(g: &SavedGame) -> GameAnalysis {
        let moves = g
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let uci = m.uci();
                let cp = -100.0 * i as f64;
                MoveAnalysis::new(
                    i + 1,
                    i % 2 == 0,
                    uci.clone(),
                    uci,
                    0.0,
                    cp,
                    "".into(),
                    false,
                )
            })
            .collect();
        GameAnalysis {
            engine: "test".into(),
            moves,
            opening: None,
        }
    }

    #[test]
    fn a_game_report_and_a_run_report_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let (g1, g2) = (
            game(1, &["e2e4", "e7e5"]),
            game(2, &["d2d4", "d7d5", "c1f4"]),
        );
        let (a1, a2) = (analysis(&g1), analysis(&g2));
        let one = dir.path().join("one.json");
        write_json(&one, &GameReport::new(&g2, &a2)).unwrap();
        assert_eq!(read_analysis_json(&one, &g2).unwrap(), a2.moves);
        let run = dir.path().join("run.json");
        let report = RunReport::new("run", &[g1.clone(), g2.clone()], &[a1.clone(), a2.clone()]);
        write_json(&run, &report).unwrap();
        assert_eq!(read_analysis_json(&run, &g1).unwrap(), a1.moves);
        assert_eq!(read_analysis_json(&run, &g2).unwrap(), a2.moves);
        let e = read_analysis_json(&run, &game(3, &["e2e4"])).unwrap_err();
        assert!(
            e.to_string().ends_with("run.json:1: no analysis of game 3"),
            "{e}"
        );
        // Game 2's analysis against another game of number 2: the line of its move.
        let e = read_analysis_json(&run, &game(2, &["d2d4", "g8f6"])).unwrap_err();
        let text = std::fs::read_to_string(&run).unwrap();
        let uci = 1 + text.lines().position(|l| l.contains("\"d7d5\"")).unwrap();
        // The move's record opens three lines above its `uci` (`{`, `"ply"`, `"mover"`).
        let want = format!(
            "run.json:{}: ply 2 is d7d5 but test game 2 played g8f6",
            uci - 3
        );
        assert!(e.to_string().contains(&want), "{e}\nwanted {want}");
    }

    #[test]
    fn malformed_reports_name_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.json");
        let g = game(1, &["e2e4"]);
        let err = |text: &str| {
            std::fs::write(&path, text).unwrap();
            read_analysis_json(&path, &g).unwrap_err().to_string()
        };
        assert!(err("{\n\"moves\": [\n").contains("bad.json:3: EOF"));
        assert!(err("[1, 2]").contains("bad.json:1: invalid type"));
        assert!(err("{\"x\": 1}").contains("neither a game's analysis"));
        let e = err("{\"moves\": [\n{\"ply\": 1,\n \"mover\": 3}]}");
        assert!(e.contains("bad.json:3: invalid type: integer `3`"), "{e}");
        assert!(err("{\"moves\": []}").contains("no analysed moves of game 1"));
    }
}
