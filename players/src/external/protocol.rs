//! The messages of the fow bot protocol (see `PROTOCOL.md` at the repository root): one
//! JSON object per line, its kind in the `type` field.

use std::collections::BTreeMap;

use fow_variants::{printable, quote, RuleSet};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The protocol version this build speaks.
pub const PROTOCOL_VERSION: u32 = 1;

/// A message from the arena to the bot program.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToBot {
    /// The first message: the arena's protocol version. The bot answers [`FromBot::Hello`].
    Hello {
        /// [`PROTOCOL_VERSION`].
        protocol: u32,
    },
    /// A game begins. The bot answers [`FromBot::Ready`].
    NewGame {
        /// `white` or `black`.
        color: String,
        /// Every switch of the rules.
        rules: RuleSet,
        /// The seed for all the bot's randomness in this game.
        seed: u64,
        /// The options given in the player spec (`key=value`), as text.
        options: BTreeMap<String, String>,
        /// The position the game starts from, as FEN. Public knowledge, like the standard
        /// start: both players get all of it, and the side to move in it moves first. fow
        /// always sends it (the standard FEN for the standard start); a message without
        /// it (from an older arena) means the standard start.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        start: Option<String>,
    },
    /// Our turn. The bot answers [`FromBot::Move`].
    Turn {
        /// Plies played before this one (0 for the game's first move, White's from the
        /// standard start).
        ply: u32,
        /// What we see now, as fog-FEN.
        view: String,
        /// What we saw right after our previous move, as fog-FEN (`null` on our first
        /// turn).
        previous: Option<String>,
        /// The legal moves in UCI.
        legal: Vec<String>,
        /// The budget for this move.
        budget: BudgetMsg,
        /// The arena forfeits the game after this many milliseconds without an answer.
        timeout_ms: u64,
    },
    /// The game is over. No answer.
    GameEnd {
        /// `1-0`, `0-1` or `1/2-1/2`.
        result: String,
        /// `win`, `loss` or `draw`, from the bot's side.
        outcome: String,
        /// Why it ended, as recorded in `games.csv` (`king captured`, `timeout`, ...).
        reason: String,
    },
    /// The program should exit now.
    Quit,
}

/// The budget of one move: search nodes and/or milliseconds (`null`: the bot's own
/// default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetMsg {
    /// Search nodes.
    pub nodes: Option<u64>,
    /// Wall milliseconds.
    pub ms: Option<u64>,
    /// Under a time control: the milliseconds left on the bot's own clock (never the
    /// opponent's); a move that takes longer loses on time. Absent without a clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remaining_ms: Option<u64>,
    /// Under a time control: the milliseconds added to the bot's clock after its move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub increment_ms: Option<u64>,
}

/// A message from the bot program to the arena.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromBot {
    /// The answer to [`ToBot::Hello`].
    Hello {
        /// The protocol version the bot speaks (must be [`PROTOCOL_VERSION`]).
        protocol: u32,
        /// The bot's name (control characters escaped when read).
        #[serde(deserialize_with = "printable_string")]
        name: String,
        /// The options it accepts (absent: it takes whatever it is given).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        options: Option<Vec<OptionInfo>>,
    },
    /// The answer to [`ToBot::NewGame`]: set up and waiting for its turns.
    Ready,
    /// The answer to [`ToBot::Turn`]: a legal move in UCI.
    Move {
        /// The move, e.g. `e2e4` or `e7e8q` (read trimmed, control characters escaped).
        #[serde(rename = "move", deserialize_with = "printable_move")]
        uci: String,
    },
    /// Instead of a move: the bot cannot go on (it loses the game, the message is
    /// recorded).
    Error {
        /// What went wrong (control characters escaped when read).
        #[serde(deserialize_with = "printable_string")]
        message: String,
    },
}

