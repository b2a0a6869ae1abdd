//! # fow-records: what a run is and what it leaves
//!
//! A fog-of-war run (a tournament, a match, a shard of either) is described by its
//! settings and leaves a results folder. This crate holds both sides of that contract,
//! for the arena that writes folders and for every reader of them:
//!
//! - [`TournamentConfig`]: the settings stored as `tournament.json` and the schedule
//!   they define ([`TournamentConfig::pairings`]), one [`Pairing`] per game with seeds
//!   derived under the run's key ([`seed`](mod@seed)), its [`Openings`] and its
//!   [`Shard`]; [`TimeControl`] for clocks.
//! - [`GameRecord`] (a game as played), [`GameRow`] (a row of `games.csv`) and the
//!   folder's other files ([`TimeRow`], [`ClockRow`]), appended crash-safely and read
//!   back with [`read_games`] / [`read_rows`]; one writer per folder ([`lock_folder`]).
//! - [`check_row`], [`check_pgn_game`] and [`check_ending`]: every reader of saved games
//!   checks each game against the rules it records (legal moves, a result, reason and
//!   ply count the replay agrees with, unique games that belong to their schedule), so a
//!   wrong one is an error naming its file and line rather than data
//!   ([`read_checked`]). Last, each row's tag and the settings' tag (HMAC-SHA256 under
//!   the run's key, see [`RowTagger`]): a forgery the rules cannot see is refused too;
//!   rows that are not authenticated (a public seed, a folder written before tags) give a
//!   [`Notice`] that the program says once ([`take_notes`]).
//! - [`RunFolder`]: a results folder as one type, the one place where its files are
//!   declared ([`FOLDER_FILES`], the per-game [`Tables`]) and where it is made, locked,
//!   begun, appended to, read back, checked and rewritten; [`merge_shards`] joins the
//!   folders of a run's shards through it.
//! - [`live_games`]: the games in play in a folder of a run played with `--live`, each
//!   from its file under `live/` ([`LiveFile`]: a header, then one move a line).
//! - [`FolderKind`]: which command wrote a results folder (tournament, match, play,
//!   import, evolve), so that each command refuses a folder of another kind
//!   ([`check_kind`]).
//! - [`load_games`] / [`load_game`]: saved games by number from a results folder,
//!   `games.csv` or PGN (ours or chess.com's) as [`SavedGame`]s, written back as PGN
//!   ([`SavedGame::to_pgn`]) or imported into a results folder ([`import_games`]).
//! - [`replay_frames`]: a saved game ply by ply with both sides' views, for the replay
//!   viewers.
//! - [`OpeningTable`]: opening names by position (Lichess's chess-openings list,
//!   embedded): a game's ECO code and name ([`SavedGame::opening`], the `ECO` and
//!   `Opening` tags of its PGN) and the ply where it leaves the table.
//!
//! It depends on the rules (fow-variants) and on player specs (fow-players, to check the
//! players a folder names), and on nothing that plays games: fow-arena sits above it.
//!
//! ```
//! use fow_records::{load_game, replay_frames};
//! use fow_variants::RuleSet;
//! # let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/chesscom-fow");
//! // A chess.com fog-of-war game, checked move by move as it is read.
//! let game = load_game(&dir, Some(1), &RuleSet::chesscom()).unwrap();
//! let frames = replay_frames(&game);
//! assert_eq!(frames.len(), game.moves.len() + 1);
//! println!("{} vs {}: {}", game.white, game.black, fow_records::outcome_text(&game));
//! ```

#![warn(missing_docs)]

mod check;
mod config;
mod error;
mod files;
mod folder;
mod kind;
mod live;
mod lock;
mod mac;
mod merge;
mod moves_text;
mod notice;
mod opening_names;
mod openings;
mod record;
mod replay;
mod saved;
pub mod seed;
mod shard;
mod tags;
mod text;
mod time_control;
mod words;

pub use check::{
    check_ending, check_pgn_game, check_row, config_beside, is_fog_of_war, read_checked,
    read_games, CheckAgainst, CheckedRow, Replayed,
};
pub use config::{write_secret, Pairing, Schedule, TournamentConfig, LOGS_DIR, MAX_GAMES};
pub use error::RecordError;
pub use files::{
    drop_partial_line, existing_folder, io_err, pgn_files, read_csv, read_rows, rewrite_games,
    rewrite_rows, write_atomic, Appender, ClockRow, CsvRow, GameRow, GamesAppender, GamesLayout,
    TimeRow, CLOCKS_FILE, CONFIG_FILE, EVOLVE_FILE, GAMES_FILE, MATCH_FILE, TIMES_FILE, TUNE_FILE,
};
pub use folder::{
    folder_files, stamped, utc, RunFolder, TableWriter, Tables, CROSSTABLE_FILE, FOLDER_FILES,
    LOS_FILE, RATINGS_FILE, SUMMARY_FILE,
};
pub use kind::{check_kind, folder_kind, FolderKind};
pub use live::{clear_live, live_file, live_games, LiveFile, LiveGame, LiveHeader, LIVE_DIR};
pub use lock::{fresh_folder, lock_existing, lock_folder, FolderLock};
pub use mac::RowTagger;
pub use merge::{merge_shards, shard_config, MergeReport, StopRule};
pub use moves_text::replay_uci;
pub use notice::{take_notes, Notice};
pub use opening_names::{opening_key, position_key, GameOpening, OpeningName, OpeningTable};
pub use openings::{check_start, OpeningOrder, Openings, OpeningsReport};
pub use record::{GameRecord, GameResult, Reason};
pub use replay::{outcome_text, replay_frames, Frame, Played};
pub use saved::{
    games_csv_of, import_games, load_game, load_games, load_games_lenient, pgn_rules, rules_beside,
    ImportReport, SavedGame,
};
pub use shard::Shard;
pub use tags::{DETAIL_TAG, GAME_TAG, RULES_TAG, SEED_TAG, SWITCHES_TAG, VARIANT};
pub use text::{read_json, read_text};
pub use time_control::TimeControl;
pub use words::count;
