//! A run of games ([`Run`]): a round robin, a gauntlet or a match in game pairs, its
//! settings checked once ([`RunPlan`] to [`Run`], as an unchecked setup becomes a
//! position), played in parallel, each game written to its folder as it ends,
//! resumable after a kill.

use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fow_players::{Budget, PlayerSpec};
use fow_records::count;
use fow_records::seed::{is_program, run_seed, SeedKey, Seeding, SECRET_FILE};
use fow_records::{
    clear_live, FolderKind, GameRecord, GameRow, LiveFile, LiveHeader, Openings, Pairing,
    RecordError, RunFolder, Schedule, Shard, StopRule, TimeControl, TimeRow, TournamentConfig,
};
use fow_variants::{Color, Position, RuleSet};

use crate::live::check_live;
use crate::play::{play_game_watched, GameOptions, MoveSink};

/// What a finished (or resumed and finished) run holds.
#[derive(Clone, Debug)]
pub struct RunReport {
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
    /// A stopping rule ended the schedule early (see [`Run::play`]).
    pub stopped: bool,
    /// The run was halted before its end (see [`Run::play_until`]): the folder holds the
    /// games finished before the halt, and `--resume` plays the rest.
    pub halted: bool,
}

/// The settings of a new run as a command gathers them, not yet checked: [`Run::create`]
/// checks them once, applies the seed policy and makes the run's folder.
#[derive(Clone, Debug)]
pub struct RunPlan {
    /// The command that plays it: [`FolderKind::Tournament`] or [`FolderKind::Match`].
    pub kind: FolderKind,
    /// Player specs, in table order (a gauntlet's or a match's player first).
    pub players: Vec<String>,
    /// Who meets whom.
    pub schedule: Schedule,
    /// Games each ordered pair plays (pairs per meeting in a match).
    pub games_per_pair: u32,
    /// The rules.
    pub rules: RuleSet,
    /// The public master seed given (`--seed`); without one, see [`run_seed`].
    pub seed: Option<u64>,
    /// The secret key given (`--secret-key`), shared by the shards of a run.
    pub secret: Option<SeedKey>,
    /// The node budget per move (`None`: each bot's default).
    pub nodes: Option<u64>,
    /// A clock per side.
    pub tc: Option<TimeControl>,
    /// Start positions by round.
    pub openings: Option<Openings>,
    /// The shard this folder plays.
    pub shard: Option<Shard>,
    /// A match's stopping rule, as text (checked by the caller, which applies it).
    pub sprt: Option<String>,
    /// Write each game's moves under the folder's `live/` as they are played (`--live`;
    /// see [`Run::set_live`]). Not a setting: nothing of it is stored, and a resumed run
    /// is told again.
    pub live: bool,
}

impl RunPlan {
    /// A plan of `kind` with `players`, `games_per_pair` and `rules`; every other setting
    /// off (round robin, or game pairs for a match; default seed policy).
    pub fn new(
        kind: FolderKind,
        players: Vec<String>,
        games_per_pair: u32,
        rules: RuleSet,
    ) -> RunPlan {
        RunPlan {
            kind,
            players,
            schedule: match kind {
                FolderKind::Match => Schedule::GamePairs,
                _ => Schedule::RoundRobin,
            },
            games_per_pair,
            rules,
            seed: None,
            secret: None,
            nodes: None,
            tc: None,
            openings: None,
            shard: None,
            sprt: None,
            live: false,
        }
    }

    /// The settings this plan stores: the seed policy applied (the seed given; else, when
    /// a program player takes part, a secret key, given or fresh; else the default public
    /// seed). A shard of a run with a secret key needs the key given, since every shard
    /// must derive the same games.
    pub fn settings(self) -> Result<TournamentConfig, RecordError> {
        let seed = match self.secret {
            Some(_) => None,
            None => run_seed(self.seed, self.players.iter().any(|p| is_program(p))),
        };
        if self.shard.is_some() && seed.is_none() && self.secret.is_none() {
            return Err(RecordError::Settings(
                "the shards of a run with a secret key must share it: give --secret-key FILE (32 hexadecimal digits, e.g. from `od -An -tx1 -N16 /dev/urandom | tr -d ' \\n'`), or a public --seed".into(),
            ));
        }
        let mut c = TournamentConfig::new(
            self.players,
            self.games_per_pair,
            self.rules,
            seed,
            self.nodes,
        )?;
        if self.secret.is_some() {
            c.secret = self.secret;
        }
        c.kind = Some(self.kind);
        c.set_schedule(self.schedule);
        c.sprt = self.sprt;
        c.tc = self.tc;
        c.openings = self.openings;
        c.shard = self.shard;
        Ok(c)
    }
}

