//! What a belief bot believed at each of its turns of a saved game, as a page draws it
//! beside the true board ([`belief_overlay`]): how many boards it held possible, whether
//! that set was every board consistent with what it saw or a sample or guesses, where the
//! true position ranked among them, and a heat map of where each enemy piece type stood
//! across them.
//!
//! The overlay is recomputed from the game record, never recorded during play: the bot
//! replays its own belief from its observations (see [`crate::replay_belief`]'s notes on
//! which bots replay and which seeds are tried), under the run's node budget
//! ([`replay_budget`]). Same game, side and budget: same overlay.
//!
//! ```
//! use fow_analysis::{belief_overlay, OverlayPlies};
//! use fow_players::Budget;
//! use fow_records::SavedGame;
//! use fow_variants::{Color, RuleSet};
//!
//! // RandomMove keeps no belief: no overlay.
//! let mut game =
//!     SavedGame::from_uci("RandomMove", "RandomMove", RuleSet::thesis(), &["e2e4"]).unwrap();
//! game.seed = Some(7);
//! let overlay = belief_overlay(&game, Color::White, &Budget::default(), OverlayPlies::Every);
//! assert!(overlay.is_none());
//! ```

use serde::{Serialize, Serializer};

use fow_players::Budget;
use fow_records::{SavedGame, TournamentConfig};
use fow_variants::{Color, Position, Role};

use crate::mover_belief::{replay, Turn};

/// Which of a side's turns an overlay covers, and with what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OverlayPlies {
    /// Every turn of the game, each with its heat map.
    Every,
    /// Every turn, without heat maps: counts, states and the truth's rank only.
    Counts,
    /// One turn with its heat map: the side's move at this ply (1-based), or its last
    /// move before it when the ply is the opponent's (the belief it then held; a ply past
    /// the game's end is its last). Replays the game only up to that turn.
    One(usize),
}

/// How the boards a bot held at a turn stand to every board consistent with what it saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BeliefState {
    /// Every board consistent with everything it saw, each once (the set was never cut).
    Exact,
    /// Each board consistent, but the set descends from a sample or from guesses of an
    /// earlier turn: some consistent boards may be missing.
    Incomplete,
    /// This turn more boards were consistent than it keeps, and it kept a seeded sample
    /// of them (BeliefSearch with `keep`).
    Sampled,
    /// This turn the set overflowed its cap or emptied, and was rebuilt from guessed
    /// boards (PossibleBoardList's fallback): they need not all be consistent.
    Guessed,
}

/// Where each type of enemy piece stood across a bot's boards: per type, 64 shares in
/// a8, b8, ..., h8, a7, ..., h1 order (the HTML replay's), each the weighted share of the
/// boards (by the bot's own weights) with an enemy piece of that type on that square,
/// from 0 to 1.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeatMap {
    /// Enemy pawns.
    pub pawn: Vec<f64>,
    /// Enemy knights.
    pub knight: Vec<f64>,
    /// Enemy bishops.
    pub bishop: Vec<f64>,
    /// Enemy rooks.
    pub rook: Vec<f64>,
    /// Enemy queens.
    pub queen: Vec<f64>,
    /// The enemy king.
    pub king: Vec<f64>,
}

impl HeatMap {
    /// The 64 shares of `role`, a8 first and h1 last.
    pub fn of(&self, role: Role) -> &[f64] {
        match role {
            Role::Pawn => &self.pawn,
            Role::Knight => &self.knight,
            Role::Bishop => &self.bishop,
            Role::Rook => &self.rook,
            Role::Queen => &self.queen,
            Role::King => &self.king,
        }
    }

    /// The heat map of the pieces of `enemy` across `boards`, weighted by `weights` (one
    /// per board; all alike when they sum to nothing). All zeros for no boards.
    pub fn of_boards(boards: &[Position], weights: &[f64], enemy: Color) -> HeatMap {
        let total: f64 = weights.iter().sum();
        let flat = total.is_nan() || total <= 0.0;
        let total = if flat { boards.len() as f64 } else { total };
        let mut heat = [[0.0f64; 64]; 6];
        for (k, board) in boards.iter().enumerate() {
            let w = if flat { 1.0 } else { weights[k] };
            let board = board.board();
            for (r, role) in Role::ALL.into_iter().enumerate() {
                for sq in board.by_piece(role.of(enemy)) {
                    heat[r][usize::from(sq.flip_vertical())] += w;
                }
            }
        }
        let shares = |r: usize| -> Vec<f64> { heat[r].iter().map(|h| h / total).collect() };
        HeatMap {
            pawn: shares(0),
            knight: shares(1),
            bishop: shares(2),
            rook: shares(3),
            queen: shares(4),
            king: shares(5),
        }
    }
}

