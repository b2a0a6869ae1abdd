//! `BeliefSearch`: the boards consistent with what it saw (a seeded sample of them, weighted
//! by a model of the opponent, when there are too many), each move scored by a mix of its
//! mean and its worst case over the boards searched (each searched to its depth and then
//! through every capture), with a lost king counted as the heavy loss it is rather than as
//! an unbounded number, and the risk of losing the king next checked on thousands of boards.

use std::collections::HashMap;
use std::time::Instant;

use fow_variants::{Color, Move, Observation};
use rand::SeedableRng;

use super::possible_board_list::{BoardListSettings, PossibleBoardList};
use super::{unseeded, BotRng};
use crate::belief::board_list::Prior;
use crate::belief::information::{information, Target};
use crate::belief::sampling::sample_indices;
use crate::param::Param;
use crate::parts::GreedyModel;
use crate::parts::SampleSearch;
use crate::parts::{depth_param, nodes_param, Thinking, TIME_PARAM};
use crate::pick::best_move;
use crate::player::{Budget, GameStart, Player};
use crate::search::{Eval, MyStockfish, Score, PAWN};
use crate::spec::{PlayerSpec, SpecError};

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
    /// Pawns taken off a move per unit of its king risk: the share of all the boards
    /// believed possible (up to `risk_boards` of them) on which the enemy can capture our
    /// king right after it. 0 turns the check off.
    pub risk: f64,
    /// The most boards the king-risk check looks at (a seeded sample of a larger set).
    pub risk_boards: usize,
    /// The most boards kept when more are consistent: a seeded uniform sample of them,
    /// instead of PossibleBoardList's rebuild from `guesses` when the set outgrows `cap`.
    /// 0 keeps PossibleBoardList's belief.
    pub keep: usize,
    /// Pawns taken off a move per line of fog that leads to our king after it (see
    /// [`fog_exposure`]): king safety judged from what is seen, for the boards the belief
    /// does not hold. 0 turns it off.
    pub exposure: f64,
    /// Pawns taken off a move per earlier time our pieces stood as they would after it
    /// (after one of our moves this game): a push away from draws by repetition, under
    /// rules that have them (chesscom's; it does nothing under the thesis's). 0 turns it
    /// off.
    pub repeat: f64,
    /// The static evaluation at the leaves of the search of each board.
    pub eval: Eval,
    /// Pawns added to a pawn move or a capture, times the share of the no-progress limit
    /// already used up (plies without either, as a believed board counts them, over the
    /// rules' `draw_plies`): a push away from draws by the no-progress rule, under rules
    /// that have it. 0 turns it off.
    pub progress: f64,
    /// With `keep`: how sharply the sampled belief prefers boards the opponent's likely
    /// moves lead to ([`GreedyModel`]'s `beta`, per pawn a move gains at once); `None`
    /// keeps a uniform sample.
    pub model: Option<f64>,
    /// With `model`: what becomes of each board's probability from turn to turn.
    /// [`Prior::Flat`]: the boards kept count alike. [`Prior::Carried`]: the product of
    /// the model's probabilities of the opponent moves that led to it, the sample drawn
    /// by it. [`Prior::Tracked`]: the sample drawn as with `Flat`, the product kept
    /// beside it. With either of the last two the search takes a priority sample of the
    /// boards by that weight, most likely first, and weighs the mean value and the king
    /// risk by it.
    pub carry: Prior,
    /// Pawns added to a move per bit of information that the view right after it is
    /// expected to give about `info_about` (see [`crate::belief::information`]), over a
    /// sample of up to `info_boards` believed boards: a push towards moves that look where
    /// the enemy may be when the belief is unsure of it. 0 turns it off.
    pub info: f64,
    /// What the information is about: the enemy king and queens, or every enemy piece.
    pub info_about: Target,
    /// The most boards the information is judged over (a seeded sample of a larger set).
    pub info_boards: usize,
    /// Whether the search of each board extends its horizon by every capture
    /// ([`MyStockfish::with_capture_quiescence`]) instead of the thesis's recaptures on the
    /// last square.
    pub capture_quiescence: bool,
    /// Iterative deepening over the boards searched: once all `sample` boards are searched
    /// at `depth` with budget left (nodes or time), all of them again one ply deeper, and
    /// so on; the deepest complete pass decides. Off: the budget left is not used.
    pub deepen: bool,
}

/// BeliefSearch's parameters (`fow players` lists them; [`BeliefSearchSettings`]'s
/// defaults are theirs).
pub const PARAMS: &[Param] = &[
    THINKING[0],
    THINKING[1],
    THINKING[2],
    CAP,
    SAMPLE,
    GUESSES,
    MEAN,
    KING,
    RISK,
    RISK_BOARDS,
    KEEP,
    EXPOSURE,
    REPEAT,
    PROGRESS,
    EVAL,
    MODEL,
    CARRY,
    INFO,
    INFO_ABOUT,
    INFO_BOARDS,
    QUIESCE,
    DEEPEN,
];

