//! `fow params`: show a parametrized bot's parameters, import plain number lists.

use std::path::PathBuf;

use fow_players::{find, registry, Family, PlayerSpec};

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

fn family_of(name: &str) -> Result<Family, CliError> {
    let names = || {
        registry()
            .iter()
            .filter(|b| b.family.is_some())
            .map(|b| b.name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    find(name).and_then(|b| b.family).ok_or_else(|| {
        input(format!(
            "'{name}' is not a parametrized bot (parametrized: {})",
            names()
        ))
    })
}

/// Runs the subcommand.
pub fn run(a: Args) -> Result<(), CliError> {
    match a.command {
        ParamsCommand::Show { spec } => {
            let spec: PlayerSpec = spec.parse().map_err(input)?;
            if let Some(bot) = find(&spec.name).filter(|b| b.family.is_none()) {
                return show_declared(bot, &spec);
            }
            let family = family_of(&spec.name)?;
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
            let family = family_of(&bot)?;
            let text = std::fs::read_to_string(&file)
                .map_err(|e| input(format!("{}: {e}", file.display())))?;
            let mut values = Vec::new();
            for (i, line) in text.lines().enumerate() {
                for word in line.split_whitespace() {
                    let v: f64 = word
                        .parse()
                        .ok()
                        .filter(|v: &f64| v.is_finite())
                        .ok_or_else(|| {
                            input(format!(
                                "{}:{}: '{word}' is not a number",
                                file.display(),
                                i + 1
                            ))
                        })?;
                    values.push(v);
                }
            }
            family
                .build(&values)
                .map_err(|e| input(format!("{}: {e}", file.display())))?;
            let json = family.to_json(&values);
            match out {
                Some(path) => std::fs::write(&path, json).map_err(crate::error::io(&path))?,
                None => out!("{json}"),
            }
            Ok(())
        }
    }
}

/// `fow params show` of a bot without a parameter vector: each declared parameter's value
/// in `spec` (checked: the spec must build), its default and its range.
fn show_declared(bot: &fow_players::BotInfo, spec: &PlayerSpec) -> Result<(), CliError> {
    spec.build().map_err(input)?;
    if bot.params.is_empty() {
        outln!("{} takes no parameters", bot.name);
        return Ok(());
    }
    let width = bot.params.iter().map(|p| p.name.len()).max().unwrap_or(0);
    for p in bot.params {
        let default = p.default_text();
        let value = spec.param(p.name).unwrap_or(&default);
        outln!(
            "{:width$}  {value:<12} (default {default}; {})",
            p.name,
            p.range_text()
        );
    }
    Ok(())
}
