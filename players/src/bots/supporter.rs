//! `Supporter`: captures, and keeps its pieces protected.

use fow_variants::shakmaty::Board;
use fow_variants::{apply_move, Color, Move, Observation, RuleSet};
use rand::SeedableRng;

use super::random_move::no_moves;
use super::{unseeded, BotRng};
use crate::pick::best_move;
use crate::player::{Budget, Player, PlayerError};
use crate::weights::thesis_weight;

/// Scores a move as the captured weight plus, on its own visible board after the move,
/// one point for every own piece other than a pawn or king that another own piece could
/// recapture on (that would be capturable by us were it an enemy). Fog counts as empty:
/// the bot reasons only about pieces it sees. Ties at random.
pub struct Supporter {
    rng: BotRng,
}

impl Supporter {
    /// A new bot; `start` seeds it.
    pub fn new() -> Supporter {
        Supporter { rng: unseeded() }
    }
}

impl Default for Supporter {
    fn default() -> Self {
        Self::new()
    }
}

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

impl Player for Supporter {
    fn start(&mut self, _: Color, _: &RuleSet, seed: u64) {
        self.rng = BotRng::seed_from_u64(seed);
    }

    fn choose(&mut self, obs: &Observation, _: &Budget) -> Result<Move, PlayerError> {
        let us = obs.color();
        let board = obs.view().board();
        best_move(obs.legal_moves(), &mut self.rng, |m| {
            let mut after = board.clone();
            apply_move(&mut after, m, us);
            m.capture.map_or(0, thesis_weight) + supported_pieces(&after, us)
        })
        .ok_or_else(no_moves)
    }
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
