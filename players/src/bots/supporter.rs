//! `Supporter`: captures, and keeps its pieces protected.

use fow_variants::shakmaty::Board;
use fow_variants::{apply_move, Color, Move, Observation};

use crate::parts::{Greedy, MoveScore};
use crate::weights::thesis_weight;

/// Scores the captured weight plus, on the mover's own visible board after the move, one
/// point for every own piece other than a pawn or king that another own piece could
/// recapture on (that would be capturable by us were it an enemy). Fog counts as empty:
/// the bot reasons only about pieces it sees.
#[derive(Clone, Copy, Debug, Default)]
pub struct SupportScore;

impl MoveScore for SupportScore {
    fn score(&self, obs: &Observation, m: &Move) -> i32 {
        let mut after = obs.view().board().clone();
        apply_move(&mut after, m, obs.color());
        m.capture.map_or(0, thesis_weight) + supported_pieces(&after, obs.color())
    }
}

/// Captured weight plus the number of own pieces defended after the move; ties at random.
pub type Supporter = Greedy<SupportScore>;

/// Own pieces other than pawns and kings that another own piece defends on `board`.
pub fn supported_pieces(board: &Board, us: Color) -> i32 {
    let ours = board.by_color(us);
    let occupied = board.occupied();
    let mut n = 0;
    for sq in ours & !board.pawns() & !board.kings() {
        if board.attacks_to(sq, us, occupied).any() {
            n += 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::Position;

    #[test]
    fn counts_defended_non_pawn_pieces() {
        // Knight c3 defended by pawn b2; bishop f4 undefended; rook a1 defended by nothing
        // (b1 knight moved); queen d1 defended by king e1.
        let pos = Position::from_fen("4k3/8/8/8/5B2/2N5/1P6/R2QK3 w - - 0 1").unwrap();
        assert_eq!(supported_pieces(pos.board(), Color::White), 3);
    }
}
