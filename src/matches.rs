//! `fow match`: a player against one opponent (or several: a gauntlet) in game pairs,
//! a fixed number of games or until an SPRT decides.

use std::sync::Mutex;

use fow_analysis::{match_results, sprt_of, sprt_step, MATCH_FILE};
use fow_arena::Tournament;
use fow_ratings::{Pentanomial, SprtSpec};
use fow_records::{FolderKind, GameRow, TournamentConfig};

use crate::error::{input, CliError};
use crate::out::count;
use crate::rules_args::RulesArgs;
use crate::run_args::RunArgs;
use crate::tournament::{create_run, public_seed_note, run_seed, seed_text};

/// Games of a match without --sprt, per opponent.
pub const DEFAULT_GAMES: u32 = 100;
/// The most games of an SPRT without --games, per opponent.
pub const DEFAULT_SPRT_GAMES: u32 = 20_000;

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
    let jobs = a.run.jobs()?;
    let limit = a.run.move_time_limit()?;
    let own = a.first.is_some()
        || a.opponents.is_some()
        || a.games.is_some()
        || a.sprt.is_some()
        || a.rules.any_given();
    let resume = a
        .run
        .resume_folder(own, "the players/--games/--sprt/--rules")?;
    let (t, dir) = if let Some(dir) = resume {
        (Tournament::resume(&dir, FolderKind::Match)?, dir)
    } else {
        let first = a.first.clone().expect("clap requires A");
        let opponents =
            fow_players::split_spec_list(&a.opponents.clone().expect("clap requires B"));
        if let Some(spec) = &a.sprt {
            SprtSpec::parse(spec).map_err(|e| input(format!("--sprt: {e}")))?;
            if opponents.len() != 1 {
                return Err(input("--sprt takes one opponent (a gauntlet has several)"));
            }
        }
        let default = if a.sprt.is_some() {
            DEFAULT_SPRT_GAMES
        } else {
            DEFAULT_GAMES
        };
        let games = a.games.unwrap_or(default);
        if games == 0 || games % 2 == 1 {
            return Err(input(format!(
                "--games must be a positive even number (games come in pairs), not {games}"
            )));
        }
        let mut players = vec![first];
        players.extend(opponents);
        let seed = run_seed(a.run.seed, &players);
        let mut config =
            TournamentConfig::new(players, games / 2, a.rules.rule_set()?, seed, a.run.nodes)?;
        config.kind = Some(FolderKind::Match);
        config.gauntlet = true;
        config.paired = true;
        config.sprt = a.sprt.clone();
        config.tc = a.run.time_control()?;
        config.openings = a.run.openings(&config.rules)?;
        a.run.shard_settings(&mut config)?;
        create_run(config.validated()?, a.run.out.clone(), "-match")?
    };
    let cfg = t.config().clone();
    let sprt = sprt_of(&cfg, &dir)?;
    let total = cfg.games_to_play().len();
    let labels = fow_players::player_labels(&cfg.players);
    outln!(
        "{} against {}: {} in pairs{}{}, rules {}, seed {}, {} -> {}",
        labels[0],
        labels[1..].join(", "),
        count(total, "game"),
        crate::tournament::shard_text(&cfg),
        match (&sprt, cfg.shard) {
            (Some(s), None) => format!(" at most, SPRT {}", s),
            (Some(s), Some(_)) =>
                format!(" (all of them: `fow merge` applies the SPRT {s} to the joined shards)"),
            (None, _) => String::new(),
        },
        cfg.rules,
        seed_text(&cfg, &dir),
        count(jobs, "job"),
        dir.display()
    );
    public_seed_note(&cfg);
    crate::tournament::unsandboxed_note(&cfg);
    crate::tournament::clock_note(&cfg);
    crate::tournament::openings_note(&cfg);
    let bar = a.run.progress_bar(total as u64);
    // The SPRT sees the pairs in schedule order, whatever order the games end in.
    let live = Mutex::new(Pentanomial::default());
    let stop = |g0: &GameRow, g1: &GameRow| {
        let (decided, shown) = sprt_step(&live, sprt.as_ref(), g0, g1);
        bar.set_message(shown);
        decided
    };
    let rep = t.run_until(
        jobs,
        limit,
        &|_, done, _| bar.set_position(done as u64),
        Some(&stop),
    )?;
    bar.finish_and_clear();
    let secs = rep.elapsed.as_secs_f64();
    outln!(
        "{} on disk, {} played now in {:.1} s{}\n",
        count(rep.games.len(), "game"),
        rep.played_now,
        secs,
        if rep.stopped {
            " (the SPRT decided)"
        } else {
            ""
        }
    );
    outln!(
        "{}",
        match_results(&cfg, &rep.games, sprt.as_ref(), rep.stopped, &dir)?
    );
    outln!("wrote {}", dir.join(MATCH_FILE).display());
    Ok(())
}
