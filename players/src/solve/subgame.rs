//! The subgame around a bot's move ([`Subgame`]): chance picks one of the boards it
//! believes possible (by its weight); the bot picks a move without knowing which board
//! it is on (one information set); the opponent, knowing only what it sees after that
//! move (its view: boards and moves that look alike to it are one information set of
//! its own), picks a reply; the leaves are valued by a search from the bot's side. A
//! captured king ends the game at once (±[`KING`]). Solved by [`crate::solve::Cfr`],
//! it gives a mixed strategy over the bot's moves: how a subgame-solving bot (as Zhang
//! and Sandholm's Obscuro) plays where a single argmax would be read and exploited.
//! [`Subgame::grow`] turns the replies it reaches most into the bot's next decision, and
//! [`Subgame::with_twins`] adds positions the opponent may believe ([`Twin`]), so that
//! it must reply without knowing where the bot's pieces stand.

use std::collections::HashMap;

use fow_variants::{Color, FogView, Move, Position, RuleSet};

use crate::solve::cfr::{Cfr, Profile};
use crate::solve::tree::{GameTree, Node};

/// What a side sees, as an information set's key: its view's board and visible squares.
type ViewKey = (String, u64);

/// The value of a captured king, for the side that captured it (leaves are in pawns or
/// any unit below it).
pub const KING: f64 = 1000.0;

/// A subgame built around a move: its tree and the moves its root decides between.
pub struct Subgame {
    /// The tree: the root's information set is 0, the bot's; the others the opponent's.
    pub tree: GameTree,
    /// The bot's moves, in the order of the root's actions.
    pub moves: Vec<Move>,
    /// For each child of the root's chance node, the board it is (an index into the
    /// boards), or `None` for a twin.
    rows: Vec<Option<usize>>,
}

/// A position the opponent may believe instead of a believed board (a knowledge-limited
/// subgame's second-order node): the board with our pieces where the opponent last saw
/// them ([`crate::belief::last_seen::LastSeen::stale`]). The bot's move there is fixed;
/// the opponent replies knowing only its own view, so that where the twin and the board
/// look alike to it after the bot's moves, it must answer both with one reply.
#[derive(Clone, Debug, PartialEq)]
pub struct Twin {
    /// The board it is a twin of (an index into the boards).
    pub board: usize,
    /// The position, the bot to move.
    pub position: Position,
    /// Its chance weight, as a share of its board's.
    pub weight: f64,
    /// The bot's move on it (an index into the moves), when legal there; else the twin
    /// is left out.
    pub mv: usize,
}

/// One call for leaf values of [`Subgame::new`]: the opponent's replies after the bot's
/// move `mv` (an index into the moves) on board `board` (an index into the boards). In
/// [`Subgame::grow`], the same call values the bot's own next moves after one of those
/// replies (`next` is then true).
pub struct Replies<'a> {
    /// The board's index.
    pub board: usize,
    /// The move's index.
    pub mv: usize,
    /// The position after the move, the opponent to move; with `next`, the position after
    /// the opponent's reply too, the bot to move.
    pub after: &'a Position,
    /// The opponent's legal moves there, as its view lists them; with `next`, the bot's
    /// own, as its view lists them.
    pub replies: &'a [Move],
    /// Whether these are the bot's next moves, in a grown subgame: their values are
    /// searched one ply less deep than the replies', so that every leaf ends at the same
    /// depth.
    pub next: bool,
}

/// What solving a subgame gives.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The probability of each move (in [`Subgame::moves`]' order).
    pub strategy: Vec<f64>,
    /// Every information set's strategy (the root's, the bot's, is set 0).
    pub profile: Profile,
    /// The subgame's value for the bot under the strategies found.
    pub value: f64,
    /// How far the strategies are from an equilibrium of the subgame.
    pub exploitability: f64,
}

