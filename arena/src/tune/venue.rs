//! Where a batch's pairs are played ([`Venue`]): on this machine's threads ([`Threads`]),
//! or over the tasks of a Slurm allocation ([`SrunTasks`]). There `srun` starts `fow
//! tune-worker` once per task; each task plays a contiguous range of the pairs
//! ([`share`]) and writes their scores to `DIR/work/<batch>-<task>.json`
//! ([`WorkShare`]), and the ranges are joined in order. Either way the scores come back
//! in pair order, so the trajectory does not depend on where the games were played.

use std::fs;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::Command;

use fow_records::RecordError;
use serde::{Deserialize, Serialize};

use super::batch::{play_pairs, BatchPlan, PairScore};

/// The folder, inside a tuning run's, where the tasks leave their scores.
pub const WORK_DIR: &str = "work";

/// Plays every pair of a batch.
pub trait Venue {
    /// The scores of every pair of `plan` (the next batch of the run in `dir`), in order.
    fn play(&self, plan: &BatchPlan<'_>, dir: &Path) -> Result<Vec<PairScore>, RecordError>;
}

/// This machine, with this many threads.
pub struct Threads(pub usize);

impl Venue for Threads {
    fn play(&self, plan: &BatchPlan<'_>, _dir: &Path) -> Result<Vec<PairScore>, RecordError> {
        play_pairs(plan, 0..plan.candidates.len() as u64, self.0)
    }
}

/// The pairs that task `task` of `tasks` plays of a batch of `pairs`: contiguous ranges,
/// in task order, their sizes differing by one at most (empty when there are more tasks
/// than pairs).
pub fn share(pairs: u64, task: u32, tasks: u32) -> Range<u64> {
    let (t, n) = (u64::from(task), u64::from(tasks.max(1)));
    pairs * t / n..pairs * (t + 1) / n
}

/// What a task leaves for the run's master: its share of a batch and the scores of its
/// pairs, in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkShare {
    /// The batch.
    pub batch: u32,
    /// The task (`SLURM_PROCID`).
    pub task: u32,
    /// The tasks (`SLURM_NTASKS`).
    pub tasks: u32,
    /// The first pair of its share.
    pub start: u64,
    /// The pair after its share.
    pub end: u64,
    /// The scores of the pairs `start..end`.
    pub scores: Vec<PairScore>,
}

/// Where task `task` leaves its share of batch `batch` of the run in `dir`.
pub fn work_path(dir: &Path, batch: u32, task: u32) -> PathBuf {
    dir.join(WORK_DIR).join(format!("{batch}-{task}.json"))
}

/// The tasks of a Slurm allocation: each batch runs `srun --ntasks=N PROGRAM
/// tune-worker --dir DIR --batch B` and joins the tasks' shares.
#[derive(Clone, Debug, PartialEq)]
pub struct SrunTasks {
    /// Tasks (`SLURM_NTASKS`).
    pub tasks: u32,
    /// The `fow` program each task runs (on a shared file system).
    pub program: PathBuf,
    /// Threads per task (`None`: each task's cores).
    pub jobs: Option<usize>,
}

impl SrunTasks {
    /// The tasks of the allocation this runs in: when `force` (`--srun`), those of
    /// `SLURM_NTASKS` (an error when it is not set); else, when `SLURM_NTASKS` is more
    /// than 1 and `srun` is on `PATH`, those; else none (play here).
    pub fn from_env(
        force: bool,
        program: PathBuf,
        jobs: Option<usize>,
    ) -> Result<Option<SrunTasks>, RecordError> {
        let tasks = std::env::var("SLURM_NTASKS").ok();
        let parsed = tasks
            .as_deref()
            .and_then(|t| t.trim().parse::<u32>().ok())
            .filter(|&n| n >= 1);
        let tasks = match (force, parsed) {
            (true, Some(n)) => n,
            (true, None) => {
                return Err(RecordError::Settings(match tasks {
                    Some(t) => format!("--srun: SLURM_NTASKS is '{t}', not a number of tasks"),
                    None => "--srun: SLURM_NTASKS is not set: run fow tune inside a Slurm allocation with several tasks (sbatch or salloc --ntasks=N)".into(),
                }))
            }
            (false, Some(n)) if n > 1 && on_path("srun") => n,
            (false, _) => return Ok(None),
        };
        Ok(Some(SrunTasks {
            tasks,
            program,
            jobs,
        }))
    }