const THINKING: [Param; 3] = [
    depth_param(2, "MyStockfish depth on each board"),
    nodes_param(
        1_500_000,
        "search nodes per move over all boards, 0 for no limit (deterministic)",
    ),
    TIME_PARAM,
];
/// A count of at least 1.
const fn count(name: &'static str, default: i64, doc: &'static str) -> Param {
    Param::int(name, default, 1, i64::MAX, doc)
}
/// Pawns, 0 for off.
const fn pawns(name: &'static str, default: f64, doc: &'static str) -> Param {
    Param::real(name, default, 0.0, f64::INFINITY, doc)
}
const CAP: Param = count(
    "cap",
    20_000,
    "with keep=0 only: most boards tracked exactly; above it the set is rebuilt from guesses",
);
const SAMPLE: Param = count(
    "sample",
    48,
    "most boards searched per move (a seeded random sample of a larger set)",
);
const GUESSES: Param = count(
    "guesses",
    64,
    "boards guessed when the set is rebuilt (when no board is left, or with keep=0 past cap)",
);
const MEAN: Param = Param::real(
    "mean",
    0.5,
    0.0,
    1.0,
    "weight of a move's mean value over the boards, the rest on its worst case (0 to 1)",
);
const KING: Param = Param::positive_real(
    "king",
    40.0,
    0.0,
    "what the king is worth in pawns: search values are cut to plus or minus this",
);
const RISK: Param = pawns(
    "risk",
    40.0,
    "pawns off a move per unit of its king risk (the share of all believed boards where the king can be taken right after it); 0 for off",
);
const RISK_BOARDS: Param = count(
    "riskboards",
    4096,
    "most boards the king-risk check looks at (a seeded sample of a larger set)",
);
const KEEP: Param = Param::int(
    "keep",
    20_000,
    0,
    i64::MAX,
    "most boards kept when more are consistent, a seeded sample (drawn by the opponent model, see model; no rebuild from guesses); 0 for PossibleBoardList's belief",
);
const EXPOSURE: Param = pawns(
    "exposure",
    0.0,
    "pawns off a move per line of fog leading to our king after it (king safety from what is seen); 0 for off",
);
const REPEAT: Param = pawns(
    "repeat",
    0.5,
    "pawns off a move per earlier time our pieces stood as after it (against draws by repetition, under rules that have them); 0 for off",
);
const PROGRESS: Param = pawns(
    "progress",
    0.0,
    "pawns added to a pawn move or capture, times the share of the no-progress limit used up (against no-progress draws); 0 for off",
);
const EVAL: Param = Param::choice(
    "eval",
    "tapered",
    &Eval::NAMES,
    "the evaluation at the leaves: thesis (material), tapered (plus pawn advance, development, king shelter, endgame king; middle game to endgame by material) or learned (tapered, its values by square fitted to game results)",
);
const MODEL: Param = Param::real_or_off(
    "model",
    Some(2.0),
    0.0,
    f64::INFINITY,
    "with keep: draw the sample of boards by how likely an opponent model makes the move that led to each (a softmax of what the move gains at once, this sharp per pawn; 0 for every move alike); off for a uniform sample",
);
const CARRY: Param = Param::choice(
    "carry",
    "off",
    &["off", "on", "search"],
    "with model: on carries each board's probability from turn to turn (the model's probabilities of all the opponent moves that led to it), draws the sample of boards kept by it, searches the likeliest boards first and weighs the mean and the king risk by it; search does the same but draws the sample as off does; off: the boards kept count alike",
);
const PRIORS: [Prior; 3] = [Prior::Flat, Prior::Carried, Prior::Tracked];
const INFO: Param = pawns(
    "info",
    0.0,
    "pawns added to a move per bit of information the view right after it is expected to give (see infoabout) over the believed boards: moves that look where the enemy may be; 0 for off",
);
const INFO_ABOUT: Param = Param::choice(
    "infoabout",
    "kq",
    &["kq", "all"],
    "what info is about: kq (where the enemy king and queens stand) or all (every enemy piece)",
);
const TARGETS: [Target; 2] = [Target::KingQueen, Target::All];
const INFO_BOARDS: Param = count(
    "infoboards",
    512,
    "most boards the information is judged over (a seeded sample of a larger set)",
);
const QUIESCE: Param = Param::choice(
    "quiesce",
    "captures",
    &["recapture", "captures"],
    "what the search of each board looks at past its depth: recapture (the thesis's captures on the last square) or captures (every capture, standing pat on the evaluation; a king capture ends the line)",
);
const DEEPEN: Param = Param::flag(
    "deepen",
    false,
    "on: once the sample of boards is searched at depth with nodes or time left, search it again a ply deeper, and so on (iterative deepening; the deepest complete pass decides)",
);

