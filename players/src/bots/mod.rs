//! The built-in bots, one per file (the parts several of them share are in
//! [`crate::parts`]).

pub(crate) mod belief_search;
mod capture_king;
mod capture_largest;
mod capture_with_largest_difference;
pub(crate) mod neural_network;
pub(crate) mod planted;
pub(crate) mod positionary_evaluator;
pub(crate) mod possible_board_generator;
pub(crate) mod possible_board_list;
mod random_move;
pub(crate) mod simple_stockfish;
pub(crate) mod subgame_solver;
mod supporter;

pub use belief_search::{fog_exposure, BeliefSearch, BeliefSearchSettings};
pub use capture_king::{CaptureKing, KingCaptureScore};
pub use capture_largest::{CaptureLargest, CaptureWeightScore};
pub use capture_with_largest_difference::{CaptureDifferenceScore, CaptureWithLargestDifference};
pub use neural_network::NeuralNetworkPlayer;
pub use planted::Planted;
pub use positionary_evaluator::{square_index, PositionaryEvaluator, PARAM_COUNT};
pub use possible_board_generator::PossibleBoardGenerator;
pub use possible_board_list::{BeliefLog, BoardListSettings, PossibleBoardList};
pub use random_move::RandomMove;
pub use simple_stockfish::SimpleStockfish;
pub use subgame_solver::{SubgameSolver, SubgameSolverSettings};
pub use supporter::{supported_pieces, SupportScore, Supporter};
// The parts the bots are built from, here too so that a bot's user finds them with it.
pub use crate::parts::{
    depth_param, nodes_param, Greedy, GreedyModel, MoveScore, Thinking, DEPTH_3_SEARCH, TIME_PARAM,
};
pub(crate) use crate::rng::unseeded;
pub use crate::rng::BotRng;

/// The thesis-rules observation of the side to move in `fen`, 10 plies into a game (for
/// the bots' unit tests).
#[cfg(test)]
pub(crate) fn test_observation(fen: &str) -> fow_variants::Observation {
    let pos: fow_variants::Position = fen.parse().expect("test FEN");
    fow_variants::Observation::new(&pos, &fow_variants::RuleSet::thesis(), 10, None)
}
