//! The round robin: a schedule of games with derived seeds, played in parallel, each
//! written to disk as it ends, resumable after a kill.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fow_players::{Budget, PlayerSpec};
use fow_variants::{Position, RuleSet};
use serde::{Deserialize, Serialize};

use crate::check::{read_checked, Schedule};
use crate::error::ArenaError;
use crate::files::{
    drop_partial_line, io_err, read_csv, read_rows, rewrite_games, rewrite_rows, write_atomic,
    Appender, ClockRow, GameRow, GamesAppender, TimeRow, CLOCKS_FILE, CONFIG_FILE, GAMES_FILE,
    TIMES_FILE,
};
use crate::lock::{lock_folder, FolderLock};
use crate::openings::Openings;
use crate::play::{play_game_seeded, GameOptions};
use crate::record::GameRecord;
use crate::seed::{game_seed, legacy_game_seed, player_seeds, SeedKey, Seeding, SECRET_FILE};
use crate::shard::Shard;
use crate::time_control::TimeControl;

/// The folder of a tournament's player logs: `logs/<game id>-<white|black>.stderr` holds
/// what an external program wrote to stderr in that game (only programs that wrote
/// something get a file).
pub const LOGS_DIR: &str = "logs";

/// The settings that define a tournament (stored as `tournament.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentConfig {
    /// Player specs, in table order.
    pub players: Vec<String>,
    /// Games each ordered pair plays (so each pair meets this often with each colour).
    pub games_per_pair: u32,
    /// The rules.
    pub rules: RuleSet,
    /// The master seed, public (`None`: the run's key is a secret, kept in the folder's
    /// [`SECRET_FILE`] and in [`TournamentConfig::secret`]).
    pub seed: Option<u64>,
    /// The node budget per move given to every player (`None`: each bot's default).
    pub nodes: Option<u64>,
    /// How game seeds derive from the key (absent in folders written before keyed seeds).
    #[serde(default)]
    pub seeding: Seeding,
    /// The secret key of a run without a public seed (never written to
    /// `tournament.json`: [`Tournament::create`] writes it to [`SECRET_FILE`]).
    #[serde(skip)]
    pub secret: Option<SeedKey>,
    /// Who meets whom: `false`, every ordered pair of players (a round robin); `true`,
    /// the first player against each of the others, not the others among themselves (a
    /// gauntlet, as `fow match` and `fow tournament --gauntlet` play). In a gauntlet the
    /// first player may also be among the others (self-play).
    #[serde(default, skip_serializing_if = "is_false")]
    pub gauntlet: bool,
    /// Games are played in pairs: for each round and each meeting, two games in a row
    /// with the same game seed and colours swapped, each player keeping its own seed in
    /// both (see [`crate::seed::side_seeds`]), so that the luck of a game seed cancels
    /// within a pair (fastchess's and cutechess's game pairs).
    #[serde(default, skip_serializing_if = "is_false")]
    pub paired: bool,
    /// The stopping rule of a match (`fow match --sprt`), as text; the arena only stores
    /// it, the caller of [`Tournament::run_until`] applies it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<String>,
    /// A clock per side (`None`: node budgets only). Games under a clock depend on the
    /// machine's speed: not deterministic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<TimeControl>,
    /// Start positions by round (`None`: every game starts from the standard position).
    /// With openings, `games.csv` has a `start` column holding each game's start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<Openings>,
    /// This folder plays one shard of the run (`None`: all of it); see [`Shard`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The most games one tournament schedules: its schedule, its rows and its tables stay in
/// memory (a game row with its moves takes about a kilobyte).
pub const MAX_GAMES: u64 = 10_000_000;

impl TournamentConfig {
    /// Settings with keyed seeds: `seed` is the public master seed, or `None` for a fresh
    /// secret key from the operating system.
    pub fn new(
        players: Vec<String>,
        games_per_pair: u32,
        rules: RuleSet,
        seed: Option<u64>,
        nodes: Option<u64>,
    ) -> Result<TournamentConfig, ArenaError> {
        let secret = match seed {
            Some(_) => None,
            None => Some(SeedKey::random().map_err(ArenaError::Config)?),
        };
        Ok(TournamentConfig {
            players,
            games_per_pair,
            rules,
            seed,
            nodes,
            seeding: Seeding::Keyed,
            secret,
            gauntlet: false,
            paired: false,
            sprt: None,
            tc: None,
            openings: None,
            shard: None,
        })
    }

