//! The thesis's PossibleBoardList belief: the set of every full position consistent with
//! all that one side has seen so far.
//!
//! Each turn the set goes through two steps:
//!
//! 1. [`BoardList::after_own_move`]: our own move is played on every board, and the boards
//!    on which we would not have seen what we did see right after it are dropped;
//! 2. [`BoardList::after_opponent_move`]: every board is replaced by its children under
//!    every opponent move, keeping the children that look exactly like our view now, once
//!    each (by [`Position::repetition_key`]).
//!
//! [`BoardList::update`] runs both from an [`Observation`], as a bot sees it each turn.
//! Step 2 multiplies the set by the opponent's move count, so it stops as soon as more than
//! a caller's cap of boards is kept and reports [`Status::Overflow`]; the caller then
//! rebuilds a smaller set (for example from guessed boards) with [`BoardList::replace`].
//! [`BoardList::update_sampled`] instead expands every board and keeps a seeded uniform
//! sample of the consistent children when there are too many ([`Status::Sampled`]), so
//! the set stays consistent with everything seen, only incomplete (BeliefSearch's belief).
//! [`BoardList::update_weighted`] samples the same way but in proportion to how likely
//! a model of the opponent makes each child (its probability of the move that made it,
//! on its parent).
//!
//! Step 2 is the hot path. Each opponent move is first checked against the view without
//! playing it (the squares it touches must explain every visible difference between the
//! parent and the view, its destination and origin must look right where visible, and
//! it captures one of our pieces exactly when we lost one), then played and compared with
//! the view from one visibility walk: our pieces, the visible pieces, our castling rights,
//! the visible squares and the usable en passant square, which is exactly
//! `FogView::of(child, us) == now`.
//!
//! ```
//! use fow_variants::{FogView, Observation, Position, RuleSet};
//! use fow_players::belief::board_list::{BoardList, Status};
//! use fow_variants::shakmaty::Color;
//!
//! let rules = RuleSet::thesis();
//! let mut pos = Position::startpos();
//! let m = pos.parse_uci("e2e4", &rules).unwrap();
//! pos.play(&m);
//! // Black's first turn: White's first move is hidden in the fog, so any of 20 could
//! // have been played.
//! let mut list = BoardList::new(Color::Black, rules);
//! let obs = Observation::new(&pos, &rules, 1, None);
//! let up = list.update(&obs, None, 1000);
//! assert_eq!(up.status, Status::Exact);
//! assert_eq!(list.len(), 20);
//! assert!(list.contains(&pos));
//! ```

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use rand::Rng;

use fow_variants::shakmaty::{Bitboard, Board, Color, Role};
use fow_variants::{FogView, Move, MoveKind, Observation, Position, RuleSet};

use super::sampling::{a_res_key, priority_key, TopKeys};

/// What a step-2 update ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Every child was checked and the kept ones fit within the cap: the set holds every
    /// consistent child of the previous set (the exact belief if the previous set was
    /// complete, see [`BoardList::is_complete`]).
    Exact,
    /// More than the cap of boards were consistent: the expansion stopped early and the
    /// set holds the first `cap` consistent boards found (each consistent, the set
    /// incomplete). The caller should rebuild it, for example with [`BoardList::replace`].
    Overflow,
    /// No board is consistent with what was seen (the previous set missed the true
    /// position, which can happen only after [`BoardList::replace`], an overflow or a
    /// sample).
    Empty,
    /// More than the number of boards asked for were consistent and a random sample of
    /// them was kept, uniform ([`BoardList::after_opponent_move_sampled`]) or weighted
    /// ([`BoardList::after_opponent_move_weighted`]): each board consistent, the set
    /// incomplete.
    Sampled,
}

/// The result of an update: its status and what it cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Update {
    /// How the update ended.
    pub status: Status,
    /// Boards expanded by the opponent-move step (0 when there was none).
    pub parents: usize,
    /// Children (opponent moves) generated and checked by that step.
    pub children: u64,
    /// Boards in the set afterwards.
    pub kept: usize,
}

/// Cumulative counters over the life of a [`BoardList`], for benchmarking.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stats {
    /// Boards expanded under every opponent move (step 2 parents).
    pub expanded: u64,
    /// Children generated and checked against the view (one per opponent move of each
    /// expanded board).
    pub children: u64,
    /// Children that passed the cheap checks and were played and compared in full.
    pub played: u64,
    /// Children kept (consistent with the view and new).
    pub kept: u64,
}

/// A hasher for keys that are already uniformly random (Zobrist hashes): the key itself.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type KeySet = HashSet<u64, BuildHasherDefault<KeyHasher>>;

/// What a weighted update ([`BoardList::update_weighted`]) makes of the weights the boards
/// had before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prior {
    /// Every board of the set counts alike (it is a sample already drawn by likelihood);
    /// the boards kept weigh 1 again.
    Flat,
    /// Each board's weight is carried to its children, times the model's probability of
    /// the move: a probability distribution over the boards, kept from turn to turn.
    Carried,
    /// The boards are sampled as with [`Prior::Flat`] (the same boards kept), but each
    /// also weighs its parent's weight times its move's probability, as with
    /// [`Prior::Carried`]: how likely the model makes its whole history, a ranking of the
    /// boards kept, not corrected for how they were sampled.
    Tracked,
}

/// A model of the opponent for [`BoardList::update_weighted`]: given a parent board (the
/// opponent to move) and all its moves, it writes into the vector each move's
/// probability (or any positive weight proportional to it), one per move, in order.
pub trait OpponentModel {
    /// Fills `weights` (cleared by the caller) with one positive weight per move of
    /// `moves`, the opponent's moves on `board`.
    fn weigh(&mut self, board: &Position, moves: &[Move], weights: &mut Vec<f64>);
}

/// No model: every move weighs the same (step 2's expansion without weights).
struct Unweighted;

impl OpponentModel for Unweighted {
    #[inline]
    fn weigh(&mut self, _: &Position, _: &[Move], _: &mut Vec<f64>) {}
}

/// The set of full positions consistent with everything side `us` has seen (the thesis's
/// PossibleBoardList). See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct BoardList {
    us: Color,
    rules: RuleSet,
    /// The side to move in every board of the set.
    to_move: Color,
    complete: bool,
    boards: Vec<Position>,
    /// How likely each board is, relative to the others (one per board).
    weights: Vec<f64>,
    next: Vec<Position>,
    next_weights: Vec<f64>,
    moves: Vec<Move>,
    /// The opponent model's weights of `moves` (empty without a model).
    move_weights: Vec<f64>,
    keys: KeySet,
    /// One parent's consistent children, in move order: the child, its key and its move's
    /// index, then whether its key was new (see [`BoardList::expand`]).
    batch: Vec<(Position, u64, usize, bool)>,
    stats: Stats,
}

