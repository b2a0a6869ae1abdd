//! What one side sees: [`FogView`], its fog-FEN text and a diagram.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;
use std::sync::OnceLock;

use serde::{Serialize, Serializer};
use shakmaty::{Bitboard, Board, ByColor, ByRole, Color, File, Piece, Rank, Role, Square};

use crate::error::FenError;
use crate::movegen::{self, MoveSource};
use crate::moves::Move;
use crate::moveset::{MoveSet, Pieces};
use crate::position::Position;
use crate::rules::RuleSet;
use crate::text::quote;

/// What one side sees: the visible squares and the pieces on them, plus the castling
/// rights of its own rooks and the en passant square when it can capture there.
///
/// Computed from a position by [`FogView::of`], never stored beside it. Written as
/// fog-FEN: the board with `?` for fog, the side, its own castling rights, the usable
/// en passant square.
///
/// ```
/// use fow_variants::{FogView, Position, RuleSet};
/// use shakmaty::Color;
/// let view = FogView::of(&Position::startpos(), Color::White, &RuleSet::thesis());
/// assert_eq!(view.to_string(), "????????/????????/????????/????????/8/8/PPPPPPPP/RNBQKBNR w KQ -");
/// assert_eq!(view.to_string().parse::<FogView>().unwrap(), view);
/// ```
#[derive(Clone)]
pub struct FogView {
    color: Color,
    visible: Bitboard,
    /// The visible pieces by role and by colour (consistent by construction: masks of a
    /// valid board, or read from fog-FEN).
    by_role: ByRole<Bitboard>,
    by_color: ByColor<Bitboard>,
    castling: Bitboard,
    ep_square: Option<Square>,
    /// The same pieces as a shakmaty [`Board`], built on first use of
    /// [`FogView::board`] (the arena's per-ply path never needs it).
    board: OnceLock<Board>,
}

impl FogView {
    /// What `color` sees in `pos` under `rules`.
    #[inline]
    pub fn of(pos: &Position, color: Color, rules: &RuleSet) -> FogView {
        let (visible, ep) = movegen::visibility(&pos.source(color, rules));
        FogView::from_parts(pos, color, visible, ep)
    }

    /// Builds the view from visibility already computed by move generation.
    #[inline]
    pub(crate) fn from_parts(
        pos: &Position,
        color: Color,
        visible: Bitboard,
        ep_square: Option<Square>,
    ) -> FogView {
        let mut v = FogView {
            color,
            visible,
            by_role: ByRole::default(),
            by_color: ByColor::default(),
            castling: Bitboard::EMPTY,
            ep_square,
            board: OnceLock::new(),
        };
        v.set_parts(pos, color, visible, ep_square);
        v
    }

    /// Makes this view `FogView::from_parts(pos, color, visible, ep_square)`, in place.
    #[inline]
    pub(crate) fn set_parts(
        &mut self,
        pos: &Position,
        color: Color,
        visible: Bitboard,
        ep_square: Option<Square>,
    ) {
        let b = pos.board();
        self.color = color;
        self.visible = visible;
        self.by_role = ByRole {
            pawn: b.pawns() & visible,
            knight: b.knights() & visible,
            bishop: b.bishops() & visible,
            rook: b.rooks() & visible,
            queen: b.queens() & visible,
            king: b.kings() & visible,
        };
        self.by_color = ByColor {
            black: b.black() & visible,
            white: b.white() & visible,
        };
        self.castling = pos.castling_rights() & Bitboard::from_rank(color.backrank());
        self.ep_square = ep_square;
        if self.board.get().is_some() {
            self.board = OnceLock::new();
        }
    }

    /// Makes this view `FogView::of(pos, color, rules)`, in place.
    #[inline]
    pub(crate) fn set_of(&mut self, pos: &Position, color: Color, rules: &RuleSet) {
        let (visible, ep) = movegen::visibility(&pos.source(color, rules));
        self.set_parts(pos, color, visible, ep);
    }

    /// The side whose view this is.
    #[inline]
    pub fn color(&self) -> Color {
        self.color
    }

    /// The visible squares.
    #[inline]
    pub fn visible(&self) -> Bitboard {
        self.visible
    }

    /// The squares in fog.
    #[inline]
    pub fn fog(&self) -> Bitboard {
        !self.visible
    }

    /// The visible pieces (all own pieces and the visible enemy ones).
    #[inline]
    pub fn board(&self) -> &Board {
        self.board.get_or_init(|| {
            Board::try_from_bitboards(self.by_role, self.by_color)
                .expect("masking keeps bitboards consistent")
        })
    }

