//! The validation split: whole games held out, so no game's positions are on both sides.

use fow_players::nn::dataset::Example;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// The games of a dataset as ranges of consecutive examples: a new game starts wherever
/// the ply does not increase (datasets list each game's decisions in order).
pub fn games(examples: &[Example]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..examples.len() {
        if examples[i].ply <= examples[i - 1].ply {
            out.push(start..i);
            start = i;
        }
    }
    if !examples.is_empty() {
        out.push(start..examples.len());
    }
    out
}

/// Splits the example indices into (training, validation): whole games, picked in a
/// seeded random order, go to validation until it holds at least `fraction` of the
/// examples. With `fraction > 0` both sides get at least one game (two are needed).
pub fn split(examples: &[Example], fraction: f64, seed: u64) -> (Vec<usize>, Vec<usize>) {
    let games = games(examples);
    if fraction <= 0.0 || games.len() < 2 {
        return ((0..examples.len()).collect(), Vec::new());
    }
    let mut order: Vec<usize> = (0..games.len()).collect();
    order.shuffle(&mut Pcg64Mcg::seed_from_u64(seed ^ 0x5eed_5b11));
    let want = (fraction * examples.len() as f64).ceil() as usize;
    let mut held = vec![false; games.len()];
    let mut n = 0;
    for &g in &order[..games.len() - 1] {
        if n >= want {
            break;
        }
        held[g] = true;
        n += games[g].len();
    }
    let (mut train, mut val) = (Vec::new(), Vec::new());
    for (g, r) in games.into_iter().enumerate() {
        if held[g] { &mut val } else { &mut train }.extend(r);
    }
    (train, val)
}

/// The training examples' order in `epoch` (1-based): a shuffle seeded by the run's seed
/// and the epoch, so a resumed run sees the same orders.
pub fn epoch_order(train: &[usize], seed: u64, epoch: u32) -> Vec<usize> {
    let mut order = train.to_vec();
    let mut rng =
        Pcg64Mcg::seed_from_u64(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(epoch));
    order.shuffle(&mut rng);
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example(ply: u16) -> Example {
        Example {
            now: [0; 64],
            prev: [0; 64],
            from: 0,
            to: 0,
            result: 0,
            ply,
            castling: 0,
            ep: 255,
        }
    }

    #[test]
    fn games_start_where_the_ply_does_not_grow() {
        // Both sides (0,1,2), White only (0,2,4), Black only (1,3), then a 1-ply game.
        let plies = [0, 1, 2, 0, 2, 4, 1, 3, 1, 0];
        let ex: Vec<Example> = plies.iter().map(|&p| example(p)).collect();
        assert_eq!(games(&ex), vec![0..3, 3..6, 6..8, 8..9, 9..10]);
        assert!(games(&[]).is_empty());
    }

    #[test]
    fn split_keeps_games_whole_and_is_seeded() {
        let ex: Vec<Example> = (0..100).flat_map(|_| (0..10).map(example)).collect();
        let (train, val) = split(&ex, 0.1, 7);
        assert_eq!(train.len() + val.len(), 1000);
        assert_eq!(val.len(), 100);
        for g in games(&ex) {
            let held = val.contains(&g.start);
            assert!(g.clone().all(|i| val.contains(&i) == held));
        }
        assert_eq!(split(&ex, 0.1, 7), (train.clone(), val.clone()));
        assert_ne!(split(&ex, 0.1, 8).1, val);
        // Never all of it: one game left for training.
        let two: Vec<Example> = (0..2).flat_map(|_| (0..5).map(example)).collect();
        let (t, v) = split(&two, 0.9, 1);
        assert_eq!((t.len(), v.len()), (5, 5));
        assert_eq!(split(&two, 0.0, 1).1.len(), 0);
        let order = epoch_order(&train, 3, 1);
        assert_ne!(order, train);
        assert_eq!(order, epoch_order(&train, 3, 1));
        assert_ne!(order, epoch_order(&train, 3, 2));
    }
}
