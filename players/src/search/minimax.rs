//! [`MyStockfish`]: the thesis's minimax with alpha-beta, capture ordering, the recapture
//! extension, a node counter and optional node and time limits.

use std::time::Instant;

use fow_variants::{Color, Move, Role, RuleSet, Square};

use super::board::SearchBoard;
use super::evaluate::{king_capture, noise, Score};

/// Larger than any value a search can return.
const INF: Score = Score::MAX / 4;

/// When a search must stop early. Node limits are deterministic; a deadline is not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop after visiting this many nodes in all (counted across calls until
    /// [`MyStockfish::reset_nodes`]).
    pub nodes: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
}

/// What [`MyStockfish::run`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best move (`None` when the side has no move).
    pub best: Option<Move>,
    /// Its value, plus for White.
    pub value: Score,
    /// The depth of the last completed search (0 when even depth 1 did not finish).
    pub depth: i32,
}

/// The thesis's MyStockfish, White maximising and Black minimising.
///
/// Search(board, depth, last square) is: if the side to move has no moves, the static
/// value; if it can capture the enemy king, +-[`king_capture`]`(depth)`; at depth <= 0,
/// the static value improved by the side's captures on the last square only (a
/// recapture extension); otherwise the best child value. Alpha-beta with captures first
/// (most valuable victim, then least valuable attacker) returns the same values as
/// [`plain_minimax_all`] while visiting far fewer nodes. The static value's noise term is
/// a pure function of the position and the seed, so the values do not depend on the
/// order of the search.
///
/// ```
/// use fow_players::search::{MyStockfish, SearchBoard};
/// use fow_variants::{Position, RuleSet};
/// let pos: Position = "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1".parse().unwrap();
/// let mut engine = MyStockfish::new(RuleSet::thesis(), 1);
/// let r = engine.run(&SearchBoard::from_position(&pos), 3);
/// assert_eq!(r.best.unwrap().uci(), "e1d2"); // take the queen
/// ```
pub struct MyStockfish {
    rules: RuleSet,
    seed: u64,
    noise: bool,
    nodes: u64,
    limits: Limits,
    stopped: bool,
    buffers: Vec<Vec<Move>>,
    /// At depth <= 0, search every capture instead of the recaptures on the last square.
    all_captures: bool,
}

impl MyStockfish {
    /// An engine for `rules` whose evaluation noise comes from `seed`.
    pub fn new(rules: RuleSet, seed: u64) -> MyStockfish {
        MyStockfish {
            rules,
            seed,
            noise: true,
            nodes: 0,
            limits: Limits::default(),
            stopped: false,
            buffers: Vec::new(),
            all_captures: false,
        }
    }

    /// Extends the search at depth <= 0 by every capture of the side to move (most
    /// valuable victim first), not only by the recaptures on the last move's square: a
    /// full capture quiescence search, in which a king capture still ends the line and
    /// the side to move may stand on the static value. It sees pieces left hanging
    /// anywhere at the horizon, at the cost of more nodes.
    pub fn with_capture_quiescence(mut self) -> MyStockfish {
        self.all_captures = true;
        self
    }

    /// Switches the noise term off (for tests and analysis).
    pub fn without_noise(mut self) -> MyStockfish {
        self.noise = false;
        self
    }