    /// The visible pieces of `color`.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        *self.by_color.get(color)
    }

    /// The visible pieces of `role`.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        *self.by_role.get(role)
    }

    /// The role of the visible piece on `sq`, if any (without building a [`Board`]).
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        role_at(&self.by_role, self.by_color.black | self.by_color.white, sq)
    }

    /// Own rook squares that keep a castling right.
    #[inline]
    pub fn castling_rights(&self) -> Bitboard {
        self.castling
    }

    /// The en passant square, present only when this side can capture there now.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// The piece on a square: `None` for an empty or fogged square.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = if self.by_color.white.contains(sq) {
            Color::White
        } else if self.by_color.black.contains(sq) {
            Color::Black
        } else {
            return None;
        };
        self.role_at(sq).map(|role| role.of(color))
    }

    /// Own pieces.
    #[inline]
    pub fn ours(&self) -> Bitboard {
        *self.by_color.get(self.color)
    }

    /// Visible enemy pieces.
    #[inline]
    pub fn theirs(&self) -> Bitboard {
        *self.by_color.get(!self.color)
    }

    /// The moves this side has, derived from the view alone (fog blocks and cannot be
    /// captured). Equal to the true position's moves for the side to move.
    pub fn legal_moves_into(&self, rules: &RuleSet, out: &mut Vec<Move>) {
        MoveSet::of(&self.source(rules)).write_to(self, out);
    }

    /// Move generation input for this side on what it sees (fog blocks).
    pub fn source<'a>(&'a self, rules: &'a RuleSet) -> MoveSource<'a> {
        MoveSource {
            board: self.board(),
            fog: !self.visible,
            us: self.color,
            castling: self.castling,
            ep_square: self.ep_square,
            rules,
        }
    }

    /// The board part of fog-FEN: FEN with `?` for each fog square.
    pub fn board_fen(&self) -> String {
        let mut s = String::with_capacity(72);
        for rank in Rank::ALL.into_iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                let sq = Square::from_coords(file, rank);
                let c = if !self.visible.contains(sq) {
                    Some('?')
                } else {
                    self.piece_at(sq).map(|p| p.char())
                };
                match c {
                    None => empty += 1,
                    Some(c) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(c);
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank != Rank::First {
                s.push('/');
            }
        }
        s
    }

    /// An 8-line diagram, White at the bottom: pieces as letters (or Unicode symbols),
    /// `.` for a visible empty square, `?` (or a shaded block) for fog.
    pub fn diagram(&self, unicode: bool) -> String {
        diagram(self.board(), self.visible, unicode)
    }
}

impl Pieces for FogView {
    #[inline]
    fn role_on(&self, sq: Square) -> Option<Role> {
        self.role_at(sq)
    }
}

impl PartialEq for FogView {
    fn eq(&self, other: &FogView) -> bool {
        self.color == other.color
            && self.visible == other.visible
            && self.by_role == other.by_role
            && self.by_color == other.by_color
            && self.castling == other.castling
            && self.ep_square == other.ep_square
    }
}

impl Eq for FogView {}

impl Hash for FogView {
    /// Hashes what a derived hash over (colour, visible, board, castling, en passant)
    /// did, [`Board`]'s hash being its role bitboards and White's pieces.
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.color.hash(h);
        self.visible.hash(h);
        self.by_role.hash(h);
        self.by_color.white.hash(h);
        self.castling.hash(h);
        self.ep_square.hash(h);
    }
}

impl fmt::Debug for FogView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FogView")
            .field("color", &self.color)
            .field("visible", &self.visible)
            .field("board", self.board())
            .field("castling", &self.castling)
            .field("ep_square", &self.ep_square)
            .finish()
    }
}

/// The role of the piece on `sq` among `by_role` (`occupied` being their union), found
/// without branching on the role.
#[inline]
pub(crate) fn role_at(by_role: &ByRole<Bitboard>, occupied: Bitboard, sq: Square) -> Option<Role> {
    if !occupied.contains(sq) {
        return None;
    }
    let bit = |b: Bitboard| ((b.0 >> sq as u32) & 1) as u8;
    let r = bit(by_role.pawn)
        | (bit(by_role.knight) * 2)
        | (bit(by_role.bishop) * 3)
        | (bit(by_role.rook) * 4)
        | (bit(by_role.queen) * 5)
        | (bit(by_role.king) * 6);
    Role::try_from(r).ok()
}

/// The Unicode chess symbol of a piece.
pub fn piece_symbol(p: Piece) -> char {
    let white = ['♙', '♘', '♗', '♖', '♕', '♔'];
    let black = ['♟', '♞', '♝', '♜', '♛', '♚'];
    let i = p.role as usize - 1;
    if p.color.is_white() {
        white[i]
    } else {
        black[i]
    }
}

/// `White` or `Black`, for messages and reports.
pub fn side_name(color: Color) -> &'static str {
    color.fold_wb("White", "Black")
}

/// `pawn`, `knight`, `bishop`, `rook`, `queen` or `king`, for messages and reports.
pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

