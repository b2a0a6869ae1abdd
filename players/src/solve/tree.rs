//! A finite two-player zero-sum game in extensive form ([`GameTree`]): chance nodes,
//! decisions grouped into information sets, and leaves valued for player 0. It is what
//! a subgame solver builds around the boards a bot believes possible, and what
//! [`crate::solve::Cfr`] solves.

/// A node of the game.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// Chance picks a child with the given probabilities (summing to 1).
    Chance(Vec<(f64, Node)>),
    /// A player (0 or 1) picks one of the children, not knowing which node of its
    /// information set it is at: every node of one information set has the same number
    /// of children, action `a` being child `a` at each.
    Decision {
        /// The player to act, 0 or 1.
        player: usize,
        /// Its information set, an index into [`GameTree::infosets`].
        infoset: usize,
        /// One child per action.
        children: Vec<Node>,
    },
    /// The end: the value for player 0 (player 1 gets its negation).
    Leaf(f64),
}

/// One information set: whose it is and how many actions it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Infoset {
    /// The player to act, 0 or 1.
    pub player: usize,
    /// Its number of actions.
    pub actions: usize,
}

/// A game: its root and its information sets.
#[derive(Clone, Debug, PartialEq)]
pub struct GameTree {
    /// The root.
    pub root: Node,
    /// The information sets, by index.
    pub infosets: Vec<Infoset>,
}

impl GameTree {
    /// The game of `root`, its information sets read from its decisions; an error when
    /// one set's nodes disagree on their player or number of actions, a decision has no
    /// action, or a chance node's probabilities are not a distribution.
    pub fn new(root: Node) -> Result<GameTree, String> {
        let mut infosets: Vec<Option<Infoset>> = Vec::new();
        check(&root, &mut infosets)?;
        let infosets = infosets
            .into_iter()
            .enumerate()
            .map(|(i, s)| s.ok_or_else(|| format!("information set {i} has no node")))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(GameTree { root, infosets })
    }
}

fn check(node: &Node, sets: &mut Vec<Option<Infoset>>) -> Result<(), String> {
    match node {
        Node::Leaf(v) if !v.is_finite() => Err(format!("a leaf's value {v} is not finite")),
        Node::Leaf(_) => Ok(()),
        Node::Chance(children) => {
            let total: f64 = children.iter().map(|(p, _)| p).sum();
            if children.is_empty()
                || children.iter().any(|(p, _)| !p.is_finite() || *p < 0.0)
                || (total - 1.0).abs() > 1e-9
            {
                return Err(format!(
                    "a chance node's probabilities sum to {total}, not 1"
                ));
            }
            children.iter().try_for_each(|(_, c)| check(c, sets))
        }
        Node::Decision {
            player,
            infoset,
            children,
        } => {
            if *player > 1 || children.is_empty() {
                return Err(format!(
                    "information set {infoset}: player {player} with {} actions",
                    children.len()
                ));
            }
            if sets.len() <= *infoset {
                sets.resize(infoset + 1, None);
            }
            let here = Infoset {
                player: *player,
                actions: children.len(),
            };
            match sets[*infoset] {
                Some(s) if s != here => {
                    return Err(format!(
                        "information set {infoset}: nodes disagree ({s:?} and {here:?})"
                    ))
                }
                _ => sets[*infoset] = Some(here),
            }
            children.iter().try_for_each(|c| check(c, sets))
        }
    }
}