    /// Sets the limits for the following searches and clears the stop flag.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
        self.stopped = false;
    }

    /// Nodes visited since creation or [`MyStockfish::reset_nodes`].
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Sets the node counter to zero and clears the stop flag.
    pub fn reset_nodes(&mut self) {
        self.nodes = 0;
        self.stopped = false;
    }

    /// Whether a limit stopped the last search.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// The static value of `b` with its noise, plus for White.
    #[inline]
    pub fn static_value(&self, b: &SearchBoard) -> Score {
        if self.noise {
            b.value() + noise(b.hash(), self.seed)
        } else {
            b.value()
        }
    }

    /// The best move for the side to move in `b` at `depth` and its value (plus for
    /// White). Under limits it deepens one ply at a time and returns the deepest
    /// completed search (or, when not even depth 1 finished, the best root move found).
    pub fn run(&mut self, b: &SearchBoard, depth: i32) -> SearchResult {
        self.run_among(b, depth, |_| true)
    }

    /// [`MyStockfish::run`] with the root moves restricted to those `keep` accepts (for
    /// a guessed board, the moves the real observation allows).
    pub fn run_among(
        &mut self,
        b: &SearchBoard,
        depth: i32,
        keep: impl Fn(&Move) -> bool,
    ) -> SearchResult {
        let limited = self.limits.nodes.is_some() || self.limits.deadline.is_some();
        let first = if limited { 1 } else { depth.max(1) };
        let mut done = SearchResult {
            best: None,
            value: self.signed(b.turn(), -INF),
            depth: 0,
        };
        for d in first..=depth.max(1) {
            let (best, value) = self.root(b, d, &keep);
            if self.stopped {
                if done.best.is_none() {
                    done.best = best;
                    done.value = self.signed(b.turn(), value);
                }
                break;
            }
            done = SearchResult {
                best,
                value: self.signed(b.turn(), value),
                depth: d,
            };
        }
        done
    }

    /// Every move of the side to move in `b` with its exact value at `depth` (plus for
    /// White), in generation order; `None` when a limit stopped the search.
    pub fn all(&mut self, b: &SearchBoard, depth: i32) -> Option<Vec<(Move, Score)>> {
        let mut moves = Vec::new();
        b.push_moves(&self.rules, &mut moves);
        let mut out = Vec::with_capacity(moves.len());
        for m in moves {
            let v = if m.captures_king() {
                king_capture(depth)
            } else {
                let mut child = b.clone();
                child.play(&m);
                -self.negamax(&child, depth - 1, Some(m.to), -INF, INF, 1)
            };
            if self.stopped {
                return None;
            }
            out.push((m, self.signed(b.turn(), v)));
        }
        Some(out)
    }

    fn signed(&self, turn: Color, v: Score) -> Score {
        if turn.is_white() {
            v
        } else {
            -v
        }
    }

    /// The root of `run`: best move and its value for the side to move.
    fn root(
        &mut self,
        b: &SearchBoard,
        depth: i32,
        keep: &impl Fn(&Move) -> bool,
    ) -> (Option<Move>, Score) {
        let mut moves = self.take_buffer(0);
        b.push_moves(&self.rules, &mut moves);
        moves.retain(keep);
        order(&mut moves);
        let mut best = None;
        let mut alpha = -INF;
        for m in &moves {
            let v = if m.captures_king() {
                king_capture(depth)
            } else {
                let mut child = b.clone();
                child.play(m);
                -self.negamax(&child, depth - 1, Some(m.to), -INF, -alpha, 1)
            };
            if self.stopped {
                break;
            }
            if best.is_none() || v > alpha {
                alpha = v;
                best = Some(*m);
            }
        }
        self.buffers[0] = moves;
        (best, alpha)
    }

    fn take_buffer(&mut self, ply: usize) -> Vec<Move> {
        while self.buffers.len() <= ply {
            self.buffers.push(Vec::with_capacity(64));
        }
        let mut v = std::mem::take(&mut self.buffers[ply]);
        v.clear();
        v
    }

    fn check_limits(&mut self) {
        if let Some(n) = self.limits.nodes {
            if self.nodes >= n {
                self.stopped = true;
            }
        }
        if self.nodes & 1023 == 0 {
            if let Some(t) = self.limits.deadline {
                if Instant::now() >= t {
                    self.stopped = true;
                }
            }
        }
    }

    /// The value of `b` for its side to move (negamax form of the thesis's search).
    fn negamax(
        &mut self,
        b: &SearchBoard,
        depth: i32,
        last: Option<Square>,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        let mut moves = self.take_buffer(ply);
        b.push_moves(&self.rules, &mut moves);
        let stand = self.signed(b.turn(), self.static_value(b));
        let value = if moves.is_empty() {
            stand
        } else if moves.iter().any(Move::captures_king) {
            king_capture(depth)
        } else {
            // At depth <= 0 only captures on the last move's square, from the static value
            // (the recapture extension), or every capture with `all_captures`; otherwise
            // every move, captures first.
            let quiescence = depth <= 0;
            let all_captures = self.all_captures;
            let mut best = if quiescence { stand } else { -INF };
            if !quiescence || all_captures {
                order(&mut moves);
            }
            if best < beta {
                alpha = alpha.max(best);
                let searched = moves.iter().filter(|m| {
                    !quiescence || (m.is_capture() && (all_captures || Some(m.to) == last))
                });
                for m in searched {
                    let mut child = b.clone();
                    child.play(m);
                    let v = -self.negamax(&child, depth - 1, Some(m.to), -beta, -alpha, ply + 1);
                    if self.stopped {
                        break;
                    }
                    if v > best {
                        best = v;
                        if v >= beta {
                            break;
                        }
                        alpha = alpha.max(v);
                    }
                }
            }
            best
        };
        self.buffers[ply] = moves;
        value
    }
}

