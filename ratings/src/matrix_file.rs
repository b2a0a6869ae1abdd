//! The thesis's text format for result matrices.
//!
//! One line per player (blank lines are ignored); each line holds one cell per player,
//! `(wins/draws/losses)` of the row player playing White against the column player, with
//! any amount of spaces inside and between cells. The diagonal cell is `(---/---/---)`
//! (any positive number of dashes per field). Example (2 players):
//!
//! ```text
//! (---/---/---) ( 61/  2/ 37)
//! ( 40/  0/ 60) (---/---/---)
//! ```

use std::fmt::Write as _;

use crate::error::ParseError;
use crate::results::ResultMatrix;
use crate::score::Wdl;

/// One parsed cell: `None` for the diagonal marker.
type Cell = Option<Wdl>;

/// Parses a result matrix in the thesis's format.
///
/// One line per player (blank lines are ignored); each line holds one cell per player,
/// `(wins/draws/losses)` of the row player playing White against the column player, with any
/// amount of spaces inside and between cells. The diagonal cell is `(---/---/---)` (any
/// positive number of dashes per field). Errors name the 1-based line and, where it applies,
/// the 1-based cell.
///
/// `names` gives the players in row order; without it they are called `P1` … `Pn`.
///
/// ```
/// use fow_ratings::{parse_match_matrix, Wdl};
/// let text = "(---/---/---) ( 61/  2/ 37)\n( 40/  0/ 60) (---/---/---)\n";
/// let m = parse_match_matrix(text, None)?;
/// assert_eq!(m.names(), ["P1", "P2"]);
/// assert_eq!(m.cell(0, 1), Some(Wdl::new(61, 2, 37)));
///
/// let err = parse_match_matrix("(---/---/---) (1/2/3)\n(1/2/3)\n", None).unwrap_err();
/// assert_eq!(err.to_string(), "line 2: expected 2 cells, found 1");
/// # Ok::<(), fow_ratings::ParseError>(())
/// ```
pub fn parse_match_matrix(
    text: &str,
    names: Option<Vec<String>>,
) -> Result<ResultMatrix, ParseError> {
    let mut rows: Vec<Vec<Wdl>> = Vec::new();
    let mut players = None;
    let mut last_line = 0;
    for (index, line) in text.lines().enumerate() {
        let line_number = index + 1;
        if line.trim().is_empty() {
            continue;
        }
        last_line = line_number;
        let error = |message: String| ParseError {
            line: line_number,
            message,
        };
        let cells = parse_row(line).map_err(error)?;
        let n = *players.get_or_insert(cells.len());
        if cells.len() != n {
            return Err(error(format!("expected {n} cells, found {}", cells.len())));
        }
        let row = rows.len();
        if row == n {
            return Err(error(format!("expected {n} rows, found more")));
        }
        if row == 0 {
            if let Some(names) = &names {
                if names.len() != n {
                    return Err(error(format!(
                        "found {n} cells per row but {} player names were given",
                        names.len()
                    )));
                }
            }
        }
        let mut wdl_row = Vec::with_capacity(n);
        for (column, cell) in cells.into_iter().enumerate() {
            match (cell, column == row) {
                (None, true) => wdl_row.push(Wdl::default()),
                (Some(wdl), false) => wdl_row.push(wdl),
                (Some(_), true) => {
                    return Err(error(format!(
                        "cell {}: diagonal cell must be (---/---/---)",
                        column + 1
                    )))
                }
                (None, false) => {
                    return Err(error(format!(
                        "cell {}: (---/---/---) is only allowed on the diagonal",
                        column + 1
                    )))
                }
            }
        }
        rows.push(wdl_row);
    }
    let Some(n) = players else {
        return Err(ParseError {
            line: 1,
            message: "no rows found".into(),
        });
    };
    if rows.len() != n {
        return Err(ParseError {
            line: last_line,
            message: format!("expected {n} rows, found {}", rows.len()),
        });
    }
    let names = names.unwrap_or_else(|| (1..=n).map(|k| format!("P{k}")).collect());
    ResultMatrix::from_cells(names, rows).map_err(|e| ParseError {
        line: 1,
        message: e.to_string(),
    })
}

/// Parses the cells of one line; the error message has no line number yet.
fn parse_row(line: &str) -> Result<Vec<Cell>, String> {
    let mut cells = Vec::new();
    let mut rest = line.trim_start();
    while !rest.is_empty() {
        let cell_number = cells.len() + 1;
        let Some(after_open) = rest.strip_prefix('(') else {
            let found: String = rest.chars().take(10).collect();
            return Err(format!("cell {cell_number}: expected '(', found '{found}'"));
        };
        let Some(close) = after_open.find(')') else {
            return Err(format!("cell {cell_number}: missing ')'"));
        };
        let inside = &after_open[..close];
        if inside.contains('(') {
            return Err(format!("cell {cell_number}: missing ')'"));
        }
        cells.push(parse_cell(inside).map_err(|m| format!("cell {cell_number}: {m}"))?);
        rest = after_open[close + 1..].trim_start();
    }
    Ok(cells)
}

/// Parses the inside of one `( … )` cell.
fn parse_cell(inside: &str) -> Result<Cell, String> {
    let fields: Vec<&str> = inside.split('/').map(str::trim).collect();
    if fields.len() != 3 {
        return Err(format!(
            "expected 3 fields wins/draws/losses, found {}",
            fields.len()
        ));
    }
    let is_dashes = |s: &str| !s.is_empty() && s.chars().all(|c| c == '-');
    if fields.iter().all(|f| is_dashes(f)) {
        return Ok(None);
    }
    let mut numbers = [0u32; 3];
    for (slot, field) in numbers.iter_mut().zip(&fields) {
        *slot = field
            .parse()
            .map_err(|_| format!("invalid number '{field}'"))?;
    }
    Ok(Some(Wdl::new(numbers[0], numbers[1], numbers[2])))
}

