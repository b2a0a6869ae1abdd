//! The material samples of many inputs for `fow tune-material`: games from results
//! folders, `games.csv` files and PGN, each game once, and what makes a fit of them mean
//! little.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use fow_records::{games_csv_of, pgn_files, read_games, rules_beside};
use fow_variants::{read_pgn, RuleSet};

use crate::error::{input, ReportError};
use crate::material::{
    pgn_samples, row_samples, Draws, MaterialOptions, MaterialSample, MATERIAL_NAMES,
};
use fow_records::count;

/// Reads every input (a results folder, a `games.csv`, a PGN file or a folder of them)
/// and gathers its material samples under `opts`: PGN games replayed under `forced`
/// rules where given, else their `Rules` tag, else chesscom; a games.csv under `forced`,
/// else the rules of the `tournament.json` beside it. `each` hears each input's path and
/// its rules in words once it is read. A game found in several games.csv inputs counts
/// once.
pub fn gather_material(
    inputs: &[PathBuf],
    forced: Option<RuleSet>,
    opts: &MaterialOptions,
    mut each: impl FnMut(&Path, &str),
) -> Result<MaterialInputs, ReportError> {
    let mut acc = MaterialInputs::default();
    for path in inputs {
        if !path.exists() {
            return Err(input(format!("{}: no such file or folder", path.display())));
        }
        let path = &games_csv_of(path);
        let is_pgn = path.is_dir() || path.extension().is_some_and(|x| x == "pgn");
        let rules = if is_pgn {
            let mut met: Vec<RuleSet> = Vec::new();
            for file in pgn_files(path)? {
                for r in add_pgn(&file, forced, opts, &mut acc)? {
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
                None => rules_beside(path)?,
            };
            add_games_csv(path, &rules, opts, &mut acc)?;
            rules.to_string()
        };
        each(path, &rules);
        acc.rules.push(rules);
    }
    Ok(acc)
}

/// Samples and game counts gathered from the inputs ([`gather_material`]).
#[derive(Default)]
pub struct MaterialInputs {
    /// Each sample's own minus enemy counts of pawns, knights, bishops, rooks, queens.
    pub features: Vec<[f64; 5]>,
    /// Each sample's score for the side to move (1, 0.5, 0).
    pub labels: Vec<f64>,
    /// Games that gave samples.
    pub games: usize,
    /// Games left out: undecided, ended by a player fault, or drawn under `Draws::Skip`.
    pub left_out: usize,
    /// `games.csv` rows already read (players, seed, start, moves): a game recorded in
    /// two inputs counts once.
    /// Each input's rules in words, in input order.
    pub rules: Vec<String>,
    seen: HashSet<(String, String, u64, String, String)>,
    /// `games.csv` games skipped as already read from another input.
    pub duplicates: usize,
}

impl MaterialInputs {
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
pub fn nothing_to_fit(acc: &MaterialInputs, opts: &MaterialOptions) -> Result<(), ReportError> {
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
pub fn fit_warnings(features: &[[f64; 5]], values: &[f64], std_errors: &[f64]) -> Vec<String> {
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

/// Adds the samples of a PGN file's games, each replayed under `forced`, else its own
/// `Rules` tag (fow's PGN), else chesscom; returns the rules met, in order of first use.
fn add_pgn(
    path: &Path,
    forced: Option<RuleSet>,
    opts: &MaterialOptions,
    acc: &mut MaterialInputs,
) -> Result<Vec<RuleSet>, ReportError> {
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
    acc: &mut MaterialInputs,
) -> Result<(), ReportError> {
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
