//! Post-game analysis records and their arithmetic: centipawns to a win chance with the
//! logistic curve Lichess uses, the drop in win chance for the mover, the label of a move
//! by that drop, and each side's accuracy.
//!
//! The values themselves (a full-information search before and after each move) come
//! from an engine; see `fow analyze`. These types are what the analysis CSV, the report
//! and the HTML replay share.

use fow_records::GameOpening;
use serde::{Deserialize, Serialize};

use crate::error_cause::Cause;
use crate::highlight::Highlight;
use crate::phase::Phase;

/// A move's label: "best" for the engine's own choice, else by the drop in the mover's
/// win chance (percentage points); see [`MoveLabel::of`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveLabel {
    /// The engine's choice, with no drop, not leaving the mover's king capturable.
    Best,
    /// No drop, but not the engine's choice.
    Excellent,
    /// A drop under 5, or no drop while leaving the mover's king capturable.
    Good,
    /// A drop of 5 to under 10.
    Inaccuracy,
    /// A drop of 10 to under 20.
    Mistake,
    /// A drop of 20 or more.
    Blunder,
}

impl MoveLabel {
    /// The label of a move that dropped the mover's win chance by `drop` percentage
    /// points: `Best` only for the engine's choice (`engine_choice`) with no drop, and never
    /// for a move that leaves the mover's king capturable (`king_hangs`); any other move
    /// without a drop is `Excellent`, except one that hangs the king, which is at most
    /// `Good` (its drop is 0 only when the position was already lost); other drops as
    /// [`MoveLabel::from_drop`].
    ///
    /// ```
    /// use fow_analysis::MoveLabel;
    /// assert_eq!(MoveLabel::of(0.0, true, false), MoveLabel::Best);
    /// assert_eq!(MoveLabel::of(0.0, false, false), MoveLabel::Excellent);
    /// assert_eq!(MoveLabel::of(0.0, true, true), MoveLabel::Good);
    /// assert_eq!(MoveLabel::of(0.0, false, true), MoveLabel::Good);
    /// assert_eq!(MoveLabel::of(3.0, true, false), MoveLabel::Good);
    /// assert_eq!(MoveLabel::of(30.0, false, true), MoveLabel::Blunder);
    /// ```
    pub fn of(drop: f64, engine_choice: bool, king_hangs: bool) -> MoveLabel {
        match MoveLabel::from_drop(drop) {
            MoveLabel::Excellent if king_hangs => MoveLabel::Good,
            MoveLabel::Excellent if engine_choice => MoveLabel::Best,
            label => label,
        }
    }

    /// The label for a drop in win chance of `drop` percentage points alone, without
    /// knowing the engine's choice: no drop is `Excellent` (only [`MoveLabel::of`] says
    /// `Best`).
    ///
    /// ```
    /// use fow_analysis::MoveLabel;
    /// assert_eq!(MoveLabel::from_drop(0.0), MoveLabel::Excellent);
    /// assert_eq!(MoveLabel::from_drop(4.9), MoveLabel::Good);
    /// assert_eq!(MoveLabel::from_drop(5.0), MoveLabel::Inaccuracy);
    /// assert_eq!(MoveLabel::from_drop(10.0), MoveLabel::Mistake);
    /// assert_eq!(MoveLabel::from_drop(20.0), MoveLabel::Blunder);
    /// ```
    pub fn from_drop(drop: f64) -> MoveLabel {
        if drop <= 0.0 {
            MoveLabel::Excellent
        } else if drop < 5.0 {
            MoveLabel::Good
        } else if drop < 10.0 {
            MoveLabel::Inaccuracy
        } else if drop < 20.0 {
            MoveLabel::Mistake
        } else {
            MoveLabel::Blunder
        }
    }

    /// The label in lower case, as the CSV writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            MoveLabel::Best => "best",
            MoveLabel::Excellent => "excellent",
            MoveLabel::Good => "good",
            MoveLabel::Inaccuracy => "inaccuracy",
            MoveLabel::Mistake => "mistake",
            MoveLabel::Blunder => "blunder",
        }
    }
}

/// White's win chance in percent for a value of `cp` centipawns from White's side:
/// `50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1)`, Lichess's curve.
///
/// ```
/// use fow_analysis::win_chance;
/// assert_eq!(win_chance(0.0), 50.0);
/// assert!((win_chance(100.0) - 59.1).abs() < 0.1);
/// assert!((win_chance(-100.0) + win_chance(100.0) - 100.0).abs() < 1e-9);
/// ```
pub fn win_chance(cp: f64) -> f64 {
    50.0 + 50.0 * (2.0 / (1.0 + (-0.003_682_08 * cp).exp()) - 1.0)
}

