//! `fow replay`: a saved game step by step, with the true board and what each side saw.
//!
//! Three ways to look, all in fow-analysis: an interactive terminal viewer
//! (`view_in_terminal`), every position printed (`replay_text`, also what runs when
//! standard output is not a terminal), and one self-contained HTML file (`html_page`).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use fow_analysis::{
    html_page, labelled_game, read_analysis, replay_text, view_in_terminal, Engine, EngineSettings,
    Replay, TerminalError, DEFAULT_FOG_BOARDS,
};
use fow_records::load_game;

use crate::error::{input, CliError};
use crate::rules_args::RulesArgs;

/// Replay a saved game: the true board and what White and Black saw, move by move.
///
/// Interactive in a terminal (arrow keys; `q` quits); `--print` prints every position
/// instead (also what happens when standard output is not a terminal); `--html` writes
/// one self-contained HTML page to open in a browser. `--rules` (and the rule overrides)
/// apply only to PGN games that name no rules: chess.com's fog-of-war games are
/// `chesscom`, and a results folder or games.csv has its tournament.json.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A tournament's results folder, a games.csv, a PGN file (ours or chess.com's) or a
    /// folder of PGN files.
    pub file: PathBuf,
    /// The game's number: its id in games.csv, else its FowGame tag, else its place in
    /// the PGN input (1, 2, ...). Default: the first game.
    #[arg(long, value_name = "N")]
    pub game: Option<u64>,
    /// Print every position and exit, without interaction.
    #[arg(long)]
    pub print: bool,
    /// Write the replay as one self-contained HTML file (no network needed) and exit.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Show the analysis of the game from this file, as `fow analyze` writes it (--csv, or
    /// --json for a .json file; one game's, or a whole run's with --all): each move's
    /// label, win chances and the engine's move, and each side's accuracy.
    #[arg(long, value_name = "FILE")]
    pub analysis: Option<PathBuf>,
    /// Analyse the game first, as `fow analyze` does, and show that analysis.
    #[arg(long, conflicts_with = "analysis")]
    pub analyze: bool,
    /// With --analyze: the engine, mystockfish (built in, the default) or stockfish (UCI,
    /// needs the program).
    #[arg(long, value_enum, requires = "analyze")]
    pub engine: Option<Engine>,
    /// With --analyze: MyStockfish's search depth in plies (default 4).
    #[arg(long, value_name = "D", requires = "analyze")]
    pub depth: Option<i32>,
    /// With --analyze: nodes per position (MyStockfish: 0 for depth only, default
    /// 200000; Stockfish: `go nodes N`, default 50000).
    #[arg(long, value_name = "N", requires = "analyze")]
    pub nodes: Option<u64>,
    /// With --analyze --engine stockfish: the program (a path, or a name on PATH or in
    /// /usr/games).
    #[arg(
        long,
        value_name = "PATH",
        requires = "analyze",
        default_value = "stockfish"
    )]
    pub stockfish: String,
    /// Letters for pieces instead of Unicode symbols (terminal and --print).
    #[arg(long)]
    pub ascii: bool,
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Runs `fow replay`.
pub fn run(a: Args) -> Result<(), CliError> {
    let rules = a.rules.rule_set()?;
    if let Some(path) = a.analysis.as_ref().filter(|p| !p.is_file()) {
        return Err(input(format!("{}: no such file", path.display())));
    }
    let game = load_game(&a.file, a.game, &rules)?;
    let (rows, analysis_source) = match &a.analysis {
        Some(path) => (
            Some(read_analysis(path, &game)?),
            format!("from {}", path.display()),
        ),
        None if a.analyze => {
            let engine = EngineSettings {
                engine: a.engine.unwrap_or(Engine::Mystockfish),
                depth: a.depth,
                nodes: a.nodes,
                stockfish: a.stockfish.clone(),
            };
            let mut analysis = crate::out::analyse(&game, &engine)?;
            // As `fow analyze` annotates it, so that both show the same analysis.
            crate::out::annotate(&game, &engine, &mut analysis, DEFAULT_FOG_BOARDS)?;
            (Some(analysis.moves), analysis.engine)
        }
        None => (None, String::new()),
    };
    let replay = Replay::new(labelled_game(game), rows, analysis_source);
    let unicode = !a.ascii;
    if let Some(path) = &a.html {
        let page = html_page(&replay);
        std::fs::write(path, page).map_err(crate::error::io(path))?;
        if a.print {
            print(&replay, unicode)?;
        }
        println!(
            "wrote {} ({} {} of {}; open it in a browser)",
            path.display(),
            replay.game.moves.len(),
            if replay.game.moves.len() == 1 {
                "ply"
            } else {
                "plies"
            },
            replay.game.source
        );
        return Ok(());
    }
    if a.print || !std::io::stdout().is_terminal() {
        return print(&replay, unicode);
    }
    match view_in_terminal(&replay, unicode) {
        Err(TerminalError::NoTerminal(why)) => {
            eprintln!("fow replay: no interactive terminal ({why}); printing instead");
            print(&replay, unicode)
        }
        Err(TerminalError::Io(e)) => Err(CliError::Failed(format!("terminal: {e}"))),
        Ok(()) => Ok(()),
    }
}

/// Prints the replay as text to standard output; a closed pipe (`| head`) ends it quietly.
fn print(r: &Replay, unicode: bool) -> Result<(), CliError> {
    let text = replay_text(r, unicode);
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(CliError::Failed(format!("writing the replay: {e}")))
        }
        _ => Ok(()),
    }
}
