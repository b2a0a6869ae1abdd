//! What the tuner (`fow tune`) moves: a player and some of its numeric parameters, each
//! with a start, a range and SPSA's step sizes ([`TuneSpace`], [`TuneParam`]).
//!
//! A built-in bot's parameters come from its declaration ([`crate::param::Param`]); a
//! program's (`exec:`) and a UCI engine's (`uci:`) from a tune file ([`read_tune_file`]),
//! whose missing ranges the caller may fill in from what the program or the engine says
//! of its options. Every candidate the tuner plays is an ordinary player spec
//! ([`TuneSpace::spec`]) with the tuned keys set, so it plays the same outside the tuner.

mod file;
mod space;

pub use file::{read_tune_file, ParamEntry, TuneFile};
pub use space::{builtin_declared, Declared, TuneError, TuneParam, TuneSpace, DEFAULT_R_END};
