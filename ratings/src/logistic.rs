//! Logistic regression with an L2 penalty, fitted by Newton's method.
//!
//! The model is `P(y = 1 | x) = σ(θ · x)` with `σ(t) = 1 / (1 + e^(−t))`, optionally with an
//! intercept `b` added to `θ · x`. The fit minimises the penalised negative log-likelihood
//!
//! ```text
//! L(θ) = −Σᵢ [ yᵢ ln σ(θ·xᵢ) + (1 − yᵢ) ln(1 − σ(θ·xᵢ)) ] + (λ / 2) ‖θ‖²
//! ```
//!
//! a sum over samples (not a mean), so `λ` acts as the precision of a Gaussian prior
//! `θ ~ N(0, 1/λ)` and its weight does not change with the number of samples. The
//! intercept, when asked for, is not penalised. Labels may be fractional (`0.5` for a draw
//! counts as half a win and half a loss). Newton's method starts from zero and halves its
//! step whenever a full step would not decrease `L`; with `λ > 0` the objective is strictly
//! convex, so the fit exists and is finite even for separable data.

use std::fmt;

use crate::linalg::Cholesky;

/// Settings of [`fit_logistic`].
#[derive(Clone, Debug, PartialEq)]
pub struct LogisticOptions {
    /// The L2 penalty `λ` on the coefficients (not on the intercept); `0` for none.
    pub l2: f64,
    /// Fit an intercept as well (default: no; with features that are differences between
    /// the two sides, the model is symmetric and needs none).
    pub intercept: bool,
    /// Give up after this many Newton steps.
    pub max_iterations: usize,
    /// Stop when no coefficient moves by more than this in one step.
    pub tolerance: f64,
}

impl Default for LogisticOptions {
    fn default() -> LogisticOptions {
        LogisticOptions {
            l2: 1.0,
            intercept: false,
            max_iterations: 100,
            tolerance: 1e-10,
        }
    }
}

/// The result of [`fit_logistic`].
#[derive(Clone, Debug, PartialEq)]
pub struct LogisticFit {
    /// One coefficient per feature, in the features' order.
    pub coefficients: Vec<f64>,
    /// The intercept, when one was fitted.
    pub intercept: Option<f64>,
    /// Standard errors of the coefficients: square roots of the diagonal of the inverse
    /// Hessian of `L` at the optimum (penalty included). They assume independent samples.
    pub std_errors: Vec<f64>,
    /// The intercept's standard error, when one was fitted.
    pub intercept_std_error: Option<f64>,
    /// Newton steps taken.
    pub iterations: usize,
    /// Mean log-loss (cross-entropy, natural log) per sample at the optimum, without the
    /// penalty.
    pub log_loss: f64,
    /// The number of samples.
    pub samples: usize,
}

/// Why [`fit_logistic`] could not fit.
#[derive(Clone, Debug, PartialEq)]
pub enum LogisticError {
    /// No samples, or no features.
    Empty,
    /// Sample `index` has a different number of features than the first.
    Ragged {
        /// The sample.
        index: usize,
    },
    /// The numbers of feature rows and labels differ.
    LabelCount {
        /// Feature rows.
        rows: usize,
        /// Labels.
        labels: usize,
    },
    /// A label outside `[0, 1]` or a non-finite feature.
    BadValue {
        /// The sample.
        index: usize,
    },
    /// The penalty is negative or not finite.
    BadPenalty(f64),
    /// The Hessian is singular (without a penalty: a feature that never varies, or
    /// features that are linear combinations of each other).
    Singular,
    /// Newton's method did not converge in the allowed steps (e.g. separable data without
    /// a penalty, where the coefficients grow without bound).
    NotConverged {
        /// Steps taken.
        iterations: usize,
    },
}

impl fmt::Display for LogisticError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LogisticError::Empty => f.write_str("no samples to fit"),
            LogisticError::Ragged { index } => {
                write!(f, "sample {index} has a different number of features")
            }
            LogisticError::LabelCount { rows, labels } => {
                write!(f, "{rows} feature rows but {labels} labels")
            }
            LogisticError::BadValue { index } => write!(
                f,
                "sample {index}: labels must lie in [0, 1] and features be finite"
            ),
            LogisticError::BadPenalty(l) => {
                write!(f, "the L2 penalty must be finite and >= 0, not {l}")
            }
            LogisticError::Singular => f.write_str(
                "the Hessian is singular (constant or collinear features?): add an L2 penalty",
            ),
            LogisticError::NotConverged { iterations } => write!(
                f,
                "Newton's method did not converge in {iterations} steps (separable data? add an L2 penalty)"
            ),
        }
    }
}

