//! `fow serve`: a built-in bot as a program that speaks the fow bot protocol.

use std::io;

use crate::error::CliError;

/// Run a built-in bot over the fow bot protocol on stdin/stdout (see PROTOCOL.md).
///
/// Lets a built-in bot play as an external program (`exec:cmd=fow serve NAME`), for
/// testing the protocol and measuring its overhead. Options in `new_game` are the bot's
/// parameters.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The bot, as NAME or NAME:key=value,... (see `fow players`).
    pub spec: String,
}

/// Serves until `quit` or the end of stdin.
pub fn run(a: Args) -> Result<(), CliError> {
    let spec: fow_players::PlayerSpec = a
        .spec
        .parse()
        .map_err(|e| CliError::Input(format!("{e}")))?;
    spec.build().map_err(|e| CliError::Input(format!("{e}")))?;
    let stdin = io::stdin().lock();
    let stdout = io::stdout().lock();
    fow_players::serve::serve(&spec, stdin, stdout)
        .map_err(|e| CliError::Failed(format!("serve: {e}")))
}
