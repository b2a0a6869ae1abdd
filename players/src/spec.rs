//! [`PlayerSpec`]: the text that names a bot and its parameters. Reading and writing it
//! only; building a player from it is the registry's ([`PlayerSpec::build`]).

use std::fmt;
use std::str::FromStr;

use fow_variants::{printable, quote};

/// A bot and its parameters as text: `Name` or `Name:key=value,key=value`.
///
/// A value that contains a comma is written in double quotes, a quote inside doubled
/// (as in CSV): `exec:cmd="python3 bot.py --list a,b",name=Mine`. Outside quotes, spaces,
/// `:`, `=` and `"` in a value are plain text.
///
/// A spec builds a fresh player for each game, so games run in parallel without sharing
/// state. Its text (normalised, parameters in the order given) names the player in
/// results.
///
/// ```
/// use fow_players::PlayerSpec;
/// let spec: PlayerSpec = "RandomMove".parse().unwrap();
/// assert_eq!(spec.to_string(), "RandomMove");
/// assert!(spec.build().is_ok());
/// let err = "Nobody".parse::<PlayerSpec>().unwrap().build().err().unwrap();
/// assert!(err.to_string().starts_with("unknown bot 'Nobody'"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayerSpec {
    /// The bot's registered name.
    pub name: String,
    /// Parameters in the order written.
    pub params: Vec<(String, String)>,
}

/// A spec that cannot be read or built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// The text is not `Name` or `Name:key=value,...`.
    Syntax {
        /// The text.
        text: String,
        /// What is wrong with it.
        why: String,
    },
    /// No bot has this name; the known names follow.
    UnknownBot {
        /// The name asked for.
        name: String,
        /// Every registered name.
        known: Vec<String>,
    },
    /// The bot has no such parameter, or the value does not fit.
    BadParam {
        /// The bot.
        bot: String,
        /// What is wrong.
        message: String,
    },
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::Syntax { text, why } => write!(
                f,
                "cannot read player spec '{}': {} (expected Name or Name:key=value,...)",
                quote(text),
                printable(why)
            ),
            SpecError::UnknownBot { name, known } => {
                write!(
                    f,
                    "unknown bot '{}' (known: {})",
                    quote(name),
                    known.join(", ")
                )
            }
            SpecError::BadParam { bot, message } => {
                write!(f, "{}: {}", quote(bot), printable(message))
            }
        }
    }
}

impl std::error::Error for SpecError {}

impl PlayerSpec {
    /// The value of parameter `key`, if given.
    pub fn param(&self, key: &str) -> Option<&str> {
        self.params
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Parameter `key` read as a `T`, or `default` when absent; a value that does not
    /// parse is a [`SpecError::BadParam`] naming the key and the value.
    ///
    /// ```
    /// use fow_players::PlayerSpec;
    /// let spec: PlayerSpec = "SimpleStockfish:depth=4".parse().unwrap();
    /// assert_eq!(spec.parsed("depth", 3u32).unwrap(), 4);
    /// assert_eq!(spec.parsed("nodes", 7u64).unwrap(), 7);
    /// let bad: PlayerSpec = "SimpleStockfish:depth=deep".parse().unwrap();
    /// assert!(bad.parsed("depth", 3u32).is_err());
    /// ```
    pub fn parsed<T: std::str::FromStr>(&self, key: &str, default: T) -> Result<T, SpecError> {
        match self.param(key) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| SpecError::BadParam {
                bot: self.name.clone(),
                message: format!("cannot read {key}={}", quote(v)),
            }),
        }
    }
}

impl fmt::Display for PlayerSpec {
    /// Writes the spec so that it reads back the same: values with a comma, a quote or
    /// space at either end in double quotes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for (i, (k, v)) in self.params.iter().enumerate() {
            let sep = if i == 0 { ':' } else { ',' };
            if v.contains([',', '"']) || v.trim() != v {
                write!(f, "{sep}{k}=\"{}\"", v.replace('"', "\"\""))?;
            } else {
                write!(f, "{sep}{k}={v}")?;
            }
        }
        Ok(())
    }
}

