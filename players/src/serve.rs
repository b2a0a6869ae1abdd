//! [`serve`]: any built-in bot as a program that speaks the fow bot protocol (the
//! program side of [`crate::external`]; here, not there, because it builds bots from the
//! registry, which builds the external players).

use std::fmt;
use std::io::{BufRead, Write};
use std::time::Duration;

use fow_variants::{printable, quote, Color, FogView, Observation, Position, RuleSet};

use crate::external::protocol::{FromBot, OptionInfo, OptionType, ToBot, PROTOCOL_VERSION};
use crate::param::{Kind, Param};
use crate::player::{Budget, GameStart, Player};
use crate::registry;
use crate::spec::{PlayerSpec, SpecError};

/// A bot's parameter as its `hello` declares it: an integer or a real with its range
/// (a bound that is no limit, or that the value must exceed, left out), anything else
/// as text.
fn option_info(p: &Param) -> OptionInfo {
    let mut o = OptionInfo::new(p.name, &p.default_text(), p.doc);
    match p.kind {
        Kind::Int { min, max, .. } => {
            o.kind = Some(OptionType::Int);
            o.min = Some(min as f64);
            o.max = (max != i64::MAX).then_some(max as f64);
        }
        Kind::Real { min, max, open, .. } => {
            o.kind = Some(OptionType::Real);
            o.min = (!open && min.is_finite()).then_some(min);
            o.max = max.is_finite().then_some(max);
        }
        _ => {}
    }
    o
}

