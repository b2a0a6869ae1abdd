//! The per-move CSV that `fow analyze` writes, read back and checked against its game.

use std::path::Path;

use fow_records::{RecordError, SavedGame};

use crate::analysis::MoveAnalysis;
use crate::analysis_rows::check_row;

/// Reads the analysis of `game` that `fow analyze` wrote, checked against the game:
/// every row's ply must be one of the game's and its move the game's move there. Rows
/// come back sorted by ply. The file is the per-move CSV of one game (one
/// [`MoveAnalysis`] per row), the CSV of a run (a `game` column first: the rows of
/// `game`'s number), or, for a `.json` file, a game's or a run's JSON report
/// (the JSON that `fow analyze --json` or `--all` writes).
pub fn read_analysis(path: &Path, game: &SavedGame) -> Result<Vec<MoveAnalysis>, RecordError> {
    if path
        .extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("json"))
    {
        return crate::analysis_json::read_analysis_json(path, game);
    }
    let file = std::fs::File::open(path).map_err(fow_records::io_err(path))?;
    let mut reader = csv::Reader::from_reader(file);
    let bad = |line: u64, message: String| RecordError::Format {
        path: path.to_path_buf(),
        line,
        message,
    };
    let headers = reader
        .headers()
        .map_err(|e| bad(1, csv_message(&e)))?
        .clone();
    // A run's CSV: the game's number first, then the fields of one game's CSV.
    let run = headers.get(0) == Some("game");
    let move_headers: csv::StringRecord = headers.iter().skip(usize::from(run)).collect();
    let mut rows: Vec<MoveAnalysis> = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let line = i as u64 + 2;
        let record = record.map_err(|e| bad(line, csv_message(&e)))?;
        let fields: csv::StringRecord = match run {
            true => {
                let number = record.get(0).unwrap_or("");
                let number: u64 = number
                    .parse()
                    .map_err(|_| bad(line, format!("field 1: bad game number '{number}'")))?;
                if number != game.number {
                    continue;
                }
                record.iter().skip(1).collect()
            }
            false => record,
        };
        let row: MoveAnalysis = fields.deserialize(Some(&move_headers)).map_err(|e| {
            // Field numbers of the file, the game column counted.
            bad(line, shift_field(&csv_message(&e), usize::from(run)))
        })?;
        check_row(&row, &rows, game).map_err(|m| bad(line, m))?;
        rows.push(row);
    }
    if rows.is_empty() {
        let message = match run {
            true => format!("no analysed moves of game {}", game.number),
            false => "no analysed moves".into(),
        };
        return Err(bad(1, message));
    }
    rows.sort_by_key(|r| r.ply);
    Ok(rows)
}

/// `field N: ...` as `field N+by: ...` (a message about a record read without its first
/// `by` columns, numbered as the file numbers them).
fn shift_field(message: &str, by: usize) -> String {
    let Some(rest) = message.strip_prefix("field ") else {
        return message.to_string();
    };
    match rest.split_once(':') {
        Some((n, tail)) => match n.parse::<usize>() {
            Ok(n) => format!("field {}:{tail}", n + by),
            Err(_) => message.to_string(),
        },
        None => message.to_string(),
    }
}

/// A csv error without its position prefix (the caller names file and line).
fn csv_message(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::Deserialize { err, .. } => match err.field() {
            Some(f) => format!("field {}: {}", f + 1, err.kind()),
            None => err.kind().to_string(),
        },
        _ => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_records::GameResult;
    use fow_variants::RuleSet;

    fn game(moves: &[&str]) -> SavedGame {
        let mut g = SavedGame::from_uci("A", "B", RuleSet::chesscom(), moves).unwrap();
        g.source = "test game 1".into();
        g.result = Some(GameResult::WhiteWins);
        g.termination = "king captured".into();
        g
    }

    #[test]
    fn analysis_must_match_the_game() {
        let g = game(&["e2e4", "d7d5"]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.csv");
        let write = |rows: &[MoveAnalysis]| {
            let mut w = csv::Writer::from_path(&path).unwrap();
            for r in rows {
                w.serialize(r).unwrap();
            }
            w.flush().unwrap();
        };
        let row = |ply: usize, uci: &str| {
            MoveAnalysis::new(
                ply,
                ply % 2 == 1,
                uci.into(),
                uci.into(),
                0.0,
                -300.0,
                "g1f3".into(),
                false,
            )
        };
        write(&[row(2, "d7d5"), row(1, "e2e4")]);
        let rows = read_analysis(&path, &g).unwrap();
        assert_eq!(rows.iter().map(|r| r.ply).collect::<Vec<_>>(), [1, 2]);
        write(&[row(1, "d2d4")]);
        let e = read_analysis(&path, &g).unwrap_err().to_string();
        assert!(
            e.contains(":2: ply 1 is d2d4 but test game 1 played e2e4"),
            "{e}"
        );
        write(&[row(3, "g1f3")]);
        let e = read_analysis(&path, &g).unwrap_err().to_string();
        assert!(e.contains("ply 3 is not a move"), "{e}");
        // An analysis written before phases (no `phase` column) reads with none; a
        // written phase reads back.
        let old = "ply,mover,uci,san,cp_before,cp_after,best,win_before,win_after,drop,label,\
                   accuracy,king_left_capturable\n1,white,e2e4,e4,0,0,,50,50,0,excellent,100,false\n";
        std::fs::write(&path, old).unwrap();
        assert_eq!(read_analysis(&path, &g).unwrap()[0].phase, None);
        let mut r = row(1, "e2e4");
        r.phase = Some(crate::Phase::Middlegame);
        write(&[r]);
        let back = read_analysis(&path, &g).unwrap();
        assert_eq!(back[0].phase, Some(crate::Phase::Middlegame));
        std::fs::write(&path, "ply,mover\nx,white\n").unwrap();
        let e = read_analysis(&path, &g).unwrap_err().to_string();
        assert!(e.contains("a.csv:2:"), "{e}");
    }
}
