//! `SubgameSolver`: BeliefSearch's belief and its scores, and a subgame solved for a
//! mixed strategy over the best of them. At each move BeliefSearch (at its defaults but
//! for `keep` and `eval`, its belief the bot's own) scores every legal move; the `candidates` best (4) within
//! `margin` pawns (1) of the best are the moves of a subgame over a seeded sample of the
//! believed boards ([`Subgame`]): chance picks the board, the bot its move without knowing
//! which board it is on, the opponent its reply knowing only its own view after the move,
//! each reply valued by MyStockfish (its capture quiescence, the `leafeval` evaluation)
//! from the bot's side (less
//! `risk` pawns per unit of the move's king risk, when asked for). Predictive CFR+ solves
//! the subgame for a mixed strategy, and the bot plays a move drawn from it with its seed
//! (or the likeliest, with `pick=best`). BeliefSearch's scores, its king risk over
//! thousands of boards among them, are the safety check: a move far below the best is
//! never a candidate. One candidate, or a king capture, is played at once. With
//! `candidates=0` the subgame is over every legal move, unscored (the first version).
//! With `grow`, the replies the first solution reaches most become the bot's next
//! decision and the subgame is solved again ([`Subgame::grow`]); with `stale`, each board
//! has a twin with the bot's unseen pieces where the opponent last saw them ([`Twin`],
//! [`LastSeen`]). Both are off by default: neither changed the score measurably
//! (results/strength/subgame/). Deterministic under a node budget; under a clock the
//! subgame gets what the scoring leaves of the move's allocation.

use std::time::Instant;

use fow_variants::{Color, Move, Observation, Position};
use rand::{Rng, SeedableRng};

use super::belief_search::{BeliefSearch, BeliefSearchSettings};
use super::{unseeded, BotRng};
use crate::belief::last_seen::LastSeen;
use crate::belief::sampling::sample_indices;
use crate::param::Param;
use crate::parts::{depth_param, nodes_param, Thinking, TIME_PARAM};
use crate::player::{Budget, GameStart, Player};
use crate::search::{Eval, Limits, MyStockfish, SearchBoard, PAWN};
use crate::solve::{Replies, Subgame, Twin};
use crate::spec::{PlayerSpec, SpecError};

/// The most believed boards [`SubgameSolver`] looks at to judge which of its pieces the
/// opponent sees after its move.
const SEEN_BOARDS: usize = 64;

/// The parameters of `SubgameSolver:...`.
pub const PARAMS: &[Param] = &[
    THINKING[0],
    THINKING[1],
    THINKING[2],
    BOARDS,
    ITERATIONS,
    KING_PAWNS,
    RISK,
    RISK_BOARDS,
    PICK,
    CANDIDATES,
    MARGIN,
    KEEP,
    GROW,
    STALE,
    EVAL,
    LEAF_EVAL,
];

const THINKING: [Param; 3] = [
    depth_param(
        1,
        "MyStockfish depth after each opponent reply's position is reached (then its capture quiescence)",
    ),
    nodes_param(
        1_500_000,
        "search nodes per move over all boards, 0 for no limit (deterministic); the first board is always valued whole",
    ),
    TIME_PARAM,
];
const BOARDS: Param = Param::int(
    "boards",
    8,
    1,
    i64::MAX,
    "believed boards the subgame is built over (a seeded sample, by the belief's weights)",
);
const ITERATIONS: Param = Param::int(
    "iterations",
    200,
    1,
    i64::MAX,
    "PCFR+ iterations solving each subgame",
);
const KING_PAWNS: Param = Param::positive_real(
    "king",
    40.0,
    0.0,
    "what the king is worth in pawns: reply values are cut to plus or minus this, and a captured king is worth it",
);
const RISK: Param = Param::real(
    "risk",
    0.0,
    0.0,
    f64::INFINITY,
    "pawns off every leaf below a move per unit of its king risk (the share of believed boards where the enemy can take the king right after it, as BeliefSearch's); 0 for off (40, BeliefSearch's, scored worse: results/strength/subgame/)",
);
const RISK_BOARDS: Param = Param::int(
    "riskboards",
    4096,
    1,
    i64::MAX,
    "most boards the king-risk check looks at (a seeded sample of a larger set)",
);
const PICK: Param = Param::choice(
    "pick",
    "sample",
    &["sample", "best"],
    "sample: play a move drawn from the mixed strategy with the bot's seed; best: its likeliest move",
);

