//! Reading recorded games given on the command line: `games.csv` files (with the rules
//! of the `tournament.json` beside them), results folders holding one, and PGN files or
//! folders of them.

use std::path::{Path, PathBuf};

use fow_variants::RuleSet;

use crate::error::CliError;

/// The PGN files an input names: itself, or the `.pgn` files of a folder (sorted).
pub fn pgn_files(path: &Path) -> Result<Vec<PathBuf>, CliError> {
    Ok(fow_records::pgn_files(path)?)
}

/// The rules of a `games.csv`: those of the `tournament.json` beside it, else thesis.
pub fn tournament_rules(games_csv: &Path) -> Result<RuleSet, CliError> {
    Ok(fow_records::rules_beside(games_csv)?)
}

/// Makes the folder an output file goes into and takes its lock (one writer per
/// folder: another fow command writing there, such as a running tournament, is refused),
/// before the work that leads to the file. The lock lasts until the result is dropped.
pub fn lock_parent(out: &Path) -> Result<fow_records::FolderLock, CliError> {
    let dir = match out.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    Ok(fow_records::lock_folder(dir)?)
}
