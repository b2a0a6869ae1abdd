//! The built-in bots, one per file (the parts several of them share are in
//! [`crate::parts`]).

pub(crate) mod belief_search;
mod capture_king;
mod capture_largest;
mod capture_with_largest_difference;
pub(crate) mod exploiter;
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
pub use exploiter::{Exploiter, ExploiterSettings, TargetFactory};
pub use neural_network::NeuralNetworkPlayer;
pub use planted::Planted;
pub use positionary_evaluator::{square_index, PositionaryEvaluator, PARAM_COUNT};
pub use possible_board_generator::PossibleBoardGenerator;
pub use possible_board_list::{BeliefLog, BoardListSettings, PossibleBoardList};
pub use random_move::RandomMove;
pub use simple_stockfish::SimpleStockfish;
pub use subgame_solver::{Decision, SubgameSolver, SubgameSolverSettings};
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

/// `white` against `black` from the start under thesis rules, seeded `seeds`, for up to
/// `plies` plies (fewer when the game ends): the game and its moves (for the bots' unit
/// tests; the arena's loop, which lives in a crate above this one, without its checks).
#[cfg(test)]
pub(crate) fn test_game(
    white: &mut dyn crate::Player,
    black: &mut dyn crate::Player,
    seeds: [u64; 2],
    plies: usize,
) -> (fow_variants::Game, Vec<fow_variants::Move>) {
    use fow_variants::{Color, Game, Observation, Position, RuleSet};
    let rules = RuleSet::thesis();
    white.start(&crate::GameStart::new(Color::White, rules, seeds[0]));
    black.start(&crate::GameStart::new(Color::Black, rules, seeds[1]));
    let mut game = Game::new(Position::startpos(), rules);
    let mut slots: [Option<Observation>; 2] = [None, None];
    let mut moves = Vec::new();
    for _ in 0..plies {
        let turn = game.position().turn();
        let obs = Observation::for_game(&mut slots[turn as usize], &game);
        let m = if turn == Color::White {
            white.choose(obs, &crate::Budget::default())
        } else {
            black.choose(obs, &crate::Budget::default())
        };
        moves.push(m);
        if game.play(&m).is_some() {
            break;
        }
    }
    (game, moves)
}
