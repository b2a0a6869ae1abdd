//! The JSON report of one analysed game (`fow analyze --json`, and each game of a run's
//! report): what game it is, the engine, each side's [`Summary`] and every move's
//! [`MoveAnalysis`].

use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use fow_records::{GameOpening, SavedGame};

use crate::analysis::{GameAnalysis, MoveAnalysis};
use crate::error::{write_failed, ReportError};
use crate::summary::Summary;

/// One value for each side.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Sides<T> {
    /// White's.
    pub white: T,
    /// Black's.
    pub black: T,
}

/// An analysed game as the JSON report holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameReport {
    /// The game's number ([`SavedGame::number`]: its id in games.csv, else its FowGame
    /// tag, else its place in the PGN input).
    pub game: u64,
    /// Where it came from (`results/x/games.csv game 12`).
    pub source: String,
    /// White's player as the game records it (a bot spec or a PGN name).
    pub white: String,
    /// Black's player.
    pub black: String,
    /// The rules it was played under, as fow names them (`thesis`, `custom(...)`).
    pub rules: String,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` when undecided or unknown.
    pub result: String,
    /// How it ended, in words (`king captured`); empty if unknown.
    pub termination: String,
    /// The number of plies.
    pub plies: usize,
    /// The engine and its settings, in words.
    pub engine: String,
    /// The opening by position (its ECO code, name, the ply that reached it and the ply
    /// that left the table for good), if the opening table names one.
    #[serde(default)]
    pub opening: Option<GameOpening>,
    /// Each side's moves summarised.
    pub summary: Sides<Summary>,
    /// One record per move, in ply order.
    pub moves: Vec<MoveAnalysis>,
}

impl GameReport {
    /// The report of `game` analysed as `analysis`.
    pub fn new(game: &SavedGame, analysis: &GameAnalysis) -> GameReport {
        let side = |name: &str| Summary::of(analysis.moves.iter().filter(|m| m.mover == name));
        GameReport {
            game: game.number,
            source: game.source.clone(),
            white: game.white.clone(),
            black: game.black.clone(),
            rules: game.rules.to_string(),
            result: game.result.map_or("*".to_string(), |r| r.to_string()),
            termination: game.termination.clone(),
            plies: game.moves.len(),
            engine: analysis.engine.clone(),
            opening: analysis.opening.clone(),
            summary: Sides {
                white: side("white"),
                black: side("black"),
            },
            moves: analysis.moves.clone(),
        }
    }
}

/// Writes `value` to `path` as pretty-printed JSON with a final newline.
pub fn write_json(path: &Path, value: &impl Serialize) -> Result<(), ReportError> {
    let file = std::fs::File::create(path).map_err(|e| write_failed(path, e))?;
    let mut out = std::io::BufWriter::new(file);
    serde_json::to_writer_pretty(&mut out, value)
        .map_err(std::io::Error::from)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush())
        .map_err(|e| write_failed(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_records::GameResult;
    use fow_variants::RuleSet;

    #[test]
    fn a_game_report_names_the_game_and_summarises_each_side() {
        let mut g = SavedGame::from_uci("A", "B", RuleSet::thesis(), &["e2e4", "e7e5"]).unwrap();
        g.number = 7;
        g.source = "x.pgn game 7".into();
        g.result = Some(GameResult::Draw);
        let m = |ply, white, uci: &str, after| {
            MoveAnalysis::new(
                ply,
                white,
                uci.into(),
                uci.into(),
                0.0,
                after,
                "".into(),
                false,
            )
        };
        let analysis = GameAnalysis {
            engine: "test".into(),
            moves: vec![m(1, true, "e2e4", 0.0), m(2, false, "e7e5", 500.0)],
            opening: None,
        };
        let r = GameReport::new(&g, &analysis);
        assert_eq!((r.game, r.result.as_str(), r.plies), (7, "1/2-1/2", 2));
        assert_eq!((r.white.as_str(), r.black.as_str()), ("A", "B"));
        assert_eq!(r.summary.white.total.moves, 1);
        assert_eq!(r.summary.black.total.count(crate::MoveLabel::Blunder), 1);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.json");
        write_json(&path, &r).unwrap();
        let back: GameReport =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(back, r, "the JSON reads back to the same report");
    }
}
