//! The true state of a game: pieces, side to move, castling rights, en passant, clocks.

use std::fmt;
use std::str::FromStr;

use shakmaty::fen::Fen;
use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{Bitboard, Board, CastlingSide, Color, Rank, Role, Setup, Square};

use crate::error::{FenError, MoveError};
use crate::movegen::{self, MoveSource};
use crate::moves::{Move, MoveKind, MoveText};
use crate::moveset::MoveSet;
use crate::rules::RuleSet;

/// The true position. Only the arena holds one; players get an
/// [`Observation`](crate::Observation).
///
/// ```
/// use fow_variants::{Position, RuleSet};
/// let pos = Position::startpos();
/// assert_eq!(pos.legal_moves(&RuleSet::thesis()).len(), 20);
/// let pos: Position = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".parse().unwrap();
/// assert_eq!(pos.to_string(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    turn: Color,
    castling: Bitboard,
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        Position {
            board: Board::new(),
            turn: Color::White,
            castling: Bitboard(0x8100_0000_0000_0081),
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// Builds a position from FEN, checking that it can be played: exactly one king per
    /// side, no pawn on a back rank, castling rights only for rooks on their corner with
    /// the king at home, an en passant square behind a pawn that just moved two squares.
    ///
    /// The text is standard FEN (six fields, the last five optional); errors say what is
    /// wrong in chess words:
    ///
    /// ```
    /// use fow_variants::Position;
    /// let e = Position::from_fen("8/8/8/8/8/8/8/8/8 w - - 0 1").unwrap_err();
    /// assert!(e.to_string().contains("a board has 8 ranks"), "{e}");
    /// let e = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 99999999999 1").unwrap_err();
    /// assert!(e.to_string().contains("half-move clock 99999999999 is too large"), "{e}");
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_setup(crate::fen::read_fen(fen)?)
    }

    /// Builds a position from a line of an EPD or FEN list: FEN, or EPD (FEN's first
    /// four fields, then operations `opcode operand ...;`, of which `hmvc` and `fmvn`
    /// give the clocks; without them the clocks are 0 and 1). The fields are read as
    /// [`Position::from_fen`] reads them, so a clock that is not a whole number, or a
    /// field after FEN's six, is an error, not an operation:
    ///
    /// ```
    /// use fow_variants::Position;
    /// let p = Position::from_epd("4k3/8/8/8/8/8/4P3/4K3 w - - bm e3; hmvc 7; fmvn 30;").unwrap();
    /// assert_eq!(p.fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 7 30");
    /// let e = Position::from_epd("4k3/8/8/8/8/8/4P3/4K3 w - - 150.5 1").unwrap_err();
    /// assert!(e.to_string().contains("the half-move clock is a whole number, not '150.5'"), "{e}");
    /// ```
    pub fn from_epd(line: &str) -> Result<Position, FenError> {
        Position::from_setup(crate::epd::read_epd(line)?)
    }

    /// Builds a position from a shakmaty [`Setup`], with the checks of
    /// [`Position::from_fen`].
    pub fn from_setup(setup: Setup) -> Result<Position, FenError> {
        let board = setup.board;
        for color in Color::ALL {
            let kings = (board.kings() & board.by_color(color)).count();
            if kings != 1 {
                return Err(FenError::Invalid(format!(
                    "{color} has {kings} kings, needs exactly 1"
                )));
            }
        }
        if (board.pawns() & Bitboard::BACKRANKS).any() {
            return Err(FenError::Invalid("a pawn stands on a back rank".into()));
        }
        let mut castling = Bitboard::EMPTY;
        for sq in setup.castling_rights {
            let color = board.color_at(sq);
            let ok = color.is_some_and(|c| {
                board.role_at(sq) == Some(Role::Rook)
                    && sq.rank() == c.backrank()
                    && (sq.file() == shakmaty::File::A || sq.file() == shakmaty::File::H)
                    && board.king_of(c).map(|k| k.file()) == Some(shakmaty::File::E)
                    && board.king_of(c).map(|k| k.rank()) == Some(c.backrank())
            });
            if !ok {
                return Err(FenError::Invalid(format!(
                    "castling right for {sq} without a king on the e-file and a rook in that corner"
                )));
            }
            castling.add(sq);
        }
        if let Some(ep) = setup.ep_square {
            let them = !setup.turn;
            let (ep_rank, pawn) = match them {
                Color::White => (Rank::Third, ep.offset(8)),
                Color::Black => (Rank::Sixth, ep.offset(-8)),
            };
            let valid = ep.rank() == ep_rank
                && !board.occupied().contains(ep)
                && pawn.is_some_and(|p| board.piece_at(p) == Some(them.pawn()));
            if !valid {
                return Err(FenError::Invalid(format!(
                    "en passant square {ep} is not behind a {them} pawn that just moved two squares"
                )));
            }
        }
        Ok(Position {
            board,
            turn: setup.turn,
            castling,
            ep_square: setup.ep_square,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.get(),
        })
    }

    /// The position as FEN. The en passant square is written whenever the last move was
    /// a two-square pawn push.
    pub fn fen(&self) -> String {
        Fen::try_from_setup(self.to_setup())
            .unwrap_or_else(shakmaty::fen::LossyFenError::ignore)
            .to_string()
    }

    /// The position as a shakmaty [`Setup`].
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board.clone(),
            promoted: Bitboard::EMPTY,
            pockets: None,
            turn: self.turn,
            castling_rights: self.castling,
            ep_square: self.ep_square,
            remaining_checks: None,
            halfmoves: self.halfmoves,
            fullmoves: std::num::NonZeroU32::new(self.fullmoves.max(1)).expect("non-zero"),
        }
    }

    /// The pieces.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Rook squares that keep a castling right.
    #[inline]
    pub fn castling_rights(&self) -> Bitboard {
        self.castling
    }

    /// Whether `color` keeps the castling right on `side`.
    pub fn has_castling_right(&self, color: Color, side: CastlingSide) -> bool {
        let file = match side {
            CastlingSide::KingSide => shakmaty::File::H,
            CastlingSide::QueenSide => shakmaty::File::A,
        };
        self.castling
            .contains(Square::from_coords(file, color.backrank()))
    }

    /// The square a pawn skipped on the last move, if it moved two squares.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Plies since the last capture or pawn move.
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number, starting at 1 and increased after Black moves.
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Whether `color` still has its king.
    #[inline]
    pub fn has_king(&self, color: Color) -> bool {
        (self.board.kings() & self.board.by_color(color)).any()
    }

    /// Move generation input for `us` in this position (no fog; the en passant square
    /// only for the side to move).
    #[inline]
    pub fn source<'a>(&'a self, us: Color, rules: &'a RuleSet) -> MoveSource<'a> {
        MoveSource {
            board: &self.board,
            fog: Bitboard::EMPTY,
            us,
            castling: self.castling,
            ep_square: self.ep_square.filter(|_| us == self.turn),
            rules,
        }
    }

    /// Writes the legal moves of the side to move into `out` (cleared first).
    pub fn legal_moves_into(&self, rules: &RuleSet, out: &mut Vec<Move>) {
        MoveSet::of(&self.source(self.turn, rules)).write_to(&self.board, out);
    }

    /// The legal moves of the side to move in compact form (for counting and perft).
    #[inline]
    pub(crate) fn move_set_into(&self, rules: &RuleSet, set: &mut MoveSet) {
        set.rebuild(&self.source(self.turn, rules));
    }

    /// The legal (pseudo-legal: there is no check) moves of the side to move.
    pub fn legal_moves(&self, rules: &RuleSet) -> Vec<Move> {
        let mut v = Vec::with_capacity(64);
        self.legal_moves_into(rules, &mut v);
        v
    }

    /// The squares `color` sees now: its pieces and every square its moves reach.
    /// For the side not to move, en passant is not counted (it could not take it now).
    #[inline]
    pub fn visible(&self, color: Color, rules: &RuleSet) -> Bitboard {
        movegen::visibility(&self.source(color, rules)).0
    }

    /// Finds the legal move a UCI or long-algebraic text names.
    pub fn parse_uci(&self, text: &str, rules: &RuleSet) -> Result<Move, MoveError> {
        let t = MoveText::parse(text).ok_or_else(|| MoveError::Syntax(text.to_string()))?;
        MoveSet::of(&self.source(self.turn, rules))
            .find(t.from, t.to, t.promotion, &self.board)
            .ok_or_else(|| MoveError::Illegal(text.to_string()))
    }

    /// Plays a move, which must be one of [`Position::legal_moves`] (not checked here;
    /// the arena checks moves that come from players). Returns the captured role.
    // Always inlined, like `apply_move` and `Game::play`: in the `fow` binary (unlike a
    // small program calling the arena) link-time optimization left them as calls in the
    // game loop, and inlined they make its one-job `fow bench` about 3% faster.
    #[inline(always)]
    pub fn play(&mut self, m: &Move) -> Option<Role> {
        let us = self.turn;
        apply_move(&mut self.board, m, us);
        // The bookkeeping below is written without branches on the move: each ply's move
        // is unpredictable, and mispredicted branches cost more than these few operations.
        let king_moved = m.role == Role::King;
        let lost = Bitboard::from(m.from)
            | Bitboard::from(m.to)
            | Bitboard(Bitboard::from_rank(us.backrank()).0 & 0u64.wrapping_sub(king_moved as u64));
        self.castling &= !lost;
        let double_push = (m.role == Role::Pawn) & ((m.from as u32).abs_diff(m.to as u32) == 16);
        let skipped = Square::new((m.from as u32 + m.to as u32) / 2);
        self.ep_square = if double_push { Some(skipped) } else { None };
        // Saturating: a FEN may start the counters anywhere up to `u32::MAX`.
        self.halfmoves = if m.is_zeroing() {
            0
        } else {
            self.halfmoves.saturating_add(1)
        };
        self.fullmoves = self.fullmoves.saturating_add(u32::from(us == Color::Black));
        self.turn = !us;
        m.capture
    }

    /// A hash of what makes positions equal for repetition: pieces, side to move,
    /// castling rights (under rules with rights) and an en passant square where a pawn
    /// can capture. [`crate::Game`] keeps it move by move instead of computing it whole.
    pub fn repetition_key(&self, rules: &RuleSet) -> u64 {
        self.repetition_base(rules) ^ self.en_passant_key(rules)
    }

    /// [`Position::repetition_key`] without its en passant part.
    pub(crate) fn repetition_base(&self, rules: &RuleSet) -> u64 {
        let mut h = Zobrist64::default();
        for color in Color::ALL {
            let ours = self.board.by_color(color);
            for role in Role::ALL {
                for sq in ours & self.board.by_role(role) {
                    h ^= Zobrist64::zobrist_for_piece(sq, role.of(color));
                }
            }
        }
        if self.turn.is_white() {
            h ^= Zobrist64::zobrist_for_white_turn();
        }
        if rules.castling == crate::Castling::Rights {
            h.0 ^= castling_key(self.castling);
        }
        h.0
    }

    /// The en passant part of [`Position::repetition_key`]: the file of the en passant
    /// square when the side to move can capture there.
    #[inline]
    pub(crate) fn en_passant_key(&self, rules: &RuleSet) -> u64 {
        match self.ep_square {
            Some(ep) if movegen::en_passant_capture(&self.source(self.turn, rules)).is_some() => {
                Zobrist64::zobrist_for_en_passant_file(ep.file()).0
            }
            _ => 0,
        }
    }
}

