//! Training the fog-of-war move network (see `fow_players::nn`) with tch (libtorch).
//!
//! The network is an MLP: [`Architecture::inputs`] inputs (896, or 1792 with the
//! previous view), ReLU hidden layers, 128 outputs (64 origin logits, then 64 destination
//! logits, mover's point of view). Its weights are saved as safetensors named
//! `layers.{i}.weight` (`[out, in]`) and `layers.{i}.bias` (`[out]`), with the
//! architecture as JSON beside them (`weights.json`) and in the safetensors metadata
//! under `"architecture"`, so a plain-Rust loader needs no libtorch.
//!
//! Everything that calls libtorch is behind this crate's `torch` feature (off by
//! default), so `cargo build` and `cargo test --workspace` never need libtorch; without
//! it the crate holds only the pure-Rust parts: the architecture, the settings, the
//! validation split and the move choice used for the top-1 accuracy.
//!
//! Build with the feature (after `scripts/install-libtorch.sh`):
//! `source .libtorch/env.sh && cargo test -p fow-train --features torch`.
//!
//! The parts without libtorch: a run's settings and the network they train, the split of
//! a dataset into training and validation games, the top-1 move choice, and the lines
//! `fow train` prints ([`epochs_head`], [`EpochStats::line`], [`TrainSummary::result_line`]). (Training
//! itself, `train` and `load_model`, needs the feature and libtorch.)
//!
//! ```
//! use fow_players::nn::dataset::Example;
//! use fow_train::{best_pair, split::split, TrainConfig};
//! use fow_variants::{Observation, Position, RuleSet};
//!
//! let config = TrainConfig { hidden: vec![32], ..TrainConfig::default() };
//! config.check()?;
//! assert_eq!(config.architecture().sizes(), [896, 32, 128]);
//!
//! // Four games of three decisions each (first legal move every time).
//! let rules = RuleSet::thesis();
//! let mut examples = Vec::new();
//! for _game in 0..4 {
//!     let mut pos = Position::startpos();
//!     for ply in 0..3 {
//!         let obs = Observation::new(&pos, &rules, ply, None);
//!         let m = obs.legal_moves()[0];
//!         examples.push(Example::new(&obs, &m, None));
//!         pos.play(&m);
//!     }
//! }
//! // Whole games go to validation: here one of the four.
//! let (training, validation) = split(&examples, 0.25, 7);
//! assert_eq!((training.len(), validation.len()), (9, 3));
//!
//! // The network's move: the legal (from, to) pair with the best summed logits.
//! let mut logits = vec![0.0_f32; 128];
//! logits[12] = 2.0; // from e2 (mover's point of view)
//! logits[64 + 28] = 1.0; // to e4
//! assert_eq!(best_pair(&logits, &[(12, 20), (12, 28), (6, 21)]), Some((12, 28)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

use std::fmt;

use fow_players::nn::dataset::Example;
use fow_players::nn::encode::{active_inputs, VIEW_INPUTS};
use serde::{Deserialize, Serialize};

mod report;
pub mod split;
#[cfg(feature = "torch")]
mod torch;
pub use report::epochs_head;
#[cfg(feature = "torch")]
pub use torch::{load_model, train, Model};

/// Outputs of the network: 64 origin logits, then 64 destination logits.
pub const OUTPUTS: usize = 128;

/// File names written into the output folder.
pub const WEIGHTS_FILE: &str = "weights.safetensors";
/// The architecture of `weights.safetensors`.
pub const ARCHITECTURE_FILE: &str = "weights.json";
/// One row per epoch: `epoch,train_loss,val_loss,val_top1`.
pub const LOG_FILE: &str = "log.csv";
/// The weights after the last finished epoch (for `--resume`).
pub const CHECKPOINT_WEIGHTS_FILE: &str = "checkpoint.safetensors";
/// The state of the run after the last finished epoch (for `--resume`).
pub const CHECKPOINT_FILE: &str = "checkpoint.json";

/// The network's shape, as written to `weights.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Architecture {
    /// Number of inputs: 896, or 1792 with `previous`.
    pub inputs: usize,
    /// Whether the view after the mover's previous move is an input.
    pub previous: bool,
    /// Sizes of the hidden layers.
    pub hidden: Vec<usize>,
    /// Number of outputs (128).
    pub outputs: usize,
}

impl Architecture {
    /// The architecture with these hidden layers.
    pub fn new(previous: bool, hidden: &[usize]) -> Architecture {
        Architecture {
            inputs: if previous {
                2 * VIEW_INPUTS
            } else {
                VIEW_INPUTS
            },
            previous,
            hidden: hidden.to_vec(),
            outputs: OUTPUTS,
        }
    }

    /// Layer widths from input to output.
    pub fn sizes(&self) -> Vec<usize> {
        let mut s = vec![self.inputs];
        s.extend(&self.hidden);
        s.push(self.outputs);
        s
    }

    /// Writes the dense input row of `e` (zeros and ones) into `row`
    /// (`row.len() == self.inputs`, zeroed by the caller).
    pub fn fill_inputs(&self, e: &Example, row: &mut [f32], scratch: &mut Vec<usize>) {
        active_inputs(&e.now, self.previous.then_some(&e.prev), scratch);
        for &i in scratch.iter() {
            row[i] = 1.0;
        }
    }
}

