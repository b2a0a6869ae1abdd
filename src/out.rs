//! Standard output for the CLI's results (and the progress bar of an engine analysis,
//! which two commands show).
//!
//! `println!` panics when standard output is a pipe whose reader has gone
//! (`fow tournament | head -3`). These writes instead drop that output and everything
//! printed after it, and the command goes on with its work (a tournament still plays
//! its games and writes its files) and exits as it would have. Any other failure (a
//! full disk behind a redirection, say) is one error line and exit status 1.

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once standard output's reader has gone.
static GONE: AtomicBool = AtomicBool::new(false);

/// Writes `args` (and a newline when `newline`) to standard output and flushes it, so
/// that a failure shows here; see the module documentation for what happens then.
pub fn write(args: fmt::Arguments<'_>, newline: bool) {
    if GONE.load(Ordering::Relaxed) {
        return;
    }
    let mut out = io::stdout().lock();
    let result = out
        .write_fmt(args)
        .and_then(|()| {
            if newline {
                out.write_all(b"\n")
            } else {
                Ok(())
            }
        })
        .and_then(|()| out.flush());
    match result {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => GONE.store(true, Ordering::Relaxed),
        Err(e) => {
            eprintln!("fow: error: standard output: {e}");
            std::process::exit(1);
        }
    }
}

/// `N thing` or `N things` (see [`fow_analysis::count`]).
pub use fow_analysis::count;

/// A progress bar of `len` steps drawn with `template` (hidden when `quiet`).
pub fn progress_bar(quiet: bool, len: u64, template: &str) -> indicatif::ProgressBar {
    let bar = match quiet {
        true => indicatif::ProgressBar::hidden(),
        false => indicatif::ProgressBar::new(len),
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(template)
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar
}

/// `game` analysed by `engine` (`fow analyze`, `fow replay --analyze`), with a progress
/// bar on standard error when it is a terminal; the engine's settings are checked and the
/// engine started before the bar shows.
pub fn analyse(
    game: &fow_records::SavedGame,
    engine: &fow_analysis::EngineSettings,
) -> Result<fow_analysis::GameAnalysis, crate::error::CliError> {
    let mut evaluator = engine.evaluator()?;
    let bar = indicatif::ProgressBar::new(game.moves.len() as u64 + 1);
    bar.set_style(
        indicatif::ProgressStyle::with_template("analysing {pos}/{len} positions {wide_bar} {eta}")
            .expect("valid template"),
    );
    let analysis =
        fow_analysis::analyze_game_with_progress(game, evaluator.as_mut(), &mut |done, _| {
            bar.set_position(done as u64)
        })
        .map_err(|e| crate::error::CliError::Failed(format!("{}: {e}", game.source)))?;
    bar.finish_and_clear();
    Ok(analysis)
}

/// Marks brilliant and great moves and explains the mistakes and blunders of `analysis`
/// (`fog_boards` boards each) with a progress bar on standard error; says what each cost
/// (`fow analyze`, `fow replay --analyze`).
pub fn annotate(
    game: &fow_records::SavedGame,
    engine: &fow_analysis::EngineSettings,
    analysis: &mut fow_analysis::GameAnalysis,
    fog_boards: usize,
) -> Result<String, crate::error::CliError> {
    let bar = progress_bar(false, 0, "explaining errors {pos}/{len} {wide_bar} {eta}");
    let text = fow_analysis::annotate_game(game, engine, analysis, fog_boards, &mut |d, t| {
        bar.set_length(t as u64);
        bar.set_position(d as u64);
    })?;
    bar.finish_and_clear();
    Ok(text)
}
