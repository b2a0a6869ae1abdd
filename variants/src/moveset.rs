//! [`MoveSet`]: the legal moves of one side in compact form, one entry per piece (or per
//! group of pawn pushes) with its target squares.
//!
//! Building it costs one walk over the pieces with no per-move work, so the arena can
//! build an observation every ply cheaply; moves are counted, drawn by index, checked
//! and listed from it on demand, always in the same order:
//! entries in walk order (knights, bishops, rooks, queens, king, pawn single pushes,
//! pawn double pushes, then per pawn its captures and en passant, then castling), targets
//! in ascending square order, promotions as queen, rook, bishop, knight.

use std::fmt;
use std::hash::{Hash, Hasher};

use shakmaty::{Bitboard, Board, Color, Rank, Role, Square};

use crate::movegen::{self, MoveSource, Sink};
use crate::moves::{Move, MoveKind};
use crate::rules::Promotion;
use crate::view::FogView;

/// What an entry's targets mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum EntryKind {
    /// A piece (not a pawn) moving or capturing.
    Piece(Role),
    /// One-square pawn pushes; each origin is one square behind its target.
    PawnSingle,
    /// Two-square pawn pushes; each origin is two squares behind its target.
    PawnDouble,
    /// Captures by the pawn on `from`.
    PawnCapture,
    /// An en passant capture by the pawn on `from`.
    EnPassant,
    /// Castling: the king on `from` goes to a target.
    Castle,
}

/// One piece (or group of pushes) and where it can go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Entry {
    kind: EntryKind,
    from: Square,
    targets: Bitboard,
    /// Moves this entry stands for (promotions count once per piece they can become).
    count: u32,
}

impl Entry {
    const EMPTY: Entry = Entry {
        kind: EntryKind::Castle,
        from: Square::A1,
        targets: Bitboard::EMPTY,
        count: 0,
    };
}

/// The most entries a set can hold on any board: one per own piece (a pawn's captures
/// included; at most 64), two push groups, two en passant captures and two castlings.
const MAX_ENTRIES: usize = 72;

/// Where [`MoveSet`] and [`FogView`] callers find the pieces moves capture.
pub(crate) trait Pieces {
    /// The pieces of `color`.
    fn color_bb(&self, color: Color) -> Bitboard;
    /// The role on `sq`, if occupied.
    fn role_on(&self, sq: Square) -> Option<Role>;
}

impl Pieces for Board {
    #[inline]
    fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color(color)
    }
    #[inline]
    fn role_on(&self, sq: Square) -> Option<Role> {
        self.role_at(sq)
    }
}

impl Pieces for FogView {
    #[inline]
    fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color(color)
    }
    #[inline]
    fn role_on(&self, sq: Square) -> Option<Role> {
        self.role_at(sq)
    }
}

/// The legal moves of one side, compactly. See the module documentation for the order.
#[derive(Clone)]
pub(crate) struct MoveSet {
    us: Color,
    promotion: Promotion,
    len: usize,
    entries: Box<[Entry; MAX_ENTRIES]>,
    count: u32,
    reached: Bitboard,
    ep_found: Option<Square>,
}

impl PartialEq for MoveSet {
    fn eq(&self, other: &MoveSet) -> bool {
        self.us == other.us
            && self.promotion == other.promotion
            && self.entries() == other.entries()
            && self.count == other.count
            && self.reached == other.reached
            && self.ep_found == other.ep_found
    }
}

impl Eq for MoveSet {}

impl Hash for MoveSet {
    /// Hashes as the derived hash with the entries in a `Vec` did.
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.us.hash(h);
        self.promotion.hash(h);
        self.entries().hash(h);
        self.count.hash(h);
        self.reached.hash(h);
        self.ep_found.hash(h);
    }
}

impl fmt::Debug for MoveSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MoveSet")
            .field("us", &self.us)
            .field("promotion", &self.promotion)
            .field("entries", &self.entries())
            .field("count", &self.count)
            .field("reached", &self.reached)
            .field("ep_found", &self.ep_found)
            .finish()
    }
}

