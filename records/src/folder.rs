//! A results folder as one type ([`RunFolder`]): the one place where what a folder
//! holds is declared ([`FOLDER_FILES`], the per-game [`Tables`]) and where it is made,
//! locked, begun (key and settings), appended to game by game, read back and checked,
//! and rewritten in schedule order. The commands that write folders (`fow tournament`,
//! `match`, `merge`, `play`, `import`) all go through it; readers (rate, replay, export,
//! analyze) read the same files through [`crate::read_checked`] and
//! [`crate::load_games`].
//!
//! Adding a per-game output file is one edit here: a field of [`Tables`], its row type,
//! and its line in [`Tables::push`], [`Tables::settle`], [`RunFolder::read_tables`],
//! [`TableWriter`] and [`RunFolder::rewrite`] (all in this file).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use fow_variants::Color;

use crate::check::{read_checked, CheckAgainst};
use crate::config::{write_secret, TournamentConfig, LOGS_DIR};
use crate::error::RecordError;
use crate::files::{
    drop_partial_line, io_err, read_csv, rewrite_games, rewrite_rows, Appender, ClockRow, CsvRow,
    GameRow, GamesAppender, TimeRow, CLOCKS_FILE, CONFIG_FILE, GAMES_FILE, MATCH_FILE, TIMES_FILE,
};
use crate::kind::{check_kind, FolderKind};
use crate::lock::{fresh_folder, lock_existing, lock_folder, FolderLock};
use crate::record::GameRecord;
use crate::seed::SECRET_FILE;

/// The crosstable written beside a tournament's games (by fow-analysis).
pub const CROSSTABLE_FILE: &str = "crosstable.csv";
/// The ratings without times (equal across runs with the same seed).
pub const RATINGS_FILE: &str = "ratings.csv";
/// The ratings with average time per move (written when times are known).
pub const SUMMARY_FILE: &str = "summary.csv";
/// The likelihood of superiority of every pair of rated players (BayesElo's `los`).
pub const LOS_FILE: &str = "los.csv";

/// Every file a run's folder may hold, in the order a command lists what it wrote: the
/// settings, the per-game tables, then the tables and report the analysis writes at the
/// end (a tournament's crosstable and ratings, a match's `match.json`).
pub const FOLDER_FILES: [&str; 9] = [
    CONFIG_FILE,
    GAMES_FILE,
    TIMES_FILE,
    CLOCKS_FILE,
    CROSSTABLE_FILE,
    RATINGS_FILE,
    SUMMARY_FILE,
    LOS_FILE,
    MATCH_FILE,
];

/// The per-game tables of a run, one row per game in each: `games.csv` (the game,
/// deterministic), `times.csv` (wall times) and, under a clock, `clocks.csv` (each
/// side's time left after each move).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tables {
    /// `games.csv`.
    pub games: Vec<GameRow>,
    /// `times.csv`.
    pub times: Vec<TimeRow>,
    /// `clocks.csv` (empty without a clock).
    pub clocks: Vec<ClockRow>,
}

impl Tables {
    /// Adds the rows of a finished game: `row` (as written to `games.csv`) and those
    /// derived from its record.
    pub fn push(&mut self, row: GameRow, rec: &GameRecord) {
        self.times.push(TimeRow::new(row.id, rec));
        self.clocks.push(ClockRow::new(row.id, rec));
        self.games.push(row);
    }

    /// The tables of several folders (shards of one run) together, unsorted.
    pub fn join(parts: impl IntoIterator<Item = Tables>) -> Tables {
        let mut all = Tables::default();
        for p in parts {
            all.games.extend(p.games);
            all.times.extend(p.times);
            all.clocks.extend(p.clocks);
        }
        all
    }

    /// Keeps the games before `cutoff` (the end of the pair a stopping rule ended the
    /// run at, or the whole schedule), in schedule order, and in the other tables one row
    /// for each of them: a kill between two appends can leave a time row of a game that
    /// was then played again.
    pub fn settle(&mut self, cutoff: u64) {
        self.games.retain(|g| g.id < cutoff);
        self.games.sort_by_key(|g| g.id);
        let ids: HashSet<u64> = self.games.iter().map(|g| g.id).collect();
        settle_rows(&mut self.times, &ids, |t| t.id);
        settle_rows(&mut self.clocks, &ids, |t| t.id);
    }
}