/// Settings of a training run (the `fow train` options).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainConfig {
    /// Hidden layer sizes.
    pub hidden: Vec<usize>,
    /// Feed the view after the mover's previous move too.
    pub previous: bool,
    /// Adam's learning rate.
    pub lr: f64,
    /// Mini-batch size.
    pub batch: usize,
    /// Fraction of the games held out for validation.
    pub validation: f64,
    /// Seed of the initial weights, the split and the shuffling.
    pub seed: u64,
    /// Most epochs to run.
    pub epochs: u32,
    /// Stop after this many epochs without a better validation loss.
    pub patience: u32,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            hidden: vec![64, 64],
            previous: false,
            lr: 1e-3,
            batch: 256,
            validation: 0.1,
            seed: 2023,
            epochs: 40,
            patience: 5,
        }
    }
}

impl TrainConfig {
    /// Checks the settings; the error says which one is wrong.
    pub fn check(&self) -> Result<(), TrainError> {
        let bad = |m: &str| Err(TrainError::Input(m.to_string()));
        if self.hidden.contains(&0) {
            return bad("hidden layer sizes must be positive");
        }
        if !(self.lr > 0.0 && self.lr.is_finite()) {
            return bad("the learning rate must be positive");
        }
        if self.batch == 0 {
            return bad("the batch size must be positive");
        }
        if !(0.0..1.0).contains(&self.validation) {
            return bad("the validation fraction must be in [0, 1)");
        }
        if self.epochs == 0 {
            return bad("at least one epoch is needed");
        }
        Ok(())
    }

    /// The architecture these settings train.
    pub fn architecture(&self) -> Architecture {
        Architecture::new(self.previous, &self.hidden)
    }
}

/// The figures of one finished epoch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpochStats {
    /// 1-based epoch number.
    pub epoch: u32,
    /// Mean training loss over the epoch (origin plus destination cross-entropy).
    pub train_loss: f64,
    /// Validation loss (NaN without a validation set).
    pub val_loss: f64,
    /// Share of validation examples whose played move is the network's best-scoring
    /// legal move (NaN without a validation set).
    pub val_top1: f64,
    /// Wall-clock seconds of the epoch's training steps.
    pub train_seconds: f64,
    /// Training examples per second during the epoch.
    pub examples_per_second: f64,
    /// Whether this epoch's weights are the best so far (and were saved).
    pub best: bool,
}

/// What a finished run reports.
#[derive(Clone, Debug)]
pub struct TrainSummary {
    /// Every epoch, the resumed ones included.
    pub history: Vec<EpochStats>,
    /// The epoch whose weights are in `weights.safetensors`.
    pub best_epoch: u32,
    /// Whether early stopping ended the run before `epochs`.
    pub stopped_early: bool,
    /// Training and validation example counts.
    pub train_examples: usize,
    /// Validation examples.
    pub val_examples: usize,
    /// The device trained on (`Cpu` or `Cuda(0)`).
    pub device: String,
}

/// A training failure.
#[derive(Debug)]
pub enum TrainError {
    /// Bad settings or data.
    Input(String),
    /// Files could not be read or written, or libtorch failed.
    Failed(String),
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::Input(m) | TrainError::Failed(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for TrainError {}

/// The legal (from, to) pair with the highest score `logits[from] + logits[64 + to]`
/// (the same order as `log_softmax(from)[f] + log_softmax(to)[t]`); the first one on ties,
/// `None` when there is none.
pub fn best_pair(logits: &[f32], pairs: &[(u8, u8)]) -> Option<(u8, u8)> {
    let mut best: Option<((u8, u8), f32)> = None;
    for &(f, t) in pairs {
        let s = logits[f as usize] + logits[64 + t as usize];
        if best.is_none_or(|(_, b)| s > b) {
            best = Some(((f, t), s));
        }
    }
    best.map(|b| b.0)
}

/// Writes `log.csv` text for `history`.
pub fn log_csv(history: &[EpochStats]) -> String {
    let mut s = String::from("epoch,train_loss,val_loss,val_top1\n");
    for e in history {
        s.push_str(&format!(
            "{},{:.6},{:.6},{:.6}\n",
            e.epoch, e.train_loss, e.val_loss, e.val_top1
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn architecture_sizes_and_json() {
        let a = Architecture::new(true, &[64, 32]);
        assert_eq!(a.sizes(), vec![1792, 64, 32, 128]);
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(
            json,
            r#"{"inputs":1792,"previous":true,"hidden":[64,32],"outputs":128}"#
        );
        assert_eq!(Architecture::new(false, &[]).sizes(), vec![896, 128]);
    }

    #[test]
    fn best_pair_scores_from_plus_to() {
        let mut logits = vec![0.0f32; 128];
        logits[12] = 1.0; // from e2
        logits[64 + 28] = 0.5; // to e4
        logits[6] = 0.8; // from g1
        logits[64 + 21] = 1.0; // to f3
        let pairs = [(12, 20), (12, 28), (6, 21)];
        assert_eq!(best_pair(&logits, &pairs), Some((6, 21))); // 1.8 > 1.5
        assert_eq!(best_pair(&logits, &[]), None);
        assert_eq!(best_pair(&logits, &[(0, 1), (1, 0)]), Some((0, 1)));
    }

    #[test]
    fn config_checks() {
        assert!(TrainConfig::default().check().is_ok());
        let bad = TrainConfig {
            validation: 1.0,
            ..TrainConfig::default()
        };
        assert!(bad.check().unwrap_err().to_string().contains("validation"));
        let bad = TrainConfig {
            hidden: vec![0],
            ..TrainConfig::default()
        };
        assert!(bad.check().is_err());
    }
}
