//! # fow-players: the Player trait and the built-in bots
//!
//! Every bot implements [`Player`]: told its colour, the rules, a seed and the start
//! position at the start of a game ([`GameStart`]), it is handed an
//! [`Observation`](fow_variants::Observation) each turn and answers with a move. A
//! [`PlayerSpec`] (`Name` or `Name:key=value,...`) builds a fresh player per game from
//! the [`registry`].
//!
//! The bots here are the lower half of the 2023 thesis's ladder, with its semantics:
//! piece weights pawn 1, knight 3, bishop 3, rook 5, queen 10, king 100, and ties broken
//! uniformly at random.

pub mod belief;
pub mod bots;
pub mod external;
pub mod nn;
mod parametrized;
mod pick;
mod player;
mod registry;
pub mod search;
mod spec;
mod weights;

pub use parametrized::{names_are_unique, Family, ParamError, Parametrized};
pub use pick::best_move;
pub use player::{Budget, GameStart, Player, PlayerError, PlayerErrorKind, TimeLeft};
pub use registry::{build, default_players, find, programs, registry, BotInfo, ParamInfo};
pub use spec::{player_label, player_labels, split_spec_list, PlayerSpec, SpecError};
pub use weights::thesis_weight;
