//! `fow web`: a local browser application over results folders. It lists every run
//! under its roots, shows a run's tables, ratings, SPRT and games, a game's three boards
//! (the truth and both sides' views) with its analysis and a belief bot's belief, updates
//! runs being written as their games end, and lets a person play a bot.
//!
//! It only reads results folders (one writer per folder still holds) and never serves a
//! file outside its roots ([`Roots`]); everything it serves is embedded in the binary.

#![warn(missing_docs)]

mod assets;
mod belief_json;
mod game_json;
mod http;
mod live;
mod play;
mod roots;
mod routes;
mod run_cache;
mod run_json;
mod scan;
mod server;

pub use game_json::{analysis_file, game_json, game_pgn, ANALYSIS_FILES};
pub use http::{Target, MAX_BODY};
pub use roots::Roots;
pub use run_json::run_json;
pub use scan::{being_written, date_text, runs, RunEntry, MAX_DEPTH};
pub use server::{Web, WebOptions, DEFAULT_LISTEN};
