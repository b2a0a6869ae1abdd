//! One task's share of a batch (`fow tune-worker`, which `fow tune` starts on every task
//! of a Slurm allocation with `srun`; see [`super::venue`]). The task computes the
//! batch's candidates from the run's `tune.json` and `checkpoint.json` exactly as the
//! [`Tuner`](super::Tuner) does, plays its range of the pairs and writes their scores
//! atomically to `DIR/work/<batch>-<task>.json`. It takes no lock: the folder's one
//! writer is the `fow tune` that started it, and the task writes only its own file.

use std::path::{Path, PathBuf};

use fow_records::{write_atomic, RecordError, TUNE_FILE};

use super::batch::play_pairs;
use fow_records::read_json;

use super::tuner::{BatchSetup, Checkpoint, TuneConfig, CHECKPOINT_FILE};
use super::venue::{share, work_path, WorkShare};

/// This task's number and the allocation's tasks, from `SLURM_PROCID` and
/// `SLURM_NTASKS` (which `srun` sets).
pub fn slurm_task() -> Result<(u32, u32), RecordError> {
    let var = |name: &str| -> Result<u32, RecordError> {
        let v = std::env::var(name).map_err(|_| {
            RecordError::Settings(format!(
                "{name} is not set: fow tune-worker runs as a task that fow tune starts with srun"
            ))
        })?;
        v.trim()
            .parse()
            .map_err(|_| RecordError::Settings(format!("{name} is '{v}', not a number")))
    };
    let (task, tasks) = (var("SLURM_PROCID")?, var("SLURM_NTASKS")?);
    if task >= tasks {
        return Err(RecordError::Settings(format!(
            "SLURM_PROCID is {task}, not below SLURM_NTASKS ({tasks})"
        )));
    }
    Ok((task, tasks))
}

/// Plays task `task` of `tasks`'s share of batch `batch` of the tuning run in `dir` with
/// `jobs` threads and writes its scores ([`WorkShare`]); the file written.
pub fn play_share(
    dir: &Path,
    batch: u32,
    task: u32,
    tasks: u32,
    jobs: usize,
) -> Result<PathBuf, RecordError> {
    let config: TuneConfig = read_json(&dir.join(TUNE_FILE))?;
    let state: Checkpoint = read_json(&dir.join(CHECKPOINT_FILE))?;
    if state.done != batch || state.theta.len() != config.space.params.len() {
        return Err(RecordError::Format {
            path: dir.join(CHECKPOINT_FILE),
            line: 1,
            message: format!(
                "the checkpoint is not the one before batch {batch} ({} batches done)",
                state.done
            ),
        });
    }
    let against = config.check()?;
    let openings = config.opening_positions()?;
    let setup = BatchSetup::new(&config, &state.theta, state.done);
    let plan = setup.plan(&config.space, &against, &openings);
    let range = share(u64::from(config.pairs), task, tasks);
    let scores = play_pairs(&plan, range.clone(), jobs)?;
    let share = WorkShare {
        batch,
        task,
        tasks,
        start: range.start,
        end: range.end,
        scores,
    };
    let path = work_path(dir, batch, task);
    let text = serde_json::to_string(&share).expect("a share serializes") + "\n";
    write_atomic(&path, text.as_bytes())?;
    Ok(path)
}
