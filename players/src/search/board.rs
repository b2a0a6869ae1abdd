//! [`SearchBoard`]: what the search plays moves on.

use fow_variants::shakmaty::zobrist::{Zobrist64, ZobristValue};
use fow_variants::{
    apply_move, Bitboard, Board, Color, FogView, Move, MoveKind, MoveSource, Position, Role,
    RuleSet, Square,
};

use super::eval_choice::Eval;
use super::evaluate::{relative_value, Score, KING_BASE};
use super::{learned, tapered};

/// A board to search on: pieces, fog squares (impassable: nothing moves into or through
/// them and nothing there can be captured), the side to move, castling rooks and the en
/// passant square, with the static value (of its [`Eval`], the thesis's unless
/// [`SearchBoard::with_eval`] chose another) and a Zobrist hash kept up to date as moves
/// are played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchBoard {
    board: Board,
    fog: Bitboard,
    turn: Color,
    castling: Bitboard,
    ep_square: Option<Square>,
    eval: Eval,
    /// The thesis's value, or with a tapered [`Eval`] the middle-game value, without the
    /// kings' [`KING_BASE`] (added back by [`SearchBoard::value`]). Kept in 32 bits, to
    /// keep the board, copied at every node, at 112 bytes: without the kings' base, 64
    /// pieces of any kind sum to well under 2^31 micro-pawns.
    value: i32,
    /// With a tapered [`Eval`]: the endgame value and the phase.
    endgame: i32,
    phase: i16,
    hash: u64,
}

/// The `KIND` of [`SearchBoard::add_value_as`] for [`Eval::Thesis`].
const THESIS: u8 = 0;
/// ... for [`Eval::Tapered`].
const TAPERED: u8 = 1;
/// ... for [`Eval::Learned`].
const LEARNED: u8 = 2;

fn piece_hash(sq: Square, color: Color, role: Role) -> u64 {
    Zobrist64::zobrist_for_piece(sq, role.of(color)).0
}

impl SearchBoard {
    /// A board from its parts.
    pub fn new(
        board: Board,
        fog: Bitboard,
        turn: Color,
        castling: Bitboard,
        ep_square: Option<Square>,
    ) -> SearchBoard {
        let mut hash = 0;
        for (sq, p) in board.iter() {
            hash ^= piece_hash(sq, p.color, p.role);
        }
        if turn.is_white() {
            hash ^= Zobrist64::zobrist_for_white_turn().0;
        }
        let mut b = SearchBoard {
            eval: Eval::Thesis,
            value: 0,
            endgame: 0,
            phase: 0,
            board,
            fog,
            turn,
            castling,
            ep_square,
            hash,
        };
        b.sum_values();
        b
    }

    /// The same board, evaluated with `eval`.
    pub fn with_eval(mut self, eval: Eval) -> SearchBoard {
        self.eval = eval;
        self.sum_values();
        self
    }

    /// Sets the kept values from the pieces.
    fn sum_values(&mut self) {
        self.value = 0;
        self.endgame = 0;
        self.phase = 0;
        for (sq, p) in self.board.clone().iter() {
            self.add_value(sq, p.color, p.role, 1);
        }
    }

    /// Adds (`sign` 1) or takes off (-1) a piece's value.
    #[inline]
    fn add_value(&mut self, sq: Square, color: Color, role: Role, sign: Score) {
        match self.eval {
            Eval::Thesis => self.add_value_as::<THESIS>(sq, color, role, sign),
            Eval::Tapered => self.add_value_as::<TAPERED>(sq, color, role, sign),
            Eval::Learned => self.add_value_as::<LEARNED>(sq, color, role, sign),
        }
    }

    /// [`SearchBoard::add_value`] for a known evaluation (`KIND`: [`THESIS`], [`TAPERED`]
    /// or [`LEARNED`]).
    #[inline(always)]
    fn add_value_as<const KIND: u8>(&mut self, sq: Square, color: Color, role: Role, sign: Score) {
        if KIND != THESIS {
            let tables = if KIND == TAPERED {
                tapered::tables()
            } else {
                learned::tables()
            };
            let (mg, eg) = tables.relative_values(color, role, sq);
            self.value += (sign * mg) as i32;
            self.endgame += (sign * eg) as i32;
            self.phase += sign as i16 * tapered::phase_weight(role) as i16;
        } else {
            self.value += (sign * relative_value(color, role, sq)) as i32;
        }
    }

