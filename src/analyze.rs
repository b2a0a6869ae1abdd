//! `fow analyze`: the full-information value of every position of a saved game, the win
//! chance it gives the mover, and each move's drop, label and accuracy.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use fow_analysis::{
    analyze_game_with_progress, write_analysis_csv, Evaluator, GameAnalysis, MoveAnalysis,
    MoveLabel, MyStockfishEvaluator, UciEvaluator, MATE_CP,
};
use fow_records::{load_game, outcome_text, SavedGame};
use fow_variants::{Color, Position, RuleSet};
use indicatif::{ProgressBar, ProgressStyle};

use crate::error::{input, CliError};
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
    let game = labelled(game);
    out!("{}", report(&game, &analysis));
    if let Some(path) = &a.csv {
        write_analysis_csv(path, &analysis)?;
        outln!("\nwrote {}", path.display());
    }
    eprintln!(
        "analysed {} in {:.2} s ({})",
        plural(game.moves.len() + 1, "position", "positions"),
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

/// A value in pawns from White's side, or `#+N` / `#-N` for a king capture N plies ahead.
fn value_text(cp: f64) -> String {
    if cp.abs() >= MATE_CP - 1000.0 {
        let plies = (MATE_CP - cp.abs()).round() as i64;
        format!("#{}{plies}", if cp > 0.0 { '+' } else { '-' })
    } else {
        format!("{:+.2}", cp / 100.0)
    }
}

/// `12.` for White's move of move 12, `12...` for Black's.
fn move_number(ply: usize, start: &Position) -> String {
    let first_black = start.turn() == Color::Black;
    let half = ply - 1 + usize::from(first_black);
    let number = start.fullmoves() as usize + half / 2;
    if half.is_multiple_of(2) {
        format!("{number}.")
    } else {
        format!("{number}...")
    }
}

/// The engine's preferred move in SAN (its UCI text when our rules do not know it).
fn best_text(pos: &Position, uci: &str, rules: &RuleSet) -> String {
    if uci.is_empty() {
        return "-".into();
    }
    match pos.parse_uci(uci, rules) {
        Ok(m) => pos.san(&m, rules),
        Err(_) => uci.to_string(),
    }
}

/// The game with its players named as the tables name them (a program's `name=` where
/// given, else its spec): for reports and views, not for files that keep the specs.
pub(crate) fn labelled(mut game: SavedGame) -> SavedGame {
    let labels = fow_players::player_labels(&[game.white.clone(), game.black.clone()]);
    let [white, black]: [String; 2] = labels.try_into().expect("two labels");
    (game.white, game.black) = (white, black);
    game
}

/// The whole report: header, one line per move, each side's summary.
pub fn report(game: &SavedGame, analysis: &GameAnalysis) -> String {
    let mut s = String::new();
    let positions = game.positions();
    s.push_str(&format!(
        "{}\nWhite: {}\nBlack: {}\nRules: {}\nResult: {}\nEngine: {}\n\n",
        game.source,
        game.white,
        game.black,
        game.rules,
        outcome_text(game),
        analysis.engine
    ));
    s.push_str(
        "Values in pawns from White's side (#+N: White captures the king N plies ahead);\n\
         win% and drop are for the side that moved.\n\n",
    );
    s.push_str(&format!(
        "{:<14} {:>15}  {:>13}\n{:<14} {:>7} {:>7}  {:>6} {:>6} {:>5}  {:<10} {:<7} {}\n",
        "",
        "value",
        "win%",
        "move",
        "before",
        "after",
        "before",
        "after",
        "drop",
        "label",
        "best",
        "flag"
    ));
    for m in &analysis.moves {
        let before = &positions[m.ply - 1];
        let flag = if m.king_left_capturable {
            "king hangs"
        } else {
            ""
        };
        let line = format!(
            "{:<14} {:>7} {:>7}  {:>6.1} {:>6.1} {:>5.1}  {:<10} {:<7} {}",
            format!("{} {}", move_number(m.ply, &game.start), m.san),
            value_text(m.cp_before),
            value_text(m.cp_after),
            m.win_before,
            m.win_after,
            m.drop,
            m.label.as_str(),
            best_text(before, &m.best, &game.rules),
            flag
        );
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s.push('\n');
    for (white, color) in [(true, "White"), (false, "Black")] {
        s.push_str(&side_summary(game, analysis, white, color));
    }
    s
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// One side's accuracy, counts of weak moves and the moves that left its king capturable.
fn side_summary(game: &SavedGame, analysis: &GameAnalysis, white: bool, color: &str) -> String {
    let name = if white { &game.white } else { &game.black };
    let Some(accuracy) = analysis.accuracy(white) else {
        return format!("{color} ({name}): no moves\n");
    };
    let side = if white { "white" } else { "black" };
    let moves: Vec<&MoveAnalysis> = analysis.moves.iter().filter(|m| m.mover == side).collect();
    let hanging: Vec<String> = moves
        .iter()
        .filter(|m| m.king_left_capturable)
        .map(|m| format!("{} {}", move_number(m.ply, &game.start), m.san))
        .collect();
    let mut s = format!(
        "{color} ({name}): accuracy {accuracy:.1}% over {}; {}, {}, {}\n",
        plural(moves.len(), "move", "moves"),
        plural(
            analysis.count(white, MoveLabel::Inaccuracy),
            "inaccuracy",
            "inaccuracies"
        ),
        plural(
            analysis.count(white, MoveLabel::Mistake),
            "mistake",
            "mistakes"
        ),
        plural(
            analysis.count(white, MoveLabel::Blunder),
            "blunder",
            "blunders"
        ),
    );
    if hanging.is_empty() {
        s.push_str("  king never left capturable\n");
    } else {
        s.push_str(&format!(
            "  king left capturable after {}: {}\n",
            plural(hanging.len(), "move", "moves"),
            hanging.join(", ")
        ));
    }
    s
}
