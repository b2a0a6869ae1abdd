//! `fow accuracy`: how often the network's first choice is the move played.

use std::path::PathBuf;

use fow_players::bots::NeuralNetworkPlayer;
use fow_players::nn::accuracy::evaluate;
use fow_players::nn::dataset::read_dataset_file;

use crate::error::{input, CliError};

/// Top-1 and top-3 move accuracy of a network on datasets made by `fow dataset`.
///
/// For every example the network scores the legal moves (rebuilt from the example) and
/// the played move's rank is counted; ties count against it. The random mover's expected
/// top-1 is printed beside it. No libtorch needed.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Dataset files.
    #[arg(required = true, value_name = "DATASET")]
    pub datasets: Vec<PathBuf>,
    /// The network's weights: `default` (the shipped network, also without the option),
    /// `thesis` (the thesis's own network) or a `.safetensors` file (architecture in the
    /// `.json` beside it or in its metadata).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
}

/// Prints the accuracy on each dataset.
pub fn run(a: Args) -> Result<(), CliError> {
    let net = match &a.weights {
        Some(p) => NeuralNetworkPlayer::named_network(&p.to_string_lossy()).map_err(input)?,
        None => NeuralNetworkPlayer::default_network(),
    };
    outln!("dataset                                   examples    top-1    top-3   random");
    for path in &a.datasets {
        let (header, examples) = read_dataset_file(path).map_err(input)?;
        let acc = evaluate(&net, &examples, &header.rules);
        outln!(
            "{:<40} {:>9} {:>7.1}% {:>7.1}% {:>7.1}%",
            path.display().to_string(),
            acc.examples,
            100.0 * acc.top1_rate(),
            100.0 * acc.top3_rate(),
            100.0 * acc.random_rate()
        );
    }
    Ok(())
}
