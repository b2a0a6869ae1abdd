//! Words for counts in printed text.

/// `N thing` or `N things`: `count(1, "game")` is "1 game", `count(2, "game")` "2 games".
///
/// ```
/// assert_eq!(fow_records::count(1, "game"), "1 game");
/// assert_eq!(fow_records::count(0, "game"), "0 games");
/// ```
pub fn count(n: usize, thing: &str) -> String {
    format!("{n} {thing}{}", if n == 1 { "" } else { "s" })
}
