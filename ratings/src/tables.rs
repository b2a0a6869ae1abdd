//! Crosstables and rating summaries as CSV and as aligned text, ready to print.

use serde::Serialize;

use crate::bayeselo::BayesEloFit;
use crate::error::TableError;
use crate::mle::MleFit;
use crate::results::ResultMatrix;
use crate::text_table::{render, Align};
use crate::thesis::ThesisFit;

/// Writes records to an in-memory CSV document.
fn csv_string(records: &[Vec<String>]) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for record in records {
        // Writing to a Vec cannot fail, and every record has the header's length.
        writer
            .write_record(record)
            .expect("in-memory CSV records of equal length");
    }
    let bytes = writer.into_inner().expect("flushing in-memory CSV");
    String::from_utf8(bytes).expect("CSV of UTF-8 strings is UTF-8")
}

/// Points of `i` against `j` with `i` as White or Black; `None` when they never met in
/// that colour arrangement (or on the diagonal).
fn colour_points(matrix: &ResultMatrix, i: usize, j: usize) -> [Option<f64>; 2] {
    let white = matrix
        .cell(i, j)
        .filter(|w| !w.is_empty())
        .map(|w| w.points());
    let black = matrix
        .cell(j, i)
        .filter(|w| !w.is_empty())
        .map(|w| w.reversed().points());
    [white, black]
}

/// The crosstable (like the thesis's Figure 15) as CSV.
///
/// One row per player: `index` (1-based), `player`, `games`, `points` (totals), then for each
/// opponent `<name>_white` and `<name>_black`, the row player's points as White and as Black
/// against that opponent. Diagonal cells, and colours in which the two never met, are empty.
///
/// ```
/// use fow_ratings::{crosstable_csv, ResultMatrix, Wdl};
/// let mut m = ResultMatrix::new(vec!["A".into(), "B, the second".into()]);
/// m.add_results(0, 1, Wdl::new(61, 0, 39))?;
/// m.add_results(1, 0, Wdl::new(60, 2, 38))?;
/// assert_eq!(
///     crosstable_csv(&m),
///     "index,player,games,points,A_white,A_black,\"B, the second_white\",\"B, the second_black\"\n\
///      1,A,200,100,,,61,39\n\
///      2,\"B, the second\",200,100,61,39,,\n"
/// );
/// # Ok::<(), fow_ratings::MatrixError>(())
/// ```
pub fn crosstable_csv(matrix: &ResultMatrix) -> String {
    let n = matrix.len();
    let mut header: Vec<String> = ["index", "player", "games", "points"]
        .map(String::from)
        .to_vec();
    for name in matrix.names() {
        header.push(format!("{name}_white"));
        header.push(format!("{name}_black"));
    }
    let mut records = vec![header];
    for i in 0..n {
        let mut record = vec![
            (i + 1).to_string(),
            matrix.names()[i].clone(),
            matrix.player_games(i).unwrap_or(0).to_string(),
            matrix.player_points(i).unwrap_or(0.0).to_string(),
        ];
        for j in 0..n {
            for points in colour_points(matrix, i, j) {
                record.push(points.map(|p| p.to_string()).unwrap_or_default());
            }
        }
        records.push(record);
    }
    csv_string(&records)
}

/// The crosstable as aligned text. Columns are numbered like the rows (`#`), so the table
/// stays narrow with long names. A cell reads `white/black`: the row player's points as White
/// and as Black against the column player, `-` for a colour in which they never met, and a
/// lone `-` on the diagonal. A legend line follows the table.
///
/// ```
/// use fow_ratings::{crosstable_text, ResultMatrix, Wdl};
/// let mut m = ResultMatrix::new(vec!["A".into(), "B".into()]);
/// m.add_results(0, 1, Wdl::new(61, 0, 39))?;
/// m.add_results(1, 0, Wdl::new(60, 2, 38))?;
/// let text = crosstable_text(&m);
/// let row: Vec<&str> = text.lines().nth(1).unwrap().split_whitespace().collect();
/// assert_eq!(row, ["1", "A", "200", "100.0", "-", "61.0/39.0"]);
/// # Ok::<(), fow_ratings::MatrixError>(())
/// ```
pub fn crosstable_text(matrix: &ResultMatrix) -> String {
    let n = matrix.len();
    let mut header: Vec<String> = ["#", "Player", "Games", "Points"]
        .map(String::from)
        .to_vec();
    header.extend((1..=n).map(|k| k.to_string()));
    let mut align = vec![Align::Right, Align::Left, Align::Right, Align::Right];
    align.extend(std::iter::repeat_n(Align::Right, n));
    let rows: Vec<Vec<String>> = (0..n)
        .map(|i| {
            let mut row = vec![
                (i + 1).to_string(),
                matrix.names()[i].clone(),
                matrix.player_games(i).unwrap_or(0).to_string(),
                format!("{:.1}", matrix.player_points(i).unwrap_or(0.0)),
            ];
            row.extend((0..n).map(|j| {
                if i == j {
                    return "-".to_string();
                }
                let [white, black] = colour_points(matrix, i, j)
                    .map(|p| p.map_or("-".into(), |p| format!("{p:.1}")));
                format!("{white}/{black}")
            }));
            row
        })
        .collect();
    let mut text = render(&header, &rows, &align);
    text.push_str("cell: row player's points as White/as Black against the column player\n");
    text
}

