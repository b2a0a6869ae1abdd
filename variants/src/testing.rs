//! Test support: positions from random playouts.

use rand::{Rng, SeedableRng};
use shakmaty::Role;

use crate::{Position, RuleSet};

/// Calls `visit` on every position of `games` random playouts from the start under
/// `rules` (up to 200 plies each, ending early when a king is captured or no move is
/// left), drawn from `seed`.
pub(crate) fn random_playouts(
    rules: &RuleSet,
    games: usize,
    seed: u64,
    mut visit: impl FnMut(&Position),
) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    for _ in 0..games {
        let mut pos = Position::startpos();
        for _ in 0..200 {
            visit(&pos);
            let moves = pos.legal_moves(rules);
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            if pos.play(&m) == Some(Role::King) {
                break;
            }
        }
    }
}
