//! Summaries of analysed moves: a [`Tally`] (moves, mean accuracy, counts by label,
//! hanging kings, win chance lost) over any set of moves, and a [`Summary`]: the tally of
//! all of them and, for each way of grouping moves ([`move_groups`]), one tally per group.
//! A game's side in the JSON report and a player across a whole run are summaries.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::analysis::{MoveAnalysis, MoveLabel};

/// Counts and sums over a set of analysed moves.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// How many moves.
    pub moves: usize,
    /// The mean of their accuracies ([`move_accuracy`](crate::move_accuracy)); `None`
    /// (JSON `null`) for no moves.
    pub accuracy: Option<f64>,
    /// How many got each label, by [`MoveLabel::as_str`] (labels no move got are left out).
    pub labels: BTreeMap<String, usize>,
    /// How many left the mover's king capturable.
    pub king_left_capturable: usize,
    /// The sum of their drops: the mover's win chance they gave away, in percentage
    /// points.
    pub win_chance_lost: f64,
}

impl Tally {
    /// The tally of `moves`, summed in the order given (so the same moves in the same order
    /// give the same figures to the last bit).
    ///
    /// ```
    /// use fow_analysis::{MoveAnalysis, Tally};
    /// let m = |ply, before, after| {
    ///     MoveAnalysis::new(ply, true, "e2e4".into(), "e4".into(), before, after, "".into(), false)
    /// };
    /// let t = Tally::of([&m(1, 0.0, 0.0), &m(3, 0.0, -1000.0)]);
    /// assert_eq!(t.moves, 2);
    /// assert_eq!(t.labels["blunder"], 1);
    /// assert!(t.accuracy.unwrap() < 60.0 && t.win_chance_lost > 40.0);
    /// ```
    pub fn of<'a>(moves: impl IntoIterator<Item = &'a MoveAnalysis>) -> Tally {
        let mut t = Tally::default();
        let mut accuracy = 0.0;
        for m in moves {
            t.moves += 1;
            accuracy += m.accuracy;
            *t.labels.entry(m.label.as_str().to_string()).or_default() += 1;
            t.king_left_capturable += usize::from(m.king_left_capturable);
            t.win_chance_lost += m.drop;
        }
        t.accuracy = (t.moves > 0).then(|| accuracy / t.moves as f64);
        t
    }

    /// How many moves got `label`.
    pub fn count(&self, label: MoveLabel) -> usize {
        self.labels.get(label.as_str()).copied().unwrap_or(0)
    }
}

/// A tally of some moves, and the same moves tallied by group.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// All the moves.
    pub total: Tally,
    /// For each grouping of [`move_groups`] (`side`, ...), a tally per group (`white`,
    /// `black`, ...). A move outside every group of a grouping is in none of its tallies.
    pub by: BTreeMap<String, BTreeMap<String, Tally>>,
}

impl Summary {
    /// The summary of `moves`, in the order given.
    ///
    /// ```
    /// use fow_analysis::{MoveAnalysis, Summary};
    /// let m = |ply, white| {
    ///     MoveAnalysis::new(ply, white, "a".into(), "a".into(), 0.0, 0.0, "".into(), false)
    /// };
    /// let s = Summary::of(&[m(1, true), m(2, false), m(3, true)]);
    /// assert_eq!(s.total.moves, 3);
    /// assert_eq!(s.by["side"]["white"].moves, 2);
    /// ```
    pub fn of<'a>(moves: impl IntoIterator<Item = &'a MoveAnalysis>) -> Summary {
        let moves: Vec<&MoveAnalysis> = moves.into_iter().collect();
        let mut grouped: BTreeMap<&'static str, BTreeMap<String, Vec<&MoveAnalysis>>> =
            BTreeMap::new();
        for &m in &moves {
            for (grouping, group) in move_groups(m) {
                grouped
                    .entry(grouping)
                    .or_default()
                    .entry(group)
                    .or_default()
                    .push(m);
            }
        }
        Summary {
            total: Tally::of(moves.iter().copied()),
            by: grouped
                .into_iter()
                .map(|(grouping, groups)| {
                    let tallies = groups
                        .into_iter()
                        .map(|(g, ms)| (g, Tally::of(ms)))
                        .collect();
                    (grouping.to_string(), tallies)
                })
                .collect(),
        }
    }
}

