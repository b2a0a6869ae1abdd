//! Evolving a parametrized bot with the thesis's genetic algorithm: parallel,
//! deterministic from one seed, checkpointed after every epoch and resumable.
//!
//! Each epoch the population plays (every ordered pair `games_per_pair` games, or with
//! `against` every individual `games_per_pair` games with each colour against one fixed
//! opponent), 2 points a win and 1 a draw. The best `survivors` carry over (in rank order)
//! and every other slot copies a random survivor and adds uniform noise in
//! [-step/2, step/2] to every parameter. The epoch's best individual then plays a
//! benchmark match (half the games with each colour) whose score is logged. The first
//! population is the start vector and `population - 1` mutants of it.

use std::path::{Path, PathBuf};

use fow_players::tune::TuneSpace;
use fow_players::{find, PlayerSpec};
use fow_variants::RuleSet;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::genome::Genome;
use crate::play::{play_game, GameOptions};
use fow_records::seed::{is_program, mix, random_seed, run_seed, SeedKey};
use fow_records::write_atomic;
use fow_records::RecordError;
use fow_records::RunFolder;
use fow_records::{count, GameResult};

/// The settings file of an evolution folder.
pub use fow_records::EVOLVE_FILE;
/// The checkpoint written after every epoch.
pub const CHECKPOINT_FILE: &str = "checkpoint.json";
/// The per-epoch log.
pub const LOG_FILE: &str = "log.csv";
/// The parameters of the last epoch's best individual.
pub const BEST_FILE: &str = "best.json";
/// The parameters of the epoch champion with the highest benchmark score so far.
pub const TOP_FILE: &str = "top-benchmark.json";

/// The settings of an evolution (stored as `evolve.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvolveConfig {
    /// The parametrized bot evolved (a registered name), or the player whose `space` is
    /// evolved.
    pub bot: String,
    /// The parameters evolved when they are not a parametrized bot's whole vector (`fow
    /// tune --method ga`): the start is their start, mutations are shares of their ranges.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub space: Option<TuneSpace>,
    /// The starting parameter vector.
    pub start: Vec<f64>,
    /// Individuals per epoch.
    pub population: usize,
    /// Individuals carried over unchanged.
    pub survivors: usize,
    /// Width of the uniform mutation noise.
    pub step: f64,
    /// Games per ordered pair (or per colour against `against`).
    pub games_per_pair: u32,
    /// Epochs to run.
    pub epochs: u32,
    /// A fixed opponent spec: every individual plays only against it.
    pub against: Option<String>,
    /// The benchmark opponent spec.
    pub benchmark: String,
    /// Games of each benchmark match (0: none).
    pub benchmark_games: u32,
    /// The rules.
    pub rules: RuleSet,
    /// The master seed.
    pub seed: u64,
}

/// The starting parameters of an evolution of `bot`: `zero`, `default` (the bot's
/// shipped values) or a JSON parameter file (missing names keep the shipped values).
/// An unknown bot, or one that is not parametrized, is an error naming the ones that are.
pub fn start_params(bot: &str, start: &str) -> Result<Vec<f64>, RecordError> {
    let names = || {
        fow_players::registry()
            .iter()
            .filter(|b| b.family.is_some())
            .map(|b| b.name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let info = find(bot).ok_or_else(|| {
        RecordError::Settings(format!("unknown bot '{bot}' (parametrized: {})", names()))
    })?;
    let family = info.family.ok_or_else(|| {
        RecordError::Settings(format!(
            "'{bot}' is not a parametrized bot (parametrized: {})",
            names()
        ))
    })?;
    Ok(match start {
        "zero" => vec![0.0; (family.param_names)().len()],
        "default" => (family.default_params)(),
        path => family
            .load(Path::new(path))
            .map_err(|e| RecordError::Settings(e.to_string()))?,
    })
}

/// The master seed of a new evolution ([`fow_records::seed::run_seed`]): the one given,
/// else a fresh random one when `against` or `benchmark` is a program player (a program
/// that knows a public seed can compute the evolved bot's random choices), else the
/// default public seed.
pub fn evolve_seed(
    given: Option<u64>,
    against: Option<&str>,
    benchmark: &str,
) -> Result<u64, RecordError> {
    let program = against.into_iter().chain([benchmark]).any(is_program);
    match run_seed(given, program) {
        Some(s) => Ok(s),
        None => random_seed().map_err(RecordError::System),
    }
}

/// The table of an evolution's epochs as `fow evolve` prints it: about ten rows spread
/// over the history, and the last epoch.
pub fn history_table(history: &[EpochLog]) -> String {
    let n = history.len();
    let mut show: Vec<usize> = (0..n)
        .filter(|i| n <= 12 || i % (n / 10).max(1) == 0)
        .collect();
    if n > 0 && show.last() != Some(&(n - 1)) {
        show.push(n - 1);
    }
    let mut s = String::from("epoch  best score  benchmark  spread\n");
    for &i in &show {
        let h = &history[i];
        s.push_str(&format!(
            "{:>5}  {:>9.1}%  {:>9}  {:>6.3}\n",
            h.epoch,
            100.0 * h.best_score,
            h.benchmark_score
                .map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s)),
            h.spread
        ));
    }
    s
}

