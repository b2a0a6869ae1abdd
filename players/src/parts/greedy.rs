//! [`Greedy`]: the thesis bots' common shape: score every legal move, play the best,
//! break ties uniformly at random.

use fow_variants::{Move, Observation};
use rand::SeedableRng;

use crate::pick::best_move;
use crate::player::{Budget, GameStart, Player};
use crate::rng::{unseeded, BotRng};

/// How a greedy bot scores one legal move, from its observation alone.
pub trait MoveScore: Send {
    /// The move's score; higher is better.
    fn score(&self, obs: &Observation, m: &Move) -> i32;
}

/// A bot that plays the best-scoring legal move, ties broken uniformly at random with
/// the seed given at `start`.
pub struct Greedy<S> {
    rng: BotRng,
    scorer: S,
}

impl<S: MoveScore> Greedy<S> {
    /// A bot scoring with `scorer`; `start` seeds it.
    pub fn new(scorer: S) -> Greedy<S> {
        Greedy {
            rng: unseeded(),
            scorer,
        }
    }
}

impl<S: MoveScore + Default> Default for Greedy<S> {
    fn default() -> Self {
        Greedy::new(S::default())
    }
}

impl<S: MoveScore> Player for Greedy<S> {
    fn start(&mut self, game: &GameStart) {
        self.rng = BotRng::seed_from_u64(game.seed);
    }

    fn choose(&mut self, obs: &Observation, _: &Budget) -> Move {
        let scorer = &self.scorer;
        best_move(obs.legal_moves(), &mut self.rng, |m| scorer.score(obs, m)).unwrap_or(Move::NULL)
    }
}
