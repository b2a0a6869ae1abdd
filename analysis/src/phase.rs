//! Game phases: each move of a game marked opening, middlegame or endgame by stated rules,
//! for the analysis report's per-phase accuracy.
//!
//! A move's phase is the phase of the position it is played from. The rules:
//!
//! - **Endgame** from the first position with at most [`ENDGAME_PIECES`] queens, rooks,
//!   bishops and knights on the board (both sides together; Lichess's threshold).
//! - **Middlegame** from the first position, after the last one the opening table names
//!   ([`GameOpening::ply`]), that is developed, exchanged, mixed or castled: a side has
//!   fewer than [`BACKRANK_PIECES`] of its pieces on its back rank; at most
//!   [`MIDDLEGAME_PIECES`] queens, rooks, bishops and knights remain; the [`mixedness`]
//!   of the pieces is above [`MIXEDNESS`]; or both sides have castled. The first three
//!   are Lichess's `Divider` (scalachess, `Divider.scala`), castling is fow's addition.
//! - **Opening** before that.
//!
//! Leaving the table does not end the opening by itself: fog-of-war players leave it
//! within a few plies, before anything is developed. A game that never reaches a
//! middlegame position stays in the opening until its endgame, as in Lichess's rule.

use fow_records::GameOpening;
use fow_variants::shakmaty::Rank;
use fow_variants::{Bitboard, Color, Move, MoveKind, Position};
use serde::{Deserialize, Serialize};

/// At most this many queens, rooks, bishops and knights: the endgame.
pub const ENDGAME_PIECES: u32 = 6;
/// At most this many queens, rooks, bishops and knights: exchanges make a middlegame.
pub const MIDDLEGAME_PIECES: u32 = 10;
/// Fewer than this many of a side's pieces on its back rank: developed.
pub const BACKRANK_PIECES: u32 = 4;
/// A [`mixedness`] above this: the pieces are in contact, a middlegame.
pub const MIXEDNESS: u32 = 150;

/// A phase of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Before the middlegame.
    Opening,
    /// Developed, exchanged, mixed or castled, out of the opening table.
    Middlegame,
    /// Few pieces left.
    Endgame,
}

impl Phase {
    /// All phases, in game order.
    pub const ALL: [Phase; 3] = [Phase::Opening, Phase::Middlegame, Phase::Endgame];

    /// The phase in lower case, as the CSV writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Opening => "opening",
            Phase::Middlegame => "middlegame",
            Phase::Endgame => "endgame",
        }
    }
}

/// The phase of each move of a game: `positions` are the start and the position after
/// each of `moves`; `opening` is what the opening table says of the game (its last named
/// position bounds the opening). One phase per move, by the rules of this module.
///
/// ```
/// use fow_analysis::{game_phases, Phase};
/// use fow_records::OpeningTable;
/// use fow_variants::{Position, RuleSet};
/// let rules = RuleSet::chesscom();
/// let (mut positions, mut moves) = (vec![Position::startpos()], vec![]);
/// // 1. e4 c5 2. Qh5: out of the table at once, nothing developed: all opening.
/// for uci in ["e2e4", "c7c5", "d1h5"] {
///     let mut p = positions.last().unwrap().clone();
///     let m = p.parse_uci(uci, &rules).unwrap();
///     p.play(&m);
///     positions.push(p);
///     moves.push(m);
/// }
/// let opening = OpeningTable::standard().identify(&positions);
/// assert_eq!(game_phases(&positions, &moves, opening.as_ref()), [Phase::Opening; 3]);
/// ```
pub fn game_phases(
    positions: &[Position],
    moves: &[Move],
    opening: Option<&GameOpening>,
) -> Vec<Phase> {
    let book_end = opening.map(|o| o.ply);
    let mut castled = [false; 2];
    let mut middle = false;
    let mut end = false;
    let mut phases = Vec::with_capacity(moves.len());
    for (i, m) in moves.iter().enumerate() {
        let pos = &positions[i];
        end |= pieces(pos) <= ENDGAME_PIECES;
        let out_of_book = book_end.is_none_or(|b| i > b);
        middle |= out_of_book && (castled == [true; 2] || middlegame_position(pos));
        phases.push(if end {
            Phase::Endgame
        } else if middle {
            Phase::Middlegame
        } else {
            Phase::Opening
        });
        if m.kind == MoveKind::Castle {
            castled[usize::from(pos.turn() == Color::Black)] = true;
        }
    }
    phases
}

/// Lichess's middlegame test of one position: a sparse back rank, exchanges or mixed
/// pieces.
pub fn middlegame_position(pos: &Position) -> bool {
    backrank_sparse(pos) || pieces(pos) <= MIDDLEGAME_PIECES || mixedness(pos) > MIXEDNESS
}

/// Queens, rooks, bishops and knights on the board, both sides.
pub fn pieces(pos: &Position) -> u32 {
    let b = pos.board();
    (b.occupied() & !(b.kings() | b.pawns())).count() as u32
}