impl EvolveConfig {
    /// The settings in one line, as a run's first line shows them, with the epochs
    /// `done` so far.
    pub fn summary(&self, done: u32) -> String {
        let games = count(self.games_per_pair as usize, "game");
        format!(
            "evolving {} ({}): population {}, {}, step {}, {} ({done} done), {}, benchmark {} x{}, rules {}, seed {}",
            self.bot,
            count(self.start.len(), "parameter"),
            self.population,
            count(self.survivors, "survivor"),
            self.step,
            count(self.epochs as usize, "epoch"),
            match &self.against {
                Some(s) => format!("against {} ({games} per colour)", fow_players::player_label(s)),
                None => format!("round robin ({games} per ordered pair)"),
            },
            fow_players::player_label(&self.benchmark),
            self.benchmark_games,
            self.rules,
            self.seed
        )
    }

    /// The specs of the players besides the population: the fixed opponent, if any,
    /// and the benchmark.
    fn programs(&self) -> Result<Vec<fow_players::PlayerSpec>, RecordError> {
        self.against
            .iter()
            .chain(std::iter::once(&self.benchmark))
            .map(|s| Ok(s.parse::<PlayerSpec>()?))
            .collect()
    }

    /// What the evolution varies: the space's parameters, else the bot's family.
    pub fn genome(&self) -> Result<Genome, RecordError> {
        if let Some(space) = &self.space {
            space.check().map_err(crate::tune::tune_err)?;
            return Ok(Genome::Space(space.clone()));
        }
        find(&self.bot).and_then(|b| b.family).map(Genome::Family).ok_or_else(|| {
            let names: Vec<&str> = fow_players::registry()
                .iter()
                .filter(|b| b.family.is_some())
                .map(|b| b.name)
                .collect();
            RecordError::Settings(format!(
                "'{}' is not a parametrized bot (parametrized: {}; any player's named parameters evolve with fow tune --method ga)",
                self.bot,
                names.join(", ")
            ))
        })
    }

    /// Checks the settings.
    pub fn validated(self) -> Result<EvolveConfig, RecordError> {
        let n = self.genome()?.len();
        if self.start.len() != n {
            return Err(RecordError::Settings(format!(
                "{} takes {n} parameters, the start vector has {}",
                self.bot,
                self.start.len()
            )));
        }
        if self.population < 2 || self.survivors == 0 || self.survivors > self.population {
            return Err(RecordError::Settings(format!(
                "--population must be at least 2 and --survivors between 1 and the population (got {} and {})",
                self.population, self.survivors
            )));
        }
        if !(self.step.is_finite() && self.step >= 0.0) {
            return Err(RecordError::Settings("--step must be a number >= 0".into()));
        }
        if self.games_per_pair == 0 {
            return Err(RecordError::Settings(
                "--games-per-pair must be at least 1".into(),
            ));
        }
        for spec in self.against.iter().chain([&self.benchmark]) {
            spec.parse::<PlayerSpec>()?.build()?;
        }
        Ok(self)
    }
}

/// One epoch's line of the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpochLog {
    /// The epoch (0-based).
    pub epoch: u32,
    /// Index of the best individual in the epoch's population.
    pub best_index: usize,
    /// Its points (2 a win, 1 a draw).
    pub best_points: u32,
    /// The most points an individual could get.
    pub max_points: u32,
    /// Its share of the points it could get.
    pub best_score: f64,
    /// Its benchmark score (wins + draws/2 over games; empty without a benchmark).
    pub benchmark_score: Option<f64>,
    /// Mean over parameters of the population's standard deviation.
    pub spread: f64,
    /// Games played this epoch (benchmark included).
    pub games: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Checkpoint {
    epochs_done: u32,
    population: Vec<Vec<f64>>,
    history: Vec<EpochLog>,
    best: Vec<f64>,
    top: Option<(f64, Vec<f64>)>,
}

