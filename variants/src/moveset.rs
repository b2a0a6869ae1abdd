//! [`MoveSet`]: the legal moves of one side in compact form, one entry per piece (or per
//! group of pawn pushes) with its target squares.
//!
//! Building it costs one walk over the pieces with no per-move work, so the arena can
//! build an observation every ply cheaply; moves are counted, drawn by index, checked
//! and listed from it on demand, always in the same order:
//! entries in walk order (knights, bishops, rooks, queens, king, pawn single pushes,
//! pawn double pushes, then per pawn its captures and en passant, then castling), targets
//! in ascending square order, promotions as queen, rook, bishop, knight.
//!
//! The per-ply operations avoid data-dependent branches, which cost more than the
//! instructions around them: an entry is written whether or not it has targets (the
//! length only advances past non-empty ones), the `i`-th move is found by counting entry
//! starts at or below `i` (a loop the compiler vectorizes) and selecting a bit without a
//! loop, and membership goes straight to the one entry a move can come from.

use std::fmt;
use std::hash::{Hash, Hasher};

use shakmaty::{Bitboard, Board, Color, Rank, Role, Square};

use crate::bits::select_bit;
use crate::movegen::{self, Earlier, MoveSource, Sink, Switches};
use crate::moves::{Move, MoveKind};
use crate::rules::Promotion;

/// What an entry's targets mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
enum EntryKind {
    /// A knight moving or capturing.
    Knight,
    /// A bishop moving or capturing.
    Bishop,
    /// A rook moving or capturing.
    Rook,
    /// A queen moving or capturing.
    Queen,
    /// The king moving or capturing.
    King,
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

impl EntryKind {
    /// The kind of a piece's (not a pawn's) entry.
    #[inline(always)]
    fn of_piece(role: Role) -> EntryKind {
        match role {
            Role::Knight => EntryKind::Knight,
            Role::Bishop => EntryKind::Bishop,
            Role::Rook => EntryKind::Rook,
            Role::Queen => EntryKind::Queen,
            // The walk never passes pawns here; the king is the remaining case.
            Role::King | Role::Pawn => EntryKind::King,
        }
    }

    /// The moving piece.
    #[inline(always)]
    fn role(self) -> Role {
        const ROLES: [Role; 10] = [
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
            Role::Pawn,
            Role::Pawn,
            Role::Pawn,
            Role::Pawn,
            Role::King,
        ];
        ROLES[self as usize]
    }

    /// The kind of the moves of this entry.
    #[inline(always)]
    fn move_kind(self) -> MoveKind {
        match self {
            EntryKind::EnPassant => MoveKind::EnPassant,
            EntryKind::Castle => MoveKind::Castle,
            _ => MoveKind::Normal,
        }
    }

    /// Pawn moves that promote on the last rank.
    #[inline(always)]
    fn promotes(self) -> bool {
        matches!(
            self,
            EntryKind::PawnSingle | EntryKind::PawnDouble | EntryKind::PawnCapture
        )
    }

    /// Pushes, whose origin follows from the target.
    #[inline(always)]
    fn is_push(self) -> bool {
        matches!(self, EntryKind::PawnSingle | EntryKind::PawnDouble)
    }

    /// Entries found through [`Table::at_from`]: one per origin square.
    #[inline(always)]
    fn indexed_by_origin(self) -> bool {
        (self as u8) <= EntryKind::King as u8 || self == EntryKind::PawnCapture
    }
}

/// One piece (or group of pushes) and where it can go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Entry {
    targets: Bitboard,
    kind: EntryKind,
    from: Square,
}

impl Entry {
    const EMPTY: Entry = Entry {
        targets: Bitboard::EMPTY,
        kind: EntryKind::Castle,
        from: Square::A1,
    };
}

/// The most entries a set can hold on any board: one per own piece (a pawn's captures
/// included; at most 64), two push groups, two en passant captures and two castlings,
/// so 70, rounded up to whole groups of [`LANES`] starts plus one group of padding.
const MAX_ENTRIES: usize = 96;

/// Starts compared per step when looking for the entry of the `i`-th move: most sets
/// have at most 16 entries, so one step usually does (measured a little faster than 8).
const LANES: usize = 16;

/// A start no move index reaches (padding after the last entry).
const NO_START: u16 = u16::MAX;

/// An `at_from` value that names no entry.
const NO_ENTRY: u8 = u8::MAX;

/// The storage of a set, boxed so that observations stay small to move.
#[derive(Clone)]
struct Table {
    entries: [Entry; MAX_ENTRIES],
    /// For each entry, the index of its first move; padded with [`NO_START`] up to the
    /// next multiple of [`LANES`].
    starts: [u16; MAX_ENTRIES],
    /// For each origin square, the index of the piece or pawn-capture entry written for
    /// it last (valid only if that entry is in range and still comes from that square).
    at_from: [u8; 64],
    /// The indices of the one-square and two-square push entries (valid only if the
    /// entry there is a push entry).
    push_at: [u8; 2],
}

