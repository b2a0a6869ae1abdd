//! Run pages kept while their folder is unchanged ([`RunCache`]): a run's page reads and
//! checks every game and fits the ratings (about 90 ms for 9,000 games), and every
//! browser following a run asks for it again each time a game ends.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use serde_json::Value;

/// How many run pages are kept.
pub const KEPT_RUNS: usize = 32;

/// What a page was made from: each file's size and last change.
type Stamp = Vec<Option<(u64, SystemTime)>>;

/// The run pages made so far, by folder, with the stamp of the files they were made from.
#[derive(Default)]
pub struct RunCache {
    kept: Mutex<HashMap<PathBuf, (Stamp, Value)>>,
}

/// The files a run's page is made from.
const SOURCES: [&str; 7] = [
    fow_records::CONFIG_FILE,
    fow_records::GAMES_FILE,
    fow_records::EVOLVE_FILE,
    fow_records::TUNE_FILE,
    fow_arena::tune::TRAJECTORY_FILE,
    fow_arena::evolve::LOG_FILE,
    // `best.json`, an evolution's as a tuning run's.
    fow_arena::tune::BEST_FILE,
];

fn stamp(dir: &Path) -> Stamp {
    let mut files: Vec<PathBuf> = SOURCES.iter().map(|f| dir.join(f)).collect();
    files.push(dir.to_path_buf());
    files
        .iter()
        .map(|p| {
            let m = std::fs::metadata(p).ok()?;
            Some((m.len(), m.modified().ok()?))
        })
        .collect()
}

impl RunCache {
    /// The page of `dir`, made by `make` unless a page made from the same files is kept.
    pub fn page(
        &self,
        dir: &Path,
        make: impl FnOnce() -> Result<Value, String>,
    ) -> Result<Value, String> {
        let now = stamp(dir);
        if let Some((s, v)) = self.lock().get(dir) {
            if *s == now {
                return Ok(v.clone());
            }
        }
        let v = make()?;
        let mut kept = self.lock();
        if kept.len() >= KEPT_RUNS {
            kept.clear();
        }
        kept.insert(dir.to_path_buf(), (now, v.clone()));
        Ok(v)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, (Stamp, Value)>> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }
}
