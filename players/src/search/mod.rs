//! MyStockfish: the thesis's full-information minimax engine, used by the search and
//! belief-state bots (it is not a player itself).
//!
//! - [`evaluate`]: the static evaluation (piece-square values, seeded noise), in
//!   micro-pawns so that sums are exact and search order cannot change a value.
//! - [`Eval`]: which of the three evaluations a board keeps.
//! - [`tapered`]: a stronger evaluation for BeliefSearch (`eval=tapered`): positional
//!   terms blended between middle game and endgame.
//! - [`learned`]: the same form with its values fitted to game results (`eval=learned`).
//! - [`SearchBoard`]: a board to search on, with fog (impassable squares), the side to
//!   move, castling and en passant state, and its evaluation and hash kept up to date.
//! - [`MyStockfish`]: the search (alpha-beta with capture ordering, the thesis's
//!   recapture extension, node and time limits) and [`plain_minimax_all`], the plain
//!   minimax it must agree with.

mod board;
mod eval_choice;
pub mod evaluate;
pub mod learned;
mod minimax;
pub mod tapered;

pub use board::SearchBoard;
pub use eval_choice::Eval;
pub use evaluate::{Score, PAWN};
pub use minimax::{plain_minimax_all, Limits, MyStockfish, SearchResult};