impl MoveSet {
    /// An empty set for `us`.
    pub fn new(us: Color, promotion: Promotion) -> MoveSet {
        MoveSet {
            us,
            promotion,
            len: 0,
            entries: Box::new([Entry::EMPTY; MAX_ENTRIES]),
            count: 0,
            reached: Bitboard::EMPTY,
            ep_found: None,
        }
    }

    /// The entries, in order.
    #[inline]
    fn entries(&self) -> &[Entry] {
        &self.entries[..self.len]
    }

    /// Rebuilds the set from `src`, reusing its storage.
    #[inline]
    pub fn rebuild(&mut self, src: &MoveSource<'_>) {
        self.us = src.us;
        self.promotion = src.rules.promotion;
        self.len = 0;
        self.count = 0;
        self.reached = Bitboard::EMPTY;
        self.ep_found = None;
        movegen::walk(src, self);
    }

    /// The set of `src`.
    pub fn of(src: &MoveSource<'_>) -> MoveSet {
        let mut s = MoveSet::new(src.us, src.rules.promotion);
        s.rebuild(src);
        s
    }

    /// Squares the moves reach (the en passant victim included).
    #[inline]
    pub fn reached(&self) -> Bitboard {
        self.reached
    }

    /// The en passant square, if an en passant capture is among the moves.
    #[inline]
    pub fn ep_found(&self) -> Option<Square> {
        self.ep_found
    }

    /// How many moves there are.
    #[inline]
    pub fn len(&self) -> usize {
        self.count as usize
    }

    fn last_rank(&self) -> Bitboard {
        Bitboard::from_rank(match self.us {
            Color::White => Rank::Eighth,
            Color::Black => Rank::First,
        })
    }

