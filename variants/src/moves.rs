//! Moves of fog-of-war chess and their UCI text.

use std::fmt;

use serde::{Serialize, Serializer};
use shakmaty::{Role, Square};

/// What kind of move this is, beyond moving `role` from `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoveKind {
    /// A plain move or capture (promotions included).
    Normal,
    /// A pawn capture en passant: the captured pawn is not on `to`.
    EnPassant,
    /// Castling, written as the king's two-square move (`e1g1`); the rook jumps over.
    Castle,
}

/// A move as the rules engine generates it: who moves, from where to where, what it
/// captures (if anything) and what it promotes to.
///
/// Moves are compared whole, so a move read from text must be looked up among the legal
/// moves of a position or view (see [`crate::Position::parse_uci`] and
/// [`crate::Observation::parse_uci`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The square it leaves.
    pub from: Square,
    /// The square it reaches (the king's destination for castling).
    pub to: Square,
    /// The moving piece (the king for castling).
    pub role: Role,
    /// The piece it captures, if any (a pawn for en passant).
    pub capture: Option<Role>,
    /// The piece a pawn becomes on the last rank.
    pub promotion: Option<Role>,
    /// Normal, en passant or castling.
    pub kind: MoveKind,
}

impl Move {
    /// The null move (`0000` in UCI): never legal. A player that cannot answer returns it
    /// and says why through `Player::take_error` (crate `fow-players`).
    ///
    /// ```
    /// use fow_variants::{Move, Observation, Position, RuleSet};
    /// let obs = Observation::new(&Position::startpos(), &RuleSet::thesis(), 0, None);
    /// assert!(!obs.is_legal(&Move::NULL));
    /// assert_eq!(Move::NULL.uci(), "0000");
    /// ```
    // A king "capturing en passant" from a1 to a1: no move text or move generator makes
    // it (a move read from text is `Normal`), so an illegal `a1a1` from a bot stays
    // `a1a1`.
    pub const NULL: Move = Move {
        from: Square::A1,
        to: Square::A1,
        role: Role::King,
        capture: None,
        promotion: None,
        kind: MoveKind::EnPassant,
    };

    /// Whether this is [`Move::NULL`].
    #[inline]
    pub fn is_null(&self) -> bool {
        *self == Move::NULL
    }

    /// Captures something.
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.capture.is_some()
    }

    /// Captures the king, which wins the game.
    #[inline]
    pub fn captures_king(&self) -> bool {
        self.capture == Some(Role::King)
    }

    /// Resets the no-progress counter (a capture or a pawn move).
    #[inline]
    pub fn is_zeroing(&self) -> bool {
        self.capture.is_some() || self.role == Role::Pawn
    }

    /// The square of the captured piece, if any (differs from `to` for en passant).
    pub fn capture_square(&self) -> Option<Square> {
        self.capture?;
        Some(match self.kind {
            MoveKind::EnPassant => Square::from_coords(self.to.file(), self.from.rank()),
            _ => self.to,
        })
    }

    /// The move in UCI notation (`e2e4`, `e7e8q`, castling `e1g1`).
    ///
    /// ```
    /// use fow_variants::Position;
    /// let pos = Position::startpos();
    /// let m = pos.parse_uci("g1f3", &Default::default()).unwrap();
    /// assert_eq!(m.uci(), "g1f3");
    /// ```
    pub fn uci(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Move {
    /// Writes UCI notation (`0000` for a null move).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(p) = self.promotion {
            write!(f, "{}", p.char())?;
        }
        Ok(())
    }
}

impl Serialize for Move {
    /// Serializes as UCI text.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The parts of a move text: from, to and an optional promotion piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// The square moved from.
    pub from: Square,
    /// The square moved to.
    pub to: Square,
    /// The promotion piece written, if any.
    pub promotion: Option<Role>,
}

impl MoveText {
    /// Reads UCI (`e2e4`, `e7e8q`) and the long algebraic notation of chess.com's
    /// fog-of-war PGN (`Ng1f3`, `Ke1g1`, `h7h8=Q`, with an optional `x` or `-`).
    /// Returns `None` when the text is neither.
    pub fn parse(text: &str) -> Option<MoveText> {
        let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
        let t = t.strip_prefix(|c: char| "NBRQKP".contains(c)).unwrap_or(t);
        let b = t.as_bytes();
        if b.len() < 4 {
            return None;
        }
        let from = Square::from_ascii(&b[..2]).ok()?;
        let rest = match b[2] {
            b'x' | b'-' => &b[3..],
            _ => &b[2..],
        };
        if rest.len() < 2 {
            return None;
        }
        let to = Square::from_ascii(&rest[..2]).ok()?;
        let promo = match &rest[2..] {
            [] => None,
            [b'=', c] | [c] => Some(Role::from_char(char::from(*c).to_ascii_lowercase())?),
            _ => return None,
        };
        if matches!(promo, Some(Role::Pawn | Role::King)) {
            return None;
        }
        Some(MoveText {
            from,
            to,
            promotion: promo,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_uci_and_chesscom_notation() {
        let p = |s| MoveText::parse(s);
        assert_eq!(p("e2e4").unwrap().to, Square::E4);
        assert_eq!(p("Ng1f3").unwrap().from, Square::G1);
        assert_eq!(p("h7h8=Q").unwrap().promotion, Some(Role::Queen));
        assert_eq!(p("a2a1n").unwrap().promotion, Some(Role::Knight));
        assert_eq!(p("Bc1xg5").unwrap().to, Square::G5);
        assert!(p("e2").is_none());
        assert!(p("e2e9").is_none());
        assert!(p("e7e8k").is_none());
        assert!(p("hello").is_none());
    }
}
