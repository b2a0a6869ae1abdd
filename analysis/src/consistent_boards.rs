//! The boards a side could not tell apart from the true one at its turns of a saved game:
//! fow's belief machinery ([`BoardList`]) replayed from the game's start with the side's
//! own observations, as a bot that remembered everything would see them.
//!
//! Each turn of the side, its set of boards takes in its own last move and what it saw
//! right after it, then every opponent move that fits what it sees now
//! ([`BoardList::update_sampled`]). The set is capped at `keep` boards: when more fit, a
//! seeded uniform sample of them is kept (each still consistent with everything seen,
//! the set no longer complete). Where the side weighs its boards by a model of its
//! opponent ([`GreedyModel`]), the set is drawn and weighted by that model instead, each
//! board's weight carried from turn to turn ([`Prior::Carried`]: the product of the
//! model's probabilities of the opponent moves that led to it). At the turns asked for,
//! up to `sample` boards are drawn from the set (uniformly, or a priority sample by
//! weight) to be valued.
//!
//! When a sample has dropped every board that a later view allows (the set is a sample
//! of a set too large to keep, and the view rules all of the sample out), the set is
//! tracked again from the true position [`REROOT_TURNS`] of the side's turns earlier (4,
//! 2, then 1 turn earlier if that empties too; one turn back never does, since the true
//! board is among its children): every board is still consistent with all the side
//! saw, but what was hidden before that turn is taken as it truly was, a bias towards
//! the true board, which the turns after report ([`Consistent::from_ply`]).
//!
//! Deterministic: the generator is seeded with a constant and the side.

use fow_players::belief::board_list::{BoardList, Prior, Status, Update};
use fow_players::belief::sampling::sample_indices;
use fow_players::bots::{BotRng, GreedyModel};
use fow_records::SavedGame;
use fow_variants::{Color, Game, Move, Observation, Position, RuleSet};
use rand::SeedableRng;

/// The most boards tracked from turn to turn (a seeded sample when more fit).
pub const TRACKED_BOARDS: usize = 4096;
/// How many of its turns back a set that lost every consistent board is tracked again
/// from the true position (fewer when that empties too).
pub const REROOT_TURNS: usize = 8;

/// The seed of the sampling generator (with the side's colour mixed in).
const SEED: u64 = 0x666f_675f_6572_726f; // "fog_erro"

/// The boards drawn at one turn.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Consistent {
    /// The boards (the side to move), each with the weight it stands for.
    pub boards: Vec<(Position, f64)>,
    /// How many boards the tracked set held at that turn.
    pub tracked: usize,
    /// Whether the tracked set held every consistent board (never sampled down).
    pub complete: bool,
    /// The ply (0-based: the number of plies played) whose true position the set was
    /// last tracked from: 0 from the game's start; later when the sample lost every
    /// consistent board and the set was tracked again (see the module's notes).
    pub from_ply: usize,
}

/// For each ply of `plies` (1-based, each a move of `side`, in increasing order), the
/// boards `side` could not tell apart from the true position before that move: up to
/// `sample` of them drawn from a set of at most `keep`, weighted by `model` when given
/// (see the module's notes). Plies that are not `side`'s moves get no boards.
pub fn consistent_boards(
    game: &SavedGame,
    side: Color,
    plies: &[usize],
    keep: usize,
    sample: usize,
    model: Option<GreedyModel>,
) -> Vec<Consistent> {
    let mut tracker = Tracker {
        side,
        keep: keep.max(1),
        model,
        rng: BotRng::seed_from_u64(SEED ^ side as u64),
        turns: Vec::new(),
    };
    let mut list = BoardList::from_start(side, game.rules, game.start.clone());
    let mut from_ply = 0;
    let mut play = Game::new(game.start.clone(), game.rules);
    let mut slot: Option<Observation> = None;
    let mut out = vec![Consistent::default(); plies.len()];
    let last_ply = plies.iter().copied().max().unwrap_or(0);
    for (i, m) in game.moves.iter().enumerate().take(last_ply) {
        if play.position().turn() == side {
            let obs = Observation::for_game(&mut slot, &play).clone();
            tracker.turns.push(Turn {
                ply: i,
                truth: play.position().clone(),
                obs,
                played: *m,
            });
            let j = tracker.turns.len() - 1;
            if tracker.step(&mut list, j).status == Status::Empty {
                (list, from_ply) = tracker.retrack(j, &game.rules);
            }
            for (k, _) in plies.iter().enumerate().filter(|(_, &p)| p == i + 1) {
                let weights = tracker.model.is_some().then(|| list.weights());
                let drawn = sample_indices(list.len(), weights, sample, &mut tracker.rng);
                out[k] = Consistent {
                    boards: drawn
                        .into_iter()
                        .map(|(j, w)| (list.boards()[j].clone(), w))
                        .collect(),
                    tracked: list.len(),
                    complete: list.is_complete(),
                    from_ply,
                };
            }
        }
        play.play(m);
    }
    out
}

/// One turn of the side: the ply (plies played before it), the true position, what the
/// side was given and the move it played.
struct Turn {
    ply: usize,
    truth: Position,
    obs: Observation,
    played: Move,
}

/// The side's turns so far and how its set is updated.
struct Tracker {
    side: Color,
    keep: usize,
    model: Option<GreedyModel>,
    rng: BotRng,
    turns: Vec<Turn>,
}

