//! Weighted sampling without replacement from a stream, for belief sets too large to keep
//! or search whole: [`TopKeys`] keeps the items with the largest random keys, which is
//! Efraimidis and Spirakis's A-Res with the keys `ln(u) / w` and Duffield, Lund and
//! Thorup's priority sampling with the keys `w / u` (`u` uniform in (0, 1]).
//!
//! Priority sampling also says what each kept item stands for: with `τ` the largest key
//! not kept, the kept item of weight `w` is given `max(w, τ)`, and the sum of these over
//! any subset of the kept items estimates that subset's total weight without bias
//! (Duffield, Lund and Thorup, "Priority sampling for estimation of arbitrary subset
//! sums", J. ACM 54(6), 2007). That is what lets a sampled belief carry its boards'
//! probabilities from turn to turn ([`priority_sample`] for a slice).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rand::seq::SliceRandom;
use rand::Rng;

/// A sampling key, ordered by `f64::total_cmp`.
#[derive(Clone, Copy, Debug)]
struct Key(f64);

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.0.total_cmp(&other.0).is_eq()
    }
}

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// The `keep` largest of a stream of keys, each in a slot (`0..keep`) of the caller's
/// storage, and the largest key turned away (the threshold `τ` of priority sampling).
#[derive(Clone, Debug)]
pub struct TopKeys {
    keep: usize,
    /// The kept keys and their slots, smallest on top.
    heap: BinaryHeap<Reverse<(Key, usize)>>,
    /// The largest key not kept so far (`NEG_INFINITY` while every key was kept).
    threshold: f64,
}

impl TopKeys {
    /// Room for `keep` keys.
    pub fn new(keep: usize) -> TopKeys {
        TopKeys {
            keep,
            heap: BinaryHeap::with_capacity(keep),
            threshold: f64::NEG_INFINITY,
        }
    }

    /// Offers an item with `key`: the slot to store it in (a new slot, the next of
    /// `0..keep` in turn, while there is room; then the slot of the smallest key kept,
    /// whose item it replaces, when `key` is larger), or `None` when it is not kept.
    pub fn offer(&mut self, key: f64) -> Option<usize> {
        let key = Key(key);
        if self.heap.len() < self.keep {
            let slot = self.heap.len();
            self.heap.push(Reverse((key, slot)));
            return Some(slot);
        }
        if let Some(mut smallest) = self.heap.peek_mut() {
            let Reverse((out, slot)) = *smallest;
            if key > out {
                self.threshold = self.threshold.max(out.0);
                // Replaced in place: one sift down as `smallest` drops, where a pop and
                // a push took two.
                *smallest = Reverse((key, slot));
                return Some(slot);
            }
        }
        self.threshold = self.threshold.max(key.0);
        None
    }

    /// Whether some key was turned away (the items kept are a sample, not all).
    pub fn cut(&self) -> bool {
        self.threshold > f64::NEG_INFINITY
    }

    /// The largest key turned away, `τ`; `None` while every key was kept.
    pub fn threshold(&self) -> Option<f64> {
        self.cut().then_some(self.threshold)
    }

    /// The slots of the kept keys, largest key first.
    pub fn slots_by_key(self) -> Vec<usize> {
        let mut kept: Vec<(Key, usize)> = self.heap.into_iter().map(|Reverse(k)| k).collect();
        kept.sort_unstable_by(|a, b| b.cmp(a));
        kept.into_iter().map(|(_, slot)| slot).collect()
    }
}

/// The priority key of an item of weight `w`: `w / u` with `u` uniform in (0, 1] from
/// `rng`.
pub fn priority_key(w: f64, rng: &mut impl Rng) -> f64 {
    let u = 1.0 - rng.random::<f64>();
    w / u
}

/// The A-Res key of an item of weight `w`: `ln(u) / w` with `u` uniform in (0, 1] from
/// `rng` (the largest `k` keys are a sample without replacement in proportion to the
/// weights).
pub fn a_res_key(w: f64, rng: &mut impl Rng) -> f64 {
    let u = 1.0 - rng.random::<f64>();
    u.ln() / w.max(f64::MIN_POSITIVE)
}

/// A priority sample of `k` of the items weighing `weights` (all of them when there are
/// no more than `k`): their indices, largest key first, each with the weight it stands for
/// (`max(w, τ)`; its own weight when all are kept). One draw from `rng` per item, even
/// when all are kept.
///
/// ```
/// use fow_players::belief::sampling::priority_sample;
/// use rand::SeedableRng;
///
/// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
/// let weights = [8.0, 1.0, 1.0, 1.0, 1.0];
/// let picked = priority_sample(&weights, 2, &mut rng);
/// assert_eq!(picked.len(), 2);
/// // The estimate of the total is never below the largest weight kept.
/// let total: f64 = picked.iter().map(|&(_, w)| w).sum();
/// assert!(total >= 2.0);
/// ```
pub fn priority_sample(weights: &[f64], k: usize, rng: &mut impl Rng) -> Vec<(usize, f64)> {
    let mut top = TopKeys::new(k);
    let mut index = vec![0usize; k.min(weights.len())];
    for (i, &w) in weights.iter().enumerate() {
        if let Some(slot) = top.offer(priority_key(w, rng)) {
            index[slot] = i;
        }
    }
    let tau = top.threshold();
    top.slots_by_key()
        .into_iter()
        .map(|slot| {
            let i = index[slot];
            (i, tau.map_or(weights[i], |t| weights[i].max(t)))
        })
        .collect()
}

