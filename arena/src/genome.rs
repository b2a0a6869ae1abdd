//! What an evolution varies ([`Genome`]): the vector of a parametrized bot (a
//! [`Family`], PositionaryEvaluator's 389 numbers), or the named parameters of any
//! tunable player (a [`TuneSpace`], as `fow tune --method ga` evolves them).

use fow_players::tune::TuneSpace;
use fow_players::{Family, Player};
use fow_records::RecordError;
use rand::Rng;
use rand_pcg::Pcg64Mcg;

/// What an evolution varies, and how an individual plays.
#[derive(Clone)]
pub enum Genome {
    /// A parametrized bot's whole vector.
    Family(Family),
    /// A tune space's parameters, each within its range.
    Space(TuneSpace),
}

impl Genome {
    /// The player of the individual `values`.
    pub fn build(&self, values: &[f64]) -> Result<Box<dyn Player>, RecordError> {
        match self {
            Genome::Family(f) => f
                .build(values)
                .map_err(|e| RecordError::Settings(e.to_string())),
            Genome::Space(s) => Ok(s.build(values)?),
        }
    }

    /// How many numbers an individual has.
    pub fn len(&self) -> usize {
        match self {
            Genome::Family(f) => (f.param_names)().len(),
            Genome::Space(s) => s.params.len(),
        }
    }

    /// Whether an individual has no numbers (never: a genome has at least one).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `parent` plus uniform noise in [-step/2, step/2] on every number; for a tune
    /// space the noise is a share of each parameter's range (`step` 0.1: up to a
    /// twentieth of the range either way) and the result is clamped to the range.
    pub fn mutant(&self, parent: &[f64], step: f64, rng: &mut Pcg64Mcg) -> Vec<f64> {
        match self {
            Genome::Family(_) => parent
                .iter()
                .map(|v| v + (rng.random::<f64>() - 0.5) * step)
                .collect(),
            Genome::Space(s) => s
                .params
                .iter()
                .zip(parent)
                .map(|(p, v)| {
                    (v + (rng.random::<f64>() - 0.5) * step * (p.max - p.min)).clamp(p.min, p.max)
                })
                .collect(),
        }
    }

    /// The individual `values` as a JSON file: the family's named values, or the tuned
    /// parameters with the player spec that plays them.
    pub fn to_json(&self, values: &[f64]) -> String {
        match self {
            Genome::Family(f) => f.to_json(values),
            Genome::Space(s) => {
                let named: serde_json::Map<String, serde_json::Value> = s
                    .params
                    .iter()
                    .zip(values)
                    .map(|(p, &v)| (p.name.clone(), serde_json::json!(v)))
                    .collect();
                serde_json::to_string_pretty(&serde_json::json!({
                    "player": s.spec(values).to_string(),
                    "values": named,
                }))
                .expect("json")
                    + "\n"
            }
        }
    }
}
