//! Bots as separate programs: the fow bot protocol (line-based JSON over stdin/stdout,
//! documented in `PROTOCOL.md`), the [`ExternalPlayer`] that runs a program as a
//! [`Player`](crate::Player) (the `exec:cmd=...` spec), and [`serve`], which runs any
//! built-in bot as such a program (`fow serve NAME`), and the [`UciPlayer`] that makes a
//! UCI chess engine a fog-of-war bot (the `uci:cmd=...` spec).

mod command;
mod process;
pub mod protocol;
mod serve;
mod uci;

pub use command::split_command;
pub use process::{
    ExecSettings, ExternalPlayer, DEFAULT_STARTUP_MS, DEFAULT_TIMEOUT_MS, EXEC_KEYS, MAX_LINE,
    MAX_LOG, QUIT_GRACE,
};
pub use serve::{serve, ServeError};
pub use uci::{
    prepare, read_uci_counts, uci_counts_path, BoardSource, Skip, UciCounts, UciPlayer,
    UciSettings, BELIEF_CAP, DEFAULT_UCI_NODES, UCI_KEYS,
};
