//! Belief state: guessing or tracking the hidden enemy pieces from what a side has seen.
//!
//! - [`guess`]: the thesis's PossibleBoardGenerator update (one guessed full board).
//! - [`board_list`]: the set of full boards consistent with every view seen so far.
//! - [`information`]: what a move is expected to reveal of the hidden enemy pieces (bits).
//! - [`last_seen`]: where the opponent last saw each of our pieces (what it may believe).
//! - [`sampling`]: weighted samples of a stream or a slice (A-Res, priority sampling).

pub mod board_list;
pub mod guess;
pub mod information;
pub mod last_seen;
pub mod sampling;
