//! One batch of an SPSA run: its game pairs, played in parallel, their results in pair
//! order whatever the number of threads (or machines: a batch is split into ranges of
//! pairs, [`play_pairs`], and the ranges joined in order).

use std::ops::Range;

use fow_players::tune::TuneSpace;
use fow_players::PlayerSpec;
use fow_records::seed::{side_seeds, SeedKey};
use fow_records::RecordError;
use fow_variants::{Color, Position};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::play::{play_game_seeded, GameOptions};

/// What a batch's pairs play with: the candidates of every pair, the fixed opponents
/// and the game options.
pub struct BatchPlan<'a> {
    /// The space the candidates come from.
    pub space: &'a TuneSpace,
    /// For each pair, its `+` and `-` candidates' values.
    pub candidates: &'a [[Vec<f64>; 2]],
    /// Fixed opponents (empty: the candidates play each other).
    pub against: &'a [PlayerSpec],
    /// The game options (rules, budgets, clock; no start position).
    pub options: &'a GameOptions,
    /// The run's key.
    pub key: &'a SeedKey,
    /// The batch's number.
    pub batch: u64,
    /// The pairs before this batch in the whole run (for openings).
    pub pairs_before: u64,
    /// Start positions by pair (cycled), if any.
    pub openings: &'a [Position],
}

/// The result of one game pair, from the `+` candidate's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PairScore {
    /// The SPSA result: `+`'s wins minus losses against `-` (two games: -2 to 2); with
    /// opponents, `+`'s points against the pair's opponent less `-`'s (the same scale).
    pub result: f64,
    /// `+`'s points in its games of the pair.
    pub points: f64,
    /// `+`'s games in the pair.
    pub games: u32,
}

impl PairScore {
    /// The sum of several.
    pub fn sum<'a>(scores: impl IntoIterator<Item = &'a PairScore>) -> PairScore {
        scores
            .into_iter()
            .fold(PairScore::default(), |a, s| PairScore {
                result: a.result + s.result,
                points: a.points + s.points,
                games: a.games + s.games,
            })
    }
}

/// Plays the pairs `range` of the batch with `jobs` threads; their scores in order.
///
/// Each pair has its own game seed (under the run's key, from the batch and the pair)
/// and each side keeps its seed in both games of the pair. Without opponents, `+` plays
/// `-` once with each colour. With opponents, the pair's opponent (pairs take them in
/// turn) plays `+` and `-` once with each colour each, the same seeds for both, and a
/// pair's result is `+`'s points less `-`'s (the scale of a direct pair's wins minus
/// losses).
pub fn play_pairs(
    plan: &BatchPlan<'_>,
    range: Range<u64>,
    jobs: usize,
) -> Result<Vec<PairScore>, RecordError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .map_err(|e| RecordError::System(format!("cannot start {jobs} threads: {e}")))?;
    pool.install(|| {
        range
            .into_par_iter()
            .map(|pair| play_pair(plan, pair))
            .collect::<Result<Vec<_>, _>>()
    })
}

/// One game pair of the batch.
fn play_pair(plan: &BatchPlan<'_>, pair: u64) -> Result<PairScore, RecordError> {
    let seed = plan
        .key
        .derive(&[b"tune-game", &plan.batch.to_le_bytes(), &pair.to_le_bytes()]);
    let [own, other] = side_seeds(seed);
    let mut options = plan.options.clone();
    if !plan.openings.is_empty() {
        let i = (plan.pairs_before + pair) as usize % plan.openings.len();
        options.start = Some(plan.openings[i].clone());
    }
    let [plus, minus] = &plan.candidates[pair as usize];
    let plus_spec = plan.space.spec(plus);
    let minus_spec = plan.space.spec(minus);
    // `a`'s points in its two games against `b`, `a` keeping `a_seed`.
    let two_games = |a: &PlayerSpec, b: &PlayerSpec| -> Result<f64, RecordError> {
        let mut points = 0.0;
        for a_color in Color::ALL {
            let (mut pa, mut pb) = (a.build()?, b.build()?);
            let (an, bn) = (a.to_string(), b.to_string());
            let rec = match a_color {
                Color::White => play_game_seeded(
                    pa.as_mut(),
                    pb.as_mut(),
                    &an,
                    &bn,
                    seed,
                    [own, other],
                    &options,
                ),
                Color::Black => play_game_seeded(
                    pb.as_mut(),
                    pa.as_mut(),
                    &bn,
                    &an,
                    seed,
                    [other, own],
                    &options,
                ),
            };
            points += match rec.result.winner() {
                Some(c) if c == a_color => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
        }
        Ok(points)
    };
    Ok(match plan.against.len() {
        0 => {
            let points = two_games(&plus_spec, &minus_spec)?;
            PairScore {
                result: 2.0 * points - 2.0,
                points,
                games: 2,
            }
        }
        n => {
            let opponent = &plan.against[pair as usize % n];
            let points = two_games(&plus_spec, opponent)?;
            PairScore {
                result: points - two_games(&minus_spec, opponent)?,
                points,
                games: 2,
            }
        }
    })
}
