//! Joining a run's games to the rating fits: the result matrix, the fits, the tables
//! as printed and the files written beside the games.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use fow_ratings::{
    bayeselo, connected_players, crosstable_csv, crosstable_text, linked_players, los_csv,
    los_text, mle_elo, summary_csv, summary_text, thesis_elo, Anchor, BayesEloFit, BayesEloOptions,
    FitError, MleFit, MleOptions, ResultMatrix, Score, SummaryInput, SummaryOrder, ThesisFit,
    ThesisOptions,
};
use fow_records::GameRow;

use crate::error::{input, write_failed, ReportError};

/// Which fits the ratings table shows beside the default one (BayesElo's model).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Method {
    /// The BayesElo fit only (plus the thesis column when it disagrees with it).
    Bayeselo,
    /// Also the thesis's iterative Elo (K = 1, all games at once).
    Thesis,
    /// Also the maximum-likelihood fit counting a draw as half a win (colours ignored),
    /// with its 95% intervals.
    Mle,
    /// Also both of them.
    Both,
}

/// The fits of one result matrix, with notes on what was left out or fell back.
pub struct Fits {
    /// BayesElo's model on the players linked by games (the default fit): with its prior of
    /// virtual draws it rates players that won or lost every game, as BayesElo does.
    pub elo: Option<BayesEloFit>,
    /// The matrix indices of the players the BayesElo fit covers, in its order.
    pub elo_rated: Vec<usize>,
    /// The thesis's iteration on the linked players.
    pub thesis: Option<ThesisFit>,
    /// The half-point maximum-likelihood fit on the linked players.
    pub mle: Option<MleFit>,
    /// The matrix indices of the players the thesis and MLE fits cover, in their order; the
    /// others are not rated (unlinked) by them.
    pub rated: Vec<usize>,
    /// The origin of the thesis and MLE columns, as a matrix index and value.
    pub side_anchor: Option<Anchor>,
    /// Whether the ratings table shows the thesis column.
    pub show_thesis: bool,
    /// Whether the ratings table shows the MLE columns.
    pub show_mle: bool,
    /// What the tables leave out or fall back on (unlinked players, a fit that failed),
    /// one sentence each, printed after the tables.
    pub notes: Vec<String>,
}

impl Fits {
    /// The ratings table's input with every fit, in the matrix's order and without the
    /// time column: what `ratings.csv` holds.
    pub fn summary_input<'a>(&'a self, m: &'a ResultMatrix) -> SummaryInput<'a> {
        let mut inp = SummaryInput::new(m);
        inp.elo = self.elo.as_ref();
        inp.thesis = self.thesis.as_ref();
        inp.mle = self.mle.as_ref();
        inp.fitted = Some(&self.rated);
        inp.elo_fitted = Some(&self.elo_rated);
        inp.order = SummaryOrder::Given;
        inp
    }
}

/// The players' names in the tables: their labels ([`fow_players::player_labels`]: the
/// `name=` where given, else the spec); the returned games carry the same names.
pub fn labelled(players: &[String], mut games: Vec<GameRow>) -> (Vec<String>, Vec<GameRow>) {
    let labels = fow_players::player_labels(players);
    if labels == players {
        return (labels, games);
    }
    let of = |name: &mut String| {
        if let Some(i) = players.iter().position(|p| p == name) {
            *name = labels[i].clone();
        }
    };
    for g in &mut games {
        of(&mut g.white);
        of(&mut g.black);
    }
    (labels, games)
}

