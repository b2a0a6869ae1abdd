//! # fow-arena: playing fog-of-war games, tournaments and matches
//!
//! - [`play_game`]: one game between two players; the arena owns the true position and
//!   hands each player only its observation. Illegal moves, panics and player errors lose
//!   the game with the reason recorded.
//! - [`Run`]: a run's settings ([`RunPlan`]) checked once, then its schedule (a round
//!   robin, a gauntlet, a match in game pairs, one shard of any) played in parallel, each
//!   game appended to its [`RunFolder`](fow_records::RunFolder) as it ends; resumes after a
//!   kill, and can stop early on a rule (an SPRT) or be halted from another thread
//!   (Ctrl-C in the Python package, [`Run::play_until`]); one writer per folder. (The shards of a
//!   run are merged by [`fow_records::merge_shards`].) With a live feed
//!   ([`Run::set_live`], [`check_live`]) each game's moves are written as they are played.
//! - [`tournament_players`] and [`match_pairs`]: what a new tournament or match plays
//!   when not told (the CLI's and the Python package's defaults).
//! - [`pair_results`]: each game pair's score, for paired statistics.
//! - [`evolve`](mod@evolve): the thesis's evolution of PositionaryEvaluator parameters.
//! - [`HumanPlayer`]: a person at the terminal as a player (`fow play`).
//! - [`bench`](mod@bench): random-versus-random games for speed measurement, with a
//!   signature that changes only when behaviour changes.
//!
//! What a run is and what it leaves (settings, schedules, results folders, saved games)
//! is fow-records, below this crate; studying the results (ratings reports, engine
//! analysis, plots) is fow-analysis, above it.
//!
//! ```
//! use fow_arena::{play_game, GameOptions};
//! use fow_players::PlayerSpec;
//! use fow_variants::RuleSet;
//!
//! let build = |s: &str| s.parse::<PlayerSpec>().unwrap().build().unwrap();
//! let (mut white, mut black) = (build("CaptureLargest"), build("RandomMove"));
//! let options = GameOptions::new(RuleSet::thesis());
//! let record = play_game(white.as_mut(), black.as_mut(), "CaptureLargest", "RandomMove", 7, &options);
//! println!("{} after {} plies ({})", record.result, record.plies(), record.reason);
//! ```

#![warn(missing_docs)]

pub mod bench;
pub mod evolve;
pub mod exact_belief;
mod genome;
mod human;
mod human_game;
mod interrupt;
mod live;
mod pairs;
mod plans;
mod play;
mod rate_text;
mod run;
pub mod tune;

pub use genome::Genome;
pub use human::{
    describe_changes, save_game_folder, view_diagram, HumanPlayer, HumanStop, Interruptible,
    HUMAN_HELP,
};
pub use human_game::{game_summary, HumanGame, Person};
pub use interrupt::{catch_interrupt, INTERRUPTED};
pub use live::check_live;
pub use pairs::{pair_results, score_of, PairResult};
pub use plans::{match_pairs, tournament_players, MATCH_GAMES, SPRT_GAMES, TOURNAMENT_GAMES};
pub use play::{play_game, play_game_seeded, play_game_watched, GameOptions, MoveSink};
pub use rate_text::rate_text;
pub use run::{Run, RunPlan, RunReport};
