//! Rule sets: plain switches with named presets.
//!
//! Everything that differs between platforms is a switch on [`RuleSet`]; code never asks
//! which preset it runs under. A preset is only a named starting point:
//!
//! ```
//! use fow_variants::{RuleSet, Promotion};
//!
//! let mut rules = RuleSet::preset("chesscom").unwrap();
//! rules.draw_plies = Some(150);
//! assert_eq!(rules.promotion, Promotion::Any);
//! assert_eq!(rules.name(), "custom");
//! assert_eq!(RuleSet::thesis().name(), "thesis");
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::RulesError;

/// What a pawn may become on the last rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Promotion {
    /// Always a queen; the move has no choice (the thesis).
    QueenOnly,
    /// Queen, rook, bishop or knight (chess.com).
    Any,
}

/// When castling is allowed. Castling is never tested for attacked squares: there is no
/// check in fog-of-war chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Castling {
    /// Never.
    Off,
    /// Whenever the king stands on its home square (e1/e8), an own rook stands on the
    /// corner and the squares between are empty; no memory of earlier moves (the thesis).
    Positional,
    /// As `Positional`, and additionally the usual rights: neither the king nor that rook
    /// has moved and the rook was not captured (chess.com).
    Rights,
}

/// A rule set: the switches that differ between fog-of-war platforms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RuleSet {
    /// En passant captures are allowed (and the pawn that can be taken is visible).
    pub en_passant: bool,
    /// What promotion may produce.
    pub promotion: Promotion,
    /// When castling is allowed.
    pub castling: Castling,
    /// Draw after this many consecutive plies without a capture or a pawn move
    /// (`None`: never). The thesis uses 200, chess.com's 50-move rule 100.
    pub draw_plies: Option<u32>,
    /// Draw when the same position (pieces, side to move, castling rights, en passant
    /// possibility) occurs this many times (`None`: never). chess.com uses 3.
    pub repetition: Option<u32>,
}

impl RuleSet {
    /// The names of the presets, in the order [`RuleSet::preset`] knows them.
    pub const PRESETS: [&'static str; 2] = ["thesis", "chesscom"];

    /// What the 2023 thesis's code did: no en passant, promotion to a queen only,
    /// positional castling, a draw after 200 plies without capture or pawn move.
    pub const fn thesis() -> RuleSet {
        RuleSet {
            en_passant: false,
            promotion: Promotion::QueenOnly,
            castling: Castling::Positional,
            draw_plies: Some(200),
            repetition: None,
        }
    }

    /// chess.com's Fog of War: en passant, any promotion, castling with rights (through
    /// attacked squares too), threefold repetition and the 50-move rule draw automatically.
    pub const fn chesscom() -> RuleSet {
        RuleSet {
            en_passant: true,
            promotion: Promotion::Any,
            castling: Castling::Rights,
            draw_plies: Some(100),
            repetition: Some(3),
        }
    }

    /// A preset by name (`thesis`, `chesscom`).
    pub fn preset(name: &str) -> Option<RuleSet> {
        match name {
            "thesis" => Some(RuleSet::thesis()),
            "chesscom" => Some(RuleSet::chesscom()),
            _ => None,
        }
    }

    /// The preset this rule set equals, or `"custom"`.
    pub fn name(&self) -> &'static str {
        Self::PRESETS
            .into_iter()
            .find(|p| RuleSet::preset(p).as_ref() == Some(self))
            .unwrap_or("custom")
    }

