//! `fow tournament`: a parallel round robin with ratings at the end.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use fow_arena::Tournament;
use fow_records::seed::is_program;
use fow_records::{
    FolderKind, GameRow, TimeRow, TournamentConfig, CONFIG_FILE, GAMES_FILE, TIMES_FILE,
};
use fow_variants::RuleSet;

use crate::error::{input, CliError};
use crate::out::count;
use crate::rules_args::RulesArgs;
use crate::run_args::RunArgs;
use fow_analysis::{
    fit, labelled, matrix_of, ms_per_move, report, Method, CROSSTABLE_FILE, LOS_FILE, RATINGS_FILE,
    SUMMARY_FILE,
};
use fow_analysis::{Preset, PRESET_GAMES};

/// Play a round robin and rate the players.
///
/// Every ordered pair of players meets N times (so N times with each colour). Games run
/// in parallel, each appended to DIR/games.csv as it ends (an interrupted run continues
/// with --resume). At the end the crosstable and ratings are printed and written to
/// DIR/crosstable.csv, DIR/ratings.csv and DIR/los.csv. Same settings and seed, same files.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Play a preset: `thesis` (the thesis's ten bots in its order, its network as
    /// NeuralNetworkPlayer:weights=thesis, `thesis` rules, 100 games per ordered pair:
    /// 9,000 games) or `thesis-extended` (the ten plus
    /// PositionaryEvaluator with the thesis's parameters, read from
    /// data/thesis/positionary_evaluator_params.json: 11,000 games). --games, --seed and
    /// --nodes still apply; --players and --rules may not be given. At the end the ratings
    /// are compared with the thesis's (as `fow compare-thesis DIR` does). With --resume:
    /// checks that DIR holds that preset.
    #[arg(long, value_enum, value_name = "PRESET")]
    pub preset: Option<Preset>,
    /// Player specs, comma-separated (default: the ten bots of the thesis, every
    /// registered bot but BeliefSearch); a spec's own parameters may follow it
    /// (`RandomMove,PossibleBoardList:cap=500,sample=8`). See `fow players`.
    #[arg(long, value_name = "A,B,...")]
    pub players: Option<String>,
    /// A gauntlet: this player against each of the --players (default: every registered
    /// bot but itself), not the others among themselves. It may not be among the
    /// --players (`fow match A A` plays a player against itself).
    #[arg(long, value_name = "SPEC", conflicts_with = "preset")]
    pub gauntlet: Option<String>,
    /// Games per ordered pair (default 20; 100 with --preset).
    #[arg(long, short = 'n', value_name = "N")]
    pub games: Option<u32>,
    #[command(flatten)]
    pub run: RunArgs,
    /// Columns beside the default fit (BayesElo's model with 95% intervals): thesis (the
    /// thesis's iterative Elo, K = 1; also shown when it disagrees with the default fit), mle
    /// (maximum likelihood counting a draw as half a win) or both.
    #[arg(long, value_enum, default_value_t = Method::Bayeselo)]
    pub method: Method,
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// The default number of games per ordered pair.
pub const DEFAULT_GAMES: u32 = 20;

