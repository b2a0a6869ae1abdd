//! Writing the moves of one walk straight into a `Vec<Move>`: the allocation-free path
//! for searches, which list every move of every node ([`MoveSource::push_moves`]).

use shakmaty::{Bitboard, Board, Color, Rank, Role, Square};

use crate::movegen::{walk, MoveSource, Sink};
use crate::moves::{Move, MoveKind};
use crate::rules::Promotion;

struct ListSink<'a> {
    out: &'a mut Vec<Move>,
    board: &'a Board,
    us: Color,
    promotions: &'static [Role],
    last: Bitboard,
}

impl ListSink<'_> {
    #[inline(always)]
    fn victim(&self, to: Square) -> Option<Role> {
        if self.board.by_color(!self.us).contains(to) {
            self.board.role_at(to)
        } else {
            None
        }
    }

    #[inline(always)]
    fn pawn(&mut self, from: Square, to: Square, capture: Option<Role>) {
        if self.last.contains(to) {
            for &p in self.promotions {
                self.out.push(Move {
                    from,
                    to,
                    role: Role::Pawn,
                    capture,
                    promotion: Some(p),
                    kind: MoveKind::Normal,
                });
            }
        } else {
            self.out.push(Move {
                from,
                to,
                role: Role::Pawn,
                capture,
                promotion: None,
                kind: MoveKind::Normal,
            });
        }
    }
}

impl Sink for ListSink<'_> {
    #[inline(always)]
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard) {
        for to in targets {
            let capture = self.victim(to);
            self.out.push(Move {
                from,
                to,
                role,
                capture,
                promotion: None,
                kind: MoveKind::Normal,
            });
        }
    }

    #[inline(always)]
    fn pawn_pushes(&mut self, single: Bitboard, double: Bitboard) {
        let back: i32 = if self.us.is_white() { -8 } else { 8 };
        for to in single {
            self.pawn(Square::new((to as i32 + back) as u32), to, None);
        }
        for to in double {
            self.pawn(Square::new((to as i32 + 2 * back) as u32), to, None);
        }
    }

    #[inline(always)]
    fn pawn_captures(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            let capture = self.victim(to);
            self.pawn(from, to, capture);
        }
    }

    fn en_passant(&mut self, from: Square, to: Square) {
        self.out.push(Move {
            from,
            to,
            role: Role::Pawn,
            capture: Some(Role::Pawn),
            promotion: None,
            kind: MoveKind::EnPassant,
        });
    }

    fn castle(&mut self, king: Square, to: Square) {
        self.out.push(Move {
            from: king,
            to,
            role: Role::King,
            capture: None,
            promotion: None,
            kind: MoveKind::Castle,
        });
    }
}

impl MoveSource<'_> {
    /// Appends every pseudo-legal move of `us` to `out` (which is not cleared), without
    /// allocating beyond `out`'s growth. The order is the walk's: knights, bishops, rooks,
    /// queens, king, pawn single pushes, double pushes, pawn captures and en passant,
    /// castling.
    ///
    /// ```
    /// use fow_variants::{Position, RuleSet};
    /// let pos = Position::startpos();
    /// let rules = RuleSet::thesis();
    /// let mut v = Vec::new();
    /// pos.source(pos.turn(), &rules).push_moves(&mut v);
    /// assert_eq!(v.len(), 20);
    /// ```
    #[inline]
    pub fn push_moves(&self, out: &mut Vec<Move>) {
        let mut sink = ListSink {
            out,
            board: self.board,
            us: self.us,
            promotions: match self.rules.promotion {
                Promotion::QueenOnly => &[Role::Queen],
                Promotion::Any => &[Role::Queen, Role::Rook, Role::Bishop, Role::Knight],
            },
            last: Bitboard::from_rank(match self.us {
                Color::White => Rank::Eighth,
                Color::Black => Rank::First,
            }),
        };
        walk(self, &mut sink);
    }
}
