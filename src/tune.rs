//! `fow tune`: SPSA tuning of any player's numeric parameters.

use std::path::PathBuf;
use std::time::Instant;

use fow_analysis::{evolution_report, verify_tuning, Verify, VERIFY_DIR};
use fow_arena::evolve::{evolve_seed, Evolution, EvolveConfig};
use fow_arena::tune::{
    space_of, SrunTasks, Threads, TuneConfig, Tuner, Venue, BEST_FILE, TRAJECTORY_FILE,
};

use crate::error::{input, CliError};
use crate::game_args::GameArgs;
use crate::out::count;
use crate::rules_args::RulesArgs;

/// Tune a player's numeric parameters with SPSA (as fishtest tunes Stockfish's).
///
/// Each batch plays --pairs game pairs between two candidates, theta + c*flip and
/// theta - c*flip (the same seed and opening with colours swapped), or with --against
/// each candidate against fixed opponents, then moves theta by R times c times (wins
/// minus losses) times flip, clamped to each range. The gains are fishtest's: per
/// parameter c_end and r_end, alpha 0.602, gamma 0.101, A a tenth of the run's pairs;
/// whole-number parameters are rounded stochastically per pair. A built-in bot's parameters come from
/// its declaration (--params); a program's or a UCI engine's from a --tune-file.
/// Deterministic from --seed under node budgets, whatever --jobs. Writes DIR/tune.csv
/// (each batch), DIR/best.json (the parameters now, and a spec that plays them) and a
/// checkpoint after every batch: --resume continues exactly.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The player to tune (a player spec; its other parameters stay as given), unless
    /// the tune file names it.
    #[arg(value_name = "SPEC")]
    pub player: Option<String>,
    /// The declared parameters to tune, comma-separated (a built-in bot's; see `fow
    /// players`).
    #[arg(long, value_name = "A,B,...", value_delimiter = ',')]
    pub params: Vec<String>,
    /// A tune file (TOML, or JSON when it ends in .json) naming each parameter with its
    /// start, range and steps (see the manual's "Tuning a bot").
    #[arg(long, value_name = "FILE")]
    pub tune_file: Option<PathBuf>,
    /// Play each candidate against these opponents (comma-separated specs, taken in
    /// turn by the pairs) instead of against each other.
    #[arg(long, value_name = "A,B,...")]
    pub against: Option<String>,
    /// SPSA's r_end for every parameter (its learning rate at the end of the run;
    /// default fishtest's 0.002, or the tune file's): larger moves further in fewer games.
    #[arg(long, value_name = "R")]
    pub r_end: Option<f64>,
    /// spsa (the default) or ga: the thesis's genetic algorithm (as `fow evolve` runs it
    /// on PositionaryEvaluator) on these parameters: --batches epochs of --population
    /// individuals, --survivors kept, mutations of up to --step times each range.
    #[arg(long, value_enum, default_value_t = Method::Spsa)]
    pub method: Method,
    /// ga: individuals per epoch.
    #[arg(long, default_value_t = 16, value_name = "N")]
    pub population: usize,
    /// ga: individuals kept each epoch.
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub survivors: usize,
    /// ga: the mutation noise, uniform in [-step/2, step/2] times each parameter's range.
    #[arg(long, default_value_t = 0.1, value_name = "X")]
    pub step: f64,
    /// ga: games per ordered pair of the population each epoch (per colour with --against).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub games_per_pair: u32,
    /// ga: the opponent of each epoch's best in its benchmark match.
    #[arg(long, default_value = "CaptureLargest", value_name = "SPEC")]
    pub benchmark: String,
    /// ga: games of each epoch's benchmark match (0: none).
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub benchmark_games: u32,
    /// SPSA batches (updates of theta); with --method ga, epochs.
    #[arg(long, default_value_t = 200, value_name = "N")]
    pub batches: u32,
    /// Game pairs per batch.
    #[arg(long, default_value_t = 8, value_name = "N")]
    pub pairs: u32,
    /// Master seed (default 2023; a fresh random one, recorded in tune.json, when a
    /// program player takes part).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Node budget per move for searching bots (deterministic).
    #[arg(long)]
    pub nodes: Option<u64>,
    #[command(flatten)]
    pub game: GameArgs,
    /// Threads (default: all cores).
    #[arg(long, short)]
    pub jobs: Option<usize>,
    /// Output folder (default: `results/runs/<UTC timestamp>-tune`).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Continue the run in --out from its checkpoint (with its stored settings; --batches
    /// may raise the number of batches).
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// When tuning ends, play the tuned spec against the start spec in game pairs until
    /// an SPRT decides (as `fow match --sprt` does; default
    /// `elo0=0,elo1=10,alpha=0.05,beta=0.05`), with the run's rules, nodes, clock and
    /// openings, in DIR/verify/; the verdict is printed and stored there in match.json.
    #[arg(long, value_name = "SPRT", num_args = 0..=1, require_equals = true,
          default_missing_value = fow_analysis::DEFAULT_VERIFY_SPRT)]
    pub verify: Option<String>,
    /// The most games of --verify (an even number).
    #[arg(long, value_name = "N", default_value_t = fow_analysis::DEFAULT_VERIFY_GAMES)]
    pub verify_games: u32,
    /// Spread each batch's pairs over the tasks of the Slurm allocation this runs in
    /// (SLURM_NTASKS), each task a `srun` of `fow tune-worker` playing a contiguous range;
    /// the same trajectory as on one machine. Without it, that happens when SLURM_NTASKS
    /// is more than 1 and srun is on PATH.
    #[arg(long)]
    pub srun: bool,
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// `--method`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Simultaneous perturbation stochastic approximation, as fishtest.
    Spsa,
    /// The thesis's genetic algorithm.
    Ga,
}

