//! [`Observation`]: everything a player is given for one decision, and nothing more.

use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};
use shakmaty::{Bitboard, Color};

use crate::error::MoveError;
use crate::game::Game;
use crate::movegen::{self, EarlierAttacks};
use crate::moves::{Move, MoveText};
use crate::moveset::MoveSet;
use crate::position::Position;
use crate::rules::RuleSet;
use crate::view::FogView;

/// All a player is given for one decision: its colour, the ply number, its view now, its
/// view right after its own previous move (the thesis's `b0`), the rules, and its legal
/// moves (which follow from the view).
///
/// It holds no hidden information: no half-move clock, no opponent castling rights, no
/// enemy piece in fog. Two true positions that look the same to the side to move give
/// equal observations, byte for byte once serialized.
///
/// The legal moves are kept compactly; [`Observation::legal_moves`] lists them on first
/// use, while [`Observation::move_count`], [`Observation::nth_move`] and
/// [`Observation::is_legal`] work without listing.
///
/// ```
/// use fow_variants::{Observation, Position, RuleSet};
/// let obs = Observation::new(&Position::startpos(), &RuleSet::thesis(), 0, None);
/// assert_eq!(obs.legal_moves().len(), 20);
/// assert_eq!(obs.move_count(), 20);
/// assert_eq!(obs.nth_move(3), Some(obs.legal_moves()[3]));
/// assert!(obs.parse_uci("e2e4").is_ok());
/// assert!(obs.parse_uci("e2e5").is_err());
/// ```
#[derive(Clone)]
pub struct Observation {
    ply: u32,
    view: FogView,
    previous: Option<FogView>,
    rules: RuleSet,
    moves: MoveSet,
    list: OnceLock<Vec<Move>>,
}

impl Observation {
    /// The observation of the side to move in `pos`, `ply` plies into the game.
    pub fn new(pos: &Position, rules: &RuleSet, ply: u32, previous: Option<FogView>) -> Self {
        let moves = MoveSet::of(&pos.source(pos.turn(), rules));
        let visible = moves.reached() | pos.board().by_color(pos.turn());
        Observation {
            ply,
            view: FogView::from_parts(pos, pos.turn(), visible, moves.ep_found()),
            previous,
            rules: *rules,
            moves,
            list: OnceLock::new(),
        }
    }

    /// An observation built from views alone (for example read back from text): the
    /// legal moves are derived from `view`.
    pub fn from_views(view: FogView, previous: Option<FogView>, ply: u32, rules: &RuleSet) -> Self {
        let moves = MoveSet::of(&view.source(rules));
        Observation {
            ply,
            view,
            previous,
            rules: *rules,
            moves,
            list: OnceLock::new(),
        }
    }