/// A run of games in its folder, its settings checked: the players' specs parsed once,
/// the openings read, the folder locked (one writer) from [`Run::create`] or
/// [`Run::resume`] until the run is dropped.
pub struct Run {
    config: TournamentConfig,
    players: Vec<PlayerSpec>,
    openings: Vec<Position>,
    folder: RunFolder,
    live: bool,
}

impl Run {
    /// A new run of `plan` in `out`, or in a fresh `results/runs/<timestamp><suffix>`:
    /// the settings checked, the players checked against the folder (a sandbox that
    /// would show it, or a live feed a player could read, is refused before anything is
    /// written), then the key and the settings written.
    pub fn create(plan: RunPlan, out: Option<&Path>, suffix: &str) -> Result<Run, RecordError> {
        let live = plan.live;
        Run::start(plan.settings()?, out, suffix, live)
    }

    /// [`Run::create`] from settings already made (`config`, checked here).
    pub fn begin(
        config: TournamentConfig,
        out: Option<&Path>,
        suffix: &str,
    ) -> Result<Run, RecordError> {
        Run::start(config, out, suffix, false)
    }

    fn start(
        config: TournamentConfig,
        out: Option<&Path>,
        suffix: &str,
        live: bool,
    ) -> Result<Run, RecordError> {
        let (config, players) = config.checked()?;
        // Before the folder is made: a refused run leaves nothing behind.
        if live {
            check_live(&config.players)?;
        }
        if let Some(dir) = out {
            keep_out(&players, dir)?;
        }
        let folder = RunFolder::create(out, "results/runs", suffix)?;
        if out.is_none() {
            keep_out(&players, folder.dir())?;
        }
        folder.begin(&config)?;
        let mut run = Run::with(config, players, folder)?;
        run.live = live;
        Ok(run)
    }

    /// The run of `kind` (a tournament or a match) stored in `dir`, to be resumed: a
    /// folder of another kind is refused, saying which command resumes it.
    pub fn resume(dir: &Path, kind: FolderKind) -> Result<Run, RecordError> {
        Run::open_folder(dir, Some(kind))
    }

    /// The run stored in `dir`, to be resumed, whatever its kind (see [`Run::resume`]).
    pub fn open(dir: &Path) -> Result<Run, RecordError> {
        Run::open_folder(dir, None)
    }

    fn open_folder(dir: &Path, kind: Option<FolderKind>) -> Result<Run, RecordError> {
        if let Some(kind) = kind {
            fow_records::check_kind(dir, kind)?;
        }
        if !dir.join(fow_records::CONFIG_FILE).is_file() {
            return Err(RecordError::folder(
                dir,
                format!(
                    "holds no tournament to resume (no {})",
                    fow_records::CONFIG_FILE
                ),
            ));
        }
        let folder = RunFolder::open(dir, None)?;
        let (config, players) = folder.settings()?.checked()?;
        keep_out(&players, dir)?;
        Run::with(config, players, folder)
    }

    fn with(
        config: TournamentConfig,
        players: Vec<PlayerSpec>,
        folder: RunFolder,
    ) -> Result<Run, RecordError> {
        let openings = match &config.openings {
            Some(o) => o
                .parsed(&config.rules)
                .map_err(|(_, m)| RecordError::Settings(format!("openings: {m}")))?,
            None => Vec::new(),
        };
        Ok(Run {
            config,
            players,
            openings,
            folder,
            live: false,
        })
    }

    /// With `live`, [`Run::play`] writes each game's moves as they are played into the
    /// folder's `live/<id>.txt` ([`fow_records::LiveFile`], read by
    /// [`fow_records::live_games`]) and removes the file once the game's row is in
    /// `games.csv`; the games and their files are the same either way. Refused when a
    /// program player runs outside the sandbox, since it could read the other side's
    /// moves there ([`check_live`]).
    pub fn set_live(&mut self, live: bool) -> Result<(), RecordError> {
        if live {
            check_live(&self.config.players)?;
        }
        self.live = live;
        Ok(())
    }

    /// Whether the run writes a live feed ([`Run::set_live`]).
    pub fn live(&self) -> bool {
        self.live
    }

