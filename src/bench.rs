//! `fow bench`: speed of the arena and of perft, with a behaviour signature.

use fow_arena::bench::BenchSettings;

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
    /// Games of SubgameSolver against BeliefSearch, for their beliefs and times side by
    /// side (0 to skip).
    #[arg(long, default_value_t = 4)]
    pub solver_games: usize,
    /// With --solver-games: the same games replayed for each side with an exact belief of
    /// up to this many boards, for how far an exact belief reaches and what it costs (0
    /// to skip).
    #[arg(long, default_value_t = 100_000)]
    pub exact_cap: usize,
}

/// Runs the measurements and prints them.
pub fn run(a: Args) -> Result<(), CliError> {
    let mut settings = BenchSettings {
        games: a.games,
        jobs: crate::jobs::jobs(a.jobs)?,
        perft_depth: a.perft_depth,
        seed: a.seed,
        repeat: a.repeat,
        belief_games: a.belief_games,
        exec_games: a.exec_games,
        solver_games: a.solver_games,
        exact_cap: a.exact_cap,
        program: None,
    };
    settings.check().map_err(input)?;
    if a.exec_games > 0 {
        // This program's `serve RandomMove`, as an external bot.
        let exe = std::env::current_exe()
            .map_err(|e| CliError::Failed(format!("cannot find this program: {e}")))?;
        let spec = format!(
            "exec:cmd='{}' serve RandomMove",
            exe.display().to_string().replace('\'', "'\\''")
        );
        settings.program = Some(spec.parse().map_err(|e| CliError::Failed(format!("{e}")))?);
    }
    settings
        .run(&mut |line| outln!("{line}"))
        .map_err(CliError::Failed)?;
    Ok(())
}
