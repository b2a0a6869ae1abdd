//! `fow dataset`: recorded games -> training examples for the network.

use std::path::PathBuf;

use fow_analysis::{gather_examples, Gathered};
use fow_players::nn::dataset::{write_dataset, DatasetHeader, Example};
use fow_variants::RuleSet;

use crate::error::{input, CliError};
use crate::out::count;

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
    let pgn_rules = forced.unwrap_or(RuleSet::chesscom());
    let _lock = crate::inputs::lock_parent(&a.out)?;
    let Gathered {
        examples,
        rules: rules_seen,
        games,
        used,
        duplicates,
    } = gather_examples(&a.inputs, &a.player, forced)?;
    if examples.is_empty() {
        return Err(input(format!(
            "no decisions selected{}",
            if a.player.is_empty() {
                String::new()
            } else {
                format!(" (no side named {})", a.player.join(", "))
            }
        )));
    }
    let header = DatasetHeader {
        examples: examples.len() as u64,
        sources: a.inputs.iter().map(|p| p.display().to_string()).collect(),
        selection: if a.player.is_empty() {
            "both sides".into()
        } else {
            a.player.join(", ")
        },
        rules: rules_seen.unwrap_or(pgn_rules),
    };
    let file = std::fs::File::create(&a.out).map_err(crate::error::io(&a.out))?;
    let mut w = std::io::BufWriter::new(file);
    write_dataset(&mut w, &header, &examples).map_err(crate::error::io(&a.out))?;
    let wins = examples.iter().filter(|e| e.result > 0).count();
    outln!(
        "{} read ({} skipped), {used} used, {} of {} ({:.0}% from won games), rules {}",
        count(games, "game"),
        count(duplicates, "duplicate"),
        count(examples.len(), "example"),
        header.selection,
        100.0 * wins as f64 / examples.len() as f64,
        header.rules
    );
    outln!(
        "written to {} ({} bytes per example)",
        a.out.display(),
        Example::BYTES
    );
    Ok(())
}
