//! `fow compare-thesis DIR`: a tournament's ladder beside the thesis's Table 2
//! (`fow_analysis::compare`).

use std::path::PathBuf;

use fow_analysis::thesis_comparison;
use fow_records::{
    read_games, read_rows, TimeRow, TournamentConfig, CONFIG_FILE, GAMES_FILE, TIMES_FILE,
};

use crate::error::{input, CliError};

/// Set a tournament's ratings beside the thesis's Table 2.
///
/// Reads DIR/tournament.json, DIR/games.csv and DIR/times.csv (as written by
/// `fow tournament`, e.g. `--preset thesis`) and writes into DIR: crosstable.md,
/// ratings.md, thesis-comparison.csv and .md (per thesis bot: our Elo by the thesis's
/// method and by maximum likelihood with 95% intervals, RandomMove = 0, against the
/// thesis's recomputed Elo), thesis-correlation.csv (Spearman and Kendall rank correlation
/// of the two ladders) and ladder.svg (both ladders side by side). A variant of a thesis
/// bot (`PositionaryEvaluator:params=...`) is compared with its base bot.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The tournament folder.
    pub dir: PathBuf,
}

/// `fow compare-thesis DIR`.
pub fn run(a: Args) -> Result<(), CliError> {
    let dir = &a.dir;
    let cfg_path = dir.join(CONFIG_FILE);
    if !cfg_path.is_file() {
        return Err(input(format!("{}: no such file", cfg_path.display())));
    }
    let cfg = TournamentConfig::load(dir)?;
    let games_path = dir.join(GAMES_FILE);
    if !games_path.is_file() {
        return Err(input(format!("{}: no such file", games_path.display())));
    }
    let games = read_games(&games_path)?;
    let times_path = dir.join(TIMES_FILE);
    let times: Vec<TimeRow> = if times_path.is_file() {
        read_rows(&times_path)?
    } else {
        Vec::new()
    };
    let (labels, games) = fow_analysis::labelled(&cfg.players, games);
    out!("{}", thesis_comparison(dir, &cfg, &labels, &games, &times)?);
    Ok(())
}