/// The groups a move is counted in, as (grouping, group) pairs: the side that moved
/// (`side`: `white`, `black`) and, once the fields exist, its phase, the cause of an
/// error and its highlight. Every summary (a side of one game, a player over a run) and
/// the run report's tables follow this list; a grouping is one more line here.
pub fn move_groups(m: &MoveAnalysis) -> Vec<(&'static str, String)> {
    let groups = vec![
        ("side", m.mover.clone()),
        (
            "phase",
            m.phase.map_or(String::new(), |p| p.as_str().to_string()),
        ),
        ("cause", m.cause.as_str().to_string()),
        ("highlight", m.highlight.as_str().to_string()),
    ];
    // A move with no value for a grouping (an empty string: an analysis written before
    // phases, a move that is no mistake or blunder, or not brilliant or great) is
    // counted in none of its groups.
    groups
        .into_iter()
        .filter(|(_, group)| !group.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(ply: usize, before: f64, after: f64, hangs: bool) -> MoveAnalysis {
        MoveAnalysis::new(
            ply,
            ply % 2 == 1,
            "a".into(),
            "a".into(),
            before,
            after,
            "a".into(),
            hangs,
        )
    }

    /// The tally against figures worked out by hand with Lichess's formulas.
    #[test]
    fn a_tally_counts_and_averages() {
        let moves = [
            mv(1, 0.0, 0.0, false),        // best, accuracy 100
            mv(3, 0.0, -1000.0, false),    // White's chance 50 -> 2.45: a blunder
            mv(5, -1000.0, -1000.0, true), // no drop but hangs the king: good
        ];
        let t = Tally::of(&moves);
        assert_eq!(t.moves, 3);
        assert_eq!(t.count(MoveLabel::Best), 1);
        assert_eq!(t.count(MoveLabel::Blunder), 1);
        assert_eq!(t.count(MoveLabel::Good), 1);
        assert_eq!(t.count(MoveLabel::Mistake), 0);
        assert_eq!(t.king_left_capturable, 1);
        // win_chance(-1000) = 50 + 50 (2 / (1 + e^3.68208) - 1) = 2.457...
        let drop = 50.0 - (50.0 + 50.0 * (2.0 / (1.0 + 3.68208f64.exp()) - 1.0));
        assert!(
            (t.win_chance_lost - drop).abs() < 1e-9,
            "{}",
            t.win_chance_lost
        );
        // 103.1668 e^(-0.04354 drop) - 3.1669, averaged with two moves of accuracy 100.
        let blunder = 103.1668 * (-0.04354 * drop).exp() - 3.1669;
        let mean = (100.0 + blunder + 100.0) / 3.0;
        assert!(
            (t.accuracy.unwrap() - mean).abs() < 1e-3,
            "{:?}",
            t.accuracy
        );
        assert_eq!(Tally::of([]).accuracy, None);
    }

    #[test]
    fn a_summary_groups_by_side() {
        let moves = [
            mv(1, 0.0, 0.0, false),
            mv(2, 0.0, 0.0, false),
            mv(3, 0.0, -1000.0, false),
        ];
        let s = Summary::of(&moves);
        assert_eq!(s.total, Tally::of(&moves));
        let side = &s.by["side"];
        assert_eq!(side.keys().collect::<Vec<_>>(), ["black", "white"]);
        assert_eq!(side["white"], Tally::of([&moves[0], &moves[2]]));
        assert_eq!(side["black"], Tally::of([&moves[1]]));
        // Every move has a side: the sides' tallies add up to the total.
        assert_eq!(side.values().map(|t| t.moves).sum::<usize>(), s.total.moves);
    }
}
