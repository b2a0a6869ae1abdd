//! The round robin: a schedule of games with derived seeds, played in parallel, each
//! written to disk as it ends, resumable after a kill.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fow_players::{Budget, PlayerSpec};
use fow_records::seed::{Seeding, SECRET_FILE};
use fow_records::{
    check_kind, drop_partial_line, lock_folder, read_checked, read_csv, read_rows, rewrite_games,
    rewrite_rows, write_secret, Appender, ClockRow, FolderKind, FolderLock, GameRecord, GameRow,
    GamesAppender, Pairing, RecordError, Schedule, TimeRow, TournamentConfig, CLOCKS_FILE,
    CONFIG_FILE, GAMES_FILE, LOGS_DIR, TIMES_FILE,
};
use fow_variants::Position;

use crate::play::{play_game_seeded, GameOptions};

/// What a finished (or resumed and finished) tournament holds.
#[derive(Clone, Debug)]
pub struct TournamentReport {
    /// The settings.
    pub config: TournamentConfig,
    /// Every game, in schedule order.
    pub games: Vec<GameRow>,
    /// Wall times, in schedule order.
    pub times: Vec<TimeRow>,
    /// Games played by this run (the rest were on disk already).
    pub played_now: usize,
    /// Wall time of this run.
    pub elapsed: Duration,
    /// A stopping rule ended the schedule early (see [`Tournament::run_until`]).
    pub stopped: bool,
}

/// Runs tournaments in a folder.
///
/// A `Tournament` holds its folder's lock (see [`lock_folder`]) from
/// [`Tournament::create`] or [`Tournament::open`] until it is dropped: one writer per
/// folder.
pub struct Tournament {
    config: TournamentConfig,
    dir: PathBuf,
    _lock: FolderLock,
}

impl Tournament {
    /// A new tournament in `dir`, which must not hold one already.
    /// A secret key is written to [`SECRET_FILE`] (readable by its owner only) before
    /// `tournament.json`.
    pub fn create(config: TournamentConfig, dir: &Path) -> Result<Tournament, RecordError> {
        let config = config.validated()?;
        // Before the folder is made: a refused run leaves nothing behind.
        keep_out(&config.players, dir)?;
        Tournament::start(config, lock_folder(dir)?)
    }

    /// [`Tournament::create`] in a folder already locked (see [`fow_records::fresh_folder`]).
    pub fn create_locked(
        config: TournamentConfig,
        lock: FolderLock,
    ) -> Result<Tournament, RecordError> {
        let config = config.validated()?;
        keep_out(&config.players, lock.dir())?;
        Tournament::start(config, lock)
    }

    /// Writes the new run's key and settings in the locked folder (`config` validated,
    /// its players checked against the folder).
    fn start(config: TournamentConfig, lock: FolderLock) -> Result<Tournament, RecordError> {
        let dir = lock.dir().to_path_buf();
        let cfg_path = dir.join(CONFIG_FILE);
        if cfg_path.exists() {
            return Err(RecordError::Config(format!(
                "{} already holds a tournament: use --resume to finish it, or another --out",
                dir.display()
            )));
        }
        if let (None, Some(key)) = (config.seed, &config.secret) {
            write_secret(&dir.join(SECRET_FILE), key)?;
        }
        config.save(&dir)?;
        Ok(Tournament {
            config,
            dir,
            _lock: lock,
        })
    }

    /// The run of `kind` (a tournament or a match) stored in `dir`, to be resumed: a
    /// folder of another kind is refused, saying which command resumes it
    /// ([`check_kind`]).
    pub fn resume(dir: &Path, kind: FolderKind) -> Result<Tournament, RecordError> {
        check_kind(dir, kind)?;
        Tournament::open(dir)
    }

    /// The run stored in `dir`, to be resumed, whatever its kind (see
    /// [`Tournament::resume`]).
    pub fn open(dir: &Path) -> Result<Tournament, RecordError> {
        let cfg_path = dir.join(CONFIG_FILE);
        if !cfg_path.is_file() {
            return Err(RecordError::Config(format!(
                "{} holds no tournament to resume (no {CONFIG_FILE})",
                dir.display()
            )));
        }
        let lock = lock_folder(dir)?;
        let config = TournamentConfig::load(dir)?.validated()?;
        keep_out(&config.players, dir)?;
        Ok(Tournament {
            config,
            dir: dir.to_path_buf(),
            _lock: lock,
        })
    }

