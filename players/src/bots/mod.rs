//! The built-in bots, one per file.

pub(crate) mod belief_search;
mod capture_king;
mod capture_largest;
mod capture_with_largest_difference;
mod greedy;
pub(crate) mod neural_network;
mod opponent_model;
pub(crate) mod positionary_evaluator;
pub(crate) mod possible_board_generator;
pub(crate) mod possible_board_list;
mod random_move;
mod sample_search;
pub(crate) mod simple_stockfish;
mod supporter;
mod thinking;

pub use belief_search::{fog_exposure, BeliefSearch, BeliefSearchSettings};
pub use capture_king::{CaptureKing, KingCaptureScore};
pub use capture_largest::{CaptureLargest, CaptureWeightScore};
pub use capture_with_largest_difference::{CaptureDifferenceScore, CaptureWithLargestDifference};
pub use greedy::{Greedy, MoveScore};
pub use neural_network::NeuralNetworkPlayer;
pub use opponent_model::GreedyModel;
pub use positionary_evaluator::{square_index, PositionaryEvaluator, PARAM_COUNT};
pub use possible_board_generator::PossibleBoardGenerator;
pub use possible_board_list::{BeliefLog, BoardListSettings, PossibleBoardList};
pub use random_move::RandomMove;
pub use simple_stockfish::SimpleStockfish;
pub use supporter::{supported_pieces, SupportScore, Supporter};
pub use thinking::{depth_param, nodes_param, Thinking, DEPTH_3_SEARCH, TIME_PARAM};

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// The generator every built-in bot draws from: portable, seeded, fast.
pub type BotRng = Pcg64Mcg;

/// A generator before `start` gives the real seed.
pub(crate) fn unseeded() -> BotRng {
    BotRng::seed_from_u64(0)
}

/// The thesis-rules observation of the side to move in `fen`, 10 plies into a game (for
/// the bots' unit tests).
#[cfg(test)]
pub(crate) fn test_observation(fen: &str) -> fow_variants::Observation {
    let pos: fow_variants::Position = fen.parse().expect("test FEN");
    fow_variants::Observation::new(&pos, &fow_variants::RuleSet::thesis(), 10, None)
}
