//! `fow export`: saved games as PGN with moves in SAN.

use std::path::PathBuf;

use fow_records::{load_game, load_games_lenient, SavedGame};

use crate::error::{input, CliError};
use crate::out::count;
use crate::rules_args::RulesArgs;

/// Write saved games as PGN: the seven standard tags, the variant, the rules and their
/// switches, the seed, the game's number and how it ended, and the moves in SAN (no check
/// marks: fog-of-war chess has no check).
///
/// A game that cannot be read is reported on stderr and left out, the others are written,
/// and the exit status is 2.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A tournament's results folder, a games.csv, a PGN file (ours or chess.com's) or a
    /// folder of PGN files.
    pub source: PathBuf,
    /// The games to write, by number (their id in games.csv, else their FowGame tag, else
    /// their place in the PGN input); repeatable, or comma-separated. Default: all.
    #[arg(long, value_name = "N", value_delimiter = ',', conflicts_with = "all")]
    pub game: Vec<u64>,
    /// Write every game (the default).
    #[arg(long)]
    pub all: bool,
    /// Write the PGN to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Rules for PGN games without a Rules tag or chess.com's Fog of War variant tag
    /// (results folders and games.csv use their tournament.json).
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Loads the games, writes the PGN.
pub fn run(a: Args) -> Result<(), CliError> {
    let rules = a.rules.rule_set()?;
    // With --game, only the games asked for must be readable.
    let (games, errors) = if a.game.is_empty() {
        load_games_lenient(&a.source, &rules)?
    } else {
        let games = a
            .game
            .iter()
            .map(|&n| load_game(&a.source, Some(n), &rules))
            .collect::<Result<Vec<SavedGame>, _>>()?;
        (games, Vec::new())
    };
    if games.is_empty() {
        if let [only] = errors.as_slice() {
            return Err(input(only));
        }
        for e in &errors {
            eprintln!("fow: skipped {e}");
        }
        return Err(input(match errors.len() {
            0 => format!("{}: holds no games", a.source.display()),
            n => format!("none of the {n} games could be read; nothing written"),
        }));
    }
    let text = SavedGame::pgn_of(&games);
    match &a.out {
        Some(path) => {
            std::fs::write(path, &text).map_err(crate::error::io(path))?;
            outln!(
                "wrote {} game{} to {}",
                games.len(),
                if games.len() == 1 { "" } else { "s" },
                path.display()
            );
        }
        None => out!("{text}"),
    }
    if !errors.is_empty() {
        for e in &errors {
            eprintln!("fow: skipped {e}");
        }
        return Err(input(format!(
            "{} of {} could not be read and {} left out (listed above); {} written",
            errors.len(),
            count(errors.len() + games.len(), "game"),
            if errors.len() == 1 { "was" } else { "were" },
            match games.len() {
                1 => "the other one was".to_string(),
                n => format!("the other {n} were"),
            }
        )));
    }
    Ok(())
}
