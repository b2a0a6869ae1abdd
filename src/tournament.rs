//! `fow tournament`: a parallel round robin with ratings at the end.

use fow_analysis::{thesis_comparison, tournament_results, Method, Preset, PRESET_GAMES};
use fow_arena::Run;
use fow_records::{FolderKind, Schedule};

use crate::error::{input, CliError};
use crate::out::count;
use crate::rules_args::RulesArgs;
use crate::run_args::RunArgs;

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

/// Runs (or resumes) the tournament and reports.
pub fn run(a: Args) -> Result<(), CliError> {
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
    let run = match a
        .run
        .resume_folder(own, "--players/--gauntlet/--games/--rules")?
    {
        Some(dir) => {
            let run = a.run.resume(&dir, FolderKind::Tournament)?;
            if let Some(p) = a.preset {
                p.check_resumed(run.config(), &dir)?;
            }
            run
        }
        None => new_run(&a)?,
    };
    let cfg = run.config();
    let total = cfg.games_to_play().len();
    outln!(
        "{} players, {} per ordered pair, {}{}, rules {}, seed {}, {} -> {}",
        cfg.players.len(),
        count(cfg.games_per_pair as usize, "game"),
        count(total, "game"),
        run.shard_text(),
        cfg.rules,
        run.seed_text(),
        count(a.run.jobs()?, "job"),
        run.dir().display()
    );
    let rep = a.run.play(&run, total, None)?;
    let dir = run.dir();
    let res = tournament_results(cfg, rep.games, &rep.times, dir, a.method)?;
    out!("{}", res.text);
    if a.preset.is_some() {
        outln!();
        out!(
            "{}",
            thesis_comparison(dir, cfg, &res.labels, &res.games, &rep.times)?
        );
    }
    Ok(())
}

/// A new tournament from the arguments.
fn new_run(a: &Args) -> Result<Run, CliError> {
    let games = a.games.unwrap_or(match a.preset {
        Some(_) => PRESET_GAMES,
        None => fow_arena::TOURNAMENT_GAMES,
    });
    let rules = a.rules.rule_set()?;
    let mut plan = a
        .run
        .plan(FolderKind::Tournament, players(a), games, rules)?;
    if a.gauntlet.is_some() {
        plan.schedule = Schedule::Gauntlet;
    }
    let suffix = a.preset.map_or(String::new(), |p| format!("-{}", p.name()));
    a.run.create(plan, &suffix)
}

/// The players of a new tournament: the preset's, --players, or the default ones, with
/// a gauntlet's player first (see [`fow_arena::tournament_players`]).
fn players(a: &Args) -> Vec<String> {
    let given = match (&a.preset, a.players.as_deref()) {
        (Some(p), _) => Some(p.players()),
        (None, Some(list)) => Some(fow_players::split_spec_list(list)),
        (None, None) => None,
    };
    fow_arena::tournament_players(given, a.gauntlet.as_deref())
}