    /// The settings.
    pub fn config(&self) -> &TournamentConfig {
        &self.config
    }

    /// The games already on disk, each checked like every reader checks it and against
    /// this tournament's schedule. A file that does not read is an error naming its file
    /// and line, and is left as it is; only then is a last line cut short by a kill (no
    /// newline at its end) dropped, to be played again. `times.csv` is checked the same
    /// way before anything is appended to it.
    fn done(&self) -> Result<Vec<GameRow>, RecordError> {
        let path = self.dir.join(GAMES_FILE);
        let times = self.dir.join(TIMES_FILE);
        if times.exists() {
            read_csv::<TimeRow>(&times, true, TIMES_FILE)?
                .0
                .into_iter()
                .try_for_each(|(_, r)| r.map(drop))?;
        }
        if !path.exists() {
            return Ok(Vec::new());
        }
        let rows = self.read_games(&path, true)?;
        if rows.is_empty() {
            // Only a header (or part of a row): written anew, with this run's columns.
            std::fs::write(&path, b"").map_err(fow_records::io_err(&path))?;
        }
        drop_partial_line(&path)?;
        Ok(rows)
    }

    /// The rows of this tournament's `games.csv` (`complete_lines`: without a last line
    /// cut short), checked against its schedule; the first wrong one is the error.
    fn read_games(&self, path: &Path, complete_lines: bool) -> Result<Vec<GameRow>, RecordError> {
        let (_, rows) = read_checked(path, Schedule::Strict(&self.config), complete_lines)?;
        rows.into_iter()
            .map(|r| r.row.map(|(row, _)| row))
            .collect()
    }

    /// Plays every game not yet on disk with `jobs` threads, calling `on_game` after each
    /// is written, then rewrites the files in schedule order.
    pub fn run(
        &self,
        jobs: usize,
        move_time_limit: Option<Duration>,
        on_game: &(dyn Fn(&GameRecord, usize, usize) + Sync),
    ) -> Result<TournamentReport, RecordError> {
        self.run_until(jobs, move_time_limit, on_game, None)
    }

