//! `CaptureWithLargestDifference`: captures with the cheapest piece that gains most.

use fow_variants::{Color, Move, Observation, RuleSet};
use rand::SeedableRng;

use super::random_move::no_moves;
use super::{unseeded, BotRng};
use crate::pick::best_move;
use crate::player::{Budget, Player, PlayerError};
use crate::weights::thesis_weight;

/// Maximises the captured weight minus the moving piece's weight (a quiet move scores
/// minus the mover's weight, so without captures it prefers pawn moves); ties at random.
pub struct CaptureWithLargestDifference {
    rng: BotRng,
}

impl CaptureWithLargestDifference {
    /// A new bot; `start` seeds it.
    pub fn new() -> CaptureWithLargestDifference {
        CaptureWithLargestDifference { rng: unseeded() }
    }
}

impl Default for CaptureWithLargestDifference {
    fn default() -> Self {
        Self::new()
    }
}

impl Player for CaptureWithLargestDifference {
    fn start(&mut self, _: Color, _: &RuleSet, seed: u64) {
        self.rng = BotRng::seed_from_u64(seed);
    }

    fn choose(&mut self, obs: &Observation, _: &Budget) -> Result<Move, PlayerError> {
        best_move(obs.legal_moves(), &mut self.rng, |m| {
            m.capture.map_or(0, thesis_weight) - thesis_weight(m.role)
        })
        .ok_or_else(no_moves)
    }
}