/// Runs or resumes a tuning run.
pub fn run(a: Args) -> Result<(), CliError> {
    let jobs = crate::jobs::jobs(a.jobs)?;
    let evolution = a
        .out
        .as_deref()
        .is_some_and(|d| d.join(fow_records::EVOLVE_FILE).is_file());
    if a.method == Method::Ga || (a.resume && evolution) {
        return run_ga(&a, jobs);
    }
    let verify = verification(&a)?;
    let venue = venue(&a, jobs)?;
    let mut tuner = open_or_create(&a)?;
    let cfg = tuner.config().clone();
    let dir = tuner.dir().display().to_string();
    outln!("{}, {} -> {dir}", tuner.summary(), count(jobs, "job"));
    if tuner.public_seed_note() {
        outln!("note: the seed is public: a program player that knows it can compute every player's random choices (leave out --seed for a fresh one)");
    }
    let bar = crate::out::progress_bar(
        a.quiet,
        u64::from(cfg.batches),
        "{elapsed_precise} [{wide_bar}] batch {pos}/{len}, {per_sec}, ETA {eta} {msg}",
    );
    bar.set_position(u64::from(tuner.done()));
    let (started, first) = (Instant::now(), tuner.done());
    tuner.run_on(venue.as_ref(), |log| {
        bar.set_position(u64::from(log.batch + 1));
        bar.set_message(format!("| score {:.1}%", 100.0 * log.score));
        true
    })?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let played = u64::from(tuner.done() - first) * tuner.games_per_batch();
    outln!(
        "{}, {} in {secs:.1} s ({:.1} games/s)",
        batches(tuner.done() - first),
        count(played as usize, "game"),
        played as f64 / secs.max(1e-9)
    );
    out!("{}", tuner.report());
    wrote(&tuner)?;
    verify.map_or(Ok(()), |v| verify_result(&tuner, &v, jobs, a.quiet))
}

/// Where the batches are played: the tasks of the Slurm allocation (with `--srun`, or
/// when there are several and `srun` answers), else here.
fn venue(a: &Args, jobs: usize) -> Result<Box<dyn Venue>, CliError> {
    let fow = std::env::current_exe().map_err(|e| input(format!("cannot find fow: {e}")))?;
    Ok(match SrunTasks::from_env(a.srun, fow, a.jobs)? {
        Some(tasks) => {
            outln!(
                "each batch's pairs spread over {} Slurm tasks (srun)",
                tasks.tasks
            );
            Box::new(tasks)
        }
        None => Box::new(Threads(jobs)),
    })
}

/// `--verify`, checked before the run.
fn verification(a: &Args) -> Result<Option<Verify>, CliError> {
    let Some(sprt) = &a.verify else {
        return Ok(None);
    };
    let v = Verify {
        sprt: sprt.clone(),
        games: a.verify_games,
    };
    v.check()?;
    Ok(Some(v))
}

/// Plays the verification of the tuned spec and prints its verdict.
fn verify_result(tuner: &Tuner, v: &Verify, jobs: usize, quiet: bool) -> Result<(), CliError> {
    let cfg = tuner.config();
    outln!(
        "\nverifying {} against the start {}: at most {}, SPRT {} -> {}",
        tuner.best_spec(),
        cfg.space.spec(&cfg.space.start()),
        count(v.games as usize, "game"),
        v.sprt,
        tuner.dir().join(VERIFY_DIR).display()
    );
    let bar = crate::out::progress_bar(
        quiet,
        u64::from(v.games),
        "{elapsed_precise} [{wide_bar}] {pos}/{len} games, ETA {eta} {msg}",
    );
    let (on_game, on_sprt) = (
        |n: usize| bar.set_position(n as u64),
        |s: &str| bar.set_message(s.to_string()),
    );
    let best = tuner.best_spec();
    let done = verify_tuning(tuner.dir(), cfg, &best, v, jobs, &on_game, &on_sprt)?;
    bar.finish_and_clear();
    outln!("{}", done.report.text().trim_end());
    outln!(
        "verified: {} after {} (wrote {})",
        done.verdict(),
        count(done.games, "game"),
        done.dir.join(fow_analysis::MATCH_FILE).display()
    );
    Ok(())
}

