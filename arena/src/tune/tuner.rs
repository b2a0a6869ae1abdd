//! A tuning run in its folder ([`Tuner`]): settings (`tune.json`), a checkpoint after
//! every batch (`checkpoint.json`), the trajectory (`tune.csv`) and the current best
//! (`best.json`), each written atomically or appended whole, so that a kill loses at
//! most the batch in flight and `--resume` continues exactly.

use std::fs;
use std::path::Path;

use fow_players::tune::TuneSpace;
use fow_players::{Budget, PlayerSpec};
use fow_records::seed::{is_program, random_seed, run_seed, SeedKey};
use fow_records::{
    count, io_err, read_json, write_atomic, FolderKind, Openings, RecordError, RunFolder,
    TimeControl, TUNE_FILE,
};
use fow_variants::{Position, RuleSet};
use serde::{Deserialize, Serialize};

use super::batch::{BatchPlan, PairScore};
use super::spsa::{candidates, flips, update, Gains, Step, ALPHA, A_RATIO, GAMMA};
use super::venue::{Threads, Venue};
use crate::play::GameOptions;

/// The checkpoint, rewritten after every batch.
pub const CHECKPOINT_FILE: &str = "checkpoint.json";
/// The trajectory: a row per batch.
pub const TRAJECTORY_FILE: &str = "tune.csv";
/// The current parameters, as values and as a player spec.
pub const BEST_FILE: &str = "best.json";

/// The settings of a tuning run (stored as `tune.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneConfig {
    /// The player and the parameters tuned.
    pub space: TuneSpace,
    /// SPSA batches (updates).
    pub batches: u32,
    /// Game pairs per batch.
    pub pairs: u32,
    /// Fixed opponents (empty: the candidates play each other).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub against: Vec<String>,
    /// `alpha`.
    pub alpha: f64,
    /// `gamma`.
    pub gamma: f64,
    /// `A` as a share of the run's game pairs.
    pub a_ratio: f64,
    /// The rules.
    pub rules: RuleSet,
    /// The node budget per move (`None`: each player's default).
    pub nodes: Option<u64>,
    /// A clock per side (not deterministic).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<TimeControl>,
    /// Start positions, one per pair in turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<Openings>,
    /// The master seed.
    pub seed: u64,
    /// Whether the seed was given (public) rather than drawn for a run with a program.
    #[serde(default)]
    pub seed_given: bool,
}

impl TuneConfig {
    /// Settings with fishtest's gains for `space`, `batches` batches of `pairs` pairs,
    /// and the seed policy: the seed given, else a fresh one when a program takes part
    /// (a program that knows the seed could compute its opponents' random choices), else
    /// the default public seed.
    pub fn new(
        space: TuneSpace,
        batches: u32,
        pairs: u32,
        against: Vec<String>,
        rules: RuleSet,
        seed: Option<u64>,
    ) -> Result<TuneConfig, RecordError> {
        let program = std::iter::once(&space.player)
            .chain(&against)
            .any(|p| is_program(p));
        let seed_given = seed.is_some();
        let seed = match run_seed(seed, program) {
            Some(s) => s,
            None => random_seed().map_err(RecordError::System)?,
        };
        Ok(TuneConfig {
            space,
            batches,
            pairs,
            against,
            alpha: ALPHA,
            gamma: GAMMA,
            a_ratio: A_RATIO,
            rules,
            nodes: None,
            tc: None,
            openings: None,
            seed,
            seed_given,
        })
    }

    /// The gains of the run.
    pub fn gains(&self) -> Gains {
        Gains {
            pairs_total: u64::from(self.batches) * u64::from(self.pairs),
            alpha: self.alpha,
            gamma: self.gamma,
            a_ratio: self.a_ratio,
        }
    }

    /// Checks the settings: the space, the counts, the opponents' specs, the openings.
    pub fn check(&self) -> Result<Vec<PlayerSpec>, RecordError> {
        self.space.check().map_err(tune_err)?;
        if self.batches == 0 || self.pairs == 0 {
            return Err(RecordError::Settings(
                "--batches and --pairs must be at least 1".into(),
            ));
        }
        if !(self.alpha > 0.0 && self.gamma > 0.0 && self.a_ratio >= 0.0) {
            return Err(RecordError::Settings(
                "alpha and gamma must be more than 0, A at least 0".into(),
            ));
        }
        let against = self
            .against
            .iter()
            .map(|s| {
                let spec: PlayerSpec = s.parse()?;
                spec.build()?;
                Ok(spec)
            })
            .collect::<Result<Vec<_>, RecordError>>()?;
        self.opening_positions()?;
        Ok(against)
    }

