//! `CaptureKing`: takes the king when it can, else moves at random.

use fow_variants::{Move, Observation};

use crate::parts::{Greedy, MoveScore};

/// Scores a king capture 1 and everything else 0.
#[derive(Clone, Copy, Debug, Default)]
pub struct KingCaptureScore;

impl MoveScore for KingCaptureScore {
    fn score(&self, _: &Observation, m: &Move) -> i32 {
        i32::from(m.captures_king())
    }
}

/// Captures the king if it can, otherwise plays a uniformly random legal move.
pub type CaptureKing = Greedy<KingCaptureScore>;