impl BoardList {
    /// The belief of side `us` before a game from the standard start position: that
    /// position only, White to move (see [`BoardList::from_start`]).
    pub fn new(us: Color, rules: RuleSet) -> Self {
        BoardList::from_start(us, rules, Position::startpos())
    }

    /// The belief of side `us` before a game from `start` (public knowledge, like the
    /// standard start): that position only, its side to move to move. When the opponent
    /// moves first, the first [`BoardList::update`] expands its move; when we do, it
    /// expands nothing.
    ///
    /// ```
    /// use fow_players::belief::board_list::{BoardList, Status};
    /// use fow_variants::{Color, Observation, Position, RuleSet};
    ///
    /// let rules = RuleSet::thesis();
    /// let start: Position = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1".parse().unwrap();
    /// let mut list = BoardList::from_start(Color::White, rules, start.clone());
    /// assert_eq!(list.to_move(), Color::Black);
    /// // Black moves first, its king hidden in the fog from White.
    /// let mut pos = start;
    /// let m = pos.parse_uci("e8d7", &rules).unwrap();
    /// pos.play(&m);
    /// let up = list.update(&Observation::new(&pos, &rules, 1, None), None, 100);
    /// assert_eq!(up.status, Status::Exact);
    /// assert!(list.len() > 1 && list.contains(&pos));
    /// ```
    pub fn from_start(us: Color, rules: RuleSet, start: Position) -> Self {
        BoardList {
            us,
            rules,
            to_move: start.turn(),
            complete: true,
            boards: vec![start],
            weights: vec![1.0],
            next: Vec::new(),
            next_weights: Vec::new(),
            moves: Vec::with_capacity(128),
            move_weights: Vec::with_capacity(128),
            keys: KeySet::default(),
            batch: Vec::with_capacity(128),
            stats: Stats::default(),
        }
    }

    /// The side whose belief this is.
    #[inline]
    pub fn color(&self) -> Color {
        self.us
    }

    /// The rules the boards are played under.
    #[inline]
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The side to move in every board of the set: `us` once the opponent's move has been
    /// taken in, the opponent after our own move.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// The boards, in a deterministic order (order of first appearance).
    #[inline]
    pub fn boards(&self) -> &[Position] {
        &self.boards
    }

    /// How likely each board is relative to the others, one per board of
    /// [`BoardList::boards`]: with [`Prior::Carried`], the product of the opponent
    /// model's probabilities of the moves that led to it (as a priority sample's
    /// estimate once the set was sampled), the largest 1; with [`Prior::Tracked`], that
    /// product without the estimate; otherwise 1 for every board.
    #[inline]
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// The number of boards.
    #[inline]
    pub fn len(&self) -> usize {
        self.boards.len()
    }

