//! `CaptureKing`: takes the king when it can, else moves at random.

use fow_variants::{Color, Move, Observation, RuleSet};
use rand::SeedableRng;

use super::random_move::no_moves;
use super::{unseeded, BotRng};
use crate::pick::best_move;
use crate::player::{Budget, Player, PlayerError};

/// Captures the king if it can, otherwise plays a uniformly random legal move.
pub struct CaptureKing {
    rng: BotRng,
}

impl CaptureKing {
    /// A new bot; `start` seeds it.
    pub fn new() -> CaptureKing {
        CaptureKing { rng: unseeded() }
    }
}

impl Default for CaptureKing {
    fn default() -> Self {
        Self::new()
    }
}

impl Player for CaptureKing {
    fn start(&mut self, _: Color, _: &RuleSet, seed: u64) {
        self.rng = BotRng::seed_from_u64(seed);
    }

    fn choose(&mut self, obs: &Observation, _: &Budget) -> Result<Move, PlayerError> {
        best_move(obs.legal_moves(), &mut self.rng, |m| m.captures_king()).ok_or_else(no_moves)
    }
}