/// A character of a bot or parameter name.
fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// Splits `text` at the commas outside double quotes.
fn split_unquoted(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// A parameter value as written: `"..."` (with `""` for a quote) or plain text.
fn unquote(v: &str) -> Option<String> {
    match v.strip_prefix('"') {
        None => Some(v.to_string()),
        Some(rest) => {
            let inner = rest.strip_suffix('"')?;
            let mut out = String::with_capacity(inner.len());
            let mut chars = inner.chars();
            while let Some(c) = chars.next() {
                if c == '"' && chars.next() != Some('"') {
                    return None;
                }
                out.push(c);
            }
            Some(out)
        }
    }
}

/// Splits a comma-separated list of specs, where a spec's own parameters are also
/// comma-separated: a piece of the form `key=value` (no `:` before its `=`) continues the
/// spec before it. Commas inside double quotes do not split.
///
/// ```
/// use fow_players::split_spec_list;
/// assert_eq!(
///     split_spec_list("RandomMove,PossibleBoardList:cap=100,sample=8,SimpleStockfish"),
///     ["RandomMove", "PossibleBoardList:cap=100,sample=8", "SimpleStockfish"]
/// );
/// assert_eq!(
///     split_spec_list(r#"exec:cmd="python3 bot.py a,b",name=B,exec:cmd=./bot --x=1,RandomMove"#),
///     [r#"exec:cmd="python3 bot.py a,b",name=B"#, "exec:cmd=./bot --x=1", "RandomMove"]
/// );
/// ```
pub fn split_spec_list(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for piece in split_unquoted(text) {
        let continues = match (piece.find('='), piece.find(':')) {
            (Some(eq), colon) => colon.is_none_or(|c| c > eq),
            (None, _) => false,
        };
        match out.last_mut() {
            Some(last) if continues && last.contains(':') => {
                last.push(',');
                last.push_str(piece);
            }
            _ => out.push(piece.to_string()),
        }
    }
    out.retain(|s| !s.trim().is_empty());
    out
}

/// The name a player goes by in tables, reports and plots: the `name=` of its spec
/// where given (program players, `exec:` and `uci:`, take one), else the spec as written.
/// Text that is not a spec (a PGN player's name) stands for itself.
///
/// ```
/// use fow_players::player_label;
/// assert_eq!(player_label("exec:cmd=python3 bot.py,name=Mine"), "Mine");
/// assert_eq!(player_label("exec:cmd=python3 bot.py"), "exec:cmd=python3 bot.py");
/// assert_eq!(player_label("PossibleBoardList:cap=100"), "PossibleBoardList:cap=100");
/// assert_eq!(player_label("Magnus Carlsen"), "Magnus Carlsen");
/// ```
pub fn player_label(spec: &str) -> String {
    spec.parse::<PlayerSpec>()
        .ok()
        .and_then(|s| s.param("name").map(str::to_string))
        .unwrap_or_else(|| spec.to_string())
}

/// [`player_label`] of each player, or the players as given when two labels would be
/// equal (two programs with the same `name=`, or a `name=` that is another player's
/// spec): every row of a table must name a different player.
///
/// ```
/// use fow_players::player_labels;
/// let players = ["RandomMove".to_string(), "exec:cmd=./bot,name=Bot".to_string()];
/// assert_eq!(player_labels(&players), ["RandomMove", "Bot"]);
/// let twins = ["exec:cmd=./a,name=X".to_string(), "exec:cmd=./b,name=X".to_string()];
/// assert_eq!(player_labels(&twins), twins);
/// ```
pub fn player_labels(players: &[String]) -> Vec<String> {
    let labels: Vec<String> = players.iter().map(|p| player_label(p)).collect();
    let unique = labels
        .iter()
        .collect::<std::collections::HashSet<_>>()
        .len()
        == labels.len();
    if unique {
        labels
    } else {
        players.to_vec()
    }
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<PlayerSpec, SpecError> {
        let s = s.trim();
        let bad = |why: String| SpecError::Syntax {
            text: s.to_string(),
            why,
        };
        if let Some(c) = s.chars().find(|c| c.is_control()) {
            return Err(bad(format!(
                "it holds the control character {}",
                c.escape_unicode()
            )));
        }
        let (name, rest) = match s.split_once(':') {
            Some((n, r)) => (n.trim(), Some(r)),
            None => (s, None),
        };
        if name.is_empty() {
            return Err(bad("no bot name".into()));
        }
        if let Some(c) = name.chars().find(|&c| !is_name_char(c)) {
            return Err(bad(format!(
                "the bot name '{}' holds '{c}'; a name is letters, digits, '_' and '-'",
                quote(name)
            )));
        }
        let mut params = Vec::new();
        if let Some(rest) = rest {
            for part in split_unquoted(rest) {
                let (k, v) = part
                    .split_once('=')
                    .ok_or_else(|| bad(format!("'{}' is not key=value", quote(part.trim()))))?;
                let k = k.trim();
                if k.is_empty() {
                    return Err(bad(format!(
                        "'{}' has no parameter name before '='",
                        quote(part.trim())
                    )));
                }
                if let Some(c) = k.chars().find(|&c| !is_name_char(c) && c != '.') {
                    return Err(bad(format!(
                        "the parameter name '{}' holds '{c}'; a name is letters, digits, '_', '-' and '.'",
                        quote(k)
                    )));
                }
                let v = unquote(v.trim()).ok_or_else(|| {
                    bad(format!(
                        "the quotes of {k}={} do not close (a value in quotes ends with one; write \"\" for a quote inside)",
                        quote(v.trim())
                    ))
                })?;
                params.push((k.to_string(), v));
            }
        }
        Ok(PlayerSpec {
            name: name.to_string(),
            params,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        let s: PlayerSpec = " Foo:a=1, b = x ".parse().unwrap();
        assert_eq!(s.name, "Foo");
        assert_eq!(s.param("b"), Some("x"));
        assert_eq!(s.to_string(), "Foo:a=1,b=x");
        for bad in ["", ":a=1", "Foo:a", "Foo:=1", "Fo o"] {
            assert!(bad.parse::<PlayerSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn quoted_values_keep_commas_and_read_back() {
        let text = r#"exec:cmd="python3 bot.py --list a,b ""x""",name=Mine"#;
        let s: PlayerSpec = text.parse().unwrap();
        assert_eq!(s.param("cmd"), Some(r#"python3 bot.py --list a,b "x""#));
        assert_eq!(s.param("name"), Some("Mine"));
        assert_eq!(s.to_string(), text);
        assert_eq!(s.to_string().parse::<PlayerSpec>().unwrap(), s);
        let plain: PlayerSpec = r#"exec:cmd=python3 "my bot.py" --x=1"#.parse().unwrap();
        assert_eq!(plain.param("cmd"), Some(r#"python3 "my bot.py" --x=1"#));
        assert_eq!(plain.to_string().parse::<PlayerSpec>().unwrap(), plain);
        for bad in [r#"exec:cmd="a,b"#, r#"exec:cmd="a"b""#] {
            assert!(bad.parse::<PlayerSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn unknown_parameters_are_rejected() {
        let s: PlayerSpec = "RandomMove:depth=3".parse().unwrap();
        let e = s.build().err().unwrap();
        assert!(matches!(e, SpecError::BadParam { .. }), "{e}");
    }
}
