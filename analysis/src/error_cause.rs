//! Why a mistake or blunder happened under fog: the causes and the rule that picks one
//! (the pass that values the boards is `fog_errors`).
//!
//! A move is valued on boards the mover could not tell apart from the true one (see
//! `consistent_boards`). It is *bad* on a board when it drops the mover's win chance
//! there by [`BAD_DROP`] points or more (a mistake or worse, as the labels count).
//!
//! - **Decision**: bad on more than [`DECISION_SHARE`] of those boards (by weight): what
//!   the mover could know said the move was bad.
//! - **Belief**: otherwise, when the mover is a belief bot whose own belief could be
//!   replayed and that belief left the true board out or gave it less than
//!   [`LITTLE_WEIGHT`] of the mean weight of its boards.
//! - **Luck**: otherwise: the move was good on most boards the mover could not rule out,
//!   and bad on the true one.

use serde::{Deserialize, Serialize};

/// A move is bad on a board when it drops the mover's win chance there by at least this
/// many percentage points (a mistake's drop).
pub const BAD_DROP: f64 = 10.0;
/// A move bad on more than this share of the boards (by weight) is a bad decision; at
/// this share or less, bad luck (two boards, one bad: luck).
pub const DECISION_SHARE: f64 = 0.5;
/// A belief that gives the true board less than this fraction of the mean weight of its
/// boards gave it little weight.
pub const LITTLE_WEIGHT: f64 = 0.1;

/// Why a mistake or blunder happened under fog.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Cause {
    /// Not a mistake or blunder, or not looked at (written as an empty field).
    #[default]
    #[serde(rename = "")]
    None,
    /// Bad on most boards the mover could not tell apart from the truth.
    Decision,
    /// Good on most of them, bad on the true one.
    Luck,
    /// The mover's own belief left the truth out or gave it little weight.
    Belief,
}

impl Cause {
    /// The cause as the CSV writes it (`""`, `decision`, `luck`, `belief`).
    pub fn as_str(self) -> &'static str {
        match self {
            Cause::None => "",
            Cause::Decision => "decision",
            Cause::Luck => "luck",
            Cause::Belief => "belief",
        }
    }

    /// The cause of a mistake or blunder that was bad on a share `bad` (0 to 1, by
    /// weight) of the boards valued, given `truth_weight`: the true board's weight in the
    /// mover's replayed belief relative to the mean weight of its boards (0 when left
    /// out), `None` when no belief was replayed.
    ///
    /// ```
    /// use fow_analysis::Cause;
    /// assert_eq!(Cause::of(1.0, None), Cause::Decision);
    /// assert_eq!(Cause::of(0.5, None), Cause::Luck);
    /// assert_eq!(Cause::of(0.5, Some(0.0)), Cause::Belief);
    /// assert_eq!(Cause::of(0.5, Some(1.0)), Cause::Luck);
    /// assert_eq!(Cause::of(0.9, Some(0.0)), Cause::Decision);
    /// ```
    pub fn of(bad: f64, truth_weight: Option<f64>) -> Cause {
        if bad > DECISION_SHARE {
            Cause::Decision
        } else if truth_weight.is_some_and(|w| w < LITTLE_WEIGHT) {
            Cause::Belief
        } else {
            Cause::Luck
        }
    }
}
