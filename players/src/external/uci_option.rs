//! [`UciOption`]: an option a UCI engine lists (`option name Hash type spin default 16
//! min 1 max 33554432`) before its `uciok`, and the checks of a value a `uci:` spec
//! gives it (`option.Hash=64`) before fow sends `setoption`.

use std::fmt;

/// The prefix of a `uci:` spec key that sets an engine option: `option.NAME=VALUE`.
pub const OPTION_PREFIX: &str = "option.";

/// One option a UCI engine accepts, as it listed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciOption {
    /// Its name, as the engine printed it (it may hold spaces: `Skill Level`).
    pub name: String,
    /// Its type, default and range.
    pub kind: UciOptionKind,
}

/// The type of a UCI option, with its default and range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciOptionKind {
    /// A whole number from `min` to `max`.
    Spin {
        /// The engine's default.
        default: i64,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// `true` or `false`.
    Check {
        /// The engine's default.
        default: bool,
    },
    /// One of named values.
    Combo {
        /// The engine's default.
        default: String,
        /// The values allowed.
        vars: Vec<String>,
    },
    /// Free text (empty for the engine's `<empty>`).
    String {
        /// The engine's default.
        default: String,
    },
    /// An action without a value (`Clear Hash`).
    Button,
}

/// The words of an option line that start a field.
const FIELDS: [&str; 6] = ["name", "type", "default", "min", "max", "var"];

impl UciOption {
    /// Reads an engine's `option name ... type ...` line (`None` for a line that is not
    /// an option); the error says what is wrong with an option line that cannot be read.
    ///
    /// ```
    /// use fow_players::external::{UciOption, UciOptionKind};
    /// let o = UciOption::parse("option name Skill Level type spin default 20 min 0 max 20")
    ///     .unwrap()
    ///     .unwrap();
    /// assert_eq!(o.name, "Skill Level");
    /// assert_eq!(o.kind, UciOptionKind::Spin { default: 20, min: 0, max: 20 });
    /// assert!(UciOption::parse("info depth 1").is_none());
    /// assert!(UciOption::parse("option name Hash type spin default 16").unwrap().is_err());
    /// ```
    pub fn parse(line: &str) -> Option<Result<UciOption, String>> {
        let mut words = line.split_whitespace();
        if words.next() != Some("option") {
            return None;
        }
        // Each field runs from its word to the next field's; `var` repeats.
        let mut fields: Vec<(&str, Vec<&str>)> = Vec::new();
        for w in words {
            match fields.last_mut() {
                Some((_, value)) if !FIELDS.contains(&w) => value.push(w),
                None if !FIELDS.contains(&w) => {
                    return Some(Err(format!("'{w}' where 'name' was expected")))
                }
                _ => fields.push((w, Vec::new())),
            }
        }
        let text = |key: &str| {
            fields
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.join(" "))
        };
        Some(Self::from_fields(&fields, text))
    }

    /// The name an option line gives (the words from `name` to the next field), for
    /// a line [`UciOption::parse`] cannot read; empty when it gives none.
    pub(crate) fn name_in(line: &str) -> String {
        line.split_whitespace()
            .skip_while(|w| *w != "name")
            .skip(1)
            .take_while(|w| !FIELDS.contains(w))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn from_fields(
        fields: &[(&str, Vec<&str>)],
        text: impl Fn(&str) -> Option<String>,
    ) -> Result<UciOption, String> {
        let name = text("name").filter(|n| !n.is_empty()).ok_or("no name")?;
        let kind = text("type").ok_or_else(|| format!("option '{name}' has no type"))?;
        let default = text("default").map(|d| if d == "<empty>" { String::new() } else { d });
        let number = |key: &str| -> Result<i64, String> {
            let v = text(key).ok_or_else(|| format!("spin option '{name}' has no {key}"))?;
            v.parse()
                .map_err(|_| format!("spin option '{name}': {key} '{v}' is not an integer"))
        };
        let kind = match kind.as_str() {
            "spin" => {
                let (default, min, max) = (number("default")?, number("min")?, number("max")?);
                if min > max || default < min || default > max {
                    return Err(format!(
                        "spin option '{name}': default {default}, min {min} and max {max} do not fit"
                    ));
                }
                UciOptionKind::Spin { default, min, max }
            }
            "check" => match default.as_deref() {
                Some("true") => UciOptionKind::Check { default: true },
                Some("false") => UciOptionKind::Check { default: false },
                _ => {
                    return Err(format!(
                        "check option '{name}' has no default true or false"
                    ))
                }
            },
            "combo" => UciOptionKind::Combo {
                default: default.unwrap_or_default(),
                vars: fields
                    .iter()
                    .filter(|(k, _)| *k == "var")
                    .map(|(_, v)| v.join(" "))
                    .collect(),
            },
            "string" => UciOptionKind::String {
                default: default.unwrap_or_default(),
            },
            "button" => UciOptionKind::Button,
            other => return Err(format!("option '{name}' has the unknown type '{other}'")),
        };
        Ok(UciOption { name, kind })
    }

    /// Whether the spec key `option.KEY` names this option: `KEY` is its name as the
    /// engine prints it, each space written `_` (a spec key holds no space):
    /// `option.Skill_Level` names `Skill Level`.
    pub fn is_named(&self, key: &str) -> bool {
        self.name == key || self.name.replace(' ', "_") == key
    }

    /// The `setoption` line that gives this option `value`, checked against its type and
    /// range (a button takes the empty value: `option.Clear_Hash=`).
    ///
    /// ```
    /// use fow_players::external::UciOption;
    /// let hash = UciOption::parse("option name Hash type spin default 16 min 1 max 1024")
    ///     .unwrap()
    ///     .unwrap();
    /// assert_eq!(hash.setoption("64").unwrap(), "setoption name Hash value 64");
    /// assert_eq!(
    ///     hash.setoption("0").unwrap_err(),
    ///     "option Hash must be an integer from 1 to 1024, not '0'"
    /// );
    /// ```
    pub fn setoption(&self, value: &str) -> Result<String, String> {
        let name = &self.name;
        let refuse = |what: String| Err(format!("option {name} must be {what}, not '{value}'"));
        match &self.kind {
            UciOptionKind::Spin { min, max, .. } => match value.parse::<i64>() {
                Ok(v) if (*min..=*max).contains(&v) => {}
                _ => return refuse(format!("an integer from {min} to {max}")),
            },
            UciOptionKind::Check { .. } => {
                if value != "true" && value != "false" {
                    return refuse("true or false".into());
                }
            }
            UciOptionKind::Combo { vars, .. } => {
                if !vars.iter().any(|v| v == value) {
                    return refuse(format!("one of {}", vars.join(", ")));
                }
            }
            UciOptionKind::String { .. } => {}
            UciOptionKind::Button => {
                if !value.is_empty() {
                    return refuse("empty (a button takes no value)".into());
                }
                return Ok(format!("setoption name {name}"));
            }
        }
        // An empty string is sent as UCI writes it.
        let value = if value.is_empty() { "<empty>" } else { value };
        Ok(format!("setoption name {name} value {value}"))
    }
}

