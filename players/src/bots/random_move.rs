//! `RandomMove`: a uniformly random legal move.

use fow_variants::{Move, Observation};
use rand::{Rng, SeedableRng};

use super::{unseeded, BotRng};
use crate::player::{Budget, GameStart, Player};

/// Plays a uniformly random legal move (the thesis's baseline, rated 0).
pub struct RandomMove {
    rng: BotRng,
}

impl RandomMove {
    /// A new bot; `start` seeds it.
    pub fn new() -> RandomMove {
        RandomMove { rng: unseeded() }
    }
}

impl Default for RandomMove {
    fn default() -> Self {
        Self::new()
    }
}

impl Player for RandomMove {
    fn start(&mut self, game: &GameStart) {
        self.rng = BotRng::seed_from_u64(game.seed);
    }

    #[inline]
    fn choose(&mut self, obs: &Observation, _: &Budget) -> Move {
        // Draw an index and look the move up in the compact set: no list is built.
        match obs.move_count() {
            0 => Move::NULL,
            n => obs
                .nth_move(self.rng.random_range(0..n))
                .unwrap_or(Move::NULL),
        }
    }
}
