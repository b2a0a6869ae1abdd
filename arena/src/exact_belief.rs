//! How far an exact belief reaches in real games: each side of each game replayed from
//! the standard start with fow's belief ([`BoardList`]) kept exact, every board
//! consistent with all the side saw and nothing sampled away, until more than a cap of
//! boards fit. Issue 47 asks for a belief kept exact "as far as it can"; this measures
//! how far that is, turn by turn, and what it costs (see `fow bench --exact-cap`).
//!
//! An exact set always holds the true board. A set that loses it (an update leaves no
//! board, or none equal to the truth) is a bug in the belief, reported as an error.

use std::time::{Duration, Instant};

use fow_players::belief::board_list::{BoardList, Status};
use fow_records::GameRecord;
use fow_variants::{Color, Game, Move, Observation, Position};

/// The game phases the report splits turns into, by the ply of the move (1-based):
/// up to 20, 21 to 40, 41 to 80, and later.
pub const PHASES: [(usize, usize); 4] = [(1, 20), (21, 40), (41, 80), (81, usize::MAX)];

/// The index in [`PHASES`] of the phase of ply `ply` (1-based).
pub fn phase_of(ply: usize) -> usize {
    PHASES
        .iter()
        .position(|&(lo, hi)| (lo..=hi).contains(&ply))
        .unwrap_or(PHASES.len() - 1)
}

/// What [`exact_beliefs`] measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExactReport {
    /// The most boards a set may hold and still count as exact.
    pub cap: usize,
    /// Sides replayed (two per game).
    pub sides: usize,
    /// Turns over all sides (one per move a side played).
    pub turns: u64,
    /// The set's size at each turn it was exact, sorted.
    pub sizes: Vec<usize>,
    /// Per phase of [`PHASES`]: the turns, and those at which the set was exact.
    pub phases: [(u64, u64); 4],
    /// For each side whose set outgrew the cap, the ply (1-based) of the move before
    /// which it first did, sorted.
    pub overflows: Vec<usize>,
    /// Wall time spent updating the sets (overflowing updates included).
    pub update_time: Duration,
    /// Boards expanded under the opponent's moves.
    pub expanded: u64,
    /// Children (board, opponent move) generated and checked against the view.
    pub children: u64,
}

impl ExactReport {
    /// The turns at which the set was exact.
    pub fn exact_turns(&self) -> u64 {
        self.sizes.len() as u64
    }

    /// The size below which a share `q` (0 to 1) of the exact sets are.
    pub fn size_quantile(&self, q: f64) -> usize {
        let n = self.sizes.len();
        if n == 0 {
            return 0;
        }
        self.sizes[((n - 1) as f64 * q.clamp(0.0, 1.0)).round() as usize]
    }

    /// The median ply of the first overflow, over the sides that overflowed.
    pub fn median_overflow(&self) -> Option<usize> {
        self.overflows.get(self.overflows.len() / 2).copied()
    }
}

/// The memory one board of a belief takes: the position and its weight.
pub const BYTES_PER_BOARD: usize = std::mem::size_of::<Position>() + std::mem::size_of::<f64>();

/// Replays both sides of every game (each from the standard start, under its rules) with
/// an exact belief of at most `cap` boards: at each of a side's turns its set takes in its
/// last move and every opponent move that fits what it sees, as a bot's does
/// ([`BoardList::update`]), until more than `cap` fit; from then on the side's turns
/// count as not exact. An error when a set loses the true board.
pub fn exact_beliefs(games: &[GameRecord], cap: usize) -> Result<ExactReport, String> {
    let mut r = ExactReport {
        cap,
        ..ExactReport::default()
    };
    for (g, rec) in games.iter().enumerate() {
        for side in [Color::White, Color::Black] {
            r.sides += 1;
            replay_side(rec, side, cap, &mut r).map_err(|e| format!("game {g}: {e}"))?;
        }
    }
    r.sizes.sort_unstable();
    r.overflows.sort_unstable();
    Ok(r)
}

