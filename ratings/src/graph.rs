//! The comparison graph of a tournament: who met whom, and who scored against whom.
//!
//! These decide whether maximum-likelihood ratings exist: every player must be linked to
//! the anchor by games, and (without a prior) the "scored at least a half point against"
//! relation must be strongly connected (Zermelo 1929; Ford 1957).

use crate::results::{Pair, ResultMatrix};

/// The players that can be rated together: the largest group in which every player is
/// linked to every other by a chain of "scored at least a draw against" in both directions
/// (a strongly connected component of that relation, draws counting both ways). Only
/// within such a group does the likelihood of the Elo models have a finite maximum without
/// a prior; a player outside it won or lost every game against the group (its rating would
/// be infinite) or never met it (undetermined). Returns one flag per player.
///
/// With two groups of the largest size, the one holding `prefer` (when given) is kept, else
/// the one with the lowest-numbered player. A lone player is not a group: when no two
/// players are linked, nobody is.
///
/// ```
/// use fow_ratings::{linked_players, ResultMatrix, Wdl};
/// let mut m = ResultMatrix::new(vec!["A".into(), "B".into(), "C".into(), "D".into()]);
/// m.add_results(0, 1, Wdl::new(3, 0, 2))?; // A and B scored against each other,
/// m.add_results(1, 2, Wdl::new(1, 1, 0))?; // B and C too (a draw counts both ways);
/// m.add_results(0, 3, Wdl::new(2, 0, 0))?; // D lost every game it played.
/// assert_eq!(linked_players(&m, None), vec![true, true, true, false]);
/// # Ok::<(), fow_ratings::MatrixError>(())
/// ```
pub fn linked_players(matrix: &ResultMatrix, prefer: Option<usize>) -> Vec<bool> {
    let n = matrix.len();
    largest_group(&scoring_components(n, &matrix.pairs()), prefer)
}

/// The players that BayesElo's model with its prior of virtual draws can rate together: the
/// largest group linked by a chain of games (whatever their results: the prior's virtual
/// draws keep every rating finite). A player outside it never met the group, so its rating
/// is undetermined. Ties and lone players as in [`linked_players`].
///
/// ```
/// use fow_ratings::{connected_players, linked_players, ResultMatrix, Wdl};
/// let mut m = ResultMatrix::new(vec!["A".into(), "B".into(), "C".into(), "D".into()]);
/// m.add_results(0, 1, Wdl::new(3, 0, 2))?;
/// m.add_results(0, 2, Wdl::new(2, 0, 0))?; // C lost every game it played; D played none.
/// assert_eq!(connected_players(&m, None), vec![true, true, true, false]);
/// assert_eq!(linked_players(&m, None), vec![true, true, false, false]);
/// # Ok::<(), fow_ratings::MatrixError>(())
/// ```
pub fn connected_players(matrix: &ResultMatrix, prefer: Option<usize>) -> Vec<bool> {
    let n = matrix.len();
    let pairs = matrix.pairs();
    let mut component = vec![usize::MAX; n];
    for start in 0..n {
        if component[start] == usize::MAX {
            for (c, reached) in component
                .iter_mut()
                .zip(reachable_by_games(n, &pairs, start))
            {
                if reached {
                    *c = start;
                }
            }
        }
    }
    largest_group(&component, prefer)
}

/// The players of the largest group (`component[i]`: the group of player `i`, numbered
/// below the player count): the one holding `prefer` when it is among the largest, else
/// the first largest; nobody when no group has two players.
fn largest_group(component: &[usize], prefer: Option<usize>) -> Vec<bool> {
    let n = component.len();
    let mut sizes = vec![0usize; n];
    for &c in component {
        sizes[c] += 1;
    }
    let largest = sizes.iter().copied().max().unwrap_or(0);
    if largest < 2 {
        return vec![false; n];
    }
    let kept = prefer
        .filter(|&p| p < n && sizes[component[p]] == largest)
        .or_else(|| (0..n).find(|&i| sizes[component[i]] == largest))
        .map(|i| component[i]);
    component.iter().map(|&c| Some(c) == kept).collect()
}

/// Which players are linked to `start` by a chain of games (`true`) — the undirected
/// connected component of `start`.
pub(crate) fn reachable_by_games(players: usize, pairs: &[Pair], start: usize) -> Vec<bool> {
    let mut neighbours = vec![Vec::new(); players];
    for pair in pairs {
        neighbours[pair.i].push(pair.j);
        neighbours[pair.j].push(pair.i);
    }
    let mut seen = vec![false; players];
    let mut stack = vec![start];
    seen[start] = true;
    while let Some(u) = stack.pop() {
        for &v in &neighbours[u] {
            if !seen[v] {
                seen[v] = true;
                stack.push(v);
            }
        }
    }
    seen
}

/// Strongly connected components of the directed graph with an edge `i → j` whenever `i`
/// scored some points against `j`. Returns a component id per player (ids are arbitrary).
pub(crate) fn scoring_components(players: usize, pairs: &[Pair]) -> Vec<usize> {
    let mut edges = vec![Vec::new(); players];
    for pair in pairs {
        if pair.points_i > 0.0 {
            edges[pair.i].push(pair.j);
        }
        if pair.points_i < pair.games {
            edges[pair.j].push(pair.i);
        }
    }
    strongly_connected_components(&edges)
}