    pub(crate) fn opening_positions(&self) -> Result<Vec<Position>, RecordError> {
        match &self.openings {
            Some(o) => o
                .parsed(&self.rules)
                .map_err(|(_, m)| RecordError::Settings(format!("openings: {m}"))),
            None => Ok(Vec::new()),
        }
    }
}

/// A tuning setup error as a record error.
pub fn tune_err(e: fow_players::tune::TuneError) -> RecordError {
    match e {
        fow_players::tune::TuneError::File {
            path,
            line,
            message,
        } => RecordError::Format {
            path,
            line,
            message,
        },
        fow_players::tune::TuneError::Spec(s) => RecordError::Spec(s),
        other => RecordError::Settings(other.to_string()),
    }
}

/// One batch as the trajectory records it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BatchLog {
    /// The batch's number (from 0).
    pub batch: u32,
    /// The sum of its pairs' results.
    pub result: f64,
    /// `+`'s score in the batch's games (0 to 1).
    pub score: f64,
    /// Each parameter's perturbation in this batch.
    pub c: Vec<f64>,
    /// The parameters after the batch's update.
    pub theta: Vec<f64>,
}

/// What is saved after every batch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Checkpoint {
    /// Batches done.
    pub(crate) done: u32,
    /// The parameters now.
    pub(crate) theta: Vec<f64>,
    /// The last batch's row (written again if a kill cut it from `tune.csv`).
    last: Option<BatchLog>,
}

/// What a batch is played with: each parameter's step and flip, every pair's
/// candidates, the game options and the key. It derives from the settings and the
/// checkpoint alone, so that every task of an allocation computes the same
/// ([`super::worker`]).
pub(crate) struct BatchSetup {
    /// Each parameter's step.
    pub(crate) steps: Vec<Step>,
    /// Each parameter's flip (+1 or -1).
    pub(crate) signs: Vec<f64>,
    candidates: Vec<[Vec<f64>; 2]>,
    options: GameOptions,
    key: SeedKey,
    batch: u64,
    pairs_before: u64,
}

impl BatchSetup {
    /// The setup of batch `done` (the batches done so far) from `theta`.
    pub(crate) fn new(cfg: &TuneConfig, theta: &[f64], done: u32) -> BatchSetup {
        let params = &cfg.space.params;
        let b = u64::from(done);
        let pairs_before = b * u64::from(cfg.pairs);
        let key = SeedKey::public(cfg.seed);
        let gains = cfg.gains();
        let steps: Vec<Step> = params.iter().map(|p| gains.step(p, pairs_before)).collect();
        let signs = flips(&key, b, params.len());
        let candidates: Vec<[Vec<f64>; 2]> = (0..u64::from(cfg.pairs))
            .map(|pair| candidates(params, theta, &steps, &signs, &key, b, pair))
            .collect();
        let options = GameOptions {
            rules: cfg.rules,
            budget: Budget {
                nodes: cfg.nodes,
                time: None,
                clock: None,
            },
            move_time_limit: None,
            start: None,
            clock: cfg.tc,
        };
        BatchSetup {
            steps,
            signs,
            candidates,
            options,
            key,
            batch: b,
            pairs_before,
        }
    }

    /// The batch's plan, with the run's `space`, opponents and openings.
    pub(crate) fn plan<'a>(
        &'a self,
        space: &'a TuneSpace,
        against: &'a [PlayerSpec],
        openings: &'a [Position],
    ) -> BatchPlan<'a> {
        BatchPlan {
            space,
            candidates: &self.candidates,
            against,
            options: &self.options,
            key: &self.key,
            batch: self.batch,
            pairs_before: self.pairs_before,
            openings,
        }
    }
}

/// A tuning run in a folder, held (locked) while open.
pub struct Tuner {
    config: TuneConfig,
    against: Vec<PlayerSpec>,
    openings: Vec<Position>,
    state: Checkpoint,
    folder: RunFolder,
}

impl Tuner {
    /// A new run in `out` (or a fresh `results/runs/<UTC timestamp>-tune`).
    pub fn create(out: Option<&Path>, config: TuneConfig) -> Result<Tuner, RecordError> {
        let against = config.check()?;
        let folder = RunFolder::create(out, "results/runs", "-tune")?;
        let dir = folder.dir().to_path_buf();
        if dir.join(TUNE_FILE).exists() {
            return Err(RecordError::folder(
                &dir,
                "already holds a tuning run: use --resume to continue it, or another --out",
            ));
        }
        let hidden = [dir.clone()];
        for s in against
            .iter()
            .chain([&config.space.spec(&config.space.start())])
        {
            fow_players::external::check_hidden(s, &hidden)?;
        }
        let text = serde_json::to_string_pretty(&config).expect("settings serialize") + "\n";
        write_atomic(&dir.join(TUNE_FILE), text.as_bytes())?;
        let header = trajectory_header(&config.space);
        write_atomic(&dir.join(TRAJECTORY_FILE), header.as_bytes())?;
        let tuner = Tuner {
            openings: config.opening_positions()?,
            state: Checkpoint {
                done: 0,
                theta: config.space.start(),
                last: None,
            },
            against,
            config,
            folder,
        };
        tuner.save()?;
        Ok(tuner)
    }

