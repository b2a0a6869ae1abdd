//! `SimpleStockfish`: MyStockfish on the visible board, fog impassable.

use std::time::Instant;

use fow_variants::{Move, Observation, RuleSet};

use crate::parts::{Thinking, DEPTH_3_SEARCH};
use crate::player::{Budget, GameStart, Player};
use crate::search::{Limits, MyStockfish, SearchBoard};

/// SimpleStockfish's parameters: how long it thinks (depth 3 by default, no node or time
/// limit).
pub const PARAMS: &[crate::param::Param] = &DEPTH_3_SEARCH;

/// The thesis's SimpleStockfish: searches the visible board with MyStockfish (depth 3 by
/// default) as if it were the whole board, with fog squares impassable (no piece moves
/// into or through fog, nothing there can be captured), and plays the best move.
pub struct SimpleStockfish {
    thinking: Thinking,
    engine: MyStockfish,
    nodes: u64,
}

impl SimpleStockfish {
    /// A bot with these settings; `start` seeds its evaluation noise.
    /// The bot of a `SimpleStockfish:...` spec (`PARAMS`).
    pub fn from_spec(spec: &crate::PlayerSpec) -> Result<SimpleStockfish, crate::SpecError> {
        Ok(SimpleStockfish::new(Thinking::from_spec(
            spec,
            &DEPTH_3_SEARCH,
        )?))
    }

    /// A bot that thinks as `thinking` says.
    pub fn new(thinking: Thinking) -> SimpleStockfish {
        SimpleStockfish {
            thinking,
            engine: MyStockfish::new(RuleSet::thesis(), 0),
            nodes: 0,
        }
    }
}

impl Player for SimpleStockfish {
    fn start(&mut self, game: &GameStart) {
        self.engine = MyStockfish::new(game.rules, game.seed);
        self.nodes = 0;
    }

    fn choose(&mut self, obs: &Observation, budget: &Budget) -> Move {
        let started = Instant::now();
        self.engine.reset_nodes();
        self.engine
            .set_limits(self.thinking.limits(budget, started));
        let result = self
            .engine
            .run(&SearchBoard::from_view(obs.view()), self.thinking.depth);
        self.nodes += self.engine.nodes();
        self.engine.set_limits(Limits::default());
        match result.best {
            Some(m) => m,
            None => obs.nth_move(0).unwrap_or(Move::NULL),
        }
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::Color;

    use super::super::test_observation as obs;

    fn bot() -> SimpleStockfish {
        let mut b = SimpleStockfish::new(Thinking {
            depth: 3,
            nodes: None,
            time: None,
        });
        b.start(&GameStart::new(Color::White, RuleSet::thesis(), 5));
        b
    }

    #[test]
    fn takes_a_hanging_queen_and_the_king() {
        let o = obs("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1");
        assert_eq!(bot().choose(&o, &Budget::default()).uci(), "e1d2");
        let o = obs("k7/8/8/8/8/8/8/R3K3 w - - 0 1");
        assert_eq!(bot().choose(&o, &Budget::default()).uci(), "a1a8");
    }

    #[test]
    fn moves_are_legal_and_nodes_are_counted_and_limited() {
        let o = obs("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
        let mut b = bot();
        let m = b.choose(&o, &Budget::default());
        assert!(o.is_legal(&m));
        let full = b.nodes();
        assert!(full > 20);
        let mut limited = bot();
        let m = limited.choose(
            &o,
            &Budget {
                nodes: Some(10),
                time: None,
                clock: None,
            },
        );
        assert!(o.is_legal(&m));
        assert!(limited.nodes() <= 11 && limited.nodes() < full);
    }
}