/// Builds the result matrix of `games` over `players` (in that order).
pub fn matrix_of(players: &[String], games: &[GameRow]) -> Result<ResultMatrix, ReportError> {
    let mut m = ResultMatrix::new(players.to_vec());
    for g in games {
        let idx = |name: &str| {
            m.index_of(name)
                .ok_or_else(|| input(format!("game {}: unknown player '{name}'", g.id)))
        };
        let (w, b) = (idx(&g.white)?, idx(&g.black)?);
        if w == b {
            return Err(input(format!(
                "game {}: {} plays itself: a player against itself has no rating to fit (a self-match's statistics are in its match.json)",
                g.id, g.white
            )));
        }
        let score = match g.game_result().map_err(input)? {
            fow_records::GameResult::WhiteWins => Score::Win,
            fow_records::GameResult::BlackWins => Score::Loss,
            fow_records::GameResult::Draw => Score::Draw,
        };
        m.add_game(w, b, score).map_err(input)?;
    }
    Ok(m)
}

/// Parses `--anchor NAME=VALUE` (default: RandomMove = 0 if present, else the first).
pub fn anchor(m: &ResultMatrix, spec: Option<&str>) -> Result<Anchor, ReportError> {
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

/// The thesis iteration, falling back to a smaller step when K = 1 does not settle; `None`
/// (with a note) when it does not converge.
fn thesis_fit(
    m: &ResultMatrix,
    anchor: Anchor,
    notes: &mut Vec<String>,
) -> Result<Option<ThesisFit>, ReportError> {
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
        Ok(Some(f))
    } else {
        notes.push(format!(
            "thesis Elo: does not converge after {} iterations (a player won or lost every game); not shown",
            f.iterations
        ));
        Ok(None)
    }
}

/// The thesis method and the half-point MLE on the whole matrix, as the thesis comparison
/// (`fow compare-thesis`, `--preset`) uses them: the thesis iteration falls back to a smaller
/// step when K = 1 does not settle, and the MLE to one virtual draw per pair when a player's
/// rating is unbounded; both fallbacks are reported in `notes`. No BayesElo fit.
pub fn thesis_and_mle(m: &ResultMatrix, anchor: Anchor) -> Result<Fits, ReportError> {
    let mut notes = Vec::new();
    let thesis = thesis_fit(m, anchor, &mut notes)?;
    let mle = match mle_elo(m, anchor, &MleOptions::default()) {
        Ok(f) => Some(f),
        Err(FitError::Unbounded { players }) => {
            let opts = MleOptions {
                prior_draws: 1.0,
                ..MleOptions::default()
            };
            notes.push(format!(
                "MLE: unbounded without a prior ({} won or lost everything against the rest); added 1 virtual draw per pair",
                players.join(", ")
            ));
            Some(mle_elo(m, anchor, &opts).map_err(input)?)
        }
        Err(e) => {
            notes.push(format!("MLE: not computed: {e}"));
            None
        }
    };
    Ok(Fits {
        elo: None,
        elo_rated: Vec::new(),
        thesis,
        mle,
        rated: (0..m.len()).collect(),
        side_anchor: Some(anchor),
        show_thesis: true,
        show_mle: true,
        notes,
    })
}

/// The first player whose thesis rating, re-centred on the average of the thesis fit's
/// players, lies outside its BayesElo 95% interval (the BayesElo rating re-centred on the
/// same players): (index in the thesis fit, thesis, BayesElo). `in_elo[k]`: the thesis
/// fit's player `k` in the BayesElo fit.
fn thesis_disagreement(
    thesis: &ThesisFit,
    elo: &BayesEloFit,
    in_elo: &[usize],
) -> Option<(usize, f64, f64)> {
    let n = thesis.ratings.len();
    let t0 = thesis.ratings.iter().sum::<f64>() / n as f64;
    let e0 = in_elo.iter().map(|&e| elo.ratings[e]).sum::<f64>() / n as f64;
    (0..n)
        .map(|k| (k, thesis.ratings[k] - t0, elo.ratings[in_elo[k]] - e0))
        .find(|&(k, t, e)| (t - e).abs() > elo.half_widths[in_elo[k]])
}

