//! Asking a program player what it accepts, without playing a game: [`engine_options`]
//! starts a UCI engine and reads the options it lists (for `fow tune`, which reads a
//! spin option's range from it).

use std::fmt;

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
