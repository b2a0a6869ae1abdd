//! `fow players`: the registered bots and their parameters.

use crate::error::CliError;

/// List every bot with a one-line description and its parameters.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Prints the registry.
pub fn run(_: Args) -> Result<(), CliError> {
    let bots = fow_players::registry();
    let programs = fow_players::programs();
    let width = bots
        .iter()
        .chain(programs)
        .map(|b| b.name.len())
        .max()
        .unwrap_or(0);
    outln!("Bots (use as NAME or NAME:key=value,...):");
    list(bots, width);
    outln!("Programs (use as exec:cmd=<command line>,key=value,...):");
    list(programs, width);
    Ok(())
}

fn list(bots: &[fow_players::BotInfo], width: usize) {
    for b in bots {
        outln!("  {:width$}  {}", b.name, b.description);
        for p in b.params {
            let range = match p.kind {
                fow_players::param::Kind::Text { .. } => String::new(),
                _ => format!(" ({})", p.range_text()),
            };
            outln!(
                "  {:width$}    {}={}{range} : {}",
                "",
                p.name,
                p.default_text(),
                p.doc
            );
        }
    }
}
