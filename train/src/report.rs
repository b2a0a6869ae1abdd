//! What `fow train` prints: the head of the per-epoch table, one line per epoch and the
//! run's result (pure Rust, so tested without libtorch).

use std::path::Path;

use fow_players::nn::dataset::DatasetHeader;

use crate::{EpochStats, TrainError, TrainSummary, WEIGHTS_FILE};

/// The line above the per-epoch lines: the dataset's size, selection and rules, then the
/// columns.
pub fn epochs_head(header: &DatasetHeader, examples: usize) -> String {
    format!(
        "{examples} examples ({}), rules {}; epoch train_loss val_loss val_top1 examples/s",
        header.selection,
        header.rules.name()
    )
}

impl EpochStats {
    /// The epoch's line under [`epochs_head`]: its number, losses, top-1 rate, speed, and
    /// `best` when its weights were kept.
    pub fn line(&self) -> String {
        format!(
            "{:>5} {:>10.4} {:>8.4} {:>8.4} {:>10.0}{}",
            self.epoch,
            self.train_loss,
            self.val_loss,
            self.val_top1,
            self.examples_per_second,
            if self.best { "  best" } else { "" }
        )
    }
}

impl TrainSummary {
    /// The run's result in a line: the best epoch and its losses, the example counts and
    /// the weights file in `out`. A run without a finite loss in any epoch has no best
    /// epoch: a failure.
    pub fn result_line(&self, out: &Path) -> Result<String, TrainError> {
        let Some(best) = self.history.iter().find(|e| e.epoch == self.best_epoch) else {
            return Err(TrainError::Failed("no epoch gave a finite loss".into()));
        };
        Ok(format!(
            "best epoch {} of {}{} on {}: train loss {:.4}, validation loss {:.4}, validation top-1 {:.1}% ({} training, {} validation examples); wrote {}",
            self.best_epoch,
            self.history.len(),
            if self.stopped_early { " (stopped early)" } else { "" },
            self.device,
            best.train_loss,
            best.val_loss,
            100.0 * best.val_top1,
            self.train_examples,
            self.val_examples,
            out.join(WEIGHTS_FILE).display()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::RuleSet;

    fn epoch(epoch: u32, best: bool) -> EpochStats {
        EpochStats {
            epoch,
            train_loss: 2.5,
            val_loss: 2.75,
            val_top1: 0.125,
            train_seconds: 1.0,
            examples_per_second: 1234.4,
            best,
        }
    }

    #[test]
    fn lines_of_a_run() {
        let header = DatasetHeader {
            examples: 10,
            sources: Vec::new(),
            selection: "both sides".into(),
            rules: RuleSet::chesscom(),
        };
        assert_eq!(
            epochs_head(&header, 10),
            "10 examples (both sides), rules chesscom; epoch train_loss val_loss val_top1 examples/s"
        );
        assert_eq!(
            epoch(3, true).line(),
            "    3     2.5000   2.7500   0.1250       1234  best"
        );
        assert_eq!(
            epoch(4, false).line(),
            "    4     2.5000   2.7500   0.1250       1234"
        );
        let mut summary = TrainSummary {
            history: vec![epoch(1, true), epoch(2, false)],
            best_epoch: 1,
            stopped_early: true,
            train_examples: 9,
            val_examples: 1,
            device: "Cpu".into(),
        };
        assert_eq!(
            summary.result_line(Path::new("run")).unwrap(),
            "best epoch 1 of 2 (stopped early) on Cpu: train loss 2.5000, validation loss 2.7500, validation top-1 12.5% (9 training, 1 validation examples); wrote run/weights.safetensors"
        );
        summary.best_epoch = 0;
        let err = summary.result_line(Path::new("run")).unwrap_err();
        assert!(matches!(err, TrainError::Failed(m) if m == "no epoch gave a finite loss"));
    }
}
