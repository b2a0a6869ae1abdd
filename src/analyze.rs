//! `fow analyze`: the full-information value of every position of a saved game, the win
//! chance it gives the mover, and each move's drop, label and accuracy.

use std::path::PathBuf;
use std::time::Instant;

use fow_analysis::{
    analysis_report, analyze_games, labelled_game, run_games, run_report, write_analysis_csv,
    write_json, write_run_csv, Engine, EngineSettings, FogSettings, GameReport, RunReport,
    DEFAULT_FOG_BOARDS,
};
use fow_records::load_game;
use fow_variants::RuleSet;

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
/// `king hangs`, and are never best or excellent (at most good). Sacrifices a deeper
/// search confirms are flagged `brilliant`, only moves that keep the result `great`;
/// each mistake and blunder is valued on the boards its mover could not tell apart from
/// the true one and flagged decision, luck or belief (see the manual). With --all, every
/// game of FILE is analysed so, in parallel, and each player's summary across them is
/// printed.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game file: a results folder, a games.csv, a PGN file or a folder of PGN files.
    pub file: PathBuf,
    /// The game's number (its id in games.csv, else its place in the PGN input; default:
    /// the first game).
    #[arg(long, value_name = "N")]
    pub game: Option<u64>,
    /// Analyse every game of FILE and print each player's summary (--csv and --json then
    /// hold every game).
    #[arg(long, conflicts_with = "game")]
    pub all: bool,
    /// With --all: threads, one engine each (default: all cores); the output is the same
    /// whatever their number.
    #[arg(long, short, requires = "all")]
    pub jobs: Option<usize>,
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
    /// Boards the mover could not tell apart from the true one valued per mistake or
    /// blunder, to tell a bad decision from bad luck or a bad belief (0: off).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_FOG_BOARDS)]
    pub fog_boards: usize,
    /// Write the per-move records to this CSV file.
    #[arg(long, value_name = "OUT")]
    pub csv: Option<PathBuf>,
    /// Write the JSON report (the game's, or with --all the run's) to this file.
    #[arg(long, value_name = "OUT")]
    pub json: Option<PathBuf>,
    /// Rules for PGN games that name none (a results folder brings its own).
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Loads the game, runs the engine, prints the report and writes the CSV.
pub fn run(a: Args) -> Result<(), CliError> {
    let default_rules = a.rules.rule_set()?;
    if !a.file.exists() {
        return Err(input(format!(
            "{}: no such file or folder",
            a.file.display()
        )));
    }
    let engine = EngineSettings {
        engine: a.engine,
        depth: a.depth,
        nodes: a.nodes,
        stockfish: a.stockfish.clone(),
    };
    if a.all {
        return run_all(&a, &default_rules, &engine);
    }
    let game = load_game(&a.file, a.game, &default_rules)?;
    let started = Instant::now();
    let mut analysis = crate::out::analyse(&game, &engine)?;
    let elapsed = started.elapsed();
    let annotated = crate::out::annotate(&game, &engine, &mut analysis, a.fog_boards)?;
    let report = a.json.as_ref().map(|_| GameReport::new(&game, &analysis));
    let game = labelled_game(game);
    out!("{}", analysis_report(&game, &analysis));
    if let Some(path) = &a.csv {
        write_analysis_csv(path, &analysis)?;
        outln!("\nwrote {}", path.display());
    }
    if let (Some(path), Some(report)) = (&a.json, report) {
        write_json(path, &report)?;
        outln!("wrote {}", path.display());
    }
    eprintln!(
        "analysed {} in {:.2} s ({})",
        count(game.moves.len() + 1, "position"),
        elapsed.as_secs_f64(),
        analysis.engine
    );
    eprintln!("{annotated}");
    Ok(())
}

/// `fow analyze --all`: every game on --jobs threads, the players' summary, the files.
fn run_all(a: &Args, rules: &RuleSet, engine: &EngineSettings) -> Result<(), CliError> {
    let games = run_games(&a.file, rules)?;
    let jobs = crate::jobs::jobs(a.jobs)?;
    let started = Instant::now();
    let positions = games.iter().map(|g| g.moves.len() as u64 + 1).sum();
    let template = "analysing {pos}/{len} positions {wide_bar} {eta}";
    let bar = crate::out::progress_bar(false, positions, template);
    // Highlights always, causes unless --fog-boards 0: as for one game.
    let fog = FogSettings {
        boards: a.fog_boards,
        ..FogSettings::default()
    };
    let analyses = analyze_games(&games, engine, Some(&fog), jobs, &|n| bar.inc(n as u64))?;
    bar.finish_and_clear();
    let elapsed = started.elapsed();
    let report = RunReport::new(&a.file.display().to_string(), &games, &analyses);
    out!("{}", run_report(&report));
    if let Some(path) = &a.csv {
        write_run_csv(path, &report)?;
        outln!("\nwrote {}", path.display());
    }
    if let Some(path) = &a.json {
        write_json(path, &report)?;
        outln!("wrote {}", path.display());
    }
    eprintln!(
        "analysed {} of {} in {:.1} s on {} ({})",
        count(positions as usize, "position"),
        count(games.len(), "game"),
        elapsed.as_secs_f64(),
        count(jobs.min(games.len()), "thread"),
        report.engine
    );
    Ok(())
}