fn role_rank(r: Role) -> u32 {
    r as u32
}

/// Captures first, most valuable victim first, then least valuable attacker; the other
/// moves after them in generation order (a stable insertion sort: lists are short).
fn order(moves: &mut [Move]) {
    let key = |m: &Move| match m.capture {
        Some(v) => (7 - role_rank(v)) * 8 + role_rank(m.role),
        None => 100,
    };
    for i in 1..moves.len() {
        let m = moves[i];
        let k = key(&m);
        if k == 100 {
            continue;
        }
        let mut j = i;
        while j > 0 && key(&moves[j - 1]) > k {
            moves[j] = moves[j - 1];
            j -= 1;
        }
        moves[j] = m;
    }
}

/// The same search as [`MyStockfish::all`] by plain minimax (no pruning, no ordering):
/// the reference alpha-beta is tested against. Values plus for White. With
/// `all_captures`, the search of [`MyStockfish::with_capture_quiescence`].
pub fn plain_minimax_all(
    b: &SearchBoard,
    rules: &RuleSet,
    depth: i32,
    seed: u64,
    with_noise: bool,
    all_captures: bool,
) -> Vec<(Move, Score)> {
    fn stat(b: &SearchBoard, seed: u64, with_noise: bool) -> Score {
        b.value() + if with_noise { noise(b.hash(), seed) } else { 0 }
    }
    // White-positive minimax, written the way the thesis states it.
    fn search(
        b: &SearchBoard,
        rules: &RuleSet,
        depth: i32,
        last: Option<Square>,
        seed: u64,
        wn: bool,
        all: bool,
    ) -> Score {
        let white = b.turn().is_white();
        let better = |a: Score, c: Score| if white { a.max(c) } else { a.min(c) };
        let mut moves = Vec::new();
        b.push_moves(rules, &mut moves);
        if moves.is_empty() {
            return stat(b, seed, wn);
        }
        if moves.iter().any(Move::captures_king) {
            let v = king_capture(depth);
            return if white { v } else { -v };
        }
        let child_value = |m: &Move| {
            let mut c = b.clone();
            c.play(m);
            search(&c, rules, depth - 1, Some(m.to), seed, wn, all)
        };
        if depth <= 0 {
            let mut v = stat(b, seed, wn);
            for m in moves
                .iter()
                .filter(|m| m.is_capture() && (all || Some(m.to) == last))
            {
                v = better(v, child_value(m));
            }
            return v;
        }
        moves.iter().map(child_value).reduce(better).expect("moves")
    }
    let mut moves = Vec::new();
    b.push_moves(rules, &mut moves);
    moves
        .into_iter()
        .map(|m| {
            let v = if m.captures_king() {
                let v = king_capture(depth);
                if b.turn().is_white() {
                    v
                } else {
                    -v
                }
            } else {
                let mut c = b.clone();
                c.play(&m);
                search(
                    &c,
                    rules,
                    depth - 1,
                    Some(m.to),
                    seed,
                    with_noise,
                    all_captures,
                )
            };
            (m, v)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::Position;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    fn random_positions(n: usize, seed: u64, rules: &RuleSet) -> Vec<Position> {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let mut pos = Position::startpos();
            let plies = rng.random_range(4..80);
            for _ in 0..plies {
                let moves = pos.legal_moves(rules);
                if moves.is_empty() || moves.iter().any(Move::captures_king) {
                    break;
                }
                pos.play(&moves[rng.random_range(0..moves.len())]);
            }
            if pos.has_king(Color::White) && pos.has_king(Color::Black) {
                out.push(pos);
            }
        }
        out
    }

    /// Random positions thinned to at most `pieces` pieces (kings kept, castling and en
    /// passant cleared): small enough for plain minimax with capture quiescence, whose
    /// capture sequences are not cut by alpha-beta.
    fn sparse_positions(n: usize, seed: u64, rules: &RuleSet, pieces: usize) -> Vec<Position> {
        let mut rng = Pcg64Mcg::seed_from_u64(seed ^ 0x5ba5);
        random_positions(n, seed, rules)
            .into_iter()
            .map(|pos| {
                let mut setup = pos.to_setup();
                loop {
                    let others = setup.board.occupied() & !setup.board.kings();
                    if (others.count() + 2) <= pieces {
                        break;
                    }
                    let sq = others
                        .into_iter()
                        .nth(rng.random_range(0..others.count()))
                        .unwrap();
                    setup.board.discard_piece_at(sq);
                }
                setup.castling_rights = fow_variants::Bitboard::EMPTY;
                setup.ep_square = None;
                Position::from_setup(setup).unwrap()
            })
            .collect()
    }

    #[test]
    fn alpha_beta_with_capture_quiescence_returns_plain_minimax_values() {
        for rules in [RuleSet::thesis(), RuleSet::chesscom()] {
            for (i, pos) in sparse_positions(16, 23, &rules, 10).iter().enumerate() {
                let b = SearchBoard::from_position(pos);
                let engine = || MyStockfish::new(rules, i as u64).with_capture_quiescence();
                for depth in [1, 2] {
                    let ab = engine().all(&b, depth).unwrap();
                    let plain = plain_minimax_all(&b, &rules, depth, i as u64, true, true);
                    assert_eq!(ab, plain, "{} depth {depth}", pos.fen());
                }
                let r = engine().run(&b, 2);
                let plain = plain_minimax_all(&b, &rules, 2, i as u64, true, true);
                let best = if pos.turn().is_white() {
                    plain.iter().map(|x| x.1).max()
                } else {
                    plain.iter().map(|x| x.1).min()
                };
                assert_eq!(Some(r.value), best, "{}", pos.fen());
            }
        }
    }

    #[test]
    fn alpha_beta_returns_plain_minimax_values_with_fewer_nodes() {
        for rules in [RuleSet::thesis(), RuleSet::chesscom()] {
            let mut ab_nodes = 0;
            let mut plain_count = 0u64;
            for (i, pos) in random_positions(12, 11, &rules).iter().enumerate() {
                let b = SearchBoard::from_position(pos);
                for noisy in [false, true] {
                    let engine = |seed: u64| {
                        let mut e = MyStockfish::new(rules, seed);
                        if !noisy {
                            e = e.without_noise();
                        }
                        e
                    };
                    let mut e = engine(i as u64);
                    let depth = 2;
                    let ab = e.all(&b, depth).unwrap();
                    let plain = plain_minimax_all(&b, &rules, depth, i as u64, noisy, false);
                    assert_eq!(ab, plain, "{} noise {noisy}", pos.fen());
                    // run() agrees with the best of all().
                    let mut e2 = engine(i as u64);
                    let r = e2.run(&b, 3);
                    let plain3 = plain_minimax_all(&b, &rules, 3, i as u64, noisy, false);
                    let best = if pos.turn().is_white() {
                        plain3.iter().map(|x| x.1).max()
                    } else {
                        plain3.iter().map(|x| x.1).min()
                    };
                    assert_eq!(Some(r.value), best, "{}", pos.fen());
                    let mv = r.best.unwrap();
                    assert!(
                        plain3.contains(&(mv, r.value)),
                        "best move has the best value"
                    );
                    ab_nodes += e2.nodes();
                    plain_count += plain3.len() as u64;
                }
            }
            assert!(ab_nodes > 0 && plain_count > 0);
        }
    }

    #[test]
    fn finds_king_capture_and_prefers_sooner_win() {
        let rules = RuleSet::thesis();
        // White rook can take the king now.
        let pos: Position = "k7/8/8/8/8/8/1R6/4K2R w - - 0 1".parse().unwrap();
        let pos2: Position = "k7/8/8/8/8/8/8/R3K3 w - - 0 1".parse().unwrap();
        let mut e = MyStockfish::new(rules, 0);
        let r = e.run(&SearchBoard::from_position(&pos2), 3);
        assert_eq!(r.best.unwrap().uci(), "a1a8");
        assert_eq!(r.value, king_capture(3));
        // Two rooks against a bare king in the corner: Rh7 leaves the king no escape
        // from a capture two plies later.
        let r = e.run(&SearchBoard::from_position(&pos), 3);
        assert_eq!(r.value, king_capture(1), "{:?}", r.best);
    }

    #[test]
    fn recapture_extension_sees_the_recapture() {
        // Qxd5 is a pawn capture that loses the queen to the e6 pawn's recapture: at
        // depth 1 the recapture extension must see it.
        let pos: Position = "4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1".parse().unwrap();
        let mut e = MyStockfish::new(RuleSet::thesis(), 0).without_noise();
        let all = e.all(&SearchBoard::from_position(&pos), 1).unwrap();
        let qxd5 = all.iter().find(|(m, _)| m.uci() == "d1d5").unwrap().1;
        let quiet = all.iter().find(|(m, _)| m.uci() == "d1d2").unwrap().1;
        assert!(qxd5 < quiet, "queen for pawn is bad: {qxd5} vs {quiet}");
    }

    #[test]
    fn capture_quiescence_sees_a_piece_hanging_away_from_the_last_square() {
        // The black queen on g2 attacks the rook on h1. At depth 1 (White's move, then the
        // horizon) after Ra1-b1 the recapture extension looks only at b1, where Black
        // can take nothing, and misses Qxh1; capture quiescence sees it.
        let pos: Position = "4k3/8/8/8/8/8/6q1/R3K2R w - - 0 1".parse().unwrap();
        let b = SearchBoard::from_position(&pos);
        let value_of = |e: &mut MyStockfish, uci: &str| {
            let all = e.all(&b, 1).unwrap();
            all.iter().find(|(m, _)| m.uci() == uci).unwrap().1
        };
        let mut recapture = MyStockfish::new(RuleSet::thesis(), 0).without_noise();
        let mut captures = MyStockfish::new(RuleSet::thesis(), 0)
            .without_noise()
            .with_capture_quiescence();
        let quiet_r = value_of(&mut recapture, "a1b1");
        let quiet_c = value_of(&mut captures, "a1b1");
        assert!(quiet_c < quiet_r, "{quiet_c} vs {quiet_r}");
        // Moving the rook out of the queen's reach (h1-h4) is seen as better.
        assert!(value_of(&mut captures, "h1h4") > quiet_c);
        // Without it both moves look alike: a quiet rook move each, within a pawn.
        let other_r = value_of(&mut recapture, "h1h4");
        assert!(
            (other_r - quiet_r).abs() < crate::search::PAWN,
            "{other_r} vs {quiet_r}"
        );
    }

    #[test]
    fn node_limit_stops_and_returns_a_move() {
        let pos = Position::startpos();
        let mut e = MyStockfish::new(RuleSet::thesis(), 0);
        e.set_limits(Limits {
            nodes: Some(300),
            deadline: None,
        });
        let r = e.run(&SearchBoard::from_position(&pos), 6);
        assert!(e.stopped());
        assert!(r.best.is_some());
        assert!(r.depth < 6);
        assert!(e.nodes() <= 301);
    }

    #[test]
    fn fog_is_impassable() {
        let rules = RuleSet::thesis();
        let pos: Position = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1".parse().unwrap();
        let mut board = SearchBoard::from_position(&pos);
        board = SearchBoard::new(
            board.board().clone(),
            fow_variants::Bitboard::from(Square::A4),
            Color::White,
            fow_variants::Bitboard::EMPTY,
            None,
        );
        let mut v = Vec::new();
        board.push_moves(&rules, &mut v);
        assert!(v.iter().all(|m| m.to != Square::A4 && m.to != Square::A5));
        assert!(v.iter().any(|m| m.to == Square::A3));
    }
}
