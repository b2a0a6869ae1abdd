//! Pseudo-legal move generation for fog-of-war chess, and visibility.
//!
//! There is no check: every pseudo-legal move is playable, the king may be captured.
//! One walk over the movement rules ([`walk`]) feeds two consumers: a move list and a
//! visibility mask, so "the squares a side sees" and "the moves a side has" cannot drift
//! apart. The move lists themselves live in [`crate::moveset`] (compact) and
//! [`crate::movelist`] (a `Vec<Move>`, [`MoveSource::push_moves`]). The same walk runs on
//! a true board (no fog) and on a view, where fog squares count as blockers that cannot
//! be entered or captured: a player's legal moves follow from what it sees.

use shakmaty::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks};
use shakmaty::{Bitboard, Board, Color, File, Rank, Role, Square};

use crate::rules::{Castling, Promotion, RuleSet};
use crate::sliders::rook_attacks;

/// The inputs of move generation for one side: the pieces it knows, the squares it cannot
/// see, and the side's own castling and en passant state. Built from a true position
/// ([`crate::Position::source`]), from a view ([`crate::FogView::source`]) or, by a
/// search or a belief tracker, from any board with [`MoveSource::new`].
#[derive(Clone, Copy)]
pub struct MoveSource<'a> {
    /// Pieces known to the mover: all, or (for a view) the visible ones.
    pub board: &'a Board,
    /// Squares whose content is unknown (empty for a true position).
    pub fog: Bitboard,
    /// The side to generate for.
    pub us: Color,
    /// Rook squares that keep a castling right (only read under `Castling::Rights`).
    pub castling: Bitboard,
    /// The square a pawn skipped on the last move, if any.
    pub ep_square: Option<Square>,
    /// The rules (read: en passant, castling and promotion).
    pub rules: &'a RuleSet,
}

impl<'a> MoveSource<'a> {
    /// Move generation for `us` on `board`, where `fog` squares block and cannot be
    /// entered or captured, `castling` holds the rook squares that keep a castling right
    /// (read only under `Castling::Rights`) and `ep_square` is the square a pawn just
    /// skipped.
    pub fn new(
        board: &'a Board,
        fog: Bitboard,
        us: Color,
        castling: Bitboard,
        ep_square: Option<Square>,
        rules: &'a RuleSet,
    ) -> MoveSource<'a> {
        MoveSource {
            board,
            fog,
            us,
            castling,
            ep_square,
            rules,
        }
    }

    /// The squares `us` sees (its pieces and every square its moves reach) and the en
    /// passant square when an en passant capture is possible.
    #[inline]
    pub fn visibility(&self) -> (Bitboard, Option<Square>) {
        visibility(self)
    }
}

/// The squares move generation starts from (see [`MoveSource::sides`]).
struct Sides {
    /// The mover's pieces.
    ours: Bitboard,
    /// The other side's known pieces.
    theirs: Bitboard,
    /// Squares that block: pieces and fog.
    occupied: Bitboard,
    /// Squares the mover may move to: neither its own pieces nor fog.
    enterable: Bitboard,
}

impl MoveSource<'_> {
    /// The mover's pieces, the other side's, the blocking squares and the enterable ones.
    #[inline(always)]
    fn sides(&self) -> Sides {
        let ours = self.board.by_color(self.us);
        Sides {
            ours,
            theirs: self.board.by_color(!self.us),
            occupied: self.board.occupied() | self.fog,
            enterable: !(ours | self.fog),
        }
    }
}

/// The rule switches that move generation reads. A move set's rebuild (the arena's
/// per-ply walk) is compiled once for each of the two presets' combinations of these
/// switches, where they are constants ([`Fixed`]), so that neither copy carries code for
/// rules it does not have (en passant, promotion choices, castling rights); any other
/// combination reads them from the rule set ([`FromRules`]). Chosen by switch values, not
/// by preset name, with [`with_switches!`]; which copy runs never changes what it
/// computes (a test in `moveset` compares them).
pub(crate) trait Switches: Copy {
    /// Whether en passant is allowed.
    fn en_passant(self, rules: &RuleSet) -> bool;
    /// When castling is allowed.
    fn castling(self, rules: &RuleSet) -> Castling;
    /// What a pawn may promote to.
    fn promotion(self, rules: &RuleSet) -> Promotion;
}