/// What the rating columns show for a player left out of the fits (see
/// [`SummaryInput::fitted`]).
pub const NOT_RATED: &str = "not rated (unlinked)";

/// How [`summary_rows`] orders players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SummaryOrder {
    /// Matrix order.
    #[default]
    Given,
    /// Highest BayesElo rating first (ties keep matrix order).
    Elo,
    /// Highest thesis Elo first (ties keep matrix order).
    ThesisElo,
    /// Highest maximum-likelihood Elo first (ties keep matrix order).
    MleElo,
}

/// What goes into the summary table (like the thesis's Table 2). Build it with
/// [`SummaryInput::new`] and set the optional parts.
#[derive(Debug, Clone, Copy)]
pub struct SummaryInput<'a> {
    /// The game results: the games, points and score columns.
    pub matrix: &'a ResultMatrix,
    /// Elo and ±95% columns (the default fit); in the text table only when given.
    pub elo: Option<&'a BayesEloFit>,
    /// Thesis Elo column; in the text table only when given.
    pub thesis: Option<&'a ThesisFit>,
    /// MLE Elo and MLE ±95% columns; in the text table only when given.
    pub mle: Option<&'a MleFit>,
    /// The players the fits were computed on, as matrix indices in the fits' order (the fits
    /// of a [sub-matrix](ResultMatrix::subset)); `None` when they cover every player. Players
    /// left out are shown as [not rated](NOT_RATED) in every rating column.
    pub fitted: Option<&'a [usize]>,
    /// The players of the `elo` fit, when they are not those of `fitted` (BayesElo's prior
    /// rates players that won or lost every game, whom the thesis and MLE fits leave out);
    /// `None`: the same as `fitted`.
    pub elo_fitted: Option<&'a [usize]>,
    /// Average milliseconds per move, one entry per player (`None` prints `-`); the column
    /// appears only when this is given.
    pub ms_per_move: Option<&'a [Option<f64>]>,
    /// Row order: as in the matrix, or by one of the fits' ratings.
    pub order: SummaryOrder,
}

impl<'a> SummaryInput<'a> {
    /// Only the results; no fits, no timing column, matrix order.
    pub fn new(matrix: &'a ResultMatrix) -> SummaryInput<'a> {
        SummaryInput {
            matrix,
            elo: None,
            thesis: None,
            mle: None,
            fitted: None,
            elo_fitted: None,
            ms_per_move: None,
            order: SummaryOrder::Given,
        }
    }
}

/// One player's line of the summary.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SummaryRow {
    /// 1-based position in the matrix (also the crosstable's column number).
    pub index: usize,
    /// Player name.
    pub player: String,
    /// Games played.
    pub games: u64,
    /// Points scored.
    pub points: f64,
    /// `100 × points / games`; `None` without games.
    pub score_percent: Option<f64>,
    /// Whether the default fit covers this player (see [`SummaryInput::elo_fitted`], else
    /// [`SummaryInput::fitted`]); the rating fields of a fit that does not cover a player
    /// are `None`.
    pub rated: bool,
    /// BayesElo rating (the default fit).
    pub elo: Option<f64>,
    /// Half-width of the 95% interval of the BayesElo rating.
    pub elo_half_width: Option<f64>,
    /// Rating from the thesis's iteration.
    pub thesis_elo: Option<f64>,
    /// Maximum-likelihood rating.
    pub mle_elo: Option<f64>,
    /// Half-width of the 95% interval of the maximum-likelihood rating.
    pub mle_half_width: Option<f64>,
    /// Average milliseconds per move.
    pub ms_per_move: Option<f64>,
}

