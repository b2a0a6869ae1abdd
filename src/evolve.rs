//! `fow evolve`: the thesis's genetic algorithm for any parametrized bot.

use std::path::PathBuf;
use std::time::Instant;

use fow_analysis::evolution_report;
use fow_arena::evolve::{evolve_seed, start_params, Evolution, EvolveConfig};

use crate::error::{input, CliError};
use crate::out::count;
use crate::rules_args::RulesArgs;

/// Evolve a parametrized bot's numbers with the thesis's genetic algorithm.
///
/// (`fow tune --method ga` runs the same algorithm on any player's named parameters.)
///
/// Each epoch every ordered pair of the population plays --games-per-pair games (or,
/// with --against, every individual plays that opponent with each colour), 2 points a
/// win and 1 a draw; the best --survivors carry over and every other slot copies a random
/// survivor plus uniform noise in [-step/2, step/2] on every parameter. The epoch's best
/// then plays a benchmark match whose score is logged. Deterministic from --seed; a
/// checkpoint after every epoch lets --resume continue exactly where a run stopped.
/// Writes DIR/log.csv, DIR/best.json (the last epoch's best), DIR/top-benchmark.json (the
/// best benchmark score so far) and DIR/plot.svg (benchmark score per epoch).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The parametrized bot to evolve.
    #[arg(long, default_value = "PositionaryEvaluator")]
    pub bot: String,
    /// Starting parameters: `zero`, `default` (the bot's shipped values) or a JSON
    /// parameter file (missing names keep the shipped values).
    #[arg(long, default_value = "zero", value_name = "zero|default|FILE")]
    pub start: String,
    /// Individuals per epoch.
    #[arg(long, default_value_t = 64)]
    pub population: usize,
    /// Individuals carried over to the next epoch.
    #[arg(long, default_value_t = 8)]
    pub survivors: usize,
    /// Width of the uniform mutation noise.
    #[arg(long, default_value_t = 1.0)]
    pub step: f64,
    /// Games per ordered pair each epoch (per colour with --against).
    #[arg(long, default_value_t = 1)]
    pub games_per_pair: u32,
    /// Epochs to run.
    #[arg(long, default_value_t = 440)]
    pub epochs: u32,
    /// Play every individual only against this opponent (a player spec).
    #[arg(long, value_name = "SPEC")]
    pub against: Option<String>,
    /// The benchmark opponent (a player spec).
    #[arg(long, default_value = "CaptureLargest", value_name = "SPEC")]
    pub benchmark: String,
    /// Games of each epoch's benchmark match, half with each colour (0: none).
    #[arg(long, default_value_t = 1000)]
    pub benchmark_games: u32,
    /// Master seed (default 2023; a fresh random one, recorded in evolve.json, when
    /// --against or --benchmark is a program player (exec:, uci:), since a program that
    /// knows a public seed can compute the evolved bot's random choices).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Threads (default: all cores).
    #[arg(long, short)]
    pub jobs: Option<usize>,
    /// Output folder (default: `results/runs/<UTC timestamp>-evolve`).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Continue the evolution in --out from its last checkpoint (with its stored settings;
    /// --epochs may raise the number of epochs).
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Runs or resumes an evolution.
pub fn run(a: Args) -> Result<(), CliError> {
    let jobs = crate::jobs::jobs(a.jobs)?;
    let mut evo = if a.resume {
        if a.rules.any_given() {
            return Err(input(
                "--resume takes the rules from evolve.json; drop the rule options",
            ));
        }
        let mut evo = Evolution::open(a.out.as_deref().expect("clap requires --out"))?;
        evo.extend(a.epochs)?;
        evo
    } else {
        Evolution::create(a.out.as_deref(), config(&a)?)?
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
        "{elapsed_precise} [{wide_bar}] epoch {pos}/{len}, ETA {eta} {msg}",
    );
    bar.set_position(u64::from(evo.epochs_done()));
    let started = Instant::now();
    let first = evo.epochs_done();
    let mut games = 0u64;
    evo.run(jobs, |log| {
        games += log.games;
        bar.set_position(u64::from(log.epoch + 1));
        bar.set_message(format!(
            "| best {:.1}%{}",
            100.0 * log.best_score,
            log.benchmark_score
                .map_or(String::new(), |s| format!(", benchmark {:.1}%", 100.0 * s))
        ));
    })?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    outln!(
        "{}, {} in {secs:.1} s ({:.0} games/s)",
        count((evo.epochs_done() - first) as usize, "epoch"),
        count(games as usize, "game"),
        games as f64 / secs.max(1e-9)
    );
    outln!("{}", evolution_report(&evo)?);
    Ok(())
}

/// The settings of a new evolution from the arguments.
fn config(a: &Args) -> Result<EvolveConfig, CliError> {
    Ok(EvolveConfig {
        bot: a.bot.clone(),
        space: None,
        start: start_params(&a.bot, &a.start)?,
        population: a.population,
        survivors: a.survivors,
        step: a.step,
        games_per_pair: a.games_per_pair,
        epochs: a.epochs,
        against: a.against.clone(),
        benchmark: a.benchmark.clone(),
        benchmark_games: a.benchmark_games,
        rules: a.rules.rule_set()?,
        seed: evolve_seed(a.seed, a.against.as_deref(), &a.benchmark)?,
    })
}
