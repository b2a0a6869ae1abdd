//! `--rules PRESET` and the switch overrides shared by several subcommands.

use clap::Args;
use fow_variants::RuleSet;

use crate::error::{input, CliError};

/// Rule set options.
#[derive(Args, Debug, Clone)]
pub struct RulesArgs {
    /// Rule preset: thesis (no en passant, queen-only promotion, positional castling,
    /// draw after 200 plies without progress) or chesscom (en passant, any promotion,
    /// castling rights, threefold repetition, 50-move rule).
    #[arg(long, default_value = "thesis", value_name = "PRESET")]
    pub rules: String,
    /// Override: en passant on|off.
    #[arg(long, value_name = "on|off")]
    pub en_passant: Option<String>,
    /// Override: promotion queen|any.
    #[arg(long, value_name = "queen|any")]
    pub promotion: Option<String>,
    /// Override: castling off|positional|rights.
    #[arg(long, value_name = "MODE")]
    pub castling: Option<String>,
    /// Override: draw after N plies without capture or pawn move, N at least 1 (off to
    /// disable).
    #[arg(long, value_name = "N|off")]
    pub draw_plies: Option<String>,
    /// Override: draw on the N-th repetition of a position, N at least 2 (off to disable).
    #[arg(long, value_name = "N|off")]
    pub repetition: Option<String>,
}

impl RulesArgs {
    /// The rule set: the preset with the overrides applied.
    /// A count of 0 (`--draw-plies 0`, or `draw-plies=0` in `--rules`) is refused: the
    /// rule set reads it as off, which a user giving a number does not mean; `off` says it.
    pub fn rule_set(&self) -> Result<RuleSet, CliError> {
        for part in self.rules.split(',') {
            if let Some((key, value)) = part.split_once('=') {
                let key = key.trim().replace('_', "-");
                refuse_zero(
                    &format!("--rules {}", self.rules),
                    &format!("{key}=off"),
                    &key,
                    value,
                )?;
            }
        }
        let mut rules: RuleSet = self.rules.parse().map_err(input)?;
        for (key, value) in [
            ("en-passant", &self.en_passant),
            ("promotion", &self.promotion),
            ("castling", &self.castling),
            ("draw-plies", &self.draw_plies),
            ("repetition", &self.repetition),
        ] {
            if let Some(v) = value {
                refuse_zero(&format!("--{key} {v}"), &format!("--{key} off"), key, v)?;
                rules.set(key, v).map_err(input)?;
            }
        }
        Ok(rules)
    }

    /// Whether any override was given.
    pub fn any_given(&self) -> bool {
        self.rules != "thesis"
            || self.en_passant.is_some()
            || self.promotion.is_some()
            || self.castling.is_some()
            || self.draw_plies.is_some()
            || self.repetition.is_some()
    }
}

/// Refuses a count of 0 for the switches that take one (`draw-plies`, `repetition`),
/// naming the way to turn the rule off; `given` is how the user wrote it, `off` how to
/// write it off there.
fn refuse_zero(given: &str, off: &str, key: &str, value: &str) -> Result<(), CliError> {
    let least = match key {
        "draw-plies" => "1 ply",
        "repetition" => "2 (a position's second occurrence)",
        _ => return Ok(()),
    };
    if value.trim().parse::<u32>() == Ok(0) {
        return Err(input(format!(
            "{given}: the count must be at least {least}; write {off} to turn the rule off"
        )));
    }
    Ok(())
}