impl Tracker {
    /// Brings `list` (the set at the side's turn before `j`, or its start) up to turn
    /// `j`.
    fn step(&mut self, list: &mut BoardList, j: usize) -> Update {
        let (turn, before) = (&self.turns[j], j.checked_sub(1).map(|k| &self.turns[k]));
        let last = before.map(|t| &t.played);
        match self.model.as_mut() {
            Some(model) => list.update_weighted(
                &turn.obs,
                last,
                self.keep,
                &mut self.rng,
                model,
                Prior::Carried,
            ),
            None => list.update_sampled(&turn.obs, last, self.keep, &mut self.rng),
        }
    }

    /// The set at turn `j` tracked again from the true position [`REROOT_TURNS`] turns
    /// earlier (then half as many while it empties), with the ply it starts from.
    fn retrack(&mut self, j: usize, rules: &RuleSet) -> (BoardList, usize) {
        let mut lag = REROOT_TURNS;
        loop {
            let a = j.saturating_sub(lag);
            let start = &self.turns[a];
            let mut list = BoardList::from_start(self.side, *rules, start.truth.clone());
            let from_ply = start.ply;
            let fits = (a + 1..=j).all(|k| self.step(&mut list, k).status != Status::Empty);
            // One turn back cannot empty: the true board is among its children.
            if fits || lag <= 1 {
                return (list, from_ply);
            }
            lag /= 2;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::highlight_moves::test_game;
    use fow_variants::RuleSet;

    /// Black's knight on b8 goes to a6 or c6, both in White's fog; everything else Black
    /// could do, White would see.
    pub(crate) const KNIGHT: &str = "1n5k/6pp/4B1PP/8/8/8/8/4Q1K1 b - - 0 1";

    #[test]
    fn the_boards_are_those_the_mover_cannot_tell_apart() {
        let game = test_game(KNIGHT, "b8c6 e1a5");
        let c = consistent_boards(&game, Color::White, &[2], TRACKED_BOARDS, 32, None);
        let mut fens: Vec<String> = c[0].boards.iter().map(|(b, _)| b.fen()).collect();
        fens.sort();
        assert_eq!(
            fens,
            [
                "7k/6pp/2n1B1PP/8/8/8/8/4Q1K1 w - - 1 2",
                "7k/6pp/n3B1PP/8/8/8/8/4Q1K1 w - - 1 2"
            ]
        );
        assert_eq!((c[0].tracked, c[0].complete), (2, true));
        assert!(c[0].boards.iter().all(|&(_, w)| w == 1.0));
        // Black's own view of its first move: it knows the board.
        let c = consistent_boards(&game, Color::Black, &[1], TRACKED_BOARDS, 32, None);
        assert_eq!(c[0].boards.len(), 1);
        assert_eq!(c[0].boards[0].0, game.start);
    }

    #[test]
    fn a_capped_set_is_a_seeded_sample_of_consistent_boards() {
        // From the standard start, Black's view after 1. e4 allows 20 boards; cap 5,
        // valued 3.
        let rules = RuleSet::thesis();
        let game = SavedGame::from_uci("A", "B", rules, &["e2e4", "e7e5", "g1f3"]).unwrap();
        let run = || consistent_boards(&game, Color::Black, &[2], 5, 3, None);
        let c = run();
        assert_eq!(
            (c[0].tracked, c[0].complete, c[0].boards.len()),
            (5, false, 3)
        );
        let view = fow_variants::FogView::of(&game.positions()[1], Color::Black, &rules);
        for (b, _) in &c[0].boards {
            assert_eq!(fow_variants::FogView::of(b, Color::Black, &rules), view);
        }
        assert_eq!(run(), c, "deterministic");
        assert_eq!(c[0].from_ply, 0);
        // A model weighs the boards (the largest 1).
        let model = GreedyModel {
            beta: 2.0,
            eval: fow_players::search::Eval::Thesis,
        };
        let c = consistent_boards(&game, Color::Black, &[2], 100, 100, Some(model));
        assert_eq!(c[0].boards.len(), 20);
        let most = c[0].boards.iter().map(|&(_, w)| w).fold(0.0, f64::max);
        let least = c[0].boards.iter().map(|&(_, w)| w).fold(1.0, f64::min);
        assert!(most == 1.0 && least < 1.0, "{most} {least}");
    }

    #[test]
    fn a_sample_that_loses_every_consistent_board_is_tracked_again_from_the_truth() {
        // Black keeps one of the 20 boards 1. e4 allows (1. Nc3 with this seed); 2. exd5
        // then shows a white pawn taking on d5, which 1. Nc3 does not allow.
        let rules = RuleSet::thesis();
        let game = SavedGame::from_uci("A", "B", rules, &["e2e4", "d7d5", "e4d5", "d8d5"]).unwrap();
        let c = consistent_boards(&game, Color::Black, &[2, 4], 1, 4, None);
        assert_eq!(c[0].boards.len(), 1);
        assert_eq!(c[0].from_ply, 0);
        // Tracked again from the position after 1. e4 (one ply played): only exd5 fits.
        assert_eq!(c[1].from_ply, 1);
        assert_eq!(c[1].boards, [(game.positions()[3].clone(), 1.0)]);
        // With room for all 20, nothing is lost.
        let c = consistent_boards(&game, Color::Black, &[2, 4], 20, 4, None);
        assert_eq!(c[1].from_ply, 0);
    }
}
