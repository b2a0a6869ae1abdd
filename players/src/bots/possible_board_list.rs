//! `PossibleBoardList`: the set of boards consistent with everything seen, and the move
//! whose worst case over them is best.

use std::time::Instant;

use fow_variants::shakmaty::Setup;
use fow_variants::{apply_move, Color, FogView, Move, Observation, Position, RuleSet, Square};
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::{unseeded, BotRng};
use crate::belief::board_list::{BoardList, Prior, Status};
use crate::belief::guess::update_guess;
use crate::param::Param;
use crate::parts::GreedyModel;
use crate::parts::SampleSearch;
use crate::parts::{depth_param, nodes_param, Thinking, TIME_PARAM};
use crate::pick::best_move;
use crate::player::{Budget, GameStart, Player};
use crate::search::{Eval, MyStockfish, Score};
use crate::spec::{PlayerSpec, SpecError};

/// The settings of a [`PossibleBoardList`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardListSettings {
    /// Search depth (plies) of MyStockfish's `all` on each board, node budget per move
    /// and optional time limit per move.
    pub thinking: Thinking,
    /// The most boards the set may hold; above it the set is rebuilt from guesses.
    pub cap: usize,
    /// The most boards searched per move (a seeded random sample when the set is larger).
    pub sample: usize,
    /// How many guessed boards a rebuild makes.
    pub guesses: usize,
}

/// PossibleBoardList's parameters (`fow players` lists them; [`BoardListSettings`]'s
/// defaults are theirs).
pub const PARAMS: &[Param] = &[THINKING[0], THINKING[1], THINKING[2], CAP, SAMPLE, GUESSES];

const THINKING: [Param; 3] = [
    depth_param(2, "MyStockfish depth on each board"),
    nodes_param(
        150_000,
        "search nodes per move over all boards, 0 for no limit (deterministic)",
    ),
    TIME_PARAM,
];
const CAP: Param = Param::int(
    "cap",
    20_000,
    1,
    i64::MAX,
    "most boards tracked exactly; above it the set is rebuilt from guesses",
);
const SAMPLE: Param = Param::int(
    "sample",
    48,
    1,
    i64::MAX,
    "most boards searched per move (a seeded random sample of a larger set)",
);
const GUESSES: Param = Param::int(
    "guesses",
    64,
    1,
    i64::MAX,
    "boards guessed when the set is rebuilt",
);

impl BoardListSettings {
    /// The settings of a `PossibleBoardList:...` spec (`PARAMS`).
    pub fn from_spec(spec: &PlayerSpec) -> Result<BoardListSettings, SpecError> {
        Ok(BoardListSettings {
            thinking: Thinking::from_spec(spec, &THINKING)?,
            cap: CAP.read_count(spec)?,
            sample: SAMPLE.read_count(spec)?,
            guesses: GUESSES.read_count(spec)?,
        })
    }
}

impl Default for BoardListSettings {
    /// The defaults of `PARAMS` (the settings of a spec that sets nothing): depth 2,
    /// 150,000 nodes per move, no time limit, cap 20,000 boards, sample 48 boards, 64
    /// guesses.
    fn default() -> Self {
        BoardListSettings::from_spec(&PlayerSpec {
            name: "PossibleBoardList".into(),
            params: Vec::new(),
        })
        .expect("the declared defaults are in their ranges")
    }
}

/// What a [`PossibleBoardList`] saw over a game, for benchmarks and analysis.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BeliefLog {
    /// The set size at each decision (after the update, before any rebuild).
    pub sizes: Vec<usize>,
    /// Decisions where the set overflowed the cap and was rebuilt from guesses.
    pub overflows: u32,
    /// Decisions where no board was consistent and the set was rebuilt from guesses.
    pub empties: u32,
    /// Boards searched in all.
    pub searched: u64,
    /// Wall time spent updating the set (steps 1 to 3), for benchmarks.
    pub update_time: std::time::Duration,
}

/// The thesis's PossibleBoardList, made exact: it keeps the set of full boards consistent
/// with everything it has seen. Each turn it (1) plays its own last move on every board
/// and drops those where it would have seen something else, (2) expands every board by
/// every opponent move and keeps the children that look exactly like its current view
/// (duplicates removed), (3) if nothing is left or the set exceeds `cap`, rebuilds it from
/// PossibleBoardGenerator-style guesses seeded by the last non-empty set, and (4) scores
/// each legal move by its worst MyStockfish `all(board, side, depth)` value over the
/// boards (a seeded sample of `sample` boards when the set is larger, and only as many
/// as the node budget allows) and plays the move whose worst case is best.
pub struct PossibleBoardList {
    settings: BoardListSettings,
    engine: MyStockfish,
    rng: BotRng,
    color: Color,
    rules: RuleSet,
    /// The position the game started from (public, told by `start`).
    start: Position,
    list: BoardList,
    /// The boards after our last move (the seed of a rebuild).
    last_good: Vec<Position>,
    last_move: Option<Move>,
    nodes: u64,
    log: BeliefLog,
    /// `Some(keep)`: step 2 keeps a uniform sample of `keep` consistent boards when more
    /// fit, instead of stopping at `cap` and rebuilding from guesses (BeliefSearch's belief).
    sampled: Option<usize>,
    /// With `sampled`: the sample weighted by this model of the opponent instead, earlier
    /// turns' weights carried or not.
    model: Option<(GreedyModel, Prior)>,
}

