//! `fow rate`: rating fits for a `games.csv` or a thesis-style result matrix.

use std::path::PathBuf;

use fow_analysis::{fit, report, results_matrix, Method};

use crate::error::CliError;
use crate::rules_args::RulesArgs;

/// Fit ratings to recorded results.
///
/// FILE is what `fow replay` and `fow export` read, a results folder, its `games.csv`, a
/// PGN file or a folder of PGN files (every game is checked against its rules, and a
/// tournament's against its schedule, first; undecided PGN games are left out), or a
/// matrix like the thesis's `match_results.txt` (row i, column j: `(wins/draws/losses)`
/// of i as White against j).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The results folder, games.csv, PGN file or folder, or matrix file.
    pub file: PathBuf,
    /// Columns beside the default fit (BayesElo's model with 95% intervals): thesis (the
    /// thesis's iterative Elo, K = 1; also shown when it disagrees with the default fit), mle
    /// (maximum likelihood counting a draw as half a win) or both.
    #[arg(long, value_enum, default_value_t = Method::Bayeselo)]
    pub method: Method,
    /// Fix one player's rating: NAME=VALUE (VALUE defaults to 0). Without it the ratings are
    /// relative to the pool average, and the thesis and MLE columns have RandomMove = 0 (else
    /// the first rated player).
    #[arg(long, value_name = "NAME=VALUE")]
    pub anchor: Option<String>,
    /// Player names for a matrix file, in row order (default P1, P2, ...).
    #[arg(long, value_delimiter = ',', value_name = "A,B,...")]
    pub names: Option<Vec<String>>,
    /// Write crosstable.csv, ratings.csv and los.csv into this folder.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Rules for PGN games without a Rules tag or chess.com's Fog of War variant tag
    /// (results folders and games.csv use their tournament.json).
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Reads the file, fits and prints.
pub fn run(a: Args) -> Result<(), CliError> {
    let rules = a.rules.rule_set()?;
    let m = results_matrix(&a.file, &rules, a.names.as_deref(), &mut |note| {
        outln!("{note}")
    })?;
    let fits = fit(&m, a.anchor.as_deref(), a.method)?;
    // The folder's lock (made if needed), held while its tables are written.
    let _lock = a.out.as_deref().map(fow_records::lock_folder).transpose()?;
    out!("{}", report(&m, &fits, None, a.out.as_deref())?);
    Ok(())
}