/// An evolution in a folder: created fresh or reopened from its checkpoint.
pub struct Evolution {
    dir: PathBuf,
    config: EvolveConfig,
    genome: Genome,
    state: Checkpoint,
    /// The folder's lock, held while the evolution is open.
    _folder: RunFolder,
}

fn json_err(path: &Path) -> impl FnOnce(serde_json::Error) -> RecordError + '_ {
    move |e| RecordError::Format {
        path: path.to_path_buf(),
        line: e.line() as u64,
        message: e.to_string(),
    }
}

impl Evolution {
    /// Starts an evolution in `out` (created if needed; it must not hold one already),
    /// or in a fresh `results/runs/<UTC timestamp>-evolve`.
    pub fn create(out: Option<&Path>, config: EvolveConfig) -> Result<Evolution, RecordError> {
        let config = config.validated()?;
        let genome = config.genome()?;
        let programs = config.programs()?;
        if let Some(dir) = out {
            crate::run::keep_out(&programs, dir)?;
        }
        let folder = RunFolder::create(out, "results/runs", "-evolve")?;
        let dir = &folder.dir().to_path_buf();
        crate::run::keep_out(&programs, dir)?;
        if dir.join(EVOLVE_FILE).exists() {
            return Err(RecordError::folder(
                dir,
                "already holds an evolution: use --resume to continue it, or another --out"
                    .to_string(),
            ));
        }
        let path = dir.join(EVOLVE_FILE);
        let text = serde_json::to_string_pretty(&config).map_err(json_err(&path))?;
        write_atomic(&path, text.as_bytes())?;
        let mut rng = Pcg64Mcg::seed_from_u64(mix(config.seed ^ 0x01a1_71a1));
        let mut population = vec![config.start.clone()];
        while population.len() < config.population {
            population.push(genome.mutant(&config.start, config.step, &mut rng));
        }
        let state = Checkpoint {
            epochs_done: 0,
            population,
            history: Vec::new(),
            best: config.start.clone(),
            top: None,
        };
        let evo = Evolution {
            dir: dir.to_path_buf(),
            config,
            genome,
            state,
            _folder: folder,
        };
        evo.save()?;
        Ok(evo)
    }

    /// Reopens the evolution in `dir` where its last checkpoint left it.
    pub fn open(dir: &Path) -> Result<Evolution, RecordError> {
        let path = dir.join(EVOLVE_FILE);
        if !path.is_file() {
            // A folder of another command says which one resumes it.
            fow_records::check_kind(dir, fow_records::FolderKind::Evolve)?;
            return Err(RecordError::folder(
                dir,
                format!("holds no evolution to resume (no {EVOLVE_FILE})"),
            ));
        }
        let folder = RunFolder::open(dir, Some(fow_records::FolderKind::Evolve))?;
        let config: EvolveConfig = fow_records::read_json(&path)?;
        let config = config.validated()?;
        let genome = config.genome()?;
        crate::run::keep_out(&config.programs()?, dir)?;
        let cpath = dir.join(CHECKPOINT_FILE);
        let state: Checkpoint = fow_records::read_json(&cpath)?;
        let n = config.start.len();
        if state.population.len() != config.population
            || state.population.iter().any(|p| p.len() != n)
            || state.history.len() != state.epochs_done as usize
        {
            return Err(RecordError::Format {
                path: cpath,
                line: 1,
                message: "the checkpoint does not match evolve.json".into(),
            });
        }
        Ok(Evolution {
            dir: dir.to_path_buf(),
            config,
            genome,
            state,
            _folder: folder,
        })
    }

    /// Raises the number of epochs to `epochs` (rewriting `evolve.json`); the epochs
    /// already run are unchanged.
    pub fn extend(&mut self, epochs: u32) -> Result<(), RecordError> {
        if epochs > self.config.epochs {
            self.config.epochs = epochs;
            let path = self.dir.join(EVOLVE_FILE);
            let text = serde_json::to_string_pretty(&self.config).map_err(json_err(&path))?;
            write_atomic(&path, text.as_bytes())?;
        }
        Ok(())
    }

