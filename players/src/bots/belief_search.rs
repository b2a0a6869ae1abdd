//! `BeliefSearch`: PossibleBoardList's exact belief set, searched deeper, each move
//! scored by a mix of its mean and its worst case over the boards, with a lost king
//! counted as the loss it is rather than as an unbounded number.

use std::time::Instant;

use fow_variants::{Color, Move, Observation};
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::possible_board_list::{BoardListSettings, PossibleBoardList};
use super::thinking::Thinking;
use super::{unseeded, BotRng};
use crate::pick::best_move;
use crate::player::{Budget, GameStart, Player};
use crate::search::{Limits, MyStockfish, Score, SearchBoard, PAWN};

/// The settings of a [`BeliefSearch`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BeliefSearchSettings {
    /// Search depth (plies) on each board, node budget per move, optional time limit.
    pub thinking: Thinking,
    /// The most boards tracked exactly (as PossibleBoardList's `cap`).
    pub cap: usize,
    /// The most boards searched per move (a seeded random sample of a larger set).
    pub sample: usize,
    /// Boards guessed when the set is rebuilt.
    pub guesses: usize,
    /// The weight of a move's mean value over the boards; the rest goes to its worst
    /// value (1: the mean only, 0: the worst case only, as PossibleBoardList).
    pub mean: f64,
    /// What losing (or winning) the king is worth, in pawns: a search value beyond it is
    /// cut to it, so that one board where the king falls weighs like a heavy material
    /// loss in the mean instead of swamping it.
    pub king: f64,
}

impl Default for BeliefSearchSettings {
    /// The defaults `fow players` lists.
    fn default() -> Self {
        BeliefSearchSettings {
            thinking: Thinking {
                depth: 3,
                nodes: Some(1_500_000),
                time: None,
            },
            cap: 20_000,
            sample: 32,
            guesses: 64,
            mean: 0.7,
            king: 40.0,
        }
    }
}

/// A belief-state search bot. It keeps PossibleBoardList's set of every board consistent
/// with what it has seen (rebuilt from guesses when the set grows past `cap`), searches a
/// seeded sample of `sample` boards with MyStockfish at `depth` (3 by default: its move,
/// the reply, its next move), cuts each value to ± `king` pawns, and plays the move with
/// the best `mean` × mean + (1 − `mean`) × worst over the boards searched. A king capture
/// is always played. Deterministic under a node budget.
pub struct BeliefSearch {
    settings: BeliefSearchSettings,
    belief: PossibleBoardList,
    engine: MyStockfish,
    rng: BotRng,
    color: Color,
    nodes: u64,
}

impl BeliefSearch {
    /// A bot with these settings; `start` seeds it.
    pub fn new(settings: BeliefSearchSettings) -> BeliefSearch {
        BeliefSearch {
            settings,
            belief: PossibleBoardList::new(BoardListSettings {
                thinking: settings.thinking,
                cap: settings.cap,
                sample: settings.sample,
                guesses: settings.guesses,
            }),
            engine: MyStockfish::new(fow_variants::RuleSet::thesis(), 0),
            rng: unseeded(),
            color: Color::White,
            nodes: 0,
        }
    }

    /// The boards it currently believes possible.
    pub fn boards(&self) -> &[fow_variants::Position] {
        self.belief.boards()
    }

    /// Scores every legal move over a sample of the boards; `None` when no legal move.
    fn choose_by_mix(
        &mut self,
        obs: &Observation,
        budget: &Budget,
        started: Instant,
    ) -> Option<Move> {
        let moves = obs.legal_moves();
        let white = self.color.is_white();
        let boards = self.belief.boards();
        let mut order: Vec<usize> = (0..boards.len()).collect();
        if order.len() > self.settings.sample {
            let (picked, _) = order.partial_shuffle(&mut self.rng, self.settings.sample);
            order = picked.to_vec();
        }
        let limits = self.settings.thinking.limits(budget, started);
        let cap = (self.settings.king * PAWN as f64) as Score;
        let mut sum = vec![0i128; moves.len()];
        let mut worst: Vec<Option<Score>> = vec![None; moves.len()];
        let mut searched = 0u32;
        let mut spent = 0u64;
        for (k, &i) in order.iter().enumerate() {
            let board = SearchBoard::from_position(&boards[i]);
            self.engine.reset_nodes();
            self.engine.set_limits(Limits {
                nodes: if k == 0 {
                    None
                } else {
                    limits.nodes.map(|n| n.saturating_sub(spent))
                },
                deadline: limits.deadline,
            });
            let all = self.engine.all(&board, self.settings.thinking.depth);
            spent += self.engine.nodes();
            let Some(all) = all else { break };
            searched += 1;
            for (m, v) in all {
                let ours = if white { v } else { -v }.clamp(-cap, cap);
                if let Some(j) = moves
                    .iter()
                    .position(|x| x.from == m.from && x.to == m.to && x.promotion == m.promotion)
                {
                    sum[j] += i128::from(ours);
                    worst[j] = Some(worst[j].map_or(ours, |w| w.min(ours)));
                }
            }
            if limits.nodes.is_some_and(|n| spent >= n) {
                break;
            }
        }
        self.engine.set_limits(Limits::default());
        self.nodes += spent;
        let mean_weight = self.settings.mean;
        let n = f64::from(searched.max(1));
        // Moves no board scored (a deadline before the first board finished) rank last.
        best_move(moves, &mut self.rng, |m| {
            let j = moves.iter().position(|x| x == m).expect("own move");
            match worst[j] {
                None => Score::MIN,
                Some(w) => {
                    let mean = sum[j] as f64 / n;
                    (mean_weight * mean + (1.0 - mean_weight) * w as f64).round() as Score
                }
            }
        })
    }
}

impl Player for BeliefSearch {
    fn start(&mut self, game: &GameStart) {
        self.belief.start(game);
        self.rng = BotRng::seed_from_u64(game.seed ^ 0xbe11_ef5e_a4c8);
        self.engine = MyStockfish::new(game.rules, game.seed ^ 0x5ea4_c8be_11ef);
        self.color = game.color;
        self.nodes = 0;
    }

    fn choose(&mut self, obs: &Observation, budget: &Budget) -> Move {
        let started = Instant::now();
        self.belief.observe(obs, started);
        let moves = obs.legal_moves();
        let m = match moves.iter().find(|m| m.captures_king()) {
            Some(m) => *m,
            None => match self.choose_by_mix(obs, budget, started) {
                Some(m) => m,
                None => return Move::NULL,
            },
        };
        self.belief.played(m);
        m
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }
}