    /// The true position, without fog.
    pub fn from_position(pos: &Position) -> SearchBoard {
        SearchBoard::new(
            pos.board().clone(),
            Bitboard::EMPTY,
            pos.turn(),
            pos.castling_rights(),
            pos.ep_square(),
        )
    }

    /// What a side sees, its fog impassable (the thesis's SimpleStockfish board).
    pub fn from_view(view: &FogView) -> SearchBoard {
        SearchBoard::new(
            view.board().clone(),
            view.fog(),
            view.color(),
            view.castling_rights(),
            view.ep_square(),
        )
    }

    /// The pieces the searching side knows of: its own and the visible enemy pieces (or,
    /// on a guessed full board, all of them).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The fog squares, which the search treats as impassable: no piece may enter, cross
    /// or capture on them.
    pub fn fog(&self) -> Bitboard {
        self.fog
    }

    /// The static value (no noise) under its [`Eval`], plus for White.
    #[inline]
    pub fn value(&self) -> Score {
        let kings = self.board.kings();
        let base = KING_BASE
            * (Score::from((kings & self.board.white()).count() as u8)
                - Score::from((kings & self.board.black()).count() as u8));
        match self.eval {
            Eval::Thesis => Score::from(self.value) + base,
            Eval::Tapered | Eval::Learned => tapered::blend(
                Score::from(self.value) + base,
                Score::from(self.endgame) + base,
                i32::from(self.phase),
            ),
        }
    }

    /// A Zobrist hash of the pieces and the side to move.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Appends the side to move's moves to `out`.
    #[inline]
    pub fn push_moves(&self, rules: &RuleSet, out: &mut Vec<Move>) {
        MoveSource::new(
            &self.board,
            self.fog,
            self.turn,
            self.castling,
            self.ep_square,
            rules,
        )
        .push_moves(out);
    }

    #[inline(always)]
    fn toggle<const KIND: u8>(&mut self, sq: Square, color: Color, role: Role, add: bool) {
        self.add_value_as::<KIND>(sq, color, role, if add { 1 } else { -1 });
        self.hash ^= piece_hash(sq, color, role);
    }

    /// Plays `m` (one of [`SearchBoard::push_moves`]) for the side to move.
    #[inline]
    pub fn play(&mut self, m: &Move) {
        match self.eval {
            Eval::Thesis => self.play_as::<THESIS>(m),
            Eval::Tapered => self.play_as::<TAPERED>(m),
            Eval::Learned => self.play_as::<LEARNED>(m),
        }
    }