/// Whether White has fewer than [`BACKRANK_PIECES`] pieces (any, pawns and king
/// included) on the first rank, or Black on the eighth: pieces have been developed.
pub fn backrank_sparse(pos: &Position) -> bool {
    let b = pos.board();
    let on = |rank: Rank, color: Color| (Bitboard::from_rank(rank) & b.by_color(color)).count();
    on(Rank::First, Color::White) < BACKRANK_PIECES as usize
        || on(Rank::Eighth, Color::Black) < BACKRANK_PIECES as usize
}

/// Lichess's mixedness: over the 49 two-by-two squares of the board, a score for each
/// by how many white and black pieces stand in it and how far up the board it lies
/// ([`region_score`]), summed. Pieces of both colours in contact, or far into the
/// other's half, score high; the start position scores 0.
pub fn mixedness(pos: &Position) -> u32 {
    let b = pos.board();
    let mut total = 0;
    for row in 0..7u32 {
        for file in 0..7u32 {
            let region = Bitboard(0x0303 << (file + 8 * row));
            let white = (region & b.by_color(Color::White)).count() as u32;
            let black = (region & b.by_color(Color::Black)).count() as u32;
            total += region_score(row + 1, white, black);
        }
    }
    total
}

/// The score of a two-by-two square whose lower rank is `y` (1 to 7), with `white` white
/// and `black` black pieces in it: Lichess's table (scalachess `Divider.score`).
pub fn region_score(y: u32, white: u32, black: u32) -> u32 {
    // Written with signed arithmetic as the table is, then never negative by its guards.
    let y = y as i64;
    let s = match (white, black) {
        (0, 0) => 0,
        (1, 0) => 1 + (8 - y),
        (2, 0) if y > 2 => 2 + (y - 2),
        (3, 0) | (4, 0) if y > 1 => 3 + (y - 1),
        (0, 1) => 1 + y,
        (1, 1) => 5 + (3 - y).abs(),
        (2, 1) => 4 + y,
        (3, 1) => 5 + y,
        (0, 2) if y < 6 => 2 + (6 - y),
        (1, 2) => 4 + (6 - y),
        (2, 2) => 7,
        (0, 3) | (0, 4) if y < 7 => 3 + (7 - y),
        (1, 3) => 5 + (6 - y),
        _ => 0,
    };
    s as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_records::OpeningTable;
    use fow_variants::RuleSet;

    /// A game from `fen` (or the start) through `moves` in UCI: positions and moves.
    fn game(fen: Option<&str>, moves: &[&str]) -> (Vec<Position>, Vec<Move>) {
        let rules = RuleSet::chesscom();
        let start = fen.map_or_else(Position::startpos, |f| Position::from_fen(f).unwrap());
        let (mut positions, mut played) = (vec![start], vec![]);
        for uci in moves {
            let mut p = positions.last().unwrap().clone();
            let m = p
                .parse_uci(uci, &rules)
                .unwrap_or_else(|e| panic!("{uci}: {e}"));
            p.play(&m);
            positions.push(p);
            played.push(m);
        }
        (positions, played)
    }

    /// The phases of a game with its opening from the shipped table.
    fn phases(fen: Option<&str>, moves: &[&str]) -> Vec<Phase> {
        let (positions, played) = game(fen, moves);
        let opening = OpeningTable::standard().identify(&positions);
        game_phases(&positions, &played, opening.as_ref())
    }

    /// The 1-based ply of the first move of `phase`, if any.
    fn first(phases: &[Phase], phase: Phase) -> Option<usize> {
        phases.iter().position(|p| *p == phase).map(|i| i + 1)
    }

    #[test]
    fn mixedness_is_lichess_score() {
        assert_eq!(mixedness(&Position::startpos()), 0);
        // Worked by hand from the table: the king on e1 is in two squares of the first
        // row, (1 white, 0 black) at y = 1: 1 + 7 each; the pawn on d5 in two squares at
        // y = 4 (1 + 4 each) and two at y = 5 (1 + 3 each); the king on e8 in two of the
        // last row, (0, 1) at y = 7: 1 + 7 each. 16 + 10 + 8 + 16 = 50.
        let p = Position::from_fen("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(mixedness(&p), 50);
        assert_eq!(region_score(3, 1, 1), 5);
        assert_eq!(region_score(1, 1, 1), 7);
        assert_eq!(region_score(1, 4, 0), 0, "a group of four on the home row");
        assert_eq!(region_score(7, 0, 4), 0);
        assert_eq!(region_score(2, 2, 2), 7);
        // Pawn chains locked into each other across ranks 4 and 5 (more pawns than a
        // game has: a made-up position): mixed enough alone to make a middlegame, with
        // full back ranks and 12 pieces. 157 by the same table, worked in Python.
        let mixed = "r1bqk1nr/pp1p1ppp/2n5/1PpPpPpP/pPpPpPp1/2N5/PP1P1PPP/R1BQK1NR w - - 0 1";
        let p = Position::from_fen(mixed).unwrap();
        assert_eq!(
            (mixedness(&p), pieces(&p), backrank_sparse(&p)),
            (157, 12, false)
        );
        assert!(middlegame_position(&p));
    }

    /// Theory, then both sides castled: the Closed Ruy Lopez to 9. h3 (C92) has both
    /// kings castled inside the table; the middlegame begins with the first move played
    /// from a position out of it (after 9... a5), not before.
    #[test]
    fn opening_ends_after_the_table_once_both_have_castled() {
        let moves = [
            "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1",
            "b7b5", "a4b3", "d7d6", "c2c3", "e8g8", "h2h3", "a6a5", "d2d4", "c8b7",
        ];
        let (positions, played) = game(None, &moves);
        let o = OpeningTable::standard().identify(&positions).unwrap();
        assert_eq!(
            (o.eco.as_str(), o.ply, o.out_of_book),
            ("C92", 17, Some(18))
        );
        // Nothing else would end the opening: developed but not sparse, no exchanges.
        assert!(positions.iter().all(|p| !middlegame_position(p)));
        let ph = game_phases(&positions, &played, Some(&o));
        // Ply 18 (9... a5) leaves the table from a named position: still the opening.
        assert_eq!(first(&ph, Phase::Middlegame), Some(19));
        // Without the castling rule the game would stay in the opening.
        let no_castle = [
            "e2e4", "e7e5", "g1f3", "b8c6", "h2h3", "a7a6", "a2a3", "h7h6",
        ];
        assert_eq!(first(&phases(None, &no_castle), Phase::Middlegame), None);
    }

    /// Development: after 8. Qd2 White has three pieces on its first rank (a1, e1, h1);
    /// Black's next move is the first of the middlegame.
    #[test]
    fn a_sparse_back_rank_starts_the_middlegame() {
        let moves = [
            "b1a3", "b8a6", "g1h3", "g8h6", "g2g3", "g7g6", "f1g2", "f8g7", "b2b3", "b7b6", "c1b2",
            "c8b7", "d2d3", "d7d6", "d1d2", "d8d7",
        ];
        let (positions, _) = game(None, &moves);
        assert!(!backrank_sparse(&positions[14]) && backrank_sparse(&positions[15]));
        assert!(positions
            .iter()
            .all(|p| pieces(p) == 14 && mixedness(p) <= MIXEDNESS));
        let ph = phases(None, &moves);
        assert_eq!(first(&ph, Phase::Middlegame), Some(16));
        assert_eq!(first(&ph, Phase::Endgame), None);
    }

    /// Exchanges: 11 pieces, then 2. Bxc6 leaves 10; the move after it is the first of
    /// the middlegame (no table position from this start).
    #[test]
    fn exchanges_start_the_middlegame() {
        let fen = "r1bqkb1r/pppppppp/2n5/8/8/4P3/PPPP1PPP/R1BQKB1R w KQkq - 0 1";
        let moves = ["f1b5", "a7a6", "b5c6", "d7c6", "e1e2"];
        let (positions, _) = game(Some(fen), &moves);
        let counts: Vec<u32> = positions.iter().map(pieces).collect();
        assert_eq!(counts, [11, 11, 11, 10, 9, 9]);
        assert!(positions
            .iter()
            .all(|p| !backrank_sparse(p) && mixedness(p) <= MIXEDNESS));
        let ph = phases(Some(fen), &moves);
        assert_eq!(
            ph,
            [
                Phase::Opening,
                Phase::Opening,
                Phase::Opening,
                Phase::Middlegame,
                Phase::Middlegame
            ]
        );
    }

    /// The endgame: 7 pieces, then 2... gxf6 leaves 6; the move after it is the first of
    /// the endgame, whatever came before.
    #[test]
    fn six_pieces_start_the_endgame() {
        // White: rooks a1, h1, queen d1, knight c3; Black: knight e5, bishop f8, rook h8.
        let fen = "4kb1r/pppp1ppp/8/4n3/8/2N5/PPPPPPPP/R2QK2R w KQk - 0 1";
        let moves = ["c3d5", "e5c4", "d5f6", "g7f6", "a1b1"];
        let (positions, _) = game(Some(fen), &moves);
        let counts: Vec<u32> = positions.iter().map(pieces).collect();
        assert_eq!(counts, [7, 7, 7, 7, 6, 6]);
        let ph = phases(Some(fen), &moves);
        // Black's sparse back rank made it a middlegame from the start.
        assert_eq!(&ph[..4], [Phase::Middlegame; 4]);
        assert_eq!(ph[4], Phase::Endgame);
        // Six pieces or fewer from the start: the endgame at once, with no middlegame
        // (as in Lichess's rule, where the middlegame cannot begin after the endgame).
        let few = "4k3/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQ - 0 1";
        assert_eq!(phases(Some(few), &["a1b1", "e8d8"]), [Phase::Endgame; 2]);
    }
}