    /// Whether no board is left.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.boards.is_empty()
    }

    /// Whether the set is known to hold every consistent position: true from
    /// [`BoardList::new`] or [`BoardList::from_start`] until an overflow or a [`BoardList::replace`].
    #[inline]
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// Whether a board equal to `pos` for repetition (same [`Position::repetition_key`])
    /// is in the set. Linear in the set's size.
    pub fn contains(&self, pos: &Position) -> bool {
        let key = pos.repetition_key(&self.rules);
        self.boards
            .iter()
            .any(|b| b.repetition_key(&self.rules) == key)
    }

    /// The cumulative counters.
    #[inline]
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Replaces the set by `boards` (the caller's fallback, for example guessed boards
    /// after an overflow). They must all have the same side to move; from then on the set
    /// is not [complete](BoardList::is_complete). Duplicates are not removed here.
    ///
    /// # Panics
    ///
    /// If the boards do not all have the same side to move.
    pub fn replace(&mut self, boards: Vec<Position>) {
        if let Some(first) = boards.first() {
            let turn = first.turn();
            assert!(
                boards.iter().all(|b| b.turn() == turn),
                "BoardList::replace: boards with different sides to move"
            );
            self.to_move = turn;
        }
        self.weights = vec![1.0; boards.len()];
        self.boards = boards;
        self.complete = false;
    }

    /// Step 1: plays our own move `m` on every board and keeps the boards on which `us`
    /// sees exactly `seen` afterwards (`seen` is what the next observation's
    /// [`Observation::previous`] holds). Returns the number of boards kept.
    ///
    /// `m` must be legal for the view the boards agree with (then it is legal on each of
    /// them); a board where `m` does not fit (another piece on its origin, another capture)
    /// is dropped.
    ///
    /// # Panics
    ///
    /// If it is not our turn in the set (see [`BoardList::to_move`]).
    pub fn after_own_move(&mut self, m: &Move, seen: &FogView) -> usize {
        assert_eq!(
            self.to_move, self.us,
            "BoardList::after_own_move: not our turn in the set"
        );
        debug_assert_eq!(seen.color(), self.us);
        let us = self.us;
        let rules = self.rules;
        let mut kept = 0;
        for i in 0..self.boards.len() {
            let b = &mut self.boards[i];
            if !move_fits(b.board(), m, us) {
                continue;
            }
            b.play(m);
            if matches(b, us, seen, &rules) {
                self.boards.swap(kept, i);
                self.weights.swap(kept, i);
                kept += 1;
            }
        }
        self.boards.truncate(kept);
        self.weights.truncate(kept);
        self.to_move = !us;
        kept
    }

    /// Step 2: replaces every board by its children under every opponent move, keeping
    /// the children on which `us` sees exactly `now`, without duplicates (by
    /// [`Position::repetition_key`], keeping the first in generation order). Stops with
    /// [`Status::Overflow`] as soon as more than `cap` children are kept, leaving the
    /// first `cap`.
    ///
    /// # Panics
    ///
    /// If it is not the opponent's turn in the set (see [`BoardList::to_move`]).
    pub fn after_opponent_move(&mut self, now: &FogView, cap: usize) -> Update {
        let (parents, children, stopped) =
            self.expand(now, &mut Unweighted, |next, weights, child, w, _| {
                next.push(child);
                weights.push(w);
                next.len() > cap
            });
        if stopped {
            self.boards.truncate(cap);
            self.weights.truncate(cap);
        }
        self.report(stopped.then_some(Status::Overflow), parents, children)
    }

    /// Step 2 as [`BoardList::after_opponent_move`], but every parent is expanded and,
    /// when more than `keep` distinct children fit the view, a uniform random sample of
    /// `keep` of them (reservoir sampling with `rng`) is kept and the update reports
    /// [`Status::Sampled`]: a smaller set of boards that are all consistent, instead of
    /// the first ones found.
    ///
    /// # Panics
    ///
    /// If it is not the opponent's turn in the set (see [`BoardList::to_move`]), or `keep`
    /// is 0.
    pub fn after_opponent_move_sampled(
        &mut self,
        now: &FogView,
        keep: usize,
        rng: &mut impl Rng,
    ) -> Update {
        assert!(keep > 0, "BoardList::after_opponent_move_sampled: keep 0");
        let mut seen = 0u64;
        let (parents, children, _) =
            self.expand(now, &mut Unweighted, |next, weights, child, w, _| {
                seen += 1;
                if next.len() < keep {
                    next.push(child);
                    weights.push(w);
                } else {
                    let j = rng.random_range(0..seen);
                    if j < keep as u64 {
                        next[j as usize] = child;
                        weights[j as usize] = w;
                    }
                }
                false
            });
        let cut = (seen > keep as u64).then_some(Status::Sampled);
        self.report(cut, parents, children)
    }

    /// Step 2 as [`BoardList::after_opponent_move_sampled`], but the sample is weighted
    /// by `model`, the probability it gives the move that made each consistent child on
    /// its parent, and when more than `keep` children fit, `keep` of them are drawn
    /// without replacement (with `rng`), as `prior` says:
    ///
    /// - [`Prior::Flat`]: parents count alike (the set it starts from is taken as a
    ///   sample already drawn by likelihood), a child weighs its move's probability, and
    ///   the `keep` are drawn in proportion to these weights (Efraimidis and Spirakis's
    ///   A-Res: the `keep` largest keys `ln(u) / w`, with `u` uniform). Every board kept
    ///   then weighs 1.
    /// - [`Prior::Carried`]: a child weighs its parent's weight times its move's
    ///   probability (Bayes' rule: the belief is a distribution over boards), and the
    ///   `keep` are a priority sample (Duffield, Lund and Thorup: the largest keys `w /
    ///   u`), each kept board then weighing `max(w, τ)`, `τ` the largest key not kept, an
    ///   unbiased estimate of the weight it stands for (see [`super::sampling`]). The
    ///   weights are scaled so that the largest is 1.
    /// - [`Prior::Tracked`]: drawn as with [`Prior::Flat`], weighted as with
    ///   [`Prior::Carried`] but without the threshold.
    ///
    /// A child reached from two parents keeps the weight of the first. When all fit, all
    /// are kept.
    ///
    /// # Panics
    ///
    /// As [`BoardList::after_opponent_move_sampled`].
    pub fn after_opponent_move_weighted(
        &mut self,
        now: &FogView,
        keep: usize,
        rng: &mut impl Rng,
        model: &mut impl OpponentModel,
        prior: Prior,
    ) -> Update {
        assert!(keep > 0, "BoardList::after_opponent_move_weighted: keep 0");
        let mut top = TopKeys::new(keep);
        let (parents, children, _) = self.expand(now, model, |next, weights, child, parent, m| {
            let (w, key) = match prior {
                Prior::Flat => (1.0, a_res_key(m, rng)),
                Prior::Carried => {
                    let w = parent * m;
                    (w, priority_key(w, rng))
                }
                Prior::Tracked => (parent * m, a_res_key(m, rng)),
            };
            if let Some(slot) = top.offer(key) {
                if slot == next.len() {
                    next.push(child);
                    weights.push(w);
                } else {
                    next[slot] = child;
                    weights[slot] = w;
                }
            }
            false
        });
        if let (Prior::Carried, Some(tau)) = (prior, top.threshold()) {
            self.weights.iter_mut().for_each(|w| *w = w.max(tau));
        }
        if prior != Prior::Flat {
            self.normalize();
        }
        let cut = top.cut().then_some(Status::Sampled);
        self.report(cut, parents, children)
    }

    /// Scales the weights so that the largest is 1, none below the smallest positive
    /// number (a board kept is consistent, however unlikely), all 1 when none is positive.
    fn normalize(&mut self) {
        let largest = self.weights.iter().copied().fold(0.0, f64::max);
        if largest > 0.0 && largest.is_finite() {
            self.weights
                .iter_mut()
                .for_each(|w| *w = (*w / largest).max(f64::MIN_POSITIVE));
        } else {
            self.weights.iter_mut().for_each(|w| *w = 1.0);
        }
    }

    /// The update a step 2 ends with: `cut` (the set left incomplete) when some boards
    /// were dropped, else empty or exact.
    fn report(&mut self, cut: Option<Status>, parents: usize, children: u64) -> Update {
        let status = match cut {
            Some(status) => {
                self.complete = false;
                status
            }
            None if self.boards.is_empty() => Status::Empty,
            None => Status::Exact,
        };
        Update {
            status,
            parents,
            children,
            kept: self.boards.len(),
        }
    }

    /// The expansion shared by the step 2s: every consistent child, once each, is handed
    /// to `push` with the next set and its weights, its parent's weight and the weight
    /// `model` gives its move (1 when the model writes none), until `push` says stop.
    /// Swaps the next set and weights in and returns the parents expanded, the children
    /// generated and whether `push` stopped it.
    fn expand(
        &mut self,
        now: &FogView,
        model: &mut impl OpponentModel,
        mut push: impl FnMut(&mut Vec<Position>, &mut Vec<f64>, Position, f64, f64) -> bool,
    ) -> (usize, u64, bool) {
        assert_eq!(
            self.to_move, !self.us,
            "BoardList::after_opponent_move: not the opponent's turn in the set"
        );
        debug_assert_eq!(now.color(), self.us);
        let us = self.us;
        let them = !us;
        let rules = self.rules;
        let vis = now.visible();
        let now_board = now.board();
        let now_ours = now.ours();

        self.next.clear();
        self.next_weights.clear();
        self.keys.clear();
        let mut parents = 0usize;
        let mut children = 0u64;
        let mut played = 0u64;
        let mut stopped = false;

        'parents: for (parent, &parent_weight) in self.boards.iter().zip(&self.weights) {
            parents += 1;
            self.moves.clear();
            parent.source(them, &rules).push_moves(&mut self.moves);
            children += self.moves.len() as u64;
            // The model weighs the parent's moves once it has a consistent child.
            let mut weighed = false;

            let pb = parent.board();
            // Our pieces the opponent's move must have taken: none or exactly one.
            let lost = pb.by_color(us) ^ now_ours;
            if lost.count() > 1 || (lost & !pb.by_color(us)).any() {
                continue;
            }
            // Visible squares whose content differs: the move must touch them all.
            let differ = mismatch(pb, now_board, vis);

            // The consistent children first, then their keys into the set in one tight
            // loop, in the same order: in a large set each lookup is a cache miss, and
            // independent ones in a row overlap (half the update's time at keep=100000;
            // results/bench/HISTORY.md, 2026-11-26).
            self.batch.clear();
            for (i, m) in self.moves.iter().enumerate() {
                if !move_may_match(m, them, lost, differ, vis, now_board) {
                    continue;
                }
                played += 1;
                let mut child = parent.clone();
                child.play(m);
                if matches(&child, us, now, &rules) {
                    let key = child.repetition_key(&rules);
                    self.batch.push((child, key, i, false));
                }
            }
            for entry in self.batch.iter_mut() {
                entry.3 = self.keys.insert(entry.1);
            }
            for (child, _, i, new) in self.batch.drain(..) {
                if !new {
                    continue;
                }
                if !weighed {
                    self.move_weights.clear();
                    model.weigh(parent, &self.moves, &mut self.move_weights);
                    weighed = true;
                }
                let weight = self.move_weights.get(i).copied().unwrap_or(1.0);
                if push(
                    &mut self.next,
                    &mut self.next_weights,
                    child,
                    parent_weight,
                    weight,
                ) {
                    stopped = true;
                    break 'parents;
                }
            }
        }

        self.stats.expanded += parents as u64;
        self.stats.children += children;
        self.stats.played += played;
        self.stats.kept += self.next.len() as u64;
        std::mem::swap(&mut self.boards, &mut self.next);
        std::mem::swap(&mut self.weights, &mut self.next_weights);
        self.next.clear();
        self.next_weights.clear();
        self.to_move = us;
        (parents, children, stopped)
    }

    /// Both steps from what a bot is given on its turn: step 1 with `last_own_move` and
    /// `obs.previous()` when it is not our turn in the set yet, then step 2 with
    /// `obs.view()` when the opponent has moved since (every turn but the first turn of the
    /// side that moves first: White from the standard start).
    ///
    /// Without a step 2 the update reports [`Status::Exact`] (or [`Status::Empty`] when
    /// step 1 left nothing) with no children.
    ///
    /// # Panics
    ///
    /// If step 1 is due (the set is at our turn after an earlier call) but
    /// `last_own_move` or `obs.previous()` is missing, or `obs` is not ours.
    pub fn update(
        &mut self,
        obs: &Observation,
        last_own_move: Option<&Move>,
        cap: usize,
    ) -> Update {
        self.update_with(obs, last_own_move, |list, now| {
            list.after_opponent_move(now, cap)
        })
    }

    /// [`BoardList::update`] with [`BoardList::after_opponent_move_sampled`] as step 2:
    /// at most `keep` boards, a uniform random sample (drawn with `rng`) when more fit.
    ///
    /// # Panics
    ///
    /// As [`BoardList::update`], or if `keep` is 0.
    pub fn update_sampled(
        &mut self,
        obs: &Observation,
        last_own_move: Option<&Move>,
        keep: usize,
        rng: &mut impl Rng,
    ) -> Update {
        self.update_with(obs, last_own_move, |list, now| {
            list.after_opponent_move_sampled(now, keep, rng)
        })
    }

    /// [`BoardList::update`] with [`BoardList::after_opponent_move_weighted`] as step 2:
    /// at most `keep` boards, drawn (with `rng`) in proportion to how likely `model`
    /// makes each when more fit, earlier turns' weights carried or not as `prior` says.
    ///
    /// # Panics
    ///
    /// As [`BoardList::update`], or if `keep` is 0.
    pub fn update_weighted(
        &mut self,
        obs: &Observation,
        last_own_move: Option<&Move>,
        keep: usize,
        rng: &mut impl Rng,
        model: &mut impl OpponentModel,
        prior: Prior,
    ) -> Update {
        self.update_with(obs, last_own_move, |list, now| {
            list.after_opponent_move_weighted(now, keep, rng, model, prior)
        })
    }

    fn update_with(
        &mut self,
        obs: &Observation,
        last_own_move: Option<&Move>,
        step2: impl FnOnce(&mut Self, &FogView) -> Update,
    ) -> Update {
        assert_eq!(
            obs.color(),
            self.us,
            "BoardList::update: another side's observation"
        );
        if self.to_move == self.us {
            if let Some(m) = last_own_move {
                let seen = obs
                    .previous()
                    .expect("BoardList::update: an own move without a previous view");
                self.after_own_move(m, seen);
            }
        }
        if self.to_move != self.us {
            if self.is_empty() {
                self.to_move = self.us;
            } else {
                return step2(self, obs.view());
            }
        }
        Update {
            status: if self.is_empty() {
                Status::Empty
            } else {
                Status::Exact
            },
            parents: 0,
            children: 0,
            kept: self.len(),
        }
    }
}