impl std::error::Error for LogisticError {}

/// `ln σ(t)` without overflow.
fn log_sigmoid(t: f64) -> f64 {
    if t >= 0.0 {
        -(-t).exp().ln_1p()
    } else {
        t - t.exp().ln_1p()
    }
}

fn sigmoid(t: f64) -> f64 {
    if t >= 0.0 {
        1.0 / (1.0 + (-t).exp())
    } else {
        let e = t.exp();
        e / (1.0 + e)
    }
}

/// The data with the intercept's constant column appended when asked for.
struct Problem<'a, R> {
    x: &'a [R],
    y: &'a [f64],
    /// Features (without the intercept column).
    k: usize,
    /// Parameters (with it).
    n: usize,
    l2: f64,
}

impl<R: AsRef<[f64]>> Problem<'_, R> {
    fn margin(&self, theta: &[f64], row: &[f64]) -> f64 {
        let mut t: f64 = row.iter().zip(theta).map(|(a, b)| a * b).sum();
        if self.n > self.k {
            t += theta[self.k];
        }
        t
    }

    fn penalty(&self, theta: &[f64]) -> f64 {
        0.5 * self.l2 * theta[..self.k].iter().map(|t| t * t).sum::<f64>()
    }

    /// Unpenalised negative log-likelihood.
    fn nll(&self, theta: &[f64]) -> f64 {
        self.x
            .iter()
            .zip(self.y)
            .map(|(row, &y)| {
                let t = self.margin(theta, row.as_ref());
                -(y * log_sigmoid(t) + (1.0 - y) * log_sigmoid(-t))
            })
            .sum()
    }

    /// Gradient and Hessian (row-major) of the penalised objective.
    fn derivatives(&self, theta: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let n = self.n;
        let mut grad = vec![0.0; n];
        let mut hess = vec![0.0; n * n];
        let mut z = vec![1.0; n];
        for (row, &y) in self.x.iter().zip(self.y) {
            let row = row.as_ref();
            z[..self.k].copy_from_slice(row);
            let p = sigmoid(self.margin(theta, row));
            let w = p * (1.0 - p);
            for i in 0..n {
                grad[i] += (p - y) * z[i];
                for j in 0..=i {
                    hess[i * n + j] += w * z[i] * z[j];
                }
            }
        }
        for i in 0..self.k {
            grad[i] += self.l2 * theta[i];
            hess[i * n + i] += self.l2;
        }
        for i in 0..n {
            for j in 0..i {
                hess[j * n + i] = hess[i * n + j];
            }
        }
        (grad, hess)
    }
}