fn check_length(column: &'static str, expected: usize, found: usize) -> Result<(), TableError> {
    if expected == found {
        Ok(())
    } else {
        Err(TableError::LengthMismatch {
            column,
            expected,
            found,
        })
    }
}

/// Each player's index in a fit over `players` (matrix indices in the fit's order; `None`:
/// every player, in matrix order), and the fit's size.
fn slots(n: usize, players: Option<&[usize]>) -> Result<(Vec<Option<usize>>, usize), TableError> {
    let Some(players) = players else {
        return Ok(((0..n).map(Some).collect(), n));
    };
    let mut slot = vec![None; n];
    for (k, &i) in players.iter().enumerate() {
        match slot.get_mut(i) {
            Some(s) if s.is_none() => *s = Some(k),
            _ => return Err(TableError::BadFittedPlayer { index: i }),
        }
    }
    Ok((slot, players.len()))
}

/// The summary rows, in the requested order. Fails when a per-player input does not have one
/// entry per player, or when sorting by a fit that was not given.
pub fn summary_rows(input: &SummaryInput<'_>) -> Result<Vec<SummaryRow>, TableError> {
    let matrix = input.matrix;
    let n = matrix.len();
    // slot[i]: player i's index in the thesis and MLE fits; elo_slot[i]: in the BayesElo fit.
    let (slot, fitted) = slots(n, input.fitted)?;
    let (elo_slot, elo_fitted) = match input.elo_fitted {
        Some(_) => slots(n, input.elo_fitted)?,
        None => (slot.clone(), fitted),
    };
    if let Some(elo) = input.elo {
        check_length("Elo", elo_fitted, elo.ratings.len())?;
        check_length("Elo half-width", elo_fitted, elo.half_widths.len())?;
    }
    if let Some(thesis) = input.thesis {
        check_length("thesis Elo", fitted, thesis.ratings.len())?;
    }
    if let Some(mle) = input.mle {
        check_length("MLE Elo", fitted, mle.ratings.len())?;
        check_length("MLE half-width", fitted, mle.half_widths.len())?;
    }
    if let Some(ms) = input.ms_per_move {
        check_length("ms per move", n, ms.len())?;
    }
    let mut rows: Vec<SummaryRow> = (0..n)
        .map(|i| {
            let games = matrix.player_games(i).unwrap_or(0);
            let points = matrix.player_points(i).unwrap_or(0.0);
            let (k, e) = (slot[i], elo_slot[i]);
            SummaryRow {
                index: i + 1,
                player: matrix.names()[i].clone(),
                games,
                points,
                score_percent: (games > 0).then(|| 100.0 * points / games as f64),
                rated: if input.elo.is_some() {
                    e.is_some()
                } else {
                    k.is_some()
                },
                elo: e.and_then(|e| Some(input.elo?.ratings[e])),
                elo_half_width: e.and_then(|e| Some(input.elo?.half_widths[e])),
                thesis_elo: k.and_then(|k| Some(input.thesis?.ratings[k])),
                mle_elo: k.and_then(|k| Some(input.mle?.ratings[k])),
                mle_half_width: k.and_then(|k| Some(input.mle?.half_widths[k])),
                ms_per_move: input.ms_per_move.and_then(|ms| ms[i]),
            }
        })
        .collect();
    let key: Option<fn(&SummaryRow) -> Option<f64>> = match input.order {
        SummaryOrder::Given => None,
        SummaryOrder::Elo if input.elo.is_none() => {
            return Err(TableError::MissingFit { fit: "BayesElo" })
        }
        SummaryOrder::ThesisElo if input.thesis.is_none() => {
            return Err(TableError::MissingFit { fit: "thesis" })
        }
        SummaryOrder::MleElo if input.mle.is_none() => {
            return Err(TableError::MissingFit { fit: "MLE" })
        }
        SummaryOrder::Elo => Some(|row| row.elo),
        SummaryOrder::ThesisElo => Some(|row| row.thesis_elo),
        SummaryOrder::MleElo => Some(|row| row.mle_elo),
    };
    if let Some(key) = key {
        let rating = |row: &SummaryRow| key(row).unwrap_or(f64::NEG_INFINITY);
        rows.sort_by(|a, b| rating(b).total_cmp(&rating(a)));
    }
    Ok(rows)
}

