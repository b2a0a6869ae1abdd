//! Reading an input file as text: what cannot be read as UTF-8 text is bad input (a
//! [`RecordError::Format`] naming the file and the line), and so is a path that leads to
//! no file ([`RecordError::Path`]); a failure of the system is a [`RecordError::Io`].

use std::path::Path;

use crate::error::RecordError;

/// The content of the text file `path`. A file that is not UTF-8 text (UTF-16 as some
/// Windows programs save PGN, Latin-1, a binary file) is a [`RecordError::Format`] error
/// at the line of the first byte that does not fit, saying what the file seems to be; a
/// file that cannot be opened or read is a [`RecordError::Path`] error (missing, a folder,
/// no permission) or a [`RecordError::Io`] error (the system failed). A NUL byte counts
/// as not text: it is how UTF-16 without a byte-order mark looks.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("utf16.pgn");
/// let utf16: Vec<u8> = "\u{feff}[White \"a\"]\n".encode_utf16().flat_map(u16::to_le_bytes).collect();
/// std::fs::write(&path, utf16).unwrap();
/// let e = fow_records::read_text(&path).unwrap_err().to_string();
/// assert!(e.ends_with("utf16.pgn:1: not UTF-8 text but UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8"), "{e}");
/// ```
pub fn read_text(path: &Path) -> Result<String, RecordError> {
    let bytes = std::fs::read(path).map_err(crate::files::io_err(path))?;
    let (at, what) = match std::str::from_utf8(&bytes) {
        Ok(text) => match text.find('\0') {
            None => return Ok(String::from_utf8(bytes).expect("checked above")),
            Some(at) => (
                at,
                "a NUL byte: not a text file (UTF-16 without a byte-order mark?)".to_string(),
            ),
        },
        Err(e) => {
            let at = e.valid_up_to();
            let what = if bytes.starts_with(&[0xff, 0xfe]) || bytes.starts_with(&[0xfe, 0xff]) {
                "not UTF-8 text but UTF-16 (it starts with a UTF-16 byte-order mark)".to_string()
            } else {
                format!(
                    "not UTF-8 text: byte 0x{:02X} at column {} (Latin-1 or another encoding?)",
                    bytes[at],
                    column(&bytes, at)
                )
            };
            (at, what)
        }
    };
    let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count() as u64;
    Err(RecordError::Format {
        path: path.to_path_buf(),
        line,
        message: format!("{what}; save it as UTF-8"),
    })
}

/// The 1-based column (in characters of the valid text before it) of byte `at`.
fn column(bytes: &[u8], at: usize) -> usize {
    let start = bytes[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let before = std::str::from_utf8(&bytes[start..at]).map_or(at - start, |s| s.chars().count());
    before + 1
}

/// The JSON file `path` read as a `T` ([`read_text`], then serde): a value that does not
/// fit is a [`RecordError::Format`] error at its line.
pub fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, RecordError> {
    let text = read_text(path)?;
    serde_json::from_str(&text).map_err(|e| RecordError::Format {
        path: path.to_path_buf(),
        line: e.line().max(1) as u64,
        message: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.pgn");
        std::fs::write(&path, bytes).unwrap();
        match read_text(&path) {
            Ok(t) => t,
            Err(e) => {
                assert!(matches!(e, RecordError::Format { .. }), "{e}");
                e.to_string().rsplit_once("x.pgn").unwrap().1.to_string()
            }
        }
    }

    #[test]
    fn text_that_is_not_utf8_names_the_line_and_the_encoding() {
        assert_eq!(read(b"[White \"a\"]\n"), "[White \"a\"]\n");
        assert_eq!(
            read(&[0xfe, 0xff, 0, b'[']),
            ":1: not UTF-8 text but UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8"
        );
        assert_eq!(
            read("[White \"a\"]\n[Black \"Jos".as_bytes().iter().chain(&[0xe9, b'"', b']']).copied().collect::<Vec<u8>>().as_slice()),
            ":2: not UTF-8 text: byte 0xE9 at column 12 (Latin-1 or another encoding?); save it as UTF-8"
        );
        assert_eq!(
            read(b"1. e4\n[\0W\0"),
            ":2: a NUL byte: not a text file (UTF-16 without a byte-order mark?); save it as UTF-8"
        );
        let dir = tempfile::tempdir().unwrap();
        let e = read_text(&dir.path().join("missing.pgn")).unwrap_err();
        assert!(matches!(e, RecordError::Path { .. }), "{e}");
        assert!(
            e.to_string()
                .ends_with("missing.pgn: no such file or folder"),
            "{e}"
        );
    }
}
