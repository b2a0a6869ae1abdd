//! A game's page as JSON ([`game_json`]): the replay `fow replay --html` embeds (the
//! true board and both sides' views at every ply, the moves), the analysis of `fow
//! analyze` when the folder holds one, the opening's name, and which sides' beliefs can
//! be shown; and the game as PGN ([`game_pgn`]).

use std::path::{Path, PathBuf};

use fow_analysis::{labelled_game, read_analysis, replay_json, Replay};
use fow_records::{load_game, SavedGame, GAMES_FILE};
use fow_variants::{Color, RuleSet};
use serde_json::Value;

/// The analysis files `fow web` looks for in a run's folder, in this order: what `fow
/// analyze --all --json` (or `--csv`) writes, saved there under these names.
pub const ANALYSIS_FILES: [&str; 2] = ["analysis.json", "analysis.csv"];

/// Game `number` of the run in `dir`.
pub fn saved_game(dir: &Path, number: u64) -> Result<SavedGame, String> {
    load_game(&dir.join(GAMES_FILE), Some(number), &RuleSet::thesis()).map_err(|e| e.to_string())
}

/// The analysis file of the run in `dir`, if it holds one.
pub fn analysis_file(dir: &Path) -> Option<PathBuf> {
    ANALYSIS_FILES
        .iter()
        .map(|n| dir.join(n))
        .find(|p| p.is_file())
}

/// The page of game `number` of the run in `dir`.
pub fn game_json(dir: &Path, number: u64) -> Result<Value, String> {
    let game = saved_game(dir, number)?;
    let (rows, source, error) = match analysis_file(dir) {
        Some(path) => match read_analysis(&path, &game) {
            Ok(rows) => (
                Some(rows),
                format!(
                    "from {}",
                    path.file_name().unwrap_or_default().to_string_lossy()
                ),
                None,
            ),
            // An analysis of other games (or none of this one): shown as a note.
            Err(e) => (None, String::new(), Some(e.to_string())),
        },
        None => (None, String::new(), None),
    };
    let believers: Vec<&str> = Color::ALL
        .into_iter()
        .rev()
        .filter(|&c| fow_analysis::belief_bot(game.player(c)))
        .map(|c| if c.is_white() { "white" } else { "black" })
        .collect();
    let replay = Replay::new(labelled_game(game), rows, source);
    let mut page = replay_json(&replay);
    page["number"] = number.into();
    page["analysis_error"] = error.into();
    page["beliefs"] = believers.into();
    Ok(page)
}

/// Game `number` of the run in `dir` as PGN (fow's tags, opening included).
pub fn game_pgn(dir: &Path, number: u64) -> Result<String, String> {
    Ok(saved_game(dir, number)?.to_pgn())
}
