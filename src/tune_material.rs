//! `fow tune-material`: piece values fitted to game results by logistic regression.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use fow_analysis::{
    pgn_samples, row_samples, Draws, MaterialOptions, MaterialSample, MATERIAL_NAMES,
};
use fow_ratings::{fit_logistic, LogisticOptions};
use fow_records::read_games;
use fow_variants::{read_pgn, RuleSet};
use serde_json::json;

use crate::error::{input, CliError};
use crate::inputs::{pgn_files, tournament_rules};
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

/// Samples and game counts gathered from the inputs.
#[derive(Default)]
struct Gathered {
    features: Vec<[f64; 5]>,
    labels: Vec<f64>,
    games: usize,
    left_out: usize,
    /// `games.csv` rows already read (players, seed, start, moves): a game recorded in
    /// two inputs counts once.
    seen: HashSet<(String, String, u64, String, String)>,
    duplicates: usize,
}

impl Gathered {
    fn add(&mut self, samples: Option<Vec<MaterialSample>>) {
        match samples {
            None => self.left_out += 1,
            Some(s) => {
                self.games += 1;
                for x in s {
                    self.features.push(x.features);
                    self.labels.push(x.label);
                }
            }
        }
    }
}

/// Refuses inputs that leave nothing to fit: no decided game, no sample, or no sample
/// with a material difference (then every value would be the L2 prior's 0).
fn nothing_to_fit(acc: &Gathered, opts: &MaterialOptions) -> Result<(), CliError> {
    let draws = if opts.draws == Draws::Skip {
        ", draws"
    } else {
        ""
    };
    if acc.games == 0 {
        return Err(input(format!(
            "no game to fit: {} read, all left out (undecided, player faults{draws})",
            count(acc.left_out, "game")
        )));
    }
    let skip = match opts.skip {
        0 => "--skip 0 keeps every position".to_string(),
        1 => "--skip 1 leaves out the position right after each capture".to_string(),
        n => format!("--skip {n} leaves out the positions 1 to {n} plies after each capture"),
    };
    let hint = if opts.skip > 0 { "; lower --skip" } else { "" };
    if acc.features.is_empty() {
        return Err(input(format!(
            "no sample left in {}: {skip}{hint}",
            count(acc.games, "game")
        )));
    }
    if acc.features.iter().all(|f| f.iter().all(|&v| v == 0.0)) {
        return Err(input(format!(
            "none of the {} left in {} has a material difference, so there is nothing to fit ({skip}){hint}",
            count(acc.features.len(), "sample"),
            count(acc.games, "game")
        )));
    }
    Ok(())
}

/// What makes a fit's values mean little, in words: a piece no sample has a difference
/// of (its value is the prior's 0), and a pawn value whose 95% interval reaches 0 or is
/// wide (the values scaled to pawn = 100 divide by it).
fn fit_warnings(features: &[[f64; 5]], values: &[f64], std_errors: &[f64]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, name) in MATERIAL_NAMES.iter().enumerate() {
        if features.iter().all(|f| f[i] == 0.0) {
            out.push(format!(
                "no sample has a {name} difference: its value is the L2 prior's 0, not a fit"
            ));
        }
    }
    let (pawn, se) = (values[0], std_errors[0]);
    let (lo, hi) = (pawn - 1.96 * se, pawn + 1.96 * se);
    if lo <= 0.0 {
        out.push(format!(
            "the pawn's value {pawn:.4} ± {se:.4} (s.e.) is not clearly above 0 (95% interval {lo:.4} to {hi:.4}): the values scaled to pawn = 100 divide by it and mean little"
        ));
    } else if 1.96 * se > 0.5 * pawn {
        out.push(format!(
            "the pawn's value {pawn:.4} ± {se:.4} (s.e.) is uncertain by ±{:.0}% (95%), and so is every value scaled to pawn = 100",
            100.0 * 1.96 * se / pawn
        ));
    }
    out
}

fn preset(name: &str) -> Result<RuleSet, CliError> {
    name.parse().map_err(input)
}