    /// The side to move's observation in `pos`, kept in `slot` across its turns: built on
    /// its first turn, refreshed in place afterwards (the previous view stays, storage is
    /// reused). Keep one slot per colour.
    ///
    /// ```
    /// use fow_variants::{Observation, Position, RuleSet};
    /// let mut slot = None;
    /// let o = Observation::for_turn(&mut slot, &Position::startpos(), &RuleSet::thesis(), 0);
    /// assert_eq!(o.move_count(), 20);
    /// ```
    #[inline]
    pub fn for_turn<'a>(
        slot: &'a mut Option<Observation>,
        pos: &Position,
        rules: &RuleSet,
        ply: u32,
    ) -> &'a mut Observation {
        match slot {
            Some(o) => {
                o.refresh(pos, ply);
                o
            }
            None => slot.insert(Observation::new(pos, rules, ply, None)),
        }
    }

    /// Refreshes this observation in place for the side to move in `pos` (which must be
    /// this observation's colour), keeping the previous view and reusing storage.
    #[inline]
    pub fn refresh(&mut self, pos: &Position, ply: u32) {
        debug_assert_eq!(pos.turn(), self.view.color());
        self.moves.rebuild(&pos.source(pos.turn(), &self.rules));
        self.set_view(pos, ply);
    }

    /// The side to move's observation in `game`, kept in `slot` across its turns in this
    /// game (keep one slot per colour): built on its first turn, then refreshed in place
    /// together with its view right after its own previous move. This is the arena's
    /// per-ply path.
    ///
    /// The same as [`Observation::for_turn`] followed by
    /// [`Observation::set_previous_from`] on [`Game::before`], but one walk over the
    /// side's pieces serves both views: the pieces it has now stood where they stood
    /// right after its previous move (only the other side has moved since), so only the
    /// sliding pieces are looked up again under that position's occupancy, and the
    /// pieces captured since are added.
    ///
    /// ```
    /// use fow_variants::{Game, Observation, Position, RuleSet};
    /// let rules = RuleSet::thesis();
    /// let mut game = Game::new(Position::startpos(), rules);
    /// let mut slots = [None, None];
    /// for uci in ["e2e4", "d7d5"] {
    ///     let i = game.position().turn() as usize;
    ///     let o = Observation::for_game(&mut slots[i], &game);
    ///     assert!(o.previous().is_none());
    ///     let m = o.parse_uci(uci).unwrap();
    ///     game.play(&m);
    /// }
    /// let o = Observation::for_game(&mut slots[1], &game);
    /// assert_eq!(o.previous(), Some(&FogView::of(game.before(), Color::White, &rules)));
    /// assert!(o.parse_uci("e4d5").is_ok());
    /// # use fow_variants::{Color, FogView};
    /// ```
    #[inline]
    pub fn for_game<'a>(slot: &'a mut Option<Observation>, game: &Game) -> &'a mut Observation {
        let (pos, rules, ply) = (game.position(), game.rules(), game.ply());
        match slot {
            Some(o) => {
                o.refresh_after(pos, ply, game.before());
                o
            }
            None => {
                // A side's first turn is ply 0 or 1; later, it has moved before.
                let previous = (ply >= 2).then(|| FogView::of(game.before(), pos.turn(), rules));
                slot.insert(Observation::new(pos, rules, ply, previous))
            }
        }
    }

    /// Refreshes this observation for the side to move in `pos` and sets its previous
    /// view to what it sees in `earlier`, where `pos` follows from `earlier` by one move
    /// of the other side (see [`Observation::for_game`]).
    #[inline]
    fn refresh_after(&mut self, pos: &Position, ply: u32, earlier: &Position) {
        let us = pos.turn();
        let (before, now) = (earlier.board(), pos.board());
        debug_assert_eq!(us, self.view.color());
        debug_assert!(pieces_kept(before, now, us), "{earlier} -> {pos}");
        let mut attacks = EarlierAttacks {
            occupied: before.occupied(),
            attacks: Bitboard::EMPTY,
        };
        self.moves
            .rebuild_sharing(&pos.source(us, &self.rules), &mut attacks);
        // Pieces of this side captured by the other side's move stand only on `earlier`.
        let lost = before.by_color(us) & !now.by_color(us);
        if lost.any() {
            attacks.attacks |= movegen::piece_attacks(before, lost, attacks.occupied);
        }
        let (seen, ep) =
            movegen::visibility_from(&earlier.source(us, &self.rules), attacks.attacks);
        match &mut self.previous {
            Some(v) => v.set_parts(earlier, us, seen, ep),
            None => self.previous = Some(FogView::from_parts(earlier, us, seen, ep)),
        }
        self.set_view(pos, ply);
    }

    /// Sets the view now from the move set just rebuilt for `pos`.
    #[inline(always)]
    fn set_view(&mut self, pos: &Position, ply: u32) {
        let visible = self.moves.reached() | pos.board().by_color(pos.turn());
        self.view
            .set_parts(pos, pos.turn(), visible, self.moves.ep_found());
        self.ply = ply;
        if self.list.get().is_some() {
            self.list = OnceLock::new();
        }
    }

    /// Records what this side sees in `pos` right after its own move.
    #[inline]
    pub fn set_previous_from(&mut self, pos: &Position) {
        let color = self.view.color();
        match &mut self.previous {
            Some(v) => v.set_of(pos, color, &self.rules),
            None => self.previous = Some(FogView::of(pos, color, &self.rules)),
        }
    }

    /// The player's colour.
    #[inline]
    pub fn color(&self) -> Color {
        self.view.color()
    }

    /// Plies played before this decision (0 for White's first move).
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// What the player sees now.
    #[inline]
    pub fn view(&self) -> &FogView {
        &self.view
    }

    /// What the player saw right after its own previous move (`None` before its first).
    #[inline]
    pub fn previous(&self) -> Option<&FogView> {
        self.previous.as_ref()
    }

    /// The rules of the game.
    #[inline]
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The legal moves, in generation order (pieces in the order knights, bishops, rooks,
    /// queens, king, then pawn pushes, pawn captures, castling; targets by square).
    pub fn legal_moves(&self) -> &[Move] {
        self.list.get_or_init(|| {
            let mut v = Vec::new();
            self.moves.write_to(&self.view, &mut v);
            v
        })
    }

    /// The number of legal moves.
    #[inline]
    pub fn move_count(&self) -> usize {
        self.moves.len()
    }

    /// The `i`-th legal move, equal to `legal_moves()[i]`, found without listing them.
    #[inline]
    pub fn nth_move(&self, i: usize) -> Option<Move> {
        self.moves.nth(i, &self.view)
    }

    /// Whether `m` is one of the legal moves.
    #[inline]
    pub fn is_legal(&self, m: &Move) -> bool {
        self.moves.contains(m, &self.view)
    }

    /// Finds the legal move a UCI or long-algebraic text names.
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveError> {
        let t = MoveText::parse(text).ok_or_else(|| MoveError::Syntax(text.to_string()))?;
        self.moves
            .find(t.from, t.to, t.promotion, &self.view)
            .ok_or_else(|| MoveError::Illegal(text.to_string()))
    }

    /// The move a player's answer names: the legal move, or for a well-formed move that
    /// is not legal a plain move between its squares (which the arena records as an
    /// illegal move); `None` for text that is no move at all (a protocol error).
    ///
    /// ```
    /// use fow_variants::{Observation, Position, RuleSet};
    /// let obs = Observation::new(&Position::startpos(), &RuleSet::thesis(), 0, None);
    /// assert!(obs.is_legal(&obs.read_answer("e2e4").unwrap()));
    /// assert!(!obs.is_legal(&obs.read_answer("e2e5").unwrap()));
    /// assert_eq!(obs.read_answer("hello"), None);
    /// ```
    pub fn read_answer(&self, text: &str) -> Option<Move> {
        if let Ok(m) = self.parse_uci(text) {
            return Some(m);
        }
        let t = MoveText::parse(text)?;
        Some(Move {
            from: t.from,
            to: t.to,
            role: self.view.role_at(t.from).unwrap_or(shakmaty::Role::Pawn),
            capture: None,
            promotion: t.promotion,
            kind: crate::moves::MoveKind::Normal,
        })
    }
}