const CANDIDATES: Param = Param::int(
    "candidates",
    4,
    0,
    i64::MAX,
    "the most moves the subgame is solved over: BeliefSearch's best-scored (within margin of its best); 0 for every legal move, unscored",
);
const MARGIN: Param = Param::real(
    "margin",
    1.0,
    0.0,
    f64::INFINITY,
    "with candidates: how many pawns below BeliefSearch's best score a move may be and still be a candidate",
);

const KEEP: Param = Param::int(
    "keep",
    20_000,
    1,
    i64::MAX,
    "most boards its belief keeps when more are consistent (BeliefSearch's keep: a seeded sample drawn by its opponent model)",
);

const GROW: Param = Param::int(
    "grow",
    0,
    0,
    i64::MAX,
    "opponent replies, those the first solution reaches most, grown into the bot's next decision (made knowing only what it has seen then) before the subgame is solved again; 0 for none",
);

const STALE: Param = Param::real(
    "stale",
    0.0,
    0.0,
    f64::INFINITY,
    "weight of each subgame board's twin with our unseen pieces where the opponent last saw them (its view shared with the board's where they look alike: it cannot tell where our pieces stand), as a share of the board's; 0 for no twins",
);

const EVAL: Param = Param::choice(
    "eval",
    "tapered",
    &Eval::NAMES,
    "the evaluation BeliefSearch's scores of the candidates are searched with (its eval): thesis, tapered or learned",
);
const LEAF_EVAL: Param = Param::choice(
    "leafeval",
    "thesis",
    &Eval::NAMES,
    "the evaluation at the subgame's leaves (each reply's search): thesis (material), tapered or learned",
);

/// The settings of a [`SubgameSolver`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SubgameSolverSettings {
    /// Depth of the search valuing each reply, node budget per move, optional time limit.
    pub thinking: Thinking,
    /// Boards the subgame is built over.
    pub boards: usize,
    /// PCFR+ iterations per subgame.
    pub iterations: u64,
    /// What the king is worth, in pawns.
    pub king: f64,
    /// Pawns off a move per unit of its king risk.
    pub risk: f64,
    /// The most boards the king risk is judged over.
    pub risk_boards: usize,
    /// Whether to play the likeliest move instead of a drawn one.
    pub best: bool,
    /// The most moves the subgame is over (BeliefSearch's best), 0 for all.
    pub candidates: usize,
    /// Pawns below BeliefSearch's best score a candidate may be.
    pub margin: f64,
    /// The most boards its belief keeps.
    pub keep: usize,
    /// The replies grown into the bot's next decision (see [`Subgame::grow`]), 0 for none.
    pub grow: usize,
    /// The weight of each board's twin with our pieces where the opponent last saw them
    /// (see [`Twin`]), as a share of the board's; 0 for none.
    pub stale: f64,
    /// The evaluation of BeliefSearch's search, which scores the candidates.
    pub eval: Eval,
    /// The evaluation at the subgame's leaves.
    pub leaf_eval: Eval,
}

impl SubgameSolverSettings {
    /// The settings of a `SubgameSolver:...` spec (`PARAMS`).
    pub fn from_spec(spec: &PlayerSpec) -> Result<SubgameSolverSettings, SpecError> {
        Ok(SubgameSolverSettings {
            thinking: Thinking::from_spec(spec, &THINKING)?,
            boards: BOARDS.read_count(spec)?,
            iterations: ITERATIONS.read_count(spec)? as u64,
            king: KING_PAWNS.read_real(spec)?,
            risk: RISK.read_real(spec)?,
            risk_boards: RISK_BOARDS.read_count(spec)?,
            best: PICK.read_choice(spec, &[false, true])?,
            candidates: CANDIDATES.read_count(spec)?,
            margin: MARGIN.read_real(spec)?,
            keep: KEEP.read_count(spec)?,
            grow: GROW.read_count(spec)?,
            stale: STALE.read_real(spec)?,
            eval: EVAL.read_choice(spec, &Eval::ALL)?,
            leaf_eval: LEAF_EVAL.read_choice(spec, &Eval::ALL)?,
        })
    }
}

