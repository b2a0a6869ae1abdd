//! Statistics of a head-to-head match played in game pairs, as fishtest and fastchess
//! compute them: pentanomial counts, the generalized SPRT, Elo and normalized Elo with
//! 95% intervals, and the likelihood of superiority.
//!
//! A *pair* is two games between A and B from the same start, colours swapped; it scores
//! 0, ½, 1, 1½ or 2 points for A. Counting pairs by that score (the *pentanomial*) rather
//! than games by result accounts for the correlation between the two games of a pair,
//! which gives smaller, honest error bars when the openings are unbalanced.
//!
//! Sources, followed formula for formula:
//!
//! - fishtest, `server/fishtest/stats/LLRcalc.py` (Michel Van den Bergh): the regularization
//!   of zero counts, the maximum-likelihood distributions `MLE_expected` and `MLE_t_value`,
//!   `LLR_logistic` and `LLR_normalized`;
//! - fishtest, `server/fishtest/stats/stat_util.py`: the SPRT bounds (`SPRT`);
//! - fastchess, `app/src/matchmaking/elo/elo_pentanomial.cpp`: score, pair variance, Elo,
//!   normalized Elo, their intervals and the LOS; `app/src/matchmaking/sprt/sprt.cpp`: the
//!   spec's validity rules and the verdict.
//!
//! ```
//! use fow_ratings::{llr, MatchStats, Pentanomial, Score, SprtSpec, Verdict};
//! let spec = SprtSpec::parse("elo0=0,elo1=5,model=normalized")?;
//! let (lower, upper) = spec.bounds();
//! assert!((upper - 2.944).abs() < 1e-3 && (lower + 2.944).abs() < 1e-3);
//!
//! let mut pairs = Pentanomial::new();
//! pairs.add_pair(Score::Win, Score::Draw); // 1½ points of 2 for A
//! pairs.add_pair(Score::Loss, Score::Win); // 1 point
//! pairs.add_pair(Score::Draw, Score::Draw); // 1 point
//! assert_eq!(pairs.counts, [0, 0, 2, 1, 0]);
//! assert_eq!((pairs.wins(), pairs.draws(), pairs.losses()), (2, 3, 1));
//!
//! let llr = llr(&pairs, &spec);
//! assert!(llr.is_finite());
//! assert_eq!(spec.verdict(llr), Verdict::Continue);
//!
//! let stats = MatchStats::from(&pairs);
//! assert_eq!(stats.games, 6);
//! let elo = stats.elo.unwrap(); // A scored 7/12
//! assert!(elo.value > 0.0 && elo.lower < elo.value && elo.value < elo.upper);
//! # Ok::<(), fow_ratings::SprtSpecError>(())
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::Score;

/// Normalized Elo per unit of t-value, 800 / ln 10 ≈ 347.4 (fishtest `LLRcalc.py`,
/// `nelo_divided_by_nt`).
const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// Φ⁻¹(0.975), the z-score of a two-sided 95% interval (fastchess `CI95_ZSCORE`).
const CI95_Z: f64 = 1.959963984540054;

/// What a zero count is replaced by before the LLR is computed (fishtest `LLRcalc.py`,
/// `regularize`: each zero entry becomes 1e-3; the other entries are left alone).
const REGULARIZATION: f64 = 1e-3;

/// Pair scores of the pentanomial bins, as fractions of the pair's 2 points (fishtest
/// `results_to_pdf`: `i / (count - 1)`).
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Game pairs counted by the points the first player (A) scored in them.
///
/// `counts[i]` is the number of pairs in which A scored `i / 2` points: LL, LD+DL,
/// WL+LW+DD, WD+DW, WW — the order of fishtest's `Ptnml(0-2)` line. Because a 1-point
/// pair may be a win and a loss or two draws, `win_loss_pairs` remembers how many of the
/// `counts[2]` pairs were a win and a loss, so that game totals (wins, draws, losses) can
/// be recovered; it should not exceed `counts[2]` (larger values are read as `counts[2]`).
///
/// ```
/// use fow_ratings::{Pentanomial, Score};
/// let mut p = Pentanomial::new();
/// p.add_pair(Score::Win, Score::Loss);
/// p.add_pair(Score::Win, Score::Win);
/// assert_eq!(p.counts, [0, 0, 1, 0, 1]);
/// assert_eq!(p.win_loss_pairs, 1);
/// assert_eq!((p.pairs(), p.games(), p.points()), (2, 4, 3.0));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Pentanomial {
    /// Pairs in which A scored 0, ½, 1, 1½ and 2 points.
    pub counts: [u64; 5],
    /// How many of the `counts[2]` pairs were one win and one loss (the rest: two draws).
    pub win_loss_pairs: u64,
}

