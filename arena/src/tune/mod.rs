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

use fow_players::external::protocol::OptionType;
use fow_players::external::{engine_options, program_options, ProbeError, UciOptionKind};
use fow_players::tune::{builtin_declared, read_tune_file, Declared, TuneSpace};
use fow_players::PlayerSpec;
use fow_records::RecordError;

/// The space to tune: from the tune file `file` when one is given, else `player`'s
/// declared parameters `names`. `player` may be left out when the file names one. What
/// the file leaves out of a parameter comes from what the player says of it: a built-in
/// bot's declaration; an `exec:` program's `hello` (the program is started once to ask;
/// an option it does not declare, or declares without a number type, is an error at
/// its line); a UCI engine's `option` line (the engine is started once; an option it
/// does not list, or one that is not a spin, is an error at its line).
pub fn space_of(
    player: Option<&str>,
    names: &[String],
    file: Option<&Path>,
) -> Result<TuneSpace, RecordError> {
    let Some(path) = file else {
        let player = player.ok_or_else(|| {
            RecordError::Settings("name the player to tune (or give a --tune-file)".into())
        })?;
        return TuneSpace::declared(player, names).map_err(tune_err);
    };
    if !names.is_empty() {
        return Err(RecordError::Settings(
            "give the parameters in the tune file or with --params, not both".into(),
        ));
    }
    let f = read_tune_file(path).map_err(tune_err)?;
    let text = player
        .or(f.player.as_deref())
        .ok_or_else(|| RecordError::Format {
            path: path.to_path_buf(),
            line: 1,
            message: "names no player (player = \"SPEC\"), and none is given".into(),
        })?;
    let spec: PlayerSpec = text.parse()?;
    let at = |line: u64, message: String| RecordError::Format {
        path: path.to_path_buf(),
        line,
        message,
    };
    let probe = |e: ProbeError| match e {
        ProbeError::Spec(s) => RecordError::Spec(s),
        ProbeError::Program(p) => RecordError::Settings(format!(
            "{}: asked for its options: {}",
            fow_players::player_label(text),
            p.message
        )),
    };
    let mut told: Vec<(String, Declared)> = Vec::new();
    match spec.name.as_str() {
        "uci" => {
            let options = engine_options(&spec).map_err(probe)?;
            for (e, line) in &f.params {
                let o = options
                    .iter()
                    .find(|o| o.name == e.name || o.name.replace(' ', "_") == e.name)
                    .ok_or_else(|| at(*line, format!("the engine has no option '{}'", e.name)))?;
                let UciOptionKind::Spin { default, min, max } = o.kind else {
                    return Err(at(*line, format!("the engine's option '{}' is not a spin (a whole number): only spins are tuned", o.name)));
                };
                told.push((
                    e.name.clone(),
                    Declared {
                        default: default as f64,
                        min: min as f64,
                        max: max as f64,
                        int: true,
                    },
                ));
            }
        }
        "exec" => {
            let options = program_options(&spec).map_err(probe)?;
            for (e, line) in &f.params {
                let Some(options) = &options else { break };
                let o = options.iter().find(|o| o.name == e.name).ok_or_else(|| {
                    at(
                        *line,
                        format!("the program declares no option '{}' in its hello", e.name),
                    )
                })?;
                let int = match o.kind {
                    Some(OptionType::Int) => true,
                    Some(OptionType::Real) => false,
                    _ => return Err(at(*line, format!("the program's option '{}' is not a number (its hello gives it no type int or real)", e.name))),
                };
                let (Some(min), Some(max)) = (o.min, o.max) else {
                    continue;
                };
                let default = o.default.parse().unwrap_or(min);
                told.push((
                    e.name.clone(),
                    Declared {
                        default,
                        min,
                        max,
                        int,
                    },
                ));
            }
        }
        _ => {}
    }
    f.space(Some(text), |name| {
        told.iter()
            .find(|(n, _)| n == name)
            .map(|(_, d)| *d)
            .or_else(|| builtin_declared(&spec, name))
    })
    .map_err(tune_err)
}
