//! Converts the thesis's `nn.txt` into fow's network format, once (see
//! `fow_players::nn::thesis`). From the repository root:
//!
//! ```text
//! cargo run -p fow-players --example convert_thesis_nn -- \
//!     ../shared/data/thesis/nn.txt data/thesis/nn-thesis.safetensors
//! ```
//!
//! Writes the `.safetensors` file (the architecture, a sigmoid 896-64-64-128 network, in
//! its metadata) and prints its size.

use std::path::PathBuf;
use std::process::ExitCode;

use fow_players::nn::thesis::{convert, ThesisGraph, SHIPPED_FILE};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (input, output) = match args.as_slice() {
        [i] => (PathBuf::from(i), PathBuf::from(SHIPPED_FILE)),
        [i, o] => (PathBuf::from(i), PathBuf::from(o)),
        _ => {
            eprintln!(
                "usage: convert_thesis_nn NN_TXT [OUT.safetensors] (default out: {SHIPPED_FILE})"
            );
            return ExitCode::from(2);
        }
    };
    let result = ThesisGraph::load(&input)
        .and_then(|g| convert(&g))
        .and_then(|net| net.save_safetensors(&output));
    match result {
        Ok(()) => {
            let size = std::fs::metadata(&output).map(|m| m.len()).unwrap_or(0);
            println!("{} -> {} ({size} bytes)", input.display(), output.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("convert_thesis_nn: {e}");
            ExitCode::FAILURE
        }
    }
}
