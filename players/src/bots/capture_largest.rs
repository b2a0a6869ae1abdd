//! `CaptureLargest`: the greedy capturer.

use fow_variants::{Move, Observation};

use crate::parts::{Greedy, MoveScore};
use crate::weights::thesis_weight;

/// Scores the weight of the captured piece (0 for a quiet move).
#[derive(Clone, Copy, Debug, Default)]
pub struct CaptureWeightScore;

impl MoveScore for CaptureWeightScore {
    fn score(&self, _: &Observation, m: &Move) -> i32 {
        m.capture.map_or(0, thesis_weight)
    }
}

/// Maximises the weight of the captured piece; ties at random.
pub type CaptureLargest = Greedy<CaptureWeightScore>;
