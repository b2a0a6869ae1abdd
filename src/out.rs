//! Standard output for the CLI's results.
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