/// An option a bot accepts, as its `hello` declares it. `type`, `min` and `max` are
/// optional (a bot of before them declares none): an `int` or `real` option may declare
/// its range, which fow checks the spec's value against before the game and a tuner
/// reads.
///
/// ```
/// use fow_players::external::protocol::{OptionInfo, OptionType};
/// let o: OptionInfo = serde_json::from_str(
///     r#"{"name":"greed","default":"1","type":"real","min":0,"max":1}"#,
/// ).unwrap();
/// assert_eq!((o.kind, o.min, o.max), (Some(OptionType::Real), Some(0.0), Some(1.0)));
/// assert!(o.check_value("0.25").is_ok());
/// assert_eq!(o.check_value("2").unwrap_err(), "option greed must be a number from 0 to 1, not '2'");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptionInfo {
    /// Its key in the player spec.
    #[serde(deserialize_with = "printable_string")]
    pub name: String,
    /// Its value when not given.
    #[serde(default, deserialize_with = "printable_string")]
    pub default: String,
    /// What it does.
    #[serde(default, deserialize_with = "printable_string")]
    pub description: String,
    /// Its type (absent: any text, as for a bot that declares none).
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<OptionType>,
    /// The smallest value of an `int` or `real` option (absent: no lower bound).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "whole_if_integral"
    )]
    pub min: Option<f64>,
    /// The largest value of an `int` or `real` option (absent: no upper bound).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "whole_if_integral"
    )]
    pub max: Option<f64>,
}

/// The type of a bot's option, as its `hello` declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OptionType {
    /// A whole number (`"int"`), within `min` and `max` where given.
    Int,
    /// A finite number (`"real"`), within `min` and `max` where given.
    Real,
    /// Any text (`"text"`), as an option without a type.
    Text,
}

impl OptionInfo {
    /// An option of the given name, default and description, without a type.
    pub fn new(name: &str, default: &str, description: &str) -> OptionInfo {
        OptionInfo {
            name: name.to_string(),
            default: default.to_string(),
            description: description.to_string(),
            kind: None,
            min: None,
            max: None,
        }
    }

    /// Whether the declaration holds together: a range only on an `int` or `real`
    /// option, finite bounds (whole numbers for an `int`), `min` not above `max`, and a
    /// default (where given) that [`OptionInfo::check_value`] accepts.
    pub fn check_declaration(&self) -> Result<(), String> {
        let name = &self.name;
        let numeric = matches!(self.kind, Some(OptionType::Int | OptionType::Real));
        for (what, bound) in [("min", self.min), ("max", self.max)] {
            let Some(b) = bound else { continue };
            if !numeric {
                return Err(format!(
                    "option {name} declares a {what} but is not of type int or real"
                ));
            }
            if !b.is_finite() || (self.kind == Some(OptionType::Int) && b.fract() != 0.0) {
                return Err(format!(
                    "option {name}: {what} {b} is not {}",
                    self.type_words()
                ));
            }
        }
        if let (Some(min), Some(max)) = (self.min, self.max) {
            if min > max {
                return Err(format!("option {name}: min {min} is above max {max}"));
            }
        }
        if !self.default.is_empty() {
            self.check_value(&self.default)
                .map_err(|e| format!("the default of {e}"))?;
        }
        Ok(())
    }

    /// Whether `value` is one this option takes: a whole number for an `int`, a finite
    /// number for a `real`, within `min` and `max` where declared; any text otherwise.
    pub fn check_value(&self, value: &str) -> Result<(), String> {
        let number = match self.kind {
            None | Some(OptionType::Text) => return Ok(()),
            Some(OptionType::Int) => value.trim().parse::<i64>().ok().map(|v| v as f64),
            Some(OptionType::Real) => value.trim().parse::<f64>().ok().filter(|v| v.is_finite()),
        };
        let fits = number.is_some_and(|v| {
            self.min.is_none_or(|min| v >= min) && self.max.is_none_or(|max| v <= max)
        });
        if fits {
            return Ok(());
        }
        let range = match (self.min, self.max) {
            (Some(min), Some(max)) => format!(" from {min} to {max}"),
            (Some(min), None) => format!(", {min} or more"),
            (None, Some(max)) => format!(", {max} or less"),
            (None, None) => String::new(),
        };
        Err(format!(
            "option {} must be {}{range}, not '{value}'",
            self.name,
            self.type_words()
        ))
    }

    fn type_words(&self) -> &'static str {
        match self.kind {
            Some(OptionType::Int) => "an integer",
            _ => "a number",
        }
    }
}