impl Default for SubgameSolverSettings {
    /// The defaults of `PARAMS`.
    fn default() -> Self {
        SubgameSolverSettings::from_spec(&PlayerSpec {
            name: "SubgameSolver".into(),
            params: Vec::new(),
        })
        .expect("the declared defaults are in their ranges")
    }
}

/// A subgame-solving bot (see the module's notes).
pub struct SubgameSolver {
    settings: SubgameSolverSettings,
    /// BeliefSearch (at its defaults but for `keep` and `eval`): the belief, and the scores
    /// that pick the candidates.
    search: BeliefSearch,
    engine: MyStockfish,
    rng: BotRng,
    color: Color,
    rules: fow_variants::RuleSet,
    nodes: u64,
    /// What it decided at each of its turns so far.
    decisions: Vec<Decision>,
    /// Where the opponent last saw each of our pieces.
    last_seen: LastSeen,
}

/// What [`SubgameSolver`] did at one of its turns (for the web app's overlay).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    /// The moves the subgame was over (BeliefSearch's candidates, or every legal move);
    /// 0 for a king capture, played at once.
    pub candidates: usize,
    /// The believed boards the subgame was built over (0 when no subgame was needed: a
    /// king capture, or one candidate).
    pub boards: usize,
    /// The PCFR+ iterations run (0 without a subgame).
    pub iterations: u64,
    /// The probability its strategy gave the move it played.
    pub probability: f64,
    /// How much a best response to its strategy in the subgame gains over the
    /// strategy's value, in pawns (0 without a subgame).
    pub exploitability: f64,
    /// The opponent replies grown into its next decision (see [`Subgame::grow`]).
    pub grown: usize,
    /// The boards' twins in its subgame, with our pieces where the opponent last saw them
    /// (`stale`).
    pub twins: usize,
}

/// A solved subgame: the strategy, the boards it was over and its exploitability.
struct Solved {
    strategy: Vec<f64>,
    boards: usize,
    grown: usize,
    twins: usize,
    exploitability: f64,
}

impl SubgameSolver {
    /// A bot with these settings; `start` seeds it. Its belief is BeliefSearch's at its
    /// defaults.
    pub fn new(settings: SubgameSolverSettings) -> SubgameSolver {
        SubgameSolver {
            settings,
            search: BeliefSearch::new(BeliefSearchSettings {
                keep: settings.keep,
                eval: settings.eval,
                ..BeliefSearchSettings::default()
            }),
            engine: MyStockfish::new(fow_variants::RuleSet::thesis(), 0),
            rng: unseeded(),
            color: Color::White,
            rules: fow_variants::RuleSet::thesis(),
            nodes: 0,
            decisions: Vec::new(),
            last_seen: LastSeen::new(Color::White, &Position::startpos()),
        }
    }

    /// The boards it believes possible now.
    pub fn boards(&self) -> &[Position] {
        self.search.boards()
    }

    /// Their weights (see [`super::PossibleBoardList::weights`]).
    pub fn weights(&self) -> &[f64] {
        self.search.weights()
    }

    /// What it decided at each of its turns so far.
    pub fn decisions(&self) -> &[Decision] {
        &self.decisions
    }

    /// What its belief saw over the game so far (BeliefSearch's).
    pub fn log(&self) -> &super::BeliefLog {
        self.search.log()
    }