/// Keeps one row per game of `ids`, in id order.
fn settle_rows<T>(rows: &mut Vec<T>, ids: &HashSet<u64>, id: impl Fn(&T) -> u64) {
    rows.retain(|r| ids.contains(&id(r)));
    rows.sort_by_key(&id);
    rows.dedup_by_key(|r| id(r));
}

/// Appends each finished game to a folder's per-game tables, crash-safely (each row
/// flushed as it is written; see [`RunFolder::writer`]).
pub struct TableWriter {
    games: GamesAppender,
    times: Appender,
    clocks: Option<Appender>,
    tagger: Option<crate::RowTagger>,
}

impl TableWriter {
    /// Tags `row` (when the run's rows are tagged) and appends it, and the rows derived
    /// from `rec`, to the folder's tables; returns the row as written.
    pub fn append(&mut self, mut row: GameRow, rec: &GameRecord) -> Result<GameRow, RecordError> {
        if let Some(t) = &self.tagger {
            row.tag = t.tag(&row);
        }
        self.games.append(&row)?;
        self.times.append(&TimeRow::new(row.id, rec))?;
        if let Some(c) = &mut self.clocks {
            c.append(&ClockRow::new(row.id, rec))?;
        }
        Ok(row)
    }
}

/// A results folder held by this process: made or opened, and locked until dropped (one
/// writer per folder, see [`lock_folder`]).
#[derive(Debug)]
pub struct RunFolder {
    lock: FolderLock,
}

impl RunFolder {
    /// A folder for a new run: `out` (made if needed), or a fresh
    /// `<area>/<UTC timestamp><suffix>` ([`stamped`]) that no other run has.
    pub fn create(out: Option<&Path>, area: &str, suffix: &str) -> Result<RunFolder, RecordError> {
        let lock = match out {
            Some(dir) => lock_folder(dir)?,
            None => fresh_folder(&stamped(area, suffix))?.1,
        };
        Ok(RunFolder { lock })
    }

    /// The existing folder `dir`, locked, to resume or read: of `kind` when given (a
    /// folder of another kind is refused, saying which command resumes it,
    /// [`check_kind`]). A missing folder is an error, as a missing file is.
    pub fn open(dir: &Path, kind: Option<FolderKind>) -> Result<RunFolder, RecordError> {
        let lock = lock_existing(dir)?;
        if let Some(kind) = kind {
            check_kind(dir, kind)?;
        }
        Ok(RunFolder { lock })
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        self.lock.dir()
    }

    /// The run's settings stored here, their tag checked (see [`TournamentConfig::load`]).
    pub fn settings(&self) -> Result<TournamentConfig, RecordError> {
        TournamentConfig::load(self.dir())
    }

    /// Whether the folder holds a run's settings.
    pub fn holds_run(&self) -> bool {
        self.dir().join(CONFIG_FILE).exists()
    }

    /// Begins a new run here: its secret key (readable by its owner only, when the seed
    /// is not public) and then its settings. A folder that holds a run already, or
    /// games, is refused.
    pub fn begin(&self, config: &TournamentConfig) -> Result<(), RecordError> {
        let dir = self.dir();
        if self.holds_run() {
            return Err(RecordError::folder(
                dir,
                "already holds a tournament: use --resume to finish it, or another --out"
                    .to_string(),
            ));
        }
        if dir.join(GAMES_FILE).exists() {
            return Err(RecordError::folder(
                dir,
                "already holds games; choose another folder".to_string(),
            ));
        }
        self.write_settings(config)
    }

    /// Writes the settings (and the key of a run without a public seed, unless it is
    /// there already).
    pub(crate) fn write_settings(&self, config: &TournamentConfig) -> Result<(), RecordError> {
        let key_path = self.dir().join(SECRET_FILE);
        if let (None, Some(key)) = (config.seed, &config.secret) {
            if !key_path.exists() || !self.holds_run() {
                write_secret(&key_path, key)?;
            }
        }
        config.save(self.dir())
    }

    /// A finished run's games written at once (`fow play`'s game, `fow import`'s
    /// games): the settings (see [`RunFolder::begin`]) and the tables, the rows tagged.
    pub fn save(&self, config: &TournamentConfig, mut tables: Tables) -> Result<(), RecordError> {
        self.begin(config)?;
        if let Some(t) = config.row_tagger() {
            for row in &mut tables.games {
                row.tag = t.tag(row);
            }
        }
        self.rewrite(config, &tables)
    }