impl Subgame {
    /// The subgame of the bot to move on `boards` (each a position with the bot to move,
    /// weighed by `weights`), choosing among `moves` (legal on every board: the moves its
    /// view allows), under `rules`. `leaves` values the opponent's replies after one of
    /// the bot's moves on one board ([`Replies`]): the value for the bot once each reply
    /// is played (a reply that captures the king is `-KING` whatever it says), or `None`
    /// to stop, when a budget runs out: the subgame is then built over the boards valued
    /// whole before it (an error when there is none). Boards and moves are taken in the
    /// order given.
    pub fn new(
        boards: &[Position],
        weights: &[f64],
        moves: &[Move],
        rules: &RuleSet,
        leaves: &mut dyn FnMut(Replies<'_>) -> Option<Vec<f64>>,
    ) -> Result<Subgame, String> {
        Subgame::with_twins(boards, weights, moves, &[], rules, leaves)
    }

    /// [`Subgame::new`] with `twins` as well: after each board, chance may pick each of
    /// its twins instead (by its weight, a share of the board's), where the bot plays
    /// the twin's fixed move and the opponent replies in the information set of its
    /// view, shared with the boards' nodes that look the same to it. Each twin's replies
    /// are valued by `leaves` as its board's (with its board's index and its move's).
    /// A twin whose move is not legal on it, or ends the game, is left out.
    pub fn with_twins(
        boards: &[Position],
        weights: &[f64],
        moves: &[Move],
        twins: &[Twin],
        rules: &RuleSet,
        leaves: &mut dyn FnMut(Replies<'_>) -> Option<Vec<f64>>,
    ) -> Result<Subgame, String> {
        if boards.is_empty() || boards.len() != weights.len() || moves.is_empty() {
            return Err(format!(
                "a subgame needs boards ({}) with as many weights ({}) and moves ({})",
                boards.len(),
                weights.len(),
                moves.len()
            ));
        }
        let total: f64 = weights.iter().sum();
        if !total.is_finite() || total <= 0.0 || weights.iter().any(|w| !w.is_finite() || *w < 0.0)
        {
            return Err("a subgame's weights must be non-negative with a positive sum".into());
        }
        let us = boards[0].turn();
        let them = !us;
        // The opponent's information sets, by what it sees.
        let mut sets: HashMap<ViewKey, usize> = HashMap::new();
        let mut replies = Vec::new();
        let mut chance = Vec::with_capacity(boards.len());
        let mut rows = Vec::with_capacity(boards.len());
        let mut valued = 0.0;
        'boards: for (k, (b, w)) in boards.iter().zip(weights).enumerate() {
            if b.turn() != us {
                return Err("every board of a subgame has the same side to move".into());
            }
            // The opponent's sets so far, to forget those of a board left unfinished.
            let known = sets.len();
            let mut ours = Vec::with_capacity(moves.len());
            for (j, m) in moves.iter().enumerate() {
                if m.captures_king() {
                    ours.push(Node::Leaf(KING));
                    continue;
                }
                let mut after = b.clone();
                after.play(m);
                let view = view_and_moves(&after, them, rules, &mut replies);
                let key = (view.board_fen(), view.visible().0);
                let next = sets.len() + 1;
                let infoset = *sets.entry(key).or_insert(next);
                if replies.is_empty() {
                    ours.push(Node::Leaf(0.0));
                    continue;
                }
                let Some(values) = leaves(Replies {
                    board: k,
                    mv: j,
                    after: &after,
                    replies: &replies,
                    next: false,
                }) else {
                    sets.retain(|_, id| *id <= known);
                    break 'boards;
                };
                let children = reply_leaves(&replies, values)?;
                ours.push(Node::Decision {
                    player: 1,
                    infoset,
                    children,
                });
            }
            valued += w;
            chance.push((
                *w,
                Node::Decision {
                    player: 0,
                    infoset: 0,
                    children: ours,
                },
            ));
            rows.push(Some(k));
            for t in twins.iter().filter(|t| t.board == k) {
                let Some(m) = moves.get(t.mv).and_then(|m| {
                    let legal = t.position.legal_moves(rules);
                    legal
                        .into_iter()
                        .find(|x| (x.from, x.to, x.promotion) == (m.from, m.to, m.promotion))
                }) else {
                    continue;
                };
                if m.captures_king() || t.position.turn() != us || t.weight <= 0.0 {
                    continue;
                }
                let mut after = t.position.clone();
                after.play(&m);
                let view = view_and_moves(&after, them, rules, &mut replies);
                if replies.is_empty() {
                    continue;
                }
                let Some(values) = leaves(Replies {
                    board: k,
                    mv: t.mv,
                    after: &after,
                    replies: &replies,
                    next: false,
                }) else {
                    break 'boards;
                };
                let children = reply_leaves(&replies, values)?;
                let next = sets.len() + 1;
                let infoset = *sets
                    .entry((view.board_fen(), view.visible().0))
                    .or_insert(next);
                valued += w * t.weight;
                chance.push((
                    w * t.weight,
                    Node::Decision {
                        player: 1,
                        infoset,
                        children,
                    },
                ));
                rows.push(None);
            }
        }
        if chance.is_empty() || valued <= 0.0 {
            return Err("no board of the subgame was valued".into());
        }
        chance.iter_mut().for_each(|(w, _)| *w /= valued);
        Ok(Subgame {
            tree: GameTree::new(Node::Chance(chance))?,
            moves: moves.to_vec(),
            rows,
        })
    }

    /// Solves the subgame with `iterations` of predictive CFR+: the bot's mixed strategy,
    /// the value and the exploitability of the strategies found.
    pub fn solve(&self, iterations: u64) -> Solution {
        let mut cfr = Cfr::new(&self.tree);
        cfr.run(iterations);
        let profile = cfr.average();
        Solution {
            strategy: profile[0].clone(),
            value: cfr.value(&profile),
            exploitability: cfr.exploitability(&profile),
            profile,
        }
    }

    /// Grows the subgame where `profile` (a solution's) plays it: the opponent's replies
    /// it reaches most (by the probability that chance, the bot's move and the reply
    /// together give them), up to `most` of them, each become a decision of the bot's own
    /// next move, made knowing only what the bot has seen by then: its move, its view
    /// after it and its view after the reply, one information set for every node alike in
    /// these (a hidden reply, or a board it cannot tell apart, looks the same). Each next
    /// move is valued by `leaves` (with [`Replies::next`]), a king it captures at
    /// [`KING`].
    ///
    /// The leaf a reply was (a search that picked the bot's next move knowing the board)
    /// becomes a choice the bot must make without knowing it: the subgame no longer
    /// credits the bot with what it could not see. `boards` and `rules` must be those the
    /// subgame was built with. Replies ending the game (a captured king) are not grown,
    /// nor those after which the bot has no move. Growing stops where `leaves` says stop.
    /// Returns the number of replies grown. Grow a subgame once: the information sets of
    /// a second growing would be kept apart from those of the first.
    pub fn grow(
        &mut self,
        boards: &[Position],
        profile: &Profile,
        most: usize,
        rules: &RuleSet,
        leaves: &mut dyn FnMut(Replies<'_>) -> Option<Vec<f64>>,
    ) -> Result<usize, String> {
        let Node::Chance(chance) = &mut self.tree.root else {
            return Err("a subgame's root is chance".into());
        };
        // The replies to grow, most reached first: (reach, board, move, reply).
        let mut reached = Vec::new();
        for (row, (p, node)) in chance.iter().enumerate() {
            // The boards' nodes only: a twin's move is fixed.
            let (Some(k), Node::Decision { children, .. }) = (self.rows[row], node) else {
                continue;
            };
            for (j, child) in children.iter().enumerate() {
                let Node::Decision {
                    infoset, children, ..
                } = child
                else {
                    continue;
                };
                for (i, reply) in children.iter().enumerate() {
                    let reach = p * profile[0][j] * profile[*infoset][i];
                    if matches!(reply, Node::Leaf(v) if v.abs() < KING) && reach > 0.0 {
                        reached.push((reach, k, j, i, row));
                    }
                }
            }
        }
        reached.sort_by(|a, b| {
            b.0.total_cmp(&a.0)
                .then((a.1, a.2, a.3).cmp(&(b.1, b.2, b.3)))
        });
        reached.truncate(most);
        let us = boards.first().ok_or("no boards")?.turn();
        let key = |pos: &Position, side: Color| -> ViewKey {
            let v = FogView::of(pos, side, rules);
            (v.board_fen(), v.visible().0)
        };
        // The bot's new sets, by its move and what it saw after it and after the reply.
        let mut sets: HashMap<(usize, ViewKey, ViewKey), usize> = HashMap::new();
        let first_new = self.tree.infosets.len();
        let (mut replies, mut nexts) = (Vec::new(), Vec::new());
        let (mut grown, mut failure) = (0, None);
        for &(_, k, j, i, row) in &reached {
            let mut after = boards[k].clone();
            after.play(&self.moves[j]);
            view_and_moves(&after, !us, rules, &mut replies);
            let seen = key(&after, us);
            after.play(&replies[i]);
            let view = view_and_moves(&after, us, rules, &mut nexts);
            if nexts.is_empty() {
                continue;
            }
            let Some(values) = leaves(Replies {
                board: k,
                mv: j,
                after: &after,
                replies: &nexts,
                next: true,
            }) else {
                break;
            };
            if values.len() != nexts.len() {
                failure = Some(format!("{} values for {} moves", values.len(), nexts.len()));
                break;
            }
            let next = first_new + sets.len();
            let infoset = *sets
                .entry((j, seen, (view.board_fen(), view.visible().0)))
                .or_insert(next);
            let children = nexts
                .iter()
                .zip(values)
                .map(|(m, v)| {
                    Node::Leaf(if m.captures_king() {
                        KING
                    } else {
                        v.clamp(-KING, KING)
                    })
                })
                .collect();
            let Node::Decision { children: ours, .. } = &mut chance[row].1 else {
                unreachable!("a board's node is the bot's decision");
            };
            let Node::Decision {
                children: answers, ..
            } = &mut ours[j]
            else {
                unreachable!("a grown reply follows the opponent's decision");
            };
            answers[i] = Node::Decision {
                player: 0,
                infoset,
                children,
            };
            grown += 1;
        }
        let root = std::mem::replace(&mut self.tree.root, Node::Leaf(0.0));
        self.tree = GameTree::new(root)?;
        failure.map_or(Ok(grown), Err)
    }

    /// How many boards the subgame is over (those valued whole).
    pub fn boards(&self) -> usize {
        self.rows.iter().flatten().count()
    }

    /// How many twins the subgame holds (see [`Subgame::with_twins`]).
    pub fn twins(&self) -> usize {
        self.rows.iter().filter(|r| r.is_none()).count()
    }

    /// How many information sets the opponent has (distinct views after the bot's moves).
    pub fn opponent_sets(&self) -> usize {
        self.tree.infosets.iter().filter(|s| s.player == 1).count()
    }
}

/// `side`'s view of `pos`, with its legal moves (as the view lists them) written into
/// `out`.
fn view_and_moves(pos: &Position, side: Color, rules: &RuleSet, out: &mut Vec<Move>) -> FogView {
    let view = FogView::of(pos, side, rules);
    out.clear();
    view.legal_moves_into(rules, out);
    view
}

/// The leaves of the opponent's `replies`, one per reply: its value, cut to ± [`KING`],
/// or `-KING` where it captures the bot's king.
fn reply_leaves(replies: &[Move], values: Vec<f64>) -> Result<Vec<Node>, String> {
    if values.len() != replies.len() {
        return Err(format!(
            "{} values for {} replies",
            values.len(),
            replies.len()
        ));
    }
    Ok(replies
        .iter()
        .zip(values)
        .map(|(r, v)| {
            Node::Leaf(if r.captures_king() {
                -KING
            } else {
                v.clamp(-KING, KING)
            })
        })
        .collect())
}

/// Values each reply by `value` of the position it leads to: the simple `leaves` of
/// [`Subgame::new`], which never stops.
pub fn each_reply(r: Replies<'_>, value: impl Fn(&Position) -> f64) -> Option<Vec<f64>> {
    Some(
        r.replies
            .iter()
            .map(|m| {
                let mut end = r.after.clone();
                end.play(m);
                value(&end)
            })
            .collect(),
    )
}

/// The material balance of `pos` for `us`, in pawns (1, 3, 3, 5, 9).
pub fn material_for(pos: &Position, us: Color) -> f64 {
    let b = pos.board();
    let count = |bits: fow_variants::Bitboard, c: Color| (bits & b.by_color(c)).count() as f64;
    let worth = |c: Color| {
        count(b.pawns(), c)
            + 3.0 * (count(b.knights(), c) + count(b.bishops(), c))
            + 5.0 * count(b.rooks(), c)
            + 9.0 * count(b.queens(), c)
    };
    worth(us) - worth(!us)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        fen.parse().unwrap()
    }

    fn view_moves(view: &FogView, rules: &RuleSet) -> Vec<Move> {
        let mut out = Vec::new();
        view.legal_moves_into(rules, &mut out);
        out
    }

    /// The subgame of one known board, valued by material.
    fn one_board(fen: &str) -> (Subgame, Position) {
        let rules = RuleSet::thesis();
        let p = pos(fen);
        let us = p.turn();
        let moves = view_moves(&FogView::of(&p, us, &rules), &rules);
        let g = Subgame::new(std::slice::from_ref(&p), &[1.0], &moves, &rules, &mut |r| {
            each_reply(r, |q| material_for(q, us))
        })
        .unwrap();
        (g, p)
    }

    #[test]
    fn a_free_queen_is_taken_and_a_king_in_reach_is_captured() {
        // White's rook takes the undefended queen on d8; nothing of White's hangs after.
        let (g, _) = one_board("3q3k/8/8/8/8/8/8/3R3K w - - 0 1");
        let s = g.solve(300);
        let take = g.moves.iter().position(|m| m.uci() == "d1d8").unwrap();
        assert!(s.strategy[take] > 0.99, "{:?}", s.strategy);
        // A rook against nothing: +5.
        assert!((s.value - 5.0).abs() < 0.05, "{}", s.value);
        // A king in reach: the capture wins outright.
        let (g, _) = one_board("3k4/8/8/8/8/8/8/3R3K w - - 0 1");
        let s = g.solve(50);
        let win = g.moves.iter().position(|m| m.uci() == "d1d8").unwrap();
        assert!(s.strategy[win] > 0.99);
        assert!(s.value > KING - 1.0, "{}", s.value);
    }

    #[test]
    fn moves_the_opponent_cannot_tell_apart_share_its_information_set() {
        // Black sees only its king and the squares around it: White's king and rook
        // moves far away look alike to it, one view after each of them, except moves that
        // come into its sight.
        let rules = RuleSet::thesis();
        let (g, p) = one_board("7k/8/8/8/8/8/8/R3K3 w - - 0 1");
        let them = Color::Black;
        let mut views = std::collections::HashSet::new();
        for m in &g.moves {
            let mut after = p.clone();
            after.play(m);
            let v = FogView::of(&after, them, &rules);
            views.insert((v.board_fen(), v.visible().0));
        }
        assert_eq!(g.opponent_sets(), views.len());
        assert!(
            views.len() < g.moves.len(),
            "{} views of {} moves",
            views.len(),
            g.moves.len()
        );
    }

    #[test]
    fn the_solution_is_an_equilibrium_of_the_subgame_over_several_boards() {
        // Two boards White cannot tell apart: Black's queen on a fogged d5 or f5.
        let rules = RuleSet::thesis();
        let boards = [
            pos("7k/8/8/3q4/8/8/2P5/4K3 w - - 0 1"),
            pos("7k/8/8/5q2/8/8/2P5/4K3 w - - 0 1"),
        ];
        let view = FogView::of(&boards[0], Color::White, &rules);
        assert_eq!(
            (view.board_fen(), view.visible().0),
            {
                let v = FogView::of(&boards[1], Color::White, &rules);
                (v.board_fen(), v.visible().0)
            },
            "both boards look alike to White"
        );
        let moves = view_moves(&view, &rules);
        let g = Subgame::new(&boards, &[0.5, 0.5], &moves, &rules, &mut |r| {
            each_reply(r, |q| material_for(q, Color::White))
        })
        .unwrap();
        let s = g.solve(500);
        assert!((s.strategy.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(
            s.exploitability < 0.05 * KING / 100.0,
            "{}",
            s.exploitability
        );
        // A move that lets the queen take the king on either board (Kd1 and Kd2 on
        // d5's file, Kf2 and Kf1 on f5's) is not played: safe moves exist.
        let mut risky = 0;
        for (m, p) in g.moves.iter().zip(&s.strategy) {
            let loses = boards.iter().any(|b| {
                let mut a = b.clone();
                a.play(m);
                a.legal_moves(&rules).iter().any(|r| r.captures_king())
            });
            if loses {
                risky += 1;
                assert!(*p < 1e-3, "{m}: {p}");
            }
        }
        assert!(
            risky > 0 && risky < g.moves.len(),
            "{risky} of {}",
            g.moves.len()
        );
        assert!(s.value > -KING / 2.0, "{}", s.value);
    }

    #[test]
    fn grown_replies_no_longer_credit_the_bot_with_what_it_cannot_see() {
        // Two boards White cannot tell apart: Black's queen on a fogged d5 or f5.
        let rules = RuleSet::thesis();
        let us = Color::White;
        let boards = [
            pos("7k/8/8/3q4/8/8/2P5/4K3 w - - 0 1"),
            pos("7k/8/8/5q2/8/8/2P5/4K3 w - - 0 1"),
        ];
        let moves = view_moves(&FogView::of(&boards[0], us, &rules), &rules);
        // A next move is worth the material after it (and a little more for some
        // positions, so that the bot's choice matters); a reply, the best of the bot's
        // next moves on the true board: a search that knows the board.
        let next =
            |p: &Position| material_for(p, us) + (p.repetition_key(&rules) % 97) as f64 / 100.0;
        let best_next = |p: &Position| {
            p.legal_moves(&rules)
                .iter()
                .map(|m| {
                    let mut q = p.clone();
                    q.play(m);
                    if m.captures_king() {
                        KING
                    } else {
                        next(&q)
                    }
                })
                .fold(-KING, f64::max)
        };
        let mut leaves = |r: Replies<'_>| {
            if r.next {
                each_reply(r, next)
            } else {
                each_reply(r, best_next)
            }
        };
        let mut g = Subgame::new(&boards, &[0.5, 0.5], &moves, &rules, &mut leaves).unwrap();
        let before = g.solve(1000);
        let tree = g.tree.clone();
        // Growing nothing changes nothing.
        assert_eq!(
            g.grow(&boards, &before.profile, 0, &rules, &mut leaves),
            Ok(0)
        );
        assert_eq!(g.tree, tree);
        let grown = g
            .grow(&boards, &before.profile, usize::MAX, &rules, &mut leaves)
            .unwrap();
        let after = g.solve(1000);
        assert!(grown > 0);
        // The opponent's sets are as they were; the bot's new ones each hold every
        // grown reply it could not tell apart: fewer sets than replies grown, since the
        // queen's moves are hidden.
        assert_eq!(
            g.opponent_sets(),
            Subgame::new(&boards, &[0.5, 0.5], &moves, &rules, &mut leaves)
                .unwrap()
                .opponent_sets()
        );
        let ours = g.tree.infosets.iter().filter(|s| s.player == 0).count() - 1;
        assert!(ours > 0 && ours < grown, "{ours} sets for {grown} replies");
        // Choosing without seeing the board is worth no more than choosing on it.
        let slack = before.exploitability + after.exploitability + 1e-6;
        assert!(
            after.value <= before.value + slack,
            "{} > {}",
            after.value,
            before.value
        );
        assert!(
            after.value < before.value,
            "the fog costs the bot something here"
        );
        assert!((after.strategy.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        // The reached replies only, most reached first: a budget of 3 grows 3.
        let mut g3 = Subgame::new(&boards, &[0.5, 0.5], &moves, &rules, &mut leaves).unwrap();
        assert_eq!(
            g3.grow(&boards, &before.profile, 3, &rules, &mut leaves),
            Ok(3)
        );
        // A stop from the leaves ends the growing with what was grown.
        let mut calls = 0;
        let mut stop = |r: Replies<'_>| {
            calls += 1;
            (calls <= 2).then(|| vec![0.0; r.replies.len()])
        };
        let mut g2 = Subgame::new(&boards, &[0.5, 0.5], &moves, &rules, &mut leaves).unwrap();
        assert_eq!(
            g2.grow(&boards, &before.profile, usize::MAX, &rules, &mut stop),
            Ok(2)
        );
    }

    #[test]
    fn a_twin_shares_the_opponents_information_set_where_it_looks_the_same() {
        // White's knight went to f3 unseen; Black may still believe it on g1.
        let rules = RuleSet::thesis();
        let board = pos("4k3/8/8/8/8/5N2/8/4K3 w - - 0 1");
        let twin = pos("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1");
        let mut moves = view_moves(&FogView::of(&board, Color::White, &rules), &rules);
        // The king's move first: the twin's fixed move.
        let king = moves.iter().position(|m| m.uci() == "e1d1").unwrap();
        moves.swap(0, king);
        let mut leaf = |r: Replies<'_>| each_reply(r, |q| material_for(q, Color::White));
        let boards = std::slice::from_ref(&board);
        let plain = Subgame::new(boards, &[1.0], &moves, &rules, &mut leaf).unwrap();
        let t = Twin {
            board: 0,
            position: twin,
            weight: 1.0,
            mv: 0,
        };
        let mut g = Subgame::with_twins(
            boards,
            &[1.0],
            &moves,
            std::slice::from_ref(&t),
            &rules,
            &mut leaf,
        )
        .unwrap();
        assert_eq!((g.boards(), g.twins()), (1, 1));
        // After the king's move the twin looks to Black as the board does: no new set.
        assert_eq!(g.opponent_sets(), plain.opponent_sets());
        let twin_node = |g: &Subgame| {
            let Node::Chance(rows) = &g.tree.root else {
                panic!("a subgame's root is chance")
            };
            assert_eq!(rows.iter().map(|r| r.0).collect::<Vec<_>>(), [0.5, 0.5]);
            rows[1].1.clone()
        };
        let before = twin_node(&g);
        assert!(matches!(before, Node::Decision { player: 1, .. }));
        // Growing grows the board's replies and leaves the twin as it was.
        let profile = g.solve(50).profile;
        let grown = g
            .grow(boards, &profile, usize::MAX, &rules, &mut leaf)
            .unwrap();
        assert!(grown > 0);
        assert_eq!(twin_node(&g), before);
        // A twin whose move is not legal on it is left out: the knight's move from f3.
        let jump = moves.iter().position(|m| m.uci() == "f3e5").unwrap();
        let bad = Twin { mv: jump, ..t };
        let g = Subgame::with_twins(boards, &[1.0], &moves, &[bad], &rules, &mut leaf).unwrap();
        assert_eq!((g.boards(), g.twins()), (1, 0));
        assert_eq!(g.tree, plain.tree);
    }

    #[test]
    fn a_build_stopped_by_its_leaves_keeps_the_boards_valued_whole() {
        let rules = RuleSet::thesis();
        let boards = [
            pos("7k/8/8/3q4/8/8/2P5/4K3 w - - 0 1"),
            pos("7k/8/8/5q2/8/8/2P5/4K3 w - - 0 1"),
        ];
        let mut moves = Vec::new();
        FogView::of(&boards[0], Color::White, &rules).legal_moves_into(&rules, &mut moves);
        // Stopped on the second board's third move: the first board alone, weighing 1,
        // and only the opponent's sets of that board.
        let mut stop =
            |r: Replies<'_>| (r.board == 0 || r.mv < 2).then(|| vec![0.0; r.replies.len()]);
        let g = Subgame::new(&boards, &[0.5, 0.5], &moves, &rules, &mut stop).unwrap();
        let one = Subgame::new(&boards[..1], &[1.0], &moves, &rules, &mut |r| {
            Some(vec![0.0; r.replies.len()])
        })
        .unwrap();
        assert_eq!(g.tree, one.tree);
        // Stopped at once: no subgame.
        let mut never = |_: Replies<'_>| None;
        assert!(Subgame::new(&boards, &[0.5, 0.5], &moves, &rules, &mut never).is_err());
    }

    #[test]
    fn bad_subgames_are_refused() {
        let rules = RuleSet::thesis();
        let p = Position::startpos();
        let moves = p.legal_moves(&rules);
        let mut leaf = |r: Replies<'_>| Some(vec![0.0; r.replies.len()]);
        assert!(Subgame::new(&[], &[], &moves, &rules, &mut leaf).is_err());
        assert!(Subgame::new(std::slice::from_ref(&p), &[0.0], &moves, &rules, &mut leaf).is_err());
        assert!(Subgame::new(std::slice::from_ref(&p), &[1.0], &[], &rules, &mut leaf).is_err());
    }
}
