//! `fow tune-worker` (hidden): one Slurm task's share of a batch of `fow tune`, which
//! starts it on every task of the allocation with `srun` (see `fow tune --srun`).

use std::path::PathBuf;

use fow_arena::tune::{play_share, slurm_task};

use crate::error::CliError;

/// Play this Slurm task's share of a batch of the tuning run in --dir (started by `fow
/// tune` through srun; SLURM_PROCID and SLURM_NTASKS say which share).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The tuning run's folder.
    #[arg(long, value_name = "DIR")]
    pub dir: PathBuf,
    /// The batch to play (the run's batches done so far).
    #[arg(long, value_name = "B")]
    pub batch: u32,
    /// Threads (default: the task's cores).
    #[arg(long, short)]
    pub jobs: Option<usize>,
}

/// Plays the share and writes its scores to DIR/work/.
pub fn run(a: Args) -> Result<(), CliError> {
    let (task, tasks) = slurm_task()?;
    play_share(&a.dir, a.batch, task, tasks, crate::jobs::jobs(a.jobs)?)?;
    Ok(())
}