    /// [`SearchBoard::play`] for a known evaluation.
    #[inline(always)]
    fn play_as<const KIND: u8>(&mut self, m: &Move) {
        let us = self.turn;
        let them = !us;
        self.toggle::<KIND>(m.from, us, m.role, false);
        if let (Some(cap), Some(sq)) = (m.capture, m.capture_square()) {
            self.toggle::<KIND>(sq, them, cap, false);
        }
        self.toggle::<KIND>(m.to, us, m.promotion.unwrap_or(m.role), true);
        if m.kind == MoveKind::Castle {
            let rank = m.from.rank();
            let (rf, rt) = if m.to.file() > m.from.file() {
                (
                    fow_variants::shakmaty::File::H,
                    fow_variants::shakmaty::File::F,
                )
            } else {
                (
                    fow_variants::shakmaty::File::A,
                    fow_variants::shakmaty::File::D,
                )
            };
            self.toggle::<KIND>(Square::from_coords(rf, rank), us, Role::Rook, false);
            self.toggle::<KIND>(Square::from_coords(rt, rank), us, Role::Rook, true);
        }
        apply_move(&mut self.board, m, us);
        if self.castling.any() {
            self.castling.discard(m.from);
            self.castling.discard(m.to);
            if m.role == Role::King {
                self.castling &= !Bitboard::from_rank(us.backrank());
            }
        }
        self.ep_square = (m.role == Role::Pawn
            && m.kind == MoveKind::Normal
            && m.from.distance(m.to) == 2
            && m.from.file() == m.to.file())
        .then(|| {
            Square::from_coords(
                m.from.file(),
                if us.is_white() {
                    fow_variants::shakmaty::Rank::Third
                } else {
                    fow_variants::shakmaty::Rank::Sixth
                },
            )
        });
        self.turn = them;
        self.hash ^= Zobrist64::zobrist_for_white_turn().0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::Position;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    #[test]
    fn incremental_value_and_hash_match_a_fresh_board_over_random_games() {
        for rules in [RuleSet::thesis(), RuleSet::chesscom()] {
            let mut rng = Pcg64Mcg::seed_from_u64(3);
            for _ in 0..40 {
                let mut pos = Position::startpos();
                let mut sb = SearchBoard::from_position(&pos);
                let mut tapered = SearchBoard::from_position(&pos).with_eval(Eval::Tapered);
                let mut learned = SearchBoard::from_position(&pos).with_eval(Eval::Learned);
                for _ in 0..150 {
                    let moves = pos.legal_moves(&rules);
                    let mut ours = Vec::new();
                    sb.push_moves(&rules, &mut ours);
                    assert_eq!(moves, ours, "same moves as the position");
                    if moves.is_empty()
                        || !pos.has_king(Color::White)
                        || !pos.has_king(Color::Black)
                    {
                        break;
                    }
                    let m = moves[rng.random_range(0..moves.len())];
                    pos.play(&m);
                    sb.play(&m);
                    tapered.play(&m);
                    learned.play(&m);
                    let fresh = SearchBoard::from_position(&pos);
                    assert_eq!(sb, fresh, "after {m}");
                    assert_eq!(sb.value(), super::super::evaluate::material(pos.board()));
                    let fresh = fresh.with_eval(Eval::Tapered);
                    assert_eq!(tapered, fresh, "after {m}");
                    assert_eq!(tapered.value(), tapered::value(pos.board()));
                    let fresh = fresh.with_eval(Eval::Learned);
                    assert_eq!(learned, fresh, "after {m}");
                    assert_eq!(learned.value(), learned::value(pos.board()));
                }
            }
        }
    }

    #[test]
    fn the_kept_values_hold_the_largest_sums_a_board_can_have() {
        // One king and nine queens with the other king gone (as on a board seen through
        // the fog), for each side, and boards no game reaches: for each evaluation the
        // 32-bit sums plus the kings' base equal the 64-bit sums.
        for fen in [
            "QQQQQQQQ/QRRBBNNK/8/8/8/8/PPPPPPP1/8 w - - 0 1",
            "8/pppppppp/8/8/8/8/qrrbbnnk/qqqqqqqq b - - 0 1",
            // What an external program's view may claim: many kings, a board of queens.
            "KKKKKKKK/KKKKKKKK/8/8/8/8/8/7k w - - 0 1",
            "QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ w - - 0 1",
        ] {
            let board: Board = fen.split(' ').next().unwrap().parse().unwrap();
            let turn = if fen.contains(" w ") {
                Color::White
            } else {
                Color::Black
            };
            let sb = SearchBoard::new(board.clone(), Bitboard::EMPTY, turn, Bitboard::EMPTY, None);
            assert_eq!(sb.value(), super::super::evaluate::material(&board));
            assert!(sb.value().abs() > 400 * crate::search::evaluate::PAWN);
            let tapered = sb.clone().with_eval(Eval::Tapered);
            assert_eq!(tapered.value(), tapered::value(&board));
            let learned = sb.with_eval(Eval::Learned);
            assert_eq!(learned.value(), learned::value(&board));
        }
    }

    #[test]
    fn a_board_stays_small_enough_to_copy_at_every_node() {
        assert!(
            std::mem::size_of::<SearchBoard>() <= 112,
            "{}",
            std::mem::size_of::<SearchBoard>()
        );
    }
}