/// A bot's belief at one of its turns, as it held it when choosing its move there.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BeliefTurn {
    /// The ply of its move, 1-based as the game's move list counts.
    pub ply: usize,
    /// The move it chose (and the game records), in UCI.
    pub uci: String,
    /// How many boards it believed possible before the move.
    pub boards: usize,
    /// How that set stands to every consistent board.
    pub state: BeliefState,
    /// The true position's rank by weight among the boards (1: no board weighs more;
    /// boards of equal weight share a rank); `None` when the belief left it out.
    pub truth_rank: Option<usize>,
    /// The true position's share of the boards' total weight (0 when left out).
    pub truth_share: f64,
    /// Where the enemy's pieces stood across the boards; `None` when not asked for
    /// ([`OverlayPlies::Counts`]).
    pub heat: Option<HeatMap>,
    /// For SubgameSolver, what its subgame was and the probability its mixed strategy
    /// gave the move played; `None` for the other bots.
    pub subgame: Option<SubgameTurn>,
}

/// SubgameSolver's subgame at one turn ([`fow_players::bots::Decision`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SubgameTurn {
    /// The moves it was over (BeliefSearch's candidates); 0 for a king capture.
    pub candidates: usize,
    /// The believed boards it was built over (0: no subgame was needed).
    pub boards: usize,
    /// The PCFR+ iterations run.
    pub iterations: u64,
    /// The probability the strategy gave the move played.
    pub probability: f64,
    /// What a best response to the strategy gains in the subgame, in pawns.
    pub exploitability: f64,
    /// The opponent replies grown into its next decision (`grow`), 0 without.
    pub grown: usize,
    /// The boards' twins with its pieces where the opponent last saw them (`stale`).
    pub twins: usize,
}

/// What one side's belief bot believed over a saved game ([`belief_overlay`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BeliefOverlay {
    /// The side, `white` or `black`.
    pub side: String,
    /// The bot's spec, as the game records it.
    pub spec: String,
    /// The seed the bot replayed with (written as a decimal string: JSON readers such as
    /// JavaScript lose digits of numbers past 2^53).
    #[serde(serialize_with = "decimal")]
    pub seed: u64,
    /// The node budget per move it replayed under (`None`: its own).
    pub nodes: Option<u64>,
    /// Its turns asked for, in ply order.
    pub turns: Vec<BeliefTurn>,
}

fn decimal<S: Serializer>(n: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(n)
}

/// The budget a run gave each move, to replay its games with: its node budget
/// (`tournament.json`'s `nodes`); `None` for a run under a clock, whose games do not
/// replay.
pub fn replay_budget(config: &TournamentConfig) -> Option<Budget> {
    config.tc.is_none().then(|| Budget {
        nodes: config.nodes,
        ..Budget::default()
    })
}

/// `side`'s belief at the turns `plies` asks for, replayed from `game` under `budget`
/// (the run's: [`replay_budget`]); `None` when `side` is not a belief bot whose belief
/// replays (`PossibleBoardList`, `BeliefSearch` or `SubgameSolver` without `time=`, a game with its seed,
/// a budget without time or clock, a seed tried that plays each of its moves up to the
/// last turn asked for), or when it has no move at or before the ply asked for.
/// Costs the bot's thinking up to that turn, for each seed tried. A seed is checked only
/// against the moves replayed: [`OverlayPlies::One`] at an early ply may take a seed that
/// plays the game's first moves and not its later ones ([`BeliefOverlay::seed`] says
/// which was taken; [`OverlayPlies::Counts`] checks every move).
pub fn belief_overlay(
    game: &SavedGame,
    side: Color,
    budget: &Budget,
    plies: OverlayPlies,
) -> Option<BeliefOverlay> {
    let (last, heat) = match plies {
        OverlayPlies::Every => (turn_at(game, side, game.moves.len())?, true),
        OverlayPlies::Counts => (turn_at(game, side, game.moves.len())?, false),
        OverlayPlies::One(p) => (turn_at(game, side, p)?, true),
    };
    let wanted = |ply: usize| !matches!(plies, OverlayPlies::One(_)) || ply == last;
    let replayed = replay(game, side, budget, last, |t| {
        wanted(t.ply).then(|| turn(game, side, t, heat))
    })?;
    Some(BeliefOverlay {
        side: if side.is_white() { "white" } else { "black" }.to_string(),
        spec: if side.is_white() {
            game.white.clone()
        } else {
            game.black.clone()
        },
        seed: replayed.seed,
        nodes: budget.nodes,
        turns: replayed.turns,
    })
}

