//! Brilliant and great moves: the labels and the rules that give them, with their
//! thresholds (the pass that applies them to a game is `highlight_moves`).
//!
//! - **Brilliant**: the move gives up at least [`SACRIFICE_CP`] of material by static
//!   exchange evaluation ([`crate::see`]), is not a mistake or blunder at the analysis
//!   depth, and an engine searching [`DEEPER_PLIES`] plies deeper confirms it: the
//!   mover's win chance drops by less than [`BRILLIANT_MARGIN`] points from the deeper
//!   engine's value of the position to its value after the move, and stays at 50% or
//!   more.
//! - **Great**: the engine's own move, not a winning capture (SEE under one pawn), after
//!   which the mover is not lost, and the only one that keeps the result: every other
//!   legal move leaves the mover's win chance at least [`GREAT_GAP`] points lower *and*
//!   in a worse [`Outlook`] (winning, drawn, lost, split at [`WINNING`] and [`LOST`]).
//!
//! A move is at most one of them: brilliant first.

use serde::{Deserialize, Serialize};

/// The least material (centipawns, by SEE) a move must give up to be a sacrifice: two
/// pawns, so the exchange (a rook for a minor piece) or a piece for a pawn.
pub const SACRIFICE_CP: i32 = 200;
/// From this win chance (percent, about +6 pawns) before the move a side has material to
/// spare: its sacrifices are not brilliant.
pub const ALREADY_WON: f64 = 90.0;
/// How much deeper than the analysis the engine that confirms a brilliant move searches
/// (MyStockfish's depth; Stockfish gets [`DEEPER_NODES_FACTOR`] times the nodes).
pub const DEEPER_PLIES: i32 = 2;
/// How many times the analysis's node limit the confirming engine may search.
pub const DEEPER_NODES_FACTOR: u64 = 8;
/// The most win chance (percentage points) a brilliant move may lose at the deeper
/// search: under half of an inaccuracy, so the move is the best or as good.
pub const BRILLIANT_MARGIN: f64 = 2.0;
/// The least win chance (percentage points) by which every other move must fall short
/// of a great move: a blunder's drop.
pub const GREAT_GAP: f64 = 20.0;
/// From this win chance up (percent, about +3 pawns on Lichess's curve) the mover is
/// winning.
pub const WINNING: f64 = 75.0;
/// Up to this win chance (percent, about -3 pawns) the mover is lost.
pub const LOST: f64 = 25.0;
/// A capture that wins at least this much by SEE (centipawns) is the obvious move, never
/// great.
pub const WINNING_CAPTURE_CP: i32 = 100;

/// A move singled out as brilliant or great; most moves are neither.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Highlight {
    /// Neither (written as an empty field).
    #[default]
    #[serde(rename = "")]
    None,
    /// A sacrifice the deeper engine confirms.
    Brilliant,
    /// The only move that keeps the result.
    Great,
}

impl Highlight {
    /// The label as the CSV writes it (`""`, `brilliant`, `great`).
    pub fn as_str(self) -> &'static str {
        match self {
            Highlight::None => "",
            Highlight::Brilliant => "brilliant",
            Highlight::Great => "great",
        }
    }
}

/// How a position looks for the mover by its win chance: lost up to [`LOST`], winning
/// from [`WINNING`], drawn (or unclear) between.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outlook {
    /// Win chance at most [`LOST`].
    Lost,
    /// Between.
    Drawn,
    /// Win chance at least [`WINNING`].
    Winning,
}

impl Outlook {
    /// The outlook of a win chance of `win` percent.
    ///
    /// ```
    /// use fow_analysis::Outlook;
    /// assert_eq!(Outlook::of(80.0), Outlook::Winning);
    /// assert_eq!(Outlook::of(50.0), Outlook::Drawn);
    /// assert_eq!(Outlook::of(25.0), Outlook::Lost);
    /// ```
    pub fn of(win: f64) -> Outlook {
        if win >= WINNING {
            Outlook::Winning
        } else if win <= LOST {
            Outlook::Lost
        } else {
            Outlook::Drawn
        }
    }
}

/// Whether a sacrifice (SEE `see` centipawns) is brilliant by the deeper engine: the
/// mover's win chance `deep_before` (the position) and `deep_after` (after the move),
/// both in percent.
///
/// ```
/// use fow_analysis::brilliant_by;
/// assert!(brilliant_by(-900, 70.0, 69.0));
/// assert!(!brilliant_by(-900, 70.0, 60.0)); // not the best at the deeper search
/// assert!(!brilliant_by(-100, 70.0, 70.0)); // a pawn is no sacrifice
/// assert!(!brilliant_by(-900, 45.0, 45.0)); // still worse after it
/// assert!(!brilliant_by(-300, 97.0, 96.0)); // won anyway, material to spare
/// ```
pub fn brilliant_by(see: i32, deep_before: f64, deep_after: f64) -> bool {
    see <= -SACRIFICE_CP
        && deep_before < ALREADY_WON
        && deep_before - deep_after < BRILLIANT_MARGIN
        && deep_after >= 50.0
}

/// Whether another move, leaving the mover `other` percent, falls short of the played
/// move's `played` by the margin a great move needs (see the module's notes).
///
/// ```
/// use fow_analysis::falls_short;
/// assert!(falls_short(55.0, 5.0)); // drawn against lost
/// assert!(!falls_short(55.0, 40.0)); // both drawn
/// assert!(!falls_short(80.0, 74.0)); // worse outlook, but only 6 points
/// ```
pub fn falls_short(played: f64, other: f64) -> bool {
    played - other >= GREAT_GAP && Outlook::of(other) < Outlook::of(played)
}
