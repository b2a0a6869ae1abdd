//! `CaptureWithLargestDifference`: captures with the cheapest piece that gains most.

use fow_variants::{Move, Observation};

use crate::parts::{Greedy, MoveScore};
use crate::weights::thesis_weight;

/// Scores the captured weight minus the moving piece's weight (a quiet move scores minus
/// the mover's weight, so without captures pawn moves are preferred).
#[derive(Clone, Copy, Debug, Default)]
pub struct CaptureDifferenceScore;

impl MoveScore for CaptureDifferenceScore {
    fn score(&self, _: &Observation, m: &Move) -> i32 {
        m.capture.map_or(0, thesis_weight) - thesis_weight(m.role)
    }
}

/// Maximises captured weight minus mover weight; ties at random.
pub type CaptureWithLargestDifference = Greedy<CaptureDifferenceScore>;
