//! Solving small two-player zero-sum games: the game tree ([`GameTree`]), predictive CFR+
//! ([`Cfr`]) with the exploitability of a strategy profile, and the subgame around a
//! bot's move over the boards it believes possible ([`Subgame`]), solved for a mixed
//! strategy.

mod cfr;
mod subgame;
mod tree;

pub use cfr::{Cfr, Profile};
pub use subgame::{each_reply, material_for, Replies, Solution, Subgame, Twin, KING};
pub use tree::{GameTree, Infoset, Node};