    /// The settings stored in `dir` (`tournament.json`, and the secret key beside it
    /// for a run without a public seed), as stored: [`TournamentConfig::validated`]
    /// checks that their players can be built.
    pub fn load(dir: &Path) -> Result<TournamentConfig, ArenaError> {
        let cfg_path = dir.join(CONFIG_FILE);
        let text = fs::read_to_string(&cfg_path).map_err(io_err(&cfg_path))?;
        let config: TournamentConfig =
            serde_json::from_str(&text).map_err(|e| ArenaError::Format {
                path: cfg_path.clone(),
                line: e.line() as u64,
                message: e.to_string(),
            })?;
        config.check_openings(&cfg_path, &text)?;
        config.with_secret(dir)
    }

    /// Checks the stored openings (a person may have edited `tournament.json`, stored
    /// at `path` with `text`): the error names the file and the line of the first
    /// position that does not read or cannot start a game under the rules.
    pub(crate) fn check_openings(&self, path: &Path, text: &str) -> Result<(), ArenaError> {
        let Some(o) = &self.openings else {
            return Ok(());
        };
        o.parsed(&self.rules).map_err(|(i, message)| {
            let line = o
                .positions
                .get(i)
                .and_then(|fen| {
                    let needle = serde_json::to_string(fen).ok()?;
                    text.lines().position(|l| l.contains(&needle))
                })
                .map_or(1, |k| k + 1);
            ArenaError::Format {
                path: path.to_path_buf(),
                line: line as u64,
                message,
            }
        })?;
        Ok(())
    }

