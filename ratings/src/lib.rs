//! Rating fits for round-robin results.
//!
//! Results live in a [`ResultMatrix`] (cell `(i, j)`: player `i` as White against `j`),
//! built game by game or parsed from the thesis's text format with [`parse_match_matrix`].
//! Three fits put the players on the Elo scale, where a player rated `d` points above another
//! is expected to score `1 / (1 + 10^(−d / 400))` against it:
//!
//! - [`bayeselo()`], the default: Rémi Coulom's BayesElo model, Bradley–Terry with a draw
//!   parameter and a first-move (White) advantage fitted from the games, with BayesElo's prior
//!   of virtual draws and its rating scale. Ratings are relative to the pool average (or an
//!   anchor); their covariance matrix gives intervals, differences with standard errors and
//!   likelihoods of superiority. It reproduces BayesElo's published output (see
//!   `tests/bayeselo.rs`).
//! - [`thesis_elo`], the procedure of the 2023 thesis: start every rating at 0, apply all
//!   games at once with K = 1 (`r_i += Σ (S − E)`), and repeat until the ratings stop moving.
//!   It reproduces the thesis's Table 2.
//! - [`mle_elo`], the maximum-likelihood fit in the manner of Ordo (a draw is half a win and
//!   half a loss, colours ignored), solved by Newton–Raphson, with standard errors and 95%
//!   intervals from the observed information. It refuses inputs for which the likelihood has
//!   no finite maximum (e.g. a 100% score) unless virtual prior draws are requested.
//!
//! The last two fix the origin with an [`Anchor`] (by default `RandomMove` = 0). Where the
//! thesis iteration converges it solves the same equations as the likelihood fit (each
//! player's summed `S − E` is zero), so both give the same ratings; the MLE adds the
//! intervals. [`linked_players`] tells which players can be rated at all: those linked to each
//! other by games won and lost in both directions.
//!
//! The [tables](crosstable_text) turn results and fits into CSV or aligned text.
//!
//! [`spearman`] and [`kendall_tau`] compare two ladders by rank (ties averaged).
//!
//! [`llr`], [`SprtSpec`] and [`MatchStats`] are the statistics of a match played in game
//! pairs (a [`Pentanomial`]), as fishtest and fastchess compute them: the generalized
//! SPRT, Elo and normalized Elo with 95% intervals, and the LOS.
//!
//! [`fit_logistic`] is a general L2-penalised logistic regression (Newton's method, with
//! standard errors), used to fit piece values to game results.
//!
//! ```
//! use fow_ratings::{mle_elo, thesis_elo, Anchor, MleOptions, ResultMatrix, Score, ThesisOptions};
//! let mut m = ResultMatrix::new(vec!["RandomMove".into(), "Bot".into()]);
//! for _ in 0..3 {
//!     m.add_game(1, 0, Score::Win)?;
//! }
//! m.add_game(0, 1, Score::Draw)?;
//! let anchor = Anchor::random_move_or_first(&m);
//! let thesis = thesis_elo(&m, anchor, &ThesisOptions::default())?;
//! let mle = mle_elo(&m, anchor, &MleOptions::default())?;
//! assert!((thesis.ratings[1] - mle.ratings[1]).abs() < 1e-6);
//! assert!(mle.half_widths[1] > 0.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod anchor;
mod bayeselo;
mod error;
mod graph;
mod linalg;
mod logistic;
mod matrix_file;
mod mle;
mod rank;
mod results;
mod score;
mod sprt;
mod tables;
mod text_table;
mod thesis;

pub use anchor::Anchor;
pub use bayeselo::{
    bayeselo, BayesEloFit, BayesEloOptions, EloParameter, BAYESELO_ADVANTAGE, BAYESELO_DRAW_ELO,
};
pub use error::{FitError, MatrixError, ParseError, TableError};
pub use graph::{connected_players, linked_players};
pub use logistic::{fit_logistic, LogisticError, LogisticFit, LogisticOptions};
pub use matrix_file::{format_match_matrix, parse_match_matrix};
pub use mle::{mle_elo, MleFit, MleOptions};
pub use rank::{average_ranks, kendall_tau, spearman};
pub use results::ResultMatrix;
pub use score::{Score, Wdl};
pub use sprt::{
    llr, EloInterval, EloModel, MatchStats, Pentanomial, SprtSpec, SprtSpecError, Verdict,
    SPRT_ELO_LIMIT,
};
pub use tables::{
    crosstable_csv, crosstable_text, los_csv, los_text, summary_csv, summary_rows, summary_text,
    SummaryInput, SummaryOrder, SummaryRow, NOT_RATED,
};
pub use thesis::{thesis_elo, ThesisFit, ThesisOptions};
