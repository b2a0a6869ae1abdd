//! `PositionaryEvaluator`: piece-square values and capture values, a move drawn with
//! probability proportional to exp(score). Its 389 numbers are what `fow evolve` evolves.

use std::sync::LazyLock;

use fow_variants::{Color, Move, Observation, Role, Square};
use rand::{Rng, SeedableRng};

use super::{unseeded, BotRng};
use crate::parametrized::{Family, Parametrized};
use crate::player::{Budget, GameStart, Player};

/// Capture values (pawn..queen) then 6 x 64 piece-square values.
pub const PARAM_COUNT: usize = 5 + 6 * 64;

const ROLES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// The shipped default: parameters evolved by `fow evolve` (see
/// `results/evolve-positionary/`).
static DEFAULT_JSON: &str = include_str!("../../params/positionary_evaluator.json");

static DEFAULTS: LazyLock<Vec<f64>> = LazyLock::new(|| {
    Family::of::<PositionaryEvaluator>()
        .parse_over(DEFAULT_JSON, vec![0.0; PARAM_COUNT])
        .expect("the shipped PositionaryEvaluator parameters are valid")
});

/// PositionaryEvaluator's parameters (`fow players` lists them): its numbers come from
/// a file, not from keys of their own.
pub const PARAMS: &[crate::param::Param] = &[crate::param::Param::text(
    "params",
    "(shipped)",
    "a JSON parameter file (named values; missing names keep the shipped values)",
)];

/// The thesis's PositionaryEvaluator. For each legal move: a king capture is played at
/// once; otherwise score = value(piece, to) - value(piece, from) + the capture value of
/// the visible victim, and a move is drawn with probability proportional to exp(score).
///
/// Parameters (389, named as in `fow params show PositionaryEvaluator`): `capture.pawn`
/// .. `capture.queen`, then `pawn.a8` .. `king.h1`: the value of a piece on a square, where
/// the square is named as White sees the board and is mirrored top to bottom for Black
/// (index 8 * row + column, row 0 = the player's far rank, as the thesis stores them).
pub struct PositionaryEvaluator {
    params: Vec<f64>,
    /// Signed piece-square values per colour, role and square.
    table: [[[f64; 64]; 6]; 2],
    capture: [f64; 6],
    rng: BotRng,
    weights: Vec<f64>,
}

/// The parameter index of `role` on `sq` for `color`.
#[inline]
pub fn square_index(color: Color, role: Role, sq: Square) -> usize {
    let rank = sq.rank() as usize;
    let row = if color.is_white() { 7 - rank } else { rank };
    5 + (role as usize - 1) * 64 + 8 * row + sq.file() as usize
}

impl Parametrized for PositionaryEvaluator {
    const NAME: &'static str = "PositionaryEvaluator";

    fn param_names() -> Vec<String> {
        let mut names: Vec<String> = ROLES[..5].iter().map(|r| format!("capture.{r}")).collect();
        for role in ROLES {
            for row in 0..8 {
                for col in 0..8u8 {
                    names.push(format!("{role}.{}{}", (b'a' + col) as char, 8 - row));
                }
            }
        }
        names
    }

    fn param_count() -> usize {
        PARAM_COUNT
    }

    fn default_params() -> Vec<f64> {
        DEFAULTS.clone()
    }

    fn from_params(params: &[f64]) -> Self {
        assert_eq!(
            params.len(),
            PARAM_COUNT,
            "PositionaryEvaluator takes 389 parameters"
        );
        let mut table = [[[0.0; 64]; 6]; 2];
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in Square::ALL {
                    table[color as usize][role as usize - 1][sq as usize] =
                        params[square_index(color, role, sq)];
                }
            }
        }
        let mut capture = [0.0; 6];
        capture[..5].copy_from_slice(&params[..5]);
        PositionaryEvaluator {
            params: params.to_vec(),
            table,
            capture,
            rng: unseeded(),
            weights: Vec::with_capacity(64),
        }
    }

    fn params(&self) -> &[f64] {
        &self.params
    }
}

impl Default for PositionaryEvaluator {
    fn default() -> Self {
        Self::from_params(&Self::default_params())
    }
}

impl PositionaryEvaluator {
    /// The score of `m` for `color`.
    #[inline]
    pub fn score(&self, color: Color, m: &Move) -> f64 {
        let t = &self.table[color as usize][m.role as usize - 1];
        let victim = m.capture.map_or(0.0, |r| self.capture[r as usize - 1]);
        t[m.to as usize] - t[m.from as usize] + victim
    }
}