    fn promotions(&self) -> &'static [Role] {
        match self.promotion {
            Promotion::QueenOnly => &[Role::Queen],
            Promotion::Any => &[Role::Queen, Role::Rook, Role::Bishop, Role::Knight],
        }
    }

    #[inline]
    fn push(&mut self, kind: EntryKind, from: Square, targets: Bitboard, promotes: bool) {
        if targets.is_empty() {
            return;
        }
        let mut count = targets.count() as u32;
        if promotes {
            let extra = self.promotions().len() as u32 - 1;
            count += extra * (targets & self.last_rank()).count() as u32;
        }
        self.count += count;
        self.entries[self.len] = Entry {
            kind,
            from,
            targets,
            count,
        };
        self.len += 1;
    }

    /// The origin of a move to `to` described by `e`.
    #[inline]
    fn origin(&self, e: &Entry, to: Square) -> Square {
        let back: i32 = if self.us.is_white() { -8 } else { 8 };
        match e.kind {
            EntryKind::PawnSingle => Square::new((to as i32 + back) as u32),
            EntryKind::PawnDouble => Square::new((to as i32 + 2 * back) as u32),
            _ => e.from,
        }
    }

    /// The move of entry `e` to `to` with `promotion`.
    #[inline(always)]
    fn make(&self, e: &Entry, to: Square, promotion: Option<Role>, board: &impl Pieces) -> Move {
        let from = self.origin(e, to);
        let (role, kind) = match e.kind {
            EntryKind::Piece(r) => (r, MoveKind::Normal),
            EntryKind::EnPassant => (Role::Pawn, MoveKind::EnPassant),
            EntryKind::Castle => (Role::King, MoveKind::Castle),
            _ => (Role::Pawn, MoveKind::Normal),
        };
        let capture = match e.kind {
            EntryKind::EnPassant => Some(Role::Pawn),
            EntryKind::PawnSingle | EntryKind::PawnDouble | EntryKind::Castle => None,
            _ if board.color_bb(!self.us).contains(to) => board.role_on(to),
            _ => None,
        };
        Move {
            from,
            to,
            role,
            capture,
            promotion,
            kind,
        }
    }

    fn is_pawn_entry(e: &Entry) -> bool {
        matches!(
            e.kind,
            EntryKind::PawnSingle | EntryKind::PawnCapture | EntryKind::PawnDouble
        )
    }

    /// The `i`-th move (in the documented order); `None` past the end. `board` holds the
    /// pieces the set was built from (to name captured pieces).
    #[inline]
    pub fn nth(&self, mut i: usize, board: &impl Pieces) -> Option<Move> {
        for e in self.entries() {
            let n = e.count as usize;
            if i >= n {
                i -= n;
                continue;
            }
            let last = self.last_rank();
            if Self::is_pawn_entry(e) && (e.targets & last).any() {
                let promos = self.promotions();
                for to in e.targets {
                    if last.contains(to) {
                        if i < promos.len() {
                            return Some(self.make(e, to, Some(promos[i]), board));
                        }
                        i -= promos.len();
                    } else if i == 0 {
                        return Some(self.make(e, to, None, board));
                    } else {
                        i -= 1;
                    }
                }
                unreachable!("entry count matches its targets");
            }
            let mut t = e.targets.0;
            for _ in 0..i {
                t &= t - 1;
            }
            let to = Square::new(t.trailing_zeros());
            return Some(self.make(e, to, None, board));
        }
        None
    }

    /// The legal move from `from` to `to` with `promotion` (`None` for a promotion means
    /// a queen), if there is one.
    #[inline]
    pub fn find(
        &self,
        from: Square,
        to: Square,
        promotion: Option<Role>,
        board: &impl Pieces,
    ) -> Option<Move> {
        let last = self.last_rank();
        for e in self.entries() {
            if !e.targets.contains(to) || self.origin(e, to) != from {
                continue;
            }
            let promo = if Self::is_pawn_entry(e) && last.contains(to) {
                let p = promotion.unwrap_or(Role::Queen);
                if !self.promotions().contains(&p) {
                    return None;
                }
                Some(p)
            } else if promotion.is_some() {
                return None;
            } else {
                None
            };
            return Some(self.make(e, to, promo, board));
        }
        None
    }

    /// Whether `m` is one of the moves.
    #[inline]
    pub fn contains(&self, m: &Move, board: &impl Pieces) -> bool {
        self.find(m.from, m.to, m.promotion, board) == Some(*m)
    }

    /// Writes every move, in order, into `out` (cleared first).
    pub fn write_to(&self, board: &impl Pieces, out: &mut Vec<Move>) {
        out.clear();
        out.reserve(self.count as usize);
        let last = self.last_rank();
        for e in self.entries() {
            let promoting = Self::is_pawn_entry(e) && (e.targets & last).any();
            for to in e.targets {
                if promoting && last.contains(to) {
                    for &p in self.promotions() {
                        out.push(self.make(e, to, Some(p), board));
                    }
                } else {
                    out.push(self.make(e, to, None, board));
                }
            }
        }
    }
}

impl Sink for MoveSet {
    #[inline(always)]
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard) {
        self.reached |= targets;
        self.push(EntryKind::Piece(role), from, targets, false);
    }

    #[inline(always)]
    fn pawn_pushes(&mut self, single: Bitboard, double: Bitboard) {
        self.reached |= single | double;
        self.push(EntryKind::PawnSingle, Square::A1, single, true);
        self.push(EntryKind::PawnDouble, Square::A1, double, false);
    }

    #[inline(always)]
    fn pawn_captures(&mut self, from: Square, targets: Bitboard) {
        self.reached |= targets;
        self.push(EntryKind::PawnCapture, from, targets, true);
    }

    fn en_passant(&mut self, from: Square, to: Square) {
        self.reached.add(to);
        self.reached
            .add(Square::from_coords(to.file(), from.rank()));
        self.ep_found = Some(to);
        self.push(EntryKind::EnPassant, from, Bitboard::from(to), false);
    }

    fn castle(&mut self, king: Square, to: Square) {
        self.reached.add(to);
        self.push(EntryKind::Castle, king, Bitboard::from(to), false);
    }
}