    /// The settings.
    pub fn config(&self) -> &TournamentConfig {
        &self.config
    }

    /// The run's folder.
    pub fn dir(&self) -> &Path {
        self.folder.dir()
    }

    /// The seed as a run's first line shows it: the number, or where the secret key is.
    pub fn seed_text(&self) -> String {
        match self.config.seed {
            Some(s) => s.to_string(),
            None => format!(
                "secret (its key is in {})",
                self.dir().join(SECRET_FILE).display()
            ),
        }
    }

    /// ` of shard I/N (M in all)` for a shard's first line; empty for a whole run.
    pub fn shard_text(&self) -> String {
        match self.config.shard {
            Some(s) => format!(" of shard {s} ({} in all)", self.config.game_count()),
            None => String::new(),
        }
    }

    /// What a person starting the run should know, one line each: a public seed with a
    /// program player, a program player outside the sandbox while the key is secret, a
    /// clock (not deterministic), and where the games start with openings.
    pub fn notes(&self) -> Vec<String> {
        let cfg = &self.config;
        let mut notes = Vec::new();
        let programs = cfg.players.iter().filter(|p| is_program(p));
        if cfg.seed.is_some() && programs.clone().next().is_some() {
            notes.push("note: the seed is public: a program player that knows it can compute every player's random choices (leave out --seed for a secret key; see docs/src/tournament.md)".into());
        }
        // A program outside the sandbox runs with the user's rights, so it can read the
        // key (through the results folder or fow's /proc) and from it every player's
        // random choices, and can write into the results folder.
        let open: Vec<String> = programs
            .filter(|_| cfg.seed.is_none())
            .filter(|p| {
                p.parse::<PlayerSpec>()
                    .is_ok_and(|s| s.param("sandbox") != Some("bwrap"))
            })
            .map(|p| fow_players::player_label(p))
            .collect();
        if !open.is_empty() {
            notes.push(format!(
                "note: {} without the sandbox: a program run so can read this run's secret key and from it every player's random choices, and write into the results folder (add sandbox=bwrap to its spec; see docs/src/protocol.md)",
                match open.as_slice() {
                    [one] => format!("{one} runs"),
                    many => format!("{} run", many.join(", ")),
                }
            ));
        }
        if let Some(tc) = cfg.tc {
            notes.push(format!("note: a clock per side ({tc}): the games depend on the machine's speed, so the same seed can give other games (node budgets are deterministic); each side's time left after each move is in clocks.csv"));
        }
        if let Some(o) = &cfg.openings {
            let plies = o.plies.map_or(String::new(), |p| {
                format!(" after {p} {}", if p == 1 { "ply" } else { "plies" })
            });
            notes.push(format!(
                "openings: {} from {}{plies}, {} order; the games of a round start from its opening (each opening with both colours)",
                count(o.positions.len(), "position"),
                o.source,
                o.order
            ));
        }
        notes
    }

    /// Plays every game not yet on disk with `jobs` threads, calling `on_game` after each
    /// is written, then rewrites the files in schedule order. The live files a killed run
    /// left are removed first, and a live feed's at the end ([`Run::set_live`]).
    ///
    /// With a stopping rule for a paired schedule (`stop`: a match's SPRT), `stop` is
    /// called with each pair's two games in schedule order (pair 0 first, whatever order
    /// the games end in, those already on disk included) and stops the run at the first
    /// pair for which it answers `true`. Games after that pair are not started, and those
    /// already played are dropped from the files, so the games kept and the verdict do
    /// not depend on `jobs` (or on a kill and `--resume`). A shard plays all its pairs:
    /// `fow merge` applies the rule to the joined shards.
    pub fn play(
        &self,
        jobs: usize,
        move_time_limit: Option<Duration>,
        on_game: &(dyn Fn(&GameRecord, usize, usize) + Sync),
        stop: Option<&StopRule<'_>>,
    ) -> Result<RunReport, RecordError> {
        let never = AtomicBool::new(false);
        self.play_until(jobs, move_time_limit, on_game, stop, &never)
    }

