//! `fow web`: the browser app over results folders.

use std::path::PathBuf;

use fow_arena::{catch_interrupt, INTERRUPTED};
use fow_web::{Web, WebOptions, DEFAULT_LISTEN};

use crate::error::CliError;
use crate::rules_args::RulesArgs;

/// Serve a browser app over results folders: runs, tables, ratings, SPRT and games; a
/// game's true board, both views, its analysis and a belief bot's belief; live runs; play.
///
/// It only reads the folders (games played in it go to the first root's `play/`), never
/// serves a file outside them, and binds 127.0.0.1 unless told otherwise. Ctrl-C stops it;
/// a game being played is saved, lost by the person.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Folders whose results folders it serves (searched 6 levels deep).
    #[arg(default_value = "results")]
    pub dirs: Vec<PathBuf>,
    /// The address to listen on, ADDR:PORT (port 0: a free port).
    #[arg(long, value_name = "ADDR:PORT", default_value = DEFAULT_LISTEN)]
    pub listen: String,
    /// The bot the play page offers (any built-in bot, or a program player: the only
    /// program a page may start).
    #[arg(long, value_name = "SPEC")]
    pub play: Option<String>,
    /// Rules of the games played in the app.
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Serves until Ctrl-C.
pub fn run(a: Args) -> Result<(), CliError> {
    let web = Web::bind(WebOptions {
        roots: a.dirs,
        listen: a.listen,
        play: a.play,
        rules: a.rules.rule_set()?,
    })
    .map_err(CliError::Input)?;
    catch_interrupt()?;
    println!("fow web: serving at {} (Ctrl-C stops)", web.url());
    web.serve(&INTERRUPTED);
    println!("fow web: stopped");
    Ok(())
}