impl PossibleBoardList {
    /// A bot with these settings; `start` seeds it.
    pub fn new(settings: BoardListSettings) -> PossibleBoardList {
        PossibleBoardList {
            settings,
            engine: MyStockfish::new(RuleSet::thesis(), 0),
            rng: unseeded(),
            color: Color::White,
            rules: RuleSet::thesis(),
            start: Position::startpos(),
            list: BoardList::new(Color::White, RuleSet::thesis()),
            last_good: Vec::new(),
            last_move: None,
            nodes: 0,
            log: BeliefLog::default(),
            sampled: None,
            model: None,
        }
    }

    /// A belief that never rebuilds on overflow: when more than `keep` boards are
    /// consistent, a seeded sample of `keep` of them is kept (guessed boards only when
    /// none is left), uniform or, with a `model`, weighted by how likely it makes each
    /// board's last opponent move, and with [`Prior::Carried`] by its whole history (see
    /// [`BoardList::after_opponent_move_weighted`]). BeliefSearch's belief; not the
    /// thesis's bot.
    pub(crate) fn sampled(
        settings: BoardListSettings,
        keep: usize,
        model: Option<(GreedyModel, Prior)>,
    ) -> PossibleBoardList {
        PossibleBoardList {
            sampled: Some(keep.max(1)),
            model,
            ..PossibleBoardList::new(settings)
        }
    }

    /// The boards it currently believes possible.
    pub fn boards(&self) -> &[Position] {
        self.list.boards()
    }

    /// How likely each of [`PossibleBoardList::boards`] is relative to the others (see
    /// [`BoardList::weights`]: all 1 but with a carried prior).
    pub fn weights(&self) -> &[f64] {
        self.list.weights()
    }

    /// What it saw over the game so far.
    pub fn log(&self) -> &BeliefLog {
        &self.log
    }

    /// The belief set's counters (boards expanded, children checked and kept).
    pub fn belief_stats(&self) -> crate::belief::board_list::Stats {
        self.list.stats()
    }

    /// Guessed boards for the current view, each grown from a board of the last
    /// non-empty set: the partial set itself after an overflow (`current`), otherwise the
    /// set our last move was played from (with that move played on it).
    fn rebuild(&mut self, view: &FogView, current: bool) -> Vec<Position> {
        let mut seeds: Vec<Position> = if current {
            self.list.boards().to_vec()
        } else {
            self.last_good.clone()
        };
        seeds.shuffle(&mut self.rng);
        seeds.truncate(self.settings.guesses.max(1));
        let mut bases: Vec<(fow_variants::Board, fow_variants::Bitboard)> = seeds
            .iter()
            .map(|p| {
                let mut b = p.board().clone();
                if let (false, Some(m)) = (current, &self.last_move) {
                    if b.piece_at(m.from) == Some(m.role.of(self.color)) {
                        apply_move(&mut b, m, self.color);
                    }
                }
                (b, p.castling_rights())
            })
            .collect();
        if bases.is_empty() {
            bases.push((self.start.board().clone(), fow_variants::Bitboard::EMPTY));
        }
        let mut out: Vec<Position> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let want = self.settings.guesses.max(1);
        let mut tries = 0;
        while out.len() < want && tries < 4 * want {
            let (base, rights) = &bases[tries % bases.len()];
            tries += 1;
            let board = update_guess(base, view, &mut self.rng);
            let Some(pos) = self.position_of(board, *rights, view) else {
                continue;
            };
            if seen.insert(pos.repetition_key(&self.rules)) {
                out.push(pos);
            }
        }
        out
    }

    /// A position from a guessed board: our castling rights and en passant square from
    /// the view, the enemy's rights from the board the guess grew from where they still fit.
    fn position_of(
        &self,
        board: fow_variants::Board,
        enemy_rights: fow_variants::Bitboard,
        view: &FogView,
    ) -> Option<Position> {
        let mut setup = Setup::empty();
        let enemy_back = fow_variants::Bitboard::from_rank((!self.color).backrank());
        let mut rights = view.castling_rights();
        for sq in enemy_rights & enemy_back {
            if board.piece_at(sq) == Some((!self.color).rook())
                && board.king_of(!self.color) == Some(king_home(!self.color))
            {
                rights.add(sq);
            }
        }
        setup.board = board;
        setup.turn = self.color;
        setup.castling_rights = rights;
        setup.ep_square = view.ep_square();
        Position::from_setup(setup).ok()
    }
}