/// Formats an optional number with `decimals` places, `missing` when absent.
fn number(value: Option<f64>, decimals: usize, missing: &str) -> String {
    value.map_or_else(
        || missing.to_string(),
        |v| {
            let text = format!("{v:.decimals$}");
            // No "-0.00": a negative value that rounds to zero prints as zero.
            match text.strip_prefix('-') {
                Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
                _ => text,
            }
        },
    )
}

/// The summary as CSV with columns `index,player,games,points,score_percent,thesis_elo,
/// mle_elo,mle_ci95,elo,elo_ci95,rated` and, when timings are given, `avg_ms_per_move`: every
/// column whatever fits are given (absent values are empty fields). `elo` and `elo_ci95` are
/// the BayesElo rating and the half-width of its 95% interval; `rated` is `yes`, or `no` for
/// a player left out of the fits (unlinked). Ratings and percentages have 2 decimals,
/// timings 3; an infinite value reads `inf`.
///
/// ```
/// use fow_ratings::{summary_csv, ResultMatrix, SummaryInput, Wdl};
/// let mut m = ResultMatrix::new(vec!["A".into(), "B".into()]);
/// m.add_results(0, 1, Wdl::new(3, 0, 1))?;
/// let ms = [Some(1.5), None];
/// let input = SummaryInput { ms_per_move: Some(&ms), ..SummaryInput::new(&m) };
/// assert_eq!(
///     summary_csv(&input)?,
///     "index,player,games,points,score_percent,thesis_elo,mle_elo,mle_ci95,elo,elo_ci95,rated,\
///      avg_ms_per_move\n\
///      1,A,4,3,75.00,,,,,,yes,1.500\n\
///      2,B,4,1,25.00,,,,,,yes,\n"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn summary_csv(input: &SummaryInput<'_>) -> Result<String, TableError> {
    let rows = summary_rows(input)?;
    let timed = input.ms_per_move.is_some();
    let mut header: Vec<String> = [
        "index",
        "player",
        "games",
        "points",
        "score_percent",
        "thesis_elo",
        "mle_elo",
        "mle_ci95",
        "elo",
        "elo_ci95",
        "rated",
    ]
    .map(String::from)
    .to_vec();
    if timed {
        header.push("avg_ms_per_move".into());
    }
    let mut records = vec![header];
    for row in rows {
        let mut record = vec![
            row.index.to_string(),
            row.player,
            row.games.to_string(),
            row.points.to_string(),
            number(row.score_percent, 2, ""),
            number(row.thesis_elo, 2, ""),
            number(row.mle_elo, 2, ""),
            number(row.mle_half_width, 2, ""),
            number(row.elo, 2, ""),
            number(row.elo_half_width, 2, ""),
            if row.rated { "yes" } else { "no" }.to_string(),
        ];
        if timed {
            record.push(number(row.ms_per_move, 3, ""));
        }
        records.push(record);
    }
    Ok(csv_string(&records))
}

