//! SPSA as fishtest runs it: per parameter `c_end` and `r_end`, `alpha` 0.602, `gamma`
//! 0.101, `A` a share of the run's game pairs; each step a batch of game pairs between
//! `theta + c*flip` and `theta - c*flip`, then `theta += R * c * result * flip`, clamped.
//!
//! With `N` the game pairs of the whole run and `k` the pairs played before a batch
//! plus one (fishtest counts its iterations in game pairs and applies one update per
//! worker's batch):
//!
//! ```text
//! c   = c_end * N^gamma                  a = r_end * c_end^2 * (A + N)^alpha
//! c_k = c / k^gamma                      R_k = a / (A + k)^alpha / c_k^2
//! ```
//!
//! so that the last batch perturbs by `c_end` and learns at `r_end` (as in
//! fishtest's `server/fishtest/spsa_handler.py` and its run parser).

use fow_players::tune::TuneParam;
use fow_records::seed::SeedKey;
use serde::{Deserialize, Serialize};

/// fishtest's `alpha`: how fast the learning rate decays.
pub const ALPHA: f64 = 0.602;
/// fishtest's `gamma`: how fast the perturbation decays.
pub const GAMMA: f64 = 0.101;
/// `A` as a share of the run's game pairs (OpenBench's and fishtest's usual 10%).
pub const A_RATIO: f64 = 0.1;

/// The gains of a run: its length and the decay exponents.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gains {
    /// Game pairs in the whole run (`N`).
    pub pairs_total: u64,
    /// `alpha`.
    pub alpha: f64,
    /// `gamma`.
    pub gamma: f64,
    /// `A` as a share of `N`.
    pub a_ratio: f64,
}

/// One parameter's perturbation and learning rate for one batch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The perturbation `c_k`.
    pub c: f64,
    /// `R_k = a_k / c_k^2`.
    pub r: f64,
}

impl Gains {
    /// `A`.
    pub fn big_a(&self) -> f64 {
        self.a_ratio * self.pairs_total as f64
    }

    /// The step of `p` for the batch after `pairs_before` game pairs.
    pub fn step(&self, p: &TuneParam, pairs_before: u64) -> Step {
        let n = self.pairs_total as f64;
        let k = pairs_before as f64 + 1.0;
        let c0 = p.c_end * n.powf(self.gamma);
        let a0 = p.r_end * p.c_end * p.c_end * (self.big_a() + n).powf(self.alpha);
        let c = c0 / k.powf(self.gamma);
        Step {
            c,
            r: a0 / (self.big_a() + k).powf(self.alpha) / (c * c),
        }
    }
}

/// The signs of one batch's perturbation, one per parameter, drawn under `key`.
pub fn flips(key: &SeedKey, batch: u64, n: usize) -> Vec<f64> {
    (0..n)
        .map(|j| {
            let draw = key.derive(&[
                b"tune-flip",
                &batch.to_le_bytes(),
                &(j as u64).to_le_bytes(),
            ]);
            if draw & 1 == 0 {
                1.0
            } else {
                -1.0
            }
        })
        .collect()
}

/// The two candidates of a game pair: `theta +- c*flip`, clamped to each range; a whole
/// number parameter is rounded stochastically (`floor(v + u)`, `u` uniform in [0, 1) and
/// the same for both candidates, drawn per pair under `key`), as fishtest's workers round.
pub fn candidates(
    params: &[TuneParam],
    theta: &[f64],
    steps: &[Step],
    flips: &[f64],
    key: &SeedKey,
    batch: u64,
    pair: u64,
) -> [Vec<f64>; 2] {
    let one = |sign: f64| -> Vec<f64> {
        params
            .iter()
            .enumerate()
            .map(|(j, p)| {
                let v = (theta[j] + sign * steps[j].c * flips[j]).clamp(p.min, p.max);
                match p.int {
                    false => v,
                    true => {
                        let draw = key.derive(&[
                            b"tune-round",
                            &batch.to_le_bytes(),
                            &pair.to_le_bytes(),
                            &(j as u64).to_le_bytes(),
                        ]);
                        let u = (draw >> 11) as f64 / (1u64 << 53) as f64;
                        (v + u).floor().clamp(p.min.ceil(), p.max.floor())
                    }
                }
            })
            .collect()
    };
    [one(1.0), one(-1.0)]
}