    /// The run in `dir`, where its checkpoint left it.
    pub fn open(dir: &Path) -> Result<Tuner, RecordError> {
        let path = dir.join(TUNE_FILE);
        if !path.is_file() {
            fow_records::check_kind(dir, FolderKind::Tune)?;
            return Err(RecordError::folder(
                dir,
                format!("holds no tuning run to resume (no {TUNE_FILE})"),
            ));
        }
        let folder = RunFolder::open(dir, Some(FolderKind::Tune))?;
        let config: TuneConfig = read_json(&path)?;
        let against = config.check()?;
        let state: Checkpoint = read_json(&dir.join(CHECKPOINT_FILE))?;
        if state.theta.len() != config.space.params.len() || state.done > config.batches {
            return Err(RecordError::Format {
                path: dir.join(CHECKPOINT_FILE),
                line: 1,
                message: "the checkpoint does not belong to this run's settings".into(),
            });
        }
        let tuner = Tuner {
            openings: config.opening_positions()?,
            against,
            config,
            state,
            folder,
        };
        tuner.repair_trajectory()?;
        Ok(tuner)
    }

    /// Raises the number of batches to `batches` (rewriting `tune.json`). The gains
    /// depend on the run's length, so the batches already played would have had other
    /// gains: as fishtest does when a run is extended, the run goes on with the new ones.
    pub fn extend(&mut self, batches: u32) -> Result<(), RecordError> {
        if batches > self.config.batches {
            self.config.batches = batches;
            let text =
                serde_json::to_string_pretty(&self.config).expect("settings serialize") + "\n";
            write_atomic(&self.dir().join(TUNE_FILE), text.as_bytes())?;
        }
        Ok(())
    }

    /// The settings.
    pub fn config(&self) -> &TuneConfig {
        &self.config
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        self.folder.dir()
    }

    /// Batches done.
    pub fn done(&self) -> u32 {
        self.state.done
    }

    /// The parameters now.
    pub fn theta(&self) -> &[f64] {
        &self.state.theta
    }

    /// Games in one batch: two a pair, four with opponents (each candidate plays the
    /// pair's opponent once with each colour).
    pub fn games_per_batch(&self) -> u64 {
        let per_pair = if self.config.against.is_empty() { 2 } else { 4 };
        u64::from(self.config.pairs) * per_pair
    }

    /// Whether a program player takes part although the seed was given (public): such
    /// a program could compute its opponents' random choices.
    pub fn public_seed_note(&self) -> bool {
        let cfg = &self.config;
        let program = std::iter::once(&cfg.space.player)
            .chain(&cfg.against)
            .any(|p| is_program(p));
        program && cfg.seed_given
    }

    /// The run in one line, as its first line shows it.
    pub fn summary(&self) -> String {
        let cfg = &self.config;
        let names: Vec<&str> = cfg.space.params.iter().map(|p| p.name.as_str()).collect();
        format!(
            "tuning {} of {}: {} batch{} of {} ({} done), {}, rules {}, seed {}",
            names.join(", "),
            fow_players::player_label(&cfg.space.player),
            cfg.batches,
            if cfg.batches == 1 { "" } else { "es" },
            count(cfg.pairs as usize, "game pair"),
            self.state.done,
            match cfg.against.is_empty() {
                true => "the candidates against each other".to_string(),
                false => format!("each candidate against {}", cfg.against.join(", ")),
            },
            cfg.rules,
            cfg.seed
        )
    }

    /// Each parameter now, beside its start and range, then the spec that plays them.
    pub fn report(&self) -> String {
        let mut s = String::new();
        for (p, v) in self.config.space.params.iter().zip(&self.state.theta) {
            s.push_str(&format!(
                "  {:<16} {:>12.4}  (start {}, {} to {})\n",
                p.name, v, p.start, p.min, p.max
            ));
        }
        s + &format!("tuned: {}\n", self.best_spec())
    }

    /// The spec of the parameters now (rounded as the spec writes them).
    pub fn best_spec(&self) -> PlayerSpec {
        self.config.space.spec(&self.state.theta)
    }

    /// Plays the remaining batches with `jobs` threads, calling `on_batch` after each is
    /// saved; the run stops early (as a kill between batches would stop it) when
    /// `on_batch` answers `false`.
    pub fn run(
        &mut self,
        jobs: usize,
        on_batch: impl FnMut(&BatchLog) -> bool,
    ) -> Result<(), RecordError> {
        self.run_on(&Threads(jobs), on_batch)
    }

