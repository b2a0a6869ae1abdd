//! The runs under the roots ([`runs`]): every results folder (a tournament, match, play,
//! import, evolution or tuning run), with its kind, players, games and date, for the
//! index page; and whether a folder is being written now ([`being_written`]).

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use fow_records::{folder_kind, FolderKind, TournamentConfig, CONFIG_FILE, GAMES_FILE};
use serde::Serialize;

use crate::roots::Roots;

/// How deep under a root the scan looks for results folders.
pub const MAX_DEPTH: usize = 6;

/// One run, as the index lists it.
#[derive(Clone, Debug, Serialize)]
pub struct RunEntry {
    /// Its id (`<root>/<path>`), as the app's URLs name it.
    pub id: String,
    /// Its path as the root was given joined with the path inside it.
    pub path: String,
    /// `tournament`, `match`, `play`, `import`, `evolve` or `tune`.
    pub kind: String,
    /// The players (for an evolution or tuning run: what it evolves or tunes).
    pub players: Vec<String>,
    /// Complete games in games.csv (batches of a tuning run, generations of an evolution).
    pub games: u64,
    /// The last change, as seconds since the Unix epoch (UTC), and as text.
    pub modified: u64,
    /// The same, as `YYYY-MM-DD HH:MM UTC`.
    pub date: String,
    /// Whether a command is writing it now (it holds the folder's lock).
    pub live: bool,
}

/// Every run under `roots`, newest first; folders that cannot be read are left out.
pub fn runs(roots: &Roots) -> Vec<RunEntry> {
    let locked = locked_inodes();
    let mut out = Vec::new();
    for (i, given) in roots.given().enumerate() {
        let Some(real) = roots.real(i) else { continue };
        let mut stack = vec![(real.to_path_buf(), 0usize)];
        while let Some((dir, depth)) = stack.pop() {
            if let Some(e) = entry(roots, i, given, &dir, &locked) {
                out.push(e);
                continue;
            }
            if depth >= MAX_DEPTH {
                continue;
            }
            let Ok(read) = std::fs::read_dir(&dir) else {
                continue;
            };
            let mut subs: Vec<PathBuf> = read
                .flatten()
                // Not through links: a link could lead out of the root or loop.
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .map(|e| e.path())
                .filter(|p| {
                    !p.file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with('.'))
                })
                .collect();
            subs.sort();
            stack.extend(subs.into_iter().rev().map(|p| (p, depth + 1)));
        }
    }
    out.sort_by(|a, b| b.modified.cmp(&a.modified).then(a.id.cmp(&b.id)));
    out
}

/// The entry of `dir` when it is a results folder.
fn entry(roots: &Roots, root: usize, given: &Path, dir: &Path, locked: &[u64]) -> Option<RunEntry> {
    let (kind, _) = folder_kind(dir).ok().flatten()?;
    let id = roots.id_of(root, dir)?;
    let rel = dir.strip_prefix(roots.real(root)?).ok()?;
    let (players, games) = match kind {
        FolderKind::Evolve | FolderKind::Tune => (tuned(dir, kind), progress_lines(dir, kind)),
        _ => {
            let cfg = TournamentConfig::load(dir).ok();
            (
                cfg.map(|c| c.players).unwrap_or_default(),
                complete_rows(&dir.join(GAMES_FILE)),
            )
        }
    };
    let modified = modified(dir);
    Some(RunEntry {
        id,
        path: given.join(rel).display().to_string(),
        kind: kind.to_string(),
        players,
        games,
        modified,
        date: date_text(modified),
        live: std::fs::metadata(dir).is_ok_and(|m| locked.contains(&m.ino())),
    })
}

/// Rows of a CSV file ending in a newline, less the header.
pub fn complete_rows(path: &Path) -> u64 {
    std::fs::read(path)
        .map(|t| t.iter().filter(|&&b| b == b'\n').count().saturating_sub(1) as u64)
        .unwrap_or(0)
}

