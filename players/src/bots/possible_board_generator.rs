//! `PossibleBoardGenerator`: one guessed full board, searched with MyStockfish.

use std::time::Instant;

use fow_variants::{apply_move, Bitboard, Board, Color, Move, Observation, RuleSet};
use rand::SeedableRng;

use super::{unseeded, BotRng};
use crate::belief::guess::{initial_guess, update_guess};
use crate::parts::{Thinking, DEPTH_3_SEARCH};
use crate::player::{Budget, GameStart, Player};
use crate::search::{Limits, MyStockfish, SearchBoard};

/// PossibleBoardGenerator's parameters: how long it thinks (depth 3 by default, no node or time
/// limit).
pub const PARAMS: &[crate::param::Param] = &DEPTH_3_SEARCH;

/// The thesis's PossibleBoardGenerator: keeps one guessed full board, rebuilds it each
/// turn from the previous guess and the current view (see
/// [`crate::belief::guess::update_guess`]), starting from the board of the
/// start position it is told ([`GameStart::position`]), searches the guess with
/// MyStockfish (depth 3 by default) among the moves the observation allows, and applies
/// its own move to the guess.
pub struct PossibleBoardGenerator {
    thinking: Thinking,
    engine: MyStockfish,
    rng: BotRng,
    color: Color,
    guess: Board,
    nodes: u64,
}

impl PossibleBoardGenerator {
    /// A bot with these settings; `start` seeds it.
    /// The bot of a `PossibleBoardGenerator:...` spec (`PARAMS`).
    pub fn from_spec(spec: &crate::PlayerSpec) -> Result<PossibleBoardGenerator, crate::SpecError> {
        Ok(PossibleBoardGenerator::new(Thinking::from_spec(
            spec,
            &DEPTH_3_SEARCH,
        )?))
    }

    /// A bot that thinks as `thinking` says.
    pub fn new(thinking: Thinking) -> PossibleBoardGenerator {
        PossibleBoardGenerator {
            thinking,
            engine: MyStockfish::new(RuleSet::thesis(), 0),
            rng: unseeded(),
            color: Color::White,
            guess: initial_guess(Color::White),
            nodes: 0,
        }
    }

    /// The current guess (after the last move chosen).
    pub fn guess(&self) -> &Board {
        &self.guess
    }
}

impl Player for PossibleBoardGenerator {
    fn start(&mut self, game: &GameStart) {
        self.rng = BotRng::seed_from_u64(game.seed);
        self.engine = MyStockfish::new(game.rules, game.seed ^ 0x5eed_0fe7_a1a1);
        self.color = game.color;
        // The start position is public: the first guess is its board (for the standard
        // start, `initial_guess`).
        self.guess = game.position.board().clone();
        self.nodes = 0;
    }

    fn choose(&mut self, obs: &Observation, budget: &Budget) -> Move {
        let started = Instant::now();
        let view = obs.view();
        self.guess = update_guess(&self.guess, view, &mut self.rng);
        let m = match obs.legal_moves().iter().find(|m| m.captures_king()) {
            Some(m) => *m,
            None => {
                let board = SearchBoard::new(
                    self.guess.clone(),
                    Bitboard::EMPTY,
                    self.color,
                    view.castling_rights(),
                    view.ep_square(),
                );
                self.engine.reset_nodes();
                self.engine
                    .set_limits(self.thinking.limits(budget, started));
                let r = self
                    .engine
                    .run_among(&board, self.thinking.depth, |m| obs.is_legal(m));
                self.nodes += self.engine.nodes();
                self.engine.set_limits(Limits::default());
                match r.best {
                    Some(m) => m,
                    None => match obs.nth_move(0) {
                        Some(m) => m,
                        None => return Move::NULL,
                    },
                }
            }
        };
        apply_move(&mut self.guess, &m, self.color);
        m
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::{FogView, Game, Position};
    use rand::Rng;

    #[test]
    fn plays_legal_moves_and_keeps_its_guess_consistent_with_the_view() {
        let rules = RuleSet::thesis();
        let mut rng = BotRng::seed_from_u64(1);
        for seed in 0..4u64 {
            let mut bot = PossibleBoardGenerator::new(Thinking {
                depth: 2,
                nodes: None,
                time: None,
            });
            let color = if seed % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            bot.start(&GameStart::new(color, rules, seed));
            let mut game = Game::new(Position::startpos(), rules);
            let mut prev = None;
            for ply in 0..120u32 {
                let pos = game.position().clone();
                let obs = Observation::new(&pos, &rules, ply, None);
                if obs.move_count() == 0 {
                    break;
                }
                let m = if pos.turn() == color {
                    let m = bot.choose(&obs, &Budget::default());
                    assert!(obs.is_legal(&m), "{m} in {}", pos.fen());
                    // The guess agrees with everything visible before the move.
                    let view = obs.view();
                    for sq in view.visible() {
                        let mut expect = view.board().piece_at(sq);
                        if sq == m.from {
                            expect = None;
                        }
                        if sq == m.to || m.kind != fow_variants::MoveKind::Normal {
                            continue;
                        }
                        assert_eq!(bot.guess().piece_at(sq), expect, "{sq} after {m}");
                    }
                    prev = Some(FogView::of(&pos, color, &rules));
                    m
                } else {
                    obs.nth_move(rng.random_range(0..obs.move_count())).unwrap()
                };
                if game.play(&m).is_some() {
                    break;
                }
            }
            assert!(prev.is_some());
            assert!(bot.nodes() > 0);
        }
    }

    #[test]
    fn its_first_guess_is_the_start_position_it_is_told() {
        let rules = RuleSet::chesscom();
        let mut bot = PossibleBoardGenerator::new(Thinking {
            depth: 1,
            nodes: None,
            time: None,
        });
        bot.start(&GameStart::new(Color::White, rules, 1));
        assert_eq!(bot.guess(), &initial_guess(Color::White));
        let start: Position = "r3k2r/ppp2ppp/2n5/3pp3/8/2N2N2/PPPP1PPP/R1B1K2R b KQkq - 0 7"
            .parse()
            .unwrap();
        for color in Color::ALL {
            bot.start(&GameStart::new(color, rules, 2).with_position(start.clone()));
            assert_eq!(bot.guess(), start.board());
        }
        // Moving first, it sees its own side and plays from the exact board.
        let mut pos = start.clone();
        let obs = Observation::new(&pos, &rules, 0, None);
        let m = bot.choose(&obs, &Budget::default());
        assert!(obs.is_legal(&m));
        pos.play(&m);
        assert_eq!(bot.guess(), pos.board());
    }
}
