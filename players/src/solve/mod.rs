//! Solving small two-player zero-sum games: the game tree ([`GameTree`]) that a subgame
//! solver builds over believed boards, and predictive CFR+ ([`Cfr`]) with the
//! exploitability of a strategy profile.

mod cfr;
mod tree;

pub use cfr::{Cfr, Profile};
pub use tree::{GameTree, Infoset, Node};