    /// [`Tournament::run`] with a stopping rule for a paired schedule: `stop` is called
    /// with each pair's two games in schedule order (pair 0 first, whatever order the
    /// games end in, those already on disk included) and stops the run at the first pair
    /// for which it answers `true`. Games after that pair are not started, and those
    /// already played are dropped from the files, so the games kept and the verdict do
    /// not depend on `jobs` (or on a kill and `--resume`).
    pub fn run_until(
        &self,
        jobs: usize,
        move_time_limit: Option<Duration>,
        on_game: &(dyn Fn(&GameRecord, usize, usize) + Sync),
        stop: Option<&StopRule<'_>>,
    ) -> Result<TournamentReport, RecordError> {
        let started = Instant::now();
        let schedule = self.config.games_to_play();
        let done = self.done()?;
        // A shard plays all its pairs: the stopping rule needs every pair in order, which
        // `fow merge` applies to the joined shards.
        let stop = stop.filter(|_| self.config.paired && self.config.shard.is_none());
        // Game ids run over the whole run's schedule, whatever the shard.
        let full = self.config.game_count();
        let progress = Mutex::new(PairProgress::new(full));
        if let Some(stop) = stop {
            let mut p = progress.lock().unwrap_or_else(|e| e.into_inner());
            for r in &done {
                p.add(r.clone(), stop);
            }
        }
        let cutoff = AtomicU64::new(progress.lock().unwrap_or_else(|e| e.into_inner()).cutoff);
        let done_ids: HashSet<u64> = done.iter().map(|r| r.id).collect();
        let pending: Vec<Pairing> = schedule
            .iter()
            .copied()
            .filter(|p| !done_ids.contains(&p.id) && p.id < cutoff.load(Ordering::Relaxed))
            .collect();
        if self.config.seeding == Seeding::Legacy && !pending.is_empty() {
            return Err(RecordError::Config(format!(
                "{} was written by an older fow whose game seeds a program player could predict; its {} games read and check as before, but its {} missing games are not played with those seeds: start a new run",
                self.dir.display(),
                done.len(),
                pending.len()
            )));
        }
        let games_path = self.dir.join(GAMES_FILE);
        let times_path = self.dir.join(TIMES_FILE);
        let openings: Vec<Position> = match &self.config.openings {
            Some(o) => o
                .parsed(&self.config.rules)
                .map_err(|(_, m)| RecordError::Config(format!("openings: {m}")))?,
            None => Vec::new(),
        };
        let layout = self.config.games_layout();
        let tagger = self.config.row_tagger();
        let writers = Mutex::new((
            GamesAppender::open(&games_path, layout)?,
            Appender::open::<TimeRow>(&times_path)?,
        ));
        let specs: Vec<PlayerSpec> = self
            .config
            .players
            .iter()
            .map(|p| p.parse())
            .collect::<Result<_, _>>()?;
        let opts = GameOptions {
            rules: self.config.rules,
            budget: Budget {
                nodes: self.config.nodes,
                time: None,
                clock: None,
            },
            move_time_limit,
            start: None,
            clock: self.config.tc,
        };
        let clocks = match self.config.tc {
            Some(_) => Some(Mutex::new(Appender::open::<ClockRow>(
                &self.dir.join(CLOCKS_FILE),
            )?)),
            None => None,
        };
        let next = AtomicUsize::new(0);
        let finished = AtomicUsize::new(done.len());
        let failed = AtomicBool::new(false);
        let error: Mutex<Option<RecordError>> = Mutex::new(None);
        let total = schedule.len();
        let worker = || {
            while !failed.load(Ordering::Relaxed) {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(p) = pending.get(k) else { break };
                if p.id >= cutoff.load(Ordering::Relaxed) {
                    break;
                }
                let result = (|| -> Result<GameRecord, RecordError> {
                    let mut w = specs[p.white].build()?;
                    let mut b = specs[p.black].build()?;
                    let logs = self.dir.join(LOGS_DIR);
                    w.log_to(&logs.join(format!("{}-white.stderr", p.id)));
                    b.log_to(&logs.join(format!("{}-black.stderr", p.id)));
                    w.hide(&self.dir);
                    b.hide(&self.dir);
                    let opened;
                    let game_opts = match p.opening {
                        Some(i) => {
                            opened = GameOptions {
                                start: Some(openings[i].clone()),
                                ..opts.clone()
                            };
                            &opened
                        }
                        None => &opts,
                    };
                    let rec = play_game_seeded(
                        w.as_mut(),
                        b.as_mut(),
                        &self.config.players[p.white],
                        &self.config.players[p.black],
                        p.seed,
                        p.player_seeds,
                        game_opts,
                    );
                    let mut row = GameRow::new(p.id, p.round, &rec);
                    if let (Some(o), Some(i)) = (&self.config.openings, p.opening) {
                        row.start = o.positions[i].clone();
                    }
                    if let Some(t) = &tagger {
                        row.tag = t.tag(&row);
                    }
                    let mut guard = writers.lock().unwrap_or_else(|e| e.into_inner());
                    guard.0.append(&row)?;
                    guard.1.append(&TimeRow::new(p.id, &rec))?;
                    if let Some(c) = &clocks {
                        let mut c = c.lock().unwrap_or_else(|e| e.into_inner());
                        c.append(&ClockRow::new(p.id, &rec))?;
                    }
                    drop(guard);
                    if let Some(stop) = stop {
                        let mut pr = progress.lock().unwrap_or_else(|e| e.into_inner());
                        pr.add(row, stop);
                        cutoff.store(pr.cutoff, Ordering::Relaxed);
                    }
                    Ok(rec)
                })();
                match result {
                    Ok(rec) => {
                        let n = finished.fetch_add(1, Ordering::Relaxed) + 1;
                        on_game(&rec, n, total);
                    }
                    Err(e) => {
                        failed.store(true, Ordering::Relaxed);
                        error
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .get_or_insert(e);
                    }
                }
            }
        };
        let jobs = jobs.max(1).min(pending.len().max(1));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .map_err(|e| RecordError::Config(format!("cannot start {jobs} threads: {e}")))?;
        pool.scope(|s| {
            for _ in 0..jobs {
                s.spawn(|_| worker());
            }
        });
        drop(writers);
        if let Some(e) = error.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(e);
        }
        let cutoff = cutoff.into_inner();
        let stopped = cutoff < full;
        // Games played past the stop are dropped: they do not count as played.
        let played = pending.iter().filter(|p| p.id < cutoff).count();
        self.finish(played, started, cutoff, stopped)
    }

    /// Rewrites `games.csv` and `times.csv` in schedule order and reports.
    /// Games from `cutoff` on (after the pair a stopping rule ended the run at) are
    /// dropped.
    fn finish(
        &self,
        played_now: usize,
        started: Instant,
        cutoff: u64,
        stopped: bool,
    ) -> Result<TournamentReport, RecordError> {
        let games_path = self.dir.join(GAMES_FILE);
        let times_path = self.dir.join(TIMES_FILE);
        let mut games = self.read_games(&games_path, false)?;
        games.retain(|r| r.id < cutoff);
        games.sort_by_key(|r| r.id);
        rewrite_games(&games_path, &games, self.config.games_layout())?;
        let mut times: Vec<TimeRow> = read_rows(&times_path)?;
        // A kill between the two appends can leave a time row for a game that was then
        // replayed; keep one row per finished game.
        let ids: HashSet<u64> = games.iter().map(|g| g.id).collect();
        times.retain(|t| ids.contains(&t.id));
        times.sort_by_key(|t| t.id);
        times.dedup_by_key(|t| t.id);
        rewrite_rows(&times_path, &times)?;
        let clocks_path = self.dir.join(CLOCKS_FILE);
        if clocks_path.exists() {
            let mut clocks: Vec<ClockRow> = read_rows(&clocks_path)?;
            clocks.retain(|t| ids.contains(&t.id));
            clocks.sort_by_key(|t| t.id);
            clocks.dedup_by_key(|t| t.id);
            rewrite_rows(&clocks_path, &clocks)?;
        }
        Ok(TournamentReport {
            config: self.config.clone(),
            games,
            times,
            played_now,
            elapsed: started.elapsed(),
            stopped,
        })
    }
}