/// The accuracy of one move that dropped the mover's win chance by `drop` points:
/// `103.1668 * exp(-0.04354 * drop) - 3.1669`, clamped to 0..=100 (Lichess's formula).
///
/// ```
/// use fow_analysis::move_accuracy;
/// assert!((move_accuracy(0.0) - 100.0).abs() < 1e-3);
/// assert!(move_accuracy(20.0) < 45.0);
/// assert_eq!(move_accuracy(100.0), 0.0);
/// ```
pub fn move_accuracy(drop: f64) -> f64 {
    (103.1668 * (-0.04354 * drop.max(0.0)).exp() - 3.1669).clamp(0.0, 100.0)
}

/// The analysis of one move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveAnalysis {
    /// The 1-based ply.
    pub ply: usize,
    /// `white` or `black`: who moved.
    pub mover: String,
    /// The move in UCI.
    pub uci: String,
    /// The move in SAN (no check marks).
    pub san: String,
    /// The full-information value before the move, centipawns from White's side.
    pub cp_before: f64,
    /// The full-information value after the move, centipawns from White's side.
    pub cp_after: f64,
    /// The engine's preferred move before this one (UCI), if it gave one.
    pub best: String,
    /// The mover's win chance (percent) before the move.
    pub win_before: f64,
    /// The mover's win chance (percent) after the move.
    pub win_after: f64,
    /// `max(0, win_before - win_after)`.
    pub drop: f64,
    /// The label by `drop`, whether the move is the engine's choice (`best`) and whether it
    /// leaves the king capturable ([`MoveLabel::of`]).
    pub label: MoveLabel,
    /// The move's accuracy by [`move_accuracy`].
    pub accuracy: f64,
    /// After the move, the opponent can capture the mover's king.
    pub king_left_capturable: bool,
    /// The phase of the position the move is played from ([`crate::game_phases`]);
    /// `None` in an analysis written before phases (an empty CSV column).
    #[serde(default)]
    pub phase: Option<Phase>,
    /// Brilliant or great (see `fow analyze`'s manual); empty for most moves.
    #[serde(default)]
    pub highlight: Highlight,
    /// For a mistake or blunder: decision, luck or belief (see [`Cause`]); empty
    /// otherwise, or when no board could be valued.
    #[serde(default)]
    pub cause: Cause,
    /// How many boards the mover could not tell apart from the true one were valued for
    /// `cause` (0 when none).
    #[serde(default)]
    pub boards: usize,
    /// The move's mean drop in the mover's win chance over those boards (by weight).
    #[serde(default)]
    pub fog_drop: f64,
    /// The share (0 to 1, by weight) of those boards on which the move is bad (a drop of
    /// a mistake or more).
    #[serde(default)]
    pub fog_bad: f64,
    /// The ply (plies played) from whose true position those boards were tracked: 0 from
    /// the game's start; later when the tracked sample had lost every consistent board
    /// and was tracked again from there (what was hidden before it taken as known).
    #[serde(default)]
    pub fog_from: usize,
    /// The true board's weight in the mover's replayed belief relative to the mean weight
    /// of its boards (0: left out); empty when no belief was replayed.
    #[serde(default)]
    pub belief_truth: Option<f64>,
}

impl MoveAnalysis {
    /// The record for a move by `mover_is_white` with values before and after it (from
    /// White's side): win chances for the mover, drop, label and accuracy follow. The
    /// label is `best` only when `uci` is the engine's choice `best`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        ply: usize,
        mover_is_white: bool,
        uci: String,
        san: String,
        cp_before: f64,
        cp_after: f64,
        best: String,
        king_left_capturable: bool,
    ) -> MoveAnalysis {
        let sign = if mover_is_white { 1.0 } else { -1.0 };
        let win_before = win_chance(sign * cp_before);
        let win_after = win_chance(sign * cp_after);
        let drop = (win_before - win_after).max(0.0);
        let label = MoveLabel::of(drop, !best.is_empty() && uci == best, king_left_capturable);
        MoveAnalysis {
            ply,
            mover: if mover_is_white { "white" } else { "black" }.to_string(),
            uci,
            san,
            cp_before,
            cp_after,
            best,
            win_before,
            win_after,
            drop,
            label,
            accuracy: move_accuracy(drop),
            king_left_capturable,
            phase: None,
            highlight: Highlight::None,
            cause: Cause::None,
            boards: 0,
            fog_drop: 0.0,
            fog_bad: 0.0,
            fog_from: 0,
            belief_truth: None,
        }
    }
}

/// The analysis of a whole game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameAnalysis {
    /// The engine and its settings, in words (`MyStockfish depth 4`, `stockfish nodes
    /// 100000`).
    pub engine: String,
    /// One record per move.
    pub moves: Vec<MoveAnalysis>,
    /// The game's opening by position in the opening table, if it names one.
    #[serde(default)]
    pub opening: Option<GameOpening>,
}

impl GameAnalysis {
    /// The mean accuracy of the moves of `white` (or Black's); `None` if it made none.
    pub fn accuracy(&self, white: bool) -> Option<f64> {
        let side = if white { "white" } else { "black" };
        let a: Vec<f64> = self
            .moves
            .iter()
            .filter(|m| m.mover == side)
            .map(|m| m.accuracy)
            .collect();
        (!a.is_empty()).then(|| a.iter().sum::<f64>() / a.len() as f64)
    }

