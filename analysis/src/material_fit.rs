//! Piece values fitted to the material samples of recorded games (`fow tune-material`):
//! the logistic fit, its report as printed and its JSON file.

use std::path::PathBuf;

use fow_ratings::{fit_logistic, LogisticFit, LogisticOptions};
use serde_json::json;

use crate::error::{input, ReportError};
use crate::material::{Draws, MaterialOptions, MATERIAL_NAMES};
use crate::material_inputs::{fit_warnings, nothing_to_fit, MaterialInputs};
use fow_records::count;

/// A logistic fit of piece values to material samples, with what it was fitted to.
pub struct MaterialFit {
    /// The samples and game counts.
    pub inputs: MaterialInputs,
    /// How the samples were taken.
    pub opts: MaterialOptions,
    /// The L2 penalty of the fit.
    pub l2: f64,
    /// The fit: one value per piece, pawn to queen (logit units), no intercept.
    pub fit: LogisticFit,
}

impl MaterialFit {
    /// Fits P(win) = 1 / (1 + exp(-theta . x)) without intercept to `inputs` with an L2
    /// penalty of `l2`; inputs that leave nothing to fit are bad input.
    pub fn new(
        inputs: MaterialInputs,
        opts: MaterialOptions,
        l2: f64,
    ) -> Result<MaterialFit, ReportError> {
        nothing_to_fit(&inputs, &opts)?;
        let fit = fit_logistic(
            &inputs.features,
            &inputs.labels,
            &LogisticOptions {
                l2,
                ..LogisticOptions::default()
            },
        )
        .map_err(|e| input(format!("cannot fit: {e}")))?;
        Ok(MaterialFit {
            inputs,
            opts,
            l2,
            fit,
        })
    }

    /// The values scaled to pawn = 100; `None` when the pawn's value is not positive
    /// (then they mean nothing).
    pub fn pawn_100(&self) -> Vec<Option<f64>> {
        let pawn = self.fit.coefficients[0];
        self.fit
            .coefficients
            .iter()
            .map(|c| (pawn > 0.0).then(|| 100.0 * c / pawn))
            .collect()
    }

    /// The report as `fow tune-material` prints it: the counts, the fit, a table of the
    /// values with their standard errors and pawn = 100, and warnings, one line each.
    pub fn report(&self) -> Vec<String> {
        let (acc, fit, skip) = (&self.inputs, &self.fit, self.opts.skip);
        let mut lines = vec![
            format!(
                "{} ({} left out: undecided, player faults{}; {} skipped), {} (positions not within {} {} after a capture)",
                count(acc.games, "game"),
                acc.left_out,
                if self.opts.draws == Draws::Skip { ", draws" } else { "" },
                count(acc.duplicates, "duplicate"),
                count(fit.samples, "sample"),
                skip,
                if skip == 1 { "ply" } else { "plies" }
            ),
            format!(
                "logistic fit without intercept, L2 {}: {} Newton steps, log-loss {:.4} per sample (coin flip {:.4})",
                self.l2,
                fit.iterations,
                fit.log_loss,
                std::f64::consts::LN_2
            ),
            String::new(),
            "piece      logit   ±s.e.  pawn=100".to_string(),
        ];
        for (i, scaled) in self.pawn_100().into_iter().enumerate() {
            lines.push(format!(
                "{:<7} {:>8.4} {:>7.4} {:>9}",
                MATERIAL_NAMES[i],
                fit.coefficients[i],
                fit.std_errors[i],
                scaled.map_or("-".to_string(), |v| format!("{v:.0}"))
            ));
        }
        lines.push(
            "(s.e. treat positions as independent; positions of one game are not, so they are too small)"
                .to_string(),
        );
        for w in fit_warnings(&acc.features, &fit.coefficients, &fit.std_errors) {
            lines.push(format!("warning: {w}"));
        }
        lines
    }

