//! # fow-analysis: studying what runs leave
//!
//! Everything fow computes from results folders and saved games rather than by playing:
//!
//! - [`analyze_game`]: each move of a saved game valued by an engine ([`Evaluator`]:
//!   fow's own MyStockfish search or a UCI engine such as Stockfish), with win chances,
//!   labels ([`MoveLabel`]) and accuracy, the engine chosen as [`EngineSettings`];
//!   [`analysis_report`] is `fow analyze`'s report
//!   of it; [`read_analysis`] reads such an analysis back (CSV or JSON), checked against
//!   its game. Each move is marked with its game phase ([`game_phases`]: opening,
//!   middlegame, endgame by Lichess's rules after the opening table) and the report gives
//!   each side's accuracy by phase. [`GameReport`] is a game's JSON report, with each
//!   side's [`Summary`].
//! - [`analyze_games`]: every game of a run analysed on several threads; [`RunReport`],
//!   its JSON report with each player's summary, [`run_report`] its text and
//!   [`write_run_csv`] its per-move CSV (`fow analyze --all`).
//! - [`highlight_moves`] marks brilliant and great moves ([`Highlight`]; [`see`], static
//!   exchange evaluation under fow's rules); [`explain_errors`] gives each mistake and
//!   blunder its [`Cause`] (decision, luck, belief) from the boards its mover could not
//!   tell apart from the true one ([`consistent_boards`]) and, for a belief bot, its own
//!   belief replayed ([`replay_belief`]).
//! - [`belief_overlay`]: a belief bot's own belief replayed turn by turn from a saved
//!   game ([`BeliefOverlay`]: its boards' count, [`BeliefState`], the truth's rank and a
//!   [`HeatMap`] of the enemy's pieces), as the web app's game page draws it.
//! - [`Replay`]: a saved game ready to show ply by ply with its analysis, and
//!   [`html_page`], the self-contained HTML replay (`fow replay --html`),
//!   [`replay_text`], the replay printed, and [`view_in_terminal`], the interactive
//!   terminal viewer.
//! - [`MatchReport`]: a match's statistics against each opponent (Elo, nElo, LOS,
//!   pentanomial counts, the SPRT's state), as `fow match` prints them and `match.json`;
//!   [`verify_tuning`] plays such a match, a tuning run's result against its start
//!   (`fow tune --verify`: the one place this crate has games played, through
//!   fow-arena's [`fow_arena::Run`]).
//! - [`results_matrix`]: the result matrix of what `fow rate` reads (games or a matrix
//!   file); [`fit`] and [`report`]: a run's result matrix fitted (BayesElo's model, the thesis's
//!   iteration, maximum likelihood) and its crosstable, ratings and likelihood of
//!   superiority as printed and as the files beside the games.
//! - [`compare`]: a tournament's ladder beside the thesis's Table 2, with rank
//!   correlations and the ladder plot; [`Preset`]: the thesis's tournaments.
//! - [`benchmark_plot`], [`ladder_plot`], [`training_plot`], [`tune_plot`]: the SVG plots.
//! - [`gather_examples`]: training examples for the network from recorded games;
//!   [`write_examples`] writes them as a dataset file (`fow dataset`).
//! - [`game_samples`] and friends: material-balance samples of recorded games, for
//!   fitting piece values (`fow tune-material`); [`gather_material`] reads them from
//!   many inputs, [`MaterialFit`] fits piece values to them (its report and JSON file)
//!   and [`fit_warnings`] says when such a fit means little.
//!
//! It reads through fow-records and fits through fow-ratings; it plays no game itself
//! (the verification of a tuning run has fow-arena play its match).
//!
//! ```
//! use fow_analysis::{win_chance, MoveLabel};
//! // White's win chance in percent at +300 centipawns: about three in four.
//! let p = win_chance(300.0);
//! assert!(p > 70.0 && p < 80.0, "{p}");
//! // Losing 25 points of win chance with one move is a blunder.
//! assert_eq!(MoveLabel::from_drop(25.0), MoveLabel::Blunder);
//! ```

#![warn(missing_docs)]

mod analysis;
mod analysis_file;
mod analysis_json;
mod analysis_report;
mod analysis_rows;
mod analyze;
mod annotate;
mod belief_overlay;
mod consistent_boards;
mod dataset;
mod engine;
mod error;
mod error_cause;
mod evolve_report;
mod fog_errors;
mod game_report;
mod highlight;
mod highlight_moves;
mod html;
mod match_report;
mod material;
mod material_fit;
mod material_inputs;
mod mover_belief;
mod phase;
mod plot;
mod replay;
mod replay_text;
mod results_matrix;
mod run_analysis;
mod run_report;
mod run_results;
mod see;
mod summary;
mod tables;
mod terminal;
mod thesis;
mod tune_plot;
mod tune_verify;

