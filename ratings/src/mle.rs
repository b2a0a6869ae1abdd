//! Maximum-likelihood Elo (Bradley–Terry with draws as half points, as Ordo does) with 95%
//! intervals.

use std::f64::consts::LN_10;

use serde::Serialize;

use crate::anchor::Anchor;
use crate::error::FitError;
use crate::graph::{reachable_by_games, scoring_components};
use crate::linalg::{backtrack, Cholesky};
use crate::results::{Pair, ResultMatrix};

/// Elo points per natural-log unit of odds: `400 / ln 10`.
const ELO_PER_NAT: f64 = 400.0 / LN_10;

/// Two-sided 95% normal quantile.
const Z95: f64 = 1.959_963_984_540_054;

/// Settings of [`mle_elo`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MleOptions {
    /// Virtual draws added to every pair of players that met at least once (in total for
    /// the pair, not per colour), like BayesElo's prior. They pull ratings together a little
    /// and make the fit finite whenever the players are connected; 0 (the default) fits the
    /// games alone, and the fit is then refused with [`FitError::Unbounded`] when it would be
    /// infinite. Must be finite and ≥ 0.
    pub prior_draws: f64,
    /// Stop when every non-anchor player's score residual `|Σ (S − E)|`, divided by its
    /// number of games (virtual ones included), is below this. Default 1e-10.
    pub tolerance: f64,
    /// Give up after this many Newton steps (default 100; typical fits need fewer than 10).
    pub max_iterations: usize,
}

impl Default for MleOptions {
    fn default() -> Self {
        MleOptions {
            prior_draws: 0.0,
            tolerance: 1e-10,
            max_iterations: 100,
        }
    }
}

/// Ratings from [`mle_elo`]; per-player vectors are in matrix order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MleFit {
    /// Maximum-likelihood ratings, the anchor at its value.
    pub ratings: Vec<f64>,
    /// Standard errors (Elo) relative to the anchor, from the inverse observed information;
    /// 0 for the anchor.
    pub std_errors: Vec<f64>,
    /// Half-widths of the 95% intervals: `1.96 × std_errors`.
    pub half_widths: Vec<f64>,
    /// Fraction of the (real) games that were drawn; 0 when there are no games.
    pub draw_rate: f64,
    /// Natural-log likelihood of the real games (virtual prior draws excluded) at `ratings`.
    pub log_likelihood: f64,
    /// Newton steps taken.
    pub iterations: usize,
}

impl MleFit {
    /// The 95% interval `(low, high)` of player `i`, or `None` if `i` is out of range.
    pub fn interval(&self, i: usize) -> Option<(f64, f64)> {
        let rating = self.ratings.get(i)?;
        let half = self.half_widths.get(i)?;
        Some((rating - half, rating + half))
    }
}

