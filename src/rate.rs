//! `fow rate`: rating fits for a `games.csv` or a thesis-style result matrix.

use std::path::PathBuf;

use fow_ratings::parse_match_matrix;

use crate::error::{input, CliError};
use fow_analysis::{fit, matrix_of, report, Method};

/// Fit ratings to recorded results.
///
/// FILE is a results folder or its `games.csv` (every game is checked against its rules
/// and its tournament's schedule first), or a matrix like the thesis's
/// `match_results.txt` (row i, column j: `(wins/draws/losses)` of i as White against j).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The results folder or file.
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
}

/// Reads the file, fits and prints.
pub fn run(mut a: Args) -> Result<(), CliError> {
    a.file = fow_records::games_csv_of(&a.file);
    let text = std::fs::read(&a.file).map_err(|e| input(format!("{}: {e}", a.file.display())))?;
    let is_games_csv = a.file.extension().is_some_and(|x| x == "csv") || text.starts_with(b"id,");
    let m = if is_games_csv {
        let games = fow_records::read_games(&a.file)?;
        let mut players: Vec<String> = Vec::new();
        for g in &games {
            for p in [&g.white, &g.black] {
                if !players.contains(p) {
                    players.push(p.clone());
                }
            }
        }
        if let Some(order) = &a.names {
            if order.len() != players.len() || !players.iter().all(|p| order.contains(p)) {
                return Err(input(format!(
                    "--names must list exactly the players of {}: {}",
                    a.file.display(),
                    players.join(", ")
                )));
            }
            players = order.clone();
        }
        matrix_of(&players, &games)?
    } else {
        let text = String::from_utf8(text)
            .map_err(|e| input(format!("{}: not text: {e}", a.file.display())))?;
        parse_match_matrix(&text, a.names.clone())
            .map_err(|e| input(format!("{}: {e}", a.file.display())))?
    };
    if m.total_games() == 0 {
        return Err(input(format!("{}: no games", a.file.display())));
    }
    let fits = fit(&m, a.anchor.as_deref(), a.method)?;
    if let Some(dir) = &a.out {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::Failed(format!("{}: {e}", dir.display())))?;
    }
    out!("{}", report(&m, &fits, None, a.out.as_deref())?);
    Ok(())
}