fn king_home(c: Color) -> Square {
    if c.is_white() {
        Square::E1
    } else {
        Square::E8
    }
}

impl Player for PossibleBoardList {
    fn start(&mut self, game: &GameStart) {
        self.rng = BotRng::seed_from_u64(game.seed);
        self.engine = MyStockfish::new(game.rules, game.seed ^ 0xb0a2_d115_7000);
        self.color = game.color;
        self.rules = game.rules;
        self.start = game.position.clone();
        self.list = BoardList::from_start(game.color, game.rules, game.position.clone());
        self.last_good.clear();
        self.last_move = None;
        self.nodes = 0;
        self.log = BeliefLog::default();
    }

    fn choose(&mut self, obs: &Observation, budget: &Budget) -> Move {
        let started = Instant::now();
        self.observe(obs, started);
        let moves = obs.legal_moves();
        let m = if let Some(m) = moves.iter().find(|m| m.captures_king()) {
            *m
        } else {
            match self.choose_by_worst_case(obs, budget, started) {
                Some(m) => m,
                None => return Move::NULL,
            }
        };
        self.played(m);
        m
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }
}

impl PossibleBoardList {
    /// Steps 1 to 3: brings the belief set up to date with `obs` (rebuilding it from
    /// guesses when it overflows or empties); `started` is when the turn began.
    pub(crate) fn observe(&mut self, obs: &Observation, started: Instant) {
        let mut update = match self.sampled {
            None => self
                .list
                .update(obs, self.last_move.as_ref(), self.settings.cap),
            Some(keep) => match self.model.as_mut() {
                None => self
                    .list
                    .update_sampled(obs, self.last_move.as_ref(), keep, &mut self.rng),
                Some((model, prior)) => self.list.update_weighted(
                    obs,
                    self.last_move.as_ref(),
                    keep,
                    &mut self.rng,
                    model,
                    *prior,
                ),
            },
        };
        if update.parents == 0 && update.status == Status::Exact {
            // No opponent move was expanded (our first turn, moving first): check the
            // boards against the view, which differs from the start position's only when
            // the game started elsewhere than we were told (never in the arena).
            let (color, rules) = (self.color, self.rules);
            let view = obs.view();
            let consistent: Vec<Position> = self
                .list
                .boards()
                .iter()
                .filter(|b| FogView::of(b, color, &rules) == *view)
                .cloned()
                .collect();
            if consistent.len() != self.list.len() {
                update.kept = consistent.len();
                if consistent.is_empty() {
                    update.status = Status::Empty;
                } else {
                    self.list.replace(consistent);
                }
            }
        }
        self.log.sizes.push(update.kept);
        match update.status {
            Status::Exact => {}
            Status::Sampled => self.log.overflows += 1,
            Status::Overflow | Status::Empty => {
                if update.status == Status::Overflow {
                    self.log.overflows += 1;
                } else {
                    self.log.empties += 1;
                }
                let guesses = self.rebuild(obs.view(), update.status == Status::Overflow);
                self.list.replace(guesses);
            }
        }
        self.log.update_time += started.elapsed();
    }

    /// Our move `m` is chosen: keeps the boards it is played on, for a rebuild next turn.
    pub(crate) fn played(&mut self, m: Move) {
        self.last_good.clear();
        self.last_good.extend(self.list.boards().iter().cloned());
        self.last_move = Some(m);
    }