impl Pentanomial {
    /// No pairs yet.
    pub fn new() -> Pentanomial {
        Pentanomial::default()
    }

    /// Pairs counted elsewhere (e.g. a fishtest `Ptnml(0-2)` line), with no information
    /// on how the 1-point pairs split: they are taken as two draws each, which only
    /// matters for [`wins`](Self::wins), [`draws`](Self::draws) and
    /// [`losses`](Self::losses).
    pub fn from_counts(counts: [u64; 5]) -> Pentanomial {
        Pentanomial {
            counts,
            win_loss_pairs: 0,
        }
    }

    /// Records one pair: A's score in its first game and in its second (colours
    /// swapped). The order of the two games does not matter.
    pub fn add_pair(&mut self, first: Score, second: Score) {
        let half_points = |s: Score| match s {
            Score::Win => 2,
            Score::Draw => 1,
            Score::Loss => 0,
        };
        self.counts[half_points(first) + half_points(second)] += 1;
        if matches!(
            (first, second),
            (Score::Win, Score::Loss) | (Score::Loss, Score::Win)
        ) {
            self.win_loss_pairs += 1;
        }
    }

    /// Pairs played.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Games played: two per pair.
    pub fn games(&self) -> u64 {
        2 * self.pairs()
    }

    /// A's total points (1 per win, ½ per draw).
    pub fn points(&self) -> f64 {
        self.counts
            .iter()
            .enumerate()
            .map(|(i, &n)| n as f64 * i as f64 / 2.0)
            .sum()
    }

    fn win_loss(&self) -> u64 {
        self.win_loss_pairs.min(self.counts[2])
    }

    /// Games A won.
    pub fn wins(&self) -> u64 {
        self.counts[3] + 2 * self.counts[4] + self.win_loss()
    }

    /// Games drawn.
    pub fn draws(&self) -> u64 {
        self.counts[1] + 2 * (self.counts[2] - self.win_loss()) + self.counts[3]
    }

    /// Games A lost.
    pub fn losses(&self) -> u64 {
        2 * self.counts[0] + self.counts[1] + self.win_loss()
    }
}

/// How an SPRT's Elo bounds are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    /// Logistic Elo: the hypothesis is on the expected score per game,
    /// `1 / (1 + 10^(−elo / 400))` (fishtest `LLR_logistic`).
    #[default]
    Logistic,
    /// Normalized Elo: the hypothesis is on the t-value `(score − ½) / σ` per game,
    /// with `nElo = t · 800 / ln 10`; for pairs, fishtest compares the per-pair t-value
    /// with `√2 · t` (`LLR_normalized`). It does not depend on the draw rate.
    Normalized,
}

impl fmt::Display for EloModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        })
    }
}

impl FromStr for EloModel {
    type Err = SprtSpecError;

    /// `logistic` or `normalized`.
    fn from_str(s: &str) -> Result<EloModel, SprtSpecError> {
        match s {
            "logistic" => Ok(EloModel::Logistic),
            "normalized" => Ok(EloModel::Normalized),
            _ => Err(SprtSpecError::new(format!(
                "unknown model {s:?} (expected logistic or normalized)"
            ))),
        }
    }
}

/// Why an SPRT specification was refused. Displays as one line.
///
/// ```
/// use fow_ratings::SprtSpec;
/// let e = SprtSpec::parse("elo0=5,elo1=0").unwrap_err();
/// assert_eq!(e.to_string(), "elo0 (5) must be less than elo1 (0)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SprtSpecError {
    /// What is wrong, one line.
    pub message: String,
}