/// The ply of `side`'s move at ply `p` or, when that is the opponent's, just before it
/// (`p` past the end counts as the last ply); `None` when it has none by then.
fn turn_at(game: &SavedGame, side: Color, p: usize) -> Option<usize> {
    let p = p.min(game.moves.len());
    // The side to move at the start plays the odd plies.
    let mover = |ply: usize| {
        let first = game.start.turn();
        if ply % 2 == 1 {
            first
        } else {
            !first
        }
    };
    let ply = if p > 0 && mover(p) == side {
        p
    } else {
        p.checked_sub(1)?
    };
    (ply > 0).then_some(ply)
}

/// The overlay's entry for one replayed turn.
fn turn(game: &SavedGame, side: Color, t: &Turn, heat: bool) -> BeliefTurn {
    let (boards, weights) = t.bot.belief();
    let log = t.bot.log();
    let state = if t.emptied || (t.overflowed && !t.bot.samples()) {
        BeliefState::Guessed
    } else if t.overflowed {
        BeliefState::Sampled
    } else if log.overflows + log.empties == 0 {
        BeliefState::Exact
    } else {
        BeliefState::Incomplete
    };
    let key = t.truth.repetition_key(&game.rules);
    let truth = boards
        .iter()
        .position(|b| b.repetition_key(&game.rules) == key);
    let total: f64 = weights.iter().sum();
    let (truth_rank, truth_share) = match truth {
        None => (None, 0.0),
        Some(i) => {
            let w = weights[i];
            let above = weights.iter().filter(|&&x| x > w).count();
            let share = if total > 0.0 {
                w / total
            } else {
                1.0 / boards.len() as f64
            };
            (Some(above + 1), share)
        }
    };
    BeliefTurn {
        ply: t.ply,
        uci: game.moves[t.ply - 1].uci(),
        boards: boards.len(),
        state,
        truth_rank,
        truth_share,
        heat: heat.then(|| HeatMap::of_boards(boards, weights, !side)),
        subgame: t.bot.decision().map(|d| SubgameTurn {
            candidates: d.candidates,
            boards: d.boards,
            iterations: d.iterations,
            probability: d.probability,
            exploitability: d.exploitability,
            grown: d.grown,
            twins: d.twins,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_arena::{play_game, GameOptions};
    use fow_players::bots::{
        BeliefSearch, BeliefSearchSettings, BoardListSettings, PossibleBoardList, SubgameSolver,
        SubgameSolverSettings,
    };
    use fow_players::{GameStart, Player, PlayerSpec};
    use fow_variants::shakmaty::{File, Rank, Square};
    use fow_variants::{Game, Move, Observation, RuleSet};

    /// A belief bot whose belief a test can read.
    trait Believer: Player {
        fn held(&self) -> Held;
    }

    impl Believer for PossibleBoardList {
        fn held(&self) -> Held {
            (self.boards().to_vec(), self.weights().to_vec())
        }
    }

    impl Believer for BeliefSearch {
        fn held(&self) -> Held {
            (self.boards().to_vec(), self.weights().to_vec())
        }
    }

    impl Believer for SubgameSolver {
        fn held(&self) -> Held {
            (self.boards().to_vec(), self.weights().to_vec())
        }
    }

    /// A belief as a bot holds it: its boards and their weights.
    type Held = (Vec<Position>, Vec<f64>);

    /// A bot played by the arena, its belief copied after each of its moves.
    struct Spy<B> {
        bot: B,
        held: Vec<Held>,
    }

    impl<B: Believer> Player for Spy<B> {
        fn start(&mut self, game: &GameStart) {
            self.bot.start(game);
        }
        fn choose(&mut self, obs: &Observation, budget: &Budget) -> Move {
            let m = self.bot.choose(obs, budget);
            self.held.push(self.bot.held());
            m
        }
    }

    /// A player of fixed moves (UCI), then of its first legal move.
    struct Script(Vec<&'static str>);

    impl Player for Script {
        fn start(&mut self, _: &GameStart) {}
        fn choose(&mut self, obs: &Observation, _: &Budget) -> Move {
            let moves = obs.legal_moves();
            let next = (!self.0.is_empty()).then(|| self.0.remove(0));
            *next
                .and_then(|u| moves.iter().find(|m| m.uci() == u))
                .unwrap_or(&moves[0])
        }
    }

    fn list(spec: &str) -> PossibleBoardList {
        let spec: PlayerSpec = spec.parse().unwrap();
        PossibleBoardList::new(BoardListSettings::from_spec(&spec).unwrap())
    }

    fn search(spec: &str) -> BeliefSearch {
        let spec: PlayerSpec = spec.parse().unwrap();
        BeliefSearch::new(BeliefSearchSettings::from_spec(&spec).unwrap())
    }

    /// `bot` (spec `name`) as `side` against `other` through the arena with `seed` and
    /// `nodes` per move: the game saved (its first `plies`) and the belief the bot held
    /// at each of its turns.
    fn spied<B: Believer>(
        name: &str,
        bot: B,
        other: &mut dyn Player,
        side: Color,
        seed: u64,
        nodes: Option<u64>,
        plies: usize,
    ) -> (SavedGame, Vec<Held>) {
        let rules = RuleSet::thesis();
        let mut spy = Spy {
            bot,
            held: Vec::new(),
        };
        let mut opts = GameOptions::new(rules);
        opts.budget.nodes = nodes;
        let (white, black) = if side.is_white() {
            (name, "Other")
        } else {
            ("Other", name)
        };
        let rec = if side.is_white() {
            play_game(&mut spy, other, white, black, seed, &opts)
        } else {
            play_game(other, &mut spy, white, black, seed, &opts)
        };
        let mut game = SavedGame::from_uci(white, black, rules, &[]).unwrap();
        game.moves = rec.moves.into_iter().take(plies).collect();
        game.seed = Some(seed);
        (game, spy.held)
    }

    fn random() -> Box<dyn Player> {
        "RandomMove".parse::<PlayerSpec>().unwrap().build().unwrap()
    }

    /// The heat map counted square by square (a8, b8, ..., h1), apart from the module's.
    fn heat_by_square(boards: &[Position], weights: &[f64], enemy: Color) -> Vec<Vec<f64>> {
        let total: f64 = weights.iter().sum();
        let mut heat = vec![vec![0.0; 64]; 6];
        let mut i = 0;
        for rank in Rank::ALL.into_iter().rev() {
            for file in File::ALL {
                let sq = Square::from_coords(file, rank);
                for (b, w) in boards.iter().zip(weights) {
                    if let Some(p) = b.board().piece_at(sq).filter(|p| p.color == enemy) {
                        heat[p.role as usize - 1][i] += w / total;
                    }
                }
                i += 1;
            }
        }
        heat
    }

    /// The positions before each ply (index 0: before ply 1).
    fn truths(game: &SavedGame) -> Vec<Position> {
        let mut play = Game::new(game.start.clone(), game.rules);
        let mut out = Vec::new();
        for m in &game.moves {
            out.push(play.position().clone());
            play.play(m);
        }
        out
    }

    /// Checks each turn of `overlay` (`side`'s, every one) against what the bot held.
    fn assert_is_held(game: &SavedGame, side: Color, overlay: &BeliefOverlay, held: &[Held]) {
        let truths = truths(game);
        let first = if side.is_white() { 1 } else { 2 };
        assert_eq!(overlay.turns.len(), (game.moves.len() + 2 - first) / 2);
        for (k, t) in overlay.turns.iter().enumerate() {
            let (boards, weights) = &held[k];
            assert_eq!(t.ply, 2 * k + first);
            assert_eq!(t.uci, game.moves[t.ply - 1].uci());
            assert_eq!(t.boards, boards.len(), "ply {}", t.ply);
            let heat = t.heat.as_ref().expect("heat maps asked for");
            let expected = heat_by_square(boards, weights, !side);
            for (r, role) in Role::ALL.into_iter().enumerate() {
                for (a, b) in heat.of(role).iter().zip(&expected[r]) {
                    assert!((a - b).abs() < 1e-12, "ply {} {role:?}: {a} {b}", t.ply);
                }
            }
            let key = truths[t.ply - 1].repetition_key(&game.rules);
            let truth = boards
                .iter()
                .position(|b| b.repetition_key(&game.rules) == key);
            assert_eq!(t.truth_rank.is_some(), truth.is_some(), "ply {}", t.ply);
            if let Some(i) = truth {
                let share = weights[i] / weights.iter().sum::<f64>();
                assert!((t.truth_share - share).abs() < 1e-12);
                let above = weights.iter().filter(|&&w| w > weights[i]).count();
                assert_eq!(t.truth_rank, Some(above + 1));
            }
        }
    }

    #[test]
    fn a_subgame_solvers_overlay_is_its_belief_and_its_decisions_in_play() {
        let spec = "SubgameSolver:boards=3,iterations=40";
        let settings = SubgameSolverSettings::from_spec(&spec.parse().unwrap()).unwrap();
        // The arena's bot, kept to read its decisions once the game is over.
        let rules = RuleSet::thesis();
        let mut spy = Spy {
            bot: SubgameSolver::new(settings),
            held: Vec::new(),
        };
        let mut opts = GameOptions::new(rules);
        opts.budget.nodes = Some(20_000);
        let rec = play_game(&mut spy, random().as_mut(), spec, "Other", 5, &opts);
        let mut game = SavedGame::from_uci(spec, "Other", rules, &[]).unwrap();
        game.moves = rec.moves.into_iter().take(20).collect();
        game.seed = Some(5);
        let budget = Budget {
            nodes: Some(20_000),
            ..Budget::default()
        };
        let overlay =
            belief_overlay(&game, Color::White, &budget, OverlayPlies::Every).expect("replays");
        assert_is_held(&game, Color::White, &overlay, &spy.held);
        let decisions = spy.bot.decisions();
        let mut solved = 0;
        for (t, d) in overlay.turns.iter().zip(decisions) {
            let s = t.subgame.expect("a SubgameSolver's turn has its subgame");
            assert_eq!(s.candidates, d.candidates, "ply {}", t.ply);
            assert_eq!(s.boards, d.boards);
            assert_eq!(s.iterations, d.iterations);
            assert_eq!(s.probability, d.probability);
            assert!(s.probability > 0.0 && s.probability <= 1.0 + 1e-9);
            if s.boards > 0 {
                solved += 1;
                assert_eq!(s.iterations, 40);
                assert!((1..=3).contains(&s.boards), "{s:?}");
                assert!(s.candidates >= 2, "{s:?}");
            }
        }
        assert!(solved > 0, "no subgame in {} turns", overlay.turns.len());
        // Another bot's turns carry no subgame.
        let spec = "PossibleBoardList:depth=1,nodes=2000,sample=4";
        let (game, _) = spied(
            spec,
            list(spec),
            random().as_mut(),
            Color::White,
            3,
            None,
            6,
        );
        let overlay = belief_overlay(&game, Color::White, &Budget::default(), OverlayPlies::Every)
            .expect("replays");
        assert!(overlay.turns.iter().all(|t| t.subgame.is_none()));
    }

    #[test]
    fn the_overlay_is_the_belief_the_bot_held_when_the_arena_played_it() {
        // A small cap: the list overflows and is rebuilt from guesses.
        let spec = "PossibleBoardList:depth=1,nodes=2000,sample=4,cap=40,guesses=6";
        let (game, held) = spied(
            spec,
            list(spec),
            random().as_mut(),
            Color::White,
            3,
            None,
            24,
        );
        let overlay = belief_overlay(&game, Color::White, &Budget::default(), OverlayPlies::Every)
            .expect("replays");
        assert_eq!(overlay.spec, spec);
        assert_eq!(overlay.seed, fow_records::seed::player_seeds(3)[0]);
        assert_is_held(&game, Color::White, &overlay, &held);
        let states: Vec<BeliefState> = overlay.turns.iter().map(|t| t.state).collect();
        assert_eq!(states[0], BeliefState::Exact);
        assert!(states.contains(&BeliefState::Guessed), "{states:?}");
        assert!(states.contains(&BeliefState::Incomplete), "{states:?}");

        // BeliefSearch's weighted sample, its weights carried from turn to turn.
        let spec = "BeliefSearch:depth=1,nodes=2000,sample=4,keep=30,carry=on,riskboards=16";
        let (game, held) = spied(
            spec,
            search(spec),
            random().as_mut(),
            Color::White,
            8,
            None,
            16,
        );
        let overlay = belief_overlay(&game, Color::White, &Budget::default(), OverlayPlies::Every)
            .expect("replays");
        assert_is_held(&game, Color::White, &overlay, &held);
        let states: Vec<BeliefState> = overlay.turns.iter().map(|t| t.state).collect();
        assert!(states.contains(&BeliefState::Sampled), "{states:?}");
        let (_, weights) = held.last().unwrap();
        assert!(weights.iter().any(|&w| w != weights[0]), "weights differ");
    }

    /// Where `role` of the enemy stands across the boards, by square name.
    fn share(heat: &HeatMap, role: Role, square: &str) -> f64 {
        let sq: Square = square.parse().unwrap();
        heat.of(role)[usize::from(sq.flip_vertical())]
    }

    #[test]
    fn after_1_e4_black_believes_each_of_whites_twenty_first_moves() {
        // From the start Black sees only its own half and ranks 6 and 5 (its pawns'
        // pushes, its knights' squares): White's 20 first moves, which all end on ranks 3
        // and 4, look alike. One board each: the e-pawn stands on e4 on one, on e3 on one
        // and on e2 on the other 18; the g1 knight on f3 on one, h3 on one; the king and
        // queen have not moved.
        let spec = "PossibleBoardList:depth=1,nodes=2000,sample=4";
        let mut white = Script(vec!["e2e4"]);
        let (game, held) = spied(spec, list(spec), &mut white, Color::Black, 1, None, 2);
        assert_eq!(game.moves[0].uci(), "e2e4");
        let o = belief_overlay(&game, Color::Black, &Budget::default(), OverlayPlies::Every)
            .expect("replays");
        assert_is_held(&game, Color::Black, &o, &held);
        let t = &o.turns[0];
        assert_eq!((t.ply, t.boards, t.state), (2, 20, BeliefState::Exact));
        assert_eq!((t.truth_rank, t.truth_share), (Some(1), 1.0 / 20.0));
        let heat = t.heat.as_ref().unwrap();
        let near = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(near(share(heat, Role::Pawn, "e4"), 1.0 / 20.0));
        assert!(near(share(heat, Role::Pawn, "e2"), 18.0 / 20.0));
        assert!(near(share(heat, Role::Pawn, "e3"), 1.0 / 20.0));
        assert!(near(share(heat, Role::Knight, "f3"), 1.0 / 20.0));
        assert!(near(share(heat, Role::Knight, "g1"), 18.0 / 20.0));
        assert_eq!(share(heat, Role::King, "e1"), 1.0);
        assert_eq!(share(heat, Role::Queen, "d1"), 1.0);
    }

    #[test]
    fn after_1_nf3_nc6_white_believes_eighteen_black_replies() {
        // The bot opens 1.Nf3 (its choice with this seed). From f3 the knight sees e5 and
        // g5, so of Black's 20 replies 1...e5 and 1...g5 would be seen; the other 18 look
        // alike, 1...Nc6 among them: the b8 knight on c6 on one board, on a6 on one, on b8
        // on 16; the e-pawn on e6 on one (1...e6), on e7 on 17, never on e5.
        let spec = "PossibleBoardList:depth=1,nodes=2000,sample=4";
        let mut black = Script(vec!["b8c6"]);
        let (game, _) = spied(spec, list(spec), &mut black, Color::White, 0, None, 3);
        let uci: Vec<String> = game.moves.iter().map(|m| m.uci()).collect();
        assert_eq!(uci[..2], ["g1f3", "b8c6"]);
        let o = belief_overlay(
            &game,
            Color::White,
            &Budget::default(),
            OverlayPlies::One(3),
        )
        .expect("replays");
        let t = &o.turns[0];
        assert_eq!((t.ply, t.boards, t.state), (3, 18, BeliefState::Exact));
        assert_eq!(t.truth_rank, Some(1));
        let heat = t.heat.as_ref().unwrap();
        let near = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(near(share(heat, Role::Knight, "c6"), 1.0 / 18.0));
        assert!(near(share(heat, Role::Knight, "b8"), 16.0 / 18.0));
        assert!(near(share(heat, Role::Knight, "a6"), 1.0 / 18.0));
        assert!(near(share(heat, Role::Pawn, "e7"), 17.0 / 18.0));
        assert!(near(share(heat, Role::Pawn, "e6"), 1.0 / 18.0));
        assert_eq!(share(heat, Role::Pawn, "e5"), 0.0);
        assert_eq!(share(heat, Role::Pawn, "g5"), 0.0);
    }

    #[test]
    fn each_piece_types_shares_sum_to_the_enemys_mean_count_of_it() {
        let spec = "BeliefSearch:depth=1,nodes=2000,sample=4,keep=30,carry=on,riskboards=16";
        let (game, held) = spied(
            spec,
            search(spec),
            random().as_mut(),
            Color::White,
            8,
            None,
            16,
        );
        let o = belief_overlay(&game, Color::White, &Budget::default(), OverlayPlies::Every)
            .expect("replays");
        let mut kings = 0;
        for (t, (boards, weights)) in o.turns.iter().zip(&held) {
            let heat = t.heat.as_ref().unwrap();
            let total: f64 = weights.iter().sum();
            for role in Role::ALL {
                let shares = heat.of(role);
                assert_eq!(shares.len(), 64);
                assert!(shares.iter().all(|&s| (0.0..=1.0 + 1e-12).contains(&s)));
                let mean: f64 = boards
                    .iter()
                    .zip(weights)
                    .map(|(b, w)| w * (b.board().by_piece(role.of(Color::Black))).count() as f64)
                    .sum::<f64>()
                    / total;
                let sum: f64 = shares.iter().sum();
                assert!(
                    (sum - mean).abs() < 1e-9,
                    "ply {} {role:?}: {sum} {mean}",
                    t.ply
                );
            }
            if boards
                .iter()
                .all(|b| b.board().king_of(Color::Black).is_some())
            {
                let sum: f64 = heat.king.iter().sum();
                assert!((sum - 1.0).abs() < 1e-12, "ply {}: {sum}", t.ply);
                kings += 1;
            }
        }
        assert!(kings > 4, "{kings} turns with a king on every board");
    }

    #[test]
    fn one_ply_is_that_turn_or_the_last_before_it_and_counts_have_no_heat() {
        let spec = "PossibleBoardList:depth=1,nodes=2000,sample=4,cap=40,guesses=6";
        let (game, _) = spied(
            spec,
            list(spec),
            random().as_mut(),
            Color::White,
            3,
            None,
            12,
        );
        let budget = Budget::default();
        let every = belief_overlay(&game, Color::White, &budget, OverlayPlies::Every).unwrap();
        let one = |p| belief_overlay(&game, Color::White, &budget, OverlayPlies::One(p));
        for (k, t) in every.turns.iter().enumerate() {
            assert_eq!(one(t.ply).unwrap().turns, std::slice::from_ref(t));
            // Black's ply after it: the belief White held at its move.
            assert_eq!(
                one(t.ply + 1).unwrap().turns,
                std::slice::from_ref(t),
                "turn {k}"
            );
        }
        assert_eq!(
            one(1000).unwrap().turns,
            [every.turns.last().unwrap().clone()]
        );
        assert_eq!(one(0), None);
        // Black's first belief is before its first move: none at ply 1.
        assert_eq!(
            belief_overlay(&game, Color::Black, &budget, OverlayPlies::One(1)),
            None
        );
        let counts = belief_overlay(&game, Color::White, &budget, OverlayPlies::Counts).unwrap();
        assert_eq!(counts.turns.len(), every.turns.len());
        for (c, e) in counts.turns.iter().zip(&every.turns) {
            assert_eq!(c.heat, None);
            assert_eq!(
                (c.ply, c.boards, c.state, c.truth_rank),
                (e.ply, e.boards, e.state, e.truth_rank)
            );
        }
    }

    #[test]
    fn only_a_belief_bot_that_replays_gives_an_overlay() {
        let spec = "PossibleBoardList:depth=1,nodes=2000,sample=4";
        let (game, _) = spied(
            spec,
            list(spec),
            random().as_mut(),
            Color::White,
            5,
            None,
            10,
        );
        let budget = Budget::default();
        let every = OverlayPlies::Every;
        assert!(belief_overlay(&game, Color::White, &budget, every).is_some());
        // RandomMove keeps no belief.
        assert_eq!(belief_overlay(&game, Color::Black, &budget, every), None);
        // A bot with a time limit, a budget with a time or a clock: its moves depend on
        // the machine.
        let mut timed = game.clone();
        timed.white = "PossibleBoardList:depth=1,nodes=2000,sample=4,time=1".into();
        assert_eq!(belief_overlay(&timed, Color::White, &budget, every), None);
        let with_time = Budget {
            time: Some(std::time::Duration::from_secs(1)),
            ..Budget::default()
        };
        assert_eq!(belief_overlay(&game, Color::White, &with_time, every), None);
        let clock = Budget {
            clock: Some(fow_players::TimeLeft {
                remaining: std::time::Duration::from_secs(60),
                increment: std::time::Duration::ZERO,
            }),
            ..Budget::default()
        };
        assert_eq!(belief_overlay(&game, Color::White, &clock, every), None);
        // No seed, or another seed (its bot plays other moves).
        let mut unseeded = game.clone();
        unseeded.seed = None;
        assert_eq!(
            belief_overlay(&unseeded, Color::White, &budget, every),
            None
        );
        let mut other = game.clone();
        other.seed = Some(6);
        assert_eq!(belief_overlay(&other, Color::White, &budget, every), None);
    }

    #[test]
    fn a_game_played_under_a_node_budget_replays_under_it_and_not_without_it() {
        // No node limit of its own: the run's 300 nodes a move cut its search short.
        let spec = "PossibleBoardList:depth=2,nodes=0,sample=6";
        let (game, held) = spied(
            spec,
            list(spec),
            random().as_mut(),
            Color::White,
            2,
            Some(300),
            12,
        );
        let budget = Budget {
            nodes: Some(300),
            ..Budget::default()
        };
        let o = belief_overlay(&game, Color::White, &budget, OverlayPlies::Every).expect("replays");
        assert_eq!(o.nodes, Some(300));
        assert_is_held(&game, Color::White, &o, &held);
        let every = OverlayPlies::Every;
        assert_eq!(
            belief_overlay(&game, Color::White, &Budget::default(), every),
            None
        );
        let more = Budget {
            nodes: Some(100_000),
            ..Budget::default()
        };
        assert_eq!(belief_overlay(&game, Color::White, &more, every), None);
    }

    #[test]
    fn a_runs_budget_is_its_node_budget_and_none_under_a_clock() {
        let players = vec!["RandomMove".to_string(), "PossibleBoardList".to_string()];
        let mut config =
            TournamentConfig::new(players, 1, RuleSet::thesis(), Some(1), Some(500)).unwrap();
        assert_eq!(replay_budget(&config).unwrap().nodes, Some(500));
        assert_eq!(
            replay_budget(&config).unwrap(),
            Budget {
                nodes: Some(500),
                ..Budget::default()
            }
        );
        config.tc = Some("60+1".parse().unwrap());
        assert_eq!(replay_budget(&config), None);
    }

    #[test]
    fn the_json_names_each_field_and_writes_the_seed_as_text() {
        let spec = "PossibleBoardList:depth=1,nodes=2000,sample=4";
        let mut white = Script(vec!["e2e4"]);
        let (game, _) = spied(spec, list(spec), &mut white, Color::Black, 1, None, 2);
        let o =
            belief_overlay(&game, Color::Black, &Budget::default(), OverlayPlies::Every).unwrap();
        let json: serde_json::Value = serde_json::to_value(&o).unwrap();
        assert_eq!(json["side"], "black");
        assert_eq!(json["seed"], o.seed.to_string());
        assert_eq!(json["nodes"], serde_json::Value::Null);
        let t = &json["turns"][0];
        assert_eq!(
            (t["ply"].as_u64(), t["uci"].as_str()),
            (Some(2), Some(game.moves[1].uci().as_str()))
        );
        assert_eq!(
            (t["boards"].as_u64(), t["state"].as_str()),
            (Some(20), Some("exact"))
        );
        assert_eq!(t["truth_rank"], 1);
        // a8 first: Black looks at White's king on e1, index 60.
        assert_eq!(t["heat"]["king"][60], 1.0);
        assert_eq!(t["heat"]["king"].as_array().unwrap().len(), 64);
        assert_eq!(t["subgame"], serde_json::Value::Null);
        // A subgame's fields, named as the web app reads them.
        let s = SubgameTurn {
            candidates: 3,
            boards: 8,
            iterations: 200,
            probability: 0.5,
            exploitability: 0.01,
            grown: 12,
            twins: 3,
        };
        let json = serde_json::to_value(s).unwrap();
        for key in [
            "candidates",
            "boards",
            "iterations",
            "probability",
            "exploitability",
            "grown",
            "twins",
        ] {
            assert!(json.get(key).is_some(), "{key}: {json}");
        }
    }
}
