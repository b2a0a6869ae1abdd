//! [`Observation`]: everything a player is given for one decision, and nothing more.

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};
use shakmaty::Color;

use crate::error::MoveError;
use crate::movegen;
use crate::moves::{Move, MoveText};
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
/// ```
/// use fow_variants::{Observation, Position, RuleSet};
/// let obs = Observation::new(&Position::startpos(), &RuleSet::thesis(), 0, None);
/// assert_eq!(obs.legal_moves().len(), 20);
/// assert!(obs.parse_uci("e2e4").is_ok());
/// assert!(obs.parse_uci("e2e5").is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Observation {
    ply: u32,
    view: FogView,
    previous: Option<FogView>,
    rules: RuleSet,
    legal: Vec<Move>,
}

impl Observation {
    /// The observation of the side to move in `pos`, `ply` plies into the game.
    pub fn new(pos: &Position, rules: &RuleSet, ply: u32, previous: Option<FogView>) -> Self {
        let mut legal = Vec::with_capacity(64);
        let (reached, ep) = movegen::generate(&pos.source(pos.turn(), rules), &mut legal);
        let visible = reached | pos.board().by_color(pos.turn());
        Observation {
            ply,
            view: FogView::from_parts(pos, pos.turn(), visible, ep),
            previous,
            rules: *rules,
            legal,
        }
    }

    /// An observation built from views alone (for example read back from text): the
    /// legal moves are derived from `view`.
    pub fn from_views(view: FogView, previous: Option<FogView>, ply: u32, rules: &RuleSet) -> Self {
        let mut legal = Vec::with_capacity(64);
        view.legal_moves_into(rules, &mut legal);
        Observation {
            ply,
            view,
            previous,
            rules: *rules,
            legal,
        }
    }

    /// Refreshes this observation in place for the side to move in `pos` (which must be
    /// this observation's colour), keeping the previous view. Reuses the move buffer:
    /// this is the arena's per-ply path.
    #[inline]
    pub fn refresh(&mut self, pos: &Position, ply: u32) {
        debug_assert_eq!(pos.turn(), self.view.color());
        let (reached, ep) =
            movegen::generate(&pos.source(pos.turn(), &self.rules), &mut self.legal);
        let visible = reached | pos.board().by_color(pos.turn());
        self.view = FogView::from_parts(pos, pos.turn(), visible, ep);
        self.ply = ply;
    }

    /// Records what this side sees in `pos` right after its own move.
    #[inline]
    pub fn set_previous_from(&mut self, pos: &Position) {
        self.previous = Some(FogView::of(pos, self.view.color(), &self.rules));
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

    /// The legal moves, in generation order.
    #[inline]
    pub fn legal_moves(&self) -> &[Move] {
        &self.legal
    }

    /// Whether `m` is one of the legal moves.
    #[inline]
    pub fn is_legal(&self, m: &Move) -> bool {
        self.legal.contains(m)
    }

    /// Finds the legal move a UCI or long-algebraic text names.
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveError> {
        let t = MoveText::parse(text).ok_or_else(|| MoveError::Syntax(text.to_string()))?;
        t.find(&self.legal)
            .ok_or_else(|| MoveError::Illegal(text.to_string()))
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
        st.serialize_field("legal", &self.legal)?;
        st.end()
    }
}
