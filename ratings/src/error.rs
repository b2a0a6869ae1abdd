//! Typed errors of the crate. Every error displays as one line.

use std::fmt;

/// A malformed result-matrix file (see [`parse_match_matrix`](crate::parse_match_matrix)).
///
/// ```
/// use fow_ratings::ParseError;
/// let error = ParseError { line: 3, message: "expected 10 cells, found 9".into() };
/// assert_eq!(error.to_string(), "line 3: expected 10 cells, found 9");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number in the input text.
    pub line: usize,
    /// What is wrong on that line.
    pub message: String,
}

impl fmt::Display for ParseError {
    /// One line: control characters of the text repeated in the message (a cell's
    /// content) are escaped (`\u{1}`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: ", self.line)?;
        for c in self.message.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_unicode())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for ParseError {}

/// An invalid operation on a [`ResultMatrix`](crate::ResultMatrix).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatrixError {
    /// A player index is not below the number of players.
    PlayerOutOfRange {
        /// The offending index (0-based).
        index: usize,
        /// Number of players in the matrix.
        players: usize,
    },
    /// A game of a player against itself.
    SelfPlay {
        /// The player (0-based).
        player: usize,
    },
    /// The cells do not form an `n × n` matrix for `n` names.
    NotSquare {
        /// Number of names (the expected number of rows and of cells per row).
        players: usize,
        /// The first offending row (0-based), or `None` when the number of rows is wrong.
        row: Option<usize>,
        /// Number of rows, or of cells in `row`, actually found.
        found: usize,
    },
    /// A diagonal cell (a player against itself) holds games.
    NonEmptyDiagonal {
        /// The player (0-based).
        player: usize,
    },
    /// A player index given twice where each player may appear once.
    RepeatedPlayer {
        /// The repeated index (0-based).
        index: usize,
    },
}

impl fmt::Display for MatrixError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatrixError::PlayerOutOfRange { index, players } => {
                write!(f, "player index {index} out of range for {players} players")
            }
            MatrixError::SelfPlay { player } => {
                write!(f, "player {player} cannot play against itself")
            }
            MatrixError::NotSquare {
                players,
                row: Some(row),
                found,
            } => write!(f, "row {row} has {found} cells, expected {players}"),
            MatrixError::NotSquare {
                players,
                row: None,
                found,
            } => write!(f, "{found} rows for {players} players"),
            MatrixError::NonEmptyDiagonal { player } => {
                write!(f, "diagonal cell of player {player} is not empty")
            }
            MatrixError::RepeatedPlayer { index } => {
                write!(f, "player index {index} given twice")
            }
        }
    }
}

impl std::error::Error for MatrixError {}

/// Why a rating fit has no (finite) answer: [`thesis_elo`](crate::thesis_elo) (only the
/// first two can happen), [`mle_elo`](crate::mle_elo) or [`bayeselo`](crate::bayeselo()).
#[derive(Debug, Clone, PartialEq)]
pub enum FitError {
    /// The anchor index is not below the number of players.
    AnchorOutOfRange {
        /// The anchor index (0-based).
        index: usize,
        /// Number of players.
        players: usize,
    },
    /// An option or the anchor value is out of its domain (e.g. NaN, a K factor ≤ 0, a
    /// negative prior).
    InvalidOption {
        /// Name of the option.
        name: &'static str,
        /// The rejected value.
        value: f64,
    },
    /// These players are not linked to the others (the anchor's group, or the largest
    /// group) by any chain of games, so their ratings are not determined.
    Disconnected {
        /// Names of the players, in matrix order.
        players: Vec<String>,
    },
    /// Without prior draws the ratings are infinite: the players split into groups one of
    /// which scored every point against another (e.g. a player with a 100% or 0% score);
    /// `players` are those outside the largest group, whose ratings diverge.
    Unbounded {
        /// Names of the players, in matrix order.
        players: Vec<String>,
    },
    /// A fitted model parameter of BayesElo's model has no finite maximum: `eloDraw` when
    /// every game was drawn, `eloAdvantage` when (without prior draws) White scored all or
    /// none of the points.
    UnboundedParameter {
        /// `"eloDraw"` or `"eloAdvantage"`.
        parameter: &'static str,
    },
    /// Newton–Raphson did not reach the gradient tolerance (or met a singular Hessian, e.g.
    /// when BayesElo's first-move advantage cannot be told from the ratings because every
    /// pair met with one colour arrangement only).
    NoConvergence {
        /// Iterations performed.
        iterations: usize,
    },
}

impl fmt::Display for FitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FitError::AnchorOutOfRange { index, players } => {
                write!(f, "anchor index {index} out of range for {players} players")
            }
            FitError::InvalidOption { name, value } => write!(f, "invalid {name}: {value}"),
            FitError::Disconnected { players } => write!(
                f,
                "no chain of games links these players to the others: {}",
                players.join(", ")
            ),
            FitError::Unbounded { players } => write!(
                f,
                "ratings are infinite without prior draws (a group of players won or lost \
                 every game against the rest): {}",
                players.join(", ")
            ),
            FitError::UnboundedParameter { parameter } => {
                write!(f, "{parameter} has no finite maximum-likelihood value here")
            }
            FitError::NoConvergence { iterations } => write!(
                f,
                "Newton-Raphson did not converge in {iterations} iterations"
            ),
        }
    }
}

impl std::error::Error for FitError {}

/// Inconsistent inputs to the [summary table](crate::summary_rows).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableError {
    /// A per-player column does not have one entry per player.
    LengthMismatch {
        /// Which column.
        column: &'static str,
        /// Number of players.
        expected: usize,
        /// Number of entries supplied.
        found: usize,
    },
    /// Sorting was requested by a fit that was not supplied.
    MissingFit {
        /// Which fit.
        fit: &'static str,
    },
    /// A player index among the fitted players is out of range or repeated.
    BadFittedPlayer {
        /// The offending index (0-based).
        index: usize,
    },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::LengthMismatch {
                column,
                expected,
                found,
            } => write!(
                f,
                "column {column} has {found} entries, expected one per player ({expected})"
            ),
            TableError::MissingFit { fit } => {
                write!(f, "cannot sort by the {fit} rating: no {fit} fit was given")
            }
            TableError::BadFittedPlayer { index } => {
                write!(f, "fitted player index {index} is out of range or repeated")
            }
        }
    }
}

impl std::error::Error for TableError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_display_on_one_line() {
        let messages = [
            MatrixError::NotSquare {
                players: 3,
                row: Some(1),
                found: 2,
            }
            .to_string(),
            MatrixError::NotSquare {
                players: 3,
                row: None,
                found: 2,
            }
            .to_string(),
            FitError::Unbounded {
                players: vec!["A".into(), "B".into()],
            }
            .to_string(),
            TableError::MissingFit { fit: "MLE" }.to_string(),
            FitError::InvalidOption {
                name: "K factor",
                value: -1.0,
            }
            .to_string(),
        ];
        for message in &messages {
            assert!(!message.contains('\n'), "{message}");
        }
        assert_eq!(messages[0], "row 1 has 2 cells, expected 3");
        assert!(
            messages[2].ends_with("against the rest): A, B"),
            "{}",
            messages[2]
        );
    }
}