    /// The settings.
    pub fn config(&self) -> &EvolveConfig {
        &self.config
    }

    /// The evolution's folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The files the evolution has written so far, in the order a run lists them.
    pub fn files(&self) -> Vec<PathBuf> {
        [LOG_FILE, BEST_FILE, CHECKPOINT_FILE, TOP_FILE]
            .iter()
            .map(|f| self.dir.join(f))
            .filter(|p| p.exists())
            .collect()
    }

    /// Epochs finished so far.
    pub fn epochs_done(&self) -> u32 {
        self.state.epochs_done
    }

    /// The log of every finished epoch.
    pub fn history(&self) -> &[EpochLog] {
        &self.state.history
    }

    /// The last finished epoch's best parameters (the start vector before any epoch).
    pub fn best(&self) -> &[f64] {
        &self.state.best
    }

    /// What the evolution varies.
    pub fn genome(&self) -> &Genome {
        &self.genome
    }

    /// The checkpoint, the log, `best.json` and `top-benchmark.json`, each written
    /// atomically: a kill at any moment leaves the last finished epoch on disk.
    fn save(&self) -> Result<(), RecordError> {
        let log = self.dir.join(LOG_FILE);
        let mut w = csv::Writer::from_writer(Vec::new());
        for h in &self.state.history {
            w.serialize(h).map_err(|e| RecordError::Io {
                path: log.clone(),
                message: e.to_string(),
            })?;
        }
        if self.state.history.is_empty() {
            w.write_record([
                "epoch",
                "best_index",
                "best_points",
                "max_points",
                "best_score",
                "benchmark_score",
                "spread",
                "games",
            ])
            .map_err(|e| RecordError::Io {
                path: log.clone(),
                message: e.to_string(),
            })?;
        }
        let bytes = w.into_inner().map_err(|e| RecordError::Io {
            path: log.clone(),
            message: e.to_string(),
        })?;
        write_atomic(&log, &bytes)?;
        write_atomic(
            &self.dir.join(BEST_FILE),
            self.genome.to_json(&self.state.best).as_bytes(),
        )?;
        if let Some((_, top)) = &self.state.top {
            write_atomic(
                &self.dir.join(TOP_FILE),
                self.genome.to_json(top).as_bytes(),
            )?;
        }
        // The checkpoint last: it is what --resume trusts.
        let cpath = self.dir.join(CHECKPOINT_FILE);
        let text = serde_json::to_string(&self.state).map_err(json_err(&cpath))?;
        write_atomic(&cpath, text.as_bytes())
    }

