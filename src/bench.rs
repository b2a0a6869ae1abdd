//! `fow bench`: speed of the arena and of perft, with a behaviour signature.

use fow_arena::bench::{
    alternating_runs, belief_games, median_round_ratio, random_games, timed_perft, Signature,
};
use fow_variants::RuleSet;

use crate::error::{input, CliError};

/// Measure game and perft speed.
///
/// Plays random-versus-random games through the full arena path (the mover's observation
/// is built every ply) on one thread and on --jobs threads, then times perft. Ends with
/// a signature that changes only when behaviour changes.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Games per measurement.
    #[arg(long, default_value_t = 20_000)]
    pub games: usize,
    /// Threads for the parallel measurement (default: all cores).
    #[arg(long, short)]
    pub jobs: Option<usize>,
    /// Perft depth from the start position.
    #[arg(long, default_value_t = 5)]
    pub perft_depth: u32,
    /// Seed of the games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Repetitions of each measurement; the fastest is reported, and for games the
    /// median too (this shared machine's timings vary by tens of percent between runs).
    /// The one-job and parallel game runs take turns, and the parallel line also gives
    /// the median over the repetitions of its speed over the one-job run's beside it.
    #[arg(long, default_value_t = 5)]
    pub repeat: u32,
    /// Games of PossibleBoardList (default settings) against CaptureLargest for the belief
    /// tracking and search measurement (0 to skip).
    #[arg(long, default_value_t = 20)]
    pub belief_games: usize,
    /// Games of `fow serve RandomMove` run as an external program (the fow bot protocol)
    /// against RandomMove, for the round trip of one turn (0 to skip).
    #[arg(long, default_value_t = 20)]
    pub exec_games: usize,
}