    /// The fit as the JSON file `fow tune-material --out` writes, read from `sources`:
    /// its `values` load as a partial parameter file of PositionaryEvaluator
    /// (`capture.pawn` .. `capture.queen`).
    pub fn json(&self, sources: &[PathBuf]) -> String {
        let fit = &self.fit;
        let scaled = self.pawn_100();
        let js = |v: serde_json::Value| v.to_string();
        let per_piece = |prefix: &str, v: &dyn Fn(usize) -> serde_json::Value| {
            let body: Vec<String> = (0..5)
                .map(|i| format!("    \"{prefix}{}\": {}", MATERIAL_NAMES[i], js(v(i))))
                .collect();
            format!("{{\n{}\n  }}", body.join(",\n"))
        };
        let sources: Vec<String> = sources.iter().map(|p| p.display().to_string()).collect();
        let draws = match self.opts.draws {
            Draws::Half => "half",
            Draws::Skip => "skip",
        };
        let fields = [
            ("source", js(json!(sources))),
            ("rules", js(json!(self.inputs.rules))),
            ("games", js(json!(self.inputs.games))),
            ("samples", js(json!(fit.samples))),
            ("skip", js(json!(self.opts.skip))),
            ("l2", js(json!(self.l2))),
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
        format!("{{\n{}\n}}\n", body.join(",\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples where the side a pawn up scores 3 of 4 and a knight up always wins.
    fn inputs() -> MaterialInputs {
        let mut acc = MaterialInputs::default();
        for (x, y) in [
            ([1.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 0.0]),
            ([-1.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]),
            ([0.0, 1.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0]),
            ([0.0, -1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]),
        ] {
            for label in y {
                acc.features.push(x);
                acc.labels.push(label);
            }
        }
        acc.games = 4;
        acc.rules = vec!["thesis".into()];
        acc
    }

    /// The printed report: counts, the fit, the table (pawn = 100, the knight above it),
    /// the note, and a warning for each piece without a difference.
    #[test]
    fn report_has_the_table_and_the_warnings() {
        let fit = MaterialFit::new(inputs(), MaterialOptions::default(), 1.0).expect("fitted");
        let lines = fit.report();
        assert_eq!(
            lines[0],
            "4 games (0 left out: undecided, player faults; 0 duplicates skipped), 16 samples (positions not within 2 plies after a capture)"
        );
        assert!(lines[1].starts_with("logistic fit without intercept, L2 1: "));
        assert_eq!(lines[2], "");
        assert_eq!(lines[3], "piece      logit   ±s.e.  pawn=100");
        assert!(lines[4].starts_with("pawn ") && lines[4].ends_with("       100"));
        let knight: f64 = lines[5].split_whitespace().last().unwrap().parse().unwrap();
        assert!(knight > 100.0, "{}", lines[5]);
        assert!(lines[9].starts_with("(s.e. treat positions"));
        let warnings: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("warning: "))
            .collect();
        assert_eq!(warnings.len(), 3 + 1, "{lines:#?}");
        assert!(warnings[0].contains("no sample has a bishop difference"));
    }

    /// The JSON file: the settings, then the values as PositionaryEvaluator's
    /// `capture.*` parameters, their errors and pawn = 100.
    #[test]
    fn json_loads_as_capture_parameters() {
        let opts = MaterialOptions {
            skip: 0,
            draws: Draws::Skip,
        };
        let fit = MaterialFit::new(inputs(), opts, 0.5).expect("fitted");
        let text = fit.json(&[PathBuf::from("a/games.csv")]);
        let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(v["source"], json!(["a/games.csv"]));
        assert_eq!(v["rules"], json!(["thesis"]));
        assert_eq!(
            (v["games"].clone(), v["samples"].clone()),
            (json!(4), json!(16))
        );
        assert_eq!(
            (v["skip"].clone(), v["draws"].clone()),
            (json!(0), json!("skip"))
        );
        assert_eq!(v["l2"], json!(0.5));
        assert_eq!(v["values"]["capture.pawn"], json!(fit.fit.coefficients[0]));
        assert_eq!(v["pawn_100"]["pawn"], json!(100));
        assert_eq!(v["pawn_100"]["queen"], json!(0));
        assert!(text.starts_with("{\n  \"source\": [\"a/games.csv\"],\n  \"rules\": "));
        assert!(text.ends_with("\n  }\n}\n"));
    }

    /// Nothing to fit is bad input, before any fit.
    #[test]
    fn no_samples_is_bad_input() {
        let mut empty = MaterialInputs::default();
        empty.games = 1;
        let err = MaterialFit::new(empty, MaterialOptions::default(), 1.0).err();
        assert!(matches!(err, Some(ReportError::Input(m)) if m.starts_with("no sample left")));
    }
}