/// A bound written as a JSON integer when it is a whole number (`1`, not `1.0`), as a
/// bot in most languages writes it.
fn whole_if_integral<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match *v {
        Some(x) if x.fract() == 0.0 && x.abs() < 9.0e15 => s.serialize_some(&(x as i64)),
        other => other.serialize(s),
    }
}

/// Text from a bot program enters fow here: a JSON string may hold any character (`\u0000`,
/// `\n`, escape sequences), and what the bot says ends up in `games.csv`, in tables and
/// on the terminal, so control characters are escaped visibly (`\u{0}`, see
/// [`printable`]) as the message is read.
fn printable_string<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let s = String::deserialize(d)?;
    Ok(printable(&s).into_owned())
}

/// A move text from a bot: surrounding whitespace dropped (as the move readers do), the
/// rest [`printable`].
fn printable_move<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let s = String::deserialize(d)?;
    Ok(printable(s.trim()).into_owned())
}

impl FromBot {
    /// Reads one line from a bot program. The error is one line that repeats the start of
    /// the text (escaped, see [`quote`]) and says what is wrong with it.
    ///
    /// ```
    /// use fow_players::external::protocol::FromBot;
    /// let m = FromBot::from_line(r#"{"type":"error","message":"out of\u0000memory\n"}"#).unwrap();
    /// assert_eq!(m, FromBot::Error { message: "out of\\u{0}memory\\u{a}".into() });
    /// let e = FromBot::from_line("{\"type\":\"mvoe\"}\u{7}").unwrap_err();
    /// assert!(e.starts_with("cannot read '{\"type\":\"mvoe\"}\\u{7}': "), "{e}");
    /// ```
    pub fn from_line(line: &str) -> Result<FromBot, String> {
        serde_json::from_str(line).map_err(|e| {
            format!(
                "cannot read '{}': {}",
                quote(line),
                printable(&e.to_string())
            )
        })
    }
}