/// The part of a repetition key that castling rights on the rook squares `rights` add.
/// Rights enter one by one, so the key's change when rights are lost is
/// `castling_key(before ^ after)`.
#[inline]
pub(crate) fn castling_key(rights: Bitboard) -> u64 {
    let mut h = 0;
    for rook in rights {
        let color = if rook.rank() == Rank::First {
            Color::White
        } else {
            Color::Black
        };
        let side = if rook.file() == shakmaty::File::H {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        };
        h ^= Zobrist64::zobrist_for_castling_right(color, side).0;
    }
    h
}

/// How the pieces' part of a repetition key changes when `us` plays `m` (the pieces
/// [`apply_move`] moves, captures and promotes, and the side to move).
#[inline]
pub(crate) fn move_key(m: &Move, us: Color) -> u64 {
    let piece =
        |sq: Square, role: Role, color: Color| Zobrist64::zobrist_for_piece(sq, role.of(color)).0;
    let mut h = Zobrist64::zobrist_for_white_turn().0
        ^ piece(m.from, m.role, us)
        ^ piece(m.to, m.promotion.unwrap_or(m.role), us);
    match m.kind {
        MoveKind::Normal => {
            if let Some(captured) = m.capture {
                h ^= piece(m.to, captured, !us);
            }
        }
        MoveKind::EnPassant => {
            h ^= piece(
                Square::from_coords(m.to.file(), m.from.rank()),
                Role::Pawn,
                !us,
            );
        }
        MoveKind::Castle => {
            let (rook_from, rook_to) = castling_rook(m);
            h ^= piece(rook_from, Role::Rook, us) ^ piece(rook_to, Role::Rook, us);
        }
    }
    h
}

