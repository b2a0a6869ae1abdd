//! `fow replay`: a saved game step by step, with the true board and what each side saw.
//!
//! Three ways to look: an interactive terminal viewer ([`terminal`]), every position
//! printed ([`print`](mod@print), also what runs when standard output is not a
//! terminal), and one self-contained HTML file ([`html`]).

use std::io::IsTerminal;
use std::path::PathBuf;

use fow_arena::{load_game, read_analysis, replay_frames, Frame, MoveAnalysis, SavedGame};
use fow_variants::{role_name, side_name};
use fow_variants::{Color, Piece};

use crate::analyze::Engine;
use crate::error::{input, CliError};
use crate::rules_args::RulesArgs;

mod html;
mod print;
mod terminal;

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
    /// Show the analysis of the game from this CSV (as `fow analyze` writes it): each
    /// move's label, win chances and the engine's move, and each side's accuracy.
    #[arg(long, value_name = "FILE.csv")]
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

/// A game ready to show: the game, its frames and its analysis (one entry per ply
/// 1..=moves, `None` where the analysis has no row).
pub struct Replay {
    /// The saved game.
    pub game: SavedGame,
    /// Start position, then one frame per move.
    pub frames: Vec<Frame>,
    /// `analysis[ply - 1]` for the move of that ply, when an analysis was given.
    pub analysis: Option<Vec<Option<MoveAnalysis>>>,
    /// Where the analysis came from: the engine and its settings, or the CSV file.
    pub analysis_source: String,
}

impl Replay {
    /// The analysis of the move that led to frame `ply` (none for the start).
    pub fn analysis_at(&self, ply: usize) -> Option<&MoveAnalysis> {
        self.analysis.as_ref()?.get(ply.checked_sub(1)?)?.as_ref()
    }

    /// The engine's preferred move instead of the move of `ply`, in SAN with its UCI
    /// (`Nc3 (b1c3)`); `None` when it gave none or preferred the move played.
    pub fn best_text(&self, ply: usize) -> Option<String> {
        let a = self.analysis_at(ply)?;
        if a.best.is_empty() || a.best == a.uci {
            return None;
        }
        let pos = &self.frames.get(ply.checked_sub(1)?)?.position;
        Some(match pos.parse_uci(&a.best, &self.game.rules) {
            Ok(m) => format!("{} ({})", pos.san(&m, &self.game.rules), a.best),
            Err(_) => a.best.clone(),
        })
    }

    /// The analysis line of the move of `ply`, if it was analysed.
    pub fn analysis_line(&self, ply: usize) -> Option<String> {
        let a = self.analysis_at(ply)?;
        Some(analysis_text(a, self.best_text(ply).as_deref()))
    }

    /// Mean accuracy of `color`'s analysed moves.
    pub fn accuracy(&self, color: Color) -> Option<f64> {
        let side = side_name(color).to_lowercase();
        let a: Vec<f64> = self
            .analysis
            .as_ref()?
            .iter()
            .flatten()
            .filter(|m| m.mover == side)
            .map(|m| m.accuracy)
            .collect();
        (!a.is_empty()).then(|| a.iter().sum::<f64>() / a.len() as f64)
    }
}

