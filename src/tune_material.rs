//! `fow tune-material`: piece values fitted to game results by logistic regression.

use std::path::PathBuf;

use fow_analysis::{
    fit_warnings, gather_material, nothing_to_fit, Draws, MaterialOptions, MATERIAL_NAMES,
};
use fow_ratings::{fit_logistic, LogisticOptions};
use fow_variants::RuleSet;
use serde_json::json;

use crate::error::{input, CliError};
use crate::out::count;

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
    #[arg(long, value_enum, default_value_t = DrawsArg::Half)]
    pub draws: DrawsArg,
}

/// `--draws`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawsArg {
    /// Draws count as half a win (label 0.5).
    Half,
    /// Drawn games are left out.
    Skip,
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
        draws: match a.draws {
            DrawsArg::Half => Draws::Half,
            DrawsArg::Skip => Draws::Skip,
        },
    };
    let forced = a.rules.as_deref().map(preset).transpose()?;
    let acc = gather_material(&a.inputs, forced, &opts, |path, rules| {
        outln!("{}: rules {rules}", path.display());
    })?;
    let rules_used = &acc.rules;
    nothing_to_fit(&acc, &opts)?;
    let fit = fit_logistic(
        &acc.features,
        &acc.labels,
        &LogisticOptions {
            l2: a.l2,
            ..LogisticOptions::default()
        },
    )
    .map_err(|e| input(format!("cannot fit: {e}")))?;

    outln!(
        "{} ({} left out: undecided, player faults{}; {} skipped), {} (positions not within {} {} after a capture)",
        count(acc.games, "game"),
        acc.left_out,
        if opts.draws == Draws::Skip { ", draws" } else { "" },
        count(acc.duplicates, "duplicate"),
        count(fit.samples, "sample"),
        a.skip,
        if a.skip == 1 { "ply" } else { "plies" }
    );
    outln!(
        "logistic fit without intercept, L2 {}: {} Newton steps, log-loss {:.4} per sample (coin flip {:.4})",
        a.l2,
        fit.iterations,
        fit.log_loss,
        std::f64::consts::LN_2
    );
    let pawn = fit.coefficients[0];
    // Scaled values only mean something when the pawn's value is positive.
    let scaled: Vec<Option<f64>> = fit
        .coefficients
        .iter()
        .map(|c| (pawn > 0.0).then(|| 100.0 * c / pawn))
        .collect();
    outln!();
    outln!("piece      logit   ±s.e.  pawn=100");
    for i in 0..5 {
        outln!(
            "{:<7} {:>8.4} {:>7.4} {:>9}",
            MATERIAL_NAMES[i],
            fit.coefficients[i],
            fit.std_errors[i],
            scaled[i].map_or("-".to_string(), |v| format!("{v:.0}"))
        );
    }
    outln!(
        "(s.e. treat positions as independent; positions of one game are not, so they are too small)"
    );
    for w in fit_warnings(&acc.features, &fit.coefficients, &fit.std_errors) {
        outln!("warning: {w}");
    }

    if let Some(out) = &a.out {
        let js = |v: serde_json::Value| v.to_string();
        let per_piece = |prefix: &str, v: &dyn Fn(usize) -> serde_json::Value| {
            let body: Vec<String> = (0..5)
                .map(|i| format!("    \"{prefix}{}\": {}", MATERIAL_NAMES[i], js(v(i))))
                .collect();
            format!("{{\n{}\n  }}", body.join(",\n"))
        };
        let sources: Vec<String> = a.inputs.iter().map(|p| p.display().to_string()).collect();
        let draws = if opts.draws == Draws::Half {
            "half"
        } else {
            "skip"
        };
        let fields = [
            ("source", js(json!(sources))),
            ("rules", js(json!(rules_used))),
            ("games", js(json!(acc.games))),
            ("samples", js(json!(fit.samples))),
            ("skip", js(json!(a.skip))),
            ("l2", js(json!(a.l2))),
            ("draws", js(json!(draws))),
            ("iterations", js(json!(fit.iterations))),
            ("log_loss", js(json!(fit.log_loss))),
            (
                "values",
                per_piece("capture.", &|i| json!(fit.coefficients[i])),
            ),
            ("std_errors", per_piece("", &|i| json!(fit.std_errors[i]))),
            (
                "pawn_100",
                per_piece("", &|i| json!(scaled[i].map(|v| v.round() as i64))),
            ),
        ];
        let body: Vec<String> = fields
            .iter()
            .map(|(k, v)| format!("  \"{k}\": {v}"))
            .collect();
        let text = format!("{{\n{}\n}}\n", body.join(",\n"));
        std::fs::write(out, text).map_err(crate::error::io(out))?;
        outln!("written to {}", out.display());
    }
    Ok(())
}

fn preset(name: &str) -> Result<RuleSet, CliError> {
    name.parse().map_err(input)
}