impl BeliefSearchSettings {
    /// The settings of a `BeliefSearch:...` spec (`PARAMS`).
    pub fn from_spec(spec: &PlayerSpec) -> Result<BeliefSearchSettings, SpecError> {
        Ok(BeliefSearchSettings {
            thinking: Thinking::from_spec(spec, &THINKING)?,
            cap: CAP.read_count(spec)?,
            sample: SAMPLE.read_count(spec)?,
            guesses: GUESSES.read_count(spec)?,
            mean: MEAN.read_real(spec)?,
            king: KING.read_real(spec)?,
            risk: RISK.read_real(spec)?,
            risk_boards: RISK_BOARDS.read_count(spec)?,
            keep: KEEP.read_count(spec)?,
            exposure: EXPOSURE.read_real(spec)?,
            repeat: REPEAT.read_real(spec)?,
            eval: EVAL.read_choice(spec, &Eval::ALL)?,
            progress: PROGRESS.read_real(spec)?,
            model: MODEL.read_real_or_off(spec)?,
            carry: CARRY.read_choice(spec, &PRIORS)?,
            info: INFO.read_real(spec)?,
            info_about: INFO_ABOUT.read_choice(spec, &TARGETS)?,
            info_boards: INFO_BOARDS.read_count(spec)?,
            capture_quiescence: QUIESCE.read_choice(spec, &[false, true])?,
            deepen: DEEPEN.read_flag(spec)?,
        })
    }
}

impl Default for BeliefSearchSettings {
    /// The defaults of `PARAMS`: the settings of a spec that sets nothing.
    fn default() -> Self {
        BeliefSearchSettings::from_spec(&PlayerSpec {
            name: "BeliefSearch".into(),
            params: Vec::new(),
        })
        .expect("the declared defaults are in their ranges")
    }
}

/// A belief-state search bot. It keeps the set of boards consistent with what it has seen,
/// as PossibleBoardList does, but when more than `keep` boards fit it keeps a seeded
/// sample of `keep` of them instead of rebuilding the set from a few guesses, drawn in
/// proportion to how likely a model of the opponent ([`GreedyModel`], as sharp as
/// `model`) makes the move that led to each (uniform without a `model`; with `keep`
/// 0: PossibleBoardList's set, rebuilt from `guesses` past `cap`; guesses are still the
/// fallback when no board is left). It searches a seeded sample of `sample` boards with
/// MyStockfish at `depth`, cuts each value to ± `king` pawns, and plays the move with the
/// best `mean` × mean + (1 − `mean`) × worst over the boards searched, less `risk` pawns
/// per unit of its king risk (the share of up to `risk_boards` boards on which the enemy
/// can take our king right after the move) and, under rules that draw by repetition,
/// `repeat` pawns per earlier time its pieces stood as the move would leave them; off by
/// default, `exposure` pawns per fog line to its king and `progress` pawns for a pawn move
/// or capture as the no-progress count grows, and `info` pawns per bit a move is expected
/// to reveal ([`crate::belief::information`]). Its search judges the leaves with `eval`
/// (tapered by default: [`crate::search::tapered`]) and looks past its depth at every
/// capture (`capture_quiescence`, [`MyStockfish::with_capture_quiescence`]; the thesis's
/// recaptures on the last square when off). A king capture is always played.
/// Deterministic under a node budget.
/// The defaults are the best of the settings measured against PossibleBoardList
/// (`results/strength/`).
pub struct BeliefSearch {
    settings: BeliefSearchSettings,
    belief: PossibleBoardList,
    engine: MyStockfish,
    rng: BotRng,
    color: Color,
    nodes: u64,
    /// How often each placement of our pieces followed one of our moves this game.
    placements: HashMap<Placement, u32>,
    /// Whether the game's rules draw by repetition (the `repeat` term applies only then).
    repetition_draws: bool,
    /// The rules' no-progress limit in plies (the `progress` term applies only with one).
    draw_plies: Option<u32>,
    /// The game's rules (what a move shows, for the `info` term).
    rules: fow_variants::RuleSet,
}

/// The weights of `belief`'s boards when `settings` carry them (`carry` not flat, with a
/// `model`), else `None` (all alike).
fn carried_weights<'a>(
    settings: &BeliefSearchSettings,
    belief: &'a PossibleBoardList,
) -> Option<&'a [f64]> {
    (settings.carry != Prior::Flat && settings.model.is_some()).then(|| belief.weights())
}