/// Fits `P(y = 1 | x) = σ(θ · x [+ b])` to feature rows `x` and labels `y` in `[0, 1]`.
///
/// ```
/// use fow_ratings::{fit_logistic, LogisticOptions};
/// // One feature; a positive value wins three times in four.
/// let x = [[1.0], [1.0], [1.0], [1.0], [-1.0], [-1.0], [-1.0], [-1.0]];
/// let y = [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];
/// let opts = LogisticOptions { l2: 0.0, ..Default::default() };
/// let fit = fit_logistic(&x, &y, &opts)?;
/// assert!((fit.coefficients[0] - 3f64.ln()).abs() < 1e-9);
/// # Ok::<(), fow_ratings::LogisticError>(())
/// ```
pub fn fit_logistic<R: AsRef<[f64]>>(
    x: &[R],
    y: &[f64],
    opts: &LogisticOptions,
) -> Result<LogisticFit, LogisticError> {
    if x.len() != y.len() {
        return Err(LogisticError::LabelCount {
            rows: x.len(),
            labels: y.len(),
        });
    }
    let k = x.first().map_or(0, |r| r.as_ref().len());
    if x.is_empty() || k == 0 {
        return Err(LogisticError::Empty);
    }
    if !(opts.l2 >= 0.0 && opts.l2.is_finite()) {
        return Err(LogisticError::BadPenalty(opts.l2));
    }
    for (index, (row, &label)) in x.iter().zip(y).enumerate() {
        let row = row.as_ref();
        if row.len() != k {
            return Err(LogisticError::Ragged { index });
        }
        if !(0.0..=1.0).contains(&label) || row.iter().any(|v| !v.is_finite()) {
            return Err(LogisticError::BadValue { index });
        }
    }
    let n = k + usize::from(opts.intercept);
    let problem = Problem {
        x,
        y,
        k,
        n,
        l2: opts.l2,
    };
    let mut theta = vec![0.0; n];
    let mut objective = problem.nll(&theta) + problem.penalty(&theta);
    let mut iterations = 0;
    loop {
        let (grad, hess) = problem.derivatives(&theta);
        let chol = Cholesky::new(&hess, n).ok_or(LogisticError::Singular)?;
        if iterations == opts.max_iterations {
            return Err(LogisticError::NotConverged { iterations });
        }
        iterations += 1;
        let step = chol.solve(&grad);
        let largest = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
        // Halve the step until the objective does not increase (Newton steps from far
        // away can overshoot on the flat tails of the sigmoid).
        let mut scale = 1.0;
        let mut next;
        let mut next_objective;
        loop {
            next = theta
                .iter()
                .zip(&step)
                .map(|(t, s)| t - scale * s)
                .collect::<Vec<_>>();
            next_objective = problem.nll(&next) + problem.penalty(&next);
            if next_objective <= objective + 1e-12 * objective.abs() || scale < 1e-10 {
                break;
            }
            scale *= 0.5;
        }
        theta = next;
        objective = next_objective;
        if largest * scale <= opts.tolerance {
            let (_, hess) = problem.derivatives(&theta);
            let chol = Cholesky::new(&hess, n).ok_or(LogisticError::Singular)?;
            let se: Vec<f64> = chol.inverse_diagonal().iter().map(|v| v.sqrt()).collect();
            let log_loss = problem.nll(&theta) / x.len() as f64;
            return Ok(LogisticFit {
                coefficients: theta[..k].to_vec(),
                intercept: opts.intercept.then(|| theta[k]),
                std_errors: se[..k].to_vec(),
                intercept_std_error: opts.intercept.then(|| se[k]),
                iterations,
                log_loss,
                samples: x.len(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small seeded generator (splitmix64), so the tests need no extra crates.
    struct Rng(u64);

    impl Rng {
        fn next_u64(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        fn uniform(&mut self) -> f64 {
            (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
        }
        /// An integer in `-r..=r`.
        fn small(&mut self, r: i64) -> f64 {
            ((self.next_u64() % (2 * r as u64 + 1)) as i64 - r) as f64
        }
    }

    /// Integer features like material differences, labels drawn from the model.
    fn synthetic(theta: &[f64], bias: f64, n: usize, seed: u64) -> (Vec<Vec<f64>>, Vec<f64>) {
        let mut rng = Rng(seed);
        let mut xs = Vec::new();
        let mut ys = Vec::new();
        for _ in 0..n {
            let x: Vec<f64> = theta.iter().map(|_| rng.small(2)).collect();
            let t: f64 = x.iter().zip(theta).map(|(a, b)| a * b).sum::<f64>() + bias;
            ys.push(if rng.uniform() < sigmoid(t) { 1.0 } else { 0.0 });
            xs.push(x);
        }
        (xs, ys)
    }

    const TRUTH: [f64; 5] = [0.2, 0.6, 0.65, 1.0, 1.8];

    #[test]
    fn recovers_known_coefficients() {
        let (x, y) = synthetic(&TRUTH, 0.0, 40_000, 7);
        let opts = LogisticOptions {
            l2: 0.0,
            ..Default::default()
        };
        let fit = fit_logistic(&x, &y, &opts).unwrap();
        assert!(fit.iterations < 20, "{}", fit.iterations);
        assert_eq!(fit.intercept, None);
        for ((c, t), se) in fit.coefficients.iter().zip(TRUTH).zip(&fit.std_errors) {
            assert!(*se > 0.0 && *se < 0.05, "se {se}");
            assert!((c - t).abs() < 4.0 * se, "{c} vs {t} (se {se})");
        }
        // The log-loss at the optimum beats the coin flip's ln 2.
        assert!(fit.log_loss < 2f64.ln() - 0.1, "{}", fit.log_loss);
    }

    #[test]
    fn recovers_an_intercept_when_asked() {
        let (x, y) = synthetic(&TRUTH[..2], -0.7, 40_000, 11);
        let opts = LogisticOptions {
            l2: 0.0,
            intercept: true,
            ..Default::default()
        };
        let fit = fit_logistic(&x, &y, &opts).unwrap();
        let b = fit.intercept.unwrap();
        let se = fit.intercept_std_error.unwrap();
        assert!((b + 0.7).abs() < 4.0 * se, "{b} ± {se}");
        assert!((fit.coefficients[1] - TRUTH[1]).abs() < 4.0 * fit.std_errors[1]);
    }

    #[test]
    fn gradient_vanishes_at_the_optimum() {
        let (x, y) = synthetic(&TRUTH, 0.0, 2_000, 3);
        let opts = LogisticOptions::default();
        let fit = fit_logistic(&x, &y, &opts).unwrap();
        let problem = Problem {
            x: &x,
            y: &y,
            k: 5,
            n: 5,
            l2: opts.l2,
        };
        let (grad, _) = problem.derivatives(&fit.coefficients);
        assert!(grad.iter().all(|g| g.abs() < 1e-6), "{grad:?}");
    }

    #[test]
    fn l2_shrinks_towards_zero() {
        let (x, y) = synthetic(&TRUTH, 0.0, 3_000, 5);
        let norm = |l2: f64| {
            let opts = LogisticOptions {
                l2,
                ..Default::default()
            };
            let fit = fit_logistic(&x, &y, &opts).unwrap();
            fit.coefficients.iter().map(|c| c * c).sum::<f64>().sqrt()
        };
        let norms: Vec<f64> = [0.0, 10.0, 100.0, 1000.0, 1e6].map(norm).to_vec();
        assert!(norms.windows(2).all(|w| w[1] < w[0]), "{norms:?}");
        assert!(norms[4] < 0.01 * norms[0], "{norms:?}");
    }

    #[test]
    fn separable_data_stays_finite_with_l2_and_fails_cleanly_without() {
        let x = [[1.0, 0.0], [2.0, 1.0], [-1.0, 0.0], [-2.0, -1.0]];
        let y = [1.0, 1.0, 0.0, 0.0];
        let fit = fit_logistic(&x, &y, &LogisticOptions::default()).unwrap();
        assert!(fit.coefficients.iter().all(|c| c.is_finite() && *c > 0.0));
        assert!(fit.std_errors.iter().all(|s| s.is_finite()));
        let opts = LogisticOptions {
            l2: 0.0,
            max_iterations: 50,
            ..Default::default()
        };
        match fit_logistic(&x, &y, &opts) {
            Err(LogisticError::NotConverged { .. }) | Err(LogisticError::Singular) => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn fractional_labels_count_as_half_a_win() {
        let opts = LogisticOptions {
            l2: 0.0,
            ..Default::default()
        };
        // Expected score 0.75 at x = 1 (a win and a draw): σ(θ) = 0.75, θ = ln 3.
        let fit = fit_logistic(&[[1.0], [1.0]], &[1.0, 0.5], &opts).unwrap();
        assert!((fit.coefficients[0] - 3f64.ln()).abs() < 1e-9, "{fit:?}");
        // Two draws weigh as one win and one loss at the same point.
        let with = LogisticOptions { l2: 1.0, ..opts };
        let x = [[1.0], [1.0], [2.0], [-1.0]];
        let c = fit_logistic(&x, &[0.5, 0.5, 1.0, 0.0], &with).unwrap();
        let d = fit_logistic(&x, &[1.0, 0.0, 1.0, 0.0], &with).unwrap();
        assert!((c.coefficients[0] - d.coefficients[0]).abs() < 1e-9);
        assert!(c.coefficients[0] > 0.0);
        // All draws: nothing to learn.
        let e = fit_logistic(&[[1.0], [-2.0]], &[0.5, 0.5], &with).unwrap();
        assert!(e.coefficients[0].abs() < 1e-12);
    }

    #[test]
    fn bad_inputs_are_errors() {
        let o = LogisticOptions::default();
        let none: [[f64; 1]; 0] = [];
        assert_eq!(fit_logistic(&none, &[], &o), Err(LogisticError::Empty));
        assert_eq!(
            fit_logistic(&[vec![1.0], vec![1.0, 2.0]], &[1.0, 0.0], &o),
            Err(LogisticError::Ragged { index: 1 })
        );
        assert_eq!(
            fit_logistic(&[[1.0]], &[1.5], &o),
            Err(LogisticError::BadValue { index: 0 })
        );
        assert_eq!(
            fit_logistic(&[[1.0]], &[1.0, 0.0], &o),
            Err(LogisticError::LabelCount { rows: 1, labels: 2 })
        );
        let neg = LogisticOptions { l2: -1.0, ..o };
        assert_eq!(
            fit_logistic(&[[1.0]], &[1.0], &neg),
            Err(LogisticError::BadPenalty(-1.0))
        );
        let zero = LogisticOptions { l2: 0.0, ..o };
        assert_eq!(
            fit_logistic(&[[0.0], [0.0]], &[1.0, 0.0], &zero),
            Err(LogisticError::Singular)
        );
    }
}