    /// Runs epochs until `config.epochs` are done, on `jobs` threads, calling `on_epoch`
    /// after each one is saved.
    pub fn run(
        &mut self,
        jobs: usize,
        mut on_epoch: impl FnMut(&EpochLog),
    ) -> Result<(), RecordError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs.max(1))
            .build()
            .map_err(|e| RecordError::System(format!("thread pool: {e}")))?;
        let against = match &self.config.against {
            Some(s) => Some(s.parse::<PlayerSpec>()?),
            None => None,
        };
        let benchmark: PlayerSpec = self.config.benchmark.parse()?;
        while self.state.epochs_done < self.config.epochs {
            let epoch = self.state.epochs_done;
            let log = pool.install(|| self.epoch(epoch, against.as_ref(), &benchmark))?;
            on_epoch(&log);
        }
        Ok(())
    }

    fn epoch(
        &mut self,
        epoch: u32,
        against: Option<&PlayerSpec>,
        benchmark: &PlayerSpec,
    ) -> Result<EpochLog, RecordError> {
        let cfg = &self.config;
        let pop = &self.state.population;
        let n = pop.len();
        let opts = GameOptions::new(cfg.rules);
        let genome = &self.genome;
        let epoch_seed = mix(cfg.seed ^ mix(u64::from(epoch) + 1));
        // Game seeds reach the players (through their own seeds): keyed and one-way.
        let key = SeedKey::public(cfg.seed);
        let epoch_bytes = epoch.to_le_bytes();
        let game_seed = |what: &[u8], w: u64, b: u64, k: u32| {
            key.derive(&[
                b"evolve",
                &epoch_bytes,
                what,
                &w.to_le_bytes(),
                &b.to_le_bytes(),
                &k.to_le_bytes(),
            ])
        };
        // (white, black, round); OPPONENT stands for the fixed opponent.
        const OPPONENT: usize = usize::MAX;
        let mut schedule = Vec::new();
        for k in 0..cfg.games_per_pair {
            for i in 0..n {
                match against {
                    Some(_) => {
                        schedule.push((i, OPPONENT, k));
                        schedule.push((OPPONENT, i, k));
                    }
                    None => {
                        for j in (0..n).filter(|&j| j != i) {
                            schedule.push((i, j, k));
                        }
                    }
                }
            }
        }
        let dir = &self.dir;
        let build = |who: usize| -> Result<Box<dyn fow_players::Player>, RecordError> {
            match (who, against) {
                (OPPONENT, Some(spec)) => {
                    let mut p = spec.build()?;
                    p.hide(dir);
                    Ok(p)
                }
                _ => genome.build(&pop[who]),
            }
        };
        let results: Vec<GameResult> = schedule
            .par_iter()
            .map(|&(w, b, k)| {
                let seed = game_seed(b"game", w as u64, b as u64, k);
                let (mut pw, mut pb) = (build(w)?, build(b)?);
                Ok(play_game(pw.as_mut(), pb.as_mut(), "w", "b", seed, &opts).result)
            })
            .collect::<Result<_, RecordError>>()?;
        let mut points = vec![0u32; n];
        for (&(w, b, _), r) in schedule.iter().zip(&results) {
            let (pw, pb) = match r {
                GameResult::WhiteWins => (2, 0),
                GameResult::BlackWins => (0, 2),
                GameResult::Draw => (1, 1),
            };
            if w != OPPONENT {
                points[w] += pw;
            }
            if b != OPPONENT {
                points[b] += pb;
            }
        }
        let games_each = match against {
            Some(_) => 2 * cfg.games_per_pair,
            None => 2 * cfg.games_per_pair * (n as u32 - 1),
        };
        let mut rank: Vec<usize> = (0..n).collect();
        rank.sort_by(|&a, &b| points[b].cmp(&points[a]).then(a.cmp(&b)));
        let best = rank[0];

        // The benchmark match of the epoch's best.
        let bench: Vec<f64> = (0..cfg.benchmark_games)
            .into_par_iter()
            .map(|g| {
                let mut me = build(best)?;
                let mut other = benchmark.build()?;
                other.hide(dir);
                let seed = game_seed(b"benchmark", 0, 0, g);
                let white = g % 2 == 0;
                let r = if white {
                    play_game(me.as_mut(), other.as_mut(), "w", "b", seed, &opts).result
                } else {
                    play_game(other.as_mut(), me.as_mut(), "w", "b", seed, &opts).result
                };
                Ok(match (r, white) {
                    (GameResult::Draw, _) => 0.5,
                    (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => 1.0,
                    _ => 0.0,
                })
            })
            .collect::<Result<_, RecordError>>()?;
        let benchmark_score =
            (!bench.is_empty()).then(|| bench.iter().sum::<f64>() / bench.len() as f64);

        let log = EpochLog {
            epoch,
            best_index: best,
            best_points: points[best],
            max_points: 2 * games_each,
            best_score: f64::from(points[best]) / f64::from(2 * games_each),
            benchmark_score,
            spread: spread(pop),
            games: schedule.len() as u64 + u64::from(cfg.benchmark_games),
        };

        // The next population: survivors in rank order, then mutants of random survivors.
        let mut rng = Pcg64Mcg::seed_from_u64(mix(epoch_seed ^ 0x005e_1ec7));
        let survivors: Vec<Vec<f64>> = rank[..cfg.survivors]
            .iter()
            .map(|&i| pop[i].clone())
            .collect();
        let mut next = survivors.clone();
        while next.len() < n {
            let parent = &survivors[rng.random_range(0..survivors.len())];
            next.push(genome.mutant(parent, cfg.step, &mut rng));
        }
        let best_params = pop[best].clone();
        if let Some(s) = benchmark_score {
            if self.state.top.as_ref().is_none_or(|(t, _)| s > *t) {
                self.state.top = Some((s, best_params.clone()));
            }
        }
        self.state.best = best_params;
        self.state.population = next;
        self.state.history.push(log.clone());
        self.state.epochs_done = epoch + 1;
        self.save()?;
        Ok(log)
    }
}

