//! Typed errors of the rules engine. Each displays as one line fit for a user: text from
//! outside is repeated with control characters escaped and cut when long
//! ([`crate::quote`]).

use std::fmt;

use crate::text::{printable, quote};

/// A rule-set text could not be understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// No preset has this name.
    UnknownPreset(String),
    /// No switch has this name.
    UnknownSwitch(String),
    /// The switch exists but the value does not fit it.
    BadValue {
        /// The switch.
        key: String,
        /// The value given.
        value: String,
    },
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::UnknownPreset(p) => {
                write!(f, "unknown rule preset '{}' (known: thesis, chesscom)", quote(p))
            }
            RulesError::UnknownSwitch(s) => write!(
                f,
                "unknown rule switch '{}' (known: en-passant, promotion, castling, draw-plies, repetition)",
                quote(s)
            ),
            RulesError::BadValue { key, value } => {
                write!(
                    f,
                    "bad value '{}' for rule switch '{}'",
                    quote(value),
                    quote(key)
                )
            }
        }
    }
}

impl std::error::Error for RulesError {}

/// A FEN (or fog-FEN) could not be read as a position (or view).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text is not FEN (or fog-FEN). The message says so, with the text and what is
    /// wrong with it in chess words: `malformed FEN '...': a board has 8 ranks separated
    /// by '/', this one has 9`.
    Syntax(String),
    /// The text is FEN but not a playable fog-of-war position.
    Invalid(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Syntax(message) => f.write_str(&printable(message)),
            FenError::Invalid(why) => write!(f, "invalid position: {}", printable(why)),
        }
    }
}

impl std::error::Error for FenError {}

/// A move text could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in the expected notation.
    Syntax(String),
    /// The text is a move, but not one of the legal moves here.
    Illegal(String),
    /// The text (SAN without enough disambiguation) fits several legal moves.
    Ambiguous {
        /// The text.
        text: String,
        /// The moves it could be, in SAN, sorted.
        candidates: Vec<String>,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(m) => write!(f, "cannot read move '{}'", quote(m)),
            MoveError::Illegal(m) => write!(f, "illegal move '{}'", quote(m)),
            MoveError::Ambiguous { text, candidates } => write!(
                f,
                "ambiguous move '{}' (could be {})",
                quote(text),
                candidates.join(", ")
            ),
        }
    }
}

impl std::error::Error for MoveError {}
