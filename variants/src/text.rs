//! Text from outside (a FEN, a move, a PGN token, a bot's message) made safe to show on
//! one line: control characters escaped, long texts cut.

use std::borrow::Cow;

/// The most characters of an outside text an error message repeats.
pub const QUOTE_CHARS: usize = 80;

/// `text` with every control character (NUL, newline, escape, DEL, ...) and every Unicode
/// line or paragraph separator written as a visible escape (`\u{0}`, `\u{a}`), so that it
/// stays one line in a message, a table or a CSV field and cannot drive a terminal.
/// Backslashes are kept as they are, so escaping twice changes nothing.
///
/// ```
/// use fow_variants::printable;
/// assert_eq!(printable("bad\0move\nhere"), "bad\\u{0}move\\u{a}here");
/// assert_eq!(printable("Nf3 ✓"), "Nf3 ✓");
/// assert_eq!(printable(&printable("a\tb")), "a\\u{9}b");
/// ```
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if needs_escape(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// An outside text to repeat in an error message: [`printable`], and cut after
/// [`QUOTE_CHARS`] characters with `...` when longer.
///
/// ```
/// use fow_variants::quote;
/// assert_eq!(quote("e2e4\r"), "e2e4\\u{d}");
/// assert_eq!(quote(&"x".repeat(200)).chars().count(), 83);
/// ```
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTE_CHARS) {
        Some((cut, _)) => format!("{}...", printable(&text[..cut])),
        None => printable(text).into_owned(),
    }
}

fn needs_escape(c: char) -> bool {
    c.is_control() || c == '\u{2028}' || c == '\u{2029}'
}