/// Kosaraju's algorithm with explicit stacks; `edges[u]` lists the successors of `u`.
fn strongly_connected_components(edges: &[Vec<usize>]) -> Vec<usize> {
    let n = edges.len();
    let mut reversed = vec![Vec::new(); n];
    for (u, successors) in edges.iter().enumerate() {
        for &v in successors {
            reversed[v].push(u);
        }
    }
    // First pass: vertices in order of DFS completion.
    let mut visited = vec![false; n];
    let mut finished = Vec::with_capacity(n);
    for start in 0..n {
        if visited[start] {
            continue;
        }
        visited[start] = true;
        let mut stack = vec![(start, 0)];
        while let Some(top) = stack.last_mut() {
            let (u, next) = *top;
            if let Some(&v) = edges[u].get(next) {
                top.1 += 1;
                if !visited[v] {
                    visited[v] = true;
                    stack.push((v, 0));
                }
            } else {
                finished.push(u);
                stack.pop();
            }
        }
    }
    // Second pass on the reversed graph, latest-finished first.
    let mut component = vec![usize::MAX; n];
    let mut count = 0;
    for &start in finished.iter().rev() {
        if component[start] != usize::MAX {
            continue;
        }
        component[start] = count;
        let mut stack = vec![start];
        while let Some(u) = stack.pop() {
            for &v in &reversed[u] {
                if component[v] == usize::MAX {
                    component[v] = count;
                    stack.push(v);
                }
            }
        }
        count += 1;
    }
    component
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(i: usize, j: usize, games: f64, points_i: f64) -> Pair {
        Pair {
            i,
            j,
            games,
            points_i,
        }
    }

    fn same(components: &[usize], a: usize, b: usize) -> bool {
        components[a] == components[b]
    }

    #[test]
    fn connectivity_follows_games() {
        let pairs = [pair(0, 1, 2.0, 1.0), pair(2, 3, 1.0, 0.0)];
        assert_eq!(
            reachable_by_games(5, &pairs, 1),
            vec![true, true, false, false, false]
        );
        assert_eq!(
            reachable_by_games(5, &pairs, 4),
            vec![false, false, false, false, true]
        );
    }

    #[test]
    fn components_split_on_one_sided_results() {
        // 0 beat 1 and 2 every time; 1 and 2 scored against each other; 3 drew with 2.
        let pairs = [
            pair(0, 1, 5.0, 5.0),
            pair(0, 2, 5.0, 5.0),
            pair(1, 2, 4.0, 1.0),
            pair(2, 3, 2.0, 1.0),
        ];
        let c = scoring_components(4, &pairs);
        assert!(same(&c, 1, 2) && same(&c, 2, 3));
        assert!(!same(&c, 0, 1));
        // One loss of 0 against 2 closes the cycle.
        let mut closed = pairs;
        closed[1].points_i = 4.5;
        let c = scoring_components(4, &closed);
        assert!((1..4).all(|k| same(&c, 0, k)));
    }

    #[test]
    fn linked_players_keep_the_largest_group() {
        use crate::score::Wdl;
        let names = |n: usize| (1..=n).map(|k| format!("P{k}")).collect::<Vec<_>>();
        // Two pairs that scored against each other; the first pair beat the second.
        let mut m = ResultMatrix::new(names(4));
        m.add_results(0, 1, Wdl::new(1, 0, 1)).unwrap();
        m.add_results(2, 3, Wdl::new(0, 1, 0)).unwrap();
        m.add_results(0, 2, Wdl::new(2, 0, 0)).unwrap();
        assert_eq!(linked_players(&m, None), vec![true, true, false, false]);
        assert_eq!(linked_players(&m, Some(3)), vec![false, false, true, true]);
        assert_eq!(linked_players(&m, Some(9)), vec![true, true, false, false]);
        // A draw between the groups links them all.
        m.add_results(3, 0, Wdl::new(0, 1, 0)).unwrap();
        assert_eq!(linked_players(&m, None), vec![true; 4]);
        // One-sided results only, or no games: nobody can be rated.
        let mut m = ResultMatrix::new(names(2));
        assert_eq!(linked_players(&m, None), vec![false, false]);
        m.add_results(0, 1, Wdl::new(5, 0, 0)).unwrap();
        assert_eq!(linked_players(&m, None), vec![false, false]);
        assert!(linked_players(&ResultMatrix::new(Vec::new()), None).is_empty());
    }

    #[test]
    fn kosaraju_on_a_chain_of_cycles() {
        // 0 ⇄ 1 → 2 ⇄ 3 → 4
        let edges = vec![vec![1], vec![0, 2], vec![3], vec![2, 4], vec![]];
        let c = strongly_connected_components(&edges);
        assert!(same(&c, 0, 1) && same(&c, 2, 3));
        assert!(!same(&c, 1, 2) && !same(&c, 3, 4) && !same(&c, 0, 4));
    }
}
