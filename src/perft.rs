//! `fow perft`: count the move tree of a position.

use std::time::Instant;

use fow_variants::{perft, perft_divide, Position};

use crate::error::{input, CliError};
use crate::rules_args::RulesArgs;

/// Count the leaf nodes of the fog-of-war move tree (king captures end a line).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Start position as FEN (default: the standard start).
    #[arg(long)]
    pub fen: Option<String>,
    /// Depth in plies, 1 to 10.
    #[arg(long, short, default_value_t = 4)]
    pub depth: u32,
    /// List each legal move in UCI with its count.
    #[arg(long)]
    pub divide: bool,
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Runs perft and prints the counts.
pub fn run(a: Args) -> Result<(), CliError> {
    let rules = a.rules.rule_set()?;
    let pos = match &a.fen {
        Some(f) => Position::from_fen(f).map_err(input)?,
        None => Position::startpos(),
    };
    if a.depth == 0 || a.depth > 10 {
        return Err(CliError::Input("--depth must be between 1 and 10".into()));
    }
    let t = Instant::now();
    let total = if a.divide {
        let d = perft_divide(&pos, a.depth, &rules);
        for (m, n) in &d {
            outln!("{m}: {n}");
        }
        outln!();
        d.iter().map(|x| x.1).sum()
    } else {
        perft(&pos, a.depth, &rules)
    };
    let secs = t.elapsed().as_secs_f64();
    outln!("perft({}) = {total}", a.depth);
    outln!(
        "{:.3} s, {:.1} M nodes/s ({rules})",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}
