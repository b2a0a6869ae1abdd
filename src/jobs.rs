//! The `--jobs` option shared by the commands that play games in parallel.

use crate::error::{input, CliError};

/// The thread count `--jobs` asks for (at least 1), or all cores when it is absent.
pub fn jobs(asked: Option<usize>) -> Result<usize, CliError> {
    match asked {
        Some(0) => Err(input("--jobs must be at least 1")),
        Some(j) => Ok(j),
        None => Ok(std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)),
    }
}