impl SprtSpecError {
    fn new(message: String) -> SprtSpecError {
        SprtSpecError { message }
    }
}

impl fmt::Display for SprtSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SprtSpecError {}

/// The largest |Elo| accepted as an SPRT bound, in either model. Far beyond any useful
/// test, and it keeps the hypotheses where fishtest's maximum-likelihood solvers work:
/// the normalized one needs a per-pair t-value below 1, i.e. |nElo| < 245.6 (above
/// that the first step of `MLE_t_value` has no root for any counts), and the logistic
/// one loses accuracy as the expected score nears 0 or 1 (past about ±1000 Elo).
pub const SPRT_ELO_LIMIT: f64 = 200.0;

/// A sequential probability ratio test: H0 `elo = elo0` against H1 `elo = elo1`, with
/// false-positive rate `alpha` (accepting H1 when H0 holds) and false-negative rate `beta`.
///
/// ```
/// use fow_ratings::{EloModel, SprtSpec};
/// let spec = SprtSpec::parse("elo0=-1.75, elo1=0.25, alpha=0.05, beta=0.1")?;
/// assert_eq!(spec.model, EloModel::Logistic);
/// assert_eq!(spec.to_string(), "elo0=-1.75,elo1=0.25,alpha=0.05,beta=0.1,model=logistic");
/// assert_eq!(SprtSpec::parse(&spec.to_string())?, spec);
/// # Ok::<(), fow_ratings::SprtSpecError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SprtSpec {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1; greater than `elo0`.
    pub elo1: f64,
    /// Largest probability of accepting H1 when H0 holds, in (0, 1).
    pub alpha: f64,
    /// Largest probability of accepting H0 when H1 holds, in (0, 1).
    pub beta: f64,
    /// How `elo0` and `elo1` are read.
    pub model: EloModel,
}

impl SprtSpec {
    /// A checked specification. The rules are fastchess's (`SPRT::isValid`): `elo0 < elo1`,
    /// `alpha` and `beta` in (0, 1), `alpha + beta < 1`; in addition every number must be
    /// finite and |elo0|, |elo1| at most [`SPRT_ELO_LIMIT`].
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: EloModel,
    ) -> Result<SprtSpec, SprtSpecError> {
        let fail = |m: String| Err(SprtSpecError::new(m));
        for (name, value) in [("elo0", elo0), ("elo1", elo1)] {
            if !(-SPRT_ELO_LIMIT..=SPRT_ELO_LIMIT).contains(&value) {
                return fail(format!(
                    "{name} must be a number between -{SPRT_ELO_LIMIT} and {SPRT_ELO_LIMIT}, found {value}"
                ));
            }
        }
        if elo0 >= elo1 {
            return fail(format!("elo0 ({elo0}) must be less than elo1 ({elo1})"));
        }
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 1.0) {
                return fail(format!(
                    "{name} must lie strictly between 0 and 1, found {value}"
                ));
            }
        }
        if alpha + beta >= 1.0 {
            return fail(format!(
                "alpha + beta must be less than 1, found {alpha} + {beta}"
            ));
        }
        Ok(SprtSpec {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// Parses comma-separated `key=value` items: `elo0` and `elo1` (required), `alpha`
    /// and `beta` (default 0.05), `model` (`logistic`, the default, or `normalized`).
    /// Spaces around items, keys and values are ignored. The error says what is wrong:
    /// a missing `elo0`/`elo1`, an unknown or repeated key, a value that is not a number,
    /// or a rule of [`new`](Self::new) broken.
    pub fn parse(text: &str) -> Result<SprtSpec, SprtSpecError> {
        let fail = |m: String| Err(SprtSpecError::new(m));
        let mut values: [Option<f64>; 4] = [None; 4];
        let mut model = None;
        const KEYS: [&str; 4] = ["elo0", "elo1", "alpha", "beta"];
        for item in text.split(',') {
            let item = item.trim();
            let Some((key, value)) = item.split_once('=') else {
                return fail(format!("expected key=value, found {item:?}"));
            };
            let (key, value) = (key.trim(), value.trim());
            if key == "model" {
                if model.is_some() {
                    return fail("model given twice".into());
                }
                model = Some(value.parse::<EloModel>()?);
                continue;
            }
            let Some(slot) = KEYS.iter().position(|&k| k == key) else {
                return fail(format!(
                    "unknown key {key:?} (expected elo0, elo1, alpha, beta or model)"
                ));
            };
            if values[slot].is_some() {
                return fail(format!("{key} given twice"));
            }
            match value.parse::<f64>() {
                Ok(v) if v.is_finite() => values[slot] = Some(v),
                _ => return fail(format!("{key}: {value:?} is not a finite number")),
            }
        }
        let [Some(elo0), Some(elo1), alpha, beta] = values else {
            let missing = if values[0].is_none() { "elo0" } else { "elo1" };
            return fail(format!("missing {missing} (e.g. elo0=0,elo1=5)"));
        };
        SprtSpec::new(
            elo0,
            elo1,
            alpha.unwrap_or(0.05),
            beta.unwrap_or(0.05),
            model.unwrap_or_default(),
        )
    }

    /// The LLR bounds `(ln(β / (1 − α)), ln((1 − β) / α))`, ±2.944 for α = β = 0.05
    /// (fishtest `stat_util.py`, `SPRT`; fastchess `SPRT::SPRT`).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The decision for a log-likelihood ratio: H1 once `llr` reaches the upper bound,
    /// H0 once it reaches the lower bound, otherwise play on (fastchess
    /// `SPRT::getResult`; fishtest's dynamic overshoot correction is not applied).
    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::AcceptH1
        } else if llr <= lower {
            Verdict::AcceptH0
        } else {
            Verdict::Continue
        }
    }
}

