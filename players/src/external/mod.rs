//! Bots as separate programs: the fow bot protocol (line-based JSON over stdin/stdout,
//! documented in `PROTOCOL.md`), the [`ExternalPlayer`] that runs a program as a
//! [`Player`](crate::Player) (the `exec:cmd=...` spec), and the [`UciPlayer`] that makes a
//! UCI chess engine a fog-of-war bot (the `uci:cmd=...` spec, its engine options read as
//! [`UciOption`]s). [`engine_options`] and [`program_options`] ask an engine or a program
//! what it accepts. The other side, a built-in bot run as such a program (`fow serve
//! NAME`), is [`crate::serve`].

mod command;
mod guard;
mod launch;
mod probe;
mod process;
pub mod protocol;
mod sandbox;
mod uci;
mod uci_option;

pub use command::split_command;
pub use launch::{Launch, ENV_PREFIX, LAUNCH_KEYS};
pub use probe::{engine_options, program_options, ProbeError};
pub use process::{
    ExecSettings, ExternalPlayer, DEFAULT_STARTUP_MS, DEFAULT_TIMEOUT_MS, EXEC_KEYS, MAX_LINE,
    MAX_LOG, QUIT_GRACE,
};
pub use sandbox::{Sandbox, SANDBOX_ID};
pub use uci::{
    prepare, read_engine_line, read_uci_counts, uci_counts_path, BoardSource, EngineLine, Skip,
    UciCounts, UciPlayer, UciSettings, BELIEF_CAP, DEFAULT_UCI_NODES, UCI_KEYS,
};
pub use uci_option::{UciOption, UciOptionKind, OPTION_PREFIX};

use std::path::PathBuf;

use fow_variants::Move;

use crate::{PlayerError, PlayerSpec, SpecError};

/// A player that runs a program ([`ExternalPlayer`], [`UciPlayer`]): a failure is kept
/// until [`Player::take_error`](crate::Player::take_error) takes it, and ends the program.
trait Program {
    /// The failure not yet taken (from `start` or a turn).
    fn failure(&mut self) -> &mut Option<PlayerError>;
    /// Ends the program without the polite `quit`: it misbehaved.
    fn end_broken(&mut self);
}

/// One `choose` of a program player: `turn`'s move, or [`Move::NULL`] with the failure
/// kept (this turn's, or one from `start` or an earlier turn not yet taken) and the
/// program ended.
fn answer<P: Program>(p: &mut P, turn: impl FnOnce(&mut P) -> Result<Move, PlayerError>) -> Move {
    if p.failure().is_none() {
        match turn(p) {
            Ok(m) => return m,
            Err(e) => *p.failure() = Some(e),
        }
    }
    p.end_broken();
    Move::NULL
}

/// Checks that `spec` would show its program no folder of `hidden`: for a sandboxed
/// `exec:` or `uci:` player, the paths its spec binds (`bind=`, and the files and
/// folders named on its command line) must neither be, nor lie inside, nor hold one of
/// them (other players pass). The arena calls it before the first game of a run, with the run's
/// results folder.
pub fn check_hidden(spec: &PlayerSpec, hidden: &[PathBuf]) -> Result<(), SpecError> {
    let launch = match spec.name.as_str() {
        "exec" => ExecSettings::from_spec(spec)?.launch,
        "uci" => UciSettings::from_spec(spec)?.launch,
        _ => return Ok(()),
    };
    launch
        .command(hidden)
        .map(drop)
        .map_err(|message| SpecError::BadParam {
            bot: spec.name.clone(),
            message,
        })
}
