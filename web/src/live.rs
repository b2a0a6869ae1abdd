//! What the app shows while a run is written: a run's events ([`run_events`]), one each
//! time its complete games change (the page then reloads the table, the ratings and the
//! SPRT graph), and one game's plies as they are played ([`game_events`]), read from
//! the feed `fow tournament --live` / `fow match --live` writes (`live/<id>.txt`).

use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use fow_arena::evolve::LOG_FILE;
use fow_arena::tune::TRAJECTORY_FILE;
use fow_records::{live_games, LiveGame, GAMES_FILE};
use fow_variants::{Bitboard, Color, FogView, Position};
use serde_json::{json, Value};

use fow_analysis::cells;

use crate::http::EventStream;
use crate::scan::{being_written, complete_rows};

/// How often a watched folder is looked at.
pub const POLL: Duration = Duration::from_millis(300);

/// How often a quiet stream sends a comment, to find a client that left.
pub const KEEP_ALIVE: Duration = Duration::from_secs(10);

/// Sends `games` events for the run in `dir` (its complete games, or a tuning run's
/// batches or an evolution's generations, and whether it is being written) each time
/// they change, until the client leaves or `stop` is set.
pub fn run_events(dir: &Path, mut out: EventStream, stop: &AtomicBool) -> io::Result<()> {
    let mut last = None;
    let mut quiet = Instant::now();
    while !stop.load(Ordering::SeqCst) {
        // Games, or a tuning run's batches, or an evolution's generations.
        let rows = [GAMES_FILE, TRAJECTORY_FILE, LOG_FILE]
            .iter()
            .map(|f| complete_rows(&dir.join(f)))
            .sum::<u64>();
        let now = (rows, being_written(dir));
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

/// The games of the run in `dir` being played now, as the run's page lists them.
pub fn live_list(dir: &Path) -> Value {
    match live_games(dir) {
        Ok(games) => Value::Array(
            games
                .iter()
                .map(|g| {
                    json!({
                        "id": g.header.id,
                        "white": g.header.white,
                        "black": g.header.black,
                        "plies": g.moves.len(),
                    })
                })
                .collect(),
        ),
        Err(e) => json!({ "error": e.to_string() }),
    }
}

/// Sends game `id` of the run in `dir` ply by ply as it is played: a `start` event (the
/// players, the start position's three boards), a `ply` event per move (its number, the
/// move, the true board and both sides' views after it), and an `end` event once the
/// game is in games.csv (its result and reason) or the run stopped without it; `waiting`
/// while the game has not begun.
pub fn game_events(dir: &Path, id: u64, mut out: EventStream, stop: &AtomicBool) -> io::Result<()> {
    let mut sent: Option<usize> = None;
    let mut pos: Option<Position> = None;
    let mut quiet = Instant::now();
    let mut waiting_sent = false;
    while !stop.load(Ordering::SeqCst) {
        let live = live_games(dir)
            .ok()
            .and_then(|gs| gs.into_iter().find(|g| g.header.id == id));
        match live {
            Some(g) => {
                let (p, n) = send_plies(&g, sent, pos.take(), &mut out)?;
                pos = Some(p);
                if sent != Some(n) {
                    quiet = Instant::now();
                }
                sent = Some(n);
            }
            None => {
                let (games, _) = crate::run_json::games(dir);
                if let Some(row) = games.iter().find(|g| g.id == id) {
                    out.send(
                        "end",
                        &json!({ "id": id, "result": row.result, "reason": row.reason, "plies": row.plies }),
                    )?;
                    return Ok(());
                }
                if sent.is_some() && !crate::scan::being_written(dir) {
                    out.send(
                        "end",
                        &json!({ "id": id, "result": null, "reason": "the run stopped" }),
                    )?;
                    return Ok(());
                }
                if !waiting_sent {
                    out.send("waiting", &json!({ "id": id }))?;
                    waiting_sent = true;
                }
            }
        }
        if quiet.elapsed() > KEEP_ALIVE {
            out.keep_alive()?;
            quiet = Instant::now();
        }
        std::thread::sleep(POLL);
    }
    Ok(())
}

/// Sends the plies of `g` after the first `sent` (and its `start` event when none was
/// sent), continuing from `pos` (the position after `sent` plies); the position now and
/// the plies sent in all.
fn send_plies(
    g: &LiveGame,
    sent: Option<usize>,
    pos: Option<Position>,
    out: &mut EventStream,
) -> io::Result<(Position, usize)> {
    let rules = g.header.rules;
    let start = || g.header.start.parse::<Position>().unwrap_or_default();
    let view_of = |p: &Position, c: Color| {
        let v = FogView::of(p, c, &rules);
        cells(v.board(), v.visible())
    };
    let boards = |p: &Position| {
        json!({
            "board": cells(p.board(), Bitboard::FULL),
            "white": view_of(p, Color::White),
            "black": view_of(p, Color::Black),
        })
    };
    let (mut pos, from) = match (sent, pos) {
        (Some(n), Some(p)) => (p, n),
        _ => {
            let p = start();
            out.send(
                "start",
                &json!({ "id": g.header.id, "white": g.header.white, "black": g.header.black,
                         "rules": rules.to_string(), "boards": boards(&p) }),
            )?;
            (p, 0)
        }
    };
    for (i, m) in g.moves.iter().enumerate().skip(from) {
        let uci = m.uci();
        pos.play(m);
        out.send(
            "ply",
            &json!({ "ply": i + 1, "uci": uci, "boards": boards(&pos) }),
        )?;
    }
    Ok((pos, g.moves.len().max(from)))
}