/// A stopping rule of a paired schedule: given each pair's two games in schedule order,
/// `true` ends the schedule after that pair (see [`Tournament::run_until`]).
pub type StopRule<'a> = dyn Fn(&GameRow, &GameRow) -> bool + Sync + 'a;

/// The pairs of a paired schedule finished so far, fed to a stopping rule in schedule
/// order.
struct PairProgress {
    /// Games finished out of order, waiting for the ones before them.
    waiting: std::collections::BTreeMap<u64, GameRow>,
    /// The id of the next game in order.
    next: u64,
    /// The first game of the current pair, once it is in order.
    first: Option<GameRow>,
    /// Where the schedule ends: its length, or the end of the pair that stopped it.
    cutoff: u64,
}

impl PairProgress {
    fn new(len: u64) -> PairProgress {
        PairProgress {
            waiting: Default::default(),
            next: 0,
            first: None,
            cutoff: len,
        }
    }

    /// Takes a finished game and feeds every pair now complete in order to `stop`.
    fn add(&mut self, row: GameRow, stop: &StopRule<'_>) {
        self.waiting.insert(row.id, row);
        while self.next < self.cutoff {
            let Some(row) = self.waiting.remove(&self.next) else {
                break;
            };
            self.next += 1;
            match self.first.take() {
                None => self.first = Some(row),
                Some(first) => {
                    if stop(&first, &row) {
                        self.cutoff = self.next;
                    }
                }
            }
        }
    }
}

/// Refuses a player whose sandbox would show it the results folder `dir` (see
/// [`fow_players::external::check_hidden`]), before any game is played.
pub(crate) fn keep_out(players: &[String], dir: &Path) -> Result<(), RecordError> {
    for p in players {
        fow_players::external::check_hidden(&p.parse()?, &[dir.to_path_buf()])?;
    }
    Ok(())
}