    /// [`Tuner::run`] with each batch's pairs played at `venue` (this machine's threads,
    /// or the tasks of a Slurm allocation).
    pub fn run_on(
        &mut self,
        venue: &dyn Venue,
        mut on_batch: impl FnMut(&BatchLog) -> bool,
    ) -> Result<(), RecordError> {
        while self.state.done < self.config.batches {
            let log = self.batch(venue)?;
            if !on_batch(&log) {
                break;
            }
        }
        Ok(())
    }

    /// Plays and saves the next batch.
    fn batch(&mut self, venue: &dyn Venue) -> Result<BatchLog, RecordError> {
        let setup = BatchSetup::new(&self.config, &self.state.theta, self.state.done);
        let plan = setup.plan(&self.config.space, &self.against, &self.openings);
        let scores = venue.play(&plan, self.dir())?;
        let (params, steps, signs) = (&self.config.space.params, &setup.steps, &setup.signs);
        let total = PairScore::sum(&scores);
        let theta = update(params, &self.state.theta, steps, signs, total.result);
        let log = BatchLog {
            batch: self.state.done,
            result: total.result,
            score: total.points / f64::from(total.games.max(1)),
            c: steps.iter().map(|s| s.c).collect(),
            theta: theta.clone(),
        };
        self.state = Checkpoint {
            done: self.state.done + 1,
            theta,
            last: Some(log.clone()),
        };
        self.save()?;
        append(&self.dir().join(TRAJECTORY_FILE), &trajectory_row(&log))?;
        Ok(log)
    }

    /// Writes the checkpoint and `best.json`, each atomically.
    fn save(&self) -> Result<(), RecordError> {
        let dir = self.dir();
        let text = serde_json::to_string_pretty(&self.state).expect("checkpoint serializes") + "\n";
        write_atomic(&dir.join(CHECKPOINT_FILE), text.as_bytes())?;
        let values: serde_json::Map<String, serde_json::Value> = self
            .config
            .space
            .params
            .iter()
            .zip(&self.state.theta)
            .map(|(p, &v)| (p.name.clone(), serde_json::json!(v)))
            .collect();
        let best = serde_json::json!({
            "batches": self.state.done,
            "player": self.best_spec().to_string(),
            "values": values,
        });
        let text = serde_json::to_string_pretty(&best).expect("json") + "\n";
        write_atomic(&dir.join(BEST_FILE), text.as_bytes())
    }

    /// Makes `tune.csv` hold exactly the rows of the batches done: rows past the
    /// checkpoint (none are written before it) are dropped, a row cut short by a kill is
    /// dropped, and the last batch's row is written again if the kill came between the
    /// checkpoint and its row.
    fn repair_trajectory(&self) -> Result<(), RecordError> {
        let path = self.dir().join(TRAJECTORY_FILE);
        let text = fs::read_to_string(&path).map_err(io_err(&path))?;
        let complete = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
        let mut lines: Vec<&str> = complete.lines().collect();
        if lines.is_empty() {
            lines.push("");
        }
        let header = trajectory_header(&self.config.space);
        let mut out = header;
        let rows: Vec<&str> = lines[1..]
            .iter()
            .copied()
            .filter(|l| {
                l.split(',')
                    .next()
                    .and_then(|b| b.parse::<u32>().ok())
                    .is_some_and(|b| b < self.state.done)
            })
            .collect();
        for r in &rows {
            out.push_str(r);
            out.push('\n');
        }
        if rows.len() + 1 == self.state.done as usize {
            if let Some(last) = &self.state.last {
                out.push_str(&trajectory_row(last));
            }
        }
        write_atomic(&path, out.as_bytes())
    }
}

/// `tune.csv`'s header: batch, result, score, then each parameter's value and its
/// perturbation.
fn trajectory_header(space: &TuneSpace) -> String {
    let mut h = String::from("batch,result,score");
    for p in &space.params {
        h.push_str(&format!(",{}", csv_name(&p.name)));
    }
    for p in &space.params {
        h.push_str(&format!(",c_{}", csv_name(&p.name)));
    }
    h + "\n"
}

fn csv_name(name: &str) -> String {
    name.replace([',', '"', '\n'], "_")
}

fn trajectory_row(log: &BatchLog) -> String {
    let mut r = format!("{},{},{}", log.batch, log.result, log.score);
    for v in log.theta.iter().chain(&log.c) {
        r.push_str(&format!(",{v}"));
    }
    r + "\n"
}

/// Appends `row` to `path` and flushes it.
fn append(path: &Path, row: &str) -> Result<(), RecordError> {
    use std::io::Write;
    let mut f = fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(io_err(path))?;
    f.write_all(row.as_bytes()).map_err(io_err(path))?;
    f.sync_data().map_err(io_err(path))
}