/// Runs `fow replay`.
pub fn run(a: Args) -> Result<(), CliError> {
    let rules = a.rules.rule_set()?;
    if let Some(path) = a.analysis.as_ref().filter(|p| !p.is_file()) {
        return Err(input(format!("{}: no such file", path.display())));
    }
    let game = load_game(&a.file, a.game, &rules)?;
    let frames = replay_frames(&game);
    let (rows, analysis_source) = match &a.analysis {
        Some(path) => (
            Some(read_analysis(path, &game)?),
            format!("from {}", path.display()),
        ),
        None if a.analyze => {
            let (rows, engine) = analyze(&a, &game)?;
            (Some(rows), engine)
        }
        None => (None, String::new()),
    };
    let analysis = rows.map(|rows| {
        let mut per_ply = vec![None; game.moves.len()];
        for r in rows {
            if let Some(slot) = r.ply.checked_sub(1).and_then(|i| per_ply.get_mut(i)) {
                *slot = Some(r);
            }
        }
        per_ply
    });
    let replay = Replay {
        game: crate::analyze::labelled(game),
        frames,
        analysis,
        analysis_source,
    };
    let unicode = !a.ascii;
    if let Some(path) = &a.html {
        let page = html::page(&replay);
        std::fs::write(path, page)
            .map_err(|e| CliError::Failed(format!("{}: {e}", path.display())))?;
        if a.print {
            print::print(&replay, unicode)?;
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
        return print::print(&replay, unicode);
    }
    match terminal::run(&replay, unicode) {
        Err(terminal::Error::NoTerminal(why)) => {
            eprintln!("fow replay: no interactive terminal ({why}); printing instead");
            print::print(&replay, unicode)
        }
        Err(terminal::Error::Io(e)) => Err(CliError::Failed(format!("terminal: {e}"))),
        Ok(()) => Ok(()),
    }
}

/// `--analyze`: the game analysed as `fow analyze` does (same engines and defaults).
/// Returns the records and the engine in words.
fn analyze(a: &Args, game: &SavedGame) -> Result<(Vec<MoveAnalysis>, String), CliError> {
    let engine = a.engine.unwrap_or(Engine::Mystockfish);
    let analysis = crate::analyze::analyse(game, engine, a.depth, a.nodes, &a.stockfish)?;
    Ok((analysis.moves, analysis.engine))
}

/// `Black's pawn on d5`.
pub fn piece_on(piece: Piece, sq: fow_variants::Square) -> String {
    format!(
        "{}'s {} on {sq}",
        side_name(piece.color),
        role_name(piece.role)
    )
}

/// The squares as text: all of them up to `max`, else the first ones and a count.
pub fn squares_text(squares: &[fow_variants::Square], max: usize) -> String {
    match squares.len() {
        0 => "unchanged".to_string(),
        n if n <= max => {
            let names: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
            format!("{n} square{} ({})", plural(n), names.join(" "))
        }
        n => format!("{n} squares"),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// What the move of `frame` did, as lines of text: capture and view changes.
pub fn move_facts(frame: &Frame) -> Vec<String> {
    let Some(p) = &frame.played else {
        return vec!["start position".to_string()];
    };
    let capture = match p.capture {
        Some((piece, sq)) => format!("captures {}", piece_on(piece, sq)),
        None => "no capture".to_string(),
    };
    vec![
        format!("{} ({}), {capture}", p.numbered(), p.uci),
        format!(
            "views changed: White {}; Black {}",
            squares_text(&p.white_changed, 8),
            squares_text(&p.black_changed, 8)
        ),
    ]
}

/// The analysis of one move in one line; `best` is the engine's move as text.
pub fn analysis_text(m: &MoveAnalysis, best: Option<&str>) -> String {
    let mover = if m.mover == "white" { "White" } else { "Black" };
    let mut s = format!(
        "analysis: {}, {mover}'s win chance {:.1}% -> {:.1}% (drop {:.1})",
        m.label.as_str(),
        m.win_before,
        m.win_after,
        m.drop
    );
    if let Some(best) = best {
        s.push_str(&format!(", engine's move {best}"));
    }
    if m.king_left_capturable {
        s.push_str("; left its king capturable");
    }
    s
}

/// The game's header lines: source, players, rules, seed, result.
pub fn header(r: &Replay) -> Vec<String> {
    let g = &r.game;
    let mut lines = vec![format!(
        "{}: {} (White) vs {} (Black)",
        g.source, g.white, g.black
    )];
    let mut info = format!("rules {}", g.rules);
    if let Some(seed) = g.seed {
        info.push_str(&format!(", seed {seed}"));
    }
    info.push_str(&format!(
        ", {} {}, result {}",
        g.moves.len(),
        if g.moves.len() == 1 { "ply" } else { "plies" },
        fow_arena::outcome_text(g)
    ));
    lines.push(info);
    if r.analysis.is_some() {
        let acc = |c| {
            r.accuracy(c)
                .map_or("-".to_string(), |a| format!("{a:.1}%"))
        };
        lines.push(format!(
            "accuracy: White {}, Black {} (analysis {})",
            acc(Color::White),
            acc(Color::Black),
            r.analysis_source
        ));
    }
    lines
}
