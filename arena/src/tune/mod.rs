//! Tuning any player's numeric parameters (`fow tune`) with SPSA as fishtest runs it
//! ([`spsa`]): batches of game pairs between two perturbed candidates (or each against
//! fixed opponents), played in parallel ([`batch`]), deterministic from the seed under
//! node budgets, checkpointed after every batch ([`Tuner`]); on this machine's threads or
//! over the tasks of a Slurm allocation ([`venue`], [`play_share`]).

pub mod batch;
pub mod spsa;
mod tuner;
pub mod venue;
mod worker;

pub use tuner::{
    tune_err, BatchLog, TuneConfig, Tuner, BEST_FILE, CHECKPOINT_FILE, TRAJECTORY_FILE,
};
pub use venue::{SrunTasks, Threads, Venue};
pub use worker::{play_share, slurm_task};

use std::path::Path;

use fow_players::tune::{builtin_declared, read_tune_file, TuneSpace};
use fow_players::PlayerSpec;
use fow_records::RecordError;

/// The space to tune: from the tune file `file` when one is given (its missing ranges
/// from what `player` declares), else `player`'s declared parameters `names`. `player`
/// may be left out when the file names one.
pub fn space_of(
    player: Option<&str>,
    names: &[String],
    file: Option<&Path>,
) -> Result<TuneSpace, RecordError> {
    match file {
        Some(path) => {
            if !names.is_empty() {
                return Err(RecordError::Settings(
                    "give the parameters in the tune file or with --params, not both".into(),
                ));
            }
            let f = read_tune_file(path).map_err(tune_err)?;
            let spec: PlayerSpec = player
                .or(f.player.as_deref())
                .unwrap_or("?")
                .parse()
                .unwrap_or_else(|_| PlayerSpec {
                    name: String::new(),
                    params: Vec::new(),
                });
            f.space(player, |name| builtin_declared(&spec, name))
                .map_err(tune_err)
        }
        None => {
            let player = player.ok_or_else(|| {
                RecordError::Settings("name the player to tune (or give a --tune-file)".into())
            })?;
            TuneSpace::declared(player, names).map_err(tune_err)
        }
    }
}