    /// Reads the secret key from `dir` when the seed is secret (settings read from
    /// `dir/tournament.json`); unchanged otherwise.
    pub(crate) fn with_secret(mut self, dir: &Path) -> Result<TournamentConfig, ArenaError> {
        let cfg_path = dir.join(CONFIG_FILE);
        if self.seed.is_none() {
            let key_path = dir.join(SECRET_FILE);
            let text = match fs::read_to_string(&key_path) {
                Ok(t) => t,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    return Err(ArenaError::Config(format!(
                        "{}: the run's seed is secret, but its key ({}) is missing",
                        cfg_path.display(),
                        key_path.display()
                    )))
                }
                Err(e) => return Err(io_err(&key_path)(e)),
            };
            self.secret = Some(SeedKey::from_hex(&text).map_err(|m| ArenaError::Format {
                path: key_path.clone(),
                line: 1,
                message: m,
            })?);
        }
        Ok(self)
    }

    /// The key game seeds derive from (`None`: secret and not loaded).
    fn key(&self) -> Option<SeedKey> {
        match (self.seed, &self.secret) {
            (_, Some(k)) => Some(*k),
            (Some(s), None) => Some(SeedKey::public(s)),
            (None, None) => None,
        }
    }

    /// The seed of game `round` between players `white` and `black` (indices); 0, which
    /// no game of fow has, when the key is secret and was not loaded (settings read
    /// without [`TournamentConfig::load`]).
    fn seed_of(&self, white: usize, black: usize, round: u32) -> u64 {
        let (w, b) = (&self.players[white], &self.players[black]);
        match (self.seeding, self.key()) {
            (Seeding::Keyed, Some(key)) => game_seed(&key, w, b, round),
            (Seeding::Keyed, None) => 0,
            (Seeding::Legacy, _) => legacy_game_seed(self.seed.unwrap_or(0), w, b, round),
        }
    }

    /// Checks the settings and normalises the specs (each must build).
    /// Unknown or malformed specs are reported before the player count, so that
    /// `--players Foo` says that `Foo` is unknown.
    pub fn validated(mut self) -> Result<TournamentConfig, ArenaError> {
        for p in &mut self.players {
            let spec: PlayerSpec = p.parse()?;
            spec.build()?;
            *p = spec.to_string();
        }
        if self.players.len() < 2 {
            return Err(ArenaError::Config(
                "a tournament needs at least two players".into(),
            ));
        }
        if self.games_per_pair == 0 {
            return Err(ArenaError::Config("--games must be at least 1".into()));
        }
        let n = self.players.len() as u64;
        let total = self.game_count();
        if total > MAX_GAMES {
            return Err(ArenaError::Config(format!(
                "{total} games ({n} players, {} per ordered pair) is more than one tournament holds ({MAX_GAMES}); use fewer --games or players",
                self.games_per_pair
            )));
        }
        match (self.seeding, self.seed, &self.secret) {
            (Seeding::Legacy, None, _) => {
                return Err(ArenaError::Config(
                    "a tournament of the legacy seeding needs its public seed".into(),
                ))
            }
            (Seeding::Keyed, None, None) => {
                return Err(ArenaError::Config(
                    "a tournament without a public seed needs its secret key".into(),
                ))
            }
            _ => {}
        }
        // In a gauntlet the first player may meet itself; no one else is listed twice.
        let mut seen = HashSet::new();
        let others = if self.gauntlet {
            &self.players[1..]
        } else {
            &self.players[..]
        };
        for p in others {
            if !seen.insert(p) {
                return Err(ArenaError::Config(format!(
                    "player '{p}' is listed twice (give the second other parameters)"
                )));
            }
        }
        if let Some(s) = self.shard {
            if s.count == 0 || s.index == 0 || s.index > s.count {
                return Err(ArenaError::Config(format!(
                    "shard {}/{} does not exist: a shard is I/N with 1 <= I <= N",
                    s.index, s.count
                )));
            }
        }
        if let Some(o) = &self.openings {
            o.parsed(&self.rules)
                .map_err(|(_, m)| ArenaError::Config(format!("openings: {m}")))?;
        }
        if self.sprt.is_some() && !(self.paired && self.gauntlet && self.players.len() == 2) {
            return Err(ArenaError::Config(
                "an SPRT needs a paired match of two players".into(),
            ));
        }
        Ok(self)
    }

    /// The players' meetings, each once (first index lower): every pair of players, or
    /// in a gauntlet the first player with each other one.
    fn meetings(&self) -> Vec<(usize, usize)> {
        let n = self.players.len();
        if self.gauntlet {
            (1..n).map(|j| (0, j)).collect()
        } else {
            (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect()
        }
    }

    /// How many games the schedule holds: each meeting, each colour, each round.
    pub fn game_count(&self) -> u64 {
        let n = self.players.len() as u64;
        let meetings = if self.gauntlet {
            n.saturating_sub(1)
        } else {
            n * n.saturating_sub(1) / 2
        };
        2u64.saturating_mul(meetings)
            .saturating_mul(u64::from(self.games_per_pair))
    }

    /// The games this folder plays: the [`TournamentConfig::schedule`], or the games of
    /// its shard.
    pub fn games_to_play(&self) -> Vec<Pairing> {
        let mut v = self.schedule();
        if let Some(s) = self.shard {
            v.retain(|p| s.holds(p.id, self.paired));
        }
        v
    }

    /// Every game of the run (of every shard). Unpaired: for each round, every ordered pair of players that meet
    /// (White by White's index, then Black's). Paired: for each round and meeting `(a,
    /// b)`, `a` with White then `b` with White, the two games sharing their game seed.
    ///
    /// With [`TournamentConfig::openings`], every game of a round starts from the
    /// round's opening ([`Openings::index_of_round`]).
    pub fn schedule(&self) -> Vec<Pairing> {
        let meetings = self.meetings();
        let mut v = Vec::with_capacity(self.game_count() as usize);
        let sequence = self
            .openings
            .as_ref()
            .map(|o| o.sequence(self.key().as_ref()));
        let opening_of = |round: u32| {
            sequence
                .as_ref()
                .map(|s| Openings::index_of_round(s, round))
        };
        let push = |v: &mut Vec<Pairing>, round, white, black, seed, player_seeds| {
            v.push(Pairing {
                id: v.len() as u64,
                round,
                white,
                black,
                seed,
                player_seeds,
                opening: opening_of(round),
            })
        };
        for round in 0..self.games_per_pair {
            if self.paired {
                for &(a, b) in &meetings {
                    let seed = self.seed_of(a, b, round);
                    let [sa, sb] = crate::seed::side_seeds(seed);
                    push(&mut v, round, a, b, seed, [sa, sb]);
                    push(&mut v, round, b, a, seed, [sb, sa]);
                }
                continue;
            }
            let n = self.players.len();
            for white in 0..n {
                for black in 0..n {
                    let (lo, hi) = (white.min(black), white.max(black));
                    if white != black && meetings.binary_search(&(lo, hi)).is_ok() {
                        let seed = self.seed_of(white, black, round);
                        push(&mut v, round, white, black, seed, player_seeds(seed));
                    }
                }
            }
        }
        v
    }
}

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// Its number.
    pub id: u64,
    /// Which meeting of this ordered pair.
    pub round: u32,
    /// White's index in the player list.
    pub white: usize,
    /// Black's index.
    pub black: usize,
    /// Its seed.
    pub seed: u64,
    /// The seeds handed to White's and Black's players.
    pub player_seeds: [u64; 2],
    /// Its start position, as an index into the openings' positions (`None`: the
    /// standard start).
    pub opening: Option<usize>,
}

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
    pub fn create(config: TournamentConfig, dir: &Path) -> Result<Tournament, ArenaError> {
        let config = config.validated()?;
        Tournament::create_locked(config, lock_folder(dir)?)
    }

    /// [`Tournament::create`] in a folder already locked (see [`crate::fresh_folder`]).
    pub fn create_locked(
        config: TournamentConfig,
        lock: FolderLock,
    ) -> Result<Tournament, ArenaError> {
        let config = config.validated()?;
        let dir = lock.dir().to_path_buf();
        let cfg_path = dir.join(CONFIG_FILE);
        if cfg_path.exists() {
            return Err(ArenaError::Config(format!(
                "{} already holds a tournament: use --resume to finish it, or another --out",
                dir.display()
            )));
        }
        if let (None, Some(key)) = (config.seed, &config.secret) {
            write_secret(&dir.join(SECRET_FILE), key)?;
        }
        let json = serde_json::to_string_pretty(&config).expect("config serializes");
        write_atomic(&cfg_path, (json + "\n").as_bytes())?;
        Ok(Tournament {
            config,
            dir,
            _lock: lock,
        })
    }

    /// The tournament stored in `dir`, to be resumed.
    pub fn open(dir: &Path) -> Result<Tournament, ArenaError> {
        let cfg_path = dir.join(CONFIG_FILE);
        if !cfg_path.is_file() {
            return Err(ArenaError::Config(format!(
                "{} holds no tournament to resume (no {CONFIG_FILE})",
                dir.display()
            )));
        }
        let lock = lock_folder(dir)?;
        Ok(Tournament {
            config: TournamentConfig::load(dir)?.validated()?,
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
    fn done(&self) -> Result<Vec<GameRow>, ArenaError> {
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
        drop_partial_line(&path)?;
        Ok(rows)
    }

    /// The rows of this tournament's `games.csv` (`complete_lines`: without a last line
    /// cut short), checked against its schedule; the first wrong one is the error.
    fn read_games(&self, path: &Path, complete_lines: bool) -> Result<Vec<GameRow>, ArenaError> {
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
    ) -> Result<TournamentReport, ArenaError> {
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
    ) -> Result<TournamentReport, ArenaError> {
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
            return Err(ArenaError::Config(format!(
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
                .map_err(|(_, m)| ArenaError::Config(format!("openings: {m}")))?,
            None => Vec::new(),
        };
        let with_start = self.config.openings.is_some();
        let writers = Mutex::new((
            GamesAppender::open(&games_path, with_start)?,
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
        let error: Mutex<Option<ArenaError>> = Mutex::new(None);
        let total = schedule.len();
        let worker = || {
            while !failed.load(Ordering::Relaxed) {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(p) = pending.get(k) else { break };
                if p.id >= cutoff.load(Ordering::Relaxed) {
                    break;
                }
                let result = (|| -> Result<GameRecord, ArenaError> {
                    let mut w = specs[p.white].build()?;
                    let mut b = specs[p.black].build()?;
                    let logs = self.dir.join(LOGS_DIR);
                    w.log_to(&logs.join(format!("{}-white.stderr", p.id)));
                    b.log_to(&logs.join(format!("{}-black.stderr", p.id)));
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
            .map_err(|e| ArenaError::Config(format!("cannot start {jobs} threads: {e}")))?;
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
    ) -> Result<TournamentReport, ArenaError> {
        let games_path = self.dir.join(GAMES_FILE);
        let times_path = self.dir.join(TIMES_FILE);
        let mut games = self.read_games(&games_path, false)?;
        games.retain(|r| r.id < cutoff);
        games.sort_by_key(|r| r.id);
        rewrite_games(&games_path, &games, self.config.openings.is_some())?;
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

/// Writes a secret key readable by its owner only (mode 0600 where the system has modes).
pub(crate) fn write_secret(path: &Path, key: &SeedKey) -> Result<(), ArenaError> {
    use std::io::Write;
    // A key left by a creation that was interrupted before tournament.json was written.
    let _ = fs::remove_file(path);
    let mut opts = fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
    let mut f = opts.open(path).map_err(io_err(path))?;
    writeln!(f, "{}", key.to_hex()).map_err(io_err(path))?;
    f.sync_all().map_err(io_err(path))
}