/// Where our pieces stand: their squares by kind (pawn to king).
type Placement = [u64; 6];

/// The placement of `us`'s pieces on `board`.
fn placement(board: &fow_variants::Board, us: Color) -> Placement {
    let ours = board.by_color(us);
    [
        board.pawns(),
        board.knights(),
        board.bishops(),
        board.rooks(),
        board.queens(),
        board.kings(),
    ]
    .map(|b| (b & ours).0)
}

impl BeliefSearch {
    /// A bot with these settings; `start` seeds it.
    pub fn new(settings: BeliefSearchSettings) -> BeliefSearch {
        let belief = BoardListSettings {
            thinking: settings.thinking,
            cap: settings.cap,
            sample: settings.sample,
            guesses: settings.guesses,
        };
        BeliefSearch {
            settings,
            belief: if settings.keep == 0 {
                PossibleBoardList::new(belief)
            } else {
                PossibleBoardList::sampled(
                    belief,
                    settings.keep,
                    settings.model.map(|beta| {
                        let model = GreedyModel {
                            beta,
                            eval: settings.eval,
                        };
                        (model, settings.carry)
                    }),
                )
            },
            engine: MyStockfish::new(fow_variants::RuleSet::thesis(), 0),
            rng: unseeded(),
            color: Color::White,
            nodes: 0,
            placements: HashMap::new(),
            repetition_draws: false,
            draw_plies: None,
            rules: fow_variants::RuleSet::thesis(),
        }
    }

    /// The boards it currently believes possible (a sample when more fit).
    pub fn boards(&self) -> &[fow_variants::Position] {
        self.belief.boards()
    }

    /// How likely each of [`BeliefSearch::boards`] is relative to the others: carried
    /// from turn to turn with `carry`, else 1 for every board.
    pub fn weights(&self) -> &[f64] {
        self.belief.weights()
    }

    /// What its belief saw over the game so far (samples count as overflows).
    pub fn log(&self) -> &super::BeliefLog {
        self.belief.log()
    }

    /// Scores every legal move over a sample of the boards and plays the best; `None` when
    /// no legal move.
    fn choose_by_mix(
        &mut self,
        obs: &Observation,
        budget: &Budget,
        started: Instant,
    ) -> Option<Move> {
        let scores = self.move_scores(obs, budget, started, None);
        let moves = obs.legal_moves();
        // Moves no board scored (none: the boards all allow the same moves, and the first
        // board is always searched, at depth 1 past a deadline) rank last.
        best_move(moves, &mut self.rng, |m| {
            let j = moves.iter().position(|x| x == m).expect("own move");
            scores[j].unwrap_or(Score::MIN)
        })
    }

    /// The score of each of `obs`'s legal moves, in the search's units (a pawn is
    /// [`PAWN`]), as BeliefSearch ranks them: the mix of mean and worst over a sample of
    /// the boards less the king risk and the other terms its settings turn on. `None` for
    /// a move no board scored. Call after [`BeliefSearch::observe`]. With `focus`, the
    /// sample and the king risk are over those boards instead of the belief (each alike;
    /// they must agree with what the bot sees, as the belief's do).
    pub(crate) fn move_scores(
        &mut self,
        obs: &Observation,
        budget: &Budget,
        started: Instant,
        focus: Option<&[fow_variants::Position]>,
    ) -> Vec<Option<Score>> {
        let moves = obs.legal_moves();
        let limits = self.settings.thinking.limits(budget, started);
        let cap = (self.settings.king * PAWN as f64) as Score;
        let mut sum = vec![0.0f64; moves.len()];
        let mut worst: Vec<Option<Score>> = vec![None; moves.len()];
        let sample = SampleSearch {
            boards: focus.unwrap_or(self.belief.boards()),
            sample: self.settings.sample,
            depth: self.settings.thinking.depth,
            limits,
            color: self.color,
            eval: self.settings.eval,
            weights: match focus {
                Some(_) => None,
                None => carried_weights(&self.settings, &self.belief),
            },
            deepen: self.settings.deepen,
        };
        let (_, total, spent) = sample.run(&mut self.engine, &mut self.rng, moves, |j, v, w| {
            let v = v.clamp(-cap, cap);
            sum[j] += w * v as f64;
            worst[j] = Some(worst[j].map_or(v, |w| w.min(v)));
        });
        self.nodes += spent;
        let risk = match focus {
            Some(boards) if self.settings.risk > 0.0 => {
                let all: Vec<(usize, f64)> = (0..boards.len()).map(|i| (i, 1.0)).collect();
                crate::parts::king_risk(boards, &all, moves, self.color)
            }
            _ => self.king_risk(moves),
        };
        let risk_weight = self.settings.risk * PAWN as f64;
        let exposure = self.exposures(obs, moves);
        let exposure_weight = self.settings.exposure * PAWN as f64;
        let repeats = self.repeats(moves);
        let repeat_weight = self.settings.repeat * PAWN as f64;
        let progress = self.progress_bonus();
        let info = self.information(moves);
        let info_weight = self.settings.info * PAWN as f64;
        let mean_weight = self.settings.mean;
        let n = if total > 0.0 { total } else { 1.0 };
        moves
            .iter()
            .enumerate()
            .map(|(j, m)| {
                let w = worst[j]?;
                let mean = sum[j] / n;
                Some(
                    (mean_weight * mean + (1.0 - mean_weight) * w as f64
                        - risk_weight * risk[j]
                        - exposure_weight * exposure[j]
                        - repeat_weight * f64::from(repeats[j])
                        + info_weight * info[j]
                        + if m.role == fow_variants::Role::Pawn || m.is_capture() {
                            progress
                        } else {
                            0.0
                        })
                    .round() as Score,
                )
            })
            .collect()
    }