impl fmt::Display for UciOption {
    /// The option as an engine lists it (`name type spin default 16 min 1 max 1024`,
    /// without the leading `option`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "name {} type ", self.name)?;
        match &self.kind {
            UciOptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            UciOptionKind::Check { default } => write!(f, "check default {default}"),
            UciOptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|v| write!(f, " var {v}"))
            }
            UciOptionKind::String { default } if default.is_empty() => {
                write!(f, "string default <empty>")
            }
            UciOptionKind::String { default } => write!(f, "string default {default}"),
            UciOptionKind::Button => write!(f, "button"),
        }
    }
}

/// What an engine listed before its `uciok`: the options it accepts, and the option
/// lines fow could not read (each its name and why), kept to say so when a spec names
/// one.
#[derive(Clone, Debug, Default)]
pub(crate) struct EngineOptions {
    /// The options read.
    pub(crate) options: Vec<UciOption>,
    /// The option lines not read: the name they give and why.
    unreadable: Vec<(String, String)>,
}

impl EngineOptions {
    /// Takes in one line of the engine's output (lines that are no option are ignored).
    pub(crate) fn read_line(&mut self, line: &str) {
        match UciOption::parse(line) {
            None => {}
            Some(Ok(o)) => self.options.push(o),
            Some(Err(why)) => self.unreadable.push((UciOption::name_in(line), why)),
        }
    }

