//! `fow train`: trains the move network on a dataset (needs the `torch` feature).

use std::path::PathBuf;

use crate::error::CliError;

/// Train the move network on a dataset (`fow dataset`) with libtorch.
///
/// An MLP (896 inputs, or 1792 with --previous; ReLU hidden layers; 64 origin + 64
/// destination logits) learns the played moves: cross-entropy of the origin plus
/// cross-entropy of the destination, Adam, mini-batches. Whole games go to the
/// validation split (seeded); training stops after --epochs or when the validation loss
/// has not improved for --patience epochs, keeping the best epoch's weights. Uses the GPU
/// when libtorch sees one. Writes DIR/weights.safetensors + DIR/weights.json (the best
/// epoch), DIR/log.csv, DIR/curve.svg and a checkpoint after every epoch
/// (DIR/checkpoint.*; --resume continues from it with fresh Adam moments).
///
/// Needs a build with `--features torch` (after `scripts/install-libtorch.sh`).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The dataset file.
    #[arg(value_name = "DATASET")]
    pub dataset: PathBuf,
    /// Output folder.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Hidden layer sizes, comma-separated.
    #[arg(
        long,
        default_value = "64,64",
        value_delimiter = ',',
        value_name = "N,N"
    )]
    pub hidden: Vec<usize>,
    /// Also feed the view after the mover's previous move (1792 inputs).
    #[arg(long)]
    pub previous: bool,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 1e-3)]
    pub lr: f64,
    /// Mini-batch size.
    #[arg(long, default_value_t = 256)]
    pub batch: usize,
    /// Fraction of the examples held out for validation (whole games).
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    /// Seed of the initial weights, the validation split and the shuffling.
    #[arg(long, default_value_t = 2023)]
    pub seed: u64,
    /// Most epochs.
    #[arg(long, default_value_t = 40)]
    pub epochs: u32,
    /// Stop after this many epochs without a better validation loss.
    #[arg(long, default_value_t = 5)]
    pub patience: u32,
    /// Continue the run in --out from its last checkpoint (its stored settings; --epochs
    /// may raise the number of epochs).
    #[arg(long)]
    pub resume: bool,
    /// No per-epoch lines.
    #[arg(long, short)]
    pub quiet: bool,
}

#[cfg(not(feature = "torch"))]
pub fn run(_: Args) -> Result<(), CliError> {
    Err(CliError::Input(
        "fow train needs libtorch: run scripts/install-libtorch.sh, then build with \
         `cargo build --release --features torch` (see docs/src/training.md)"
            .into(),
    ))
}

#[cfg(feature = "torch")]
pub fn run(a: Args) -> Result<(), CliError> {
    use fow_train::{epochs_head, TrainConfig, TrainError};

    let (header, examples) =
        fow_players::nn::dataset::read_dataset_file(&a.dataset).map_err(crate::error::input)?;
    let config = TrainConfig {
        hidden: a.hidden,
        previous: a.previous,
        lr: a.lr,
        batch: a.batch,
        validation: a.validation,
        seed: a.seed,
        epochs: a.epochs,
        patience: a.patience,
    };
    if !a.quiet {
        eprintln!("{}", epochs_head(&header, examples.len()));
    }
    let quiet = a.quiet;
    let failed = |e: TrainError| match e {
        TrainError::Input(m) => CliError::Input(m),
        TrainError::Failed(m) => CliError::Failed(m),
    };
    let summary = fow_train::train(&header, &examples, &config, &a.out, a.resume, &mut |e| {
        if !quiet {
            eprintln!("{}", e.line());
        }
    })
    .map_err(failed)?;
    let points: Vec<_> = summary
        .history
        .iter()
        .map(|e| (e.epoch, e.train_loss, e.val_loss, e.val_top1))
        .collect();
    fow_analysis::training_plot(&a.out.join("curve.svg"), &points)?;
    outln!("{}", summary.result_line(&a.out).map_err(failed)?);
    Ok(())
}
