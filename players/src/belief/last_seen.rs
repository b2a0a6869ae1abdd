//! Where the opponent last saw each of our pieces ([`LastSeen`]): a first model of what it
//! knows about us, for subgames that do not credit it with knowing where every one of our
//! pieces stands (the knowledge-limited subgames of Zhang and Sandholm's Obscuro, in a
//! simple form).
//!
//! Every piece of ours is tracked from the square it stands on now to the square where
//! the opponent last saw it: the start position is public, our moves carry a piece's
//! record with it, and a piece the opponent sees (after our move, on most of the boards we
//! believe possible) is seen where it stands. [`LastSeen::stale`] builds a position like a
//! believed one with our unseen pieces back where the opponent last saw them: what it may
//! still believe.

use std::collections::HashMap;

use fow_variants::shakmaty::{Board, Role, Square};
use fow_variants::{Bitboard, Color, Position};

/// Where the opponent last saw each of our pieces (see the [module documentation](self)).
#[derive(Clone, Debug, PartialEq)]
pub struct LastSeen {
    us: Color,
    /// From the square a piece of ours stands on now to where the opponent last saw it.
    squares: HashMap<Square, Square>,
}

impl LastSeen {
    /// Our pieces in `start` (public), each seen where it stands.
    pub fn new(us: Color, start: &Position) -> LastSeen {
        LastSeen {
            us,
            squares: start
                .board()
                .by_color(us)
                .into_iter()
                .map(|s| (s, s))
                .collect(),
        }
    }

    /// Where the opponent last saw the piece of ours on `now`, if one is tracked there.
    pub fn of(&self, now: Square) -> Option<Square> {
        self.squares.get(&now).copied()
    }

    /// Forgets the pieces no longer among `ours` (captured).
    pub fn keep_only(&mut self, ours: Bitboard) {
        self.squares.retain(|now, _| ours.contains(*now));
    }

    /// Our move took our pieces from `before` to `after` (the same move on any board we
    /// believe possible: our pieces are the same on all): each piece's record moves with
    /// it, a castling rook's included.
    pub fn moved(&mut self, before: &Board, after: &Board) {
        let us = self.us;
        let left = before.by_color(us) & !after.by_color(us);
        let came = after.by_color(us) & !before.by_color(us);
        let records: Vec<(Square, Option<Square>)> = left
            .into_iter()
            .map(|s| (s, self.squares.remove(&s)))
            .collect();
        for to in came {
            // The piece that left a square for `to`: the one of the same role, else the
            // only one (a promotion).
            let role = after.role_at(to);
            let from = records
                .iter()
                .find(|(s, _)| before.role_at(*s) == role)
                .or(records.first().filter(|_| records.len() == 1));
            if let Some(&(_, Some(seen))) = from {
                self.squares.insert(to, seen);
            }
        }
    }

    /// The opponent saw our pieces on `seen`: each is seen where it stands.
    pub fn saw(&mut self, seen: Bitboard) {
        for (now, last) in self.squares.iter_mut() {
            if seen.contains(*now) {
                *last = *now;
            }
        }
    }

    /// `pos` (a believed position) with our pieces the opponent has not seen since they
    /// moved put back where it last saw them, when that square is empty in `pos`; our king
    /// and pieces with castling rights stay. `None` when no piece moves back, or the
    /// position cannot be built.
    pub fn stale(&self, pos: &Position) -> Option<Position> {
        let mut setup = pos.to_setup();
        let mut moved = false;
        let mut keys: Vec<(&Square, &Square)> = self.squares.iter().collect();
        keys.sort_unstable();
        for (&now, &last) in keys {
            let Some(piece) = pos.board().piece_at(now) else {
                continue;
            };
            let back_rank_pawn = piece.role == Role::Pawn && Bitboard::BACKRANKS.contains(last);
            if now == last
                || piece.color != self.us
                || piece.role == Role::King
                || pos.castling_rights().contains(now)
                || setup.board.piece_at(last).is_some()
                || back_rank_pawn
            {
                continue;
            }
            setup.board.discard_piece_at(now);
            setup.board.set_piece_at(last, piece);
            moved = true;
        }
        if !moved {
            return None;
        }
        setup.ep_square = None;
        Position::from_setup(setup).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::RuleSet;

    fn play(pos: &mut Position, uci: &str) -> (Board, Board) {
        let rules = RuleSet::thesis();
        let before = pos.board().clone();
        let m = pos.parse_uci(uci, &rules).unwrap();
        pos.play(&m);
        (before, pos.board().clone())
    }

    #[test]
    fn records_follow_our_moves_and_stale_boards_put_unseen_pieces_back() {
        let mut pos = Position::startpos();
        let mut seen = LastSeen::new(Color::White, &pos);
        assert_eq!(seen.of(Square::G1), Some(Square::G1));
        // The knight goes to f3 unseen: it is still believed on g1.
        let (before, after) = play(&mut pos, "g1f3");
        seen.moved(&before, &after);
        assert_eq!(seen.of(Square::F3), Some(Square::G1));
        assert_eq!(seen.of(Square::G1), None);
        play(&mut pos, "a7a6");
        let stale = seen.stale(&pos).unwrap();
        assert_eq!(
            stale.board().piece_at(Square::G1),
            pos.board().piece_at(Square::F3)
        );
        assert!(stale.board().piece_at(Square::F3).is_none());
        assert_eq!(stale.turn(), pos.turn());
        // Seen on f3: nothing is stale any more.
        seen.saw(Bitboard::from_square(Square::F3));
        assert_eq!(seen.of(Square::F3), Some(Square::F3));
        assert_eq!(seen.stale(&pos), None);
        // Castling carries the rook's record with it; a captured piece is forgotten.
        let mut pos: Position = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
        let mut seen = LastSeen::new(Color::White, &pos);
        let (before, after) = play(&mut pos, "e1g1");
        seen.moved(&before, &after);
        assert_eq!(seen.of(Square::G1), Some(Square::E1));
        assert_eq!(seen.of(Square::F1), Some(Square::H1));
        seen.keep_only(pos.board().by_color(Color::White) & !Bitboard::from_square(Square::A1));
        assert_eq!(seen.of(Square::A1), None);
        // The king stays where it is in a stale board; the rook goes back to h1.
        let stale = seen.stale(&pos).unwrap();
        assert_eq!(stale.board().king_of(Color::White), Some(Square::G1));
        assert_eq!(
            stale.board().piece_at(Square::H1).map(|p| p.role),
            Some(Role::Rook)
        );
    }
}
