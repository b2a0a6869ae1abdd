//! [`SampleSearch`]: MyStockfish on a seeded sample of the boards believed possible, each
//! legal move's value on each board, shared by the belief-set bots (PossibleBoardList,
//! BeliefSearch).

use std::time::Instant;

use fow_variants::{Color, Move, Position};

use crate::belief::sampling::sample_indices;
use crate::rng::BotRng;
use crate::search::{Eval, Limits, MyStockfish, Score, SearchBoard};

/// A search of a seeded sample of belief boards with MyStockfish's `all`, shared by the
/// belief-set bots: each legal move's value on each board searched, from our side.
pub(crate) struct SampleSearch<'a> {
    /// The boards believed possible.
    pub boards: &'a [Position],
    /// The most boards searched (a seeded random sample of a larger set).
    pub sample: usize,
    /// MyStockfish's depth on each board.
    pub depth: i32,
    /// The move's limits: nodes over all boards (the first board is searched to the end
    /// whatever the nodes) and a deadline (when it stops the first board, that board is
    /// searched at depth 1 instead).
    pub limits: Limits,
    /// Our side.
    pub color: Color,
    /// The static evaluation at the leaves.
    pub eval: Eval,
    /// How likely each board is (one per board): when given, the sample is a priority
    /// sample by these weights, searched most likely first, and each board searched
    /// comes with the weight it stands for ([`sample_indices`]); without, a uniform
    /// sample, each board weighing 1.
    pub weights: Option<&'a [f64]>,
    /// Whether a complete pass over the sample is followed by deeper ones while the node
    /// budget or the deadline allows (iterative deepening over the boards searched).
    pub deepen: bool,
}

/// One pass over the sample at one depth: each board's weight and move values, and
/// whether every board of the sample was searched.
struct Pass {
    boards: Vec<(f64, Vec<(Move, Score)>)>,
    complete: bool,
}

/// The most plies `deepen` adds to the depth asked for.
const MAX_EXTRA_DEPTH: i32 = 6;