    /// BeliefSearch's best-scored legal moves, best first: up to `candidates` of them,
    /// each within `margin` pawns of the best.
    fn candidates(&mut self, obs: &Observation, budget: &Budget, started: Instant) -> Vec<Move> {
        let moves = obs.legal_moves();
        let scores = self.search.move_scores(obs, budget, started, None);
        let mut order: Vec<usize> = (0..moves.len()).filter(|&j| scores[j].is_some()).collect();
        // Best first; equal scores in the generator's order.
        order.sort_by_key(|&j| std::cmp::Reverse(scores[j]));
        let Some(&top) = order.first() else {
            return moves.to_vec();
        };
        let floor = scores[top].unwrap_or(0) as f64 - self.settings.margin * PAWN as f64;
        order
            .into_iter()
            .take(self.settings.candidates)
            .take_while(|&j| scores[j].is_some_and(|v| v as f64 >= floor))
            .map(|j| moves[j])
            .collect()
    }

    /// With `stale`: where the opponent last saw our pieces, after our move `m` from
    /// `obs`. Each piece's record moves with it, captured pieces are forgotten, and a
    /// piece the opponent sees after the move on at least half of the believed boards (up
    /// to [`SEEN_BOARDS`] of them, in the belief's order) is seen where it stands.
    fn remember(&mut self, obs: &Observation, m: &Move) {
        if self.settings.stale <= 0.0 {
            // No twins: nothing to remember them by.
            return;
        }
        let us = self.color;
        let before = obs.view().board().clone();
        let mut after = before.clone();
        fow_variants::apply_move(&mut after, m, us);
        self.last_seen.keep_only(obs.view().ours());
        self.last_seen.moved(&before, &after);
        let boards = &self.search.boards()[..self.search.boards().len().min(SEEN_BOARDS)];
        let mut counts = [0usize; 64];
        for b in boards {
            let mut next = b.clone();
            next.play(m);
            for sq in next.visible(!us, &self.rules) & after.by_color(us) {
                counts[sq as usize] += 1;
            }
        }
        let seen = (after.by_color(us).into_iter())
            .filter(|&sq| !boards.is_empty() && 2 * counts[sq as usize] >= boards.len())
            .fold(fow_variants::Bitboard::EMPTY, |acc, sq| {
                acc | fow_variants::Bitboard::from_square(sq)
            });
        self.last_seen.saw(seen);
    }

