//! Reading recorded games given on the command line: `games.csv` files (with the rules
//! of the `tournament.json` beside them), results folders holding one, and PGN files or
//! folders of them.

use std::path::{Path, PathBuf};

use fow_variants::RuleSet;

use crate::error::CliError;

/// The PGN files an input names: itself, or the `.pgn` files of a folder (sorted).
pub fn pgn_files(path: &Path) -> Result<Vec<PathBuf>, CliError> {
    Ok(fow_arena::pgn_files(path)?)
}

/// The rules of a `games.csv`: those of the `tournament.json` beside it, else thesis.
pub fn tournament_rules(games_csv: &Path) -> Result<RuleSet, CliError> {
    Ok(fow_arena::rules_beside(games_csv)?)
}

/// Makes the folder an output file goes into, before the work that leads to it.
pub fn make_parent(out: &Path) -> Result<(), CliError> {
    match out.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => std::fs::create_dir_all(dir)
            .map_err(|e| CliError::Failed(format!("{}: {e}", dir.display()))),
        _ => Ok(()),
    }
}
