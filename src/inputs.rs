//! Reading recorded games given on the command line: `games.csv` files (with the rules
//! of the `tournament.json` beside them) and PGN files or folders of them.

use std::path::{Path, PathBuf};

use fow_variants::RuleSet;

use crate::error::{input, CliError};

/// The PGN files an input names: itself, or the `.pgn` files of a folder (sorted).
pub fn pgn_files(path: &Path) -> Result<Vec<PathBuf>, CliError> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let entries = std::fs::read_dir(path).map_err(|e| input(format!("{}: {e}", path.display())))?;
    let mut files = Vec::new();
    for e in entries {
        let p = e
            .map_err(|e| input(format!("{}: {e}", path.display())))?
            .path();
        if p.is_file() && p.extension().is_some_and(|x| x == "pgn") {
            files.push(p);
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(input(format!(
            "{}: no .pgn files in the folder",
            path.display()
        )));
    }
    Ok(files)
}

/// The rules of a `games.csv`: those of the `tournament.json` beside it, else thesis.
pub fn tournament_rules(games_csv: &Path) -> Result<RuleSet, CliError> {
    Ok(fow_arena::rules_beside(games_csv)?)
}