/// Maximum-likelihood ratings in the manner of Ordo: each game with score `s ∈ {0, ½, 1}`
/// contributes `s ln p + (1 − s) ln(1 − p)` with `p = 1 / (1 + 10^((r_j − r_i) / 400))`,
/// i.e. a draw counts as half a win and half a loss; colour is ignored. The anchor's rating is
/// fixed and the others are found by Newton–Raphson with step halving. Standard errors come
/// from the inverse of the observed information (the negative Hessian of the anchored
/// log-likelihood), so they measure uncertainty *relative to the anchor*, whose interval is 0.
///
/// Existence is checked first: every player must be linked to the anchor by games
/// ([`FitError::Disconnected`]) and, unless `prior_draws > 0`, no group of players may have
/// scored all (or none) of the points against the others ([`FitError::Unbounded`]), since
/// the likelihood then keeps growing as their ratings diverge.
///
/// ```
/// use fow_ratings::{mle_elo, Anchor, FitError, MleOptions, ResultMatrix, Wdl};
/// let mut m = ResultMatrix::new(vec!["A".into(), "B".into()]);
/// m.add_results(0, 1, Wdl::new(70, 0, 30))?;
/// let anchor = Anchor { index: 1, value: 0.0 };
/// let fit = mle_elo(&m, anchor, &MleOptions::default())?;
/// assert!((fit.ratings[0] - 400.0 * (70.0f64 / 30.0).log10()).abs() < 1e-6);
/// assert_eq!(fit.half_widths[1], 0.0);
///
/// let mut perfect = ResultMatrix::new(vec!["A".into(), "B".into()]);
/// perfect.add_results(0, 1, Wdl::new(10, 0, 0))?;
/// let err = mle_elo(&perfect, anchor, &MleOptions::default()).unwrap_err();
/// assert_eq!(err, FitError::Unbounded { players: vec!["A".into()] });
/// let with_prior = MleOptions { prior_draws: 1.0, ..MleOptions::default() };
/// assert!(mle_elo(&perfect, anchor, &with_prior)?.ratings[0].is_finite());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn mle_elo(
    matrix: &ResultMatrix,
    anchor: Anchor,
    options: &MleOptions,
) -> Result<MleFit, FitError> {
    let n = matrix.len();
    if !anchor.in_range(n) {
        return Err(FitError::AnchorOutOfRange {
            index: anchor.index,
            players: n,
        });
    }
    let checks = [
        ("anchor value", anchor.value, anchor.value.is_finite()),
        (
            "prior draws",
            options.prior_draws,
            options.prior_draws.is_finite() && options.prior_draws >= 0.0,
        ),
        ("tolerance", options.tolerance, options.tolerance >= 0.0),
    ];
    if let Some(&(name, value, _)) = checks.iter().find(|check| !check.2) {
        return Err(FitError::InvalidOption { name, value });
    }

    let observed = matrix.pairs();
    check_existence(matrix, &observed, anchor.index, options.prior_draws)?;
    let fitted: Vec<Pair> = observed
        .iter()
        .map(|pair| Pair {
            games: pair.games + options.prior_draws,
            points_i: pair.points_i + 0.5 * options.prior_draws,
            ..*pair
        })
        .collect();

    let model = Model::new(n, anchor.index, &fitted);
    let (theta, information, iterations) = model.maximise(options)?;
    let inverse_diagonal = information.inverse_diagonal();

    let mut std_errors = vec![0.0; n];
    for (slot, &player) in model.free.iter().enumerate() {
        std_errors[player] = inverse_diagonal[slot].sqrt() * ELO_PER_NAT;
    }
    let total_games = matrix.total_games();
    Ok(MleFit {
        ratings: theta
            .iter()
            .map(|t| anchor.value + t * ELO_PER_NAT)
            .collect(),
        half_widths: std_errors.iter().map(|se| Z95 * se).collect(),
        std_errors,
        draw_rate: if total_games == 0 {
            0.0
        } else {
            matrix.total_draws() as f64 / total_games as f64
        },
        log_likelihood: log_likelihood(&observed, &theta),
        iterations,
    })
}

/// Refuses inputs whose maximum-likelihood ratings are undetermined or infinite.
fn check_existence(
    matrix: &ResultMatrix,
    pairs: &[Pair],
    anchor: usize,
    prior_draws: f64,
) -> Result<(), FitError> {
    let n = matrix.len();
    let names_where = |keep: &dyn Fn(usize) -> bool| -> Vec<String> {
        (0..n)
            .filter(|&i| keep(i))
            .map(|i| matrix.names()[i].clone())
            .collect()
    };
    let linked = reachable_by_games(n, pairs, anchor);
    if linked.iter().any(|&l| !l) {
        return Err(FitError::Disconnected {
            players: names_where(&|i| !linked[i]),
        });
    }
    if prior_draws > 0.0 {
        // Every pair that met has a virtual half point each way: strongly connected.
        return Ok(());
    }
    let component = scoring_components(n, pairs);
    let mut sizes = vec![0usize; n];
    for &c in &component {
        sizes[c] += 1;
    }
    if sizes[component[anchor]] == n {
        return Ok(());
    }
    // Keep the largest group (the anchor's on a tie, then the lowest-numbered player's).
    let largest = *sizes.iter().max().unwrap_or(&0);
    let kept = if sizes[component[anchor]] == largest {
        component[anchor]
    } else {
        component
            .iter()
            .copied()
            .find(|&c| sizes[c] == largest)
            .unwrap_or(component[anchor])
    };
    Err(FitError::Unbounded {
        players: names_where(&|i| component[i] != kept),
    })
}

