//! Asking a program player what it accepts, without playing a game: [`engine_options`]
//! starts a UCI engine and reads the options it lists, [`program_options`] starts an
//! `exec:` program and reads the options its `hello` declares (for `fow tune`, which
//! reads a parameter's range from them when its tune file gives none).

use std::fmt;

use super::process::{ExecSettings, ExternalPlayer};
use super::protocol::OptionInfo;
use super::uci::{UciPlayer, UciSettings};
use super::uci_option::UciOption;
use crate::player::PlayerError;
use crate::spec::{PlayerSpec, SpecError};

/// Why a program player could not be asked what it accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeError {
    /// The spec is wrong (an unknown key, a missing program, a bad value).
    Spec(SpecError),
    /// The program failed: it did not start, did not answer in time, broke the
    /// protocol, or refused an option of the spec (the message names it).
    Program(PlayerError),
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::Spec(e) => e.fmt(f),
            ProbeError::Program(e) => f.write_str(&e.message),
        }
    }
}

impl std::error::Error for ProbeError {}

impl From<SpecError> for ProbeError {
    fn from(e: SpecError) -> ProbeError {
        ProbeError::Spec(e)
    }
}

/// The options the engine of a `uci:` spec lists, in its order: starts the engine as a
/// game would (the same command, environment and sandbox), sends `uci`, reads its
/// `option` lines up to `uciok`, checks the spec's own `option.NAME=VALUE` against them
/// (as a game does), and quits it.
///
/// ```no_run
/// use fow_players::external::{engine_options, UciOptionKind};
/// let spec = "uci:cmd=stockfish".parse()?;
/// for o in engine_options(&spec)? {
///     if let UciOptionKind::Spin { min, max, .. } = o.kind {
///         println!("{}: {min} to {max}", o.name);
///     }
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn engine_options(spec: &PlayerSpec) -> Result<Vec<UciOption>, ProbeError> {
    let mut engine = UciPlayer::new(UciSettings::from_spec(spec)?);
    engine.probe().map_err(ProbeError::Program)
}

/// The options the program of an `exec:` spec declares in its `hello` (`None` when it
/// declares none: it takes whatever it is given): starts the program as a game would
/// (the same command, environment and sandbox), says `hello`, checks each declaration
/// and the spec's own options against them (as a game does), and ends it with `quit`.
///
/// ```no_run
/// use fow_players::external::program_options;
/// let spec = "exec:cmd=python3 examples/greedy_bot.py".parse()?;
/// for o in program_options(&spec)?.unwrap_or_default() {
///     println!("{}: {:?} from {:?} to {:?}", o.name, o.kind, o.min, o.max);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn program_options(spec: &PlayerSpec) -> Result<Option<Vec<OptionInfo>>, ProbeError> {
    let mut program = ExternalPlayer::new(ExecSettings::from_spec(spec)?);
    program.probe().map_err(ProbeError::Program)
}
