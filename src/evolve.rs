//! `fow evolve`: the thesis's genetic algorithm for any parametrized bot.

use std::path::PathBuf;
use std::time::Instant;

use fow_arena::evolve::{Evolution, EvolveConfig, BEST_FILE, LOG_FILE, TOP_FILE};
use fow_players::{find, player_label, registry};
use indicatif::{ProgressBar, ProgressStyle};

use crate::error::{input, CliError};
use crate::out::count;
use crate::rules_args::RulesArgs;
use crate::tournament::default_out;
use fow_analysis::benchmark_plot;
use fow_records::seed::{is_program, run_seed};

/// Evolve a parametrized bot's numbers with the thesis's genetic algorithm.
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
    let (mut evo, dir) = if a.resume {
        let dir = a.out.clone().expect("clap requires --out with --resume");
        if a.rules.any_given() {
            return Err(input(
                "--resume takes the rules from evolve.json; drop the rule options",
            ));
        }
        let mut evo = Evolution::open(&dir)?;
        evo.extend(a.epochs)?;
        (evo, dir)
    } else {
        let info = find(&a.bot).ok_or_else(|| {
            input(format!(
                "unknown bot '{}' (parametrized: {})",
                a.bot,
                parametrized_names()
            ))
        })?;
        let family = info.family.ok_or_else(|| {
            input(format!(
                "'{}' is not a parametrized bot (parametrized: {})",
                a.bot,
                parametrized_names()
            ))
        })?;
        let start = match a.start.as_str() {
            "zero" => vec![0.0; (family.param_names)().len()],
            "default" => (family.default_params)(),
            path => family.load(std::path::Path::new(path)).map_err(input)?,
        };
        let config = EvolveConfig {
            bot: a.bot.clone(),
            start,
            population: a.population,
            survivors: a.survivors,
            step: a.step,
            games_per_pair: a.games_per_pair,
            epochs: a.epochs,
            against: a.against.clone(),
            benchmark: a.benchmark.clone(),
            benchmark_games: a.benchmark_games,
            rules: a.rules.rule_set()?,
            seed: match run_seed(
                a.seed,
                a.against
                    .iter()
                    .chain([&a.benchmark])
                    .any(|s| is_program(s)),
            ) {
                Some(s) => s,
                None => fow_records::seed::random_seed().map_err(CliError::Failed)?,
            },
        };
        let dir = match a.out.clone() {
            Some(dir) => dir,
            None => {
                // Claims a folder no other run has (the lock is taken again by create).
                let (dir, lock) = fow_records::fresh_folder(&default_out("-evolve"))?;
                drop(lock);
                dir
            }
        };
        (Evolution::create(&dir, config)?, dir)
    };
    let cfg = evo.config().clone();
    outln!(
        "evolving {} ({}): population {}, {}, step {}, {} ({} done), {}, benchmark {} x{}, rules {}, seed {}, {} -> {}",
        cfg.bot,
        count(cfg.start.len(), "parameter"),
        cfg.population,
        count(cfg.survivors, "survivor"),
        cfg.step,
        count(cfg.epochs as usize, "epoch"),
        evo.epochs_done(),
        match &cfg.against {
            Some(s) => format!(
                "against {} ({} per colour)",
                player_label(s),
                count(cfg.games_per_pair as usize, "game")
            ),
            None => format!(
                "round robin ({} per ordered pair)",
                count(cfg.games_per_pair as usize, "game")
            ),
        },
        player_label(&cfg.benchmark),
        cfg.benchmark_games,
        cfg.rules,
        cfg.seed,
        count(jobs, "job"),
        dir.display()
    );
    let bar = if a.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(u64::from(cfg.epochs))
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] epoch {pos}/{len}, ETA {eta} {msg}",
        )
        .expect("valid template")
        .progress_chars("=> "),
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
    let ran = evo.epochs_done() - first;
    outln!(
        "{}, {} in {secs:.1} s ({:.0} games/s)",
        count(ran as usize, "epoch"),
        count(games as usize, "game"),
        games as f64 / secs.max(1e-9)
    );
    let history = evo.history();
    let show: Vec<usize> = {
        let n = history.len();
        let mut v: Vec<usize> = (0..n)
            .filter(|i| n <= 12 || i % (n / 10).max(1) == 0)
            .collect();
        if n > 0 && v.last() != Some(&(n - 1)) {
            v.push(n - 1);
        }
        v
    };
    outln!("\nepoch  best score  benchmark  spread");
    for &i in &show {
        let h = &history[i];
        outln!(
            "{:>5}  {:>9.1}%  {:>9}  {:>6.3}",
            h.epoch,
            100.0 * h.best_score,
            h.benchmark_score
                .map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s)),
            h.spread
        );
    }
    let plot = dir.join("plot.svg");
    if cfg.benchmark_games > 0 && !history.is_empty() {
        let points: Vec<(u32, f64)> = history
            .iter()
            .filter_map(|h| h.benchmark_score.map(|s| (h.epoch, 100.0 * s)))
            .collect();
        benchmark_plot(&plot, &cfg.bot, &player_label(&cfg.benchmark), &points)?;
    }
    outln!(
        "\nwrote {}, {}, {}{}{}",
        dir.join(LOG_FILE).display(),
        dir.join(BEST_FILE).display(),
        dir.join("checkpoint.json").display(),
        if dir.join(TOP_FILE).exists() {
            format!(", {}", dir.join(TOP_FILE).display())
        } else {
            String::new()
        },
        if plot.exists() {
            format!(", {}", plot.display())
        } else {
            String::new()
        }
    );
    Ok(())
}

fn parametrized_names() -> String {
    registry()
        .iter()
        .filter(|b| b.family.is_some())
        .map(|b| b.name)
        .collect::<Vec<_>>()
        .join(", ")
}