/// `ln σ(x) = −ln(1 + e^(−x))`, computed without overflow.
fn ln_sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

/// `σ(x) = 1 / (1 + e^(−x))`.
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Log-likelihood of `pairs` at the natural-unit ratings `theta`.
fn log_likelihood(pairs: &[Pair], theta: &[f64]) -> f64 {
    pairs
        .iter()
        .map(|pair| {
            let d = theta[pair.i] - theta[pair.j];
            let (won, lost) = (pair.points_i, pair.games - pair.points_i);
            let mut ll = 0.0;
            if won > 0.0 {
                ll += won * ln_sigmoid(d);
            }
            if lost > 0.0 {
                ll += lost * ln_sigmoid(-d);
            }
            ll
        })
        .sum()
}

/// The anchored likelihood in natural units `θ = r · ln 10 / 400`.
struct Model<'a> {
    players: usize,
    pairs: &'a [Pair],
    /// Players other than the anchor, in matrix order; parameter `k` is `free[k]`'s θ.
    free: Vec<usize>,
    /// `slot[player]` = its parameter index, `None` for the anchor.
    slot: Vec<Option<usize>>,
    /// Games of each player (fitted ones), for the relative stopping rule.
    games: Vec<f64>,
}

impl<'a> Model<'a> {
    fn new(players: usize, anchor: usize, pairs: &'a [Pair]) -> Model<'a> {
        let free: Vec<usize> = (0..players).filter(|&i| i != anchor).collect();
        let mut slot = vec![None; players];
        for (k, &player) in free.iter().enumerate() {
            slot[player] = Some(k);
        }
        let mut games = vec![0.0; players];
        for pair in pairs {
            games[pair.i] += pair.games;
            games[pair.j] += pair.games;
        }
        Model {
            players,
            pairs,
            free,
            slot,
            games,
        }
    }

    /// Gradient (per free parameter) and information matrix (negative Hessian) at `theta`.
    fn derivatives(&self, theta: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let m = self.free.len();
        let mut gradient = vec![0.0; m];
        let mut information = vec![0.0; m * m];
        for pair in self.pairs {
            let p = sigmoid(theta[pair.i] - theta[pair.j]);
            let residual = pair.points_i - pair.games * p;
            let weight = pair.games * p * (1.0 - p);
            let (a, b) = (self.slot[pair.i], self.slot[pair.j]);
            if let Some(a) = a {
                gradient[a] += residual;
                information[a * m + a] += weight;
            }
            if let Some(b) = b {
                gradient[b] -= residual;
                information[b * m + b] += weight;
            }
            if let (Some(a), Some(b)) = (a, b) {
                information[a * m + b] -= weight;
                information[b * m + a] -= weight;
            }
        }
        (gradient, information)
    }

    fn converged(&self, gradient: &[f64], tolerance: f64) -> bool {
        gradient
            .iter()
            .zip(&self.free)
            .all(|(g, &player)| (g / self.games[player].max(1.0)).abs() < tolerance)
    }

    /// Newton–Raphson with step halving from θ = 0. Returns θ (all players, anchor 0), the
    /// factorised information at θ, and the number of steps.
    fn maximise(&self, options: &MleOptions) -> Result<(Vec<f64>, Cholesky, usize), FitError> {
        let m = self.free.len();
        let mut theta = vec![0.0; self.players];
        let mut current = log_likelihood(self.pairs, &theta);
        for iteration in 0..=options.max_iterations {
            let (gradient, information) = self.derivatives(&theta);
            let no_convergence = FitError::NoConvergence {
                iterations: iteration,
            };
            let factor = Cholesky::new(&information, m).ok_or(no_convergence.clone())?;
            if self.converged(&gradient, options.tolerance) {
                return Ok((theta, factor, iteration));
            }
            if iteration == options.max_iterations {
                break;
            }
            let step = factor.solve(&gradient);
            // Accept the largest step 2^-h that does not lower the likelihood (up to rounding).
            let (candidate, value) = backtrack(current, |scale| {
                let mut candidate = theta.clone();
                for (&player, s) in self.free.iter().zip(&step) {
                    candidate[player] += scale * s;
                }
                let value = log_likelihood(self.pairs, &candidate);
                (candidate, value)
            })
            .ok_or(no_convergence)?;
            theta = candidate;
            current = value;
        }
        Err(FitError::NoConvergence {
            iterations: options.max_iterations,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::Wdl;
    use crate::thesis::tests::thesis_matrix;
    use crate::thesis::{thesis_elo, ThesisOptions};

    fn names(n: usize) -> Vec<String> {
        (1..=n).map(|k| format!("P{k}")).collect()
    }

    fn fit(m: &ResultMatrix, anchor: usize) -> Result<MleFit, FitError> {
        let anchor = Anchor {
            index: anchor,
            value: 0.0,
        };
        mle_elo(m, anchor, &MleOptions::default())
    }

    #[test]
    fn two_players_match_the_binomial_formulas() {
        let mut m = ResultMatrix::new(names(2));
        // 70 wins, 0 draws, 30 losses for P1, split over both colours.
        m.add_results(0, 1, Wdl::new(40, 0, 10)).unwrap();
        m.add_results(1, 0, Wdl::new(20, 0, 30)).unwrap();
        let fit = fit(&m, 1).unwrap();
        let diff = 400.0 * (70.0f64 / 30.0).log10();
        assert!((fit.ratings[0] - diff).abs() < 1e-6, "{fit:?}");
        assert_eq!(fit.ratings[1], 0.0);
        let se = ELO_PER_NAT / (100.0f64 * 0.7 * 0.3).sqrt();
        assert!(
            (fit.std_errors[0] - se).abs() < 1e-6,
            "{} vs {se}",
            fit.std_errors[0]
        );
        assert!((fit.half_widths[0] - Z95 * se).abs() < 1e-6);
        assert!((fit.half_widths[0] - 1.96 * se).abs() < 2e-3);
        assert_eq!(fit.std_errors[1], 0.0);
        let ll = 70.0 * 0.7f64.ln() + 30.0 * 0.3f64.ln();
        assert!((fit.log_likelihood - ll).abs() < 1e-9);
        assert_eq!(fit.draw_rate, 0.0);
        let (low, high) = fit.interval(0).unwrap();
        assert!(low < diff && diff < high);
        assert_eq!(fit.interval(2), None);
    }

    #[test]
    fn draws_count_as_half_points() {
        let mut m = ResultMatrix::new(names(2));
        m.add_results(0, 1, Wdl::new(50, 40, 10)).unwrap();
        let fit = fit(&m, 1).unwrap();
        // 70 points of 100.
        let diff = 400.0 * (70.0f64 / 30.0).log10();
        assert!((fit.ratings[0] - diff).abs() < 1e-6);
        assert!((fit.draw_rate - 0.4).abs() < 1e-15);
    }

    /// Thesis matrix: the MLE is finite and solves the same equations as the thesis
    /// iteration (each player's Σ (S − E) = 0), so the two agree to rounding.
    #[test]
    fn agrees_with_the_thesis_iteration() {
        let m = thesis_matrix();
        let anchor = Anchor::random_move_or_first(&m);
        let mle = mle_elo(&m, anchor, &MleOptions::default()).unwrap();
        let thesis = thesis_elo(&m, anchor, &ThesisOptions::default()).unwrap();
        assert!(mle.ratings.iter().all(|r| r.is_finite()));
        let argmax = |r: &[f64]| (0..r.len()).max_by(|&a, &b| r[a].total_cmp(&r[b]));
        let argmin = |r: &[f64]| (0..r.len()).min_by(|&a, &b| r[a].total_cmp(&r[b]));
        assert_eq!(argmax(&mle.ratings), argmax(&thesis.ratings));
        assert_eq!(argmin(&mle.ratings), argmin(&thesis.ratings));
        assert_eq!(argmax(&mle.ratings), Some(9));
        assert_eq!(argmin(&mle.ratings), Some(0));
        for i in 0..m.len() {
            let (a, b) = (mle.ratings[i], thesis.ratings[i]);
            assert!(
                (a - b).abs() < 1e-6,
                "{}: MLE {a} vs thesis {b}",
                m.names()[i]
            );
            if i == anchor.index {
                assert_eq!(mle.half_widths[i], 0.0);
            } else {
                assert!(mle.half_widths[i] > 1.0 && mle.half_widths[i] < 200.0);
            }
        }
        assert!((mle.draw_rate - 12.0 / 9000.0).abs() < 1e-15);
        assert!(mle.log_likelihood < 0.0);
        assert!(mle.iterations < 20, "{}", mle.iterations);
    }

    #[test]
    fn stationary_point_has_zero_residuals() {
        let m = thesis_matrix();
        let fit = fit(&m, 3).unwrap();
        assert_eq!(fit.ratings[3], 0.0);
        for i in 0..m.len() {
            let mut residual = 0.0;
            for j in 0..m.len() {
                let h = m.head_to_head(i, j).unwrap();
                let e = 1.0 / (1.0 + 10f64.powf((fit.ratings[j] - fit.ratings[i]) / 400.0));
                residual += h.points() - h.games() as f64 * e;
            }
            assert!(residual.abs() < 1e-7, "player {i}: {residual}");
        }
    }

    #[test]
    fn perfect_score_is_unbounded_unless_a_prior_is_used() {
        let mut m = ResultMatrix::new(names(3));
        m.add_results(0, 1, Wdl::new(5, 0, 0)).unwrap();
        m.add_results(2, 0, Wdl::new(0, 0, 5)).unwrap();
        m.add_results(1, 2, Wdl::new(3, 1, 1)).unwrap();
        let unbounded = FitError::Unbounded {
            players: vec!["P1".into()],
        };
        assert_eq!(fit(&m, 2), Err(unbounded.clone()));
        // The perfect player itself as anchor: still the perfect player is named.
        assert_eq!(fit(&m, 0), Err(unbounded));
        let prior = MleOptions {
            prior_draws: 1.0,
            ..MleOptions::default()
        };
        let fit = mle_elo(
            &m,
            Anchor {
                index: 2,
                value: 0.0,
            },
            &prior,
        )
        .unwrap();
        assert!(fit.ratings.iter().all(|r| r.is_finite()));
        assert!(fit.ratings[0] > fit.ratings[1] && fit.ratings[1] > fit.ratings[2]);
        assert!(fit.half_widths.iter().all(|h| h.is_finite()));
        // The reported likelihood is that of the real games only.
        let theta: Vec<f64> = fit.ratings.iter().map(|r| r / ELO_PER_NAT).collect();
        assert_eq!(fit.log_likelihood, log_likelihood(&m.pairs(), &theta));
    }

    #[test]
    fn zero_score_and_dominant_groups_are_unbounded() {
        // P3 lost every game.
        let mut m = ResultMatrix::new(names(3));
        m.add_results(0, 1, Wdl::new(2, 1, 2)).unwrap();
        m.add_results(0, 2, Wdl::new(3, 0, 0)).unwrap();
        m.add_results(2, 1, Wdl::new(0, 0, 3)).unwrap();
        assert_eq!(
            fit(&m, 0),
            Err(FitError::Unbounded {
                players: vec!["P3".into()]
            })
        );
        // {P1, P2} scored every point against {P3, P4}; the anchor's group is kept on a tie.
        let mut m = ResultMatrix::new(names(4));
        m.add_results(0, 1, Wdl::new(1, 0, 1)).unwrap();
        m.add_results(2, 3, Wdl::new(1, 1, 1)).unwrap();
        for (a, b) in [(0, 2), (0, 3), (1, 2), (1, 3)] {
            m.add_results(a, b, Wdl::new(2, 0, 0)).unwrap();
            m.add_results(b, a, Wdl::new(0, 0, 2)).unwrap();
        }
        assert_eq!(
            fit(&m, 3),
            Err(FitError::Unbounded {
                players: vec!["P1".into(), "P2".into()]
            })
        );
        assert_eq!(
            fit(&m, 0),
            Err(FitError::Unbounded {
                players: vec!["P3".into(), "P4".into()]
            })
        );
        // A single draw between the groups makes the fit finite.
        m.add_results(3, 1, Wdl::new(0, 1, 0)).unwrap();
        assert!(fit(&m, 0).is_ok());
    }

    #[test]
    fn disconnected_players_are_reported() {
        let mut m = ResultMatrix::new(names(4));
        m.add_results(0, 1, Wdl::new(2, 1, 2)).unwrap();
        m.add_results(2, 3, Wdl::new(2, 1, 2)).unwrap();
        let expected = FitError::Disconnected {
            players: vec!["P3".into(), "P4".into()],
        };
        assert_eq!(fit(&m, 1), Err(expected.clone()));
        let prior = MleOptions {
            prior_draws: 2.0,
            ..MleOptions::default()
        };
        let anchor = Anchor {
            index: 0,
            value: 0.0,
        };
        assert_eq!(mle_elo(&m, anchor, &prior), Err(expected));
        let lone = ResultMatrix::new(names(2));
        assert_eq!(
            fit(&lone, 0),
            Err(FitError::Disconnected {
                players: vec!["P2".into()]
            })
        );
    }

    #[test]
    fn single_player_is_its_anchor() {
        let m = ResultMatrix::new(names(1));
        let anchor = Anchor {
            index: 0,
            value: 1500.0,
        };
        let fit = mle_elo(&m, anchor, &MleOptions::default()).unwrap();
        assert_eq!(fit.ratings, vec![1500.0]);
        assert_eq!(fit.half_widths, vec![0.0]);
        assert_eq!(fit.iterations, 0);
    }

    #[test]
    fn permuting_players_permutes_the_fit() {
        let m = thesis_matrix();
        let base = fit(&m, 0).unwrap();
        let order = [3, 9, 0, 7, 1, 5, 2, 8, 6, 4];
        let permuted = m.permuted(&order);
        // Old player 0 is now at position 2.
        let moved = fit(&permuted, 2).unwrap();
        for (new, &old) in order.iter().enumerate() {
            assert!((moved.ratings[new] - base.ratings[old]).abs() < 1e-8);
            assert!((moved.std_errors[new] - base.std_errors[old]).abs() < 1e-8);
        }
        assert!((moved.log_likelihood - base.log_likelihood).abs() < 1e-8);
    }

    #[test]
    fn anchor_value_shifts_ratings_only() {
        let m = thesis_matrix();
        let zero = fit(&m, 0).unwrap();
        let shifted = mle_elo(
            &m,
            Anchor {
                index: 0,
                value: 1000.0,
            },
            &MleOptions::default(),
        )
        .unwrap();
        for i in 0..m.len() {
            assert!((shifted.ratings[i] - zero.ratings[i] - 1000.0).abs() < 1e-8);
            assert!((shifted.std_errors[i] - zero.std_errors[i]).abs() < 1e-10);
        }
    }

    #[test]
    fn rejects_bad_anchor_and_options() {
        let m = ResultMatrix::new(names(2));
        assert_eq!(
            fit(&m, 2),
            Err(FitError::AnchorOutOfRange {
                index: 2,
                players: 2
            })
        );
        let anchor = Anchor {
            index: 0,
            value: 0.0,
        };
        for prior in [-1.0, f64::NAN, f64::INFINITY] {
            let options = MleOptions {
                prior_draws: prior,
                ..MleOptions::default()
            };
            assert!(matches!(
                mle_elo(&m, anchor, &options),
                Err(FitError::InvalidOption {
                    name: "prior draws",
                    ..
                })
            ));
        }
    }

    #[test]
    fn iteration_cap_is_reported() {
        let m = thesis_matrix();
        let options = MleOptions {
            max_iterations: 1,
            ..MleOptions::default()
        };
        let anchor = Anchor {
            index: 0,
            value: 0.0,
        };
        assert_eq!(
            mle_elo(&m, anchor, &options),
            Err(FitError::NoConvergence { iterations: 1 })
        );
    }

    #[test]
    fn log_sigmoid_is_stable() {
        assert!((ln_sigmoid(0.0) - 0.5f64.ln()).abs() < 1e-15);
        assert!((ln_sigmoid(-800.0) + 800.0).abs() < 1e-9);
        assert_eq!(ln_sigmoid(800.0), 0.0);
        assert!((ln_sigmoid(2.0) - sigmoid(2.0).ln()).abs() < 1e-15);
    }
}
