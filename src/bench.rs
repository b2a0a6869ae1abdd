//! `fow bench`: speed of the arena and of perft, with a behaviour signature.

use std::time::Instant;

use fow_arena::bench::random_games;
use fow_arena::seed::mix;
use fow_variants::{perft, Position, RuleSet};

use crate::error::CliError;

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
    /// Repetitions of each measurement; the fastest is reported (this shared machine's
    /// timings vary by tens of percent between runs).
    #[arg(long, default_value_t = 5)]
    pub repeat: u32,
}

/// Runs the measurements and prints them.
pub fn run(a: Args) -> Result<(), CliError> {
    let jobs = a.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    if a.games == 0 || a.perft_depth == 0 || a.perft_depth > 8 {
        return Err(CliError::Input(
            "--games must be positive and --perft-depth between 1 and 8".into(),
        ));
    }
    let mut signature = 0u64;
    // Untimed warm-up: attack tables into cache, threads started, clocks up.
    random_games((a.games / 10).max(100), a.seed ^ 1, RuleSet::thesis(), jobs);
    println!(
        "random vs random, full arena path (observation built every ply), best of {}:",
        a.repeat.max(1)
    );
    let mut one_job = 0.0;
    let mut one_job_signature = 0;
    for rules in [RuleSet::thesis(), RuleSet::chesscom()] {
        let mut job_counts = vec![1];
        if jobs > 1 {
            job_counts.push(jobs);
        }
        for &j in &job_counts {
            let r = (0..a.repeat.max(1))
                .map(|_| random_games(a.games, a.seed, rules, j))
                .min_by_key(|r| r.elapsed)
                .expect("at least one repetition");
            let pps = r.plies_per_second();
            if j == 1 {
                one_job = pps;
            }
            println!(
                "  {:<8} {} job{}: {} games, {} plies in {:.3} s = {:.2} M plies/s{}",
                rules.to_string(),
                j,
                if j == 1 { " " } else { "s" },
                r.games,
                r.plies,
                r.elapsed.as_secs_f64(),
                pps / 1e6,
                if j > 1 {
                    format!(" ({:.2}x one job)", pps / one_job)
                } else {
                    String::new()
                }
            );
            if j == 1 {
                one_job_signature = r.signature;
                signature = mix(signature ^ r.signature);
            } else if r.signature != one_job_signature {
                return Err(CliError::Failed(format!(
                    "{j} jobs played other games than one job: determinism is broken"
                )));
            }
        }
    }
    println!(
        "perft from the start position, best of {}:",
        a.repeat.max(1)
    );
    for rules in [RuleSet::thesis(), RuleSet::chesscom()] {
        let mut n = 0;
        let mut s = f64::INFINITY;
        for _ in 0..a.repeat.max(1) {
            let t = Instant::now();
            n = perft(&Position::startpos(), a.perft_depth, &rules);
            s = s.min(t.elapsed().as_secs_f64());
        }
        println!(
            "  {:<8} depth {}: {n} nodes in {:.3} s = {:.1} M nodes/s",
            rules.to_string(),
            a.perft_depth,
            s,
            n as f64 / s / 1e6
        );
        signature = mix(signature ^ n);
    }
    println!(
        "signature: {signature:016x} (games {}, seed {}, perft depth {})",
        a.games, a.seed, a.perft_depth
    );
    Ok(())
}