/// Why [`serve`] stopped before `quit`.
#[derive(Debug)]
pub enum ServeError {
    /// Reading or writing the pipes failed.
    Io(std::io::Error),
    /// The arena sent something this side cannot read.
    Protocol(String),
    /// The bot cannot be built with the options of `new_game`.
    Spec(SpecError),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::Io(e) => write!(f, "{}", printable(&e.to_string())),
            ServeError::Protocol(m) => write!(f, "protocol error: {}", printable(m)),
            ServeError::Spec(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ServeError {}

impl From<std::io::Error> for ServeError {
    fn from(e: std::io::Error) -> ServeError {
        ServeError::Io(e)
    }
}

/// Plays the bot of `spec` over the fow bot protocol: messages from `input`, answers to
/// `output` (flushed after each), until `quit` or the end of `input`. Each `new_game`
/// builds a fresh bot from `spec` plus the game's options; its parameters are the options
/// announced in `hello`, and it is told the start position of `new_game`'s `start` (the
/// standard start when the field is absent, as from an older arena). The observation is
/// rebuilt from the fog-FEN views alone, so a served bot plays exactly the games the
/// built-in one plays.
///
/// ```
/// use fow_players::serve::serve;
/// let input = concat!(
///     r#"{"type":"hello","protocol":1}"#, "\n",
///     r#"{"type":"new_game","color":"white","rules":{"en_passant":false,"promotion":"queen-only","castling":"positional","draw_plies":200,"repetition":null},"seed":1,"options":{}}"#, "\n",
///     r#"{"type":"turn","ply":0,"view":"????????/????????/????????/????????/8/8/PPPPPPPP/RNBQKBNR w KQ -","previous":null,"legal":["e2e4"],"budget":{"nodes":null,"ms":null},"timeout_ms":1000}"#, "\n",
///     r#"{"type":"quit"}"#, "\n",
/// );
/// let mut out = Vec::new();
/// serve(&"CaptureKing".parse().unwrap(), input.as_bytes(), &mut out).unwrap();
/// let out = String::from_utf8(out).unwrap();
/// assert!(out.starts_with(r#"{"type":"hello","protocol":1,"name":"CaptureKing""#));
/// assert_eq!(out.lines().nth(1), Some(r#"{"type":"ready"}"#));
/// assert!(out.lines().nth(2).unwrap().starts_with(r#"{"type":"move","move":""#));
/// ```
pub fn serve(
    spec: &PlayerSpec,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<(), ServeError> {
    let info = registry::find(&spec.name).ok_or_else(|| {
        ServeError::Spec(SpecError::UnknownBot {
            name: spec.name.clone(),
            known: registry::registry()
                .iter()
                .map(|b| b.name.to_string())
                .collect(),
        })
    })?;
    let mut player: Option<Box<dyn Player>> = None;
    let mut rules = RuleSet::thesis();
    let mut say = |msg: &FromBot| -> Result<(), ServeError> {
        let mut buf = serde_json::to_vec(msg).expect("messages serialize");
        buf.push(b'\n');
        output.write_all(&buf)?;
        output.flush()?;
        Ok(())
    };
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let msg = ToBot::from_line(&line).map_err(ServeError::Protocol)?;
        match msg {
            ToBot::Hello { protocol } => {
                if protocol != PROTOCOL_VERSION {
                    return Err(ServeError::Protocol(format!(
                        "the arena speaks protocol {protocol}, this bot {PROTOCOL_VERSION}"
                    )));
                }
                say(&FromBot::Hello {
                    protocol: PROTOCOL_VERSION,
                    name: spec.to_string(),
                    options: Some(info.params.iter().map(option_info).collect()),
                })?;
            }
            ToBot::NewGame {
                color,
                rules: r,
                seed,
                options,
                start,
            } => {
                let color = match color.as_str() {
                    "white" => Color::White,
                    "black" => Color::Black,
                    c => {
                        return Err(ServeError::Protocol(format!(
                            "unknown colour '{}' (white or black)",
                            quote(c)
                        )))
                    }
                };
                let position = match start {
                    None => Position::startpos(),
                    Some(fen) => fen.parse::<Position>().map_err(|e| {
                        ServeError::Protocol(format!(
                            "cannot read the start position '{}': {}",
                            quote(&fen),
                            printable(&e.to_string())
                        ))
                    })?,
                };
                let mut game_spec = spec.clone();
                game_spec.params.extend(options);
                match registry::build(&game_spec) {
                    Ok(mut p) => {
                        p.start(&GameStart::new(color, r, seed).with_position(position));
                        player = Some(p);
                        rules = r;
                        say(&FromBot::Ready)?;
                    }
                    Err(e) => say(&FromBot::Error {
                        message: e.to_string(),
                    })?,
                }
            }
            ToBot::Turn {
                ply,
                view,
                previous,
                budget,
                ..
            } => {
                let view: FogView = view
                    .parse()
                    .map_err(|e| ServeError::Protocol(format!("{e}")))?;
                let previous = match previous {
                    Some(p) => Some(
                        p.parse::<FogView>()
                            .map_err(|e| ServeError::Protocol(format!("{e}")))?,
                    ),
                    None => None,
                };
                let obs = Observation::from_views(view, previous, ply, &rules);
                let budget = Budget {
                    nodes: budget.nodes,
                    time: budget.ms.map(Duration::from_millis),
                    clock: budget.remaining_ms.map(|r| crate::TimeLeft {
                        remaining: Duration::from_millis(r),
                        increment: Duration::from_millis(budget.increment_ms.unwrap_or(0)),
                    }),
                };
                let answer = match player.as_mut() {
                    None => FromBot::Error {
                        message: "turn before new_game".into(),
                    },
                    Some(p) => {
                        // A move outside the legal list goes out as it is (the arena
                        // records it as illegal); no move at all goes out as an error.
                        let m = p.choose(&obs, &budget);
                        match (p.take_error(), obs.is_legal(&m)) {
                            (Some(e), false) => FromBot::Error {
                                message: e.to_string(),
                            },
                            (None, false) if m.is_null() => FromBot::Error {
                                message: "no move".into(),
                            },
                            _ => FromBot::Move { uci: m.uci() },
                        }
                    }
                };
                say(&answer)?;
            }
            ToBot::GameEnd { result, reason, .. } => {
                if let Some(p) = player.as_mut() {
                    let winner = match result.as_str() {
                        "1-0" => Some(Color::White),
                        "0-1" => Some(Color::Black),
                        _ => None,
                    };
                    p.finish(winner, &reason);
                }
            }
            ToBot::Quit => return Ok(()),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: &str = r#"{"en_passant":false,"promotion":"queen-only","castling":"positional","draw_plies":200,"repetition":null}"#;

    /// Serves PossibleBoardList as Black for one game: `hello`, a `new_game` with `start`
    /// (its extra fields), `turn` (a line or nothing) and `quit`.
    fn run(start: &str, turn: &str) -> (Result<(), ServeError>, String) {
        let new_game = format!(
            r#"{{"type":"new_game","color":"black","rules":{RULES},"seed":1,"options":{{}}{start}}}"#
        );
        let input = format!(
            "{}\n{new_game}\n{turn}\n{}\n",
            r#"{"type":"hello","protocol":1}"#, r#"{"type":"quit"}"#,
        );
        let mut out = Vec::new();
        let r = serve(
            &"PossibleBoardList".parse().unwrap(),
            input.as_bytes(),
            &mut out,
        );
        (r, String::from_utf8(out).unwrap())
    }

    #[test]
    fn an_unreadable_start_is_a_protocol_error() {
        let (r, out) = run(r#","start":"4k3/8/8/8/8/8/8/8 b - - 0 1""#, "");
        let e = r.unwrap_err();
        assert!(matches!(e, ServeError::Protocol(_)), "{e}");
        let text = e.to_string();
        assert!(
            text.starts_with(
                "protocol error: cannot read the start position '4k3/8/8/8/8/8/8/8 b - - 0 1': "
            ),
            "{text}"
        );
        assert!(!out.contains("ready"), "{out}");
        let (r, _) = run(r#","start":"not a fen""#, "");
        assert!(r
            .unwrap_err()
            .to_string()
            .contains("cannot read the start position 'not a fen'"));
    }

    #[test]
    fn a_start_position_is_read_and_its_first_mover_may_be_black() {
        // Black moves first from the start it is told; without a start field the game is
        // the standard one.
        let start = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1";
        let pos: Position = start.parse().unwrap();
        let view = FogView::of(&pos, Color::Black, &RuleSet::thesis());
        let turn = format!(
            r#"{{"type":"turn","ply":0,"view":"{view}","previous":null,"legal":[],"budget":{{"nodes":1000,"ms":null}},"timeout_ms":1000}}"#
        );
        let (r, out) = run(&format!(r#","start":"{start}""#), &turn);
        r.unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[1], r#"{"type":"ready"}"#, "{out}");
        assert!(
            lines[2].starts_with(r#"{"type":"move","move":"e8"#),
            "{out}"
        );
        let (r, out) = run("", "");
        r.unwrap();
        assert_eq!(out.lines().nth(1), Some(r#"{"type":"ready"}"#), "{out}");
    }
}