impl fmt::Display for SprtSpec {
    /// The form [`SprtSpec::parse`] reads, with every key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={},model={}",
            self.elo0, self.elo1, self.alpha, self.beta, self.model
        )
    }
}

impl FromStr for SprtSpec {
    type Err = SprtSpecError;

    fn from_str(s: &str) -> Result<SprtSpec, SprtSpecError> {
        SprtSpec::parse(s)
    }
}

/// The state of an SPRT after some pairs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Verdict {
    /// The LLR reached the lower bound: stop, H0 (`elo = elo0`) accepted.
    AcceptH0,
    /// The LLR reached the upper bound: stop, H1 (`elo = elo1`) accepted.
    AcceptH1,
    /// Neither bound reached: play more pairs.
    Continue,
}

/// Expected score of a player `elo` logistic Elo points stronger (fishtest `L_`).
fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Mean and variance of the values `a` under the probabilities `p` (fishtest `stats`).
fn mean_var(a: &[f64; 5], p: &[f64; 5]) -> (f64, f64) {
    let mu: f64 = a.iter().zip(p).map(|(a, p)| a * p).sum();
    let var = a.iter().zip(p).map(|(a, p)| p * (a - mu) * (a - mu)).sum();
    (mu, var)
}

/// Solves the secular equation `Σ pᵢ aᵢ / (1 + x aᵢ) = 0` for `x` in `(−1 / max a,
/// −1 / min a)` (fishtest `secular`). The left side falls strictly from +∞ to −∞ on that
/// interval when all `pᵢ > 0`, so the root is unique; fishtest finds it with Brent's
/// method (`scipy.optimize.brentq`, tolerance ~1e-12), this with bisection down to
/// adjacent floating-point numbers. `None` when the `aᵢ` do not take both signs.
fn secular(a: &[f64; 5], p: &[f64; 5]) -> Option<f64> {
    let v = a.iter().copied().fold(f64::INFINITY, f64::min);
    let w = a.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(v < 0.0 && w > 0.0) {
        return None;
    }
    let f = |x: f64| -> f64 { a.iter().zip(p).map(|(a, p)| p * a / (1.0 + x * a)).sum() };
    let (mut lo, mut hi) = (-1.0 / w, -1.0 / v);
    let mut mid = (lo + hi) / 2.0;
    for _ in 0..2000 {
        let value = f(mid);
        if value == 0.0 {
            break;
        }
        if value > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
        let next = lo + (hi - lo) / 2.0;
        if next == lo || next == hi {
            break;
        }
        mid = next;
    }
    Some(mid)
}