/// Whether our move `m` can be played on `board`: our piece of its role on its origin,
/// and what it captures where it captures it.
#[inline]
fn move_fits(board: &Board, m: &Move, us: Color) -> bool {
    if board.piece_at(m.from) != Some(m.role.of(us)) {
        return false;
    }
    match (m.capture_square(), m.capture) {
        (Some(sq), Some(role)) => board.piece_at(sq) == Some(role.of(!us)),
        _ => m.kind == MoveKind::Castle || !board.occupied().contains(m.to),
    }
}

/// The squares of `vis` whose content (colour and role) on `board` differs from `seen`
/// (a view's board, empty outside `vis`).
#[inline]
fn mismatch(board: &Board, seen: &Board, vis: Bitboard) -> Bitboard {
    let mut d = board.white() ^ seen.white();
    for role in Role::ALL {
        d |= board.by_role(role) ^ seen.by_role(role);
    }
    d & vis
}

/// Cheap necessary conditions for the opponent's move `m` to lead to the view whose board
/// is `seen` with visible squares `vis`, given our pieces `lost` since the parent and the
/// visible squares `differ` where the parent differs from the view.
#[inline]
fn move_may_match(
    m: &Move,
    them: Color,
    lost: Bitboard,
    differ: Bitboard,
    vis: Bitboard,
    seen: &Board,
) -> bool {
    // It captures exactly the piece we lost (every capture takes one of ours).
    match m.capture_square() {
        Some(sq) => {
            if lost != Bitboard::from(sq) {
                return false;
            }
        }
        None => {
            if lost.any() {
                return false;
            }
        }
    }
    let mut touched = Bitboard::from(m.from) | Bitboard::from(m.to) | lost;
    if m.kind == MoveKind::Castle {
        touched |= Bitboard::from_rank(m.from.rank());
    }
    if (differ & !touched).any() {
        return false;
    }
    // Where visible, the origin is empty and the destination holds the moved piece.
    if vis.contains(m.from) && seen.occupied().contains(m.from) {
        return false;
    }
    if vis.contains(m.to) && seen.piece_at(m.to) != Some(m.promotion.unwrap_or(m.role).of(them)) {
        return false;
    }
    true
}