    fn choose_by_worst_case(
        &mut self,
        obs: &Observation,
        budget: &Budget,
        started: Instant,
    ) -> Option<Move> {
        let moves = obs.legal_moves();
        let limits = self.settings.thinking.limits(budget, started);
        // Worst value per legal move, from our side's point of view (higher is better).
        let mut worst: Vec<Option<Score>> = vec![None; moves.len()];
        let sample = SampleSearch {
            boards: self.list.boards(),
            sample: self.settings.sample,
            depth: self.settings.thinking.depth,
            limits,
            color: self.color,
            eval: Eval::Thesis,
            weights: None,
            deepen: false,
        };
        let (searched, _, spent) = sample.run(&mut self.engine, &mut self.rng, moves, |j, v, _| {
            worst[j] = Some(worst[j].map_or(v, |w| w.min(v)));
        });
        self.log.searched += u64::from(searched);
        self.nodes += spent;
        // Moves no board scored (none: every board of the set allows the same moves, and
        // the first board is always searched, at depth 1 past a deadline) would rank
        // below every scored move.
        best_move(moves, &mut self.rng, |m| {
            let j = moves.iter().position(|x| x == m).expect("own move");
            worst[j].unwrap_or(Score::MIN)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::Game;
    use rand::Rng;

    fn settings() -> BoardListSettings {
        BoardListSettings {
            thinking: Thinking {
                depth: 2,
                nodes: Some(20_000),
                time: None,
            },
            cap: 5_000,
            sample: 8,
            guesses: 8,
        }
    }

    #[test]
    fn keeps_the_true_board_while_exact_and_plays_legal_moves() {
        for rules in [RuleSet::thesis(), RuleSet::chesscom()] {
            for color in Color::ALL {
                let mut bot = PossibleBoardList::new(settings());
                bot.start(&GameStart::new(color, rules, 9));
                let mut rng = BotRng::seed_from_u64(4);
                let mut game = Game::new(Position::startpos(), rules);
                let mut obs: [Option<Observation>; 2] = [None, None];
                let mut exact = true;
                for _ in 0..60 {
                    let pos = game.position();
                    let i = pos.turn() as usize;
                    let o = Observation::for_game(&mut obs[i], &game);
                    if o.move_count() == 0 {
                        break;
                    }
                    let m = if pos.turn() == color {
                        let m = bot.choose(o, &Budget::default());
                        assert!(o.is_legal(&m));
                        exact &= bot.log().overflows == 0 && bot.log().empties == 0;
                        if exact {
                            let key = pos.repetition_key(&rules);
                            assert!(
                                bot.boards().iter().any(|b| b.repetition_key(&rules) == key),
                                "true board missing at ply {}",
                                game.ply()
                            );
                        }
                        m
                    } else {
                        o.nth_move(rng.random_range(0..o.move_count())).unwrap()
                    };
                    let end = game.play(&m);
                    if end.is_some() {
                        break;
                    }
                }
                assert!(!bot.log().sizes.is_empty());
                assert!(bot.nodes() > 0);
            }
        }
    }

    #[test]
    fn starts_its_belief_from_the_position_it_is_told() {
        for fen in [
            "r3k2r/ppp2ppp/2n5/3pp3/8/2N2N2/PPPP1PPP/R1B1K2R b KQkq - 0 7",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        ] {
            let start: Position = fen.parse().unwrap();
            for rules in [RuleSet::thesis(), RuleSet::chesscom()] {
                for color in Color::ALL {
                    let mut bot = PossibleBoardList::new(settings());
                    bot.start(&GameStart::new(color, rules, 3).with_position(start.clone()));
                    let mut rng = BotRng::seed_from_u64(11);
                    let mut game = Game::new(start.clone(), rules);
                    let mut obs: [Option<Observation>; 2] = [None, None];
                    let mut turns = 0;
                    while turns < 5 {
                        let pos = game.position().clone();
                        let i = pos.turn() as usize;
                        let o = Observation::for_game(&mut obs[i], &game);
                        if o.move_count() == 0 {
                            break;
                        }
                        let m = if pos.turn() == color {
                            let m = bot.choose(o, &Budget::default());
                            assert!(o.is_legal(&m), "{fen} {color:?}: {m}");
                            let log = bot.log();
                            assert_eq!((log.empties, log.overflows), (0, 0), "{fen} {color:?}");
                            let key = pos.repetition_key(&rules);
                            assert!(
                                bot.boards().iter().any(|b| b.repetition_key(&rules) == key),
                                "{fen} {color:?}: true board missing at ply {}",
                                game.ply()
                            );
                            if turns == 0 && start.turn() == color {
                                // Moving first, it knows the board exactly.
                                assert_eq!(bot.boards(), std::slice::from_ref(&start));
                            }
                            turns += 1;
                            m
                        } else {
                            o.nth_move(rng.random_range(0..o.move_count())).unwrap()
                        };
                        if game.play(&m).is_some() {
                            break;
                        }
                    }
                    assert!(turns > 0, "{fen} {color:?}");
                }
            }
        }
    }

    #[test]
    fn rebuild_makes_boards_that_keep_our_pieces() {
        let rules = RuleSet::thesis();
        let mut bot = PossibleBoardList::new(settings());
        bot.start(&GameStart::new(Color::White, rules, 1));
        let pos = Position::startpos();
        let view = FogView::of(&pos, Color::White, &rules);
        let boards = bot.rebuild(&view, false);
        assert!(!boards.is_empty());
        for b in &boards {
            assert_eq!(b.board().by_color(Color::White), view.ours());
            assert_eq!(b.turn(), Color::White);
        }
    }
}
