//! Single-game scores and win/draw/loss tallies.

use serde::{Deserialize, Serialize};

/// The result of one game from one side's point of view.
///
/// A win is worth 1 point, a draw ½ and a loss 0.
///
/// ```
/// use fow_ratings::Score;
/// assert_eq!(Score::Draw.points(), 0.5);
/// assert_eq!(Score::Win.reversed(), Score::Loss);
/// assert_eq!(Score::from_points(1.0), Some(Score::Win));
/// assert_eq!(Score::from_points(0.3), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Score {
    /// The side won (1 point).
    Win,
    /// The game was drawn (½ point).
    Draw,
    /// The side lost (0 points).
    Loss,
}

impl Score {
    /// Points this score is worth: 1, ½ or 0.
    pub fn points(self) -> f64 {
        match self {
            Score::Win => 1.0,
            Score::Draw => 0.5,
            Score::Loss => 0.0,
        }
    }

    /// The same game seen from the opponent's side.
    pub fn reversed(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }

    /// The score worth exactly `points` (1, 0.5 or 0); `None` for any other value.
    pub fn from_points(points: f64) -> Option<Score> {
        if points == 1.0 {
            Some(Score::Win)
        } else if points == 0.5 {
            Some(Score::Draw)
        } else if points == 0.0 {
            Some(Score::Loss)
        } else {
            None
        }
    }
}

/// Wins, draws and losses of one side over a set of games.
///
/// ```
/// use fow_ratings::{Score, Wdl};
/// let mut wdl = Wdl::new(61, 2, 37);
/// assert_eq!(wdl.points(), 62.0);
/// assert_eq!(wdl.games(), 100);
/// wdl.record(Score::Draw);
/// assert_eq!(wdl, Wdl::new(61, 3, 37));
/// assert_eq!(wdl.reversed(), Wdl::new(37, 3, 61));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Wdl {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Wdl {
    /// A tally with the given counts.
    pub const fn new(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// Points scored: wins + draws / 2.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + 0.5 * f64::from(self.draws)
    }

    /// Number of games (as `u64`, so that it cannot overflow).
    pub fn games(&self) -> u64 {
        u64::from(self.wins) + u64::from(self.draws) + u64::from(self.losses)
    }

    /// Whether no game is recorded.
    pub fn is_empty(&self) -> bool {
        self.games() == 0
    }

    /// The same games seen from the opponent's side (wins and losses swapped).
    pub fn reversed(&self) -> Wdl {
        Wdl::new(self.losses, self.draws, self.wins)
    }

    /// Adds one game (saturating at `u32::MAX`).
    pub fn record(&mut self, score: Score) {
        let counter = match score {
            Score::Win => &mut self.wins,
            Score::Draw => &mut self.draws,
            Score::Loss => &mut self.losses,
        };
        *counter = counter.saturating_add(1);
    }

    /// Adds another tally (saturating at `u32::MAX`).
    pub fn merge(&mut self, other: Wdl) {
        self.wins = self.wins.saturating_add(other.wins);
        self.draws = self.draws.saturating_add(other.draws);
        self.losses = self.losses.saturating_add(other.losses);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_points_and_reversal() {
        for score in [Score::Win, Score::Draw, Score::Loss] {
            assert_eq!(score.points() + score.reversed().points(), 1.0);
            assert_eq!(Score::from_points(score.points()), Some(score));
        }
        assert_eq!(Score::from_points(f64::NAN), None);
        assert_eq!(Score::from_points(2.0), None);
    }

    #[test]
    fn wdl_counts() {
        let mut wdl = Wdl::default();
        assert!(wdl.is_empty());
        wdl.record(Score::Win);
        wdl.record(Score::Win);
        wdl.record(Score::Draw);
        wdl.record(Score::Loss);
        assert_eq!(wdl, Wdl::new(2, 1, 1));
        assert_eq!(wdl.points(), 2.5);
        assert_eq!(wdl.games(), 4);
        assert_eq!(wdl.reversed().points(), 1.5);
        wdl.merge(Wdl::new(1, 0, 3));
        assert_eq!(wdl, Wdl::new(3, 1, 4));
    }

    #[test]
    fn wdl_games_do_not_overflow() {
        let wdl = Wdl::new(u32::MAX, u32::MAX, u32::MAX);
        assert_eq!(wdl.games(), 3 * u64::from(u32::MAX));
        let mut saturated = wdl;
        saturated.record(Score::Win);
        assert_eq!(saturated.wins, u32::MAX);
    }
}