    /// The mean accuracy of the moves of `white` (or Black's) played in `phase`, and how
    /// many there were; `None` if it made none there.
    pub fn phase_accuracy(&self, white: bool, phase: Phase) -> Option<(f64, usize)> {
        let side = if white { "white" } else { "black" };
        let a: Vec<f64> = self
            .moves
            .iter()
            .filter(|m| m.mover == side && m.phase == Some(phase))
            .map(|m| m.accuracy)
            .collect();
        (!a.is_empty()).then(|| (a.iter().sum::<f64>() / a.len() as f64, a.len()))
    }

    /// How many moves of that side got `label`.
    pub fn count(&self, white: bool, label: MoveLabel) -> usize {
        let side = if white { "white" } else { "black" };
        self.moves
            .iter()
            .filter(|m| m.mover == side && m.label == label)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drop_is_for_the_mover() {
        // Black moves from -200 (good for Black) to +100 (good for White): a big drop.
        let m = MoveAnalysis::new(
            2,
            false,
            "e7e5".into(),
            "e5".into(),
            -200.0,
            100.0,
            String::new(),
            false,
        );
        assert!(m.win_before > 60.0 && m.win_after < 45.0);
        assert!(m.drop > 20.0);
        assert_eq!(m.label, MoveLabel::Blunder);
        // A move that improves the mover's chance has no drop.
        let m = MoveAnalysis::new(
            1,
            true,
            "e2e4".into(),
            "e4".into(),
            0.0,
            50.0,
            String::new(),
            false,
        );
        // With no drop it is excellent, not best: the engine preferred no move here.
        assert_eq!((m.drop, m.label), (0.0, MoveLabel::Excellent));
        assert!((m.accuracy - 100.0).abs() < 1e-3);
    }

    /// "best" means the engine's choice, and never a move that hangs the mover's king.
    #[test]
    fn best_is_the_engines_choice_only() {
        let mv = |uci: &str, best: &str, before: f64, after: f64, hangs: bool| {
            MoveAnalysis::new(
                1,
                true,
                uci.into(),
                uci.into(),
                before,
                after,
                best.into(),
                hangs,
            )
            .label
        };
        assert_eq!(mv("e2e4", "e2e4", 30.0, 30.0, false), MoveLabel::Best);
        // As good by the engine's value, but another move.
        assert_eq!(mv("d2d4", "e2e4", 30.0, 30.0, false), MoveLabel::Excellent);
        // The engine's choice that still loses a little is good, not best.
        assert_eq!(mv("e2e4", "e2e4", 30.0, 0.0, false), MoveLabel::Good);
        // Lost before and after (like the held-out game's 25... Kf6: the king hangs and
        // the win chance was already 0): no drop, yet neither best nor excellent.
        let lost = -(crate::MATE_CP - 3.0);
        let after = -(crate::MATE_CP - 1.0);
        for best in ["g2g3", "e1f2", ""] {
            let label = mv("e1f2", best, lost, after, true);
            assert_eq!(label, MoveLabel::Good, "engine's move '{best}'");
        }
        // A hanging king that costs win chance is labelled by the drop, as before.
        assert_eq!(mv("e1f2", "g2g3", 0.0, after, true), MoveLabel::Blunder);
    }

    #[test]
    fn accuracy_averages_each_side() {
        let mut g = GameAnalysis {
            opening: None,
            engine: "test".into(),
            moves: vec![
                MoveAnalysis::new(
                    1,
                    true,
                    "a".into(),
                    "a".into(),
                    0.0,
                    0.0,
                    String::new(),
                    false,
                ),
                MoveAnalysis::new(
                    2,
                    false,
                    "b".into(),
                    "b".into(),
                    0.0,
                    400.0,
                    String::new(),
                    true,
                ),
                MoveAnalysis::new(
                    3,
                    true,
                    "c".into(),
                    "c".into(),
                    400.0,
                    -400.0,
                    String::new(),
                    false,
                ),
            ],
        };
        let w = g.accuracy(true).unwrap();
        assert!(w > 0.0 && w < 60.0, "{w}");
        assert!(g.accuracy(false).unwrap() < 50.0);
        assert_eq!(g.count(true, MoveLabel::Blunder), 1);
        // By phase: only the moves marked with it.
        assert_eq!(g.phase_accuracy(true, Phase::Opening), None);
        g.moves[0].phase = Some(Phase::Opening);
        g.moves[2].phase = Some(Phase::Middlegame);
        let (opening, n) = g.phase_accuracy(true, Phase::Opening).unwrap();
        assert_eq!((opening, n), (g.moves[0].accuracy, 1));
        let (middle, _) = g.phase_accuracy(true, Phase::Middlegame).unwrap();
        assert!((opening + middle) / 2.0 - g.accuracy(true).unwrap() < 1e-9);
        assert_eq!(g.phase_accuracy(false, Phase::Opening), None);
    }
}