/// The summary as aligned text (like the thesis's Table 2): `#`, player, games, points,
/// score %, then the columns of the fits given: `Elo` and `±95%` (BayesElo), `Thesis Elo`,
/// `MLE Elo` and `MLE ±95%`; and, when timings are given, `ms/move` with 3 decimals. A player
/// left out of the fits reads [`NOT_RATED`] in each Elo column and `-` under each `±`. Other
/// absent values print `-`; an infinite value prints `inf`.
///
/// ```
/// use fow_ratings::{bayeselo, summary_text, BayesEloOptions, ResultMatrix, SummaryInput, Wdl};
/// let mut m = ResultMatrix::new(vec!["A".into(), "B".into(), "C".into()]);
/// m.add_results(0, 1, Wdl::new(3, 0, 1))?;
/// m.add_results(1, 0, Wdl::new(1, 1, 2))?;
/// m.add_results(0, 2, Wdl::new(2, 0, 0))?; // C lost every game: unlinked
/// let text = summary_text(&SummaryInput::new(&m))?;
/// let row: Vec<&str> = text.lines().nth(1).unwrap().split_whitespace().collect();
/// assert_eq!(row, ["1", "A", "10", "7.5", "75.0%"]);
///
/// let ab = m.subset(&[0, 1])?;
/// let fit = bayeselo(&ab, None, &BayesEloOptions::default())?;
/// let fitted = [0, 1];
/// let input = SummaryInput { elo: Some(&fit), fitted: Some(&fitted), ..SummaryInput::new(&m) };
/// let text = summary_text(&input)?;
/// assert!(text.lines().next().unwrap().ends_with("Elo  ±95%"));
/// assert!(text.lines().nth(3).unwrap().ends_with("not rated (unlinked)     -"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn summary_text(input: &SummaryInput<'_>) -> Result<String, TableError> {
    let rows = summary_rows(input)?;
    let timed = input.ms_per_move.is_some();
    let mut header: Vec<String> = ["#", "Player", "Games", "Points", "Score"]
        .map(String::from)
        .to_vec();
    if input.elo.is_some() {
        header.extend(["Elo", "±95%"].map(String::from));
    }
    if input.thesis.is_some() {
        header.push("Thesis Elo".into());
    }
    if input.mle.is_some() {
        header.extend(["MLE Elo", "MLE ±95%"].map(String::from));
    }
    if timed {
        header.push("ms/move".into());
    }
    let mut align = vec![Align::Right, Align::Left];
    align.extend(std::iter::repeat_n(Align::Right, header.len() - 2));
    // A column is shown only with its fit, so a missing value is a player it leaves out.
    let rating = |value: Option<f64>| {
        value.map_or_else(|| NOT_RATED.to_string(), |v| number(Some(v), 2, "-"))
    };
    let lines: Vec<Vec<String>> = rows
        .iter()
        .map(|row| {
            let mut line = vec![
                row.index.to_string(),
                row.player.clone(),
                row.games.to_string(),
                format!("{:.1}", row.points),
                row.score_percent.map_or("-".into(), |s| format!("{s:.1}%")),
            ];
            if input.elo.is_some() {
                line.push(rating(row.elo));
                line.push(number(row.elo_half_width, 1, "-"));
            }
            if input.thesis.is_some() {
                line.push(rating(row.thesis_elo));
            }
            if input.mle.is_some() {
                line.push(rating(row.mle_elo));
                line.push(number(row.mle_half_width, 1, "-"));
            }
            if timed {
                line.push(number(row.ms_per_move, 3, "-"));
            }
            line
        })
        .collect();
    Ok(render(&header, &lines, &align))
}

/// The players of a BayesElo fit in rating order (highest first, ties in matrix order), as
/// (matrix index, index in the fit).
fn by_rating(
    matrix: &ResultMatrix,
    fit: &BayesEloFit,
    fitted: Option<&[usize]>,
) -> Result<Vec<(usize, usize)>, TableError> {
    let players: Vec<usize> = match fitted {
        Some(players) => players.to_vec(),
        None => (0..matrix.len()).collect(),
    };
    if let Some(&index) = players.iter().find(|&&i| i >= matrix.len()) {
        return Err(TableError::BadFittedPlayer { index });
    }
    check_length("Elo", players.len(), fit.ratings.len())?;
    let mut order: Vec<(usize, usize)> = players.into_iter().zip(0..).collect();
    order.sort_by(|a, b| {
        fit.ratings[b.1]
            .total_cmp(&fit.ratings[a.1])
            .then(a.0.cmp(&b.0))
    });
    Ok(order)
}

/// The likelihood of superiority of every pair of players of a BayesElo fit, as BayesElo's
/// `los` command prints it: players in rating order; the cell in row `i`, column `j` is the
/// probability (in whole percent, truncated as BayesElo does: 99 means at least 99%, and
/// 100 a probability that rounds to 1 in double precision) that `i` is stronger than `j`,
/// from the rating difference and its standard error (see [`BayesEloFit::los`]). Columns
/// are headed by the players' numbers (`#`, as in the other tables); the diagonal reads `-`.
/// `fitted` is as in [`SummaryInput::fitted`]: players left out of the fit are not in the
/// table. A legend line follows.
///
/// ```
/// use fow_ratings::{bayeselo, los_text, BayesEloOptions, ResultMatrix, Wdl};
/// let mut m = ResultMatrix::new(vec!["A".into(), "B".into()]);
/// m.add_results(0, 1, Wdl::new(30, 10, 10))?;
/// m.add_results(1, 0, Wdl::new(15, 10, 25))?;
/// let fit = bayeselo(&m, None, &BayesEloOptions::default())?;
/// let text = los_text(&m, &fit, None)?;
/// let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split_whitespace().collect()).collect();
/// assert_eq!(rows[0], ["#", "Player", "1", "2"]);
/// assert_eq!(rows[1], ["1", "A", "-", "99"]);
/// assert_eq!(rows[2], ["2", "B", "0", "-"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn los_text(
    matrix: &ResultMatrix,
    fit: &BayesEloFit,
    fitted: Option<&[usize]>,
) -> Result<String, TableError> {
    let order = by_rating(matrix, fit, fitted)?;
    let mut header: Vec<String> = ["#", "Player"].map(String::from).to_vec();
    header.extend(order.iter().map(|&(i, _)| (i + 1).to_string()));
    let mut align = vec![Align::Right, Align::Left];
    align.extend(std::iter::repeat_n(Align::Right, order.len()));
    let rows: Vec<Vec<String>> = order
        .iter()
        .map(|&(i, a)| {
            let mut row = vec![(i + 1).to_string(), matrix.names()[i].clone()];
            row.extend(order.iter().map(|&(_, b)| {
                fit.los(a, b)
                    .map_or("-".into(), |p| ((p * 100.0).floor() as i64).to_string())
            }));
            row
        })
        .collect();
    let mut text = render(&header, &rows, &align);
    text.push_str(
        "cell: likelihood of superiority, % (the chance that the row player is stronger than the column player)\n",
    );
    Ok(text)
}

