//! Writing the moves of one walk straight into a `Vec<Move>`: the allocation-free path
//! for searches, which list every move of every node.

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

/// Appends every move of `src` to `out` (not cleared), in walk order.
#[inline]
pub(crate) fn push_moves(src: &MoveSource<'_>, out: &mut Vec<Move>) {
    let mut sink = ListSink {
        out,
        board: src.board,
        us: src.us,
        promotions: match src.rules.promotion {
            Promotion::QueenOnly => &[Role::Queen],
            Promotion::Any => &[Role::Queen, Role::Rook, Role::Bishop, Role::Knight],
        },
        last: Bitboard::from_rank(match src.us {
            Color::White => Rank::Eighth,
            Color::Black => Rank::First,
        }),
    };
    walk(src, &mut sink);
}