/// Writes a matrix in the thesis's format, the inverse of [`parse_match_matrix`]
/// (names are not written). Numbers are right-aligned to three characters, as in the thesis.
///
/// ```
/// use fow_ratings::{format_match_matrix, parse_match_matrix};
/// let text = "(---/---/---) ( 61/  2/ 37)\n( 40/  0/ 60) (---/---/---)\n";
/// let m = parse_match_matrix(text, None)?;
/// assert_eq!(format_match_matrix(&m), text);
/// # Ok::<(), fow_ratings::ParseError>(())
/// ```
pub fn format_match_matrix(matrix: &ResultMatrix) -> String {
    let mut out = String::new();
    for (i, row) in matrix.cells().iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(j, wdl)| {
                if i == j {
                    "(---/---/---)".to_string()
                } else {
                    format!("({:>3}/{:>3}/{:>3})", wdl.wins, wdl.draws, wdl.losses)
                }
            })
            .collect();
        // Writing to a String cannot fail.
        let _ = writeln!(out, "{}", cells.join(" "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const THESIS: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/thesis/match_results.txt"
    ));

    fn err(text: &str) -> String {
        parse_match_matrix(text, None).unwrap_err().to_string()
    }

    #[test]
    fn parses_the_thesis_matrix() {
        let m = parse_match_matrix(THESIS, None).unwrap();
        assert_eq!(m.len(), 10);
        assert_eq!(m.names()[9], "P10");
        assert_eq!(m.cell(0, 1), Some(Wdl::new(16, 0, 84)));
        assert_eq!(m.cell(9, 6), Some(Wdl::new(95, 3, 2)));
        assert_eq!(m.cell(5, 9), Some(Wdl::new(2, 1, 97)));
        for i in 0..10 {
            for j in 0..10 {
                let games = m.cell(i, j).unwrap().games();
                assert_eq!(games, if i == j { 0 } else { 100 }, "cell {i},{j}");
            }
        }
        assert_eq!(m.total_games(), 9000);
    }

    #[test]
    fn round_trips_through_the_writer() {
        let m = parse_match_matrix(THESIS, None).unwrap();
        let text = format_match_matrix(&m);
        assert_eq!(parse_match_matrix(&text, None).unwrap(), m);
        // The thesis file has a trailing space per line; otherwise the layout is identical.
        for (ours, theirs) in text.lines().zip(THESIS.lines()) {
            assert_eq!(ours, theirs.trim_end());
        }
    }

    #[test]
    fn accepts_names_and_loose_spacing() {
        let text = "\n  ( --- / - /---)(1/ 2 /3)  \n\n(4/5/6) (---/---/---)\n\n";
        let m = parse_match_matrix(text, Some(vec!["A".into(), "B".into()])).unwrap();
        assert_eq!(m.names(), ["A", "B"]);
        assert_eq!(m.cell(0, 1), Some(Wdl::new(1, 2, 3)));
        assert_eq!(m.cell(1, 0), Some(Wdl::new(4, 5, 6)));
    }

    #[test]
    fn reports_malformed_input_with_line_numbers() {
        let diag = "(---/---/---)";
        assert_eq!(
            err(&format!("{diag} (1/2/3)\n(1/2/3)\n")),
            "line 2: expected 2 cells, found 1"
        );
        assert_eq!(
            err(&format!(
                "{diag} (1/2/3)\n(1/2/3) {diag}\n(1/2/3) (1/1/1)\n"
            )),
            "line 3: expected 2 rows, found more"
        );
        assert_eq!(
            err(&format!("{diag} (1/2/3)\n")),
            "line 1: expected 2 rows, found 1"
        );
        assert_eq!(
            err(&format!("{diag} (1/2/3)\n\n(1/x/3) {diag}\n")),
            "line 3: cell 1: invalid number 'x'"
        );
        assert_eq!(
            err(&format!("{diag} (1/-2/3)\n(1/2/3) {diag}\n")),
            "line 1: cell 2: invalid number '-2'"
        );
        assert_eq!(
            err(&format!("{diag} (1/2/3\n")),
            "line 1: cell 2: missing ')'"
        );
        assert_eq!(
            err(&format!("{diag} (1/2/3 (1/2/3)\n")),
            "line 1: cell 2: missing ')'"
        );
        assert_eq!(
            err(&format!("{diag} 1/2/3)\n")),
            "line 1: cell 2: expected '(', found '1/2/3)'"
        );
        assert_eq!(
            err(&format!("{diag} (1/2)\n")),
            "line 1: cell 2: expected 3 fields wins/draws/losses, found 2"
        );
        assert_eq!(
            err("(1/2/3) (---/---/---)\n(---/---/---) (1/2/3)\n"),
            "line 1: cell 1: diagonal cell must be (---/---/---)"
        );
        assert_eq!(
            err(&format!("{diag} {diag}\n")),
            "line 1: cell 2: (---/---/---) is only allowed on the diagonal"
        );
        assert_eq!(err("\n  \n"), "line 1: no rows found");
        assert_eq!(
            err(&format!("{diag} (99999999999/0/0)\n")),
            "line 1: cell 2: invalid number '99999999999'"
        );
    }

    #[test]
    fn rejects_wrong_name_count() {
        let e = parse_match_matrix(THESIS, Some(vec!["A".into(); 9])).unwrap_err();
        assert_eq!(e.line, 1);
        assert_eq!(
            e.to_string(),
            "line 1: found 10 cells per row but 9 player names were given"
        );
    }
}