/// Whether every piece `us` has on `later` stands on the same square with the same role
/// on `earlier` (so `later`'s pieces of `us` are `earlier`'s less the ones lost since).
fn pieces_kept(earlier: &shakmaty::Board, later: &shakmaty::Board, us: Color) -> bool {
    let ours = later.by_color(us);
    let mut moved = ours & !earlier.by_color(us);
    for role in shakmaty::Role::ALL {
        moved |= later.by_role(role) & ours & !earlier.by_role(role);
    }
    moved.is_empty()
}

impl std::fmt::Debug for Observation {
    /// Everything the player is told; the move list prints as the compact set it is
    /// listed from.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Observation")
            .field("ply", &self.ply)
            .field("view", &self.view)
            .field("previous", &self.previous)
            .field("rules", &self.rules)
            .field("moves", &self.moves)
            .finish()
    }
}

impl PartialEq for Observation {
    /// Compares what the player is told; the listed moves follow from the compact set.
    fn eq(&self, other: &Observation) -> bool {
        self.ply == other.ply
            && self.view == other.view
            && self.previous == other.previous
            && self.rules == other.rules
            && self.moves == other.moves
    }
}

impl Eq for Observation {}

impl Hash for Observation {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.ply.hash(h);
        self.view.hash(h);
        self.previous.hash(h);
        self.rules.hash(h);
        self.moves.hash(h);
    }
}

impl Serialize for Observation {
    /// Serializes views as fog-FEN and moves as UCI.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Observation", 6)?;
        st.serialize_field("color", &self.color().char().to_string())?;
        st.serialize_field("ply", &self.ply)?;
        st.serialize_field("view", &self.view)?;
        st.serialize_field("previous", &self.previous)?;
        st.serialize_field("rules", &self.rules)?;
        st.serialize_field("legal", self.legal_moves())?;
        st.end()
    }
}