    /// Takes in what `obs` shows (the first step of each turn): brings the belief up to
    /// date without choosing a move. With [`BeliefSearch::commit`], a way to follow a
    /// recorded game's belief without searching (after [`Player::start`]). `started` is
    /// when the turn began: the belief's log counts the update's time from it.
    pub fn observe(&mut self, obs: &Observation, started: Instant) {
        self.belief.observe(obs, started);
    }

    /// Takes note of the move it plays (the last step of each turn).
    pub fn commit(&mut self, m: Move) {
        if let Some(after) = self.after(&m) {
            *self
                .placements
                .entry(placement(after.board(), self.color))
                .or_insert(0) += 1;
        }
        self.belief.played(m);
    }
}

impl BeliefSearch {
    /// A seeded sample of up to `k` believed boards (indices, each with the weight it
    /// stands for): by weight when it carries weights, else uniform.
    fn belief_sample(&mut self, k: usize) -> Vec<(usize, f64)> {
        sample_indices(
            self.belief.boards().len(),
            carried_weights(&self.settings, &self.belief),
            k,
            &mut self.rng,
        )
    }

    /// For each of `moves`, the share of the boards (all of them, or a seeded sample of
    /// `risk_boards`; by weight when it carries weights) on which the enemy can capture
    /// our king right after the move: the risk a sample searched deeply can miss. All 0
    /// when switched off.
    fn king_risk(&mut self, moves: &[Move]) -> Vec<f64> {
        if self.settings.risk == 0.0 {
            return vec![0.0; moves.len()];
        }
        let order = self.belief_sample(self.settings.risk_boards);
        crate::parts::king_risk(self.belief.boards(), &order, moves, self.color)
    }
}

impl BeliefSearch {
    /// For each of `moves`, the bits of information the view right after it is expected
    /// to give about `info_about`, over a seeded sample of up to `info_boards` believed
    /// boards (by weight when it carries weights). All 0 when switched off; then it draws
    /// nothing from the bot's generator, so that the other settings play the same games.
    fn information(&mut self, moves: &[Move]) -> Vec<f64> {
        if self.settings.info == 0.0 {
            return vec![0.0; moves.len()];
        }
        let sample = self.belief_sample(self.settings.info_boards);
        information(
            self.belief.boards(),
            &sample,
            moves,
            self.color,
            &self.rules,
            self.settings.info_about,
        )
    }

    /// For each of `moves`, how often our pieces stood as they would after it, after one
    /// of our moves this game. All 0 when switched off or when the rules do not draw by
    /// repetition.
    fn repeats(&self, moves: &[Move]) -> Vec<u32> {
        if self.settings.repeat == 0.0 || !self.repetition_draws {
            return vec![0; moves.len()];
        }
        moves
            .iter()
            .map(|m| {
                self.after(m).map_or(0, |after| {
                    let key = placement(after.board(), self.color);
                    self.placements.get(&key).copied().unwrap_or(0)
                })
            })
            .collect()
    }

    /// What a pawn move or a capture gains now, in micro-pawns: `progress` pawns times
    /// the share of the no-progress limit used up on a believed board. 0 when switched
    /// off, without such a limit or without a board.
    fn progress_bonus(&self) -> f64 {
        match (self.draw_plies, self.belief.boards().first()) {
            (Some(limit), Some(board)) if self.settings.progress > 0.0 && limit > 0 => {
                let used = (f64::from(board.halfmoves()) / f64::from(limit)).min(1.0);
                self.settings.progress * PAWN as f64 * used
            }
            _ => 0.0,
        }
    }

    /// A believed board with our move `m` played on it (all of them agree on our pieces
    /// and on the enemy pieces we see); `None` when no board is believed.
    fn after(&self, m: &Move) -> Option<fow_variants::Position> {
        let mut after = self.belief.boards().first()?.clone();
        after.play(m);
        Some(after)
    }