/// Runs the measurements and prints them.
pub fn run(a: Args) -> Result<(), CliError> {
    let jobs = crate::jobs::jobs(a.jobs)?;
    if a.repeat == 0 {
        return Err(input("--repeat must be at least 1"));
    }
    if a.games == 0 {
        return Err(input("--games must be at least 1"));
    }
    if a.perft_depth == 0 || a.perft_depth > 8 {
        return Err(input("--perft-depth must be between 1 and 8"));
    }
    let mut signature = Signature::default();
    // Untimed warm-up: attack tables into cache, threads started, clocks up.
    random_games((a.games / 10).max(100), a.seed ^ 1, RuleSet::thesis(), jobs);
    outln!(
        "random vs random, full arena path (observation built every ply), best and median of {}:",
        a.repeat.max(1)
    );
    for rules in [RuleSet::thesis(), RuleSet::chesscom()] {
        let mut job_counts = vec![1];
        if jobs > 1 {
            job_counts.push(jobs);
        }
        let mut runs = alternating_runs(a.games, a.seed, rules, &job_counts, a.repeat);
        // Per-round ratio of the parallel run's speed to the one-job run's beside it.
        let round_ratio = match runs.as_slice() {
            [one, many] => median_round_ratio(one, many),
            _ => None,
        };
        let mut one_job = 0.0;
        let mut one_job_signature = 0;
        for (k, &j) in job_counts.iter().enumerate() {
            let runs = &mut runs[k];
            runs.sort_by_key(|r| r.elapsed);
            let median = runs[runs.len() / 2].plies_per_second();
            let r = &runs[0];
            let pps = r.plies_per_second();
            if j == 1 {
                one_job = pps;
            }
            outln!(
                "  {:<8} {} job{}: {} games, {} plies in {:.3} s = {:.2} M plies/s (median {:.2}){}",
                rules.to_string(),
                j,
                if j == 1 { " " } else { "s" },
                r.games,
                r.plies,
                r.elapsed.as_secs_f64(),
                pps / 1e6,
                median / 1e6,
                match round_ratio {
                    Some(ratio) if j > 1 => format!(
                        " ({:.2}x one job; median of rounds {ratio:.2}x)",
                        pps / one_job
                    ),
                    _ => String::new(),
                }
            );
            if j == 1 {
                one_job_signature = r.signature;
                signature.add(r.signature);
            }
            if runs.iter().any(|r| r.signature != one_job_signature) {
                return Err(CliError::Failed(format!(
                    "a run on {j} job{} played other games than the fastest one-job run: \
                     determinism is broken",
                    if j == 1 { "" } else { "s" }
                )));
            }
        }
    }
    outln!(
        "perft from the start position, best of {}:",
        a.repeat.max(1)
    );
    for rules in [RuleSet::thesis(), RuleSet::chesscom()] {
        let (n, time) = timed_perft(a.perft_depth, &rules, a.repeat);
        let s = time.as_secs_f64();
        outln!(
            "  {:<8} depth {}: {n} nodes in {:.3} s = {:.1} M nodes/s",
            rules.to_string(),
            a.perft_depth,
            s,
            n as f64 / s / 1e6
        );
        signature.add(n);
    }
    if a.belief_games > 0 {
        let opponent: fow_players::PlayerSpec = "CaptureLargest".parse().expect("a registered bot");
        let r = belief_games(a.belief_games, a.seed, RuleSet::thesis(), &opponent)
            .map_err(|e| CliError::Failed(e.to_string()))?;
        let update = r.update_time.as_secs_f64();
        let search = (r.think_time.saturating_sub(r.update_time)).as_secs_f64();
        outln!(
            "PossibleBoardList (default settings) vs CaptureLargest, thesis rules, {} games on one thread:",
            r.games
        );
        outln!(
            "  {} decisions, {:.2} ms per move ({:.2} ms updating the set, {:.2} ms searching); scored {:.1}/{}",
            r.decisions,
            r.think_time.as_secs_f64() * 1e3 / r.decisions.max(1) as f64,
            update * 1e3 / r.decisions.max(1) as f64,
            search * 1e3 / r.decisions.max(1) as f64,
            r.points,
            r.games
        );
        outln!(
            "  belief set: {} boards expanded, {} children checked, {} kept: {:.1} M children checked/s, {:.2} M boards expanded/s",
            r.expanded,
            r.children,
            r.kept,
            r.children as f64 / update.max(1e-9) / 1e6,
            r.expanded as f64 / update.max(1e-9) / 1e6
        );
        outln!(
            "  set size per decision: median {}, max {}; {} rebuilds from guesses",
            r.median_size(),
            r.max_size(),
            r.rebuilds
        );
        outln!(
            "  search: {} boards searched, {} nodes = {:.2} M nodes/s",
            r.searched,
            r.nodes,
            r.nodes as f64 / search.max(1e-9) / 1e6
        );
        signature.add(r.signature);
    }
    if a.exec_games > 0 {
        exec_round_trip(a.exec_games, a.seed)?;
    }
    outln!(
        "signature: {:016x} (games {}, seed {}, perft depth {}, belief games {})",
        signature.0,
        a.games,
        a.seed,
        a.perft_depth,
        a.belief_games
    );
    Ok(())
}

/// Plays `games` games of this program's `serve RandomMove` as an external bot against
/// the built-in RandomMove on one thread and prints the round trip of one turn and the
/// cost of starting and ending the program (wall clock; not part of the signature).
fn exec_round_trip(games: usize, seed: u64) -> Result<(), CliError> {
    let exe = std::env::current_exe()
        .map_err(|e| CliError::Failed(format!("cannot find this program: {e}")))?;
    let spec: fow_players::PlayerSpec = format!(
        "exec:cmd='{}' serve RandomMove",
        exe.display().to_string().replace('\'', "'\\''")
    )
    .parse()
    .map_err(|e| CliError::Failed(format!("{e}")))?;
    let random: fow_players::PlayerSpec = "RandomMove".parse().expect("a registered bot");
    let r = fow_arena::bench::exec_round_trip(&spec, &random, games, seed)
        .map_err(|e| CliError::Failed(e.to_string()))?;
    outln!("external bot (fow serve RandomMove over the fow bot protocol) vs RandomMove, {games} games on one thread:");
    outln!(
        "  {} turns, {:.1} us per turn round trip (in-process RandomMove: {:.2} us per move); {:.2} ms per game to start and end the program{}",
        r.turns,
        r.us_per_turn(),
        r.inside_us_per_move(),
        r.ms_per_game_outside(),
        if r.faults > 0 {
            format!("; {} games lost by a fault", r.faults)
        } else {
            String::new()
        }
    );
    Ok(())
}
