//! Rank correlation between two ladders: Spearman's rho and Kendall's tau-b, both with ties.

/// The 1-based ranks of `values` in ascending order; tied values share the average of the
/// ranks they span (so `[10, 20, 20, 30]` ranks `[1, 2.5, 2.5, 4]`). NaN sorts last.
///
/// ```
/// use fow_ratings::average_ranks;
/// assert_eq!(average_ranks(&[30.0, 10.0, 20.0, 20.0]), [4.0, 1.0, 2.5, 2.5]);
/// ```
pub fn average_ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start;
        while end + 1 < order.len() && values[order[end + 1]] == values[order[start]] {
            end += 1;
        }
        // Positions start..=end (0-based) hold equal values: ranks start+1 ..= end+1.
        let rank = (start + end) as f64 / 2.0 + 1.0;
        for &i in &order[start..=end] {
            ranks[i] = rank;
        }
        start = end + 1;
    }
    ranks
}

/// Whether two samples can be correlated: equal lengths, at least two values, all finite.
fn usable(x: &[f64], y: &[f64]) -> bool {
    x.len() == y.len() && x.len() >= 2 && x.iter().chain(y).all(|v| v.is_finite())
}

/// Spearman's rank correlation: the Pearson correlation of the [average ranks](average_ranks)
/// of `x` and `y` (the usual treatment of ties, as in SciPy's `spearmanr`). In [-1, 1];
/// `None` when the samples differ in length, have fewer than two values, hold a
/// non-finite value, or one of them is constant (the correlation is undefined).
///
/// ```
/// use fow_ratings::spearman;
/// let rho = spearman(&[1.0, 2.0, 3.0, 4.0, 5.0], &[5.0, 6.0, 7.0, 8.0, 7.0]).unwrap();
/// assert!((rho - 0.820782681668123).abs() < 1e-12);
/// assert_eq!(spearman(&[1.0, 2.0], &[3.0, 3.0]), None);
/// ```
pub fn spearman(x: &[f64], y: &[f64]) -> Option<f64> {
    if !usable(x, y) {
        return None;
    }
    let (rx, ry) = (average_ranks(x), average_ranks(y));
    let n = rx.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in rx.iter().zip(&ry) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    if sxx == 0.0 || syy == 0.0 {
        return None;
    }
    Some((sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0))
}

/// -1, 0 or 1 (0 for both zeros).
fn sign(d: f64) -> i64 {
    i64::from(d > 0.0) - i64::from(d < 0.0)
}

