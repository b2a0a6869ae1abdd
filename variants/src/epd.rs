//! Reading a line of an EPD or FEN list: EPD is FEN's first four fields followed by
//! operations (`opcode operand ...;`), of which `hmvc` and `fmvn` give the clocks.
//!
//! Both are read with FEN's own field readers ([`crate::fen`]), so a clock is a whole
//! number that fits or an error, however it is written: what follows the four fields is
//! EPD operations when it starts with an opcode (a letter), and otherwise FEN's clock
//! fields, read as FEN reads them (`150.5`, `-5` or a seventh field are refused, not
//! taken for operations and dropped).

use std::num::NonZeroU32;

use shakmaty::Setup;

use crate::error::FenError;
use crate::fen::{read_count, read_fen};
use crate::text::quote;

/// Reads one line of an EPD or FEN list; see the module documentation.
pub(crate) fn read_epd(text: &str) -> Result<Setup, FenError> {
    let line = text.trim();
    // What follows the first four fields.
    let mut rest = line;
    for _ in 0..4 {
        rest = rest.trim_start();
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        rest = &rest[end..];
    }
    let operations = rest.trim_start();
    if !operations.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return read_fen(line);
    }
    let head = line[..line.len() - rest.len()].trim_end();
    let bad = |why: String| FenError::Syntax(format!("malformed EPD '{}': {why}", quote(line)));
    let mut setup = read_fen(head)?;
    for op in split_operations(operations).map_err(bad)? {
        let mut words = op.split_whitespace();
        let Some(code) = words.next() else { continue };
        let operand: Vec<&str> = words.collect();
        let (what, field) = match code {
            "hmvc" => ("half-move clock", "hmvc"),
            "fmvn" => ("move number", "fmvn"),
            _ => continue,
        };
        let n = match operand.as_slice() {
            [n] => read_count(what, n),
            _ => Err(format!(
                "the {what} is one whole number, not '{}'",
                quote(&operand.join(" "))
            )),
        }
        .map_err(|e| bad(format!("operation {field}: {e}")))?;
        if field == "hmvc" {
            setup.halfmoves = n;
        } else {
            setup.fullmoves = NonZeroU32::new(n).ok_or_else(|| {
                bad("operation fmvn: the move number is 0; moves are numbered from 1".into())
            })?;
        }
    }
    Ok(setup)
}

/// EPD operations, split at the semicolons outside quoted strings; the last may lack its
/// semicolon. An unclosed quote is an error.
fn split_operations(text: &str) -> Result<Vec<&str>, String> {
    let mut ops = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                ops.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if quoted {
        return Err("an operand's quoted string is not closed".into());
    }
    let last = text[start..].trim();
    if !last.is_empty() {
        ops.push(last);
    }
    Ok(ops)
}

#[cfg(test)]
mod tests {
    use crate::Position;

    fn epd(line: &str) -> Result<String, String> {
        Position::from_epd(line)
            .map(|p| p.fen())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn epd_lines_read_with_their_clocks() {
        let board = "4k3/8/8/8/8/8/4P3/4K3";
        let line = format!("{board} w - - bm e3; id \"a;b\"; hmvc 7; fmvn 30;");
        assert_eq!(epd(&line).unwrap(), format!("{board} w - - 7 30"));
        assert_eq!(
            epd(&format!("{board} b - -")).unwrap(),
            format!("{board} b - - 0 1")
        );
        assert_eq!(
            epd(&format!("{board} b - - 3 9")).unwrap(),
            format!("{board} b - - 3 9")
        );
        assert_eq!(
            epd(&format!("{board} b - - 3")).unwrap(),
            format!("{board} b - - 3 1")
        );
        assert!(epd(&format!("{board} w - - id \"x;"))
            .unwrap_err()
            .contains("not closed"));
        assert!(epd("4k3/8/8/8/8/8/4P3/4KK2 w - - 0 1")
            .unwrap_err()
            .contains("kings"));
    }

    /// A clock is a whole number that fits, written as a FEN field or as an EPD
    /// operation; anything else is refused with FEN's reason, never read as 0.
    #[test]
    fn bad_clocks_and_trailing_fields_are_refused() {
        let board = "4k3/8/8/8/8/8/4P3/4K3 w - -";
        for (tail, why) in [
            (
                "99999999999999999999 1",
                "half-move clock 99999999999999999999 is too large",
            ),
            ("-5", "the half-move clock is a whole number, not '-5'"),
            (
                "150.5 1",
                "the half-move clock is a whole number, not '150.5'",
            ),
            ("0 +1", "the move number is a whole number, not '+1'"),
            ("0 0", "the move number is 0"),
            ("0 1 junk", "unexpected 7th field 'junk'"),
            ("0 1 bm e3;", "unexpected 7th field 'bm'"),
            (
                "hmvc x;",
                "operation hmvc: the half-move clock is a whole number, not 'x'",
            ),
            (
                "hmvc 1 2;",
                "operation hmvc: the half-move clock is one whole number",
            ),
            ("hmvc;", "operation hmvc"),
            (
                "fmvn 99999999999;",
                "operation fmvn: the move number 99999999999 is too large",
            ),
            ("fmvn 0;", "operation fmvn: the move number is 0"),
        ] {
            let e = epd(&format!("{board} {tail}")).unwrap_err();
            assert!(e.contains(why), "{tail}: {e}");
            // Written as FEN, the same reason as `Position::from_fen` gives.
            if !tail.contains(|c: char| c.is_ascii_alphabetic()) || tail.contains("junk") {
                let f = Position::from_fen(&format!("{board} {tail}")).unwrap_err();
                assert_eq!(e, f.to_string());
            }
        }
    }
}