/// Computes the fits of the ratings table. The default fit is BayesElo's model (eloAdvantage
/// and eloDraw fitted, prior 2) on the players linked by games (see [`connected_players`]):
/// its prior of virtual draws rates a player that won or lost every game, as BayesElo does.
/// The thesis and half-point MLE fits have no prior, so they cover only the players linked
/// by games won and lost both ways (see [`linked_players`]) and mark the others not rated
/// (unlinked). The BayesElo ratings are relative to the pool average or to `--anchor`
/// (`anchor_spec`); the thesis and MLE columns are anchored at `--anchor` when they rate it,
/// else RandomMove = 0 (else the first player they rate). The thesis column is shown when
/// `method` asks for it or when it disagrees with the BayesElo fit (a player's re-centred
/// thesis rating outside its 95% interval); the MLE columns when asked for.
pub fn fit(
    m: &ResultMatrix,
    anchor_spec: Option<&str>,
    method: Method,
) -> Result<Fits, ReportError> {
    let explicit = match anchor_spec {
        Some(spec) => Some(anchor(m, Some(spec))?),
        None => None,
    };
    let default_anchor = Anchor::random_move_or_first(m);
    let prefer = explicit.unwrap_or(default_anchor).index;
    let linked = linked_players(m, Some(prefer));
    let connected = connected_players(m, Some(prefer));
    let rated: Vec<usize> = (0..m.len()).filter(|&i| linked[i]).collect();
    let elo_rated: Vec<usize> = (0..m.len()).filter(|&i| connected[i]).collect();
    let names = |keep: &dyn Fn(usize) -> bool| -> String {
        (0..m.len())
            .filter(|&i| keep(i))
            .map(|i| m.names()[i].as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut notes = Vec::new();
    let mut fits = Fits {
        elo: None,
        elo_rated: elo_rated.clone(),
        thesis: None,
        mle: None,
        rated: rated.clone(),
        side_anchor: None,
        show_thesis: matches!(method, Method::Thesis | Method::Both),
        show_mle: matches!(method, Method::Mle | Method::Both),
        notes: Vec::new(),
    };
    if elo_rated.len() < 2 {
        notes.push("no two players met (directly or through others): nobody can be rated".into());
        fits.notes = notes;
        return Ok(fits);
    }
    let apart = names(&|i| !connected[i]);
    if !apart.is_empty() {
        notes.push(format!(
            "not rated (unlinked): {apart}: never met the rated players, directly or through others, so no rating relates them"
        ));
    }
    let prior_only = names(&|i| connected[i] && !linked[i]);
    if !prior_only.is_empty() {
        notes.push(format!(
            "rated by BayesElo's prior only: {prior_only}: won or lost every game against the others, so no finite rating fits without BayesElo's virtual draws; its Elo, like BayesElo's own, rests on them, and the thesis and MLE fits, which have no prior, leave such players out"
        ));
    }
    let elo_position = |index: usize| elo_rated.iter().position(|&i| i == index);
    let position = |index: usize| rated.iter().position(|&i| i == index);
    let elo_explicit = match explicit {
        Some(a) => Some(Anchor {
            index: elo_position(a.index).ok_or_else(|| {
                input(format!(
                    "--anchor: {} is not rated (unlinked), so it cannot anchor the ratings",
                    m.names()[a.index]
                ))
            })?,
            value: a.value,
        }),
        None => None,
    };
    let elo_sub = m.subset(&elo_rated).map_err(input)?;
    match bayeselo(&elo_sub, elo_explicit, &BayesEloOptions::default()) {
        Ok(f) => fits.elo = Some(f),
        Err(e) => notes.push(format!("BayesElo fit: not computed: {e}")),
    }
    if rated.len() < 2 {
        if fits.show_thesis || fits.show_mle {
            notes.push(
                "thesis and MLE: no two players won and lost games against each other (directly or through others): not computed"
                    .into(),
            );
        }
        fits.rated = Vec::new();
        fits.show_thesis = false;
        fits.show_mle = false;
        fits.notes = notes;
        return Ok(fits);
    }
    let mut side_notes = Vec::new();
    let side_anchor = match explicit.and_then(|a| Some((position(a.index)?, a.value))) {
        Some((index, value)) => Anchor { index, value },
        None => {
            let wanted = explicit.unwrap_or(default_anchor).index;
            let index = position(wanted).unwrap_or(0);
            if position(wanted).is_none()
                && (explicit.is_some() || m.index_of("RandomMove").is_some())
            {
                side_notes.push(format!(
                    "{} is not rated by the thesis and MLE fits, so their columns are anchored at {} = 0",
                    m.names()[wanted],
                    m.names()[rated[0]]
                ));
            }
            Anchor { index, value: 0.0 }
        }
    };
    fits.side_anchor = Some(Anchor {
        index: rated[side_anchor.index],
        value: side_anchor.value,
    });
    let sub = m.subset(&rated).map_err(input)?;
    let mut thesis_notes = Vec::new();
    fits.thesis = thesis_fit(&sub, side_anchor, &mut thesis_notes)?;
    let mut mle_notes = Vec::new();
    match mle_elo(&sub, side_anchor, &MleOptions::default()) {
        Ok(f) => fits.mle = Some(f),
        Err(e) => mle_notes.push(format!("MLE: not computed: {e}")),
    }
    if !fits.show_thesis {
        if let (Some(thesis), Some(elo)) = (&fits.thesis, &fits.elo) {
            let in_elo: Vec<usize> = rated.iter().filter_map(|&i| elo_position(i)).collect();
            if let Some((k, t, e)) = thesis_disagreement(thesis, elo, &in_elo) {
                fits.show_thesis = true;
                notes.push(format!(
                    "thesis Elo shown: it disagrees with the BayesElo fit for {} ({t:.1} vs {e:.1} about the average of the players both rate, beyond the 95% interval)",
                    m.names()[rated[k]]
                ));
            }
        }
    }
    if fits.show_thesis || fits.show_mle {
        notes.extend(side_notes);
    }
    if fits.show_thesis {
        notes.extend(thesis_notes);
    }
    if fits.show_mle {
        notes.extend(mle_notes);
    }
    fits.notes = notes;
    Ok(fits)
}

/// Average wall milliseconds per move of each player over `games` (their players named as
/// in `players`), from the matching rows of `times`.
pub fn ms_per_move(
    players: &[String],
    games: &[fow_records::GameRow],
    times: &[fow_records::TimeRow],
) -> Vec<Option<f64>> {
    let mut sum = vec![(0.0f64, 0u64); players.len()];
    let by_id: std::collections::HashMap<u64, &fow_records::GameRow> =
        games.iter().map(|g| (g.id, g)).collect();
    for t in times {
        let Some(g) = by_id.get(&t.id) else { continue };
        for (name, ms, n) in [
            (&g.white, t.white_ms, t.white_moves),
            (&g.black, t.black_ms, t.black_moves),
        ] {
            if let Some(i) = players.iter().position(|p| p == name) {
                sum[i].0 += ms;
                sum[i].1 += u64::from(n);
            }
        }
    }
    sum.into_iter()
        .map(|(ms, n)| (n > 0).then(|| ms / n as f64))
        .collect()
}

pub use fow_records::{CROSSTABLE_FILE, LOS_FILE, RATINGS_FILE, SUMMARY_FILE};

/// A line on the BayesElo fit: origin, model parameters, prior and scale.
fn model_line(m: &ResultMatrix, fits: &Fits, elo: &BayesEloFit) -> String {
    let origin = match elo.anchor {
        Some(a) => format!("{} = {}", m.names()[fits.elo_rated[a.index]], a.value),
        None => "the pool average (they sum to 0)".into(),
    };
    format!(
        "Elo: BayesElo's model (Bradley-Terry with a draw parameter and White's advantage), relative to {origin}; \
         ±95%: the interval from the covariance matrix. Fitted White advantage eloAdvantage = {:.1}, eloDraw = {:.1} \
         (prior: 2 virtual draws per player; ratings scaled by {:.3} as BayesElo prints them).",
        elo.elo_advantage, elo.elo_draw, elo.scale
    )
}

/// Writes `crosstable.csv`, `ratings.csv` and `los.csv` into `out` when given, plus
/// `summary.csv` (the ratings with average ms per move, like the thesis's Table 2) when
/// `ms_per_move` is given, and returns the text to print: the crosstable, the ratings
/// and the likelihood of superiority. `ratings.csv` holds every fit (the table shows those of [`Fits`]) and no
/// wall-clock figure, so it is byte-identical across runs; `summary.csv` is not.
pub fn report(
    m: &ResultMatrix,
    fits: &Fits,
    ms_per_move: Option<&[Option<f64>]>,
    out: Option<&Path>,
) -> Result<String, ReportError> {
    let mut inp = fits.summary_input(m);
    let deterministic = summary_csv(&inp).map_err(input)?;
    inp.ms_per_move = ms_per_move;
    let with_times = match ms_per_move {
        Some(_) => Some(summary_csv(&inp).map_err(input)?),
        None => None,
    };
    let los = match &fits.elo {
        Some(elo) => Some((
            los_text(m, elo, Some(&fits.elo_rated)).map_err(input)?,
            los_csv(m, elo, Some(&fits.elo_rated)).map_err(input)?,
        )),
        None => None,
    };
    if let Some(dir) = out {
        let write = |name: &str, text: &str| {
            let p = dir.join(name);
            fs::write(&p, text).map_err(|e| write_failed(&p, e))
        };
        write(CROSSTABLE_FILE, &crosstable_csv(m))?;
        write(RATINGS_FILE, &deterministic)?;
        if let Some(text) = &with_times {
            write(SUMMARY_FILE, text)?;
        }
        if let Some((_, csv)) = &los {
            write(LOS_FILE, csv)?;
        }
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Crosstable (points of the row player as White / as Black):"
    );
    let _ = writeln!(s, "{}", crosstable_text(m));
    let mut shown = inp;
    if !fits.show_thesis {
        shown.thesis = None;
    }
    if !fits.show_mle {
        shown.mle = None;
    }
    let _ = writeln!(s, "Ratings:");
    let _ = writeln!(s, "{}", summary_text(&shown).map_err(input)?);
    if let Some(elo) = &fits.elo {
        let _ = writeln!(s, "{}", model_line(m, fits, elo));
    }
    if let Some(line) = side_columns_line(m, fits, shown.thesis.is_some(), shown.mle.is_some()) {
        let _ = writeln!(s, "{line}");
    }
    if let Some((text, _)) = &los {
        s.push('\n');
        let _ = writeln!(s, "Likelihood of superiority (BayesElo's los):");
        let _ = writeln!(s, "{text}");
    }
    for n in &fits.notes {
        let _ = writeln!(s, "note: {n}");
    }
    Ok(s)
}

/// The line under the ratings table that says what its thesis and MLE columns hold,
/// naming only the columns shown (`thesis`, `mle`); `None` when neither is.
fn side_columns_line(m: &ResultMatrix, fits: &Fits, thesis: bool, mle: bool) -> Option<String> {
    let origin = |both: &str| {
        fits.side_anchor.map_or(String::new(), |a| {
            format!(", {both}with {} = {}", m.names()[a.index], a.value)
        })
    };
    const THESIS: &str = "Thesis Elo: the thesis's iteration (K = 1, all games at once)";
    const MLE: &str = "MLE Elo: maximum likelihood counting a draw as half a win, colours ignored";
    match (thesis, mle) {
        (false, false) => None,
        (true, false) => Some(format!(
            "{THESIS}{}; a point estimate: the iteration gives no interval.",
            origin("")
        )),
        (false, true) => Some(format!("{MLE}{}; MLE ±95%: its 95% interval.", origin(""))),
        (true, true) => Some(format!(
            "{THESIS}, without an interval; {MLE}, MLE ±95% its 95% interval{}.",
            origin("both ")
        )),
    }
}