/// Adds the samples of a PGN file's games, each replayed under `forced`, else its own
/// `Rules` tag (fow's PGN), else chesscom; returns the rules met, in order of first use.
fn add_pgn(
    path: &Path,
    forced: Option<RuleSet>,
    opts: &MaterialOptions,
    acc: &mut Gathered,
) -> Result<Vec<RuleSet>, CliError> {
    let mut met = Vec::new();
    let text = fow_records::read_text(path)?;
    let games = read_pgn(&text)
        .map_err(|e| input(format!("{}:{}: {}", path.display(), e.line, e.message)))?;
    for (k, g) in games.iter().enumerate() {
        let rules = match forced {
            Some(r) => r,
            None => fow_records::pgn_rules(g, &RuleSet::chesscom())
                .map_err(|m| input(format!("{}:{}: {m}", path.display(), g.line)))?,
        };
        if !met.contains(&rules) {
            met.push(rules);
        }
        let samples = pgn_samples(g, &rules, opts).map_err(|e| {
            input(format!(
                "{}:{}: game {}: {} (rules {rules})",
                path.display(),
                e.line,
                k + 1,
                e.message
            ))
        })?;
        acc.add(samples);
    }
    Ok(met)
}

fn add_games_csv(
    path: &Path,
    rules: &RuleSet,
    opts: &MaterialOptions,
    acc: &mut Gathered,
) -> Result<(), CliError> {
    let rows = read_games(path).map_err(input)?;
    for (i, row) in rows.iter().enumerate() {
        let key = (
            row.white.clone(),
            row.black.clone(),
            row.seed,
            row.start.clone(),
            row.moves.clone(),
        );
        if !acc.seen.insert(key) {
            acc.duplicates += 1;
            continue;
        }
        let samples = row_samples(row, rules, opts)
            .map_err(|e| input(format!("{}:{}: {e}", path.display(), i + 2)))?;
        acc.add(samples);
    }
    Ok(())
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
    let mut acc = Gathered::default();
    let mut rules_used = Vec::new();
    for path in &a.inputs {
        if !path.exists() {
            return Err(input(format!("{}: no such file or folder", path.display())));
        }
        let path = &fow_records::games_csv_of(path);
        let is_pgn = path.is_dir() || path.extension().is_some_and(|x| x == "pgn");
        let rules = if is_pgn {
            let mut met: Vec<RuleSet> = Vec::new();
            for file in pgn_files(path)? {
                for r in add_pgn(&file, forced, &opts, &mut acc)? {
                    if !met.contains(&r) {
                        met.push(r);
                    }
                }
            }
            if met.is_empty() {
                "(no games)".to_string()
            } else {
                met.iter()
                    .map(|r| r.to_string())
                    .collect::<Vec<_>>()
                    .join(" + ")
            }
        } else {
            let rules = match forced {
                Some(r) => r,
                None => tournament_rules(path)?,
            };
            add_games_csv(path, &rules, &opts, &mut acc)?;
            rules.to_string()
        };
        outln!("{}: rules {rules}", path.display());
        rules_used.push(rules);
    }
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
        std::fs::write(out, text)
            .map_err(|e| CliError::Failed(format!("{}: {e}", out.display())))?;
        outln!("written to {}", out.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::fit_warnings;

    #[test]
    fn warnings_say_when_values_mean_little() {
        let some = [[1.0, 0.0, 1.0, -1.0, 1.0], [0.0, 1.0, 0.0, 0.0, 0.0]];
        let good = [0.2, 0.6, 0.6, 0.3, 0.7];
        let small = [0.01; 5];
        assert!(fit_warnings(&some, &good, &small).is_empty());
        // The chess.com games' pawn: its interval reaches below 0.
        let w = fit_warnings(&some, &[0.1565, 1.8, 2.3, 4.3, 4.8], &[0.0843; 5]);
        assert_eq!(w.len(), 1);
        assert!(
            w[0].contains("not clearly above 0 (95% interval -0.0087 to 0.3217)"),
            "{w:?}"
        );
        // Clearly positive but wide: ±98% at 95%.
        let w = fit_warnings(&some, &good, &[0.1; 5]);
        assert!(w[0].contains("uncertain by ±98% (95%)"), "{w:?}");
        // No sample with a queen difference: its value is only the prior's.
        let no_queen = [[1.0, 0.0, 1.0, -1.0, 0.0], [0.0, 1.0, 0.0, 0.0, 0.0]];
        let w = fit_warnings(&no_queen, &good, &small);
        assert_eq!(
            w,
            ["no sample has a queen difference: its value is the L2 prior's 0, not a fit"]
        );
    }
}