impl SampleSearch<'_> {
    /// Searches the sample (drawn with `rng`) in turn until the boards or the node
    /// budget run out or the deadline passes, calling `each(j, value, weight)` for legal
    /// move `moves[j]` on every board searched to the end, `weight` the board's. With
    /// `deepen` and a limit, a pass that searched every board is followed by another one
    /// ply deeper over the same boards while the limits allow, and the values of the
    /// deepest complete pass are the ones reported (those of the first pass when even it
    /// did not finish). Returns the boards searched, their total weight and the nodes
    /// spent; leaves `engine` without limits.
    pub fn run(
        &self,
        engine: &mut MyStockfish,
        rng: &mut BotRng,
        moves: &[Move],
        mut each: impl FnMut(usize, Score, f64),
    ) -> (u32, f64, u64) {
        let white = self.color.is_white();
        let order = sample_indices(self.boards.len(), self.weights, self.sample, rng);
        let limited = self.limits.nodes.is_some() || self.limits.deadline.is_some();
        let mut spent = 0u64;
        let mut kept = self.pass(engine, &order, self.depth, true, &mut spent);
        let mut depth = self.depth;
        while self.deepen
            && limited
            && kept.complete
            && depth < self.depth + MAX_EXTRA_DEPTH
            && !self.exhausted(spent)
        {
            depth += 1;
            let deeper = self.pass(engine, &order, depth, false, &mut spent);
            if !deeper.complete {
                break;
            }
            kept = deeper;
        }
        let mut total = 0.0;
        for (weight, all) in &kept.boards {
            total += weight;
            for &(m, v) in all {
                let ours = if white { v } else { -v };
                if let Some(j) = moves
                    .iter()
                    .position(|x| x.from == m.from && x.to == m.to && x.promotion == m.promotion)
                {
                    each(j, ours, *weight);
                }
            }
        }
        engine.set_limits(Limits::default());
        (kept.boards.len() as u32, total, spent)
    }

    /// Whether the node budget or the deadline is used up after `spent` nodes.
    fn exhausted(&self, spent: u64) -> bool {
        self.limits.nodes.is_some_and(|n| spent >= n)
            || self.limits.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The boards of `order` searched at `depth` in turn until they or the limits run
    /// out, `spent` counting the nodes. In the `first` pass the first board is not held
    /// to the node budget, only to the deadline, and when the deadline stops it, it is
    /// searched at depth 1 without limits, so that every move has a value.
    fn pass(
        &self,
        engine: &mut MyStockfish,
        order: &[(usize, f64)],
        depth: i32,
        first: bool,
        spent: &mut u64,
    ) -> Pass {
        let mut boards = Vec::with_capacity(order.len());
        for (k, &(i, weight)) in order.iter().enumerate() {
            let board = SearchBoard::from_position(&self.boards[i]).with_eval(self.eval);
            engine.reset_nodes();
            engine.set_limits(Limits {
                nodes: if first && k == 0 {
                    None
                } else {
                    self.limits.nodes.map(|n| n.saturating_sub(*spent))
                },
                deadline: self.limits.deadline,
            });
            let mut all = engine.all(&board, depth);
            *spent += engine.nodes();
            if all.is_none() && first && k == 0 {
                // The deadline passed before even one board was searched (updating the
                // belief may use up a short time limit): a depth-1 search of that board,
                // without limits, so that every move still has a value.
                engine.set_limits(Limits::default());
                engine.reset_nodes();
                all = engine.all(&board, 1);
                *spent += engine.nodes();
            }
            let Some(all) = all else { break };
            boards.push((weight, all));
            // The engine looks at the clock only every 1,024 nodes of one search, which a
            // shallow search of one board may never reach: look between boards too.
            if boards.len() < order.len() && self.exhausted(*spent) {
                break;
            }
        }
        Pass {
            complete: boards.len() == order.len(),
            boards,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::RuleSet;
    use rand::SeedableRng;

    fn boards() -> Vec<Position> {
        let rules = RuleSet::thesis();
        ["e2e4", "d2d4", "g1f3", "c2c4", "b1c3"]
            .iter()
            .map(|uci| {
                let mut pos = Position::startpos();
                let m = pos.parse_uci(uci, &rules).unwrap();
                pos.play(&m);
                pos
            })
            .collect()
    }

    /// The boards searched under `limits` and the weight each came with, in order.
    fn searched_with(limits: Limits, weights: Option<&[f64]>) -> (u32, Vec<f64>) {
        let boards = boards();
        let moves = boards[0].legal_moves(&RuleSet::thesis());
        let search = SampleSearch {
            boards: &boards,
            sample: 100,
            depth: 2,
            limits,
            color: Color::Black,
            eval: Eval::Thesis,
            weights,
            deepen: false,
        };
        let mut engine = MyStockfish::new(RuleSet::thesis(), 1);
        let mut rng = BotRng::seed_from_u64(1);
        let mut scored = vec![false; moves.len()];
        let mut seen = Vec::new();
        let (n, _, _) = search.run(&mut engine, &mut rng, &moves, |j, _, w| {
            scored[j] = true;
            if seen.last() != Some(&w) {
                seen.push(w);
            }
        });
        assert!(scored.iter().all(|&s| s), "every move has a value");
        (n, seen)
    }

    fn searched(limits: Limits) -> u32 {
        searched_with(limits, None).0
    }

    #[test]
    fn weighted_boards_are_searched_most_likely_first_with_their_weights() {
        let weights = [1e-9, 1e-6, 1.0, 1e-3, 1e-12];
        let (n, seen) = searched_with(Limits::default(), Some(&weights));
        // All five fit in the sample: all searched, each with its own weight, the most
        // likely first (a key w / u puts 1 below 1e-3 only when u < 0.001).
        assert_eq!(n, 5);
        assert_eq!(seen[0], 1.0);
        let mut sorted = seen.clone();
        sorted.sort_by(f64::total_cmp);
        let mut expected = weights.to_vec();
        expected.sort_by(f64::total_cmp);
        assert_eq!(sorted, expected);
        // One node: the most likely board only.
        let one = Limits {
            nodes: Some(1),
            deadline: None,
        };
        assert_eq!(searched_with(one, Some(&weights)), (1, vec![1.0]));
    }

    #[test]
    fn limits_stop_between_boards_and_the_first_board_is_always_searched() {
        assert_eq!(searched(Limits::default()), 5);
        // A deadline already past: the first board only (at depth 1), although each
        // board's search is too small for the engine's own clock check.
        let past = Limits {
            nodes: None,
            deadline: Some(Instant::now()),
        };
        assert_eq!(searched(past), 1);
        // One node: the first board in full, then the budget is spent.
        let one = Limits {
            nodes: Some(1),
            deadline: None,
        };
        assert_eq!(searched(one), 1);
    }

    #[test]
    fn deepening_reports_the_deepest_pass_that_searched_every_board() {
        let rules = RuleSet::thesis();
        let boards = boards();
        let one = &boards[..1];
        let moves = one[0].legal_moves(&rules);
        let board = SearchBoard::from_position(&one[0]);
        // What each depth costs and finds, searched alone.
        let at = |depth: i32| {
            let mut e = MyStockfish::new(rules, 1);
            let all = e.all(&board, depth).unwrap();
            (all, e.nodes())
        };
        let (d1, n1) = at(1);
        let (d2, n2) = at(2);
        let (d3, n3) = at(3);
        assert_ne!(d2, d3);
        let values = |deepen: bool, nodes: Option<u64>| {
            let search = SampleSearch {
                boards: one,
                sample: 1,
                depth: 1,
                limits: Limits {
                    nodes,
                    deadline: None,
                },
                color: Color::Black,
                eval: Eval::Thesis,
                weights: None,
                deepen,
            };
            let mut engine = MyStockfish::new(rules, 1);
            let mut rng = BotRng::seed_from_u64(1);
            let mut out = vec![None; moves.len()];
            let (n, _, spent) = search.run(&mut engine, &mut rng, &moves, |j, v, _| {
                out[j] = Some(v);
            });
            assert_eq!(n, 1);
            (out, spent)
        };
        // Black's values: the engine's (plus for White) negated.
        let ours = |all: &[(Move, Score)]| -> Vec<Option<Score>> {
            moves
                .iter()
                .map(|m| all.iter().find(|(x, _)| x == m).map(|&(_, v)| -v))
                .collect()
        };
        // Room for depths 1 and 2 and half of 3: depth 2's values, with deepening only.
        let budget = Some(n1 + n2 + n3 / 2);
        assert_eq!(values(true, budget).0, ours(&d2));
        assert_eq!(values(false, budget).0, ours(&d1));
        // Room for all three: depth 3's.
        assert_eq!(values(true, Some(n1 + n2 + n3 + 1)).0, ours(&d3));
        // Without any limit there is nothing to deepen into.
        let (free, spent) = values(true, None);
        assert_eq!(free, ours(&d1));
        assert_eq!(spent, n1);
    }
}