/// Whether `us` sees exactly `view` in `pos`: `FogView::of(pos, us, rules) == *view`,
/// checked from the cheapest part on and with one visibility walk.
#[inline]
fn matches(pos: &Position, us: Color, view: &FogView, rules: &RuleSet) -> bool {
    let b = pos.board();
    if b.by_color(us) != view.ours() {
        return false;
    }
    let vis = view.visible();
    if mismatch(b, view.board(), vis).any() {
        return false;
    }
    if pos.castling_rights() & Bitboard::from_rank(us.backrank()) != view.castling_rights() {
        return false;
    }
    let (seen, ep) = pos.source(us, rules).visibility();
    let ok = seen == vis && ep == view.ep_square();
    debug_assert_eq!(ok, FogView::of(pos, us, rules) == *view);
    ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;
    use std::collections::BTreeSet;

    /// A random legal move that does not capture a king (so that the game goes on).
    fn random_move(pos: &Position, rules: &RuleSet, rng: &mut Pcg64Mcg) -> Move {
        try_random_move(pos, rules, rng).expect("a move that does not capture a king")
    }

    /// [`random_move`], or `None` when every legal move captures a king (or there is none).
    fn try_random_move(pos: &Position, rules: &RuleSet, rng: &mut Pcg64Mcg) -> Option<Move> {
        let moves: Vec<Move> = pos
            .legal_moves(rules)
            .into_iter()
            .filter(|m| !m.captures_king())
            .collect();
        (!moves.is_empty()).then(|| moves[rng.random_range(0..moves.len())])
    }

    /// Non-standard starts: Black to move with castling rights and odd development, a
    /// bare pawn ending with White to move, and the same ending with Black to move.
    const STARTS: [&str; 3] = [
        "r3k2r/ppp2ppp/2n5/3pp3/8/2N2N2/PPPP1PPP/R1B1K2R b KQkq - 0 7",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1",
    ];

    /// What happened in a game, from `us`'s side.
    #[derive(Clone, Debug)]
    enum Event {
        /// `us` looks at the board (before or after its own move).
        Observe,
        /// `us` plays this move.
        Own(Move),
        /// The opponent moves.
        Opponent,
    }

    /// Plays a random game of `opp_moves` opponent moves (ending at our turn) from the
    /// standard start, keeping a [`BoardList`] up to date with [`BoardList::update`].
    /// Returns the events, the views seen at each `Observe`, the final true position and
    /// the list.
    fn play_game(
        us: Color,
        rules: RuleSet,
        opp_moves: usize,
        seed: u64,
        cap: usize,
    ) -> (Vec<Event>, Vec<FogView>, Position, BoardList) {
        play_game_from(&Position::startpos(), us, rules, opp_moves, seed, cap)
    }

    /// [`play_game`] from `start`, the list made with [`BoardList::from_start`].
    fn play_game_from(
        start: &Position,
        us: Color,
        rules: RuleSet,
        opp_moves: usize,
        seed: u64,
        cap: usize,
    ) -> (Vec<Event>, Vec<FogView>, Position, BoardList) {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut pos = start.clone();
        let mut list = BoardList::from_start(us, rules, start.clone());
        let mut events = Vec::new();
        let mut views = Vec::new();
        let mut previous: Option<FogView> = None;
        let mut last_own: Option<Move> = None;
        let mut done = 0;
        let mut ply = 0;
        loop {
            if pos.turn() == us {
                let obs = Observation::new(&pos, &rules, ply, previous.clone());
                let up = list.update(&obs, last_own.as_ref(), cap);
                assert_eq!(up.status, Status::Exact, "seed {seed}: {up:?}");
                assert!(list.contains(&pos), "seed {seed}: true position lost");
                events.push(Event::Observe);
                views.push(obs.view().clone());
                if done == opp_moves {
                    return (events, views, pos, list);
                }
                let m = random_move(&pos, &rules, &mut rng);
                pos.play(&m);
                events.push(Event::Own(m));
                events.push(Event::Observe);
                let after = FogView::of(&pos, us, &rules);
                views.push(after.clone());
                previous = Some(after);
                last_own = Some(m);
            } else {
                let m = random_move(&pos, &rules, &mut rng);
                pos.play(&m);
                events.push(Event::Opponent);
                done += 1;
            }
            ply += 1;
        }
    }

    /// Every final position reachable by any opponent moves (ours as played) whose views
    /// at every observation point equal `views`: no pruning before the end of the path.
    fn brute_force(
        pos: &Position,
        events: &[Event],
        us: Color,
        rules: &RuleSet,
        path: &mut Vec<FogView>,
        views: &[FogView],
        out: &mut BTreeSet<u64>,
    ) {
        let Some((first, rest)) = events.split_first() else {
            if path.as_slice() == views {
                out.insert(pos.repetition_key(rules));
            }
            return;
        };
        match first {
            Event::Observe => {
                path.push(FogView::of(pos, us, rules));
                brute_force(pos, rest, us, rules, path, views, out);
                path.pop();
            }
            Event::Own(m) => {
                // Our move must be playable here (it is wherever the views agree).
                if pos.legal_moves(rules).contains(m) {
                    let mut child = pos.clone();
                    child.play(m);
                    brute_force(&child, rest, us, rules, path, views, out);
                }
            }
            Event::Opponent => {
                for m in pos.legal_moves(rules) {
                    let mut child = pos.clone();
                    child.play(&m);
                    brute_force(&child, rest, us, rules, path, views, out);
                }
            }
        }
    }

    fn keys(list: &BoardList) -> Vec<u64> {
        list.boards()
            .iter()
            .map(|b| b.repetition_key(list.rules()))
            .collect()
    }

    /// Checks a played game's board list against the brute-force enumeration from
    /// `start`: no duplicates, the same set, the true position in it, every board showing
    /// the last view with `us` to move. Returns the list's size.
    fn matches_enumeration(
        start: &Position,
        (events, views, pos, list): &(Vec<Event>, Vec<FogView>, Position, BoardList),
        us: Color,
        rules: &RuleSet,
        label: &str,
    ) -> usize {
        let mut expected = BTreeSet::new();
        brute_force(
            start,
            events,
            us,
            rules,
            &mut Vec::new(),
            views,
            &mut expected,
        );
        let got = keys(list);
        let got_set: BTreeSet<u64> = got.iter().copied().collect();
        assert_eq!(got.len(), got_set.len(), "{label}: duplicates");
        assert_eq!(got_set, expected, "{label}");
        assert!(expected.contains(&pos.repetition_key(rules)));
        for b in list.boards() {
            assert_eq!(&FogView::of(b, us, rules), views.last().unwrap());
            assert_eq!(b.turn(), us);
        }
        list.len()
    }

    #[test]
    fn matches_brute_force_enumeration() {
        let mut sizes = Vec::new();
        for (r, rules) in [RuleSet::thesis(), RuleSet::chesscom()]
            .into_iter()
            .enumerate()
        {
            for us in Color::ALL {
                for game in 0..3u64 {
                    let seed = 1000 * r as u64 + 100 * us as u64 + game;
                    let depth = if game == 0 { 4 } else { 3 };
                    let game = play_game(us, rules, depth, seed, 1 << 20);
                    let label = format!("seed {seed} {us:?} {}", rules.name());
                    sizes.push(matches_enumeration(
                        &Position::startpos(),
                        &game,
                        us,
                        &rules,
                        &label,
                    ));
                }
            }
        }
        // The sets are not all trivial.
        assert!(sizes.iter().any(|&n| n > 10), "{sizes:?}");
    }

    #[test]
    fn matches_brute_force_enumeration_from_other_starts() {
        let mut sizes = Vec::new();
        for (k, fen) in STARTS.iter().enumerate() {
            let start: Position = fen.parse().unwrap();
            for (r, rules) in [RuleSet::thesis(), RuleSet::chesscom()]
                .into_iter()
                .enumerate()
            {
                for us in Color::ALL {
                    for game in 0..2u64 {
                        let seed = 5000 + 100 * k as u64 + 10 * r as u64 + 2 * us as u64 + game;
                        let game = play_game_from(&start, us, rules, 3, seed, 1 << 20);
                        assert!(game.3.is_complete());
                        let label = format!("{fen} seed {seed} {us:?} {}", rules.name());
                        sizes.push(matches_enumeration(&start, &game, us, &rules, &label));
                    }
                }
            }
        }
        assert!(sizes.iter().any(|&n| n > 10), "{sizes:?}");
    }

    #[test]
    fn the_first_update_from_a_start_expands_only_a_first_opponent_move() {
        let rules = RuleSet::chesscom();
        for fen in STARTS {
            let start: Position = fen.parse().unwrap();
            let first = start.turn();
            for us in Color::ALL {
                let mut list = BoardList::from_start(us, rules, start.clone());
                assert_eq!(list.to_move(), first);
                assert_eq!(list.boards(), std::slice::from_ref(&start));
                assert!(list.is_complete());
                let mut pos = start.clone();
                let mut ply = 0;
                if first != us {
                    // The opponent moves first: our first update expands its move.
                    let m = start.legal_moves(&rules)[0];
                    pos.play(&m);
                    ply = 1;
                }
                let obs = Observation::new(&pos, &rules, ply, None);
                let up = list.update(&obs, None, 1 << 20);
                assert_eq!(up.status, Status::Exact, "{fen} {us:?}");
                assert_eq!(list.to_move(), us);
                assert!(list.contains(&pos), "{fen} {us:?}");
                if first == us {
                    assert_eq!((up.parents, up.children), (0, 0), "{fen} {us:?}");
                    assert_eq!(list.boards(), std::slice::from_ref(&start));
                } else {
                    assert_eq!(up.parents, 1, "{fen} {us:?}");
                    assert_eq!(up.children, start.legal_moves(&rules).len() as u64);
                }
            }
        }
    }

    #[test]
    fn the_list_stays_complete_and_true_in_random_games_from_other_starts() {
        let mut largest = 0;
        for (k, fen) in STARTS.iter().enumerate() {
            let start: Position = fen.parse().unwrap();
            for (r, rules) in [RuleSet::thesis(), RuleSet::chesscom()]
                .into_iter()
                .enumerate()
            {
                for us in Color::ALL {
                    for game in 0..2u64 {
                        let seed = 700 + 100 * k as u64 + 10 * r as u64 + 2 * us as u64 + game;
                        let mut rng = Pcg64Mcg::seed_from_u64(seed);
                        let mut pos = start.clone();
                        let mut list = BoardList::from_start(us, rules, start.clone());
                        let mut previous: Option<FogView> = None;
                        let mut last_own: Option<Move> = None;
                        // The sets of the rich start grow past 100,000 boards by ply 12.
                        let plies = if start.board().occupied().count() > 8 {
                            10
                        } else {
                            30
                        };
                        for ply in 0..plies {
                            if pos.turn() == us {
                                let obs = Observation::new(&pos, &rules, ply, previous.clone());
                                let up = list.update(&obs, last_own.as_ref(), 1 << 20);
                                assert_eq!(up.status, Status::Exact, "{fen} seed {seed} ply {ply}");
                                assert!(list.is_complete());
                                assert!(list.contains(&pos), "{fen} seed {seed} ply {ply}: lost");
                                largest = largest.max(list.len());
                                for b in list.boards().iter().take(50) {
                                    assert_eq!(&FogView::of(b, us, &rules), obs.view());
                                }
                            }
                            let Some(m) = try_random_move(&pos, &rules, &mut rng) else {
                                break;
                            };
                            pos.play(&m);
                            if pos.turn() != us {
                                previous = Some(FogView::of(&pos, us, &rules));
                                last_own = Some(m);
                            }
                        }
                    }
                }
            }
        }
        assert!(
            largest > 1,
            "the set never held more than the true position"
        );
    }

    #[test]
    fn true_position_survives_long_games() {
        let cap = 3000;
        let mut largest = 0;
        let mut overflows = 0;
        for (r, rules) in [RuleSet::thesis(), RuleSet::chesscom()]
            .into_iter()
            .enumerate()
        {
            for us in Color::ALL {
                let seed = 77 + 10 * r as u64 + us as u64;
                let mut rng = Pcg64Mcg::seed_from_u64(seed);
                let mut pos = Position::startpos();
                let mut list = BoardList::new(us, rules);
                let mut previous: Option<FogView> = None;
                let mut last_own: Option<Move> = None;
                for ply in 0..30 {
                    if pos.turn() == us {
                        let obs = Observation::new(&pos, &rules, ply, previous.clone());
                        let up = list.update(&obs, last_own.as_ref(), cap);
                        assert_ne!(up.status, Status::Empty, "seed {seed} ply {ply}");
                        if up.status == Status::Overflow {
                            // The caller's fallback: the boards found so far plus the
                            // true one (a bot would add guesses instead).
                            overflows += 1;
                            assert_eq!(list.len(), cap);
                            let mut boards = list.boards().to_vec();
                            if !list.contains(&pos) {
                                boards.push(pos.clone());
                            }
                            list.replace(boards);
                        }
                        assert!(list.contains(&pos), "seed {seed} ply {ply}: lost");
                        largest = largest.max(list.len());
                        for b in list.boards().iter().take(50) {
                            assert_eq!(&FogView::of(b, us, &rules), obs.view());
                        }
                    }
                    let m = random_move(&pos, &rules, &mut rng);
                    pos.play(&m);
                    if pos.turn() != us {
                        previous = Some(FogView::of(&pos, us, &rules));
                        last_own = Some(m);
                    }
                }
            }
        }
        assert!(
            largest > 1,
            "the set never held more than the true position"
        );
        eprintln!("largest set {largest}, overflows {overflows}");
    }

    /// Black's first observation after 1. Nf3: none of White's 20 first moves can be seen.
    fn after_a_hidden_first_move() -> (RuleSet, Observation) {
        let rules = RuleSet::thesis();
        let mut pos = Position::startpos();
        let m = pos.parse_uci("g1f3", &rules).unwrap();
        pos.play(&m);
        let obs = Observation::new(&pos, &rules, 1, None);
        (rules, obs)
    }

    #[test]
    fn overflow_and_empty_are_reported() {
        let (rules, obs) = after_a_hidden_first_move();
        for (cap, status, len) in [
            (1000, Status::Exact, 20),
            (20, Status::Exact, 20),
            (19, Status::Overflow, 19),
            (3, Status::Overflow, 3),
        ] {
            let mut list = BoardList::new(Color::Black, rules);
            let up = list.update(&obs, None, cap);
            assert_eq!(up.status, status, "cap {cap}");
            assert_eq!(list.len(), len, "cap {cap}");
            assert_eq!(up.kept, len);
            assert_eq!(list.is_complete(), status == Status::Exact);
            assert_eq!(list.to_move(), Color::Black);
        }
        // A set without the true history empties: after 1. e4 d5 2. Nc3 Black sees d4
        // empty, while every child of 1. d4 d5 keeps a White pawn on d4.
        let mut truth = Position::startpos();
        for uci in ["e2e4", "d7d5", "b1c3"] {
            let m = truth.parse_uci(uci, &rules).unwrap();
            truth.play(&m);
        }
        let mut wrong = Position::startpos();
        for uci in ["d2d4", "d7d5"] {
            let m = wrong.parse_uci(uci, &rules).unwrap();
            wrong.play(&m);
        }
        let mut list = BoardList::new(Color::Black, rules);
        list.replace(vec![wrong]);
        assert!(!list.is_complete());
        let obs = Observation::new(&truth, &rules, 3, None);
        let up = list.update(&obs, None, 100);
        assert_eq!(up.status, Status::Empty);
        assert_eq!(up.parents, 1);
        assert!(up.children > 20);
        assert!(list.is_empty());
    }

    /// The repetition keys of the boards of `list`.
    fn key_set(list: &BoardList) -> BTreeSet<u64> {
        let rules = *list.rules();
        list.boards()
            .iter()
            .map(|b| b.repetition_key(&rules))
            .collect()
    }

    /// How often each board is kept by `draw(seed)` over 400 seeds, each draw checked:
    /// a sample of 5 distinct boards out of `all`, the same for the same seed.
    fn times_kept(
        all: &BTreeSet<u64>,
        draw: impl Fn(u64) -> (Status, BoardList),
    ) -> std::collections::BTreeMap<u64, u32> {
        let mut times = std::collections::BTreeMap::new();
        for seed in 0..400 {
            let (status, list) = draw(seed);
            assert_eq!(status, Status::Sampled);
            assert!(!list.is_complete());
            let keys = key_set(&list);
            assert_eq!(keys.len(), 5);
            assert!(keys.is_subset(all));
            assert_eq!(list.boards(), draw(seed).1.boards(), "seeded");
            for k in keys {
                *times.entry(k).or_insert(0u32) += 1;
            }
        }
        times
    }

    #[test]
    fn a_sampled_update_keeps_a_uniform_sample_of_the_consistent_boards() {
        let (rules, obs) = after_a_hidden_first_move();
        let mut full = BoardList::new(Color::Black, rules);
        assert_eq!(full.update(&obs, None, 1000).status, Status::Exact);
        let all = key_set(&full);
        assert_eq!(all.len(), 20);
        let sampled = |keep: usize, seed: u64| {
            let mut list = BoardList::new(Color::Black, rules);
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let up = list.update_sampled(&obs, None, keep, &mut rng);
            assert_eq!(up.kept, list.len());
            assert_eq!(list.to_move(), Color::Black);
            (up.status, list)
        };
        // Room for all: the exact set, in the same order.
        for keep in [20, 1000] {
            let (status, list) = sampled(keep, 1);
            assert_eq!(status, Status::Exact);
            assert!(list.is_complete());
            assert_eq!(list.boards(), full.boards());
        }
        // Less room: `keep` distinct consistent boards, the same for the same seed, and
        // over many seeds each board about equally often (5 of 20: a quarter of the time).
        let times = times_kept(&all, |seed| sampled(5, seed));
        assert_eq!(times.len(), 20, "every board is sometimes kept");
        // 100 expected of 400; the binomial's standard deviation is 8.7.
        for (k, n) in times {
            assert!((65..=135).contains(&n), "board {k:x} kept {n} times of 400");
        }
    }

    /// A model that makes one move (by UCI) `weight` times as likely as each other one.
    struct Favour(&'static str, f64);

    impl OpponentModel for Favour {
        fn weigh(&mut self, _: &Position, moves: &[Move], weights: &mut Vec<f64>) {
            weights.extend(
                moves
                    .iter()
                    .map(|m| if m.uci() == self.0 { self.1 } else { 1.0 }),
            );
        }
    }

    #[test]
    fn a_weighted_update_keeps_likely_boards_more_often() {
        let (rules, obs) = after_a_hidden_first_move();
        let mut full = BoardList::new(Color::Black, rules);
        full.update(&obs, None, 1000);
        let all = key_set(&full);
        let e4 = {
            let mut pos = Position::startpos();
            pos.play(&pos.parse_uci("e2e4", &rules).unwrap());
            pos.repetition_key(&rules)
        };
        let weighted = |keep: usize, seed: u64| {
            let mut list = BoardList::new(Color::Black, rules);
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let up = list.update_weighted(
                &obs,
                None,
                keep,
                &mut rng,
                &mut Favour("e2e4", 9.0),
                Prior::Flat,
            );
            assert_eq!(up.kept, list.len());
            (up.status, list)
        };
        // Room for all: every board, whatever the weights.
        let (status, list) = weighted(20, 1);
        assert_eq!(status, Status::Exact);
        assert_eq!(key_set(&list), all);
        // 5 of 20, e4 nine times as likely as each other move: drawn without replacement
        // in proportion to the weights, e4 is kept 88.2% of the time (five draws miss it
        // with chance 19/28 x 18/27 x 17/26 x 16/25 x 15/24 = 0.118: 353 of 400 expected,
        // standard deviation 6.5), each other board 21.7%; uniformly each would be 25%.
        let times = times_kept(&all, |seed| weighted(5, seed));
        let e4_times = times[&e4];
        assert!(
            (320..=370).contains(&e4_times),
            "e4 kept {e4_times} times of 400"
        );
        let others: u32 = times
            .iter()
            .filter(|(k, _)| **k != e4)
            .map(|(_, n)| n)
            .sum();
        assert_eq!(others + e4_times, 2000);
    }

    /// The weight of the board of `list` equal to `fen`'s position.
    fn weight_of(list: &BoardList, fen: &str) -> f64 {
        let pos: Position = fen.parse().unwrap();
        let key = pos.repetition_key(list.rules());
        let i = list
            .boards()
            .iter()
            .position(|b| b.repetition_key(list.rules()) == key)
            .unwrap_or_else(|| panic!("{fen} not in the set"));
        list.weights()[i]
    }

    #[test]
    fn a_carried_prior_multiplies_the_move_probabilities_along_each_history() {
        // Black, hidden from White's king in the corner, moves twice; the model makes
        // a7a6 three times as likely as any other move.
        let rules = RuleSet::thesis();
        let start: Position = "k7/p7/8/8/8/8/8/7K b - - 0 1".parse().unwrap();
        let mut list = BoardList::from_start(Color::White, rules, start.clone());
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        let mut pos = start;
        pos.play(&pos.parse_uci("a7a6", &rules).unwrap());
        let obs = Observation::new(&pos, &rules, 1, None);
        let mut model = Favour("a7a6", 3.0);
        let up = list.update_weighted(&obs, None, 100, &mut rng, &mut model, Prior::Carried);
        assert_eq!(up.status, Status::Exact);
        // Four moves (a6, a5, Kb8, Kb7): a6 has 3/6, the others 1/6; the largest is 1.
        assert_eq!(list.len(), 4);
        assert_eq!(weight_of(&list, "k7/8/p7/8/8/8/8/7K w - - 0 1"), 1.0);
        assert!((weight_of(&list, "k7/8/8/p7/8/8/8/7K w - - 0 1") - 1.0 / 3.0).abs() < 1e-12);
        // White's king steps aside and Black plays a6a5. Each child weighs its parent's
        // weight times its move's probability: a4 (by a5, a4: 1/6 x 1/4) is a third as
        // likely as a5 (by a6, a5: 3/6 x 1/4), whatever the order of generation (each is
        // reached one way only); a5 is among the likeliest, so it weighs 1.
        let own = pos.parse_uci("h1g1", &rules).unwrap();
        pos.play(&own);
        let seen = FogView::of(&pos, Color::White, &rules);
        pos.play(&pos.parse_uci("a6a5", &rules).unwrap());
        let obs = Observation::new(&pos, &rules, 3, Some(seen));
        let up = list.update_weighted(&obs, Some(&own), 100, &mut rng, &mut model, Prior::Carried);
        assert_eq!(up.status, Status::Exact);
        assert!(list.contains(&pos));
        let a5 = weight_of(&list, "k7/8/8/p7/8/8/8/6K1 w - - 0 1");
        let a4 = weight_of(&list, "k7/8/8/8/p7/8/8/6K1 w - - 0 1");
        assert_eq!(a5, 1.0);
        assert!((a4 - 1.0 / 3.0).abs() < 1e-12, "{a4}");
        assert!(list.weights().iter().all(|&w| w > 0.0 && w <= 1.0));
        // With a flat prior every board weighs 1.
        let mut flat = BoardList::from_start(
            Color::White,
            rules,
            "k7/p7/8/8/8/8/8/7K b - - 0 1".parse().unwrap(),
        );
        flat.update_weighted(
            &Observation::new(&pos, &rules, 1, None),
            None,
            100,
            &mut rng,
            &mut model,
            Prior::Flat,
        );
        assert!(flat.weights().iter().all(|&w| w == 1.0));
    }

    #[test]
    fn a_carried_sample_gives_its_boards_the_weight_they_stand_for() {
        // 5 of the 20 first moves, e4 nine times as likely as each other: a priority
        // sample. Every board kept but e4 stands for the threshold (the largest key not
        // kept, above its own weight), so all of them weigh the same; e4 weighs at least
        // as much; the largest is 1.
        let (rules, obs) = after_a_hidden_first_move();
        let e4: Position = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
            .parse()
            .unwrap();
        let mut e4_kept = 0;
        for seed in 0..200 {
            let mut list = BoardList::new(Color::Black, rules);
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let up = list.update_weighted(
                &obs,
                None,
                5,
                &mut rng,
                &mut Favour("e2e4", 9.0),
                Prior::Carried,
            );
            assert_eq!(up.status, Status::Sampled);
            assert_eq!(list.len(), 5);
            let key = e4.repetition_key(&rules);
            let mut others = Vec::new();
            let mut e4_weight = None;
            for (b, &w) in list.boards().iter().zip(list.weights()) {
                if b.repetition_key(&rules) == key {
                    e4_weight = Some(w);
                } else {
                    others.push(w);
                }
            }
            assert!(others.iter().all(|&w| w == others[0]), "{others:?}");
            if let Some(w) = e4_weight {
                e4_kept += 1;
                assert!(w >= others[0]);
            }
            let largest = list.weights().iter().copied().fold(0.0, f64::max);
            assert_eq!(largest, 1.0);
        }
        // e4's key 9/28/u beats the fifth largest of 19 keys 1/28/u nearly always.
        assert!(e4_kept > 180, "e4 kept {e4_kept} times of 200");
    }

    #[test]
    fn counters_add_up() {
        let rules = RuleSet::chesscom();
        let (_, _, _, list) = play_game(Color::White, rules, 3, 5, 1 << 20);
        let s = list.stats();
        assert!(s.expanded >= 3, "{s:?}");
        assert!(s.children > s.played && s.played >= s.kept, "{s:?}");
        assert!(s.kept >= list.len() as u64, "{s:?}");
    }

    /// Expansion speed: `cargo test --release -p fow-players --lib board_list::tests::bench
    /// -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn bench_expansion() {
        let mut total = Stats::default();
        let mut secs = 0.0;
        for (r, rules) in [RuleSet::thesis(), RuleSet::chesscom()]
            .into_iter()
            .enumerate()
        {
            for us in Color::ALL {
                for game in 0..5u64 {
                    let seed = 9000 + 100 * r as u64 + 10 * us as u64 + game;
                    let mut rng = Pcg64Mcg::seed_from_u64(seed);
                    let mut pos = Position::startpos();
                    let mut list = BoardList::new(us, rules);
                    let mut previous: Option<FogView> = None;
                    let mut last_own: Option<Move> = None;
                    let mut sizes = Vec::new();
                    let t = std::time::Instant::now();
                    for ply in 0..40 {
                        if pos.turn() == us {
                            let obs = Observation::new(&pos, &rules, ply, previous.clone());
                            let up = list.update(&obs, last_own.as_ref(), 100_000);
                            if up.status != Status::Exact {
                                let mut boards = list.boards().to_vec();
                                boards.push(pos.clone());
                                list.replace(boards);
                            }
                            sizes.push(list.len());
                        }
                        let m = random_move(&pos, &rules, &mut rng);
                        pos.play(&m);
                        if pos.turn() != us {
                            previous = Some(FogView::of(&pos, us, &rules));
                            last_own = Some(m);
                        }
                    }
                    secs += t.elapsed().as_secs_f64();
                    let s = list.stats();
                    total.expanded += s.expanded;
                    total.children += s.children;
                    total.played += s.played;
                    total.kept += s.kept;
                    eprintln!("{} {us:?} seed {seed}: sizes {sizes:?}", rules.name());
                }
            }
        }
        eprintln!(
            "{total:?} in {secs:.2} s: {:.2} M children/s, {:.2} M played/s",
            total.children as f64 / secs / 1e6,
            total.played as f64 / secs / 1e6
        );
    }
}
