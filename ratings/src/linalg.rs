//! Dense symmetric positive-definite linear algebra (Cholesky) for the Newton steps, and
//! the line search that accepts a step.

/// A symmetric positive-definite matrix, factorised as `L Lᵀ`.
pub(crate) struct Cholesky {
    n: usize,
    /// Lower triangle of `L`, row-major `n × n`.
    lower: Vec<f64>,
}

impl Cholesky {
    /// Factorises the row-major `n × n` matrix `a` (only its lower triangle is read);
    /// `None` when it is not (numerically) positive definite.
    pub(crate) fn new(a: &[f64], n: usize) -> Option<Cholesky> {
        debug_assert_eq!(a.len(), n * n);
        let mut lower = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..=i {
                let dot: f64 = (0..j).map(|k| lower[i * n + k] * lower[j * n + k]).sum();
                let value = a[i * n + j] - dot;
                if i == j {
                    if !(value > 0.0 && value.is_finite()) {
                        return None;
                    }
                    lower[i * n + i] = value.sqrt();
                } else {
                    lower[i * n + j] = value / lower[j * n + j];
                }
            }
        }
        Some(Cholesky { n, lower })
    }

    /// Solves `A x = b`.
    pub(crate) fn solve(&self, b: &[f64]) -> Vec<f64> {
        let n = self.n;
        let l = &self.lower;
        let mut y = b.to_vec();
        for i in 0..n {
            let dot: f64 = (0..i).map(|k| l[i * n + k] * y[k]).sum();
            y[i] = (y[i] - dot) / l[i * n + i];
        }
        for i in (0..n).rev() {
            let dot: f64 = (i + 1..n).map(|k| l[k * n + i] * y[k]).sum();
            y[i] = (y[i] - dot) / l[i * n + i];
        }
        y
    }

    /// The whole of `A⁻¹`, row-major `n × n`.
    pub(crate) fn inverse(&self) -> Vec<f64> {
        let n = self.n;
        let mut inverse = vec![0.0; n * n];
        let mut unit = vec![0.0; n];
        for j in 0..n {
            unit[j] = 1.0;
            let column = self.solve(&unit);
            unit[j] = 0.0;
            for (i, value) in column.into_iter().enumerate() {
                inverse[i * n + j] = value;
            }
        }
        inverse
    }

    /// The diagonal of `A⁻¹`.
    pub(crate) fn inverse_diagonal(&self) -> Vec<f64> {
        let n = self.n;
        let mut unit = vec![0.0; n];
        (0..n)
            .map(|i| {
                unit[i] = 1.0;
                let column = self.solve(&unit);
                unit[i] = 0.0;
                column[i]
            })
            .collect()
    }
}

/// The backtracking line search of a Newton step on a log-likelihood at `current`: the
/// largest step `2^-h` (h = 0, 1, ...) whose point `at(scale)` does not lower the
/// log-likelihood (up to a relative rounding of 1e-12); `None` once the step is below
/// 1e-12.
pub(crate) fn backtrack<P>(current: f64, mut at: impl FnMut(f64) -> (P, f64)) -> Option<(P, f64)> {
    let slack = 1e-12 * (1.0 + current.abs());
    let mut scale = 1.0;
    while scale >= 1e-12 {
        let (candidate, value) = at(scale);
        if value >= current - slack {
            return Some((candidate, value));
        }
        scale *= 0.5;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_and_inverts() {
        // A = [[4, 2, 0], [2, 5, 1], [0, 1, 3]]
        let a = [4.0, 2.0, 0.0, 2.0, 5.0, 1.0, 0.0, 1.0, 3.0];
        let c = Cholesky::new(&a, 3).unwrap();
        let x = c.solve(&[2.0, 1.0, 4.0]);
        for i in 0..3 {
            let ax: f64 = (0..3).map(|k| a[i * 3 + k] * x[k]).sum();
            assert!((ax - [2.0, 1.0, 4.0][i]).abs() < 1e-12);
        }
        // det = 4·14 − 2·6 = 44; cofactors of the diagonal: 14, 12, 16.
        let d = c.inverse_diagonal();
        for (got, want) in d.iter().zip([14.0 / 44.0, 12.0 / 44.0, 16.0 / 44.0]) {
            assert!((got - want).abs() < 1e-12, "{got} vs {want}");
        }
        // A · A⁻¹ = I.
        let inverse = c.inverse();
        for i in 0..3 {
            assert!((inverse[i * 3 + i] - d[i]).abs() < 1e-15);
            for j in 0..3 {
                let product: f64 = (0..3).map(|k| a[i * 3 + k] * inverse[k * 3 + j]).sum();
                let unit = if i == j { 1.0 } else { 0.0 };
                assert!((product - unit).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn rejects_indefinite_matrices() {
        assert!(Cholesky::new(&[1.0, 2.0, 2.0, 1.0], 2).is_none());
        assert!(Cholesky::new(&[0.0], 1).is_none());
        assert!(Cholesky::new(&[f64::NAN], 1).is_none());
        assert!(Cholesky::new(&[], 0).is_some());
    }
}
