//! `fow dataset`: recorded games -> training examples for the network.

use std::path::PathBuf;

use fow_analysis::write_examples;
use fow_players::nn::dataset::Example;
use fow_variants::RuleSet;

use crate::error::{input, CliError};

/// Turn recorded games into training examples for the neural network.
///
/// One example per decision of a selected side: what that side saw (its view now and
/// after its previous move) and the move it played, with the game's result. Inputs are
/// `games.csv` files of tournaments (rules from the `tournament.json` beside each) and
/// PGN files or folders of them (rules: --rules, else a game's `Rules` tag as `fow export`
/// writes it, else `chesscom`). The
/// output is a compact binary file (see `fow_players::nn::dataset`); the same inputs
/// give the same file.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Results folders (read as their `games.csv`), `games.csv` files, `.pgn` files or
    /// folders of `.pgn` files.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// Where to write the dataset.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Take only the decisions of this player (a PGN player name such as `oferwald`, or a
    /// bot name / spec in a games.csv such as `PossibleBoardList`); repeatable. Without
    /// it, both sides of every game.
    #[arg(long, value_name = "NAME")]
    pub player: Vec<String>,
    /// Rules for every PGN game, overriding its `Rules` tag (default: the game's `Rules` tag,
    /// else `chesscom`).
    #[arg(long, value_name = "PRESET")]
    pub rules: Option<String>,
}

/// Reads the inputs and writes the dataset.
pub fn run(a: Args) -> Result<(), CliError> {
    let forced: Option<RuleSet> = a
        .rules
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(input)?;
    let _lock = crate::inputs::lock_parent(&a.out)?;
    let (header, gathered) = write_examples(&a.inputs, &a.player, forced, &a.out)?;
    outln!("{}", gathered.summary(&header));
    outln!(
        "written to {} ({} bytes per example)",
        a.out.display(),
        Example::BYTES
    );
    Ok(())
}
