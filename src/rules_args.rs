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
    /// Override: draw after N plies without capture or pawn move (off to disable).
    #[arg(long, value_name = "N|off")]
    pub draw_plies: Option<String>,
    /// Override: draw on the N-th repetition of a position (off to disable).
    #[arg(long, value_name = "N|off")]
    pub repetition: Option<String>,
}

impl RulesArgs {
    /// The rule set: the preset with the overrides applied.
    pub fn rule_set(&self) -> Result<RuleSet, CliError> {
        let mut rules: RuleSet = self.rules.parse().map_err(input)?;
        for (key, value) in [
            ("en-passant", &self.en_passant),
            ("promotion", &self.promotion),
            ("castling", &self.castling),
            ("draw-plies", &self.draw_plies),
            ("repetition", &self.repetition),
        ] {
            if let Some(v) = value {
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