    /// The per-game tables as stored, the games checked as every reader checks them
    /// and against `config`'s schedule (the first wrong row is the error). With
    /// `complete_lines`, a last line cut short by a kill (no newline at its end) is left
    /// out. Missing files read as empty.
    pub fn read_tables(
        &self,
        config: &TournamentConfig,
        complete_lines: bool,
    ) -> Result<Tables, RecordError> {
        let path = self.dir().join(GAMES_FILE);
        let games = match path.exists() {
            false => Vec::new(),
            true => read_checked(&path, CheckAgainst::Strict(config), complete_lines)?
                .1
                .into_iter()
                .map(|r| r.row.map(|(row, _)| row))
                .collect::<Result<_, _>>()?,
        };
        Ok(Tables {
            games,
            times: self.rows(TIMES_FILE, complete_lines)?,
            clocks: self.rows(CLOCKS_FILE, complete_lines)?,
        })
    }

    /// The rows of one of the folder's CSV tables (none when the file is missing).
    fn rows<T: CsvRow>(&self, name: &str, complete_lines: bool) -> Result<Vec<T>, RecordError> {
        let path = self.dir().join(name);
        if !path.exists() {
            return Ok(Vec::new());
        }
        read_csv::<T>(&path, complete_lines, name)?
            .0
            .into_iter()
            .map(|(_, r)| r)
            .collect()
    }

    /// Before a run continues here: the games already on disk, each checked ([`RunFolder::read_tables`]).
    /// A file that does not read is an error naming its file and line, and is left as
    /// it is; only then is a last line cut short by a kill dropped from each table, to be
    /// played again. A `games.csv` with only a header is emptied, to be written anew
    /// with this run's columns.
    pub fn resume_from(&self, config: &TournamentConfig) -> Result<Vec<GameRow>, RecordError> {
        let tables = self.read_tables(config, true)?;
        let path = self.dir().join(GAMES_FILE);
        if path.exists() && tables.games.is_empty() {
            std::fs::write(&path, b"").map_err(io_err(&path))?;
        }
        drop_partial_line(&path)?;
        Ok(tables.games)
    }

    /// The writer that appends each finished game to the tables of `config`'s run
    /// (`clocks.csv` only under a clock).
    pub fn writer(&self, config: &TournamentConfig) -> Result<TableWriter, RecordError> {
        let dir = self.dir();
        Ok(TableWriter {
            games: GamesAppender::open(&dir.join(GAMES_FILE), config.games_layout())?,
            times: Appender::open::<TimeRow>(&dir.join(TIMES_FILE))?,
            clocks: match config.tc {
                Some(_) => Some(Appender::open::<ClockRow>(&dir.join(CLOCKS_FILE))?),
                None => None,
            },
            tagger: config.row_tagger(),
        })
    }

    /// Rewrites the tables atomically (each through a temporary renamed into place):
    /// `games.csv` with the columns of `config`, `times.csv` when there are games with
    /// times or the file is there, `clocks.csv` under a clock.
    pub fn rewrite(&self, config: &TournamentConfig, tables: &Tables) -> Result<(), RecordError> {
        let dir = self.dir();
        rewrite_games(&dir.join(GAMES_FILE), &tables.games, config.games_layout())?;
        let times = dir.join(TIMES_FILE);
        if !tables.times.is_empty() || times.exists() {
            rewrite_rows(&times, &tables.times)?;
        }
        if config.tc.is_some() {
            rewrite_rows(&dir.join(CLOCKS_FILE), &tables.clocks)?;
        }
        Ok(())
    }

    /// Where the stderr of the program playing `side` in game `id` is logged.
    pub fn log_file(&self, id: u64, side: Color) -> PathBuf {
        let side = match side {
            Color::White => "white",
            Color::Black => "black",
        };
        self.dir()
            .join(LOGS_DIR)
            .join(format!("{id}-{side}.stderr"))
    }

    /// The files of [`FOLDER_FILES`] the folder holds ([`folder_files`]).
    pub fn files(&self) -> Vec<PathBuf> {
        folder_files(self.dir())
    }
}

/// The files of [`FOLDER_FILES`] that the folder `dir` holds, as paths, in that order.
pub fn folder_files(dir: &Path) -> Vec<PathBuf> {
    FOLDER_FILES
        .iter()
        .map(|f| dir.join(f))
        .filter(|p| p.exists())
        .collect()
}