impl fmt::Display for FogView {
    /// Writes fog-FEN: `board side castling ep`, e.g.
    /// `????????/????????/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQ -`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} ", self.board_fen(), self.color.char())?;
        let mut any = false;
        for (file, ch) in [(File::H, 'K'), (File::A, 'Q')] {
            if self
                .castling
                .contains(Square::from_coords(file, self.color.backrank()))
            {
                any = true;
                let ch = if self.color.is_white() {
                    ch
                } else {
                    ch.to_ascii_lowercase()
                };
                write!(f, "{ch}")?;
            }
        }
        if !any {
            f.write_str("-")?;
        }
        match self.ep_square {
            Some(sq) => write!(f, " {sq}"),
            None => f.write_str(" -"),
        }
    }
}

impl Serialize for FogView {
    /// Serializes as fog-FEN.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl FromStr for FogView {
    type Err = FenError;

    /// Reads fog-FEN as [`fmt::Display`] writes it: the board with `?` for fog, the side
    /// (`w` or `b`), then optionally its own castling rights (`-`) and the en passant
    /// square (`-`).
    fn from_str(text: &str) -> Result<FogView, FenError> {
        let bad = |why: String| {
            FenError::Syntax(format!("malformed fog-FEN '{}': {why}", quote(text.trim())))
        };
        let mut parts = text.split_whitespace();
        let board_part = parts.next().ok_or_else(|| {
            FenError::Syntax(
                "malformed fog-FEN: the text is empty (it starts with the board, '?' for fog)"
                    .into(),
            )
        })?;
        let board = crate::fen::read_board(board_part, true).map_err(&bad)?;
        let color = match parts.next() {
            Some(side) => crate::fen::read_side(side).map_err(&bad)?,
            None => return Err(bad("the side (w or b) is missing after the board".into())),
        };
        let castling =
            crate::fen::read_castling(parts.next().unwrap_or("-"), Some(color)).map_err(&bad)?;
        let ep_square = crate::fen::read_ep(parts.next().unwrap_or("-")).map_err(&bad)?;
        if let Some(extra) = parts.next() {
            return Err(bad(format!(
                "unexpected 5th field '{}' (fog-FEN has 4: board, side, castling, en passant)",
                quote(extra)
            )));
        }
        let (visible, by_role, by_color) = (board.visible, board.by_role, board.by_color);
        let board = board.board();
        Ok(FogView {
            color,
            visible,
            by_role,
            by_color,
            castling,
            ep_square,
            board: OnceLock::from(board),
        })
    }
}

/// The true position as a diagram in the same style as [`FogView::diagram`].
pub fn board_diagram(board: &Board, unicode: bool) -> String {
    diagram(board, Bitboard::FULL, unicode)
}

/// Width of one column of [`diagrams_side_by_side`], labels included.
const DIAGRAM_COLUMN: usize = 19;

/// Diagrams (as [`board_diagram`] and [`FogView::diagram`] draw them) in columns under
/// their titles, three spaces apart, each line's trailing spaces trimmed: `fow view` and
/// `fow replay --print` show the true board and both views this way.
///
/// ```
/// use fow_variants::{board_diagram, diagrams_side_by_side, Position};
/// let board = board_diagram(Position::startpos().board(), false);
/// let text = diagrams_side_by_side(&[("true board", board.clone()), ("again", board)]);
/// let lines: Vec<&str> = text.lines().collect();
/// assert_eq!(lines[0], "true board            again");
/// assert_eq!(lines[1], "8 r n b q k b n r     8 r n b q k b n r");
/// assert_eq!(lines.len(), 10);
/// ```
pub fn diagrams_side_by_side(boards: &[(&str, String)]) -> String {
    let pad = |s: &str| {
        let n = s.chars().count();
        format!("{s}{}", " ".repeat(DIAGRAM_COLUMN.saturating_sub(n)))
    };
    let mut out = String::new();
    let titles: Vec<String> = boards.iter().map(|b| pad(b.0)).collect();
    out.push_str(titles.join("   ").trim_end());
    out.push('\n');
    let lines: Vec<Vec<&str>> = boards.iter().map(|b| b.1.lines().collect()).collect();
    for i in 0..lines.first().map_or(0, Vec::len) {
        let row: Vec<String> = lines.iter().map(|l| pad(l[i])).collect();
        out.push_str(row.join("   ").trim_end());
        out.push('\n');
    }
    out
}

/// A diagram of `board` with every square outside `visible` drawn as fog.
fn diagram(board: &Board, visible: Bitboard, unicode: bool) -> String {
    let mut s = String::new();
    for rank in Rank::ALL.into_iter().rev() {
        s.push(rank.char());
        for file in File::ALL {
            let sq = Square::from_coords(file, rank);
            s.push(' ');
            s.push(match board.piece_at(sq) {
                _ if !visible.contains(sq) => {
                    if unicode {
                        '░'
                    } else {
                        '?'
                    }
                }
                None => '.',
                Some(p) if unicode => piece_symbol(p),
                Some(p) => p.char(),
            });
        }
        s.push('\n');
    }
    s.push_str("  a b c d e f g h\n");
    s
}

// piece_symbol indexes by `Role as usize - 1`.
const _: () = assert!(Role::Pawn as usize == 1 && Role::King as usize == 6);