    /// The `srun` command of batch `batch` of the run in `dir`.
    pub fn command(&self, dir: &Path, batch: u32) -> Command {
        let mut c = Command::new("srun");
        c.arg(format!("--ntasks={}", self.tasks))
            .arg("--kill-on-bad-exit=1");
        // Newer srun does not take --cpus-per-task from the allocation by itself.
        if let Ok(cpus) = std::env::var("SLURM_CPUS_PER_TASK") {
            c.arg(format!("--cpus-per-task={cpus}"));
        }
        c.arg(&self.program)
            .arg("tune-worker")
            .arg("--dir")
            .arg(dir)
            .arg("--batch")
            .arg(batch.to_string());
        if let Some(j) = self.jobs {
            c.arg("--jobs").arg(j.to_string());
        }
        c
    }
}

impl Venue for SrunTasks {
    fn play(&self, plan: &BatchPlan<'_>, dir: &Path) -> Result<Vec<PairScore>, RecordError> {
        let batch = plan.batch as u32;
        let pairs = plan.candidates.len() as u64;
        let work = dir.join(WORK_DIR);
        fs::create_dir_all(&work).map_err(fow_records::io_err(&work))?;
        let paths: Vec<PathBuf> = (0..self.tasks).map(|t| work_path(dir, batch, t)).collect();
        // Shares left by an earlier try at this batch are not this try's.
        remove(&paths)?;
        let mut command = self.command(dir, batch);
        let status = command.status().map_err(|e| {
            RecordError::System(format!("cannot start srun for batch {batch}: {e}"))
        })?;
        if !status.success() {
            return Err(RecordError::System(format!(
                "the {} tasks of batch {batch} failed (srun: {status}); each task's error is above",
                self.tasks
            )));
        }
        let mut scores = Vec::with_capacity(pairs as usize);
        for (task, path) in (0..self.tasks).zip(&paths) {
            let text = fs::read_to_string(path).map_err(|e| {
                RecordError::System(format!(
                    "task {task} of batch {batch} left no scores ({}: {e})",
                    path.display()
                ))
            })?;
            let w: WorkShare = serde_json::from_str(&text).map_err(|e| RecordError::Format {
                path: path.clone(),
                line: e.line() as u64,
                message: e.to_string(),
            })?;
            let range = share(pairs, task, self.tasks);
            if (w.batch, w.task, w.tasks, w.start..w.end)
                != (batch, task, self.tasks, range.clone())
                || w.scores.len() as u64 != range.end - range.start
            {
                return Err(RecordError::Format {
                    path: path.clone(),
                    line: 1,
                    message: format!(
                        "does not hold task {task} of {}'s share of batch {batch} (pairs {} to {})",
                        self.tasks, range.start, range.end
                    ),
                });
            }
            scores.extend(w.scores);
        }
        remove(&paths)?;
        Ok(scores)
    }
}

/// Removes each of `paths` that exists.
fn remove(paths: &[PathBuf]) -> Result<(), RecordError> {
    for p in paths {
        match fs::remove_file(p) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(fow_records::io_err(p)(e))
            }
            _ => {}
        }
    }
    Ok(())
}

/// Whether a file `name` is in a folder of `PATH`.
fn on_path(name: &str) -> bool {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).any(|d| d.join(name).is_file())
}

#[cfg(test)]
mod tests {
    use super::share;

    #[test]
    fn shares_are_contiguous_in_task_order_and_cover_the_batch() {
        for pairs in [0, 1, 4, 8, 13] {
            for tasks in 1..=9 {
                let shares: Vec<_> = (0..tasks).map(|t| share(pairs, t, tasks)).collect();
                assert_eq!(shares[0].start, 0);
                assert_eq!(shares[tasks as usize - 1].end, pairs);
                for w in shares.windows(2) {
                    assert_eq!(w[0].end, w[1].start);
                }
                let sizes = shares.iter().map(|s| s.end - s.start);
                assert!(sizes.clone().max().unwrap() - sizes.min().unwrap() <= 1);
            }
        }
        assert_eq!(share(8, 1, 3), 2..5);
    }
}