/// Switches read from the rule set at run time.
#[derive(Clone, Copy)]
pub(crate) struct FromRules;

impl Switches for FromRules {
    #[inline(always)]
    fn en_passant(self, rules: &RuleSet) -> bool {
        rules.en_passant
    }
    #[inline(always)]
    fn castling(self, rules: &RuleSet) -> Castling {
        rules.castling
    }
    #[inline(always)]
    fn promotion(self, rules: &RuleSet) -> Promotion {
        rules.promotion
    }
}

/// Switches fixed at compile time: en passant, castling (0 off, 1 positional, 2 with
/// rights) and promotion (any piece, or a queen only).
#[derive(Clone, Copy)]
pub(crate) struct Fixed<const EN_PASSANT: bool, const CASTLING: u8, const ANY_PROMOTION: bool>;

impl<const EN_PASSANT: bool, const CASTLING: u8, const ANY_PROMOTION: bool> Switches
    for Fixed<EN_PASSANT, CASTLING, ANY_PROMOTION>
{
    #[inline(always)]
    fn en_passant(self, _: &RuleSet) -> bool {
        EN_PASSANT
    }
    #[inline(always)]
    fn castling(self, _: &RuleSet) -> Castling {
        match CASTLING {
            0 => Castling::Off,
            1 => Castling::Positional,
            _ => Castling::Rights,
        }
    }
    #[inline(always)]
    fn promotion(self, _: &RuleSet) -> Promotion {
        if ANY_PROMOTION {
            Promotion::Any
        } else {
            Promotion::QueenOnly
        }
    }
}

/// Evaluates `$body` with `$w` bound to the [`Switches`] of `$rules`: constants when they
/// are those of a preset (the thesis's, chess.com's), read at run time otherwise.
macro_rules! with_switches {
    ($rules:expr, |$w:ident| $body:expr) => {{
        use $crate::movegen::{Fixed, FromRules};
        use $crate::rules::{Castling, Promotion};
        let rules: &$crate::rules::RuleSet = $rules;
        match (rules.en_passant, rules.castling, rules.promotion) {
            (false, Castling::Positional, Promotion::QueenOnly) => {
                let $w = Fixed::<false, 1, false>;
                $body
            }
            (true, Castling::Rights, Promotion::Any) => {
                let $w = Fixed::<true, 2, true>;
                $body
            }
            _ => {
                let $w = FromRules;
                $body
            }
        }
    }};
}
pub(crate) use with_switches;

/// Receives the moves of one walk, grouped as cheaply as the walk finds them.
pub(crate) trait Sink {
    /// Non-pawn moves of `role` from `from` to each target (targets may hold enemies).
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard);
    /// Pawn pushes by destination: one-square pushes and two-square pushes.
    fn pawn_pushes(&mut self, single: Bitboard, double: Bitboard);
    /// Pawn captures from `from` onto each target (each holds an enemy piece).
    fn pawn_captures(&mut self, from: Square, targets: Bitboard);
    /// An en passant capture.
    fn en_passant(&mut self, from: Square, to: Square);
    /// Castling: the king goes from `king` to `to`.
    fn castle(&mut self, king: Square, to: Square);
}

/// Attacks a walk also collects for the same side's pieces on an earlier board that
/// differs from the walked one only in its occupancy and in pieces of this side that
/// have since been lost (see [`crate::Observation::refresh_after`]): the loop over the
/// pieces is shared, and only the sliding pieces are looked up again.
pub(crate) trait Earlier {
    /// A knight's or the king's attacks (the same on any board).
    fn fixed(&mut self, attacks: Bitboard);
    /// A bishop's or queen's diagonal attacks from `from`.
    fn diagonal(&mut self, from: Square);
    /// A rook's or queen's straight attacks from `from`.
    fn straight(&mut self, from: Square);
}