    /// Sets one switch from text, as the command line and rule strings write it:
    /// `en-passant=on|off`, `promotion=queen|any`, `castling=off|positional|rights`,
    /// `draw-plies=N|off`, `repetition=N|off`.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        let bad = || RulesError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
        };
        // 0 (however written: `0`, `00`) is off, as `switches` writes it back.
        let count = |v: &str| -> Result<Option<u32>, RulesError> {
            match v {
                "off" | "none" => Ok(None),
                _ => v
                    .parse::<u32>()
                    .map(|n| (n > 0).then_some(n))
                    .map_err(|_| bad()),
            }
        };
        match key.replace('_', "-").as_str() {
            "en-passant" | "ep" => {
                self.en_passant = match value {
                    "on" | "true" | "yes" | "1" => true,
                    "off" | "false" | "no" | "0" => false,
                    _ => return Err(bad()),
                }
            }
            "promotion" => {
                self.promotion = match value {
                    "queen" | "queen-only" => Promotion::QueenOnly,
                    "any" => Promotion::Any,
                    _ => return Err(bad()),
                }
            }
            "castling" => {
                self.castling = match value {
                    "off" | "none" => Castling::Off,
                    "positional" => Castling::Positional,
                    "rights" => Castling::Rights,
                    _ => return Err(bad()),
                }
            }
            "draw-plies" => self.draw_plies = count(value)?,
            "repetition" => {
                self.repetition = count(value)?;
                if self.repetition == Some(1) {
                    return Err(bad());
                }
            }
            _ => return Err(RulesError::UnknownSwitch(key.to_string())),
        }
        Ok(())
    }

    /// Every switch as `key=value` text, in a fixed order; parses back with
    /// [`RuleSet::from_str`].
    pub fn switches(&self) -> String {
        let count = |c: Option<u32>| c.map_or("off".to_string(), |n| n.to_string());
        format!(
            "en-passant={},promotion={},castling={},draw-plies={},repetition={}",
            if self.en_passant { "on" } else { "off" },
            match self.promotion {
                Promotion::QueenOnly => "queen",
                Promotion::Any => "any",
            },
            match self.castling {
                Castling::Off => "off",
                Castling::Positional => "positional",
                Castling::Rights => "rights",
            },
            count(self.draw_plies),
            count(self.repetition),
        )
    }
}

impl Default for RuleSet {
    /// The thesis preset.
    fn default() -> RuleSet {
        RuleSet::thesis()
    }
}

impl fmt::Display for RuleSet {
    /// The preset name when it is one, else `custom(switches)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            "custom" => write!(f, "custom({})", self.switches()),
            name => f.write_str(name),
        }
    }
}

impl FromStr for RuleSet {
    type Err = RulesError;

    /// Parses `PRESET`, `PRESET,key=value,...`, `key=value,...` (starting from `thesis`)
    /// or `custom(key=value,...)` as [`fmt::Display`] writes it.
    fn from_str(s: &str) -> Result<RuleSet, RulesError> {
        let s = s.trim();
        let inner = s
            .strip_prefix("custom(")
            .and_then(|r| r.strip_suffix(')'))
            .unwrap_or(s);
        let mut rules = RuleSet::thesis();
        for (i, part) in inner.split(',').map(str::trim).enumerate() {
            if part.is_empty() {
                continue;
            }
            match part.split_once('=') {
                Some((k, v)) => rules.set(k.trim(), v.trim())?,
                None if i == 0 => {
                    rules = RuleSet::preset(part)
                        .ok_or_else(|| RulesError::UnknownPreset(part.to_string()))?
                }
                None => return Err(RulesError::UnknownSwitch(part.to_string())),
            }
        }
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_differ_in_every_switch() {
        let (t, c) = (RuleSet::thesis(), RuleSet::chesscom());
        assert_ne!(t.en_passant, c.en_passant);
        assert_ne!(t.promotion, c.promotion);
        assert_ne!(t.castling, c.castling);
        assert_ne!(t.draw_plies, c.draw_plies);
        assert_ne!(t.repetition, c.repetition);
    }

    #[test]
    fn text_round_trip() {
        for name in RuleSet::PRESETS {
            let r = RuleSet::preset(name).unwrap();
            assert_eq!(r.to_string(), name);
            assert_eq!(r.to_string().parse::<RuleSet>().unwrap(), r);
            assert_eq!(r.switches().parse::<RuleSet>().unwrap(), r);
        }
        let r: RuleSet = "chesscom,draw-plies=150".parse().unwrap();
        assert_eq!(r.draw_plies, Some(150));
        assert_eq!(r.name(), "custom");
        assert_eq!(r.to_string().parse::<RuleSet>().unwrap(), r);
    }

    #[test]
    fn bad_text_is_an_error() {
        assert!(matches!(
            "blitz".parse::<RuleSet>(),
            Err(RulesError::UnknownPreset(_))
        ));
        assert!(matches!(
            "thesis,castling=sometimes".parse::<RuleSet>(),
            Err(RulesError::BadValue { .. })
        ));
        assert!(matches!(
            "thesis,gravity=on".parse::<RuleSet>(),
            Err(RulesError::UnknownSwitch(_))
        ));
        assert!("thesis,repetition=1".parse::<RuleSet>().is_err());
    }
}