/// The maximum-likelihood distribution on the pair scores whose expectation is `s`,
/// given the empirical distribution `phat` (fishtest `MLE_expected`; Van den Bergh,
/// "support_MLE_multinomial", Proposition 1.1): `pᵢ = p̂ᵢ / (1 + x (aᵢ − s))` with `x`
/// the root of the secular equation.
fn mle_expected(phat: &[f64; 5], s: f64) -> Option<[f64; 5]> {
    let shifted = PAIR_SCORES.map(|a| a - s);
    let x = secular(&shifted, phat)?;
    Some(std::array::from_fn(|i| phat[i] / (1.0 + x * shifted[i])))
}

/// The maximum-likelihood distribution on the pair scores whose t-value
/// `(μ − reference) / σ` is `t`, given the empirical distribution `phat` (fishtest
/// `MLE_t_value`; Van den Bergh, "normalized_elo_practical", section 4.1): start from the
/// uniform distribution and repeatedly solve the secular equation for
/// `φᵢ = aᵢ − reference − t σ (1 + ((μ − aᵢ) / σ)²) / 2`, with μ and σ those of the
/// current estimate, until no probability moves by 1e-9. Fishtest stops after 10 rounds
/// (and asserts that the t-value is then within 1e-5); this allows 100, which gives the
/// same result wherever fishtest's converged.
fn mle_t_value(phat: &[f64; 5], reference: f64, t: f64) -> Option<[f64; 5]> {
    let mut p = [0.2; 5];
    for _ in 0..100 {
        let (mu, var) = mean_var(&PAIR_SCORES, &p);
        let sigma = var.sqrt();
        let phi = PAIR_SCORES
            .map(|a| a - reference - t * sigma * (1.0 + ((mu - a) / sigma).powi(2)) / 2.0);
        let x = secular(&phi, phat)?;
        let next: [f64; 5] = std::array::from_fn(|i| phat[i] / (1.0 + x * phi[i]));
        let moved = (0..5).map(|i| (next[i] - p[i]).abs()).fold(0.0, f64::max);
        p = next;
        if moved < 1e-9 {
            break;
        }
    }
    Some(p)
}

/// The generalized log-likelihood ratio of H1 against H0 for the pairs played, exactly
/// as fishtest computes it for pentanomial results (`LLRcalc.py`, `LLR_logistic` and
/// `LLR_normalized`; fastchess `sprt.cpp` reimplements the same):
///
/// 1. every zero count is replaced by 1e-3 (`regularize`), and the counts, divided by
///    their sum N, give the empirical distribution p̂ on the pair scores 0, ¼, ½, ¾, 1;
/// 2. for each hypothesis, the distribution p⁽ʰ⁾ of greatest likelihood among those
///    satisfying it: an expected score `1 / (1 + 10^(−elo / 400))` (logistic), or a
///    per-pair t-value `(μ − ½) / σ = √2 · nelo / (800 / ln 10)` (normalized);
/// 3. `LLR = N Σᵢ p̂ᵢ ln(p⁽¹⁾ᵢ / p⁽⁰⁾ᵢ)`.
///
/// With no pairs it is a tiny number (the regularized counts sum to 0.005), never NaN.
/// Within the Elo range that [`SprtSpec::new`] accepts, the solvers succeeded on every
/// count pattern tried (random tests, empty bins included); for a spec built by hand
/// outside that range, where one can fail (fishtest's would raise an assertion), the
/// function returns 0, no evidence either way, rather than NaN.
pub fn llr(pairs: &Pentanomial, spec: &SprtSpec) -> f64 {
    let regularized = pairs
        .counts
        .map(|n| if n == 0 { REGULARIZATION } else { n as f64 });
    let total: f64 = regularized.iter().sum();
    let phat = regularized.map(|n| n / total);
    let (p0, p1) = match spec.model {
        EloModel::Logistic => (
            mle_expected(&phat, logistic_score(spec.elo0)),
            mle_expected(&phat, logistic_score(spec.elo1)),
        ),
        EloModel::Normalized => {
            let t = |nelo: f64| nelo / NELO_PER_T * std::f64::consts::SQRT_2;
            (
                mle_t_value(&phat, 0.5, t(spec.elo0)),
                mle_t_value(&phat, 0.5, t(spec.elo1)),
            )
        }
    };
    let (Some(p0), Some(p1)) = (p0, p1) else {
        return 0.0;
    };
    let value = total
        * (0..5)
            .map(|i| phat[i] * (p1[i].ln() - p0[i].ln()))
            .sum::<f64>();
    if value.is_finite() {
        value
    } else {
        0.0
    }
}

