//! The king risk of each move ([`king_risk`]): the share of believed boards on which the
//! enemy can capture our king right after it, the danger a deep search of a few boards
//! misses. Shared by BeliefSearch and SubgameSolver.

use fow_variants::{Color, Move, Position};

/// For each of `moves` (ours, `us`, legal on every board), the weighted share of the
/// boards `order` picks from `boards` (index and weight) on which the enemy attacks our
/// king once the move is played.
pub(crate) fn king_risk(
    boards: &[Position],
    order: &[(usize, f64)],
    moves: &[Move],
    us: Color,
) -> Vec<f64> {
    let mut risk = vec![0.0; moves.len()];
    let mut counted = 0.0;
    for &(i, weight) in order {
        let b = &boards[i];
        counted += weight;
        for (j, m) in moves.iter().enumerate() {
            // The move as it would be played on this board (it fits every board of
            // the set: they all agree with what we see).
            let mut after = b.clone();
            after.play(m);
            let board = after.board();
            let Some(king) = board.king_of(us) else {
                continue;
            };
            if board.attacks_to(king, !us, board.occupied()).any() {
                risk[j] += weight;
            }
        }
    }
    let n = if counted > 0.0 { counted } else { 1.0 };
    risk.iter_mut().for_each(|r| *r /= n);
    risk
}
