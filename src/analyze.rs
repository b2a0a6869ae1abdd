//! `fow analyze`: the full-information value of every position of a saved game, the win
//! chance it gives the mover, and each move's drop, label and accuracy.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use fow_analysis::{
    analysis_report, analyze_game_with_progress, labelled_game, write_analysis_csv, Evaluator,
    GameAnalysis, MyStockfishEvaluator, UciEvaluator,
};
use fow_records::{load_game, SavedGame};
use indicatif::{ProgressBar, ProgressStyle};

use crate::error::{input, CliError};
use crate::out::count;
use crate::rules_args::RulesArgs;

/// Analyse a saved game with full information.
///
/// Each position of the game is valued by an engine that sees the whole board (MyStockfish
/// by default, or Stockfish over UCI). Values are pawns from White's side; `#+N` (`#-N`)
/// means White (Black) captures the king N plies ahead. The value becomes the mover's
/// win chance with Lichess's curve; the drop in win chance labels each move (best: the
/// engine's own move with no drop; excellent: no drop, another move; good: under 5;
/// inaccuracy 5-10, mistake 10-20, blunder 20 or more) and gives its accuracy, averaged
/// per side. Moves after which the opponent could capture the mover's king are flagged
/// `king hangs`, and are never best or excellent (at most good).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game file: a results folder, a games.csv, a PGN file or a folder of PGN files.
    pub file: PathBuf,
    /// The game's number (its id in games.csv, else its place in the PGN input; default:
    /// the first game).
    #[arg(long, value_name = "N")]
    pub game: Option<u64>,
    /// The engine: mystockfish (built in, deterministic) or stockfish (UCI, needs the
    /// program).
    #[arg(long, value_enum, default_value_t = Engine::Mystockfish)]
    pub engine: Engine,
    /// MyStockfish's search depth in plies (default 4).
    #[arg(long, value_name = "D")]
    pub depth: Option<i32>,
    /// Nodes per position: MyStockfish stops its iterative deepening there (0: depth
    /// only; default 200000); Stockfish gets `go nodes N` (default 50000).
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// The Stockfish program (a path, or a name on PATH or in /usr/games).
    #[arg(long, value_name = "PATH", default_value = "stockfish")]
    pub stockfish: String,
    /// Write the per-move records to this CSV file.
    #[arg(long, value_name = "OUT")]
    pub csv: Option<PathBuf>,
    /// Rules for PGN games that name none (a results folder brings its own).
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Which engine values the positions.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The thesis's minimax, built in.
    Mystockfish,
    /// Stockfish over UCI.
    Stockfish,
}

/// Seconds Stockfish may take to start or to answer one position.
const UCI_TIMEOUT: Duration = Duration::from_secs(120);

/// Loads the game, runs the engine, prints the report and writes the CSV.
pub fn run(a: Args) -> Result<(), CliError> {
    let default_rules = a.rules.rule_set()?;
    if !a.file.exists() {
        return Err(input(format!(
            "{}: no such file or folder",
            a.file.display()
        )));
    }
    let game = load_game(&a.file, a.game, &default_rules)?;
    let started = Instant::now();
    let analysis = analyse(&game, a.engine, a.depth, a.nodes, &a.stockfish)?;
    let elapsed = started.elapsed();
    let game = labelled_game(game);
    out!("{}", analysis_report(&game, &analysis));
    if let Some(path) = &a.csv {
        write_analysis_csv(path, &analysis)?;
        outln!("\nwrote {}", path.display());
    }
    eprintln!(
        "analysed {} in {:.2} s ({})",
        count(game.moves.len() + 1, "position"),
        elapsed.as_secs_f64(),
        analysis.engine
    );
    Ok(())
}

/// Analyses `game` with `engine` (`depth`, `nodes` and the Stockfish program as `fow
/// analyze` takes them, defaults where `None`), with a progress bar on a terminal. `fow
/// analyze` and `fow replay --analyze` both run this.
pub fn analyse(
    game: &SavedGame,
    engine: Engine,
    depth: Option<i32>,
    nodes: Option<u64>,
    stockfish: &str,
) -> Result<GameAnalysis, CliError> {
    let mut engine: Box<dyn Evaluator> = match engine {
        Engine::Mystockfish => {
            let nodes = nodes.unwrap_or(fow_analysis::DEFAULT_ANALYSIS_NODES);
            let depth = depth.unwrap_or(fow_analysis::DEFAULT_ANALYSIS_DEPTH);
            if !(1..=20).contains(&depth) {
                return Err(input(format!("--depth must be 1 to 20, not {depth}")));
            }
            Box::new(MyStockfishEvaluator::new(
                depth,
                (nodes > 0).then_some(nodes),
            ))
        }
        Engine::Stockfish => {
            if depth.is_some() {
                return Err(input(
                    "--depth is MyStockfish's; Stockfish searches --nodes N per position",
                ));
            }
            let nodes = nodes.unwrap_or(fow_analysis::DEFAULT_UCI_ANALYSIS_NODES);
            if nodes == 0 {
                return Err(input("--nodes must be at least 1 for Stockfish"));
            }
            Box::new(UciEvaluator::start(stockfish, nodes, UCI_TIMEOUT).map_err(input)?)
        }
    };
    let bar = ProgressBar::new(game.moves.len() as u64 + 1);
    bar.set_style(
        ProgressStyle::with_template("analysing {pos}/{len} positions {wide_bar} {eta}")
            .expect("valid template"),
    );
    let analysis = analyze_game_with_progress(game, engine.as_mut(), &mut |done, _| {
        bar.set_position(done as u64)
    })
    .map_err(|e| CliError::Failed(format!("{}: {e}", game.source)))?;
    bar.finish_and_clear();
    Ok(analysis)
}
