//! `fow params`: show a parametrized bot's parameters, import plain number lists.

use std::path::PathBuf;

use fow_players::{family, find, PlayerSpec};

use crate::error::{input, CliError};

/// Show or convert the parameters of a parametrized bot.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: ParamsCommand,
}

/// What to do with parameters.
#[derive(clap::Subcommand, Debug)]
pub enum ParamsCommand {
    /// Print every parameter's name and value: of a parametrized bot its numbers
    /// (`NAME`, the shipped values, or `NAME:params=FILE`); of any other bot its declared
    /// parameters as the spec sets them, with their defaults and ranges
    /// (`BeliefSearch:mean=0.7`).
    Show {
        /// A player spec of a parametrized bot.
        spec: String,
    },
    /// Convert a plain list of numbers (whitespace-separated, in parameter order, as the
    /// thesis stores its PositionaryEvaluator parameters) into a JSON parameter file.
    Import {
        /// The text file of numbers.
        file: PathBuf,
        /// The bot they belong to.
        #[arg(long, default_value = "PositionaryEvaluator")]
        bot: String,
        /// Where to write the JSON (default: standard output).
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

/// Runs the subcommand.
pub fn run(a: Args) -> Result<(), CliError> {
    match a.command {
        ParamsCommand::Show { spec } => {
            let spec: PlayerSpec = spec.parse().map_err(input)?;
            if let Some(bot) = find(&spec.name).filter(|b| b.family.is_none()) {
                for line in bot.settings_lines(&spec).map_err(input)? {
                    outln!("{line}");
                }
                return Ok(());
            }
            let family = family(&spec.name).map_err(input)?;
            let values = match spec.param("params") {
                Some(path) => family.load(std::path::Path::new(path)).map_err(input)?,
                None => (family.default_params)(),
            };
            for (n, v) in (family.param_names)().iter().zip(&values) {
                outln!("{n:<16} {v:>12.6}");
            }
            Ok(())
        }
        ParamsCommand::Import { file, bot, out } => {
            let family = family(&bot).map_err(input)?;
            let json = family.to_json(&family.load_numbers(&file).map_err(input)?);
            match out {
                Some(path) => std::fs::write(&path, json).map_err(crate::error::io(&path))?,
                None => out!("{json}"),
            }
            Ok(())
        }
    }
}