impl Player for PositionaryEvaluator {
    fn start(&mut self, game: &GameStart) {
        self.rng = BotRng::seed_from_u64(game.seed);
    }

    fn choose(&mut self, obs: &Observation, _: &Budget) -> Move {
        let moves = obs.legal_moves();
        if moves.is_empty() {
            return Move::NULL;
        }
        if let Some(m) = moves.iter().find(|m| m.captures_king()) {
            return *m;
        }
        let color = obs.color();
        self.weights.clear();
        let mut best = f64::NEG_INFINITY;
        for m in moves {
            let s = self.score(color, m);
            best = best.max(s);
            self.weights.push(s);
        }
        // exp(score - best): the same distribution, without overflow.
        let mut total = 0.0;
        for w in &mut self.weights {
            *w = (*w - best).exp();
            total += *w;
        }
        let mut x = self.rng.random::<f64>() * total;
        for (m, w) in moves.iter().zip(&self.weights) {
            if x < *w {
                return *m;
            }
            x -= w;
        }
        // Rounding left x just above the last weight.
        *moves.last().expect("not empty")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parametrized::names_are_unique;
    use fow_variants::RuleSet;

    use super::super::test_observation as obs;

    #[test]
    fn names_and_layout_follow_the_thesis() {
        let names = PositionaryEvaluator::param_names();
        assert_eq!(names.len(), PARAM_COUNT);
        assert!(names_are_unique(&names));
        assert_eq!(names[0], "capture.pawn");
        assert_eq!(names[4], "capture.queen");
        assert_eq!(names[5], "pawn.a8");
        assert_eq!(names[5 + 63], "pawn.h1");
        assert_eq!(names[PARAM_COUNT - 1], "king.h1");
        // White's e2 pawn is row 6 (from rank 8), Black's e7 pawn is row 6 too (mirrored).
        assert_eq!(
            square_index(Color::White, Role::Pawn, Square::E2),
            5 + 8 * 6 + 4
        );
        assert_eq!(
            square_index(Color::Black, Role::Pawn, Square::E7),
            5 + 8 * 6 + 4
        );
        assert_eq!(
            names[square_index(Color::White, Role::Knight, Square::G1)],
            "knight.g1"
        );
        assert_eq!(
            names[square_index(Color::Black, Role::Knight, Square::G8)],
            "knight.g1"
        );
    }

    #[test]
    fn captures_the_king_and_follows_large_scores() {
        let mut params = vec![0.0; PARAM_COUNT];
        let mut bot = PositionaryEvaluator::from_params(&params);
        bot.start(&GameStart::new(Color::White, RuleSet::thesis(), 1));
        let o = obs("3k4/8/8/8/8/8/8/q2R2K1 w - - 0 1");
        assert_eq!(bot.choose(&o, &Budget::default()).uci(), "d1d8");
        // A huge queen capture value makes Rxa1 certain.
        params[4] = 50.0;
        let mut bot = PositionaryEvaluator::from_params(&params);
        let o = obs("4k3/8/8/8/8/8/8/q2R2K1 w - - 0 1");
        for seed in 0..20 {
            bot.start(&GameStart::new(Color::White, RuleSet::thesis(), seed));
            assert_eq!(bot.choose(&o, &Budget::default()).uci(), "d1a1");
        }
        // Score = to - from + victim.
        let m = o
            .legal_moves()
            .iter()
            .find(|m| m.uci() == "d1a1")
            .copied()
            .unwrap();
        params[square_index(Color::White, Role::Rook, Square::A1)] = 2.0;
        params[square_index(Color::White, Role::Rook, Square::D1)] = 0.5;
        let bot = PositionaryEvaluator::from_params(&params);
        assert_eq!(bot.score(Color::White, &m), 2.0 - 0.5 + 50.0);
    }

    #[test]
    fn zero_parameters_play_uniformly() {
        let bot_params = vec![0.0; PARAM_COUNT];
        let o = obs("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let mut counts = std::collections::HashMap::new();
        let mut bot = PositionaryEvaluator::from_params(&bot_params);
        bot.start(&GameStart::new(Color::White, RuleSet::thesis(), 3));
        for _ in 0..4000 {
            *counts
                .entry(bot.choose(&o, &Budget::default()))
                .or_insert(0) += 1;
        }
        assert_eq!(counts.len(), 20);
        assert!(
            counts.values().all(|&c| (120..=290).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn shipped_defaults_load() {
        assert_eq!(PositionaryEvaluator::default_params().len(), PARAM_COUNT);
    }
}