/// Where [`MoveSet`] callers find the pieces moves capture: a true [`Board`], or a view
/// ([`FogView`](crate::FogView), whose impl lives beside it in `view`).
pub(crate) trait Pieces {
    /// The role on `sq`, if occupied.
    fn role_on(&self, sq: Square) -> Option<Role>;
}

impl Pieces for Board {
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
    /// The roles a pawn may promote to, as bits `1 << role`.
    promotion_roles: u8,
    /// The rank `us` promotes on.
    last: Bitboard,
    len: usize,
    table: Box<Table>,
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
        let mut s = MoveSet {
            us,
            promotion,
            promotion_roles: 0,
            last: Bitboard::EMPTY,
            len: 0,
            table: Box::new(Table {
                entries: [Entry::EMPTY; MAX_ENTRIES],
                starts: [NO_START; MAX_ENTRIES],
                at_from: [NO_ENTRY; 64],
                push_at: [NO_ENTRY; 2],
            }),
            count: 0,
            reached: Bitboard::EMPTY,
            ep_found: None,
        };
        s.set_side(us, promotion);
        s
    }

    fn set_side(&mut self, us: Color, promotion: Promotion) {
        self.us = us;
        self.promotion = promotion;
        self.promotion_roles = Self::promotions_of(promotion)
            .iter()
            .fold(0, |bits, &r| bits | 1 << r as u8);
        self.last = Bitboard::from_rank(match us {
            Color::White => Rank::Eighth,
            Color::Black => Rank::First,
        });
    }

    /// The entries, in order (none of them empty).
    #[inline]
    fn entries(&self) -> &[Entry] {
        &self.table.entries[..self.len]
    }

    /// Rebuilds the set from `src`, reusing its storage. The walk is compiled with the
    /// rule switches as constants when they are a preset's (see
    /// [`crate::movegen::Switches`]).
    #[inline]
    pub fn rebuild(&mut self, src: &MoveSource<'_>) {
        movegen::with_switches!(src.rules, |w| self.rebuild_with(src, w, &mut ()));
    }

    /// [`MoveSet::rebuild`], also giving `earlier` the attacks of the pieces other than
    /// pawns from the same walk.
    #[inline]
    pub fn rebuild_sharing(&mut self, src: &MoveSource<'_>, earlier: &mut impl Earlier) {
        movegen::with_switches!(src.rules, |w| self.rebuild_with(src, w, earlier));
    }

    /// [`MoveSet::rebuild_sharing`] under the switches `w`.
    #[inline(always)]
    fn rebuild_with<W: Switches, E: Earlier>(
        &mut self,
        src: &MoveSource<'_>,
        w: W,
        earlier: &mut E,
    ) {
        if src.us != self.us || src.rules.promotion != self.promotion {
            self.set_side(src.us, src.rules.promotion);
        }
        // Extra moves per promoting target: a constant under a preset's switches.
        let extra = match w.promotion(src.rules) {
            Promotion::QueenOnly => 0,
            Promotion::Any => 3,
        };
        let mut b = Builder {
            table: &mut self.table,
            extra,
            last: self.last,
            len: 0,
            count: 0,
            reached: Bitboard::EMPTY,
            ep_found: None,
        };
        movegen::walk_with(src, &mut b, w, earlier);
        // Pad the starts so that whole groups of LANES can be compared.
        let len = b.len;
        b.table.starts[len..len + LANES].fill(NO_START);
        self.len = len;
        self.count = b.count;
        self.reached = b.reached;
        self.ep_found = b.ep_found;
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

    fn promotions_of(promotion: Promotion) -> &'static [Role] {
        match promotion {
            Promotion::QueenOnly => &[Role::Queen],
            Promotion::Any => &[Role::Queen, Role::Rook, Role::Bishop, Role::Knight],
        }
    }

    fn promotions(&self) -> &'static [Role] {
        Self::promotions_of(self.promotion)
    }

    /// Whether a pawn may promote to the role numbered `role` (0, no role, never).
    #[inline(always)]
    fn may_promote_to(&self, role: u8) -> bool {
        (self.promotion_roles >> role) & 1 == 1
    }

    /// The origin of a move to `to` described by `e`. For a `to` outside the entry's
    /// targets the answer is some square (wrapped onto the board), never a panic:
    /// [`MoveSet::contains`] asks before it knows whether `to` is a target.
    #[inline(always)]
    fn origin(&self, e: &Entry, to: Square) -> Square {
        let back: i32 = if self.us.is_white() { -8 } else { 8 };
        let steps = 1 + i32::from(e.kind == EntryKind::PawnDouble);
        if e.kind.is_push() {
            Square::new((to as i32 + steps * back) as u32 & 63)
        } else {
            e.from
        }
    }

    /// The move of entry `e` to `to` with `promotion`.
    #[inline(always)]
    fn make(&self, e: &Entry, to: Square, promotion: Option<Role>, board: &impl Pieces) -> Move {
        let kind = e.kind.move_kind();
        // Targets are never own squares, and pushes and castling go to empty squares, so
        // the piece on `to` (if any) is the one captured; en passant takes a pawn beside.
        let capture = if e.kind == EntryKind::EnPassant {
            Some(Role::Pawn)
        } else {
            board.role_on(to)
        };
        Move {
            from: self.origin(e, to),
            to,
            role: e.kind.role(),
            capture,
            promotion,
            kind,
        }
    }

    /// The index of the entry holding move `i` (which must be below the count).
    #[inline(always)]
    fn entry_of(&self, i: usize) -> usize {
        let i = i as u16;
        let groups = self.len.div_ceil(LANES);
        let mut below = 0usize;
        for group in self.table.starts[..groups * LANES].chunks_exact(LANES) {
            below += group.iter().filter(|&&s| s <= i).count();
        }
        below - 1
    }

    /// The `i`-th move (in the documented order); `None` past the end. `board` holds the
    /// pieces the set was built from (to name captured pieces).
    #[inline]
    pub fn nth(&self, i: usize, board: &impl Pieces) -> Option<Move> {
        if i >= self.count as usize {
            return None;
        }
        let k = self.entry_of(i);
        let e = &self.table.entries[k];
        let j = (i - self.table.starts[k] as usize) as u32;
        if e.kind.promotes() & (e.targets & self.last).any() {
            return Some(self.nth_promoting(e, j, board));
        }
        Some(self.make(e, select_bit(e.targets.0, j), None, board))
    }

    /// Move `j` of a pawn entry with targets on the last rank, each of which stands for
    /// one move per promotion piece.
    #[cold]
    fn nth_promoting(&self, e: &Entry, mut j: u32, board: &impl Pieces) -> Move {
        let promos = self.promotions();
        let n = promos.len() as u32;
        for to in e.targets {
            if self.last.contains(to) {
                if j < n {
                    return self.make(e, to, Some(promos[j as usize]), board);
                }
                j -= n;
            } else if j == 0 {
                return self.make(e, to, None, board);
            } else {
                j -= 1;
            }
        }
        unreachable!("entry count matches its targets");
    }

    /// The move of entry `e` from `from` to `to` with `promotion` (`None` for a
    /// promotion means a queen), if the entry has it.
    #[inline(always)]
    fn move_in(
        &self,
        e: &Entry,
        from: Square,
        to: Square,
        promotion: Option<Role>,
        board: &impl Pieces,
    ) -> Option<Move> {
        if !e.targets.contains(to) || self.origin(e, to) != from {
            return None;
        }
        let promo = if e.kind.promotes() && self.last.contains(to) {
            let p = promotion.unwrap_or(Role::Queen);
            if !self.may_promote_to(p as u8) {
                return None;
            }
            Some(p)
        } else if promotion.is_some() {
            return None;
        } else {
            None
        };
        Some(self.make(e, to, promo, board))
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
        // At most one entry holds a given origin and target.
        self.entries()
            .iter()
            .find_map(|e| self.move_in(e, from, to, promotion, board))
    }

    /// Whether `m` is one of the moves.
    ///
    /// At most one entry can hold a move with `m`'s origin and target, and `m`'s fields
    /// say where it is: the push entries for a pawn moving straight ahead, otherwise the
    /// entry indexed by its origin square (en passant and castling, which are rare, are
    /// searched for). `m` is legal exactly when that entry makes the same move, so a
    /// stale index can only miss, never accept a wrong move, and it cannot miss: every
    /// non-empty entry of this build was indexed when it was written.
    ///
    /// The fields are compared one by one with the move the entry makes, without
    /// building it and without branching between the comparisons (only the captured
    /// piece is looked up, and only when the target is occupied).
    #[inline]
    pub fn contains(&self, m: &Move, board: &impl Pieces) -> bool {
        let k = if m.kind == MoveKind::Normal {
            let t = &self.table;
            let push = (m.role == Role::Pawn) & (m.from.file() == m.to.file());
            let double = usize::from((m.from as u32).abs_diff(m.to as u32) == 16);
            let k = if push {
                t.push_at[double]
            } else {
                t.at_from[m.from as usize]
            };
            usize::from(k)
        } else {
            let kind = if m.kind == MoveKind::EnPassant {
                EntryKind::EnPassant
            } else {
                EntryKind::Castle
            };
            self.entries()
                .iter()
                .position(|e| e.kind == kind && e.from == m.from && e.targets.contains(m.to))
                .unwrap_or(usize::MAX)
        };
        let Some(e) = self.entries().get(k) else {
            return false;
        };
        let promotes = e.kind.promotes() & self.last.contains(m.to);
        let promotion = m.promotion.map_or(0, |r| r as u8);
        let promotion_ok = if promotes {
            self.may_promote_to(promotion)
        } else {
            promotion == 0
        };
        let capture = if e.kind == EntryKind::EnPassant {
            Some(Role::Pawn)
        } else {
            board.role_on(m.to)
        };
        e.targets.contains(m.to)
            & (self.origin(e, m.to) == m.from)
            & (e.kind.role() == m.role)
            & (e.kind.move_kind() == m.kind)
            & promotion_ok
            & (capture == m.capture)
    }

    /// Writes every move, in order, into `out` (cleared first).
    pub fn write_to(&self, board: &impl Pieces, out: &mut Vec<Move>) {
        out.clear();
        out.reserve(self.count as usize);
        for e in self.entries() {
            let promoting = e.kind.promotes() && (e.targets & self.last).any();
            for to in e.targets {
                if promoting && self.last.contains(to) {
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

/// The walk's sink while a set is rebuilt: the counters are locals (kept in registers),
/// the entries go straight into the table.
struct Builder<'a> {
    table: &'a mut Table,
    extra: u32,
    last: Bitboard,
    len: usize,
    count: u32,
    reached: Bitboard,
    ep_found: Option<Square>,
}

impl Builder<'_> {
    /// Appends an entry; an empty one is written but not counted, so the next entry
    /// overwrites it (no branch on emptiness).
    #[inline(always)]
    fn push(&mut self, kind: EntryKind, from: Square, targets: Bitboard) {
        let mut count = targets.count() as u32;
        if kind.promotes() {
            count += self.extra * (targets & self.last).count() as u32;
        }
        let len = self.len;
        self.table.entries[len] = Entry {
            targets,
            kind,
            from,
        };
        self.table.starts[len] = self.count as u16;
        if kind.indexed_by_origin() {
            self.table.at_from[from as usize] = len as u8;
        }
        self.count += count;
        self.len = len + usize::from(count != 0);
    }
}

impl Sink for Builder<'_> {
    #[inline(always)]
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard) {
        self.reached |= targets;
        self.push(EntryKind::of_piece(role), from, targets);
    }

    #[inline(always)]
    fn pawn_pushes(&mut self, single: Bitboard, double: Bitboard) {
        self.reached |= single | double;
        self.table.push_at[0] = self.len as u8;
        self.push(EntryKind::PawnSingle, Square::A1, single);
        self.table.push_at[1] = self.len as u8;
        self.push(EntryKind::PawnDouble, Square::A1, double);
    }

    #[inline(always)]
    fn pawn_captures(&mut self, from: Square, targets: Bitboard) {
        self.reached |= targets;
        self.push(EntryKind::PawnCapture, from, targets);
    }

    fn en_passant(&mut self, from: Square, to: Square) {
        self.reached.add(to);
        self.reached
            .add(Square::from_coords(to.file(), from.rank()));
        self.ep_found = Some(to);
        self.push(EntryKind::EnPassant, from, Bitboard::from(to));
    }

    fn castle(&mut self, king: Square, to: Square) {
        self.reached.add(to);
        self.push(EntryKind::Castle, king, Bitboard::from(to));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::FromRules;
    use crate::rules::Castling;
    use crate::testing::random_playouts;
    use crate::RuleSet;

    /// The walks compiled for the presets' switches build the same sets as the walk that
    /// reads the switches at run time, for both sides of positions from random playouts
    /// under each preset (and under a mix that takes the run-time path).
    #[test]
    fn preset_walks_equal_the_run_time_walk() {
        let mut mixed = RuleSet::thesis();
        mixed.castling = Castling::Rights;
        mixed.promotion = Promotion::Any;
        let mut checked = 0;
        for rules in [RuleSet::thesis(), RuleSet::chesscom(), mixed] {
            random_playouts(&rules, 200, 11, |pos| {
                for us in [Color::White, Color::Black] {
                    let src = pos.source(us, &rules);
                    let mut dispatched = MoveSet::new(us, rules.promotion);
                    dispatched.rebuild(&src);
                    let mut run_time = MoveSet::new(us, rules.promotion);
                    run_time.rebuild_with(&src, FromRules, &mut ());
                    assert_eq!(dispatched, run_time, "{pos} {us}");
                    checked += 1;
                }
            });
        }
        assert!(checked > 10_000);
    }
}