/// No earlier board: the walk collects nothing more.
impl Earlier for () {
    #[inline(always)]
    fn fixed(&mut self, _: Bitboard) {}
    #[inline(always)]
    fn diagonal(&mut self, _: Square) {}
    #[inline(always)]
    fn straight(&mut self, _: Square) {}
}

/// The union of the walked pieces' attacks under an earlier board's occupancy.
pub(crate) struct EarlierAttacks {
    /// The earlier board's occupied squares.
    pub occupied: Bitboard,
    /// The attacks collected so far (own squares included).
    pub attacks: Bitboard,
}

impl Earlier for EarlierAttacks {
    #[inline(always)]
    fn fixed(&mut self, attacks: Bitboard) {
        self.attacks |= attacks;
    }
    #[inline(always)]
    fn diagonal(&mut self, from: Square) {
        self.attacks |= bishop_attacks(from, self.occupied);
    }
    #[inline(always)]
    fn straight(&mut self, from: Square) {
        self.attacks |= rook_attacks(from, self.occupied);
    }
}

/// Walks every pseudo-legal move of `src.us`, feeding `sink` (switches read at run time).
#[inline(always)]
pub(crate) fn walk<S: Sink>(src: &MoveSource<'_>, sink: &mut S) {
    walk_with(src, sink, FromRules, &mut ());
}

/// Walks every pseudo-legal move of `src.us` under the switches `w`, feeding `sink`, and
/// gives `earlier` the attacks of the pieces other than pawns.
#[inline(always)]
pub(crate) fn walk_with<S: Sink, W: Switches, E: Earlier>(
    src: &MoveSource<'_>,
    sink: &mut S,
    w: W,
    earlier: &mut E,
) {
    let (b, us) = (src.board, src.us);
    let Sides {
        ours,
        theirs,
        occupied,
        enterable,
    } = src.sides();

    for from in ours & b.knights() {
        let a = knight_attacks(from);
        earlier.fixed(a);
        sink.piece(Role::Knight, from, a & enterable);
    }
    for from in ours & b.bishops() {
        earlier.diagonal(from);
        sink.piece(
            Role::Bishop,
            from,
            bishop_attacks(from, occupied) & enterable,
        );
    }
    for from in ours & b.rooks() {
        earlier.straight(from);
        sink.piece(Role::Rook, from, rook_attacks(from, occupied) & enterable);
    }
    for from in ours & b.queens() {
        earlier.diagonal(from);
        earlier.straight(from);
        let t = bishop_attacks(from, occupied) | rook_attacks(from, occupied);
        sink.piece(Role::Queen, from, t & enterable);
    }
    let kings = ours & b.kings();
    for from in kings {
        let a = king_attacks(from);
        earlier.fixed(a);
        sink.piece(Role::King, from, a & enterable);
    }

    let pawns = ours & b.pawns();
    if pawns.any() {
        let (single, double) = pawn_pushes(us, pawns, !occupied);
        sink.pawn_pushes(single, double);
        let ep = usable_ep(src, occupied, w);
        // Only pawns with a capture (or en passant) have entries: find them in bulk, as
        // the squares from which an enemy pawn would attack those targets.
        let prey = theirs | ep.map_or(Bitboard::EMPTY, Bitboard::from);
        for from in pawns & pawn_attacks_all(!us, prey) {
            let att = pawn_attacks(us, from);
            let caps = att & theirs;
            if caps.any() {
                sink.pawn_captures(from, caps);
            }
            if let Some(ep) = ep {
                if att.contains(ep) {
                    sink.en_passant(from, ep);
                }
            }
        }
    }

    let castling = w.castling(src.rules);
    if castling != Castling::Off {
        let home = match us {
            Color::White => Square::E1,
            Color::Black => Square::E8,
        };
        if kings.contains(home) {
            let rank = us.backrank();
            let rooks = ours & b.rooks();
            let need_rights = castling == Castling::Rights;
            // (rook corner file, squares between king and rook, king's destination file)
            for (rook_file, between, dest_file) in [
                (shakmaty::File::H, 0x60u64, shakmaty::File::G),
                (shakmaty::File::A, 0x0eu64, shakmaty::File::C),
            ] {
                let rook = Square::from_coords(rook_file, rank);
                let between = Bitboard(between << (8 * rank.to_u32()));
                if rooks.contains(rook)
                    && (occupied & between).is_empty()
                    && (!need_rights || src.castling.contains(rook))
                {
                    sink.castle(home, Square::from_coords(dest_file, rank));
                }
            }
        }
    }
}

