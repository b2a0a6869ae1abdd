//! Joining arena results to the rating fits: the matrix, both fits, tables and files.

use std::fs;
use std::path::Path;

use fow_arena::GameRow;
use fow_ratings::{
    crosstable_csv, crosstable_text, mle_elo, summary_csv, summary_text, thesis_elo, Anchor,
    MleError, MleFit, MleOptions, ResultMatrix, Score, SummaryInput, SummaryOrder, ThesisFit,
    ThesisOptions,
};

use crate::error::{input, CliError};

/// Which fits to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// The thesis's iterative Elo (K = 1, all games at once).
    Thesis,
    /// Maximum likelihood with 95% intervals.
    Mle,
    /// Both.
    Both,
}

/// The fits of one result matrix, with notes on any fallback used.
pub struct Fits {
    pub thesis: Option<ThesisFit>,
    pub mle: Option<MleFit>,
    pub notes: Vec<String>,
}

/// Builds the result matrix of `games` over `players` (in that order).
pub fn matrix_of(players: &[String], games: &[GameRow]) -> Result<ResultMatrix, CliError> {
    let mut m = ResultMatrix::new(players.to_vec());
    for g in games {
        let idx = |name: &str| {
            m.index_of(name)
                .ok_or_else(|| input(format!("game {}: unknown player '{name}'", g.id)))
        };
        let (w, b) = (idx(&g.white)?, idx(&g.black)?);
        let score = match g.game_result().map_err(input)? {
            fow_arena::GameResult::WhiteWins => Score::Win,
            fow_arena::GameResult::BlackWins => Score::Loss,
            fow_arena::GameResult::Draw => Score::Draw,
        };
        m.add_game(w, b, score).map_err(input)?;
    }
    Ok(m)
}

/// Parses `--anchor NAME=VALUE` (default: RandomMove = 0 if present, else the first).
pub fn anchor(m: &ResultMatrix, spec: Option<&str>) -> Result<Anchor, CliError> {
    let Some(spec) = spec else {
        return Ok(Anchor::random_move_or_first(m));
    };
    let (name, value) = spec.rsplit_once('=').unwrap_or((spec, "0"));
    let index = m.index_of(name).ok_or_else(|| {
        input(format!(
            "--anchor: no player '{name}' (players: {})",
            m.names().join(", ")
        ))
    })?;
    let value: f64 = value
        .parse()
        .map_err(|_| input(format!("--anchor: '{value}' is not a number")))?;
    Ok(Anchor { index, value })
}

/// Computes the requested fits. The thesis iteration falls back to a smaller step when
/// K = 1 does not settle, and the MLE to one virtual draw per pair when a player's
/// rating is unbounded; both fallbacks are reported in `notes`.
pub fn fit(m: &ResultMatrix, anchor: Anchor, method: Method) -> Result<Fits, CliError> {
    let mut notes = Vec::new();
    let mut thesis = None;
    let mut mle = None;
    if method != Method::Mle {
        let f = thesis_elo(m, anchor, &ThesisOptions::default()).map_err(input)?;
        let stable = ThesisOptions::stable(m);
        let f = if f.converged || stable.k >= 1.0 {
            f
        } else {
            let g = thesis_elo(m, anchor, &stable).map_err(input)?;
            notes.push(format!(
                "thesis Elo: K = 1 oscillates here; used K = {:.4}, which has the same fixed point",
                stable.k
            ));
            g
        };
        if f.converged {
            thesis = Some(f);
        } else {
            notes.push(format!(
                "thesis Elo: does not converge after {} iterations (a player won or lost every game); not shown",
                f.iterations
            ));
        }
    }
    if method != Method::Thesis {
        match mle_elo(m, anchor, &MleOptions::default()) {
            Ok(f) => mle = Some(f),
            Err(MleError::Unbounded { players }) => {
                let opts = MleOptions {
                    prior_draws: 1.0,
                    ..MleOptions::default()
                };
                mle = Some(mle_elo(m, anchor, &opts).map_err(input)?);
                notes.push(format!(
                    "MLE: unbounded without a prior ({} won or lost everything against the rest); added 1 virtual draw per pair",
                    players.join(", ")
                ));
            }
            Err(e) => notes.push(format!("MLE: not computed: {e}")),
        }
    }
    Ok(Fits { thesis, mle, notes })
}

/// The crosstable written beside a tournament's games.
pub const CROSSTABLE_FILE: &str = "crosstable.csv";
/// The ratings without times (equal across runs with the same seed).
pub const RATINGS_FILE: &str = "ratings.csv";
/// The ratings with average time per move (written when times are known).
pub const SUMMARY_FILE: &str = "summary.csv";

/// Writes `crosstable.csv` and `ratings.csv` into `out` when given, plus `summary.csv`
/// (the ratings with average ms per move, like the thesis's Table 2) when `ms_per_move`
/// is given, then prints the crosstable and summary. `ratings.csv` holds no wall-clock
/// figure, so it is byte-identical across runs; `summary.csv` is not.
pub fn report(
    m: &ResultMatrix,
    fits: &Fits,
    ms_per_move: Option<&[Option<f64>]>,
    out: Option<&Path>,
) -> Result<(), CliError> {
    let mut inp = SummaryInput::new(m);
    inp.thesis = fits.thesis.as_ref();
    inp.mle = fits.mle.as_ref();
    inp.order = SummaryOrder::Given;
    let deterministic = summary_csv(&inp).map_err(input)?;
    inp.ms_per_move = ms_per_move;
    let with_times = match ms_per_move {
        Some(_) => Some(summary_csv(&inp).map_err(input)?),
        None => None,
    };
    if let Some(dir) = out {
        let write = |name: &str, text: &str| {
            let p = dir.join(name);
            fs::write(&p, text).map_err(|e| CliError::Failed(format!("{}: {e}", p.display())))
        };
        write(CROSSTABLE_FILE, &crosstable_csv(m))?;
        write(RATINGS_FILE, &deterministic)?;
        if let Some(text) = &with_times {
            write(SUMMARY_FILE, text)?;
        }
    }
    outln!("Crosstable (points of the row player as White / as Black):");
    outln!("{}", crosstable_text(m));
    outln!("Ratings (anchor as shown; ± is the 95% interval of the MLE):");
    outln!("{}", summary_text(&inp).map_err(input)?);
    for n in &fits.notes {
        outln!("note: {n}");
    }
    Ok(())
}
