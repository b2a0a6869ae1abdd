//! What the app shows while a run is written: a run's events ([`run_events`]), one each
//! time its complete games change (the page then reloads the table, the ratings and the
//! SPRT graph).

use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use fow_records::GAMES_FILE;
use serde_json::json;

use crate::http::EventStream;
use crate::scan::{being_written, complete_rows};

/// How often a watched folder is looked at.
pub const POLL: Duration = Duration::from_millis(300);

/// How often a quiet stream sends a comment, to find a client that left.
pub const KEEP_ALIVE: Duration = Duration::from_secs(10);

/// Sends `games` events for the run in `dir` (its complete games and whether it is
/// being written) each time they change, until the client leaves or `stop` is set.
pub fn run_events(dir: &Path, mut out: EventStream, stop: &AtomicBool) -> io::Result<()> {
    let mut last = None;
    let mut quiet = Instant::now();
    while !stop.load(Ordering::SeqCst) {
        let now = (complete_rows(&dir.join(GAMES_FILE)), being_written(dir));
        if last != Some(now) {
            out.send("games", &json!({ "games": now.0, "live": now.1 }))?;
            last = Some(now);
            quiet = Instant::now();
        } else if quiet.elapsed() > KEEP_ALIVE {
            out.keep_alive()?;
            quiet = Instant::now();
        }
        std::thread::sleep(POLL);
    }
    Ok(())
}