/// One side of one game, added to `r`.
fn replay_side(
    rec: &GameRecord,
    side: Color,
    cap: usize,
    r: &mut ExactReport,
) -> Result<(), String> {
    let mut list = BoardList::new(side, rec.rules);
    let mut game = Game::new(Position::startpos(), rec.rules);
    let mut slot: Option<Observation> = None;
    let mut last: Option<Move> = None;
    let mut exact = true;
    for m in &rec.moves {
        if game.position().turn() == side {
            let ply = game.ply() as usize + 1;
            let phase = phase_of(ply);
            r.turns += 1;
            r.phases[phase].0 += 1;
            if exact {
                let obs = Observation::for_game(&mut slot, &game);
                let started = Instant::now();
                let up = list.update(obs, last.as_ref(), cap);
                r.update_time += started.elapsed();
                match up.status {
                    Status::Exact => {
                        if !holds(&list, game.position()) {
                            return Err(format!(
                                "{side:?}'s exact belief lost the true board before ply {ply}"
                            ));
                        }
                        r.sizes.push(list.len());
                        r.phases[phase].1 += 1;
                    }
                    Status::Overflow => {
                        exact = false;
                        r.overflows.push(ply);
                    }
                    Status::Empty | Status::Sampled => {
                        return Err(format!(
                            "{side:?}'s exact belief ended {:?} before ply {ply}",
                            up.status
                        ))
                    }
                }
            }
            last = Some(*m);
        }
        game.play(m);
    }
    let stats = list.stats();
    r.expanded += stats.expanded;
    r.children += stats.children;
    Ok(())
}

/// Whether the set holds the true board: checked on small sets only (the check is linear
/// in the set), where it is cheap beside the update.
fn holds(list: &BoardList, truth: &Position) -> bool {
    list.len() > 4096 || list.contains(truth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{play_game, GameOptions};
    use fow_players::bots::RandomMove;
    use fow_variants::RuleSet;

    fn games(n: usize) -> Vec<GameRecord> {
        (0..n)
            .map(|k| {
                let mut white = RandomMove::default();
                let mut black = RandomMove::default();
                let opts = GameOptions::new(RuleSet::thesis());
                play_game(&mut white, &mut black, "a", "b", 40 + k as u64, &opts)
            })
            .collect()
    }

    #[test]
    fn every_turn_is_counted_and_a_small_cap_overflows() {
        let recs = games(2);
        let moves: u64 = recs.iter().map(|g| g.moves.len() as u64).sum();
        let big = exact_beliefs(&recs, 1_000).unwrap();
        assert_eq!(big.sides, 4);
        assert_eq!(big.turns, moves, "one turn per move played");
        let by_phase: u64 = big.phases.iter().map(|p| p.0).sum();
        assert_eq!(by_phase, big.turns);
        let exact: u64 = big.phases.iter().map(|p| p.1).sum();
        assert_eq!(exact, big.exact_turns());
        assert!(big.sizes.iter().all(|&s| (1..=1_000).contains(&s)));
        // White's first set is the start position alone.
        assert_eq!(big.sizes[0], 1);
        // Random moves soon hide more than 8 boards: every side overflows a cap of 8,
        // earlier than (or as) it overflows a cap of 1,000.
        let small = exact_beliefs(&recs, 8).unwrap();
        assert_eq!(small.overflows.len(), 4, "{:?}", small.overflows);
        assert!(small.exact_turns() < big.exact_turns());
        assert!(small.median_overflow() <= big.median_overflow().or(Some(usize::MAX)));
        assert_eq!(small.size_quantile(1.0), *small.sizes.last().unwrap());
    }

    #[test]
    fn the_same_games_measure_the_same() {
        let recs = games(1);
        let a = exact_beliefs(&recs, 500).unwrap();
        let b = exact_beliefs(&recs, 500).unwrap();
        assert_eq!(
            (a.sizes, a.overflows, a.children),
            (b.sizes, b.overflows, b.children)
        );
    }
}