/// An estimate with its 95% interval, on an Elo scale.
///
/// In JSON (`match.json`) an infinite end is written `null`, as JSON has no infinity, and
/// `null` is read back as −∞ for `lower` and +∞ for `upper`.
///
/// ```
/// use fow_ratings::EloInterval;
/// let e = EloInterval { value: 496.2, lower: 355.7, upper: f64::INFINITY };
/// let json = serde_json::to_string(&e)?;
/// assert_eq!(json, r#"{"value":496.2,"lower":355.7,"upper":null}"#);
/// assert_eq!(serde_json::from_str::<EloInterval>(&json)?, e);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct EloInterval {
    /// The point estimate.
    pub value: f64,
    /// Lower end of the 95% interval; −∞ when the score's interval reaches 0.
    #[serde(
        serialize_with = "infinite_end::write",
        deserialize_with = "infinite_end::lower"
    )]
    pub lower: f64,
    /// Upper end of the 95% interval; +∞ when the score's interval reaches 1.
    #[serde(
        serialize_with = "infinite_end::write",
        deserialize_with = "infinite_end::upper"
    )]
    pub upper: f64,
}

/// An interval end in JSON: `null` for an infinite end, whose sign the field gives.
mod infinite_end {
    use serde::{Deserialize, Deserializer, Serializer};

    /// A finite end as a number, an infinite one as `null`.
    pub fn write<S: Serializer>(end: &f64, serializer: S) -> Result<S::Ok, S::Error> {
        if end.is_finite() {
            serializer.serialize_f64(*end)
        } else {
            serializer.serialize_none()
        }
    }

    /// A lower end: `null` is −∞.
    pub fn lower<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(deserializer)?.unwrap_or(f64::NEG_INFINITY))
    }

    /// An upper end: `null` is +∞.
    pub fn upper<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(deserializer)?.unwrap_or(f64::INFINITY))
    }
}

