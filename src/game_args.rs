//! The options of the games of a run that any command playing games takes: a clock and
//! start positions (`fow tournament`, `fow match`, `fow tune`).

use std::path::PathBuf;

use fow_records::{OpeningOrder, Openings, TimeControl};
use fow_variants::RuleSet;

use crate::error::{input, CliError};
use crate::out::count;

/// A clock and start positions.
#[derive(clap::Args, Debug)]
pub struct GameArgs {
    /// A clock per side: BASE+INCREMENT in seconds (Fischer), e.g. `10+0.1`. A side whose
    /// clock runs out loses (`time forfeit`); searching bots spend their clock instead of
    /// a node count. Not deterministic (wall clock); node budgets are the default.
    #[arg(long, value_name = "BASE+INC")]
    pub tc: Option<String>,
    /// Start positions: an EPD/FEN list (one position per line), or a PGN file or folder
    /// of PGN files whose games give the position after their first --opening-plies
    /// plies. Every game of a round (in `fow tune`, of a game pair) starts from its
    /// opening, so each opening is played with both colours; the positions are stored in the results folder. A
    /// position that cannot start a game under the rules is refused by file and line.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// For PGN openings: the plies of each game to play out (default: all of them);
    /// games that end or are decided sooner are left out.
    #[arg(long, value_name = "N", requires = "openings")]
    pub opening_plies: Option<u32>,
    /// The order the rounds (game pairs) take the openings in: `sequential` (file order) or `random`
    /// (shuffled once under the seed); both start over after the last.
    #[arg(
        long,
        value_name = "ORDER",
        requires = "openings",
        default_value = "sequential"
    )]
    pub opening_order: OpeningOrder,
}

impl GameArgs {
    /// `--tc`, read.
    pub fn time_control(&self) -> Result<Option<TimeControl>, CliError> {
        self.tc
            .as_deref()
            .map(|t| t.parse().map_err(|e| input(format!("--tc: {e}"))))
            .transpose()
    }

    /// `--openings` (with `--opening-plies` and `--opening-order`), read and checked
    /// under `rules`; says how many PGN games were left out.
    pub fn openings(&self, rules: &RuleSet) -> Result<Option<Openings>, CliError> {
        let Some(path) = &self.openings else {
            return Ok(None);
        };
        let (openings, report) =
            Openings::read(path, rules, self.opening_plies, self.opening_order)?;
        if report.skipped > 0 {
            outln!(
                "note: {} of {} {} or {} decided within {} {} and {} left out (the first: {})",
                count(report.skipped, "game"),
                path.display(),
                if report.skipped == 1 { "ends" } else { "end" },
                if report.skipped == 1 { "is" } else { "are" },
                self.opening_plies.unwrap_or(0),
                if self.opening_plies == Some(1) {
                    "ply"
                } else {
                    "plies"
                },
                if report.skipped == 1 { "is" } else { "are" },
                report.first_skipped.as_deref().unwrap_or("?")
            );
        }
        Ok(Some(openings))
    }
}
