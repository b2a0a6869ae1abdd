//! `CaptureLargest`: the greedy capturer.

use fow_variants::{Color, Move, Observation, RuleSet};
use rand::SeedableRng;

use super::random_move::no_moves;
use super::{unseeded, BotRng};
use crate::pick::best_move;
use crate::player::{Budget, Player, PlayerError};
use crate::weights::thesis_weight;

/// Maximises the weight of the captured piece (0 for a quiet move); ties at random.
pub struct CaptureLargest {
    rng: BotRng,
}

impl CaptureLargest {
    /// A new bot; `start` seeds it.
    pub fn new() -> CaptureLargest {
        CaptureLargest { rng: unseeded() }
    }
}

impl Default for CaptureLargest {
    fn default() -> Self {
        Self::new()
    }
}

impl Player for CaptureLargest {
    fn start(&mut self, _: Color, _: &RuleSet, seed: u64) {
        self.rng = BotRng::seed_from_u64(seed);
    }

    fn choose(&mut self, obs: &Observation, _: &Budget) -> Result<Move, PlayerError> {
        best_move(obs.legal_moves(), &mut self.rng, |m| {
            m.capture.map_or(0, thesis_weight)
        })
        .ok_or_else(no_moves)
    }
}