/// The targets of the one-square and two-square pushes of `color`'s `pawns` onto
/// `empty` squares.
#[inline(always)]
fn pawn_pushes(color: Color, pawns: Bitboard, empty: Bitboard) -> (Bitboard, Bitboard) {
    match color {
        Color::White => {
            let s = pawns.shift(8) & empty;
            (s, (s & Bitboard::from_rank(Rank::Third)).shift(8) & empty)
        }
        Color::Black => {
            let s = pawns.shift(-8) & empty;
            (s, (s & Bitboard::from_rank(Rank::Sixth)).shift(-8) & empty)
        }
    }
}

/// The en passant square if the rules allow en passant and it is empty (not fog).
#[inline(always)]
fn usable_ep<W: Switches>(src: &MoveSource<'_>, occupied: Bitboard, w: W) -> Option<Square> {
    src.ep_square
        .filter(|_| w.en_passant(src.rules))
        .filter(|&sq| !occupied.contains(sq))
}

/// The en passant square and a pawn on `pawns` (of `src.us`) that can capture there, if
/// the rules allow en passant and one can (run-time switches).
#[inline(always)]
fn ep_capture(
    src: &MoveSource<'_>,
    pawns: Bitboard,
    occupied: Bitboard,
) -> Option<(Square, Square)> {
    let ep = usable_ep(src, occupied, FromRules)?;
    let from = (pawn_attacks(!src.us, ep) & pawns).first()?;
    Some((ep, from))
}

/// The en passant square if `src.us` can capture en passant now (what
/// [`visibility`] reports, without the rest of it).
#[inline]
pub(crate) fn en_passant_capture(src: &MoveSource<'_>) -> Option<Square> {
    let b = src.board;
    let pawns = b.by_color(src.us) & b.pawns();
    ep_capture(src, pawns, b.occupied() | src.fog).map(|(ep, _)| ep)
}

/// The squares the pawns of `color` on `pawns` attack, all at once (the union of
/// [`pawn_attacks`] over them).
#[inline(always)]
fn pawn_attacks_all(color: Color, pawns: Bitboard) -> Bitboard {
    let west = pawns & !Bitboard::from_file(File::A);
    let east = pawns & !Bitboard::from_file(File::H);
    match color {
        Color::White => west.shift(7) | east.shift(9),
        Color::Black => west.shift(-9) | east.shift(-7),
    }
}

/// The squares `src.us` sees: its own pieces and everything its moves reach. Returns the
/// en passant square too when an en passant capture is possible.
///
/// Equal to a [`walk`] that collects the targets of every move, computed per piece type
/// rather than per move (pawn captures in bulk), since visibility needs no move list.
#[inline]
pub(crate) fn visibility(src: &MoveSource<'_>) -> (Bitboard, Option<Square>) {
    let b = src.board;
    let attacks = piece_attacks(b, b.by_color(src.us), b.occupied() | src.fog);
    visibility_from(src, attacks)
}

/// The union of the attacks of the knights, bishops, rooks, queens and kings among
/// `pieces` on `board` (not pawns), with `occupied` blocking the sliding pieces.
#[inline(always)]
pub(crate) fn piece_attacks(board: &Board, pieces: Bitboard, occupied: Bitboard) -> Bitboard {
    let mut reached = Bitboard::EMPTY;
    for from in pieces & board.knights() {
        reached |= knight_attacks(from);
    }
    for from in pieces & board.bishops_and_queens() {
        reached |= bishop_attacks(from, occupied);
    }
    for from in pieces & board.rooks_and_queens() {
        reached |= rook_attacks(from, occupied);
    }
    for from in pieces & board.kings() {
        reached |= king_attacks(from);
    }
    reached
}

