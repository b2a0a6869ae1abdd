//! # fow-arena: games, tournaments and their records
//!
//! - [`play_game`]: one game between two players; the arena owns the true position and
//!   hands each player only its observation. Illegal moves, panics and player errors lose
//!   the game with the reason recorded.
//! - [`Tournament`]: a round robin (every ordered pair plays N games) with per-game seeds
//!   derived from one master seed and the game's identity, played in parallel, appended
//!   to `games.csv` as each game ends, resumable after a kill; one writer per folder
//!   ([`lock_folder`]).
//! - [`bench`](mod@bench): random-versus-random games for speed measurement, with a signature that
//!   changes only when behaviour changes.
//! - [`load_games`] / [`load_game`]: saved games by number from a results folder,
//!   `games.csv` or PGN (ours or chess.com's); [`replay_frames`]: such a game ply by ply
//!   with both sides' views, for the replay viewers; [`load_games_lenient`] skips bad
//!   games; [`SavedGame::to_pgn`] writes PGN in SAN, [`import_games`] a results folder.
//! - [`check_row`], [`check_pgn_game`] and [`check_ending`]: every reader of saved games
//!   checks each game against the rules it records (legal moves, a result, reason and
//!   ply count the replay agrees with, unique games that belong to their schedule), so a
//!   wrong one is an error naming its file and line rather than data.
//! - [`game_samples`] and friends: material-balance samples of recorded games, for fitting
//!   piece values.

mod analysis;
mod analyze;
pub mod bench;
mod check;
mod error;
pub mod evolve;
mod files;
mod human;
mod lock;
mod material;
mod merge;
mod openings;
mod pairs;
mod play;
mod record;
mod replay;
mod saved;
pub mod seed;
mod shard;
mod text;
mod time_control;
mod tournament;

pub use analysis::{move_accuracy, win_chance, GameAnalysis, MoveAnalysis, MoveLabel};
pub use analyze::{
    analyze_game, analyze_game_with_progress, king_capturable, mate_cp, mystockfish_cp,
    write_analysis_csv, AnalysisError, Evaluation, Evaluator, MyStockfishEvaluator, UciEvaluator,
    DEFAULT_ANALYSIS_DEPTH, DEFAULT_ANALYSIS_NODES, DEFAULT_UCI_ANALYSIS_NODES, MATE_CP,
};
pub use check::{check_ending, check_pgn_game, check_row, is_fog_of_war, Replayed};
pub use error::ArenaError;
pub use files::{
    read_games, read_rows, ClockRow, CsvRow, GameRow, TimeRow, CLOCKS_FILE, CONFIG_FILE,
    GAMES_FILE, TIMES_FILE,
};
pub use human::{
    describe_changes, save_game_folder, view_diagram, HumanPlayer, HumanStop, Interruptible,
    HUMAN_HELP,
};
pub use lock::{fresh_folder, lock_folder, FolderLock};
pub use material::{
    game_samples, material_balance, pgn_samples, row_samples, Draws, MaterialOptions,
    MaterialSample, MATERIAL_NAMES, MATERIAL_ROLES,
};
pub use merge::{merge_shards, MergeReport};
pub use openings::{check_start, OpeningOrder, Openings, OpeningsReport};
pub use pairs::{pair_results, score_of, PairResult};
pub use play::{play_game, play_game_seeded, GameOptions};
pub use record::{GameRecord, GameResult, Reason};
pub use replay::{outcome_text, read_analysis, replay_frames, Frame, Played};
pub use saved::{
    games_csv_of, import_games, load_game, load_games, load_games_lenient, pgn_files, pgn_rules,
    rules_beside, ImportReport, SavedGame, DETAIL_TAG, GAME_TAG, RULES_TAG, SEED_TAG, SWITCHES_TAG,
    VARIANT,
};
pub use shard::Shard;
pub use text::read_text;
pub use time_control::TimeControl;
pub use tournament::{Pairing, StopRule, Tournament, TournamentConfig, TournamentReport, LOGS_DIR};
