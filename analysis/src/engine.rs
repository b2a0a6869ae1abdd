//! The engine that values a game's positions, as `fow analyze` and `fow replay
//! --analyze` choose it: MyStockfish (built in) or Stockfish over UCI, with their
//! settings and defaults checked in one place.

use std::time::Duration;

use crate::analyze::{
    Evaluator, MyStockfishEvaluator, UciEvaluator, DEFAULT_ANALYSIS_DEPTH, DEFAULT_ANALYSIS_NODES,
    DEFAULT_UCI_ANALYSIS_NODES,
};
use crate::error::{input, ReportError};
use crate::highlight::{DEEPER_NODES_FACTOR, DEEPER_PLIES};

/// Which engine values the positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Engine {
    /// The thesis's minimax, built in.
    Mystockfish,
    /// Stockfish over UCI.
    Stockfish,
}

/// Seconds Stockfish may take to start or to answer one position.
const UCI_TIMEOUT: Duration = Duration::from_secs(120);

/// An engine and its settings as given: `None` takes the engine's default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    /// The engine.
    pub engine: Engine,
    /// MyStockfish's search depth in plies (1 to 20; default [`DEFAULT_ANALYSIS_DEPTH`]);
    /// Stockfish takes none.
    pub depth: Option<i32>,
    /// Nodes per position: MyStockfish's limit (0: depth only; default
    /// [`DEFAULT_ANALYSIS_NODES`]), Stockfish's `go nodes` (at least 1; default
    /// [`DEFAULT_UCI_ANALYSIS_NODES`]).
    pub nodes: Option<u64>,
    /// The Stockfish program: a path, or a name on PATH or in /usr/games.
    pub stockfish: String,
}

impl EngineSettings {
    /// The engine, its settings checked (bad input otherwise) and, for Stockfish, the
    /// program started; it can be handed to another thread.
    pub fn evaluator(&self) -> Result<Box<dyn Evaluator + Send>, ReportError> {
        self.evaluator_searching(0, 1)
    }

    /// The engine that confirms brilliant moves: these settings searching deeper,
    /// MyStockfish [`DEEPER_PLIES`] plies deeper (its node limit, if any,
    /// [`DEEPER_NODES_FACTOR`] times larger), Stockfish with [`DEEPER_NODES_FACTOR`] times
    /// the nodes. Checked as [`EngineSettings::evaluator`] checks.
    pub fn deeper_evaluator(&self) -> Result<Box<dyn Evaluator + Send>, ReportError> {
        self.evaluator_searching(DEEPER_PLIES, DEEPER_NODES_FACTOR)
    }

    /// The engine with `plies` more depth and `factor` times the nodes than set, the
    /// settings checked as given.
    fn evaluator_searching(
        &self,
        plies: i32,
        factor: u64,
    ) -> Result<Box<dyn Evaluator + Send>, ReportError> {
        Ok(match self.engine {
            Engine::Mystockfish => {
                let nodes = self.nodes.unwrap_or(DEFAULT_ANALYSIS_NODES);
                let depth = self.depth.unwrap_or(DEFAULT_ANALYSIS_DEPTH);
                if !(1..=20).contains(&depth) {
                    return Err(input(format!("--depth must be 1 to 20, not {depth}")));
                }
                Box::new(MyStockfishEvaluator::new(
                    depth + plies,
                    (nodes > 0).then(|| nodes.saturating_mul(factor)),
                ))
            }
            Engine::Stockfish => {
                if self.depth.is_some() {
                    return Err(input(
                        "--depth is MyStockfish's; Stockfish searches --nodes N per position",
                    ));
                }
                let nodes = self.nodes.unwrap_or(DEFAULT_UCI_ANALYSIS_NODES);
                if nodes == 0 {
                    return Err(input("--nodes must be at least 1 for Stockfish"));
                }
                let nodes = nodes.saturating_mul(factor);
                Box::new(UciEvaluator::start(&self.stockfish, nodes, UCI_TIMEOUT).map_err(input)?)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(engine: Engine, depth: Option<i32>, nodes: Option<u64>) -> EngineSettings {
        EngineSettings {
            engine,
            depth,
            nodes,
            stockfish: "/nonexistent/stockfish".into(),
        }
    }

    fn refusal(s: EngineSettings) -> String {
        match s.evaluator() {
            Err(ReportError::Input(m)) => m,
            Err(e) => panic!("a failure, not bad input: {e}"),
            Ok(_) => panic!("accepted"),
        }
    }

    /// Each bad setting is bad input, named as the options are.
    #[test]
    fn bad_settings_are_refused_before_any_engine_starts() {
        let m = refusal(settings(Engine::Mystockfish, Some(21), None));
        assert_eq!(m, "--depth must be 1 to 20, not 21");
        let m = refusal(settings(Engine::Mystockfish, Some(0), None));
        assert_eq!(m, "--depth must be 1 to 20, not 0");
        let m = refusal(settings(Engine::Stockfish, Some(3), None));
        assert!(m.starts_with("--depth is MyStockfish's"), "{m}");
        let m = refusal(settings(Engine::Stockfish, None, Some(0)));
        assert_eq!(m, "--nodes must be at least 1 for Stockfish");
        let m = refusal(settings(Engine::Stockfish, None, None));
        assert!(m.contains("not found"), "{m}");
        assert!(settings(Engine::Mystockfish, Some(20), Some(0))
            .evaluator()
            .is_ok());
    }
}
