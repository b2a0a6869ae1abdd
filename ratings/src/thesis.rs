//! The thesis's iterative Elo procedure.

use serde::Serialize;

use crate::anchor::Anchor;
use crate::error::FitError;
use crate::results::ResultMatrix;

/// Settings of [`thesis_elo`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ThesisOptions {
    /// K factor of each update; the thesis uses 1. The fixed point does not depend on K
    /// (it is where every player's summed `S − E` vanishes), only the path does: with many
    /// games between close opponents a K of 1 overshoots and oscillates without converging
    /// (e.g. two players with 1,100 : 900 points), and a smaller K converges to the same
    /// ratings; [`ThesisOptions::stable`] picks one that is safe for a given matrix.
    pub k: f64,
    /// Stop once the summed absolute change of one iteration, `Σ_i |Δ_i|`, is below this.
    pub tolerance: f64,
    /// Give up after this many iterations (a player with a perfect or zero score drifts
    /// forever, so the procedure cannot converge then).
    pub max_iterations: usize,
}

impl Default for ThesisOptions {
    /// The thesis's settings: K = 1, tolerance 1e-9, at most 100,000 iterations.
    fn default() -> Self {
        ThesisOptions {
            k: 1.0,
            tolerance: 1e-9,
            max_iterations: 100_000,
        }
    }
}

impl ThesisOptions {
    /// The default options with K lowered, if needed, so that the iteration cannot overshoot
    /// on this matrix: `K = min(1, 3 · 400 / (ln 10 · G))`, where `G` is the largest number
    /// of games of any player. (The update is gradient ascent on the log-likelihood, whose
    /// curvature is at most `ln 10 / 400 · G / 2` per Elo point, so any `K` below
    /// `4 · 400 / (ln 10 · G)` converges whenever the ratings are finite.) It converges to the
    /// same ratings as K = 1 where that converges, only in more iterations.
    ///
    /// ```
    /// use fow_ratings::{ResultMatrix, ThesisOptions, Wdl};
    /// let mut m = ResultMatrix::new(vec!["A".into(), "B".into()]);
    /// assert_eq!(ThesisOptions::stable(&m).k, 1.0);
    /// m.add_results(0, 1, Wdl::new(1100, 0, 900))?;
    /// assert!(ThesisOptions::stable(&m).k < 0.3);
    /// # Ok::<(), fow_ratings::MatrixError>(())
    /// ```
    pub fn stable(matrix: &ResultMatrix) -> ThesisOptions {
        let most_games = (0..matrix.len())
            .filter_map(|i| matrix.player_games(i))
            .max()
            .unwrap_or(0) as f64;
        let limit = 3.0 * 400.0 / (std::f64::consts::LN_10 * most_games);
        ThesisOptions {
            k: limit.min(1.0),
            ..ThesisOptions::default()
        }
    }
}

/// Ratings from [`thesis_elo`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ThesisFit {
    /// One rating per player, in matrix order, shifted so that the anchor has its value.
    pub ratings: Vec<f64>,
    /// Iterations performed.
    pub iterations: usize,
    /// Whether the summed absolute change fell below the tolerance.
    pub converged: bool,
    /// Summed absolute change `Σ_i |Δ_i|` of the last iteration.
    pub last_change: f64,
}