pub use analysis::{move_accuracy, win_chance, GameAnalysis, MoveAnalysis, MoveLabel};
pub use analysis_file::read_analysis;
pub use analysis_report::{analysis_report, labelled_game};
pub use analyze::{
    analyze_game, analyze_game_with_progress, king_capturable, mate_cp, mystockfish_cp,
    write_analysis_csv, AnalysisError, Evaluation, Evaluator, MyStockfishEvaluator, UciEvaluator,
    DEFAULT_ANALYSIS_DEPTH, DEFAULT_ANALYSIS_NODES, DEFAULT_UCI_ANALYSIS_NODES, MATE_CP,
};
pub use annotate::annotate_game;
pub use belief_overlay::{
    belief_overlay, replay_budget, BeliefOverlay, BeliefState, BeliefTurn, HeatMap, OverlayPlies,
    SubgameTurn,
};
pub use consistent_boards::{consistent_boards, Consistent, TRACKED_BOARDS};
pub use dataset::{gather_examples, write_examples, Gathered};
pub use engine::{Engine, EngineSettings};
pub use error::ReportError;
pub use error_cause::{Cause, BAD_DROP, DECISION_SHARE, LITTLE_WEIGHT};
pub use evolve_report::{evolution_report, EVOLVE_PLOT_FILE};
pub use fog_errors::{explain_errors, lost_by_cause, FogSettings, DEFAULT_FOG_BOARDS};
pub use fow_records::count;
pub use game_report::{write_json, GameReport, Sides};
pub use highlight::{
    brilliant_by, falls_short, Highlight, Outlook, ALREADY_WON, BRILLIANT_MARGIN,
    DEEPER_NODES_FACTOR, DEEPER_PLIES, GREAT_GAP, LOST, SACRIFICE_CP, WINNING, WINNING_CAPTURE_CP,
};
pub use highlight_moves::highlight_moves;
pub use html::{cells, html_page, replay_json};
pub use match_report::{
    match_results, sprt_of, sprt_step, MatchReport, OpponentReport, SprtReport, MATCH_FILE,
};
pub use material::{
    game_samples, material_balance, pgn_samples, row_samples, Draws, MaterialOptions,
    MaterialSample, MATERIAL_NAMES, MATERIAL_ROLES,
};
pub use material_fit::MaterialFit;
pub use material_inputs::{fit_warnings, gather_material, nothing_to_fit, MaterialInputs};
pub use mover_belief::{belief_bot, opponent_model, replay_belief};
pub use phase::{
    backrank_sparse, game_phases, middlegame_position, mixedness, pieces, region_score, Phase,
    BACKRANK_PIECES, ENDGAME_PIECES, MIDDLEGAME_PIECES, MIXEDNESS,
};
pub use plot::{benchmark_plot, ladder_plot, training_plot, Rung};
pub use replay::{analysis_text, header, move_facts, piece_on, squares_text, Replay};
pub use replay_text::replay_text;
pub use results_matrix::results_matrix;
pub use run_analysis::{analyze_games, run_games, write_run_csv, PlayerSummary, RunReport};
pub use run_report::run_report;
pub use run_results::{thesis_comparison, tournament_results, TournamentResults};
pub use see::{see, see_value, SEE_KING};
pub use summary::{move_groups, Summary, Tally};
pub use tables::{
    anchor, fit, labelled, matrix_of, ms_per_move, report, thesis_and_mle, Fits, Method,
    CROSSTABLE_FILE, LOS_FILE, RATINGS_FILE, SUMMARY_FILE,
};
pub use terminal::{view_in_terminal, TerminalError};
pub use thesis::{
    compare, Preset, FILES, PRESET_GAMES, THESIS_BOTS, THESIS_NN_SPEC, THESIS_PE_PARAMS,
};
pub use tune_plot::{tune_plot, tune_plot_svg, tune_svg, SCORE_WINDOW, TUNE_PLOT_FILE};
pub use tune_verify::{
    verify_plan, verify_tuning, Verification, Verify, DEFAULT_VERIFY_GAMES, DEFAULT_VERIFY_SPRT,
    VERIFY_DIR,
};
