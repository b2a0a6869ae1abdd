//! `Planted`: a bot whose strength peaks at a known point of its two parameters, the
//! target on which the tuner (`fow tune`) is checked to find a known optimum.
//!
//! Each move it plays CaptureLargest's move with probability `1 - d / 1.5` (at least 0),
//! where `d` is the distance of `(x, y)` from the planted point `(px, py)`, and a
//! uniformly random legal move otherwise. At the planted point it is CaptureLargest;
//! the farther away, the more it plays as RandomMove, which CaptureLargest beats nearly
//! every game. Its strength therefore rises smoothly towards `(px, py)` from anywhere in
//! the unit square, the shape SPSA's gradient estimate needs.

use fow_variants::{Move, Observation};
use rand::{Rng, SeedableRng};

use crate::param::Param;
use crate::parts::MoveScore;
use crate::player::{Budget, GameStart, Player};
use crate::rng::{unseeded, BotRng};
use crate::spec::{PlayerSpec, SpecError};

use super::capture_largest::CaptureWeightScore;

const X: Param = Param::real("x", 0.5, 0.0, 1.0, "first coordinate (tuned)");
const Y: Param = Param::real("y", 0.5, 0.0, 1.0, "second coordinate (tuned)");
const PX: Param = Param::real(
    "px",
    0.7,
    0.0,
    1.0,
    "the planted optimum's first coordinate",
);
const PY: Param = Param::real(
    "py",
    0.3,
    0.0,
    1.0,
    "the planted optimum's second coordinate",
);

/// The parameters `Planted` takes.
pub const PARAMS: &[Param] = &[X, Y, PX, PY];

/// The distance from the planted point at which `Planted` plays only random moves.
pub const REACH: f64 = 1.5;

/// A bot as strong as CaptureLargest at a planted point of its parameters, weaker (more
/// random moves) the farther its parameters are from it.
#[derive(Clone, Debug)]
pub struct Planted {
    /// The chance of CaptureLargest's move each turn.
    greedy: f64,
    rng: BotRng,
}

impl Planted {
    /// The bot of a `Planted:x=..,y=..[,px=..,py=..]` spec.
    pub fn from_spec(spec: &PlayerSpec) -> Result<Planted, SpecError> {
        let d = (X.read_real(spec)? - PX.read_real(spec)?)
            .hypot(Y.read_real(spec)? - PY.read_real(spec)?);
        Ok(Planted {
            greedy: Planted::greedy_share(d),
            rng: unseeded(),
        })
    }

    /// The chance of CaptureLargest's move at distance `d` from the planted point.
    pub fn greedy_share(d: f64) -> f64 {
        (1.0 - d / REACH).max(0.0)
    }
}

impl Player for Planted {
    fn start(&mut self, game: &GameStart) {
        self.rng = BotRng::seed_from_u64(game.seed);
    }

    fn choose(&mut self, obs: &Observation, _: &Budget) -> Move {
        let moves = obs.legal_moves();
        if moves.is_empty() {
            return Move::NULL;
        }
        if self.rng.random::<f64>() < self.greedy {
            let score = CaptureWeightScore;
            crate::pick::best_move(moves, &mut self.rng, |m| score.score(obs, m))
                .unwrap_or(Move::NULL)
        } else {
            moves[self.rng.random_range(0..moves.len())]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strength_peaks_at_the_planted_point() {
        let at = |s: &str| Planted::from_spec(&s.parse().unwrap()).unwrap().greedy;
        assert_eq!(at("Planted:x=0.7,y=0.3"), 1.0);
        assert!(at("Planted:x=0.6,y=0.3") > at("Planted:x=0.2,y=0.3"));
        assert!(
            at("Planted:x=0,y=1") > 0.0,
            "no flat region in the unit square"
        );
        assert_eq!(at("Planted:x=0.2,y=0.8,px=0.2,py=0.8"), 1.0);
        assert!(Planted::from_spec(&"Planted:x=2".parse().unwrap()).is_err());
    }
}
