//! `fow match`: a player against one opponent (or several: a gauntlet) in game pairs,
//! a fixed number of games or until an SPRT decides.

use std::sync::Mutex;

use fow_analysis::{match_results, sprt_of, sprt_step, MATCH_FILE};
use fow_arena::Run;
use fow_ratings::{Pentanomial, SprtSpec};
use fow_records::{FolderKind, GameRow};
use indicatif::ProgressBar;

use crate::error::{input, CliError};
use crate::out::count;
use crate::rules_args::RulesArgs;
use crate::run_args::RunArgs;

/// Play a match in game pairs: is A better than B, and by how much?
///
/// Games are played in pairs: the same game seed with colours swapped, each player
/// keeping its own seed in both games, so the luck of a seed cancels within a pair. With
/// --sprt the match stops as soon as a generalized SPRT on the pentanomial distribution
/// of pair scores (0, 0.5, 1, 1.5, 2 points for A), checked after every pair in schedule
/// order, accepts H0 or H1 (as fastchess and fishtest compute it). At the end: games,
/// W/D/L, pentanomial counts, score, Elo with its 95% interval, normalized Elo, LOS,
/// the LLR and the verdict, also written to DIR/match.json beside games.csv. Same seed,
/// same games, same verdict, whatever --jobs. A may meet itself (`fow match A A`), the
/// sanity check that equal players score near 50%.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The player under test (a player spec, see `fow players`).
    #[arg(value_name = "A", required_unless_present = "resume")]
    pub first: Option<String>,
    /// Its opponent, or opponents comma-separated for a gauntlet (A against each); A
    /// itself is allowed.
    #[arg(value_name = "B[,C,...]", required_unless_present = "resume")]
    pub opponents: Option<String>,
    /// Games against each opponent, an even number (pairs); with --sprt the most games
    /// (default 100; 20000 with --sprt).
    #[arg(long, short = 'n', value_name = "N")]
    pub games: Option<u32>,
    /// Stop when an SPRT decides: `elo0=X,elo1=Y[,alpha=0.05,beta=0.05][,model=logistic|normalized]`
    /// (one opponent only).
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Runs (or resumes) the match and reports.
pub fn run(a: Args) -> Result<(), CliError> {
    let own = a.first.is_some()
        || a.opponents.is_some()
        || a.games.is_some()
        || a.sprt.is_some()
        || a.rules.any_given();
    let run = match a
        .run
        .resume_folder(own, "the players/--games/--sprt/--rules")?
    {
        Some(dir) => a.run.resume(&dir, FolderKind::Match)?,
        None => new_run(&a)?,
    };
    let (cfg, dir) = (run.config(), run.dir());
    let sprt = sprt_of(cfg, dir)?;
    let total = cfg.games_to_play().len();
    let labels = fow_players::player_labels(&cfg.players);
    outln!(
        "{} against {}: {} in pairs{}{}, rules {}, seed {}, {} -> {}",
        labels[0],
        labels[1..].join(", "),
        count(total, "game"),
        run.shard_text(),
        match (&sprt, cfg.shard) {
            (Some(s), None) => format!(" at most, SPRT {}", s),
            (Some(s), Some(_)) =>
                format!(" (all of them: `fow merge` applies the SPRT {s} to the joined shards)"),
            (None, _) => String::new(),
        },
        cfg.rules,
        run.seed_text(),
        count(a.run.jobs()?, "job"),
        dir.display()
    );
    // The SPRT sees the pairs in schedule order, whatever order the games end in.
    let live = Mutex::new(Pentanomial::default());
    let stop = |g0: &GameRow, g1: &GameRow, bar: &ProgressBar| {
        let (decided, shown) = sprt_step(&live, sprt.as_ref(), g0, g1);
        bar.set_message(shown);
        decided
    };
    let rep = a.run.play(&run, total, Some(&stop))?;
    let text = match_results(cfg, &rep.games, sprt.as_ref(), rep.stopped, dir)?;
    outln!("{text}");
    outln!("wrote {}", dir.join(MATCH_FILE).display());
    Ok(())
}

/// Measure how exploitable a bot is: an approximate best response plays it in pairs.
///
/// The exploiter (`Exploiter:target=TARGET`, see `fow players`) knows TARGET's spec, not
/// its seed or the board: copies of TARGET play the histories it believes possible, and
/// those whose board looks different from what it sees are dropped; it scores its moves
/// over the boards left as BeliefSearch does. `--particles 0` plays without copies (as
/// BeliefSearch), the baseline. Reported as by `fow match` (the exploiter is A), into
/// DIR/match.json; resumable and shardable as a match is.
#[derive(clap::Args, Debug)]
pub struct ExploitArgs {
    /// The bot to exploit (a built-in bot's spec).
    #[arg(value_name = "TARGET", required_unless_present = "resume")]
    pub target: Option<String>,
    /// Copies of TARGET the exploiter starts each game with (0: the baseline).
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub particles: usize,
    /// Games, an even number (pairs; default 100).
    #[arg(long, short = 'n', value_name = "N")]
    pub games: Option<u32>,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Runs (or resumes) the exploiter's match against its target.
pub fn exploit(a: ExploitArgs) -> Result<(), CliError> {
    let first = a.target.as_ref().map(|t| {
        let params = [
            ("target", t.clone()),
            ("particles", a.particles.to_string()),
        ];
        let params = params.map(|(k, v)| (k.to_string(), v)).to_vec();
        let name = "Exploiter".to_string();
        fow_players::PlayerSpec { name, params }.to_string()
    });
    let (games, run_args, rules) = (a.games, a.run, a.rules);
    run(Args {
        first,
        opponents: a.target,
        games,
        sprt: None,
        run: run_args,
        rules,
    })
}

/// A new match from the arguments: A against B (or each of B, C, ...) in pairs.
fn new_run(a: &Args) -> Result<Run, CliError> {
    let mut players = vec![a.first.clone().expect("clap requires A")];
    players.extend(fow_players::split_spec_list(
        a.opponents.as_deref().expect("clap requires B"),
    ));
    if let Some(spec) = &a.sprt {
        SprtSpec::parse(spec).map_err(|e| input(format!("--sprt: {e}")))?;
    }
    let pairs =
        fow_arena::match_pairs(a.games, a.sprt.is_some(), players.len() - 1).map_err(input)?;
    let rules = a.rules.rule_set()?;
    let mut plan = a.run.plan(FolderKind::Match, players, pairs, rules)?;
    plan.sprt = a.sprt.clone();
    a.run.create(plan, "-match")
}
