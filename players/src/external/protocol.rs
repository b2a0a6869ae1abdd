//! The messages of the fow bot protocol (see `PROTOCOL.md` at the repository root): one
//! JSON object per line, its kind in the `type` field.

use std::collections::BTreeMap;

use fow_variants::RuleSet;
use serde::{Deserialize, Serialize};

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
    },
    /// Our turn. The bot answers [`FromBot::Move`].
    Turn {
        /// Plies played before this one (0 for White's first move).
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
}

/// A message from the bot program to the arena.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromBot {
    /// The answer to [`ToBot::Hello`].
    Hello {
        /// The protocol version the bot speaks (must be [`PROTOCOL_VERSION`]).
        protocol: u32,
        /// The bot's name.
        name: String,
        /// The options it accepts (absent: it takes whatever it is given).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        options: Option<Vec<OptionInfo>>,
    },
    /// The answer to [`ToBot::NewGame`]: set up and waiting for its turns.
    Ready,
    /// The answer to [`ToBot::Turn`]: a legal move in UCI.
    Move {
        /// The move, e.g. `e2e4` or `e7e8q`.
        #[serde(rename = "move")]
        uci: String,
    },
    /// Instead of a move: the bot cannot go on (it loses the game, the message is
    /// recorded).
    Error {
        /// What went wrong.
        message: String,
    },
}

/// An option a bot accepts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptionInfo {
    /// Its key in the player spec.
    pub name: String,
    /// Its value when not given.
    #[serde(default)]
    pub default: String,
    /// What it does.
    #[serde(default)]
    pub description: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_have_the_documented_shape() {
        let m = ToBot::NewGame {
            color: "white".into(),
            rules: RuleSet::thesis(),
            seed: 7,
            options: BTreeMap::from([("depth".to_string(), "2".to_string())]),
        };
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            r#"{"type":"new_game","color":"white","rules":{"en_passant":false,"promotion":"queen-only","castling":"positional","draw_plies":200,"repetition":null},"seed":7,"options":{"depth":"2"}}"#
        );
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
        assert!(serde_json::from_str::<FromBot>(r#"{"type":"mvoe","move":"e2e4"}"#).is_err());
    }
}
