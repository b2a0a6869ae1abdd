//! Bots as separate programs: the fow bot protocol (line-based JSON over stdin/stdout,
//! documented in `PROTOCOL.md`), the [`ExternalPlayer`] that runs a program as a
//! [`Player`](crate::Player) (the `exec:cmd=...` spec), and [`serve`], which runs any
//! built-in bot as such a program (`fow serve NAME`).

mod command;
mod process;
pub mod protocol;
mod serve;

pub use command::split_command;
pub use process::{
    ExecSettings, ExternalPlayer, DEFAULT_STARTUP_MS, DEFAULT_TIMEOUT_MS, EXEC_KEYS, MAX_LINE,
    MAX_LOG, QUIT_GRACE,
};
pub use serve::{serve, ServeError};