/// Mean over parameters of the population's standard deviation.
fn spread(pop: &[Vec<f64>]) -> f64 {
    let n = pop.len() as f64;
    let dims = pop.first().map_or(0, Vec::len);
    if dims == 0 {
        return 0.0;
    }
    (0..dims)
        .map(|d| {
            let mean = pop.iter().map(|p| p[d]).sum::<f64>() / n;
            (pop.iter().map(|p| (p[d] - mean).powi(2)).sum::<f64>() / n).sqrt()
        })
        .sum::<f64>()
        / dims as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(epochs: u32) -> EvolveConfig {
        EvolveConfig {
            bot: "PositionaryEvaluator".into(),
            space: None,
            start: vec![0.0; 389],
            population: 6,
            survivors: 2,
            step: 1.0,
            games_per_pair: 1,
            epochs,
            against: None,
            benchmark: "CaptureLargest".into(),
            benchmark_games: 10,
            rules: RuleSet::thesis(),
            seed: 4,
        }
    }

    fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
        [LOG_FILE, BEST_FILE, TOP_FILE, CHECKPOINT_FILE]
            .iter()
            .map(|f| (f.to_string(), std::fs::read(dir.join(f)).unwrap()))
            .collect()
    }

    #[test]
    fn resumed_runs_equal_uninterrupted_ones_and_threads_do_not_matter() {
        let tmp = tempfile::tempdir().unwrap();
        let a = tmp.path().join("a");
        let mut evo = Evolution::create(Some(&a), config(3)).unwrap();
        let mut seen = Vec::new();
        evo.run(2, |l| seen.push(l.epoch)).unwrap();
        assert_eq!(seen, [0, 1, 2]);
        assert_eq!(evo.history().len(), 3);

        // Stop after one epoch (as a kill would), then resume on one thread.
        let b = tmp.path().join("b");
        let mut short = Evolution::create(Some(&b), config(1)).unwrap();
        short.run(1, |_| {}).unwrap();
        drop(short);
        let mut resumed = Evolution::open(&b).unwrap();
        resumed.extend(3).unwrap();
        assert_eq!(resumed.epochs_done(), 1);
        resumed.run(1, |_| {}).unwrap();
        assert_eq!(files(&a), files(&b));
    }

    #[test]
    fn survivors_carry_over_and_mutants_stay_within_the_step() {
        let tmp = tempfile::tempdir().unwrap();
        let mut evo = Evolution::create(Some(tmp.path()), config(1)).unwrap();
        let before = evo.state.population.clone();
        evo.run(1, |_| {}).unwrap();
        let log = &evo.history()[0];
        let after = &evo.state.population;
        assert_eq!(after[0], before[log.best_index]);
        assert_eq!(evo.best(), before[log.best_index].as_slice());
        for m in &after[2..] {
            let near = after[..2]
                .iter()
                .any(|s| s.iter().zip(m).all(|(a, b)| (a - b).abs() <= 0.5));
            assert!(near, "a mutant is within step/2 of a survivor");
        }
        assert!(log.best_points > 0 && log.best_points <= log.max_points);
        assert_eq!(log.max_points, 2 * 2 * 5);
        assert!(log.benchmark_score.is_some());
        assert!(log.spread > 0.2 && log.spread < 0.35, "{}", log.spread);
    }

    #[test]
    fn against_mode_and_bad_settings() {
        let tmp = tempfile::tempdir().unwrap();
        let mut cfg = config(1);
        cfg.against = Some("RandomMove".into());
        cfg.benchmark_games = 0;
        let mut evo = Evolution::create(Some(tmp.path()), cfg).unwrap();
        evo.run(1, |_| {}).unwrap();
        let log = &evo.history()[0];
        assert_eq!(log.max_points, 4);
        assert_eq!(log.games, 12);
        assert_eq!(log.benchmark_score, None);
        // A second create in the same folder is refused.
        assert!(Evolution::create(Some(tmp.path()), config(1)).is_err());
        for bad in [
            EvolveConfig {
                bot: "RandomMove".into(),
                space: None,
                ..config(1)
            },
            EvolveConfig {
                start: vec![0.0; 3],
                ..config(1)
            },
            EvolveConfig {
                survivors: 7,
                ..config(1)
            },
            EvolveConfig {
                benchmark: "Nobody".into(),
                ..config(1)
            },
        ] {
            assert!(bad.validated().is_err());
        }
    }
}