    /// [`Run::play`] that another thread can halt by setting `halt` (Ctrl-C in the
    /// Python package): no game starts once it is set, and the games in flight then are
    /// dropped when they end rather than written, so the folder holds only complete games
    /// and resuming it plays the rest, as after a kill. The files are rewritten in
    /// schedule order as at the end of a whole run, and the report says `halted`.
    pub fn play_until(
        &self,
        jobs: usize,
        move_time_limit: Option<Duration>,
        on_game: &(dyn Fn(&GameRecord, usize, usize) + Sync),
        stop: Option<&StopRule<'_>>,
        halt: &AtomicBool,
    ) -> Result<RunReport, RecordError> {
        let started = Instant::now();
        let schedule = self.config.games_to_play();
        // Those of a killed run are stale: their games are played again or were written.
        clear_live(self.dir())?;
        let done = self.folder.resume_from(&self.config)?;
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
            return Err(RecordError::folder(self.dir(), format!("was written by an older fow whose game seeds a program player could predict; its {} games read and check as before, but its {} missing games are not played with those seeds: start a new run",
                done.len(),
                pending.len()
            )));
        }
        let writer = Mutex::new(self.folder.writer(&self.config)?);
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
        let next = AtomicUsize::new(0);
        let finished = AtomicUsize::new(done.len());
        let failed = AtomicBool::new(false);
        let error: Mutex<Option<RecordError>> = Mutex::new(None);
        let total = schedule.len();
        let worker = || {
            while !failed.load(Ordering::Relaxed) && !halt.load(Ordering::SeqCst) {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(p) = pending.get(k) else { break };
                if p.id >= cutoff.load(Ordering::Relaxed) {
                    break;
                }
                let result = (|| -> Result<Option<GameRecord>, RecordError> {
                    let mut live = self.live_file(p)?;
                    let rec = self.play_one(p, &opts, live.as_mut().map(|f| f as _))?;
                    // Halted while it was played: dropped, to be played again on resume.
                    if halt.load(Ordering::SeqCst) {
                        return Ok(None);
                    }
                    let mut row = GameRow::new(p.id, p.round, &rec);
                    if let (Some(o), Some(i)) = (&self.config.openings, p.opening) {
                        row.start = o.positions[i].clone();
                    }
                    let row = writer
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .append(row, &rec)?;
                    if let Some(f) = live {
                        f.close()?;
                    }
                    if let Some(stop) = stop {
                        let mut pr = progress.lock().unwrap_or_else(|e| e.into_inner());
                        pr.add(row, stop);
                        cutoff.store(pr.cutoff, Ordering::Relaxed);
                    }
                    Ok(Some(rec))
                })();
                match result {
                    Ok(None) => break,
                    Ok(Some(rec)) => {
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
            .map_err(|e| RecordError::System(format!("cannot start {jobs} threads: {e}")))?;
        pool.scope(|s| {
            for _ in 0..jobs {
                s.spawn(|_| worker());
            }
        });
        drop(writer);
        // Games halted or failed leave theirs.
        let cleared = clear_live(self.dir());
        if let Some(e) = error.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(e);
        }
        cleared?;
        let cutoff = cutoff.into_inner();
        let halted = halt.load(Ordering::SeqCst);
        // Games played past the stop are dropped: they do not count as played.
        let played_now = match halted {
            true => finished.into_inner() - done.len(),
            false => pending.iter().filter(|p| p.id < cutoff).count(),
        };
        let mut tables = self.folder.read_tables(&self.config, false)?;
        tables.settle(cutoff);
        self.folder.rewrite(&self.config, &tables)?;
        Ok(RunReport {
            config: self.config.clone(),
            games: tables.games,
            times: tables.times,
            played_now,
            elapsed: started.elapsed(),
            stopped: cutoff < full,
            halted,
        })
    }

    /// The live file of the scheduled game `p`, with a live feed.
    fn live_file(&self, p: &Pairing) -> Result<Option<LiveFile>, RecordError> {
        if !self.live {
            return Ok(None);
        }
        let start = match p.opening {
            Some(i) => self.openings[i].clone(),
            None => Position::startpos(),
        };
        let header = LiveHeader {
            id: p.id,
            round: p.round,
            white: self.config.players[p.white].clone(),
            black: self.config.players[p.black].clone(),
            rules: self.config.rules,
            start: start.fen(),
        };
        LiveFile::create(self.dir(), &header).map(Some)
    }

    /// Plays the scheduled game `p`: its players built from their specs, their program
    /// logs in the folder's `logs/`, the folder hidden from their sandboxes; each move
    /// told to `sink` (the game's live file) as it is played.
    fn play_one(
        &self,
        p: &Pairing,
        opts: &GameOptions,
        sink: Option<&mut dyn MoveSink>,
    ) -> Result<GameRecord, RecordError> {
        let mut w = self.players[p.white].build()?;
        let mut b = self.players[p.black].build()?;
        w.log_to(&self.folder.log_file(p.id, Color::White));
        b.log_to(&self.folder.log_file(p.id, Color::Black));
        w.hide(self.dir());
        b.hide(self.dir());
        let opened;
        let opts = match p.opening {
            Some(i) => {
                opened = GameOptions {
                    start: Some(self.openings[i].clone()),
                    ..opts.clone()
                };
                &opened
            }
            None => opts,
        };
        Ok(play_game_watched(
            w.as_mut(),
            b.as_mut(),
            &self.config.players[p.white],
            &self.config.players[p.black],
            p.seed,
            p.player_seeds,
            opts,
            sink,
        ))
    }
}

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
pub(crate) fn keep_out(players: &[PlayerSpec], dir: &Path) -> Result<(), RecordError> {
    for p in players {
        fow_players::external::check_hidden(p, &[dir.to_path_buf()])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(kind: FolderKind, players: &[&str]) -> RunPlan {
        let players = players.iter().map(|p| p.to_string()).collect();
        RunPlan::new(kind, players, 2, RuleSet::thesis())
    }

    #[test]
    fn a_plan_applies_the_seed_policy_once() {
        let bots = plan(FolderKind::Tournament, &["RandomMove", "CaptureLargest"]);
        let c = bots.clone().settings().unwrap();
        assert_eq!(
            (c.seed, c.secret),
            (Some(fow_records::seed::DEFAULT_SEED), None)
        );
        // A program player: a fresh secret key, unless a seed is given.
        let program = plan(FolderKind::Tournament, &["RandomMove", "exec:cmd=true"]);
        let c = program.clone().settings().unwrap();
        assert!(c.seed.is_none() && c.secret.is_some());
        let seeded = RunPlan {
            seed: Some(5),
            ..program.clone()
        };
        assert_eq!(seeded.settings().unwrap().seed, Some(5));
        // The shards of a secret run must share a key given to each.
        let shard = RunPlan {
            shard: Some("1/2".parse().unwrap()),
            ..program.clone()
        };
        let e = shard.clone().settings().unwrap_err().to_string();
        assert!(e.contains("--secret-key"), "{e}");
        let key = SeedKey::from_hex("000102030405060708090a0b0c0d0e0f").unwrap();
        let c = RunPlan {
            secret: Some(key),
            ..shard
        }
        .settings()
        .unwrap();
        assert_eq!((c.seed, c.secret), (None, Some(key)));
    }

    #[test]
    fn the_schedule_is_stored_as_the_folder_format_has_it() {
        let m = plan(FolderKind::Match, &["RandomMove", "RandomMove"]);
        assert_eq!(m.schedule, Schedule::GamePairs);
        let c = m.settings().unwrap();
        assert!(c.gauntlet && c.paired && c.kind == Some(FolderKind::Match));
        for s in [
            Schedule::RoundRobin,
            Schedule::Gauntlet,
            Schedule::GamePairs,
        ] {
            let mut c = c.clone();
            c.set_schedule(s);
            assert_eq!(c.schedule(), s);
        }
        let t = plan(FolderKind::Tournament, &["RandomMove", "CaptureLargest"]);
        let c = t.settings().unwrap();
        assert!(!c.gauntlet && !c.paired && c.schedule() == Schedule::RoundRobin);
    }

    #[test]
    fn a_run_is_checked_once_and_refuses_a_folder_that_holds_one() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("t");
        let p = plan(FolderKind::Tournament, &["RandomMove", "CaptureLargest"]);
        let run = Run::create(p.clone(), Some(&dir), "").unwrap();
        assert_eq!(run.players.len(), 2);
        assert_eq!(run.seed_text(), fow_records::seed::DEFAULT_SEED.to_string());
        assert!(run.notes().is_empty() && run.shard_text().is_empty());
        drop(run);
        let e = Run::create(p.clone(), Some(&dir), "").err().unwrap();
        assert!(e.to_string().contains("already holds a tournament"), "{e}");
        let e = Run::resume(&dir, FolderKind::Match).err().unwrap();
        assert!(e.to_string().contains("not a match folder"), "{e}");
        let bad = RunPlan {
            players: vec!["RandomMove".into(), "NoSuchBot".into()],
            ..p
        };
        let other = tmp.path().join("u");
        assert!(Run::create(bad, Some(&other), "").is_err());
        assert!(!other.exists(), "a refused run leaves no folder");
    }
}
