//! Choosing the best move, with ties broken uniformly at random.

use fow_variants::Move;
use rand::Rng;

/// The move with the highest score; among equal scores one is drawn uniformly at random
/// (one random draw per decision, so results do not depend on the generation order's
/// ties being resolved any particular way). `None` when `moves` is empty.
pub fn best_move<R: Rng, S: PartialOrd + Copy>(
    moves: &[Move],
    rng: &mut R,
    mut score: impl FnMut(&Move) -> S,
) -> Option<Move> {
    let mut best: Option<S> = None;
    let mut ties: Vec<usize> = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        let s = score(m);
        match best {
            Some(b) if s < b => {}
            Some(b) if s == b => ties.push(i),
            _ => {
                best = Some(s);
                ties.clear();
                ties.push(i);
            }
        }
    }
    match ties.len() {
        0 => None,
        1 => Some(moves[ties[0]]),
        n => Some(moves[ties[rng.random_range(0..n)]]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::{Position, RuleSet};
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    #[test]
    fn ties_are_broken_uniformly() {
        let moves = Position::startpos().legal_moves(&RuleSet::thesis());
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        let mut counts = [0u32; 20];
        for _ in 0..20_000 {
            let m = best_move(&moves, &mut rng, |_| 0).unwrap();
            counts[moves.iter().position(|x| *x == m).unwrap()] += 1;
        }
        // 1000 expected each; 5 standard deviations is about 155.
        assert!(
            counts.iter().all(|&c| (845..=1155).contains(&c)),
            "{counts:?}"
        );
        let m = best_move(&moves, &mut rng, |m| m.to.rank() as i32).unwrap();
        assert_eq!(m.to.rank(), fow_variants::shakmaty::Rank::Fourth);
        assert!(best_move(&[], &mut rng, |_| 0).is_none());
    }
}