    /// [`fog_exposure`] after each of `moves`, played on a believed board. All 0 when
    /// switched off.
    fn exposures(&self, obs: &Observation, moves: &[Move]) -> Vec<f64> {
        if self.settings.exposure == 0.0 {
            return vec![0.0; moves.len()];
        }
        let fog = !obs.view().visible();
        moves
            .iter()
            .map(|m| {
                self.after(m)
                    .map_or(0.0, |after| fog_exposure(after.board(), self.color, fog))
            })
            .collect()
    }
}

/// How open our king is to enemy pieces hidden in `fog` (the squares we do not see) on
/// `board`: the rook lines from the king that reach a fog square before any seen piece,
/// counted when the enemy still has a rook or queen; the same for bishop lines and a
/// bishop or queen; and half a point per fog square a knight could take the king from,
/// when the enemy has a knight. The enemy's material is read from `board`, which must
/// agree with what is seen (its hidden pieces are one guess; their count of each kind is
/// known but for promotions). 0 when `us` has no king.
pub fn fog_exposure(board: &fow_variants::Board, us: Color, fog: fow_variants::Bitboard) -> f64 {
    use fow_variants::shakmaty::attacks;
    let Some(king) = board.king_of(us) else {
        return 0.0;
    };
    let them = board.by_color(!us);
    let queens = board.queens() & them;
    // Fog squares block the lines: a piece there would be the first one met.
    let blockers = (board.by_color(us) | (them & !fog)) | fog;
    let mut exposure = 0.0;
    if ((board.rooks() & them) | queens).any() {
        exposure += (attacks::rook_attacks(king, blockers) & fog).count() as f64;
    }
    if ((board.bishops() & them) | queens).any() {
        exposure += (attacks::bishop_attacks(king, blockers) & fog).count() as f64;
    }
    if (board.knights() & them).any() {
        exposure += 0.5 * (attacks::knight_attacks(king) & fog).count() as f64;
    }
    exposure
}

impl Player for BeliefSearch {
    fn start(&mut self, game: &GameStart) {
        self.belief.start(game);
        self.rng = BotRng::seed_from_u64(game.seed ^ 0xbe11_ef5e_a4c8);
        let engine = MyStockfish::new(game.rules, game.seed ^ 0x5ea4_c8be_11ef);
        self.engine = if self.settings.capture_quiescence {
            engine.with_capture_quiescence()
        } else {
            engine
        };
        self.color = game.color;
        self.nodes = 0;
        self.placements.clear();
        self.repetition_draws = game.rules.repetition.is_some();
        self.draw_plies = game.rules.draw_plies;
        self.rules = game.rules;
    }

