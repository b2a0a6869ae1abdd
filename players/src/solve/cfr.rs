//! Counterfactual regret minimization for a [`GameTree`] ([`Cfr`]): predictive CFR+
//! (PCFR+, Farina, Kroer and Sandholm, "Faster game solving via predictive Blackwell
//! approachability", AAAI 2021): regret matching+ on the cumulated regrets plus the last
//! iteration's regrets as a prediction, alternating updates, and the average strategy
//! weighted by the square of the iteration. Its average strategies converge to a Nash
//! equilibrium of the two-player zero-sum game; [`Cfr::exploitability`] measures how far
//! they are from one (a best response of each player against the other's).

use crate::solve::tree::{GameTree, Node};

/// A strategy profile: for each information set, a distribution over its actions.
pub type Profile = Vec<Vec<f64>>;

/// The solver's state on one game.
pub struct Cfr<'a> {
    tree: &'a GameTree,
    /// Cumulated regrets, kept non-negative (CFR+).
    regrets: Profile,
    /// The last iteration's instantaneous regrets: the prediction of the next.
    predicted: Profile,
    /// The weighted sum of the strategies played, by their owner's reach.
    sums: Profile,
    /// Iterations done (each updates both players, one after the other).
    iterations: u64,
}

impl<'a> Cfr<'a> {
    /// A solver at its start (every strategy uniform).
    pub fn new(tree: &'a GameTree) -> Cfr<'a> {
        let zeros = || -> Profile { tree.infosets.iter().map(|s| vec![0.0; s.actions]).collect() };
        Cfr {
            tree,
            regrets: zeros(),
            predicted: zeros(),
            sums: zeros(),
            iterations: 0,
        }
    }

    /// Iterations done.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// Runs `n` more iterations.
    pub fn run(&mut self, n: u64) {
        for _ in 0..n {
            self.iterations += 1;
            let weight = (self.iterations as f64).powi(2);
            for player in 0..2 {
                let current = self.current();
                let mut instant: Profile =
                    self.regrets.iter().map(|r| vec![0.0; r.len()]).collect();
                walk(
                    &self.tree.root,
                    player,
                    1.0,
                    1.0,
                    &current,
                    &mut instant,
                    &mut self.sums,
                    weight,
                );
                for (i, set) in self.tree.infosets.iter().enumerate() {
                    if set.player != player {
                        continue;
                    }
                    for (r, x) in self.regrets[i].iter_mut().zip(&instant[i]) {
                        *r = (*r + x).max(0.0);
                    }
                    self.predicted[i].clone_from(&instant[i]);
                }
            }
        }
    }

    /// The strategy of the next iteration: regret matching+ on the cumulated regrets plus
    /// the prediction.
    fn current(&self) -> Profile {
        self.regrets
            .iter()
            .zip(&self.predicted)
            .map(|(r, m)| normalized(r.iter().zip(m).map(|(r, m)| (r + m).max(0.0)).collect()))
            .collect()
    }

    /// The average strategy profile (uniform at a set never reached).
    pub fn average(&self) -> Profile {
        self.sums.iter().map(|s| normalized(s.clone())).collect()
    }

    /// The value for player 0 when both play `profile`.
    pub fn value(&self, profile: &Profile) -> f64 {
        expected(&self.tree.root, profile, &[None, None])
    }

    /// How much each player could gain on average by deviating from `profile` to a best
    /// response: `(BR0 + BR1) / 2`, where BR_p is player p's best-response value against
    /// the other's strategy (0 exactly at a Nash equilibrium).
    pub fn exploitability(&self, profile: &Profile) -> f64 {
        let br0 = best_response_value(self.tree, 0, profile);
        let br1 = best_response_value(self.tree, 1, profile);
        (br0 + br1) / 2.0
    }
}

/// `v` scaled to sum to 1, or uniform when it sums to nothing.
fn normalized(mut v: Vec<f64>) -> Vec<f64> {
    let total: f64 = v.iter().sum();
    if total > 0.0 {
        v.iter_mut().for_each(|x| *x /= total);
    } else {
        let u = 1.0 / v.len() as f64;
        v.iter_mut().for_each(|x| *x = u);
    }
    v
}

/// One traversal for `player`: its value at `node` under `current`, adding its
/// counterfactual regrets (weighted by the others' and chance's reach `theirs`) to
/// `instant` and its strategy (weighted by its own reach `ours` and `weight`) to `sums`.
#[allow(clippy::too_many_arguments)]
fn walk(
    node: &Node,
    player: usize,
    ours: f64,
    theirs: f64,
    current: &Profile,
    instant: &mut Profile,
    sums: &mut Profile,
    weight: f64,
) -> f64 {
    match node {
        Node::Leaf(v) => {
            if player == 0 {
                *v
            } else {
                -v
            }
        }
        Node::Chance(children) => children
            .iter()
            .map(|(p, c)| p * walk(c, player, ours, theirs * p, current, instant, sums, weight))
            .sum(),
        Node::Decision {
            player: p,
            infoset,
            children,
        } => {
            let sigma = &current[*infoset];
            if *p == player {
                let values: Vec<f64> = children
                    .iter()
                    .zip(sigma)
                    .map(|(c, s)| walk(c, player, ours * s, theirs, current, instant, sums, weight))
                    .collect();
                let v: f64 = values.iter().zip(sigma).map(|(u, s)| u * s).sum();
                for (a, u) in values.iter().enumerate() {
                    instant[*infoset][a] += theirs * (u - v);
                    sums[*infoset][a] += weight * ours * sigma[a];
                }
                v
            } else {
                children
                    .iter()
                    .zip(sigma)
                    .filter(|(_, s)| **s > 0.0)
                    .map(|(c, s)| {
                        s * walk(c, player, ours, theirs * s, current, instant, sums, weight)
                    })
                    .sum()
            }
        }
    }
}

/// The value for player 0 at `node` when both play `profile`, except that a player with
/// fixed choices (`fixed[p]`: an action per information set, where decided) plays them.
fn expected(node: &Node, profile: &Profile, fixed: &[Option<&[Option<usize>]>; 2]) -> f64 {
    match node {
        Node::Leaf(v) => *v,
        Node::Chance(children) => children
            .iter()
            .map(|(p, c)| p * expected(c, profile, fixed))
            .sum(),
        Node::Decision {
            player,
            infoset,
            children,
        } => match fixed[*player].and_then(|f| f[*infoset]) {
            Some(a) => expected(&children[a], profile, fixed),
            None => children
                .iter()
                .zip(&profile[*infoset])
                .filter(|(_, s)| **s > 0.0)
                .map(|(c, s)| s * expected(c, profile, fixed))
                .sum(),
        },
    }
}

/// Player `p`'s best-response value (for `p`) against the other player's strategy in
/// `profile`: each of `p`'s information sets, deepest first (perfect recall orders
/// them by `p`'s own decisions above), takes the action of highest counterfactual value
/// given the choices already made below it.
fn best_response_value(tree: &GameTree, p: usize, profile: &Profile) -> f64 {
    // Every node of p's sets with its depth in p's decisions and the reach of the others.
    let mut nodes: Vec<(usize, usize, f64, &Node)> = Vec::new();
    collect(&tree.root, p, 0, 1.0, profile, &mut nodes);
    let mut order: Vec<(usize, usize)> = nodes.iter().map(|&(i, d, _, _)| (d, i)).collect();
    order.sort_unstable_by(|a, b| b.cmp(a));
    order.dedup();
    let mut choice: Vec<Option<usize>> = vec![None; tree.infosets.len()];
    let sign = if p == 0 { 1.0 } else { -1.0 };
    for (_, set) in order {
        let mut values = vec![0.0; tree.infosets[set].actions];
        for &(i, _, reach, node) in &nodes {
            if i != set {
                continue;
            }
            let Node::Decision { children, .. } = node else {
                continue;
            };
            for (a, c) in children.iter().enumerate() {
                let mut fixed: [Option<&[Option<usize>]>; 2] = [None, None];
                fixed[p] = Some(&choice);
                values[a] += reach * sign * expected(c, profile, &fixed);
            }
        }
        let best = (0..values.len())
            .max_by(|&a, &b| values[a].total_cmp(&values[b]).then(b.cmp(&a)))
            .unwrap_or(0);
        choice[set] = Some(best);
    }
    let mut fixed: [Option<&[Option<usize>]>; 2] = [None, None];
    fixed[p] = Some(&choice);
    sign * expected(&tree.root, profile, &fixed)
}

/// Gathers the nodes of `p`'s information sets: (set, depth in p's decisions, the reach
/// of chance and the other player, the node).
fn collect<'t>(
    node: &'t Node,
    p: usize,
    depth: usize,
    reach: f64,
    profile: &Profile,
    out: &mut Vec<(usize, usize, f64, &'t Node)>,
) {
    match node {
        Node::Leaf(_) => {}
        Node::Chance(children) => {
            for (q, c) in children {
                collect(c, p, depth, reach * q, profile, out);
            }
        }
        Node::Decision {
            player,
            infoset,
            children,
        } => {
            if *player == p {
                out.push((*infoset, depth, reach, node));
                for c in children {
                    collect(c, p, depth + 1, reach, profile, out);
                }
            } else {
                for (c, s) in children.iter().zip(&profile[*infoset]) {
                    collect(c, p, depth, reach * s, profile, out);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::tree::Node::{Chance, Decision, Leaf};

    fn decide(player: usize, infoset: usize, children: Vec<Node>) -> Node {
        Decision {
            player,
            infoset,
            children,
        }
    }

    /// A matrix game: player 0 picks a row, player 1 a column without seeing it.
    fn matrix(rows: &[&[f64]]) -> GameTree {
        let root = decide(
            0,
            0,
            rows.iter()
                .map(|r| decide(1, 1, r.iter().map(|&v| Leaf(v)).collect()))
                .collect(),
        );
        GameTree::new(root).unwrap()
    }

    /// Kuhn poker (Kuhn 1950): three cards, one each, antes of 1, one bet of 1. Its value
    /// for the first player is −1/18.
    fn kuhn() -> GameTree {
        let mut deals = Vec::new();
        for a in 0..3usize {
            for b in 0..3usize {
                if a == b {
                    continue;
                }
                let show = |stake: f64| Leaf(if a > b { stake } else { -stake });
                // Sets: 0-2 P0 first, 3-5 P0 after check-bet, 6-8 P1 after check, 9-11 P1
                // after bet.
                let after_check = decide(
                    1,
                    6 + b,
                    vec![show(1.0), decide(0, 3 + a, vec![Leaf(-1.0), show(2.0)])],
                );
                let after_bet = decide(1, 9 + b, vec![Leaf(1.0), show(2.0)]);
                deals.push((1.0 / 6.0, decide(0, a, vec![after_check, after_bet])));
            }
        }
        GameTree::new(Chance(deals)).unwrap()
    }

    #[test]
    fn matching_pennies_and_rock_paper_scissors_are_solved_uniformly() {
        let pennies = matrix(&[&[1.0, -1.0], &[-1.0, 1.0]]);
        let mut cfr = Cfr::new(&pennies);
        cfr.run(2000);
        let avg = cfr.average();
        assert!((avg[0][0] - 0.5).abs() < 1e-3, "{avg:?}");
        assert!(cfr.exploitability(&avg) < 1e-3);
        let rps = matrix(&[&[0.0, -1.0, 1.0], &[1.0, 0.0, -1.0], &[-1.0, 1.0, 0.0]]);
        let mut cfr = Cfr::new(&rps);
        cfr.run(2000);
        let avg = cfr.average();
        for x in &avg[0] {
            assert!((x - 1.0 / 3.0).abs() < 1e-3, "{avg:?}");
        }
    }

    #[test]
    fn a_matrix_game_reaches_its_known_mixed_equilibrium() {
        // Rows [3, -1] and [-2, 1]: player 0 mixes p on row 0 with 3p - 2(1-p) =
        // -p + (1-p), p = 3/7; the value is 3·3/7 − 2·4/7 = 1/7.
        let g = matrix(&[&[3.0, -1.0], &[-2.0, 1.0]]);
        let mut cfr = Cfr::new(&g);
        cfr.run(5000);
        let avg = cfr.average();
        assert!((avg[0][0] - 3.0 / 7.0).abs() < 2e-3, "{avg:?}");
        assert!((cfr.value(&avg) - 1.0 / 7.0).abs() < 2e-3);
    }

    #[test]
    fn kuhn_poker_converges_to_its_value_of_minus_one_eighteenth() {
        let g = kuhn();
        let mut cfr = Cfr::new(&g);
        let uniform = cfr.average();
        let start = cfr.exploitability(&uniform);
        cfr.run(2000);
        let avg = cfr.average();
        let gap = cfr.exploitability(&avg);
        assert!(gap < 2e-3, "exploitability {gap} (uniform: {start})");
        assert!(start > 0.1, "{start}");
        assert!(
            (cfr.value(&avg) + 1.0 / 18.0).abs() < 5e-3,
            "{}",
            cfr.value(&avg)
        );
        // Player 0 with the king bets (or checks to trap) but never folds to a bet; with
        // the jack it never calls a bet.
        assert!(avg[3 + 2][1] > 0.99, "calls with the king: {:?}", avg[5]);
        assert!(avg[3][0] > 0.99, "folds the jack: {:?}", avg[3]);
        // Player 1 with the king always calls a bet; with the jack never.
        assert!(
            avg[9 + 2][1] > 0.99 && avg[9][0] > 0.99,
            "{:?} {:?}",
            avg[11],
            avg[9]
        );
    }

    #[test]
    fn a_best_response_exploits_a_fixed_strategy_fully() {
        // Player 1 always plays column 0 in matching pennies: player 0's best response
        // wins 1, so the profile is exploitable by (1 + 0) / 2 with player 0 at 50/50.
        let pennies = matrix(&[&[1.0, -1.0], &[-1.0, 1.0]]);
        let cfr = Cfr::new(&pennies);
        let profile = vec![vec![0.5, 0.5], vec![1.0, 0.0]];
        assert!((cfr.exploitability(&profile) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn malformed_trees_are_refused() {
        let bad = decide(0, 0, vec![decide(0, 0, vec![Leaf(1.0)]), Leaf(0.0)]);
        assert!(GameTree::new(bad).is_err());
        assert!(GameTree::new(Chance(vec![(0.5, Leaf(0.0))])).is_err());
        assert!(GameTree::new(decide(2, 0, vec![Leaf(0.0)])).is_err());
    }
}