/// Draws the run's plot and says what the run wrote.
fn wrote(tuner: &Tuner) -> Result<(), CliError> {
    let plot = fow_analysis::tune_plot(tuner.dir())?;
    outln!(
        "wrote {}, {}, {}",
        tuner.dir().join(TRAJECTORY_FILE).display(),
        tuner.dir().join(BEST_FILE).display(),
        plot.display()
    );
    Ok(())
}

/// The run to resume (`--resume`, which takes no settings), or a new one.
fn open_or_create(a: &Args) -> Result<Tuner, CliError> {
    if !a.resume {
        return Ok(Tuner::create(a.out.as_deref(), config(a)?)?);
    }
    let given = a.player.is_some() || !a.params.is_empty() || a.tune_file.is_some();
    let game =
        a.game.tc.is_some() || a.game.openings.is_some() || a.nodes.is_some() || a.seed.is_some();
    if given || game || a.against.is_some() || a.r_end.is_some() || a.rules.any_given() {
        return Err(input(
            "--resume takes its settings from tune.json; give only --out, --batches, --jobs, --quiet, --verify, --verify-games and --srun",
        ));
    }
    let mut t = Tuner::open(a.out.as_deref().expect("clap requires --out"))?;
    t.extend(a.batches)?;
    Ok(t)
}

/// The settings of a new run from the arguments.
fn config(a: &Args) -> Result<TuneConfig, CliError> {
    let mut space = space_of(a.player.as_deref(), &a.params, a.tune_file.as_deref())?;
    if let Some(r) = a.r_end {
        if !(r.is_finite() && r > 0.0) {
            return Err(input(format!("--r-end must be more than 0, not {r}")));
        }
        space.params.iter_mut().for_each(|p| p.r_end = r);
    }
    let against = a
        .against
        .as_deref()
        .map(fow_players::split_spec_list)
        .unwrap_or_default();
    let mut c = TuneConfig::new(
        space,
        a.batches,
        a.pairs,
        against,
        a.rules.rule_set()?,
        a.seed,
    )?;
    c.nodes = a.nodes;
    c.tc = a.game.time_control()?;
    c.openings = a.game.openings(&c.rules)?;
    Ok(c)
}

/// `1 batch`, `5 batches`.
fn batches(n: u32) -> String {
    format!("{n} batch{}", if n == 1 { "" } else { "es" })
}

/// `--method ga`: the thesis's genetic algorithm on the space's parameters.
fn run_ga(a: &Args, jobs: usize) -> Result<(), CliError> {
    let mut evo = match a.resume {
        true => {
            let mut e = Evolution::open(a.out.as_deref().expect("clap requires --out"))?;
            e.extend(a.batches)?;
            e
        }
        false => {
            let space = config(a)?.space;
            let against = a.against.as_deref().map(fow_players::split_spec_list);
            if against.as_ref().is_some_and(|v| v.len() != 1) {
                return Err(input("--method ga takes one --against opponent"));
            }
            let config = EvolveConfig {
                bot: space.player.clone(),
                start: space.start(),
                space: Some(space),
                population: a.population,
                survivors: a.survivors,
                step: a.step,
                games_per_pair: a.games_per_pair,
                epochs: a.batches,
                against: against.and_then(|v| v.into_iter().next()),
                benchmark: a.benchmark.clone(),
                benchmark_games: a.benchmark_games,
                rules: a.rules.rule_set()?,
                seed: evolve_seed(a.seed, a.against.as_deref(), &a.benchmark)?,
            };
            Evolution::create(a.out.as_deref(), config)?
        }
    };
    outln!(
        "{}, {} -> {}",
        evo.config().summary(evo.epochs_done()),
        count(jobs, "job"),
        evo.dir().display()
    );
    let bar = crate::out::progress_bar(
        a.quiet,
        u64::from(evo.config().epochs),
        "{elapsed_precise} [{wide_bar}] epoch {pos}/{len}, ETA {eta}",
    );
    bar.set_position(u64::from(evo.epochs_done()));
    evo.run(jobs, |log| bar.set_position(u64::from(log.epoch + 1)))?;
    bar.finish_and_clear();
    outln!("{}", evolution_report(&evo)?);
    Ok(())
}
