//! # fow-players: the Player trait and the built-in bots
//!
//! Every bot implements [`Player`]: told its colour, the rules, a seed and the start
//! position at the start of a game ([`GameStart`]), it is handed an
//! [`Observation`](fow_variants::Observation) each turn and answers with a move. A
//! [`PlayerSpec`] (`Name` or `Name:key=value,...`) builds a fresh player per game from
//! the [`registry()`].
//!
//! The bots here are the lower half of the 2023 thesis's ladder, with its semantics:
//! piece weights pawn 1, knight 3, bishop 3, rook 5, queen 10, king 100, and ties broken
//! uniformly at random.
//!
//! Beside the bots: [`search`] (minimax on a board with fog), [`belief`] (the set of
//! boards consistent with what a player saw), [`nn`] (the move network's encoding,
//! datasets and plain-Rust inference) and [`external`] (bots as separate programs over
//! the fow bot protocol, UCI engines, and [`serve::serve`] to run a built-in bot as
//! such a program).
//!
//! Build a bot from its spec, start a game and ask it for a move:
//!
//! ```
//! use fow_players::{registry, Budget, GameStart, Player, PlayerSpec};
//! use fow_variants::{Color, Observation, Position, RuleSet};
//!
//! let rules = RuleSet::thesis();
//! let spec: PlayerSpec = "SimpleStockfish:depth=2".parse()?;
//! assert!(registry().iter().any(|bot| bot.name == spec.name));
//! let mut bot = spec.build()?;
//! bot.start(&GameStart::new(Color::White, rules, 42));
//!
//! // The bot sees only White's half of the board and the squares its pieces reach.
//! let mut pos = Position::startpos();
//! let obs = Observation::new(&pos, &rules, 0, None);
//! let m = bot.choose(&obs, &Budget::default());
//! assert!(obs.is_legal(&m));
//! pos.play(&m);
//! assert_eq!(pos.turn(), Color::Black);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod belief;
pub mod bots;
pub mod external;
pub mod nn;
pub mod param;
mod parametrized;
pub mod parts;
mod pick;
mod player;
mod registry;
mod rng;
pub mod search;
pub mod serve;
pub mod solve;
mod spec;
pub mod tune;
mod weights;

pub use param::Param;
pub use parametrized::{names_are_unique, Family, ParamError, Parametrized};
pub use pick::best_move;
pub use player::{Budget, GameStart, Player, PlayerError, PlayerErrorKind, TimeLeft};
pub use registry::{
    build, default_players, family, family_numbers, find, programs, register, registry, BotInfo,
};
pub use spec::{player_label, player_labels, split_spec_list, PlayerSpec, SpecError};
pub use weights::thesis_weight;