/// `k` of `n` items, all of them when there are no more: with `weights` (one per item) a
/// [`priority_sample`], largest key first, each with the weight it stands for; without, a
/// uniform sample in random order (a partial Fisher–Yates shuffle of the indices with
/// `rng`, or the indices in order when all are kept), each weighing 1.
pub fn sample_indices(
    n: usize,
    weights: Option<&[f64]>,
    k: usize,
    rng: &mut impl Rng,
) -> Vec<(usize, f64)> {
    match weights {
        Some(weights) => {
            debug_assert_eq!(weights.len(), n);
            priority_sample(weights, k, rng)
        }
        None => {
            let mut order: Vec<usize> = (0..n).collect();
            if order.len() > k {
                let (picked, _) = order.partial_shuffle(rng, k);
                order = picked.to_vec();
            }
            order.into_iter().map(|i| (i, 1.0)).collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    #[test]
    fn top_keys_keeps_the_largest_and_remembers_the_largest_turned_away() {
        let mut top = TopKeys::new(3);
        let keys = [5.0, 1.0, 4.0, 2.0, 9.0, 3.0];
        let mut slots = [f64::NAN; 3];
        for k in keys {
            if let Some(s) = top.offer(k) {
                slots[s] = k;
            }
        }
        assert_eq!(top.threshold(), Some(3.0));
        let order: Vec<f64> = top.slots_by_key().into_iter().map(|s| slots[s]).collect();
        assert_eq!(order, vec![9.0, 5.0, 4.0]);
    }

    #[test]
    fn nothing_turned_away_means_no_threshold() {
        let mut top = TopKeys::new(4);
        assert_eq!(top.offer(1.0), Some(0));
        assert_eq!(top.offer(0.5), Some(1));
        assert!(!top.cut());
        assert_eq!(top.threshold(), None);
        assert_eq!(top.slots_by_key(), vec![0, 1]);
    }

    #[test]
    fn a_uniform_sample_of_indices_is_k_distinct_ones_each_weighing_one() {
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        let picked = sample_indices(10, None, 4, &mut rng);
        assert_eq!(picked.len(), 4);
        let mut seen: Vec<usize> = picked
            .iter()
            .map(|&(i, w)| {
                assert_eq!(w, 1.0);
                i
            })
            .collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 4);
        assert!(seen.iter().all(|&i| i < 10));
        assert_eq!(
            sample_indices(3, None, 4, &mut rng),
            vec![(0, 1.0), (1, 1.0), (2, 1.0)]
        );
    }

    #[test]
    fn all_kept_when_no_more_than_k() {
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        let picked = priority_sample(&[0.5, 2.0, 1.0], 3, &mut rng);
        let mut got = picked.clone();
        got.sort_by_key(|&(i, _)| i);
        assert_eq!(got, vec![(0, 0.5), (1, 2.0), (2, 1.0)]);
    }

    /// The estimator is unbiased: over many seeds, the mean estimate of a subset's weight
    /// is its true weight (here the first item, of weight 8 out of 20, and the ten
    /// lightest, of weight 5), within a few standard errors.
    #[test]
    fn priority_sampling_estimates_subset_sums_without_bias() {
        let mut weights = vec![8.0, 4.0, 3.0];
        weights.extend(std::iter::repeat_n(0.5, 10));
        let runs = 20_000;
        let (mut first, mut light) = (0.0, 0.0);
        let (mut first_sq, mut light_sq) = (0.0, 0.0);
        for seed in 0..runs {
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let picked = priority_sample(&weights, 4, &mut rng);
            let f: f64 = picked.iter().filter(|p| p.0 == 0).map(|p| p.1).sum();
            let l: f64 = picked.iter().filter(|p| p.0 >= 3).map(|p| p.1).sum();
            first += f;
            first_sq += f * f;
            light += l;
            light_sq += l * l;
        }
        let n = runs as f64;
        for (sum, sq, truth) in [(first, first_sq, 8.0), (light, light_sq, 5.0)] {
            let mean = sum / n;
            let se = ((sq / n - mean * mean) / n).sqrt();
            assert!(
                (mean - truth).abs() < 4.0 * se + 1e-9,
                "mean {mean}, truth {truth}, se {se}"
            );
        }
    }

    /// A-Res keys keep an item with its inclusion probability: of weights 3, 1, 1 with
    /// one kept, the first is kept 3/5 of the time.
    #[test]
    fn a_res_keeps_in_proportion_to_weight() {
        let runs = 20_000u32;
        let mut first = 0u32;
        for seed in 0..runs {
            let mut rng = Pcg64Mcg::seed_from_u64(u64::from(seed));
            let mut top = TopKeys::new(1);
            let mut slot_item = [usize::MAX];
            for (i, w) in [3.0, 1.0, 1.0].into_iter().enumerate() {
                if let Some(s) = top.offer(a_res_key(w, &mut rng)) {
                    slot_item[s] = i;
                }
            }
            first += u32::from(slot_item[0] == 0);
        }
        let p = f64::from(first) / f64::from(runs);
        // Binomial standard error at 0.6 over 20,000: 0.0035.
        assert!((p - 0.6).abs() < 0.015, "{p}");
    }
}
