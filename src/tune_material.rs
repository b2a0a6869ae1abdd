//! `fow tune-material`: piece values fitted to game results by logistic regression.

use std::path::PathBuf;

use fow_analysis::{gather_material, Draws, MaterialFit, MaterialOptions};
use fow_variants::RuleSet;

use crate::error::{input, CliError};

/// Fit piece values (pawn..queen) to recorded game results.
///
/// Every position not within --skip plies after a capture gives a sample: own minus enemy
/// counts of pawns, knights, bishops, rooks and queens for the side to move, labelled
/// with that side's score in the game (1, 0.5, 0). A logistic model
/// P(win) = 1 / (1 + exp(-theta . x)) without intercept is fitted with an L2 penalty
/// by Newton's method from zero. Prints theta (logit units) with standard errors and the
/// values scaled to pawn = 100; --out writes them as JSON whose "values" load as a
/// partial parameter file of PositionaryEvaluator (capture.pawn .. capture.queen).
///
/// A game found in several games.csv inputs (same players, seed and moves, as when one
/// tournament's players all took part in another with the same seed) counts once.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Results folders (read as their `games.csv`), `games.csv` files written by `fow
    /// tournament`, `.pgn` files, or folders of `.pgn` files (moves in SAN or long
    /// algebraic notation, as `fow export` and chess.com write fog-of-war games).
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// Rule preset to replay the games under (default: for PGN a game's `Rules` tag as `fow
    /// export` writes it, else chesscom; for a games.csv the rules in the tournament.json
    /// beside it, else thesis).
    #[arg(long, value_name = "PRESET")]
    pub rules: Option<String>,
    /// Leave out the positions 1..N plies after each capture (0 keeps every position).
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub skip: usize,
    /// L2 penalty on the values (the precision of a N(0, 1/L) prior; the log-likelihood is
    /// summed over samples).
    #[arg(long, default_value_t = 1.0, value_name = "L")]
    pub l2: f64,
    /// Write the fit as JSON to this file.
    #[arg(long, value_name = "FILE.json")]
    pub out: Option<PathBuf>,
    /// Drawn games: label their positions 0.5 (half) or leave them out (skip).
    #[arg(long, value_enum, default_value_t = Draws::Half)]
    pub draws: Draws,
}

/// Reads the inputs, fits and prints.
pub fn run(a: Args) -> Result<(), CliError> {
    if !(a.l2 >= 0.0 && a.l2.is_finite()) {
        return Err(input(format!("--l2 must be >= 0, not {}", a.l2)));
    }
    let _lock = a
        .out
        .as_deref()
        .map(crate::inputs::lock_parent)
        .transpose()?;
    let opts = MaterialOptions {
        skip: a.skip,
        draws: a.draws,
    };
    let forced: Option<RuleSet> = a
        .rules
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(input)?;
    let acc = gather_material(&a.inputs, forced, &opts, |path, rules| {
        outln!("{}: rules {rules}", path.display());
    })?;
    let fit = MaterialFit::new(acc, opts, a.l2)?;
    for line in fit.report() {
        outln!("{line}");
    }
    if let Some(out) = &a.out {
        std::fs::write(out, fit.json(&a.inputs)).map_err(crate::error::io(out))?;
        outln!("written to {}", out.display());
    }
    Ok(())
}