    fn choose(&mut self, obs: &Observation, budget: &Budget) -> Move {
        let started = Instant::now();
        self.observe(obs, started);
        let moves = obs.legal_moves();
        let m = match moves.iter().find(|m| m.captures_king()) {
            Some(m) => *m,
            None => match self.choose_by_mix(obs, budget, started) {
                Some(m) => m,
                None => return Move::NULL,
            },
        };
        self.commit(m);
        m
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::{Game, Position, RuleSet};
    use rand::Rng;

    fn small() -> BeliefSearchSettings {
        BeliefSearchSettings {
            thinking: Thinking {
                depth: 2,
                nodes: Some(20_000),
                time: None,
            },
            risk: 40.0,
            ..BeliefSearchSettings::default()
        }
    }

    #[test]
    fn the_king_risk_is_the_share_of_boards_where_the_king_falls_next() {
        // The bishop on h4 pins nothing in the rules of fog-of-war chess, but pushing the
        // f-pawn opens the diagonal to e1: on the one board believed, the king then falls.
        let rules = RuleSet::thesis();
        let pos: Position = "4k3/8/8/8/7b/8/5P2/4K3 w - - 0 1".parse().unwrap();
        let mut bot = BeliefSearch::new(small());
        bot.start(&GameStart::new(Color::White, rules, 3).with_position(pos.clone()));
        let obs = Observation::new(&pos, &rules, 0, None);
        bot.belief.observe(&obs, Instant::now());
        assert_eq!(bot.boards(), std::slice::from_ref(&pos));
        let moves = obs.legal_moves().to_vec();
        let risk = bot.king_risk(&moves);
        for (m, r) in moves.iter().zip(&risk) {
            let expected = if m.from == fow_variants::Square::F2 {
                1.0
            } else {
                0.0
            };
            assert_eq!(*r, expected, "{m}");
        }
        // And it plays a move that keeps the king safe.
        let m = bot.choose(&obs, &Budget::default());
        assert_ne!(m.from, fow_variants::Square::F2, "{m}");
    }

    #[test]
    fn fog_exposure_counts_the_lines_from_the_king_into_fog() {
        use fow_variants::Bitboard;
        // Fog: ranks 5 to 8.
        let fog = Bitboard(0xffff_ffff_0000_0000);
        let exposure = |fen: &str| {
            let board: fow_variants::Board = fen.split(' ').next().unwrap().parse().unwrap();
            fog_exposure(&board, Color::White, fog)
        };
        // The e-pawn shuts the file; the long diagonal to a5 needs a bishop or queen.
        assert_eq!(exposure("r3k3/8/8/8/8/8/4P3/4K3 w - - 0 1"), 0.0);
        // Open file: a rook in the fog could come down it.
        assert_eq!(exposure("r3k3/8/8/8/8/8/8/4K3 w - - 0 1"), 1.0);
        // A queen uses the diagonal through b4 too; h4 is seen, so that diagonal is shut.
        assert_eq!(exposure("q3k3/8/8/8/8/8/8/4K3 w - - 0 1"), 2.0);
        // Our own piece on the file shuts it again, a seen enemy piece too.
        assert_eq!(exposure("q3k3/8/8/8/4P3/8/8/4K3 w - - 0 1"), 1.0);
        assert_eq!(exposure("q3k3/8/8/8/4p3/8/8/4K3 w - - 0 1"), 1.0);
        // Knight squares in the fog count half when the enemy has a knight.
        assert_eq!(exposure("n3k3/8/8/8/8/8/8/4K3 w - - 0 1"), 0.0);
        assert_eq!(exposure("n3k3/8/8/8/4K3/8/8/8 w - - 0 1"), 2.0);
        // No king, no exposure.
        assert_eq!(exposure("q3k3/8/8/8/8/8/8/8 w - - 0 1"), 0.0);
    }

    #[test]
    fn a_placement_of_our_pieces_seen_before_is_counted_against_the_move() {
        // Under rules that draw by repetition (chesscom's).
        let rules = RuleSet::chesscom();
        let pos: Position = "7k/7p/8/8/8/8/8/R6K w - - 0 1".parse().unwrap();
        let mut bot = BeliefSearch::new(BeliefSearchSettings {
            repeat: 1000.0,
            ..small()
        });
        bot.start(&GameStart::new(Color::White, rules, 3).with_position(pos.clone()));
        let obs = Observation::new(&pos, &rules, 0, None);
        bot.belief.observe(&obs, Instant::now());
        let moves = obs.legal_moves().to_vec();
        assert!(bot.repeats(&moves).iter().all(|&n| n == 0));
        // The bot's move is remembered: the same move counts once more from now on, and
        // no other one does.
        let m = bot.choose(&obs, &Budget::default());
        let counts = bot.repeats(&moves);
        for (x, n) in moves.iter().zip(counts) {
            assert_eq!(n, u32::from(*x == m), "{x} after {m}");
        }
        // Switched off, nothing is counted.
        bot.settings.repeat = 0.0;
        assert!(bot.repeats(&moves).iter().all(|&n| n == 0));
        // Nor under rules without a draw by repetition (the thesis's).
        bot.settings.repeat = 1000.0;
        let thesis = RuleSet::thesis();
        bot.start(&GameStart::new(Color::White, thesis, 3).with_position(pos.clone()));
        let obs = Observation::new(&pos, &thesis, 0, None);
        bot.belief.observe(&obs, Instant::now());
        bot.choose(&obs, &Budget::default());
        assert!(bot.repeats(&moves).iter().all(|&n| n == 0));
    }

    #[test]
    fn the_progress_bonus_grows_with_the_no_progress_count_under_rules_that_have_it() {
        // 100 plies without a capture or pawn move: half the thesis's limit of 200.
        let pos: Position = "7k/7p/8/8/8/8/P7/R6K w - - 100 80".parse().unwrap();
        let bonus = |progress: f64, rules: RuleSet| {
            let mut bot = BeliefSearch::new(BeliefSearchSettings {
                progress,
                ..small()
            });
            bot.start(&GameStart::new(Color::White, rules, 3).with_position(pos.clone()));
            bot.belief
                .observe(&Observation::new(&pos, &rules, 0, None), Instant::now());
            bot.progress_bonus()
        };
        assert_eq!(bonus(2.0, RuleSet::thesis()), PAWN as f64);
        // chesscom's 50-move rule: 100 plies is all of it.
        assert_eq!(bonus(2.0, RuleSet::chesscom()), 2.0 * PAWN as f64);
        assert_eq!(bonus(0.0, RuleSet::thesis()), 0.0);
        let mut endless = RuleSet::thesis();
        endless.draw_plies = None;
        assert_eq!(bonus(2.0, endless), 0.0);
    }

    #[test]
    fn a_heavy_information_weight_plays_a_move_that_shows_the_most() {
        // White plays e2-e4; Black answers unseen by one of its moves: the belief holds
        // the boards that fit. Weighted at 100,000 pawns a bit (the other terms are worth 120
        // pawns at most), the move played is one
        // of those whose view is expected to tell the most about the whole placement.
        let rules = RuleSet::thesis();
        let mut bot = BeliefSearch::new(BeliefSearchSettings {
            info: 100_000.0,
            info_about: Target::All,
            ..small()
        });
        bot.start(&GameStart::new(Color::White, rules, 9));
        let mut game = Game::new(Position::startpos(), rules);
        let first = Observation::new(game.position(), &rules, 0, None);
        let m = bot.choose(&first, &Budget::default());
        game.play(&m);
        let seen = fow_variants::FogView::of(game.position(), Color::White, &rules);
        let reply = game.position().parse_uci("b8c6", &rules).unwrap();
        game.play(&reply);
        let obs = Observation::new(game.position(), &rules, 2, Some(seen));
        bot.belief.observe(&obs, Instant::now());
        assert!(bot.boards().len() > 1, "{} boards", bot.boards().len());
        let moves = obs.legal_moves().to_vec();
        // Fewer boards than infoboards: every board counts, no sampling.
        assert!(bot.boards().len() <= bot.settings.info_boards);
        let info = bot.information(&moves);
        let most = info.iter().cloned().fold(0.0, f64::max);
        assert!(most > 0.5, "{info:?}");
        // Few moves show that much: playing one is no accident.
        let near = info.iter().filter(|&&b| b > most - 0.01).count();
        assert!(
            near * 4 < moves.len(),
            "{near} of {} moves: {info:?}",
            moves.len()
        );
        let mut fresh = BeliefSearch::new(bot.settings);
        fresh.start(&GameStart::new(Color::White, rules, 9));
        fresh.choose(&first, &Budget::default());
        let played = fresh.choose(&obs, &Budget::default());
        let j = moves.iter().position(|x| *x == played).unwrap();
        assert!(info[j] > most - 0.01, "{played}: {} of {most}", info[j]);
        // Switched off, every move gets 0 bits.
        bot.settings.info = 0.0;
        assert!(bot.information(&moves).iter().all(|&b| b == 0.0));
    }

    #[test]
    fn plays_legal_moves_from_both_sides_and_repeats_itself_per_seed() {
        let with = |carry: Prior, info: f64, capture_quiescence: bool| BeliefSearchSettings {
            carry,
            info,
            capture_quiescence,
            ..small()
        };
        for (rules, settings) in [
            (RuleSet::thesis(), with(Prior::Flat, 0.0, false)),
            (RuleSet::chesscom(), with(Prior::Flat, 0.0, false)),
            (RuleSet::thesis(), with(Prior::Carried, 0.0, false)),
            (RuleSet::chesscom(), with(Prior::Tracked, 0.0, false)),
            (RuleSet::thesis(), with(Prior::Flat, 0.5, true)),
            (RuleSet::chesscom(), with(Prior::Carried, 0.5, true)),
        ] {
            let carry = settings.carry;
            for color in Color::ALL {
                let play = |seed: u64| {
                    let mut bot = BeliefSearch::new(settings);
                    bot.start(&GameStart::new(color, rules, seed));
                    let mut rng = BotRng::seed_from_u64(7);
                    let mut game = Game::new(Position::startpos(), rules);
                    let mut previous = None;
                    let mut moves = Vec::new();
                    for ply in 0..24u32 {
                        let pos = game.position().clone();
                        let mine = pos.turn() == color;
                        let obs = Observation::new(
                            &pos,
                            &rules,
                            ply,
                            if mine { previous.clone() } else { None },
                        );
                        if obs.move_count() == 0 {
                            break;
                        }
                        let m = if mine {
                            let m = bot.choose(&obs, &Budget::default());
                            assert!(obs.is_legal(&m), "{m} in {}", pos.fen());
                            let w = bot.weights();
                            assert_eq!(w.len(), bot.boards().len());
                            assert!(w.iter().all(|&w| w > 0.0 && w <= 1.0), "{carry:?}");
                            m
                        } else {
                            obs.nth_move(rng.random_range(0..obs.move_count())).unwrap()
                        };
                        moves.push(m);
                        let end = game.play(&m);
                        if mine {
                            previous =
                                Some(fow_variants::FogView::of(game.position(), color, &rules));
                        }
                        if end.is_some() {
                            break;
                        }
                    }
                    moves
                };
                assert_eq!(play(5), play(5));
            }
        }
    }
}