impl ToBot {
    /// Reads one line from the arena (for a bot program written in Rust, such as
    /// `fow serve`); errors as in [`FromBot::from_line`].
    pub fn from_line(line: &str) -> Result<ToBot, String> {
        serde_json::from_str(line).map_err(|e| {
            format!(
                "cannot read '{}': {}",
                quote(line),
                printable(&e.to_string())
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn option(json: &str) -> OptionInfo {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn typed_options_check_their_values_and_their_declaration() {
        let queen = option(r#"{"name":"queen","default":"10","type":"int","min":1,"max":20}"#);
        assert_eq!(queen.check_declaration(), Ok(()));
        assert_eq!(queen.check_value("20"), Ok(()));
        for bad in ["0", "21", "3.5", "ten", ""] {
            assert_eq!(
                queen.check_value(bad).unwrap_err(),
                format!("option queen must be an integer from 1 to 20, not '{bad}'")
            );
        }
        let w = option(r#"{"name":"w","type":"real","min":0}"#);
        assert_eq!(w.check_value("1e9"), Ok(()));
        assert_eq!(
            w.check_value("-0.5").unwrap_err(),
            "option w must be a number, 0 or more, not '-0.5'"
        );
        assert!(w.check_value("NaN").is_err() && w.check_value("inf").is_err());
        assert_eq!(
            serde_json::to_string(&queen).unwrap(),
            r#"{"name":"queen","default":"10","description":"","type":"int","min":1,"max":20}"#
        );
        let half = option(r#"{"name":"h","type":"real","min":-0.5,"max":1e300}"#);
        assert_eq!(
            serde_json::to_string(&half).unwrap(),
            r#"{"name":"h","default":"","description":"","type":"real","min":-0.5,"max":1e+300}"#
        );
        let text = option(r#"{"name":"book","default":"a.bin"}"#);
        assert_eq!(text.check_value("anything, at all"), Ok(()));
        for (json, why) in [
            (
                r#"{"name":"x","type":"int","min":3,"max":1}"#,
                "option x: min 3 is above max 1",
            ),
            (
                r#"{"name":"x","type":"int","min":0.5}"#,
                "option x: min 0.5 is not an integer",
            ),
            (
                r#"{"name":"x","max":2}"#,
                "option x declares a max but is not of type int or real",
            ),
            (
                r#"{"name":"x","type":"text","min":2}"#,
                "option x declares a min but is not of type int or real",
            ),
            (
                r#"{"name":"x","type":"real","default":"2","min":0,"max":1}"#,
                "the default of option x must be a number from 0 to 1, not '2'",
            ),
        ] {
            assert_eq!(option(json).check_declaration().unwrap_err(), why, "{json}");
        }
    }

    #[test]
    fn the_clock_is_sent_only_under_a_time_control() {
        // Version 1 bots see the same budget as before without a clock.
        let plain = BudgetMsg {
            nodes: Some(5),
            ms: None,
            remaining_ms: None,
            increment_ms: None,
        };
        assert_eq!(
            serde_json::to_string(&plain).unwrap(),
            r#"{"nodes":5,"ms":null}"#
        );
        let timed = BudgetMsg {
            remaining_ms: Some(9500),
            increment_ms: Some(100),
            ..plain
        };
        let json = serde_json::to_string(&timed).unwrap();
        assert_eq!(
            json,
            r#"{"nodes":5,"ms":null,"remaining_ms":9500,"increment_ms":100}"#
        );
        assert_eq!(serde_json::from_str::<BudgetMsg>(&json).unwrap(), timed);
        assert_eq!(
            serde_json::from_str::<BudgetMsg>(r#"{"nodes":5,"ms":null}"#).unwrap(),
            plain
        );
    }

    #[test]
    fn messages_have_the_documented_shape() {
        let m = ToBot::NewGame {
            color: "white".into(),
            rules: RuleSet::thesis(),
            seed: 7,
            options: BTreeMap::from([("depth".to_string(), "2".to_string())]),
            start: Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into()),
        };
        let json = serde_json::to_string(&m).unwrap();
        assert_eq!(
            json,
            r#"{"type":"new_game","color":"white","rules":{"en_passant":false,"promotion":"queen-only","castling":"positional","draw_plies":200,"repetition":null},"seed":7,"options":{"depth":"2"},"start":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}"#
        );
        assert_eq!(ToBot::from_line(&json).unwrap(), m);
        // An older arena sends no start: the standard one.
        let old = r#"{"type":"new_game","color":"white","rules":{"en_passant":false,"promotion":"queen-only","castling":"positional","draw_plies":200,"repetition":null},"seed":7,"options":{"depth":"2"}}"#;
        assert!(matches!(
            ToBot::from_line(old).unwrap(),
            ToBot::NewGame {
                start: None,
                seed: 7,
                ..
            }
        ));
        assert_eq!(
            serde_json::to_string(&ToBot::Quit).unwrap(),
            r#"{"type":"quit"}"#
        );
        let a: FromBot =
            serde_json::from_str(r#"{"type":"move","move":"e2e4","extra":1}"#).unwrap();
        assert_eq!(a, FromBot::Move { uci: "e2e4".into() });
        let h: FromBot =
            serde_json::from_str(r#"{"type":"hello","protocol":1,"name":"x"}"#).unwrap();
        assert!(matches!(h, FromBot::Hello { options: None, .. }));
        // Options without a type (from before types) read as before and write the same.
        let old = r#"{"type":"hello","protocol":1,"name":"x","options":[{"name":"depth","default":"3","description":"plies"}]}"#;
        let h = FromBot::from_line(old).unwrap();
        assert_eq!(
            h,
            FromBot::Hello {
                protocol: 1,
                name: "x".into(),
                options: Some(vec![OptionInfo::new("depth", "3", "plies")])
            }
        );
        assert_eq!(serde_json::to_string(&h).unwrap(), old);
        let e = FromBot::from_line(
            r#"{"type":"hello","protocol":1,"name":"x","options":[{"name":"d","type":"colour"}]}"#,
        )
        .unwrap_err();
        assert!(e.contains("unknown variant `colour`"), "{e}");
        assert!(serde_json::from_str::<FromBot>(r#"{"type":"mvoe","move":"e2e4"}"#).is_err());
    }
}
