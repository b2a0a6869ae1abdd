//! The per-move CSV that `fow analyze` writes, read back and checked against its game.

use std::path::Path;

use fow_records::{RecordError, SavedGame};

use crate::analysis::MoveAnalysis;

/// Reads the per-move CSV that `fow analyze` writes (one [`MoveAnalysis`] per row) and
/// checks it against `game`: every row's ply must be one of the game's and its move the
/// game's move there. Rows come back sorted by ply.
pub fn read_analysis(path: &Path, game: &SavedGame) -> Result<Vec<MoveAnalysis>, RecordError> {
    let file = std::fs::File::open(path).map_err(fow_records::io_err(path))?;
    let mut reader = csv::Reader::from_reader(file);
    let mut rows: Vec<MoveAnalysis> = Vec::new();
    for (i, record) in reader.deserialize::<MoveAnalysis>().enumerate() {
        let line = i as u64 + 2;
        let bad = |message: String| RecordError::Format {
            path: path.to_path_buf(),
            line,
            message,
        };
        let row = record.map_err(|e| bad(csv_message(&e)))?;
        let Some(m) = row.ply.checked_sub(1).and_then(|i| game.moves.get(i)) else {
            return Err(bad(format!(
                "ply {} is not a move of {} ({} plies)",
                row.ply,
                game.source,
                game.moves.len()
            )));
        };
        if m.uci() != row.uci {
            return Err(bad(format!(
                "ply {} is {} but {} played {} there: the analysis is of another game",
                row.ply,
                row.uci,
                game.source,
                m.uci()
            )));
        }
        if rows.iter().any(|r| r.ply == row.ply) {
            return Err(bad(format!("ply {} appears twice", row.ply)));
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(RecordError::Format {
            path: path.to_path_buf(),
            line: 1,
            message: "no analysed moves".into(),
        });
    }
    rows.sort_by_key(|r| r.ply);
    Ok(rows)
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