/// `theta` after a batch whose pairs gave `result` (wins minus losses of the `+`
/// candidate), each value clamped to its range.
pub fn update(
    params: &[TuneParam],
    theta: &[f64],
    steps: &[Step],
    flips: &[f64],
    result: f64,
) -> Vec<f64> {
    params
        .iter()
        .enumerate()
        .map(|(j, p)| (theta[j] + steps[j].r * steps[j].c * result * flips[j]).clamp(p.min, p.max))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(c_end: f64, r_end: f64) -> TuneParam {
        TuneParam {
            name: "p".into(),
            key: "p".into(),
            start: 50.0,
            min: 0.0,
            max: 100.0,
            int: false,
            c_end,
            r_end,
        }
    }

    /// fishtest's formulas by hand, for a run of N = 1000 pairs, A = 100.
    #[test]
    fn gains_follow_fishtest() {
        let g = Gains {
            pairs_total: 1000,
            alpha: ALPHA,
            gamma: GAMMA,
            a_ratio: A_RATIO,
        };
        let p = param(4.0, 0.002);
        // The last pair's batch perturbs by c_end and learns at r_end.
        let last = g.step(&p, 999);
        assert!((last.c - 4.0).abs() < 1e-12, "{last:?}");
        assert!((last.r - 0.002).abs() < 1e-12, "{last:?}");
        // The first: c = c_end * N^gamma; R = a / (A+1)^alpha / c^2.
        let first = g.step(&p, 0);
        let c = 4.0 * 1000f64.powf(GAMMA);
        let a = 0.002 * 16.0 * 1100f64.powf(ALPHA);
        assert!(
            (first.c - c).abs() < 1e-9 && (first.c - 8.036).abs() < 1e-3,
            "{first:?}"
        );
        assert!((first.r - a / 101f64.powf(ALPHA) / (c * c)).abs() < 1e-12);
        // One update: theta += R c result flip, clamped.
        let t = update(std::slice::from_ref(&p), &[50.0], &[first], &[-1.0], 3.0);
        assert!((t[0] - (50.0 - first.r * first.c * 3.0)).abs() < 1e-12);
        assert_eq!(update(&[p], &[99.9], &[first], &[1.0], 1e9), [100.0]);
    }

    #[test]
    fn candidates_are_mirrored_clamped_and_rounded_alike() {
        let key = SeedKey::public(7);
        let mut p = param(1.0, 0.002);
        p.int = true;
        let steps = [Step { c: 2.3, r: 0.0 }];
        let mut seen = std::collections::BTreeSet::new();
        for pair in 0..200 {
            let [plus, minus] = candidates(&[p.clone()], &[10.0], &steps, &[1.0], &key, 0, pair);
            // 12.3 and 7.7 rounded with the same draw u: 12 and 7 (u < 0.3), 12 and 8,
            // or 13 and 8 (u >= 0.7).
            assert!(
                [4.0, 5.0].contains(&(plus[0] - minus[0])),
                "{plus:?} {minus:?}"
            );
            assert!(plus[0] == 12.0 || plus[0] == 13.0, "{plus:?}");
            seen.insert(plus[0] as i64);
        }
        assert_eq!(seen.len(), 2, "both roundings occur");
        let [plus, minus] = candidates(&[param(1.0, 0.002)], &[99.0], &steps, &[1.0], &key, 0, 0);
        assert_eq!(plus[0], 100.0);
        assert!((minus[0] - 96.7).abs() < 1e-12);
        assert_eq!(flips(&key, 3, 5), flips(&key, 3, 5));
        assert_ne!(flips(&key, 3, 64), flips(&key, 4, 64));
    }
}