/// Kendall's tau-b: (concordant − discordant pairs) / √((n₀ − n₁)(n₀ − n₂)), where n₀ is the
/// number of pairs and n₁, n₂ the pairs tied in `x` and in `y` (as SciPy's `kendalltau`).
/// In [-1, 1]; `None` in the cases where [`spearman`] is `None`. Quadratic in the length,
/// meant for ladders of tens of players.
///
/// ```
/// use fow_ratings::kendall_tau;
/// let tau = kendall_tau(&[12.0, 2.0, 1.0, 12.0, 2.0], &[1.0, 4.0, 7.0, 1.0, 0.0]).unwrap();
/// assert!((tau - (-0.4714045207910317)).abs() < 1e-12);
/// ```
pub fn kendall_tau(x: &[f64], y: &[f64]) -> Option<f64> {
    if !usable(x, y) {
        return None;
    }
    let n = x.len();
    let (mut score, mut tied_x, mut tied_y) = (0i64, 0u64, 0u64);
    for i in 0..n {
        for j in i + 1..n {
            let a = sign(x[i] - x[j]);
            let b = sign(y[i] - y[j]);
            tied_x += u64::from(a == 0);
            tied_y += u64::from(b == 0);
            score += a * b;
        }
    }
    let pairs = (n * (n - 1) / 2) as u64;
    let denominator = ((pairs - tied_x) as f64 * (pairs - tied_y) as f64).sqrt();
    if denominator == 0.0 {
        return None;
    }
    Some((score as f64 / denominator).clamp(-1.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Option<f64>, b: f64) {
        let a = a.expect("defined");
        assert!((a - b).abs() < 1e-12, "{a} != {b}");
    }

    #[test]
    fn ranks_average_over_ties() {
        assert_eq!(average_ranks(&[]), Vec::<f64>::new());
        assert_eq!(average_ranks(&[5.0]), [1.0]);
        assert_eq!(average_ranks(&[2.0, 2.0, 2.0]), [2.0, 2.0, 2.0]);
        assert_eq!(
            average_ranks(&[3.0, 1.0, 3.0, 0.0, 3.0]),
            [4.0, 2.0, 4.0, 1.0, 4.0]
        );
    }

    #[test]
    fn perfect_agreement_and_reversal() {
        let x = [0.0, 388.4, 839.6, 764.0];
        let same_order = [-5.0, 1.0, 1000.0, 999.0];
        let reversed = [4.0, 3.0, 1.0, 2.0];
        close(spearman(&x, &same_order), 1.0);
        close(kendall_tau(&x, &same_order), 1.0);
        close(spearman(&x, &reversed), -1.0);
        close(kendall_tau(&x, &reversed), -1.0);
    }

    #[test]
    fn known_values_with_ties() {
        // Values from SciPy (spearmanr, kendalltau) on the same inputs.
        let (x, y) = ([1.0, 2.0, 3.0, 4.0, 5.0], [5.0, 6.0, 7.0, 8.0, 7.0]);
        close(spearman(&x, &y), 0.8207826816681233);
        close(kendall_tau(&x, &y), 0.7378647873726218);
        let (x, y) = ([12.0, 2.0, 1.0, 12.0, 2.0], [1.0, 4.0, 7.0, 1.0, 0.0]);
        close(spearman(&x, &y), -0.5407380704358752);
        close(kendall_tau(&x, &y), -0.4714045207910317);
    }

    #[test]
    fn known_values_without_ties() {
        // The thesis's Table 2 against fow's 20-games-per-pair run in the README: the
        // network climbs from 3rd to 9th place; the squared rank differences sum to 42,
        // so rho = 1 - 6 * 42 / (10 * 99).
        let thesis = [
            0.0, 388.39, 839.62, 764.03, 919.92, 992.05, 514.08, 964.88, 1100.75, 1525.73,
        ];
        let ours = [
            0.0, 502.33, 906.08, 889.19, 970.75, 1143.0, 1167.85, 991.62, 1156.72, 1499.71,
        ];
        close(spearman(&thesis, &ours), 1.0 - 6.0 * 42.0 / 990.0);
        close(kendall_tau(&thesis, &ours), 0.7333333333333333);
    }

    #[test]
    fn undefined_cases() {
        assert_eq!(spearman(&[1.0], &[2.0]), None);
        assert_eq!(spearman(&[1.0, 2.0], &[1.0]), None);
        assert_eq!(spearman(&[1.0, f64::NAN], &[1.0, 2.0]), None);
        assert_eq!(spearman(&[7.0, 7.0, 7.0], &[1.0, 2.0, 3.0]), None);
        assert_eq!(kendall_tau(&[7.0, 7.0, 7.0], &[1.0, 2.0, 3.0]), None);
        assert_eq!(kendall_tau(&[1.0, 2.0], &[1.0, f64::INFINITY]), None);
    }

    #[test]
    fn symmetric_in_its_arguments() {
        let x = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0];
        let y = [2.0, 7.0, 1.0, 8.0, 2.0, 8.0, 1.0, 8.0];
        assert_eq!(spearman(&x, &y), spearman(&y, &x));
        assert_eq!(kendall_tau(&x, &y), kendall_tau(&y, &x));
        let rho = spearman(&x, &y).unwrap();
        assert!((-1.0..=1.0).contains(&rho));
    }
}