    /// The option that the spec key `option.KEY` names; the error names `KEY` and lists
    /// the options there are (or says why the engine's line for it could not be read).
    pub(crate) fn find(&self, key: &str) -> Result<&UciOption, String> {
        if let Some(o) = self.options.iter().find(|o| o.name == key) {
            return Ok(o);
        }
        if let Some(o) = self.options.iter().find(|o| o.is_named(key)) {
            return Ok(o);
        }
        if let Some((_, why)) = self
            .unreadable
            .iter()
            .find(|(name, _)| name == key || name.replace(' ', "_") == key)
        {
            return Err(format!(
                "the engine lists option '{key}' in a line fow cannot read: {why}"
            ));
        }
        let names: Vec<&str> = self.options.iter().map(|o| o.name.as_str()).collect();
        Err(format!(
            "the engine has no option '{key}' (it has: {}; write a space in a name as _)",
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stockfish 15.1's list, as it prints it.
    const STOCKFISH: &str = "option name Debug Log File type string default 
option name Threads type spin default 1 min 1 max 1024
option name Hash type spin default 16 min 1 max 33554432
option name Clear Hash type button
option name Ponder type check default false
option name Skill Level type spin default 20 min 0 max 20
option name SyzygyPath type string default <empty>
option name EvalFile type string default nn-ad9b42354671.nnue";

    fn options() -> Vec<UciOption> {
        STOCKFISH
            .lines()
            .map(|l| UciOption::parse(l).unwrap().unwrap())
            .collect()
    }

    fn listed() -> EngineOptions {
        let mut listed = EngineOptions::default();
        for line in STOCKFISH.lines() {
            listed.read_line(line);
        }
        listed.read_line("id name Stockfish");
        listed.read_line("option name Odd One type spin default 1 min 0");
        listed
    }

    #[test]
    fn stockfish_options_are_read_and_print_back() {
        let o = options();
        assert_eq!(o.len(), 8);
        assert_eq!(o[0].kind, UciOptionKind::String { default: "".into() });
        assert_eq!(
            o[2].kind,
            UciOptionKind::Spin {
                default: 16,
                min: 1,
                max: 33_554_432
            }
        );
        assert_eq!(o[3].name, "Clear Hash");
        assert_eq!(o[3].kind, UciOptionKind::Button);
        assert_eq!(o[4].kind, UciOptionKind::Check { default: false });
        assert_eq!(o[6].kind, UciOptionKind::String { default: "".into() });
        assert_eq!(
            o[7].to_string(),
            "name EvalFile type string default nn-ad9b42354671.nnue"
        );
        for line in STOCKFISH.lines().skip(1) {
            let again = format!("option {}", UciOption::parse(line).unwrap().unwrap());
            assert_eq!(
                UciOption::parse(&again).unwrap().unwrap().to_string(),
                again[7..]
            );
        }
    }

    #[test]
    fn combo_values_may_hold_spaces() {
        let o = UciOption::parse(
            "option name Style type combo default Very Solid var Solid var Very Solid var Risky",
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            o.kind,
            UciOptionKind::Combo {
                default: "Very Solid".into(),
                vars: vec!["Solid".into(), "Very Solid".into(), "Risky".into()]
            }
        );
        assert_eq!(
            o.setoption("Very Solid").unwrap(),
            "setoption name Style value Very Solid"
        );
        assert_eq!(
            o.setoption("Wild").unwrap_err(),
            "option Style must be one of Solid, Very Solid, Risky, not 'Wild'"
        );
    }

    #[test]
    fn broken_option_lines_say_why() {
        for (line, why) in [
            ("option type spin", "no name"),
            ("option Hash", "'Hash' where 'name' was expected"),
            ("option name Hash", "option 'Hash' has no type"),
            ("option name Hash type spin default 16 min 1", "has no max"),
            (
                "option name Hash type spin default x min 1 max 2",
                "default 'x' is not an integer",
            ),
            (
                "option name Hash type spin default 9 min 1 max 2",
                "do not fit",
            ),
            (
                "option name Ponder type check default maybe",
                "no default true or false",
            ),
            ("option name X type dial", "unknown type 'dial'"),
        ] {
            let e = UciOption::parse(line).unwrap().unwrap_err();
            assert!(e.contains(why), "{line}: {e}");
        }
    }

    #[test]
    fn values_are_checked_against_type_and_range() {
        let listed = listed();
        assert_eq!(listed.options, options());
        let find = |key: &str| listed.find(key);
        assert_eq!(
            find("Skill_Level").unwrap().setoption("5").unwrap(),
            "setoption name Skill Level value 5"
        );
        assert_eq!(find("Skill Level").unwrap().name, "Skill Level");
        for bad in ["21", "-1", "5.5", "five", ""] {
            assert!(
                find("Skill_Level").unwrap().setoption(bad).is_err(),
                "{bad}"
            );
        }
        assert_eq!(
            find("Ponder").unwrap().setoption("yes").unwrap_err(),
            "option Ponder must be true or false, not 'yes'"
        );
        assert_eq!(
            find("Clear_Hash").unwrap().setoption("").unwrap(),
            "setoption name Clear Hash"
        );
        assert!(find("Clear_Hash").unwrap().setoption("1").is_err());
        assert_eq!(
            find("SyzygyPath").unwrap().setoption("").unwrap(),
            "setoption name SyzygyPath value <empty>"
        );
        let e = find("hash").unwrap_err();
        assert!(
            e.starts_with("the engine has no option 'hash' (it has: Debug Log File, Threads, Hash, Clear Hash,"),
            "{e}"
        );
        assert_eq!(
            find("Odd_One").unwrap_err(),
            "the engine lists option 'Odd_One' in a line fow cannot read: spin option 'Odd One' has no max"
        );
    }
}
