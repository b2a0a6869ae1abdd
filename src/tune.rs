//! `fow tune`: SPSA tuning of any player's numeric parameters.

use std::path::PathBuf;
use std::time::Instant;

use fow_analysis::{verify_tuning, Verify, VERIFY_DIR};
use fow_arena::tune::{
    space_of, SrunTasks, Threads, TuneConfig, Tuner, Venue, BEST_FILE, TRAJECTORY_FILE,
};

use crate::error::{input, CliError};
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
    /// SPSA batches (updates of theta).
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
    /// A clock per side, BASE+INC in seconds (as `fow match --tc`; not deterministic).
    #[arg(long, value_name = "BASE+INC")]
    pub tc: Option<String>,
    /// Start positions (an EPD/FEN list, or PGN games played out for --opening-plies), one
    /// per game pair in turn, as `fow match --openings`.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// For PGN openings: the plies of each game to play out.
    #[arg(long, value_name = "N", requires = "openings")]
    pub opening_plies: Option<u32>,
    /// The order the pairs take the openings in: sequential or random.
    #[arg(
        long,
        value_name = "ORDER",
        requires = "openings",
        default_value = "sequential"
    )]
    pub opening_order: fow_records::OpeningOrder,
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

/// Runs or resumes a tuning run.
pub fn run(a: Args) -> Result<(), CliError> {
    let jobs = crate::jobs::jobs(a.jobs)?;
    let verify = verification(&a)?;
    let venue = venue(&a, jobs)?;
    let mut tuner = if a.resume {
        if a.player.is_some()
            || !a.params.is_empty()
            || a.tune_file.is_some()
            || a.rules.any_given()
        {
            return Err(input("--resume takes its settings from tune.json; drop the player, --params, --tune-file and the rule options"));
        }
        let mut t = Tuner::open(a.out.as_deref().expect("clap requires --out"))?;
        t.extend(a.batches)?;
        t
    } else {
        Tuner::create(a.out.as_deref(), config(&a)?)?
    };
    let cfg = tuner.config().clone();
    outln!(
        "tuning {} of {}: {} of {} ({} done), {}, rules {}, seed {}, {} -> {}",
        cfg.space
            .params
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        fow_players::player_label(&cfg.space.player),
        batches(cfg.batches),
        count(cfg.pairs as usize, "game pair"),
        tuner.done(),
        match cfg.against.is_empty() {
            true => "the candidates against each other".to_string(),
            false => format!("each candidate against {}", cfg.against.join(", ")),
        },
        cfg.rules,
        cfg.seed,
        count(jobs, "job"),
        tuner.dir().display()
    );
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
    let played = u64::from(tuner.done() - first) * u64::from(cfg.pairs) * 2;
    outln!(
        "{}, {} in {secs:.1} s ({:.1} games/s)",
        batches(tuner.done() - first),
        count(played as usize, "game"),
        played as f64 / secs.max(1e-9)
    );
    for (p, v) in cfg.space.params.iter().zip(tuner.theta()) {
        outln!(
            "  {:<16} {:>12.4}  (start {}, {} to {})",
            p.name,
            v,
            p.start,
            p.min,
            p.max
        );
    }
    outln!("tuned: {}", tuner.best_spec());
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

/// The settings of a new run from the arguments.
fn config(a: &Args) -> Result<TuneConfig, CliError> {
    let space = space_of(a.player.as_deref(), &a.params, a.tune_file.as_deref())?;
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
    c.tc =
        a.tc.as_deref()
            .map(str::parse)
            .transpose()
            .map_err(|e| input(format!("--tc: {e}")))?;
    if let Some(path) = &a.openings {
        let read = fow_records::Openings::read(path, &c.rules, a.opening_plies, a.opening_order);
        c.openings = Some(read?.0);
    }
    Ok(c)
}

/// `1 batch`, `5 batches`.
fn batches(n: u32) -> String {
    format!("{n} batch{}", if n == 1 { "" } else { "es" })
}