/// The log of a tuning run (`tune.csv`, a row per batch) or of an evolution (`log.csv`,
/// a row per generation).
pub fn progress_file(kind: FolderKind) -> &'static str {
    if kind == FolderKind::Tune {
        fow_arena::tune::TRAJECTORY_FILE
    } else {
        fow_arena::evolve::LOG_FILE
    }
}

/// Batches of a tuning run or generations of an evolution, by its log's lines.
fn progress_lines(dir: &Path, kind: FolderKind) -> u64 {
    complete_rows(&dir.join(progress_file(kind)))
}

/// What a tuning run tunes (its player) or an evolution evolves (its bot) and plays
/// against, from its settings.
fn tuned(dir: &Path, kind: FolderKind) -> Vec<String> {
    let file = if kind == FolderKind::Tune {
        fow_records::TUNE_FILE
    } else {
        fow_records::EVOLVE_FILE
    };
    let Some(json) = std::fs::read(dir.join(file))
        .ok()
        .and_then(|t| serde_json::from_slice::<serde_json::Value>(&t).ok())
    else {
        return Vec::new();
    };
    let text = |v: &serde_json::Value| v.as_str().map(String::from);
    let mut out: Vec<String> = [&json["space"]["player"], &json["bot"]]
        .into_iter()
        .filter_map(text)
        .collect();
    if let Some(against) = json["against"].as_array() {
        out.extend(against.iter().filter_map(text));
    }
    out
}

/// The newest change of the folder or the files a run appends to.
fn modified(dir: &Path) -> u64 {
    [
        dir.to_path_buf(),
        dir.join(GAMES_FILE),
        dir.join(CONFIG_FILE),
    ]
    .iter()
    .filter_map(|p| std::fs::metadata(p).ok()?.modified().ok())
    .max()
    .unwrap_or(UNIX_EPOCH)
    .duration_since(UNIX_EPOCH)
    .map_or(0, |d| d.as_secs())
}

/// Seconds since the epoch as `YYYY-MM-DD HH:MM UTC`.
pub fn date_text(secs: u64) -> String {
    let [y, mo, d, h, m, _] = fow_records::utc(secs);
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{m:02} UTC")
}

/// Whether a command holds the lock of `dir` now: its inode among the `flock` locks the
/// kernel lists in `/proc/locks` (Linux; elsewhere no folder shows as being written).
/// Reading the list takes no lock, so a writer starting meanwhile is never refused.
pub fn being_written(dir: &Path) -> bool {
    std::fs::metadata(dir).is_ok_and(|m| locked_inodes().contains(&m.ino()))
}

/// The inodes of every `FLOCK` lock in `/proc/locks` (`1: FLOCK ADVISORY WRITE 123
/// 08:01:4567 0 EOF`: the sixth field is `major:minor:inode`).
fn locked_inodes() -> Vec<u64> {
    let Ok(text) = std::fs::read_to_string("/proc/locks") else {
        return Vec::new();
    };
    text.lines()
        .filter(|l| l.contains("FLOCK"))
        .filter_map(|l| {
            let field = l.split_whitespace().find(|f| f.matches(':').count() == 2)?;
            field.rsplit(':').next()?.parse().ok()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc_calendar_dates() {
        assert_eq!(date_text(0), "1970-01-01 00:00 UTC");
        // 2000-02-29 12:34 UTC, a leap day.
        assert_eq!(date_text(951_827_640), "2000-02-29 12:34 UTC");
        assert_eq!(date_text(1_795_651_200), "2026-11-26 00:00 UTC");
    }

    #[test]
    fn a_held_lock_shows_and_a_released_one_does_not() {
        let tmp = tempfile::tempdir().unwrap();
        assert!(!being_written(tmp.path()));
        let lock = fow_records::lock_folder(tmp.path()).unwrap();
        assert!(being_written(tmp.path()));
        drop(lock);
        assert!(!being_written(tmp.path()));
    }
}