/// `<area>/<YYYYmmdd-HHMMSS><suffix>` in UTC (`results/runs/20261126-040501-match`): the
/// default folder of a new run.
pub fn stamped(area: &str, suffix: &str) -> PathBuf {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let [y, m, d, h, min, s] = utc(secs);
    Path::new(area).join(format!("{y:04}{m:02}{d:02}-{h:02}{min:02}{s:02}{suffix}"))
}

/// Seconds since 1970-01-01 00:00 UTC as `[year, month, day, hour, minute, second]` in
/// UTC (the proleptic Gregorian calendar; Howard Hinnant's civil-from-days).
///
/// ```
/// assert_eq!(fow_records::utc(951_827_640), [2000, 2, 29, 12, 34, 0]);
/// ```
pub fn utc(secs: u64) -> [u64; 6] {
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    [
        y as u64,
        m as u64,
        d as u64,
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::RuleSet;

    fn row(id: u64) -> GameRow {
        GameRow {
            id,
            ..GameRow::default()
        }
    }

    fn time(id: u64, white_ms: f64) -> TimeRow {
        TimeRow {
            id,
            white_ms,
            ..TimeRow::default()
        }
    }

    #[test]
    fn settled_tables_hold_one_row_per_kept_game_in_order() {
        let mut t = Tables {
            games: vec![row(3), row(0), row(5), row(1)],
            // A kill between two appends: game 1's time twice, and one of a game
            // that is not in games.csv.
            times: vec![
                time(1, 1.0),
                time(0, 0.0),
                time(1, 2.0),
                time(2, 0.0),
                time(3, 0.0),
            ],
            clocks: Vec::new(),
        };
        t.settle(4);
        assert_eq!(t.games.iter().map(|g| g.id).collect::<Vec<_>>(), [0, 1, 3]);
        assert_eq!(
            t.times
                .iter()
                .map(|r| (r.id, r.white_ms))
                .collect::<Vec<_>>(),
            [(0, 0.0), (1, 1.0), (3, 0.0)]
        );
        let joined = Tables::join([t.clone(), Tables::default(), t.clone()]);
        assert_eq!(joined.games.len(), 6);
    }

    #[test]
    fn a_folder_is_begun_once_and_lists_its_files_in_order() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("run");
        let config = TournamentConfig::new(
            vec!["RandomMove".into(), "CaptureLargest".into()],
            1,
            RuleSet::thesis(),
            None,
            None,
        )
        .unwrap();
        let folder = RunFolder::create(Some(&dir), "", "").unwrap();
        assert!(!folder.holds_run());
        folder.begin(&config).unwrap();
        assert!(folder.holds_run() && dir.join(SECRET_FILE).is_file());
        assert_eq!(folder.settings().unwrap(), {
            let mut c = config.clone();
            c.tagged = true;
            c
        });
        let e = folder.begin(&config).unwrap_err().to_string();
        assert!(e.contains("already holds a tournament"), "{e}");
        // A second writer is refused while this one holds the folder.
        let e = RunFolder::open(&dir, None).unwrap_err().to_string();
        assert!(e.contains("in use by another fow command"), "{e}");
        folder.rewrite(&config, &Tables::default()).unwrap();
        std::fs::write(dir.join(MATCH_FILE), "{}").unwrap();
        assert_eq!(
            folder.files(),
            [CONFIG_FILE, GAMES_FILE, MATCH_FILE].map(|f| dir.join(f))
        );
        assert_eq!(
            folder.log_file(7, Color::Black),
            dir.join(LOGS_DIR).join("7-black.stderr")
        );
    }

    #[test]
    fn fresh_folders_are_stamped_and_never_shared() {
        let tmp = tempfile::tempdir().unwrap();
        let area = tmp.path().join("runs");
        let area = area.to_str().unwrap();
        let a = RunFolder::create(None, area, "-match").unwrap();
        let b = RunFolder::create(None, area, "-match").unwrap();
        assert_ne!(a.dir(), b.dir());
        let name = a.dir().file_name().unwrap().to_str().unwrap().to_string();
        // YYYYmmdd-HHMMSS-match
        assert_eq!(name.len(), 21, "{name}");
        assert!(name.ends_with("-match") && name[..8].chars().all(|c| c.is_ascii_digit()));
    }
}
