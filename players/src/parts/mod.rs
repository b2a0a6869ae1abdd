//! The parts several bots are built from, apart from the bots themselves: how long a
//! search may think ([`Thinking`], with the `depth`, `nodes` and `time` parameters the
//! search bots declare), a search over a sample of believed boards (`SampleSearch`),
//! a model of the opponent's next move that weighs believed boards ([`GreedyModel`]),
//! the king risk of each move over believed boards (`king_risk`),
//! and the one-move greedy bot that four of the thesis's bots are ([`Greedy`] with a
//! [`MoveScore`]).

mod greedy;
mod king_risk;
mod opponent_model;
mod sample_search;
mod thinking;

pub use greedy::{Greedy, MoveScore};
pub(crate) use king_risk::king_risk;
pub use opponent_model::GreedyModel;
pub(crate) use sample_search::SampleSearch;
pub use thinking::{depth_param, nodes_param, Thinking, DEPTH_3_SEARCH, TIME_PARAM};