/// [`visibility`] given `attacks`, the [`piece_attacks`] of all of `src.us`'s pieces
/// (own squares may be included): adds the pawns' moves and castling.
#[inline(always)]
pub(crate) fn visibility_from(
    src: &MoveSource<'_>,
    attacks: Bitboard,
) -> (Bitboard, Option<Square>) {
    let (b, us) = (src.board, src.us);
    let sides = src.sides();
    let (ours, occupied) = (sides.ours, sides.occupied);
    let mut reached = attacks & sides.enterable;

    let mut ep_found = None;
    let pawns = ours & b.pawns();
    if pawns.any() {
        let (single, double) = pawn_pushes(us, pawns, !occupied);
        let attacks = pawn_attacks_all(us, pawns);
        reached |= single | double | (attacks & sides.theirs);
        // Switches read at run time: a copy of this function per preset measured no
        // faster (the dispatch costs what the constants save).
        if let Some((ep, from)) = ep_capture(src, pawns, occupied) {
            reached.add(ep);
            reached.add(Square::from_coords(ep.file(), from.rank()));
            ep_found = Some(ep);
        }
    }

    if src.rules.castling != Castling::Off {
        let home = match us {
            Color::White => Square::E1,
            Color::Black => Square::E8,
        };
        if (ours & b.kings()).contains(home) {
            let rank = us.backrank();
            let rooks = ours & b.rooks();
            let need_rights = src.rules.castling == Castling::Rights;
            for (rook_file, between, dest_file) in
                [(File::H, 0x60u64, File::G), (File::A, 0x0eu64, File::C)]
            {
                let rook = Square::from_coords(rook_file, rank);
                let between = Bitboard(between << (8 * rank.to_u32()));
                if rooks.contains(rook)
                    && (occupied & between).is_empty()
                    && (!need_rights || src.castling.contains(rook))
                {
                    reached.add(Square::from_coords(dest_file, rank));
                }
            }
        }
    }
    (reached | ours, ep_found)
}

/// Collects only the squares the moves reach, through [`walk`] (the reference that
/// [`visibility`] is tested against).
#[cfg(test)]
#[derive(Default)]
pub(crate) struct Reach {
    pub reached: Bitboard,
    pub ep_found: Option<Square>,
}

#[cfg(test)]
impl Sink for Reach {
    fn piece(&mut self, _: Role, _: Square, targets: Bitboard) {
        self.reached |= targets;
    }
    fn pawn_pushes(&mut self, single: Bitboard, double: Bitboard) {
        self.reached |= single | double;
    }
    fn pawn_captures(&mut self, _: Square, targets: Bitboard) {
        self.reached |= targets;
    }
    fn en_passant(&mut self, from: Square, to: Square) {
        self.reached.add(to);
        self.reached
            .add(Square::from_coords(to.file(), from.rank()));
        self.ep_found = Some(to);
    }
    fn castle(&mut self, _: Square, to: Square) {
        self.reached.add(to);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::random_playouts;
    use crate::RuleSet;

    /// The per-piece-type visibility equals the targets of every move of the walk, for
    /// both sides, on true boards and on views (with fog), over random playouts.
    #[test]
    fn visibility_equals_walk_targets() {
        let mut checked = 0;
        for rules in [RuleSet::thesis(), RuleSet::chesscom()] {
            random_playouts(&rules, 300, 5, |pos| {
                for us in Color::ALL {
                    let src = pos.source(us, &rules);
                    let mut r = Reach::default();
                    walk(&src, &mut r);
                    let want = (r.reached | pos.board().by_color(us), r.ep_found);
                    assert_eq!(visibility(&src), want, "{pos} {us}");
                    let view = crate::FogView::of(pos, us, &rules);
                    let vsrc = view.source(&rules);
                    let mut r = Reach::default();
                    walk(&vsrc, &mut r);
                    let want = (r.reached | view.ours(), r.ep_found);
                    assert_eq!(visibility(&vsrc), want, "{pos} {us} view");
                    checked += 1;
                }
            });
        }
        assert!(checked > 10_000);
    }
}