/// The likelihood-of-superiority table of [`los_text`] as CSV: columns `index,player`, then
/// one per player named after it, in rating order; cells are probabilities with 4 decimals,
/// empty on the diagonal.
///
/// ```
/// use fow_ratings::{bayeselo, los_csv, BayesEloOptions, ResultMatrix, Wdl};
/// let mut m = ResultMatrix::new(vec!["A".into(), "B".into()]);
/// m.add_results(0, 1, Wdl::new(2, 1, 2))?;
/// m.add_results(1, 0, Wdl::new(2, 1, 2))?;
/// let fit = bayeselo(&m, None, &BayesEloOptions::default())?;
/// let csv = los_csv(&m, &fit, None)?;
/// assert_eq!(csv, "index,player,A,B\n1,A,,0.5000\n2,B,0.5000,\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn los_csv(
    matrix: &ResultMatrix,
    fit: &BayesEloFit,
    fitted: Option<&[usize]>,
) -> Result<String, TableError> {
    let order = by_rating(matrix, fit, fitted)?;
    let mut header: Vec<String> = ["index", "player"].map(String::from).to_vec();
    header.extend(order.iter().map(|&(i, _)| matrix.names()[i].clone()));
    let mut records = vec![header];
    for &(i, a) in &order {
        let mut record = vec![(i + 1).to_string(), matrix.names()[i].clone()];
        record.extend(
            order
                .iter()
                .map(|&(_, b)| fit.los(a, b).map_or(String::new(), |p| format!("{p:.4}"))),
        );
        records.push(record);
    }
    Ok(csv_string(&records))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anchor::Anchor;
    use crate::mle::{mle_elo, MleOptions};
    use crate::score::Wdl;
    use crate::thesis::tests::thesis_matrix;
    use crate::thesis::{thesis_elo, ThesisOptions};

    fn fits(m: &ResultMatrix) -> (ThesisFit, MleFit) {
        let anchor = Anchor::random_move_or_first(m);
        (
            thesis_elo(m, anchor, &ThesisOptions::default()).unwrap(),
            mle_elo(m, anchor, &MleOptions::default()).unwrap(),
        )
    }

    #[test]
    fn crosstable_csv_of_the_thesis() {
        let m = thesis_matrix();
        let text = crosstable_csv(&m);
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header = reader.headers().unwrap().clone();
        assert_eq!(header.len(), 4 + 2 * 10);
        assert_eq!(&header[4], "RandomMove_white");
        assert_eq!(&header[23], "PossibleBoardList_black");
        let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(records.len(), 10);
        // CaptureLargest (3) vs PositionaryEvaluator (6): 37 as White, 39 as Black.
        let row = &records[2];
        assert_eq!(&row[1], "CaptureLargest");
        assert_eq!(&row[3], "921");
        assert_eq!(&row[4 + 2 * 5], "37");
        assert_eq!(&row[4 + 2 * 5 + 1], "39");
        assert_eq!(&row[4 + 2 * 2], "");
        // PossibleBoardList (10) as White vs NeuralNetworkPlayer (7): 95 wins + 3 draws.
        assert_eq!(&records[9][4 + 2 * 6], "96.5");
        for (i, record) in records.iter().enumerate() {
            let total: f64 = (4..record.len())
                .filter(|&k| !record[k].is_empty())
                .map(|k| record[k].parse::<f64>().unwrap())
                .sum();
            assert_eq!(total, m.player_points(i).unwrap());
        }
    }

    #[test]
    fn crosstable_text_is_aligned() {
        let m = thesis_matrix();
        let text = crosstable_text(&m);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 12);
        assert!(lines[0].starts_with(" #  Player"));
        assert!(lines[0].ends_with("10"));
        assert!(lines[3].contains("CaptureLargest"));
        assert!(lines[3].contains("37.0/39.0"));
        assert!(lines[10].ends_with("-"));
        // Every table line has the same length (right-aligned last column).
        assert!(lines[..11]
            .iter()
            .all(|l| l.chars().count() == lines[0].chars().count()));
    }

    #[test]
    fn crosstable_marks_unplayed_colours() {
        let mut m = ResultMatrix::new(vec!["A".into(), "B".into(), "C".into()]);
        m.add_results(0, 1, Wdl::new(1, 1, 0)).unwrap();
        let text = crosstable_text(&m);
        assert!(text.lines().nth(1).unwrap().ends_with("-  1.5/-  -/-"));
        let csv = crosstable_csv(&m);
        assert_eq!(csv.lines().nth(2), Some("2,B,2,0.5,,0.5,,,,"));
    }

    #[test]
    fn summary_of_the_thesis() {
        let m = thesis_matrix();
        let (thesis, mle) = fits(&m);
        let ms: Vec<Option<f64>> = (0..10)
            .map(|i| (i >= 6).then_some(10.0 + i as f64))
            .collect();
        let input = SummaryInput {
            thesis: Some(&thesis),
            mle: Some(&mle),
            ms_per_move: Some(&ms),
            order: SummaryOrder::MleElo,
            ..SummaryInput::new(&m)
        };
        let rows = summary_rows(&input).unwrap();
        let order: Vec<usize> = rows.iter().map(|r| r.index).collect();
        assert_eq!(order, vec![10, 9, 6, 8, 5, 3, 4, 7, 2, 1]);
        assert_eq!(rows[0].player, "PossibleBoardList");
        assert_eq!(rows[0].points, 1754.5);
        assert_eq!(rows[9].mle_half_width, Some(0.0));

        let csv = summary_csv(&input).unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 11);
        assert!(lines[1].starts_with("10,PossibleBoardList,1800,1754.5,97.47,1525.73,1525.73,"));
        assert!(lines[1].ends_with(",19.000"));
        assert!(lines[10].starts_with("1,RandomMove,1800,36,2.00,0.00,0.00,0.00,"));

        let text = summary_text(&input).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].ends_with("ms/move"));
        assert!(lines[1].contains("PossibleBoardList"));
        assert!(lines[1].contains("1525.73"));
        assert!(lines[10].ends_with("-"));
        assert!(lines
            .iter()
            .all(|l| l.chars().count() == lines[0].chars().count()));
    }

    #[test]
    fn summary_without_fits_or_timings() {
        let m = thesis_matrix();
        let input = SummaryInput::new(&m);
        let csv = summary_csv(&input).unwrap();
        assert_eq!(
            csv.lines().next(),
            Some("index,player,games,points,score_percent,thesis_elo,mle_elo,mle_ci95,elo,elo_ci95,rated")
        );
        assert_eq!(
            csv.lines().nth(7),
            Some("7,NeuralNetworkPlayer,1800,440.5,24.47,,,,,,yes")
        );
        let text = summary_text(&input).unwrap();
        assert!(text.lines().nth(1).unwrap().ends_with("2.0%"));
        let by_thesis = SummaryInput {
            order: SummaryOrder::ThesisElo,
            ..input
        };
        assert_eq!(
            summary_rows(&by_thesis),
            Err(TableError::MissingFit { fit: "thesis" })
        );
    }

    #[test]
    fn summary_rejects_mismatched_columns_and_quotes_names() {
        let mut m = ResultMatrix::new(vec!["Smith, J.".into(), "B".into()]);
        m.add_results(0, 1, Wdl::new(1, 0, 1)).unwrap();
        let ms = [Some(1.0)];
        let input = SummaryInput {
            ms_per_move: Some(&ms),
            ..SummaryInput::new(&m)
        };
        assert_eq!(
            summary_csv(&input),
            Err(TableError::LengthMismatch {
                column: "ms per move",
                expected: 2,
                found: 1
            })
        );
        let csv = summary_csv(&SummaryInput::new(&m)).unwrap();
        assert!(csv.contains("\n1,\"Smith, J.\",2,1,50.00,,,,,,yes\n"));
        let (thesis, mle) = (
            thesis_elo(
                &m,
                Anchor {
                    index: 0,
                    value: 0.0,
                },
                &ThesisOptions::default(),
            )
            .unwrap(),
            mle_elo(
                &m,
                Anchor {
                    index: 0,
                    value: 0.0,
                },
                &MleOptions::default(),
            )
            .unwrap(),
        );
        let sorted = SummaryInput {
            thesis: Some(&thesis),
            mle: Some(&mle),
            order: SummaryOrder::ThesisElo,
            ..SummaryInput::new(&m)
        };
        // Equal ratings keep matrix order.
        let rows = summary_rows(&sorted).unwrap();
        assert_eq!(rows[0].index, 1);
    }

    #[test]
    fn unlinked_players_are_marked_in_every_column() {
        use crate::bayeselo::{bayeselo, BayesEloOptions};
        // P3 lost every game: only P1, P2 and P4 are fitted.
        let mut m = ResultMatrix::new((1..=4).map(|k| format!("P{k}")).collect());
        m.add_results(0, 1, Wdl::new(3, 1, 2)).unwrap();
        m.add_results(1, 3, Wdl::new(2, 2, 2)).unwrap();
        m.add_results(3, 0, Wdl::new(1, 1, 3)).unwrap();
        m.add_results(0, 2, Wdl::new(4, 0, 0)).unwrap();
        let fitted = [0, 1, 3];
        let sub = m.subset(&fitted).unwrap();
        let anchor = Anchor {
            index: 0,
            value: 0.0,
        };
        let elo = bayeselo(&sub, None, &BayesEloOptions::default()).unwrap();
        let thesis = thesis_elo(&sub, anchor, &ThesisOptions::default()).unwrap();
        let mle = mle_elo(&sub, anchor, &MleOptions::default()).unwrap();
        let input = SummaryInput {
            elo: Some(&elo),
            thesis: Some(&thesis),
            mle: Some(&mle),
            fitted: Some(&fitted),
            order: SummaryOrder::Elo,
            ..SummaryInput::new(&m)
        };
        let rows = summary_rows(&input).unwrap();
        assert_eq!(rows[3].player, "P3");
        assert!(!rows[3].rated && rows[3].elo.is_none() && rows[3].thesis_elo.is_none());
        assert_eq!(
            rows[0].elo,
            Some(elo.ratings[0].max(elo.ratings[1]).max(elo.ratings[2]))
        );
        let text = summary_text(&input).unwrap();
        let line = text.lines().nth(4).unwrap();
        assert_eq!(line.matches(NOT_RATED).count(), 3, "{line}");
        let header: Vec<&str> = text.lines().next().unwrap().split_whitespace().collect();
        assert_eq!(
            header[5..],
            ["Elo", "±95%", "Thesis", "Elo", "MLE", "Elo", "MLE", "±95%"]
        );
        let csv = summary_csv(&input).unwrap();
        assert!(csv.contains("\n3,P3,4,0,0.00,,,,,,no\n"), "{csv}");
        let los = los_text(&m, &elo, Some(&fitted)).unwrap();
        assert_eq!(los.lines().count(), 5, "{los}");
        assert!(!los.contains("P3"));
        let los = los_csv(&m, &elo, Some(&fitted)).unwrap();
        assert_eq!(los.lines().count(), 4);
        // The fits must cover the fitted players.
        let wrong = [0, 1];
        assert_eq!(
            summary_rows(&SummaryInput {
                fitted: Some(&wrong),
                ..input
            }),
            Err(TableError::LengthMismatch {
                column: "Elo",
                expected: 2,
                found: 3
            })
        );
        let repeated = [0, 0, 1];
        assert_eq!(
            summary_rows(&SummaryInput {
                fitted: Some(&repeated),
                ..input
            }),
            Err(TableError::BadFittedPlayer { index: 0 })
        );
    }

    #[test]
    fn infinite_half_width_prints_inf() {
        let mut m = ResultMatrix::new(vec!["A".into(), "B".into()]);
        m.add_results(0, 1, Wdl::new(2, 0, 1)).unwrap();
        let mut mle = mle_elo(
            &m,
            Anchor {
                index: 1,
                value: 0.0,
            },
            &MleOptions::default(),
        )
        .unwrap();
        mle.half_widths[0] = f64::INFINITY;
        let input = SummaryInput {
            mle: Some(&mle),
            ..SummaryInput::new(&m)
        };
        assert!(summary_csv(&input).unwrap().contains(",inf,,,yes\n"));
        assert!(summary_text(&input)
            .unwrap()
            .lines()
            .nth(1)
            .unwrap()
            .ends_with("inf"));
    }
}
