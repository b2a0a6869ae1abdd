//! Text from outside (a FEN, a move, a PGN token, a bot's message) made safe to show on
//! one line: control characters escaped, long texts cut.

use std::borrow::Cow;

/// The most characters of an outside text an error message repeats.
pub const QUOTE_CHARS: usize = 80;

/// `text` with every control character (NUL, newline, escape, DEL, ...), every Unicode
/// line or paragraph separator and every invisible formatting character (the bidirectional
/// overrides, embeddings and isolates that reorder what follows, zero-width spaces and
/// joiners, the byte-order mark, soft hyphens, tag characters: Unicode's format
/// category) written as a visible escape (`\u{0}`, `\u{202e}`), so that it stays one
/// line in a message, a table or a CSV field, shows what it holds, and cannot drive a
/// terminal. Backslashes are kept as they are, so escaping twice changes nothing.
///
/// ```
/// use fow_variants::printable;
/// assert_eq!(printable("bad\0move\nhere"), "bad\\u{0}move\\u{a}here");
/// assert_eq!(printable("Nf3 ✓"), "Nf3 ✓");
/// assert_eq!(printable(&printable("a\tb")), "a\\u{9}b");
/// // A right-to-left override would show "lost" as "tsol"; a zero-width space hides.
/// assert_eq!(printable("\u{202e}lost\u{200b}"), "\\u{202e}lost\\u{200b}");
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
    c.is_control() || c == '\u{2028}' || c == '\u{2029}' || is_format(c)
}

/// Whether `c` is in Unicode's format category (Cf, Unicode 15): invisible characters
/// that change how the text around them shows.
fn is_format(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{600}'..='\u{605}'
            | '\u{61c}'
            | '\u{6dd}'
            | '\u{70f}'
            | '\u{890}'..='\u{891}'
            | '\u{8e2}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206f}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{110bd}'
            | '\u{110cd}'
            | '\u{13430}'..='\u{1343f}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0001}'
            | '\u{e0020}'..='\u{e007f}'
    )
}