impl EloInterval {
    /// Half the interval's width, the "± error" fastchess prints (`(upper − lower) / 2`;
    /// infinite when an end is).
    pub fn error(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

/// What fastchess reports after each pair, from the pentanomial counts
/// (`elo_pentanomial.cpp`, `EloPentanomial`). fishtest's `stat_util.get_elo` computes
/// nearly, not exactly, the same Elo: it first replaces every empty bin by 1e-3 (as
/// [`llr`] does, `LLRcalc.regularize`), which moves the score a little whenever a bin is
/// empty, clamps the score to [0.001, 0.999] before taking its Elo (fow gives ±∞ or no
/// value instead), and reports a symmetric half-width where fow keeps both ends.
///
/// With N pairs and pair scores `aᵢ` = 0, ¼, ½, ¾, 1 (points ÷ 2):
///
/// - `score` = mean pair score `μ = Σ nᵢ aᵢ / N`, which is also the score per game;
/// - `var` = `Σ nᵢ (aᵢ − μ)² / N`, the pentanomial variance of a pair's score;
/// - Elo = `−400 log₁₀(1/μ − 1)`, its interval the same function of
///   `μ ± 1.959964 √(var / N)`;
/// - nElo = `(μ − ½) / √(2 var) · 800 / ln 10`, its interval the same function of the
///   same score interval (so its half-width, `1.959964 · 800 / ln 10 / √(2N)`, depends
///   on N only);
/// - LOS = `Φ((μ − ½) / √(var / N))` = `(1 − erf(−(μ − ½) / √(2 var / N))) / 2`.
///
/// Undefined values are `None`: all of them with no pairs; Elo at a score of 0 or 1;
/// nElo when every pair scored the same (variance 0); LOS when, in addition, that score
/// is ½ (with variance 0 and any other score it is 0 or 1).
///
/// ```
/// use fow_ratings::{MatchStats, Pentanomial};
/// let s = MatchStats::from(&Pentanomial::from_counts([10, 20, 40, 20, 10]));
/// assert_eq!((s.pairs, s.games, s.score), (100, 200, Some(0.5)));
/// assert_eq!(s.elo.unwrap().value, 0.0);
/// assert_eq!(s.los, Some(0.5));
/// assert_eq!(s.pair_draw_ratio, Some(0.4));
/// assert!(MatchStats::from(&Pentanomial::new()).elo.is_none());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MatchStats {
    /// Pairs played.
    pub pairs: u64,
    /// Games played (two per pair).
    pub games: u64,
    /// Games A won (see [`Pentanomial::wins`]).
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games A lost.
    pub losses: u64,
    /// A's score as a fraction of the points played for, in [0, 1].
    pub score: Option<f64>,
    /// Logistic Elo difference A − B with its 95% interval.
    pub elo: Option<EloInterval>,
    /// Normalized Elo difference A − B with its 95% interval.
    pub nelo: Option<EloInterval>,
    /// Likelihood of superiority: the probability, under the normal approximation, that
    /// A is the stronger.
    pub los: Option<f64>,
    /// Fraction of pairs that scored 1 point each (fastchess `drawRatioPenta`: WL + DD).
    pub pair_draw_ratio: Option<f64>,
}

/// Logistic Elo of a score, `−400 log₁₀(1/s − 1)` (fastchess `scoreToEloDiff`), taken to
/// ±∞ outside (0, 1).
fn score_to_elo(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The error function, from its everywhere-convergent series
/// `erf x = 2/√π · e^(−x²) · Σₙ 2ⁿ x^(2n+1) / (1·3·…·(2n+1))` (Abramowitz and Stegun
/// 7.1.6), whose terms are all positive; |erf x| rounds to 1 for |x| ≥ 6.
fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x.abs() >= 6.0 {
        return x.signum();
    }
    let mut term = x;
    let mut sum = x;
    let mut n = 0.0;
    while term.abs() > 1e-17 * sum.abs() {
        n += 1.0;
        term *= 2.0 * x * x / (2.0 * n + 1.0);
        sum += term;
    }
    (2.0 / std::f64::consts::PI.sqrt() * (-x * x).exp() * sum).clamp(-1.0, 1.0)
}

impl From<&Pentanomial> for MatchStats {
    fn from(p: &Pentanomial) -> MatchStats {
        let pairs = p.pairs();
        let mut stats = MatchStats {
            pairs,
            games: p.games(),
            wins: p.wins(),
            draws: p.draws(),
            losses: p.losses(),
            score: None,
            elo: None,
            nelo: None,
            los: None,
            pair_draw_ratio: None,
        };
        if pairs == 0 {
            return stats;
        }
        let n = pairs as f64;
        let freq = p.counts.map(|c| c as f64 / n);
        let (score, var) = mean_var(&PAIR_SCORES, &freq);
        stats.score = Some(score);
        stats.pair_draw_ratio = Some(freq[2]);
        let half_width = CI95_Z * (var / n).sqrt();
        let (lower, upper) = (score - half_width, score + half_width);
        if score > 0.0 && score < 1.0 {
            stats.elo = Some(EloInterval {
                value: score_to_elo(score),
                lower: score_to_elo(lower),
                upper: score_to_elo(upper),
            });
        }
        if var > 0.0 {
            let nelo = |s: f64| (s - 0.5) / (2.0 * var).sqrt() * NELO_PER_T;
            stats.nelo = Some(EloInterval {
                value: nelo(score),
                lower: nelo(lower),
                upper: nelo(upper),
            });
            stats.los = Some((1.0 - erf(-(score - 0.5) / (2.0 * var / n).sqrt())) / 2.0);
        } else if score != 0.5 {
            stats.los = Some(if score > 0.5 { 1.0 } else { 0.0 });
        }
        stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_known_values() {
        // Abramowitz and Stegun, Table 7.1.
        for (x, e) in [
            (0.0, 0.0),
            (0.5, 0.520_499_877_8),
            (1.0, 0.842_700_792_9),
            (2.0, 0.995_322_265_0),
            (-1.5, -0.966_105_146_5),
        ] {
            assert!((erf(x) - e).abs() < 1e-10, "erf({x}) = {}", erf(x));
        }
        assert_eq!(erf(7.0), 1.0);
    }

    #[test]
    fn mle_distributions_meet_their_constraints() {
        let phat = [0.05, 0.2, 0.5, 0.2, 0.05];
        let p = mle_expected(&phat, 0.53).unwrap();
        let (mu, _) = mean_var(&PAIR_SCORES, &p);
        assert!((mu - 0.53).abs() < 1e-12);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let p = mle_t_value(&phat, 0.5, 0.1).unwrap();
        let (mu, var) = mean_var(&PAIR_SCORES, &p);
        assert!(((mu - 0.5) / var.sqrt() - 0.1).abs() < 1e-6);
    }

    /// A lopsided match gathers evidence slowly: when every pair is won 2–0, the
    /// regularized empirical distribution is nearly a point mass, so each pair adds only
    /// about 0.014 to the LLR at elo0=0, elo1=5 (logistic). The numbers docs/src/match.md
    /// states: LLR 1.43 after 100 straight pair wins, H1 first accepted after 207 (and
    /// 147 with model=normalized).
    #[test]
    fn straight_pair_wins_needed_for_h1() {
        let sweeps = |n: u64| Pentanomial::from_counts([0, 0, 0, 0, n]);
        let first_h1 = |spec: &SprtSpec| {
            (1..10_000u64).find(|&n| spec.verdict(llr(&sweeps(n), spec)) == Verdict::AcceptH1)
        };
        let spec = SprtSpec::parse("elo0=0,elo1=5").unwrap();
        assert_eq!(spec.model, EloModel::Logistic);
        let at_100 = llr(&sweeps(100), &spec);
        assert!((at_100 - 1.43).abs() < 0.005, "{at_100}");
        assert_eq!(spec.verdict(at_100), Verdict::Continue);
        assert_eq!(first_h1(&spec), Some(207));
        let normalized = SprtSpec::parse("elo0=0,elo1=5,model=normalized").unwrap();
        assert_eq!(first_h1(&normalized), Some(147));
    }

    /// match.json writes an interval end that reached a score of 0 or 1 as `null`
    /// (JSON has no infinity); reading the file back gives the same statistics.
    #[test]
    fn an_infinite_interval_end_round_trips_through_json() {
        // results/match-examples/sprt-h1: 20 of 23 pairs won 2–0, the score interval
        // reaches 1.
        let stats = MatchStats::from(&Pentanomial::from_counts([0, 0, 2, 1, 20]));
        let elo = stats.elo.unwrap();
        assert_eq!(elo.upper, f64::INFINITY);
        let json = serde_json::to_string(&stats).unwrap();
        assert!(json.contains(r#""upper":null"#), "{json}");
        let back: MatchStats = serde_json::from_str(&json).unwrap();
        assert_eq!(back, stats);
        // The lower end, for the player who lost those pairs.
        let stats = MatchStats::from(&Pentanomial::from_counts([20, 1, 2, 0, 0]));
        assert_eq!(stats.elo.unwrap().lower, f64::NEG_INFINITY);
        let json = serde_json::to_string(&stats).unwrap();
        assert!(json.contains(r#""lower":null"#), "{json}");
        let back: MatchStats = serde_json::from_str(&json).unwrap();
        assert_eq!(back, stats);
    }
}
