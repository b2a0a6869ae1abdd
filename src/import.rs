//! `fow import`: PGN games (chess.com's fog of war, or ours) into a results folder.

use std::path::PathBuf;

use fow_records::{ImportReport, CONFIG_FILE, GAMES_FILE};

use crate::error::{input, CliError};
use crate::out::count;
use crate::rules_args::RulesArgs;

/// Check games by replaying them and write them as a results folder (games.csv and
/// tournament.json) that `fow rate`, `replay`, `analyze`, `dataset` and `tune-material`
/// read.
///
/// Inputs are PGN files (chess.com's fog-of-war export or `fow export`'s), folders of
/// them, games.csv files or results folders. Every game is replayed; one that cannot be
/// (an illegal or ambiguous move, a broken game, a start other than the standard
/// position, no result, rules other than the first game's) is reported on stderr and
/// left out, the others are written, and the exit status is then 2. The seed column is 0
/// for games without a Seed tag (not played by fow).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// PGN files, folders of them, games.csv files or results folders.
    #[arg(required = true, value_name = "FILE_OR_FOLDER")]
    pub inputs: Vec<PathBuf>,
    /// The results folder to write (must not hold a games.csv yet).
    #[arg(short, long, value_name = "DIR")]
    pub out: PathBuf,
    /// Rules for PGN games without a Rules tag or chess.com's Fog of War variant tag
    /// (results folders and games.csv use their tournament.json).
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Loads, checks and writes the games.
pub fn run(a: Args) -> Result<(), CliError> {
    let rules = a.rules.rule_set()?;
    let report = ImportReport::import_inputs(&a.inputs, &rules, &a.out)?;
    for e in &report.skipped {
        eprintln!("fow: skipped {e}");
    }
    let total = report.rows.len() + report.skipped.len();
    if report.rows.is_empty() {
        return Err(input(match total {
            1 => "the game could not be imported; nothing written".to_string(),
            n => format!("none of the {n} games could be imported; nothing written"),
        }));
    }
    if report.renumbered {
        outln!("note: game numbers clashed between the inputs; the games are numbered 1 to {} in input order", report.rows.len());
    }
    outln!("{}", report.summary());
    outln!(
        "wrote {}, {}",
        a.out.join(CONFIG_FILE).display(),
        a.out.join(GAMES_FILE).display()
    );
    if !report.skipped.is_empty() {
        return Err(input(format!(
            "{} of {total} skipped (listed above); {} imported",
            count(report.skipped.len(), "game"),
            count(report.rows.len(), "game")
        )));
    }
    Ok(())
}