/// Where the rook of castling move `m` goes from and to.
#[inline]
fn castling_rook(m: &Move) -> (Square, Square) {
    let rank = m.from.rank();
    let (from, to) = if m.to.file() > m.from.file() {
        (shakmaty::File::H, shakmaty::File::F)
    } else {
        (shakmaty::File::A, shakmaty::File::D)
    };
    (
        Square::from_coords(from, rank),
        Square::from_coords(to, rank),
    )
}

/// Moves the pieces of `m` (played by `us`) on `board`: captures, promotion, the rook of
/// a castling move, the pawn taken en passant. Used by [`Position::play`], and by bots
/// that look at their own board after a move.
// Always inlined: see `Position::play`.
#[inline(always)]
pub fn apply_move(board: &mut Board, m: &Move, us: Color) {
    match m.kind {
        MoveKind::Normal => {
            // `set_piece_at` replaces a captured piece on `to`.
            board.discard_piece_at(m.from);
            board.set_piece_at(m.to, m.promotion.unwrap_or(m.role).of(us));
        }
        MoveKind::EnPassant => {
            board.discard_piece_at(m.from);
            board.discard_piece_at(Square::from_coords(m.to.file(), m.from.rank()));
            board.set_piece_at(m.to, us.pawn());
        }
        MoveKind::Castle => {
            let (rook_from, rook_to) = castling_rook(m);
            board.discard_piece_at(m.from);
            board.discard_piece_at(rook_from);
            board.set_piece_at(m.to, us.king());
            board.set_piece_at(rook_to, us.rook());
        }
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl fmt::Display for Position {
    /// Writes FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

impl FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RuleSet;

    #[test]
    fn fen_round_trip_and_errors() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/8/8/3pP3/8/8/8/R3K2R w Kq d6 0 12",
            "4k3/8/8/8/8/8/8/4K3 b - - 37 80",
        ] {
            assert_eq!(Position::from_fen(fen).unwrap().fen(), fen);
        }
        assert!(matches!(
            Position::from_fen("8/8/8/8/8/8/8/4K3 w - - 0 1"),
            Err(FenError::Invalid(_))
        ));
        assert!(matches!(
            Position::from_fen("nonsense"),
            Err(FenError::Syntax(_))
        ));
        assert!(Position::from_fen("4k2P/8/8/8/8/8/8/4K3 w - - 0 1").is_err());
        assert!(Position::from_fen("4k3/8/8/8/8/8/8/4K3 w K - 0 1").is_err());
        assert!(Position::from_fen("4k3/8/8/8/3P4/8/8/4K3 b - e3 0 1").is_err());
    }

    #[test]
    fn castling_moves_rook_and_drops_rights() {
        let rules = RuleSet::chesscom();
        let mut pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let m = pos.parse_uci("e1g1", &rules).unwrap();
        assert_eq!(m.kind, MoveKind::Castle);
        pos.play(&m);
        assert_eq!(pos.fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
        let m = pos.parse_uci("a8a1", &rules).unwrap();
        pos.play(&m);
        assert_eq!(pos.fen(), "4k2r/8/8/8/8/8/8/r4RK1 w k - 0 2");
    }

    #[test]
    fn en_passant_and_promotion() {
        let rules = RuleSet::chesscom();
        let mut pos = Position::from_fen("4k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 1").unwrap();
        let ep = pos.parse_uci("e5d6", &rules).unwrap();
        assert_eq!(ep.kind, MoveKind::EnPassant);
        let promos = pos
            .legal_moves(&rules)
            .into_iter()
            .filter(|m| m.promotion.is_some())
            .count();
        assert_eq!(promos, 4);
        pos.play(&ep);
        assert_eq!(pos.fen(), "4k3/1P6/3P4/8/8/8/8/4K3 b - - 0 1");
        // Thesis: no en passant, one promotion.
        let thesis = RuleSet::thesis();
        let pos = Position::from_fen("4k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 1").unwrap();
        assert!(pos.parse_uci("e5d6", &thesis).is_err());
        let promos: Vec<_> = pos
            .legal_moves(&thesis)
            .into_iter()
            .filter(|m| m.promotion.is_some())
            .collect();
        assert_eq!(promos.len(), 1);
        assert_eq!(promos[0].uci(), "b7b8q");
    }

    #[test]
    fn thesis_castling_ignores_history() {
        // No rights in the FEN, yet the thesis allows castling; chess.com does not.
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w - - 0 1").unwrap();
        assert!(pos.parse_uci("e1g1", &RuleSet::thesis()).is_ok());
        assert!(pos.parse_uci("e1c1", &RuleSet::thesis()).is_ok());
        assert!(pos.parse_uci("e1g1", &RuleSet::chesscom()).is_err());
    }

    #[test]
    fn king_may_walk_into_attack_and_be_captured() {
        let rules = RuleSet::thesis();
        let mut pos = Position::from_fen("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1").unwrap();
        let m = pos.parse_uci("e1e2", &rules).unwrap();
        pos.play(&m);
        let cap = pos.parse_uci("d2e2", &rules).unwrap();
        assert_eq!(pos.play(&cap), Some(Role::King));
        assert!(!pos.has_king(Color::White));
    }
}