/// Runs (or resumes) the tournament and reports.
pub fn run(a: Args) -> Result<(), CliError> {
    let jobs = a.run.jobs()?;
    let limit = a.run.move_time_limit()?;
    if let Some(p) = a.preset {
        if a.players.is_some() || a.rules.any_given() {
            return Err(input(format!(
                "--preset {} fixes the players and the rules (thesis): drop --players/--rules and the rule overrides",
                p.name()
            )));
        }
        p.check_files()?;
    }
    let own =
        a.players.is_some() || a.gauntlet.is_some() || a.games.is_some() || a.rules.any_given();
    let resume = a
        .run
        .resume_folder(own, "--players/--gauntlet/--games/--rules")?;
    let (t, dir) = if let Some(dir) = resume {
        let t = Tournament::resume(&dir, FolderKind::Tournament)?;
        if let Some(p) = a.preset {
            let why = match p.mismatch(&t.config().players) {
                Some(why) => Some(why),
                None if t.config().rules != RuleSet::thesis() => {
                    Some(format!("rules {}", t.config().rules))
                }
                None => None,
            };
            if let Some(why) = why {
                return Err(input(format!(
                    "{} does not hold a --preset {} tournament ({why})",
                    dir.display(),
                    p.name(),
                )));
            }
        }
        (t, dir)
    } else {
        let mut players = match (&a.preset, a.players.as_deref()) {
            (Some(p), _) => p.players(),
            (None, Some(list)) => fow_players::split_spec_list(list),
            (None, None) => fow_players::default_players()
                .into_iter()
                .map(String::from)
                .collect(),
        };
        if let Some(first) = &a.gauntlet {
            if a.players.is_none() {
                players.retain(|p| p != first);
            }
            players.insert(0, first.clone());
        }
        let default_games = if a.preset.is_some() {
            PRESET_GAMES
        } else {
            DEFAULT_GAMES
        };
        let seed = run_seed(a.run.seed, &players);
        let mut config = TournamentConfig::new(
            players,
            a.games.unwrap_or(default_games),
            a.rules.rule_set()?,
            seed,
            a.run.nodes,
        )?;
        config.gauntlet = a.gauntlet.is_some();
        config.tc = a.run.time_control()?;
        config.openings = a.run.openings(&config.rules)?;
        a.run.shard_settings(&mut config)?;
        let suffix = a.preset.map_or(String::new(), |p| format!("-{}", p.name()));
        create_run(config.validated()?, a.run.out.clone(), &suffix)?
    };
    let cfg = t.config().clone();
    let total = cfg.games_to_play().len();
    outln!(
        "{} players, {} per ordered pair, {}{}, rules {}, seed {}, {} -> {}",
        cfg.players.len(),
        count(cfg.games_per_pair as usize, "game"),
        count(total, "game"),
        shard_text(&cfg),
        cfg.rules,
        seed_text(&cfg, &dir),
        count(jobs, "job"),
        dir.display()
    );
    public_seed_note(&cfg);
    unsandboxed_note(&cfg);
    clock_note(&cfg);
    openings_note(&cfg);
    let bar = a.run.progress_bar(total as u64);
    let rep = t.run(jobs, limit, &|_, done, _| bar.set_position(done as u64))?;
    bar.finish_and_clear();
    let secs = rep.elapsed.as_secs_f64();
    outln!(
        "{} on disk, {} played now in {:.1} s ({:.0} games/s)\n",
        count(rep.games.len(), "game"),
        rep.played_now,
        secs,
        rep.played_now as f64 / secs.max(1e-9)
    );

    let (labels, games) = results(&cfg, rep.games, &rep.times, &dir, a.method)?;
    if a.preset.is_some() {
        outln!();
        crate::compare_thesis::print_comparison(&dir, &cfg, &labels, &games, &rep.times)?;
    }
    Ok(())
}

/// Prints a finished run's crosstable and ratings and writes their files to `dir`;
/// returns the players' labels and the games relabelled as the tables show them.
pub(crate) fn results(
    cfg: &TournamentConfig,
    games: Vec<GameRow>,
    times: &[TimeRow],
    dir: &Path,
    method: Method,
) -> Result<(Vec<String>, Vec<GameRow>), CliError> {
    let (labels, games) = labelled(&cfg.players, games);
    let m = matrix_of(&labels, &games)?;
    let ms = ms_per_move(&labels, &games, times);
    let fits = fit(&m, None, method)?;
    out!("{}", report(&m, &fits, Some(&ms), Some(dir))?);
    let faults = games
        .iter()
        .filter(|g| g.game_reason().is_ok_and(|r| r.is_fault()))
        .count();
    if faults > 0 {
        outln!(
            "note: {} ended by a player fault (see the reason and detail columns of games.csv)",
            count(faults, "game")
        );
    }
    outln!("\nwrote {}", files_written(dir));
    Ok((labels, games))
}

/// The master seed of a new run ([`fow_records::seed::run_seed`]): the one given, else a
/// secret key (`None`) when a program player takes part, else the default public seed.
pub(crate) fn run_seed(given: Option<u64>, players: &[String]) -> Option<u64> {
    fow_records::seed::run_seed(given, players.iter().any(|p| is_program(p)))
}