    /// The subgame's strategy over `moves`, or `None` when no board could be valued.
    /// Boards are valued in the sample's order until the node budget or the deadline
    /// runs out (the first board always whole); the subgame is built over those valued.
    fn strategy(&mut self, moves: &[Move], budget: &Budget, started: Instant) -> Option<Solved> {
        let limits = self.settings.thinking.limits(budget, started);
        let risk = if self.settings.risk > 0.0 {
            let sample = sample_indices(
                self.search.boards().len(),
                Some(self.search.weights()),
                self.settings.risk_boards,
                &mut self.rng,
            );
            crate::parts::king_risk(self.search.boards(), &sample, moves, self.color)
        } else {
            vec![0.0; moves.len()]
        };
        let order = sample_indices(
            self.search.boards().len(),
            Some(self.search.weights()),
            self.settings.boards,
            &mut self.rng,
        );
        let boards: Vec<Position> = order
            .iter()
            .map(|&(i, _)| self.search.boards()[i].clone())
            .collect();
        let weights: Vec<f64> = order.iter().map(|&(_, w)| w).collect();
        let (engine, settings, color) = (&mut self.engine, &self.settings, self.color);
        let mut spent = 0u64;
        let mut board_started = None;
        let mut leaf = |r: Replies<'_>| {
            let first = r.board == 0 && !r.next;
            // A new board, or a grown reply, begins only while the budget lasts.
            if r.next || board_started != Some(r.board) {
                let out_of_nodes = limits.nodes.is_some_and(|n| spent >= n);
                let out_of_time = limits.deadline.is_some_and(|d| Instant::now() >= d);
                if !first && (out_of_nodes || out_of_time) {
                    return None;
                }
                if !r.next {
                    board_started = Some(r.board);
                }
            }
            engine.reset_nodes();
            engine.set_limits(Limits {
                nodes: if first {
                    None
                } else {
                    limits.nodes.map(|n| n.saturating_sub(spent))
                },
                deadline: if first { None } else { limits.deadline },
            });
            // Every leaf ends as deep: a reply and `depth` plies, or a reply, the bot's
            // next move and one ply less.
            let depth = if r.next {
                settings.thinking.depth.max(1)
            } else {
                settings.thinking.depth + 1
            };
            let all = engine.all(
                &SearchBoard::from_position(r.after).with_eval(settings.leaf_eval),
                depth,
            );
            spent += engine.nodes();
            let off = settings.risk * risk[r.mv];
            Some(
                reply_values(&all?, r.replies, color, settings.king)
                    .into_iter()
                    .map(|v| v - off)
                    .collect(),
            )
        };
        let twins: Vec<Twin> = if self.settings.stale > 0.0 {
            let seen = &self.last_seen;
            (boards.iter().enumerate())
                .filter_map(|(k, b)| {
                    Some(Twin {
                        board: k,
                        position: seen.stale(b)?,
                        weight: self.settings.stale,
                        mv: 0,
                    })
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut subgame =
            Subgame::with_twins(&boards, &weights, moves, &twins, &self.rules, &mut leaf).ok();
        let mut solution = subgame.as_ref().map(|g| g.solve(self.settings.iterations));
        let mut grown = 0;
        if let (Some(g), Some(s)) = (subgame.as_mut(), solution.as_ref()) {
            if self.settings.grow > 0 {
                let valued = g.boards();
                grown = g
                    .grow(
                        &boards[..valued],
                        &s.profile,
                        self.settings.grow,
                        &self.rules,
                        &mut leaf,
                    )
                    .ok()?;
                if grown > 0 {
                    solution = Some(g.solve(self.settings.iterations));
                }
            }
        }
        self.engine.set_limits(Limits::default());
        self.nodes += spent;
        let (subgame, solution) = (subgame?, solution?);
        Some(Solved {
            strategy: solution.strategy,
            boards: subgame.boards(),
            twins: subgame.twins(),
            grown,
            exploitability: solution.exploitability,
        })
    }
}

/// The value of each of `replies` for `us`, in pawns cut to ± `king`, from the values
/// MyStockfish's `all` gave (for White) to the opponent's moves.
fn reply_values(
    all: &[(Move, crate::search::Score)],
    replies: &[Move],
    us: Color,
    king: f64,
) -> Vec<f64> {
    replies
        .iter()
        .map(|r| {
            let v = all
                .iter()
                .find(|(m, _)| m.from == r.from && m.to == r.to && m.promotion == r.promotion)
                .map_or(0, |(_, v)| *v);
            let ours = if us.is_white() { v } else { -v };
            (ours as f64 / PAWN as f64).clamp(-king, king)
        })
        .collect()
}

impl Player for SubgameSolver {
    fn start(&mut self, game: &GameStart) {
        self.search.start(game);
        self.rng = BotRng::seed_from_u64(game.seed ^ 0x5ab9_a3e5_01fe);
        self.engine =
            MyStockfish::new(game.rules, game.seed ^ 0x01fe_5ab9_a3e5).with_capture_quiescence();
        self.color = game.color;
        self.rules = game.rules;
        self.nodes = 0;
        self.decisions.clear();
        self.last_seen = LastSeen::new(game.color, &game.position);
    }

    fn choose(&mut self, obs: &Observation, budget: &Budget) -> Move {
        let started = Instant::now();
        self.search.observe(obs, started);
        let all = obs.legal_moves();
        if all.is_empty() {
            return Move::NULL;
        }
        let mut decision = Decision {
            candidates: 0,
            boards: 0,
            iterations: 0,
            probability: 1.0,
            exploitability: 0.0,
            grown: 0,
            twins: 0,
        };
        // A king capture is played at once, with no candidates.
        if let Some(&m) = all.iter().find(|m| m.captures_king()) {
            self.decisions.push(decision);
            self.remember(obs, &m);
            self.search.commit(m);
            return m;
        }
        let candidates;
        let moves = if self.settings.candidates == 0 {
            all
        } else {
            candidates = self.candidates(obs, budget, started);
            &candidates[..]
        };
        decision.candidates = moves.len();
        let m = match moves {
            [only] => *only,
            _ => match self.strategy(moves, budget, started) {
                None => {
                    decision.probability = 1.0 / moves.len() as f64;
                    moves[0]
                }
                Some(solved) => {
                    let strategy = &solved.strategy;
                    let j = if self.settings.best {
                        (0..moves.len())
                            .max_by(|&a, &b| strategy[a].total_cmp(&strategy[b]).then(b.cmp(&a)))
                            .unwrap_or(0)
                    } else {
                        let x: f64 = self.rng.random();
                        let mut acc = 0.0;
                        let mut j = moves.len() - 1;
                        for (k, p) in strategy.iter().enumerate() {
                            acc += p;
                            if x < acc {
                                j = k;
                                break;
                            }
                        }
                        j
                    };
                    decision.boards = solved.boards;
                    decision.iterations = self.settings.iterations;
                    decision.probability = strategy[j];
                    decision.exploitability = solved.exploitability;
                    decision.grown = solved.grown;
                    decision.twins = solved.twins;
                    moves[j]
                }
            },
        };
        self.decisions.push(decision);
        self.remember(obs, &m);
        self.search.commit(m);
        m
    }

    fn nodes(&self) -> u64 {
        self.nodes + self.search.nodes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::RuleSet;

    fn small() -> SubgameSolverSettings {
        SubgameSolverSettings {
            boards: 4,
            iterations: 100,
            thinking: Thinking {
                depth: 0,
                nodes: Some(200_000),
                time: None,
            },
            ..SubgameSolverSettings::default()
        }
    }

    #[test]
    fn it_takes_a_free_queen_and_captures_a_king_in_reach() {
        let rules = RuleSet::thesis();
        for (fen, want) in [
            ("3q3k/8/8/8/8/8/8/3R3K w - - 0 1", "d1d8"),
            ("3k4/8/8/8/8/8/8/3R3K w - - 0 1", "d1d8"),
        ] {
            let pos: Position = fen.parse().unwrap();
            let mut bot = SubgameSolver::new(SubgameSolverSettings {
                best: true,
                ..small()
            });
            bot.start(&GameStart::new(Color::White, rules, 5).with_position(pos.clone()));
            let obs = Observation::new(&pos, &rules, 0, None);
            assert_eq!(bot.choose(&obs, &Budget::default()).uci(), want, "{fen}");
        }
    }

    /// A 24-ply game of a bot with `settings` (White, seeded `seeds[0]`) against
    /// RandomMove: its moves and the bot's decisions.
    fn game_with(settings: SubgameSolverSettings, seeds: [u64; 2]) -> (Vec<Move>, Vec<Decision>) {
        let mut white = SubgameSolver::new(settings);
        let mut black = crate::bots::RandomMove::default();
        let (_, moves) = crate::bots::test_game(&mut white, &mut black, seeds, 24);
        (moves, white.decisions().to_vec())
    }

    #[test]
    fn growing_records_the_replies_grown_and_plays_the_same_with_the_same_seed() {
        let settings = SubgameSolverSettings {
            grow: 16,
            ..small()
        };
        let (moves, decisions) = game_with(settings, [3, 4]);
        assert_eq!((moves, decisions.clone()), game_with(settings, [3, 4]));
        assert!(decisions.iter().any(|d| d.grown > 0), "{decisions:?}");
        assert!(decisions
            .iter()
            .all(|d| d.grown <= 16 && (d.grown == 0 || d.boards > 0)));
    }

    #[test]
    fn stale_twins_are_built_once_pieces_move_unseen_and_play_the_same() {
        let settings = SubgameSolverSettings {
            stale: 1.0,
            ..small()
        };
        let (moves, decisions) = game_with(settings, [5, 6]);
        assert_eq!((moves, decisions.clone()), game_with(settings, [5, 6]));
        assert!(decisions.iter().any(|d| d.twins > 0), "{decisions:?}");
        assert!(decisions.iter().all(|d| d.twins <= d.boards));
    }

    #[test]
    fn the_same_seed_plays_the_same_game() {
        let (a, da) = game_with(small(), [9, 10]);
        assert_eq!((a, da.clone()), game_with(small(), [9, 10]));
        assert!(
            da.iter()
                .all(|d| d.probability > 0.0 && d.probability <= 1.0 + 1e-9),
            "{da:?}"
        );
    }
}
