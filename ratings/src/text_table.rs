//! Plain-text tables with aligned columns.

/// Horizontal alignment of a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Align {
    Left,
    Right,
}

/// Renders `header` and `rows` with columns padded to their widest cell, separated by two
/// spaces, one line per row (header first), without trailing spaces. Widths count `char`s.
pub(crate) fn render(header: &[String], rows: &[Vec<String>], align: &[Align]) -> String {
    let columns = header.len();
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)) {
        let mut line = String::new();
        for (k, cell) in row.iter().enumerate().take(columns) {
            if k > 0 {
                line.push_str("  ");
            }
            let pad = widths[k].saturating_sub(cell.chars().count());
            match align.get(k).copied().unwrap_or(Align::Left) {
                Align::Left => {
                    line.push_str(cell);
                    line.extend(std::iter::repeat_n(' ', pad));
                }
                Align::Right => {
                    line.extend(std::iter::repeat_n(' ', pad));
                    line.push_str(cell);
                }
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(cells: &[&str]) -> Vec<String> {
        cells.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn aligns_columns() {
        let text = render(
            &strings(&["Name", "Pts"]),
            &[strings(&["Ann", "1.5"]), strings(&["Björn-Erik", "10.0"])],
            &[Align::Left, Align::Right],
        );
        assert_eq!(
            text,
            "Name         Pts\nAnn          1.5\nBjörn-Erik  10.0\n"
        );
    }
}