/// ` of shard I/N (M in all)` for a shard's first line; empty for a whole run.
pub(crate) fn shard_text(cfg: &TournamentConfig) -> String {
    match cfg.shard {
        Some(s) => format!(" of shard {s} ({} in all)", cfg.game_count()),
        None => String::new(),
    }
}

/// Says that games under a clock are not deterministic.
pub(crate) fn clock_note(cfg: &TournamentConfig) {
    if let Some(tc) = cfg.tc {
        outln!("note: a clock per side ({tc}): the games depend on the machine's speed, so the same seed can give other games (node budgets are deterministic); each side's time left after each move is in clocks.csv");
    }
}

/// Says where the games start, with openings.
pub(crate) fn openings_note(cfg: &TournamentConfig) {
    if let Some(o) = &cfg.openings {
        let plies = o.plies.map_or(String::new(), |p| {
            format!(" after {p} {}", if p == 1 { "ply" } else { "plies" })
        });
        outln!(
            "openings: {} from {}{plies}, {} order; the games of a round start from its opening (each opening with both colours)",
            count(o.positions.len(), "position"),
            o.source,
            o.order
        );
    }
}

/// Says so when a public seed meets a program player.
pub(crate) fn public_seed_note(cfg: &TournamentConfig) {
    if cfg.seed.is_some() && cfg.players.iter().any(|p| is_program(p)) {
        outln!("note: the seed is public: a program player that knows it can compute every player's random choices (leave out --seed for a secret key; see docs/src/tournament.md)");
    }
}

/// Says so, once, when a run with a secret key has a program player outside the
/// sandbox: such a program runs with the user's rights, so it can read the key (through
/// the results folder or fow's /proc) and from it every player's random choices, and can
/// write into the results folder.
pub(crate) fn unsandboxed_note(cfg: &TournamentConfig) {
    if cfg.seed.is_some() {
        return;
    }
    let open: Vec<String> = cfg
        .players
        .iter()
        .filter(|p| is_program(p))
        .filter(|p| {
            p.parse::<fow_players::PlayerSpec>()
                .is_ok_and(|s| s.param("sandbox") != Some("bwrap"))
        })
        .map(|p| fow_players::player_label(p))
        .collect();
    if !open.is_empty() {
        outln!(
            "note: {} without the sandbox: a program run so can read this run's secret key and from it every player's random choices, and write into the results folder (add sandbox=bwrap to its spec; see docs/src/protocol.md)",
            match open.as_slice() {
                [one] => format!("{one} runs"),
                many => format!("{} run", many.join(", ")),
            }
        );
    }
}

/// Makes a new run's folder (`out`, or a fresh `results/runs/<timestamp><suffix>`), holding
/// its lock, and the run in it.
pub(crate) fn create_run(
    config: TournamentConfig,
    out: Option<PathBuf>,
    suffix: &str,
) -> Result<(Tournament, PathBuf), CliError> {
    Ok(match out {
        Some(dir) => (Tournament::create(config, &dir)?, dir),
        None => {
            let (dir, lock) = fow_records::fresh_folder(&default_out(suffix))?;
            (Tournament::create_locked(config, lock)?, dir)
        }
    })
}

/// The seed as the first line shows it: the number, or where the secret key is.
pub(crate) fn seed_text(cfg: &TournamentConfig, dir: &Path) -> String {
    match cfg.seed {
        Some(s) => s.to_string(),
        None => format!(
            "secret (its key is in {})",
            dir.join(fow_records::seed::SECRET_FILE).display()
        ),
    }
}

fn files_written(dir: &Path) -> String {
    [
        CONFIG_FILE,
        GAMES_FILE,
        TIMES_FILE,
        CROSSTABLE_FILE,
        RATINGS_FILE,
        SUMMARY_FILE,
        LOS_FILE,
    ]
    .map(|f| dir.join(f))
    .iter()
    .filter(|p| p.exists())
    .map(|p| p.display().to_string())
    .collect::<Vec<_>>()
    .join(", ")
}

/// `results/runs/<YYYYmmdd-HHMMSS><suffix>` in UTC.
pub fn default_out(suffix: &str) -> PathBuf {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    PathBuf::from(format!(
        "results/runs/{y:04}{m:02}{d:02}-{:02}{:02}{:02}{suffix}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    ))
}