/// The thesis's iterative Elo: all ratings start at 0; each iteration applies every game of
/// the tournament at once, `Δ_i = K · Σ_{games of i} (S − E)` with
/// `E = 1 / (1 + 10^((r_j − r_i) / 400))` (colour ignored), then `r_i += Δ_i` for all `i`
/// simultaneously; repeat until `Σ_i |Δ_i| < tolerance` or the iteration cap. Finally all
/// ratings are shifted so that the anchor player has the anchor value.
///
/// Games are aggregated per pair of players, so one iteration costs `O(pairs)` whatever the
/// number of games. A converged result satisfies `Σ_j (S_ij − N_ij E_ij) = 0` for every
/// player, the same equations as the maximum-likelihood fit [`mle_elo`](crate::mle_elo).
///
/// ```
/// use fow_ratings::{thesis_elo, Anchor, ResultMatrix, ThesisOptions, Wdl};
/// let mut m = ResultMatrix::new(vec!["A".into(), "B".into()]);
/// m.add_results(0, 1, Wdl::new(75, 0, 25))?;
/// let fit = thesis_elo(&m, Anchor { index: 1, value: 1000.0 }, &ThesisOptions::default())?;
/// assert!(fit.converged);
/// assert_eq!(fit.ratings[1], 1000.0);
/// assert!((fit.ratings[0] - 1000.0 - 400.0 * 3f64.log10()).abs() < 1e-6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn thesis_elo(
    matrix: &ResultMatrix,
    anchor: Anchor,
    options: &ThesisOptions,
) -> Result<ThesisFit, FitError> {
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
            "K factor",
            options.k,
            options.k.is_finite() && options.k > 0.0,
        ),
        ("tolerance", options.tolerance, options.tolerance >= 0.0),
    ];
    if let Some(&(name, value, _)) = checks.iter().find(|check| !check.2) {
        return Err(FitError::InvalidOption { name, value });
    }

    let pairs = matrix.pairs();
    let mut ratings = vec![0.0; n];
    let mut delta = vec![0.0; n];
    let mut iterations = 0;
    let mut converged = false;
    let mut last_change = f64::NAN;
    while iterations < options.max_iterations {
        delta.fill(0.0);
        for pair in &pairs {
            let expected = 1.0 / (1.0 + 10f64.powf((ratings[pair.j] - ratings[pair.i]) / 400.0));
            let surplus = pair.points_i - pair.games * expected;
            delta[pair.i] += surplus;
            delta[pair.j] -= surplus;
        }
        last_change = 0.0;
        for (rating, d) in ratings.iter_mut().zip(&delta) {
            let step = options.k * d;
            *rating += step;
            last_change += step.abs();
        }
        iterations += 1;
        if last_change < options.tolerance {
            converged = true;
            break;
        }
        if !last_change.is_finite() {
            break;
        }
    }
    let shift = anchor.value - ratings[anchor.index];
    for rating in &mut ratings {
        *rating += shift;
    }
    Ok(ThesisFit {
        ratings,
        iterations,
        converged,
        last_change,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::matrix_file::parse_match_matrix;
    use crate::score::Wdl;

    const MATRIX: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/thesis/match_results.txt"
    ));
    const TABLE2: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/thesis/table2.csv"
    ));

    /// One row of the thesis's table2.csv.
    pub(crate) struct Table2Row {
        pub name: String,
        pub points: f64,
        pub elo_recomputed: f64,
    }

    pub(crate) fn table2() -> Vec<Table2Row> {
        let mut lines = TABLE2.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
        let (player, points, elo) = (column("player"), column("points"), column("elo_recomputed"));
        lines
            .filter(|line| !line.trim().is_empty())
            .map(|line| {
                let fields: Vec<&str> = line.split(',').collect();
                Table2Row {
                    name: fields[player].to_string(),
                    points: fields[points].parse().unwrap(),
                    elo_recomputed: fields[elo].parse().unwrap(),
                }
            })
            .collect()
    }

    /// The thesis's result matrix with the players named as in table2.csv.
    pub(crate) fn thesis_matrix() -> ResultMatrix {
        let names = table2().into_iter().map(|row| row.name).collect();
        parse_match_matrix(MATRIX, Some(names)).unwrap()
    }

    #[test]
    fn reproduces_table2_of_the_thesis() {
        let m = thesis_matrix();
        let anchor = Anchor::random_move_or_first(&m);
        assert_eq!(anchor.index, 0);
        let fit = thesis_elo(&m, anchor, &ThesisOptions::default()).unwrap();
        assert!(fit.converged, "{fit:?}");
        assert!(fit.last_change < 1e-9);
        let rows = table2();
        assert_eq!(rows.len(), 10);
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(m.player_points(i), Some(row.points), "{}", row.name);
            assert_eq!(m.player_games(i), Some(1800), "{}", row.name);
            assert!(
                (fit.ratings[i] - row.elo_recomputed).abs() <= 0.01,
                "{}: computed {} vs table {}",
                row.name,
                fit.ratings[i],
                row.elo_recomputed
            );
        }
    }

    #[test]
    fn fixed_point_does_not_depend_on_k() {
        let m = thesis_matrix();
        let anchor = Anchor::random_move_or_first(&m);
        let one = thesis_elo(&m, anchor, &ThesisOptions::default()).unwrap();
        let half = ThesisOptions {
            k: 0.5,
            ..ThesisOptions::default()
        };
        let half = thesis_elo(&m, anchor, &half).unwrap();
        assert!(half.converged);
        assert_ne!(one.iterations, half.iterations);
        for (a, b) in one.ratings.iter().zip(&half.ratings) {
            assert!((a - b).abs() < 1e-6, "{a} vs {b}");
        }
    }

    #[test]
    fn k_of_one_oscillates_on_many_close_games_and_stable_k_fixes_it() {
        let mut m = ResultMatrix::new(vec!["A".into(), "B".into()]);
        m.add_results(0, 1, Wdl::new(1100, 0, 900)).unwrap();
        let anchor = Anchor {
            index: 1,
            value: 0.0,
        };
        let options = ThesisOptions {
            max_iterations: 1000,
            ..ThesisOptions::default()
        };
        let thesis = thesis_elo(&m, anchor, &options).unwrap();
        assert!(!thesis.converged);
        assert!(thesis.last_change > 1.0, "{thesis:?}");
        let stable = ThesisOptions::stable(&m);
        assert!(stable.k < 1.0);
        let fit = thesis_elo(&m, anchor, &stable).unwrap();
        assert!(fit.converged, "{fit:?}");
        let expected = 400.0 * (1100.0f64 / 900.0).log10();
        assert!((fit.ratings[0] - expected).abs() < 1e-7);
    }

    #[test]
    fn stable_k_reproduces_the_thesis_too() {
        let m = thesis_matrix();
        let anchor = Anchor::random_move_or_first(&m);
        let stable = ThesisOptions::stable(&m);
        assert!(stable.k < 0.3, "{stable:?}");
        let slow = thesis_elo(&m, anchor, &stable).unwrap();
        assert!(slow.converged);
        for (row, rating) in table2().iter().zip(&slow.ratings) {
            assert!((rating - row.elo_recomputed).abs() <= 0.01, "{}", row.name);
        }
    }

    #[test]
    fn two_players_match_the_logistic_formula() {
        let mut m = ResultMatrix::new(vec!["A".into(), "B".into()]);
        m.add_results(0, 1, Wdl::new(30, 10, 10)).unwrap();
        m.add_results(1, 0, Wdl::new(5, 10, 35)).unwrap();
        // A scored 35 + 40 = 75 of 100.
        let fit = thesis_elo(
            &m,
            Anchor {
                index: 0,
                value: 50.0,
            },
            &ThesisOptions::default(),
        )
        .unwrap();
        assert!(fit.converged);
        assert_eq!(fit.ratings[0], 50.0);
        let expected = 50.0 - 400.0 * 3f64.log10();
        assert!((fit.ratings[1] - expected).abs() < 1e-7, "{fit:?}");
    }

    #[test]
    fn perfect_score_never_converges() {
        let mut m = ResultMatrix::new(vec!["A".into(), "B".into(), "C".into()]);
        m.add_results(0, 1, Wdl::new(10, 0, 0)).unwrap();
        m.add_results(0, 2, Wdl::new(10, 0, 0)).unwrap();
        m.add_results(1, 2, Wdl::new(6, 0, 4)).unwrap();
        let options = ThesisOptions {
            max_iterations: 500,
            ..ThesisOptions::default()
        };
        let fit = thesis_elo(
            &m,
            Anchor {
                index: 2,
                value: 0.0,
            },
            &options,
        )
        .unwrap();
        assert!(!fit.converged);
        assert_eq!(fit.iterations, 500);
        assert!(fit.ratings[0] > fit.ratings[1] && fit.ratings[1] > fit.ratings[2]);
        assert!(fit.ratings.iter().all(|r| r.is_finite()));
    }

    #[test]
    fn no_games_converges_immediately() {
        let m = ResultMatrix::new(vec!["A".into(), "B".into()]);
        let fit = thesis_elo(
            &m,
            Anchor {
                index: 1,
                value: 7.0,
            },
            &ThesisOptions::default(),
        )
        .unwrap();
        assert!(fit.converged);
        assert_eq!(fit.iterations, 1);
        assert_eq!(fit.ratings, vec![7.0, 7.0]);
    }

    #[test]
    fn rejects_bad_anchor_and_options() {
        let m = ResultMatrix::new(vec!["A".into()]);
        let options = ThesisOptions::default();
        assert_eq!(
            thesis_elo(
                &m,
                Anchor {
                    index: 1,
                    value: 0.0
                },
                &options
            ),
            Err(FitError::AnchorOutOfRange {
                index: 1,
                players: 1
            })
        );
        let anchor = Anchor {
            index: 0,
            value: 0.0,
        };
        for k in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let options = ThesisOptions {
                k,
                ..ThesisOptions::default()
            };
            assert!(matches!(
                thesis_elo(&m, anchor, &options),
                Err(FitError::InvalidOption {
                    name: "K factor",
                    ..
                })
            ));
        }
        let nan_anchor = Anchor {
            index: 0,
            value: f64::NAN,
        };
        assert!(matches!(
            thesis_elo(&m, nan_anchor, &options),
            Err(FitError::InvalidOption {
                name: "anchor value",
                ..
            })
        ));
    }
}
