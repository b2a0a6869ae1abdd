//! Post-game analysis: an engine values every position of a saved game with full
//! information, and [`analyze_game`] turns the values into [`MoveAnalysis`] records.
//!
//! Values are centipawns from White's side. A position where the side to move can capture
//! the enemy king is a win at once; an engine's "mate" (a king capture it sees coming) is
//! mapped to `±(`[`MATE_CP`]` - plies)`, where `plies` counts the moves up to and including
//! the king capture, so that Lichess's win-chance curve saturates (9999 cp is a 100.0%
//! win chance) and a sooner win scores higher. A position after a king capture is worth
//! exactly `±MATE_CP`; one after a draw by the rules, 0.
//!
//! Two [`Evaluator`]s: [`MyStockfishEvaluator`] (the thesis's minimax on the true board,
//! deterministic under depth and node limits) and [`UciEvaluator`] (a UCI engine such as
//! Stockfish, which plays standard chess: positions it cannot take are valued here
//! without asking it).

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use fow_players::search::evaluate::king_capture;
use fow_players::search::{Limits, MyStockfish, SearchBoard, PAWN};
use fow_variants::shakmaty::fen::Fen;
use fow_variants::shakmaty::{CastlingMode, Chess, EnPassantMode, FromSetup, Position as _};
use fow_variants::{Color, Game, Move, Position, RuleSet};

use crate::analysis::{GameAnalysis, MoveAnalysis};
use fow_records::RecordError;
use fow_records::SavedGame;

/// The value of a won position (the enemy king is gone), in centipawns.
pub const MATE_CP: f64 = 10_000.0;

/// The default search depth of [`MyStockfishEvaluator`].
pub const DEFAULT_ANALYSIS_DEPTH: i32 = 4;
/// The default node limit per position of [`MyStockfishEvaluator`].
pub const DEFAULT_ANALYSIS_NODES: u64 = 200_000;
/// How long [`UciEvaluator::start`] waits for `uciok` and for `readyok`.
const UCI_STARTUP: Duration = Duration::from_secs(10);
/// The default `go nodes` per position of [`UciEvaluator`] in `fow analyze`.
pub const DEFAULT_UCI_ANALYSIS_NODES: u64 = 50_000;

/// What an engine says about one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// The value in centipawns from White's side (see the module's notes on wins).
    pub cp: f64,
    /// The engine's preferred move, in UCI (empty when it gave none).
    pub best: String,
}

/// An engine that values positions with full information.
pub trait Evaluator {
    /// The engine and its settings, in words (`MyStockfish depth 4, nodes 200000`).
    fn describe(&self) -> String;

    /// The value of `pos` under `rules`. Called only for positions where both kings
    /// stand, the side to move cannot capture the enemy king and has a move.
    fn evaluate(&mut self, pos: &Position, rules: &RuleSet) -> Result<Evaluation, String>;
}

/// The value `±(MATE_CP - plies)` for a win (`for_white`) `plies` plies away.
pub fn mate_cp(for_white: bool, plies: u32) -> f64 {
    let v = MATE_CP - f64::from(plies);
    if for_white {
        v
    } else {
        -v
    }
}

/// Why an analysis failed: the ply and position the engine could not value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisError {
    /// The number of plies played before the position (0 = the start).
    pub ply: usize,
    /// The position as FEN.
    pub fen: String,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "position after ply {} ({}): {}",
            self.ply, self.fen, self.message
        )
    }
}

impl std::error::Error for AnalysisError {}

/// Analyses every move of `game` with `engine`: the value before and after each move
/// (each position is valued once), win chances, drop, label, accuracy, the engine's
/// preferred move and whether the move left the mover's king capturable.
///
/// ```
/// use fow_analysis::{analyze_game, MyStockfishEvaluator};
/// use fow_records::load_games;
/// use fow_variants::RuleSet;
/// let dir = tempfile::tempdir().unwrap();
/// let pgn = dir.path().join("g.pgn");
/// std::fs::write(&pgn, "1. e2e4 f7f6 2. Qd1h5 a7a6 3. Qh5e8 1-0\n").unwrap();
/// let game = &load_games(&pgn, &RuleSet::thesis()).unwrap()[0];
/// let a = analyze_game(game, &mut MyStockfishEvaluator::new(3, None)).unwrap();
/// assert_eq!(a.moves.len(), 5);
/// assert!(a.moves[3].king_left_capturable); // 2... a6 lets the queen take the king
/// assert_eq!(a.moves[4].cp_after, 10_000.0);
/// ```
pub fn analyze_game(
    game: &SavedGame,
    engine: &mut dyn Evaluator,
) -> Result<GameAnalysis, AnalysisError> {
    analyze_game_with_progress(game, engine, &mut |_, _| {})
}

/// [`analyze_game`], calling `progress(done, total)` after each position is valued.
pub fn analyze_game_with_progress(
    game: &SavedGame,
    engine: &mut dyn Evaluator,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<GameAnalysis, AnalysisError> {
    let rules = game.rules;
    let positions = game.positions();
    let drawn_at_end = ends_in_rule_draw(game);
    let total = positions.len();
    let mut values = Vec::with_capacity(total);
    for (i, pos) in positions.iter().enumerate() {
        let last = i + 1 == total;
        let e = if last && drawn_at_end {
            Evaluation {
                cp: 0.0,
                best: String::new(),
            }
        } else {
            value_of(pos, &rules, engine).map_err(|message| AnalysisError {
                ply: i,
                fen: pos.fen(),
                message,
            })?
        };
        values.push(e);
        progress(i + 1, total);
    }
    let opening = fow_records::OpeningTable::standard().identify(&positions);
    let phases = crate::phase::game_phases(&positions, &game.moves, opening.as_ref());
    let moves = game
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let before = &positions[i];
            let after = &positions[i + 1];
            let mover = before.turn();
            MoveAnalysis::new(
                i + 1,
                mover.is_white(),
                m.uci(),
                before.san(m, &rules),
                values[i].cp,
                values[i + 1].cp,
                values[i].best.clone(),
                king_capturable(after, mover, &rules),
            )
        })
        .zip(&phases)
        .map(|(m, &phase)| MoveAnalysis {
            phase: Some(phase),
            ..m
        })
        .collect();
    Ok(GameAnalysis {
        engine: engine.describe(),
        moves,
        opening,
    })
}

/// Writes the move records of `analysis` as CSV (header: [`MoveAnalysis`]'s field
/// names; [`read_analysis`](crate::read_analysis) reads it back).
pub fn write_analysis_csv(path: &Path, analysis: &GameAnalysis) -> Result<(), RecordError> {
    let io = |e: &dyn fmt::Display| RecordError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let file = std::fs::File::create(path).map_err(fow_records::io_err(path))?;
    let mut w = csv::Writer::from_writer(file);
    for m in &analysis.moves {
        w.serialize(m).map_err(|e| io(&e))?;
    }
    w.flush().map_err(|e| io(&e))
}

/// Whether the game goes on in `pos` (both kings stand) and the other side, to move, can
/// capture `color`'s king.
pub fn king_capturable(pos: &Position, color: Color, rules: &RuleSet) -> bool {
    pos.turn() != color
        && pos.has_king(color)
        && pos.has_king(!color)
        && pos.legal_moves(rules).iter().any(Move::captures_king)
}

/// Whether the game's last move ended it in a draw by the rules (no progress,
/// repetition), so that the final position is worth 0.
fn ends_in_rule_draw(game: &SavedGame) -> bool {
    let mut g = Game::new(game.start.clone(), game.rules);
    let mut end = None;
    for m in &game.moves {
        end = g.play(m);
    }
    end.is_some_and(|o| o.winner.is_none())
}

/// The value of one position: decided positions here, the rest by the engine.
pub(crate) fn value_of(
    pos: &Position,
    rules: &RuleSet,
    engine: &mut dyn Evaluator,
) -> Result<Evaluation, String> {
    let decided = |cp: f64, best: String| Ok(Evaluation { cp, best });
    match (pos.has_king(Color::White), pos.has_king(Color::Black)) {
        (true, true) => {}
        (false, true) => return decided(-MATE_CP, String::new()),
        (true, false) => return decided(MATE_CP, String::new()),
        (false, false) => return Err("neither side has a king".into()),
    }
    let moves = pos.legal_moves(rules);
    if let Some(m) = moves.iter().find(|m| m.captures_king()) {
        return decided(mate_cp(pos.turn().is_white(), 1), m.uci());
    }
    if moves.is_empty() {
        // No legal move: a draw by the rules.
        return decided(0.0, String::new());
    }
    engine.evaluate(pos, rules)
}

/// The thesis's MyStockfish (without its noise term) on the true board: depth-limited
/// alpha-beta with the recapture extension; with a node limit it deepens one ply at a
/// time and keeps the deepest finished search. Deterministic.
///
/// Its static value is the thesis's material and piece-square sum (1 pawn = 100 cp); a
/// king capture it finds at remaining depth `r` of a depth-`d` search happens `d - r + 1`
/// plies ahead and becomes [`mate_cp`] of that distance.
#[derive(Clone, Debug)]
pub struct MyStockfishEvaluator {
    depth: i32,
    nodes: Option<u64>,
}

impl MyStockfishEvaluator {
    /// A search of `depth` plies (at least 1), stopped after `nodes` nodes per position
    /// if given.
    pub fn new(depth: i32, nodes: Option<u64>) -> MyStockfishEvaluator {
        MyStockfishEvaluator {
            depth: depth.max(1),
            nodes,
        }
    }
}

impl Default for MyStockfishEvaluator {
    /// Depth [`DEFAULT_ANALYSIS_DEPTH`], [`DEFAULT_ANALYSIS_NODES`] nodes.
    fn default() -> MyStockfishEvaluator {
        MyStockfishEvaluator::new(DEFAULT_ANALYSIS_DEPTH, Some(DEFAULT_ANALYSIS_NODES))
    }
}

/// A MyStockfish score (micro-pawns, plus for White) of a search of depth `depth` in
/// centipawns, king captures as [`mate_cp`].
pub fn mystockfish_cp(value: i64, depth: i32) -> f64 {
    let unit = king_capture(0) / 100; // king_capture(r) = unit * (100 + r)
    if value.abs() >= unit * 50 {
        let r = value.abs() / unit - 100;
        let plies = (i64::from(depth.max(1)) - r + 1).max(1);
        mate_cp(value > 0, plies as u32)
    } else {
        value as f64 * 100.0 / PAWN as f64
    }
}

impl Evaluator for MyStockfishEvaluator {
    fn describe(&self) -> String {
        match self.nodes {
            Some(n) => format!("MyStockfish depth {}, nodes {n}", self.depth),
            None => format!("MyStockfish depth {}", self.depth),
        }
    }

    fn evaluate(&mut self, pos: &Position, rules: &RuleSet) -> Result<Evaluation, String> {
        let mut engine = MyStockfish::new(*rules, 0).without_noise();
        engine.set_limits(Limits {
            nodes: self.nodes,
            deadline: None,
        });
        let r = engine.run(&SearchBoard::from_position(pos), self.depth);
        Ok(Evaluation {
            cp: mystockfish_cp(r.value, r.depth),
            best: r.best.map(|m| m.uci()).unwrap_or_default(),
        })
    }
}

/// A UCI engine (Stockfish) valuing positions with `go nodes N`.
///
/// The engine plays standard chess, so each position is first made one it accepts:
/// castling rights and en passant squares that standard chess would not have are
/// dropped. A side to move with no standard-chess move has only moves that leave its
/// king capturable (checkmate and stalemate alike): a loss two plies away, valued here
/// (with no preferred move).
/// The last `info ... score cp|mate` line before `bestmove` is the value: `cp` as is,
/// `mate N` as a king capture `2N + 1` plies away (`mate -N`: `2N + 2` plies, lost).
pub struct UciEvaluator {
    name: String,
    nodes: u64,
    timeout: Duration,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl UciEvaluator {
    /// Starts `program` (a path, or a name looked for on `PATH` and in `/usr/games`)
    /// and waits for `uciok` and `readyok` (at most 10 s each). `timeout`
    /// bounds the wait for each position's `bestmove`.
    pub fn start(program: &str, nodes: u64, timeout: Duration) -> Result<UciEvaluator, String> {
        let path = find_engine(program)
            .ok_or_else(|| format!("engine '{program}' not found (on PATH or in /usr/games)"))?;
        let mut child = Command::new(&path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", path.display()))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        let mut e = UciEvaluator {
            name: path
                .file_name()
                .map_or(program.to_string(), |n| n.to_string_lossy().into_owned()),
            nodes: nodes.max(1),
            timeout,
            child,
            stdin: Some(stdin),
            lines,
        };
        e.send("uci")?;
        let mut id = None;
        e.wait_for("uciok (is it a UCI engine?)", UCI_STARTUP, |l| {
            if let Some(n) = l.strip_prefix("id name ") {
                id = Some(n.trim().to_string());
            }
            l.trim() == "uciok"
        })?;
        if let Some(id) = id {
            e.name = id;
        }
        e.send("isready")?;
        e.wait_for("readyok", UCI_STARTUP, |l| l.trim() == "readyok")?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("engine input closed")?;
        let written = writeln!(stdin, "{line}").and_then(|()| stdin.flush());
        written.map_err(|e| self.gone(&format!("cannot write to the engine: {e}")))
    }

    /// The message for an engine that stopped talking: its exit status when it shows up
    /// within 200 ms, else `otherwise`.
    fn gone(&mut self, otherwise: &str) -> String {
        let until = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return format!("{}: the engine exited ({status})", self.name),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                _ => return format!("{}: {otherwise}", self.name),
            }
        }
    }

    /// Reads lines until `done` accepts one (which is returned), for at most `timeout`;
    /// `what` names the awaited line in the error.
    fn wait_for(
        &mut self,
        what: &str,
        timeout: Duration,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) if done(&l) => return Ok(l),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "{}: no {what} within {} ms",
                        self.name,
                        timeout.as_millis()
                    ))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.gone("the engine closed its output"))
                }
            }
        }
    }
}

/// The engine's path: as given when it names a file, else on `PATH`, else in
/// `/usr/games`.
fn find_engine(program: &str) -> Option<std::path::PathBuf> {
    if program.contains('/') {
        let p = Path::new(program);
        return p.is_file().then(|| p.to_path_buf());
    }
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(program))
            .find(|p| p.is_file())
    });
    on_path.or_else(|| {
        let p = Path::new("/usr/games").join(program);
        p.is_file().then_some(p)
    })
}

/// `pos` as a standard-chess position (castling rights and en passant squares standard
/// chess would not have are dropped, as is a check no chess move could have given).
fn standard_chess(pos: &Position) -> Result<Chess, String> {
    let mut result = Chess::from_setup(pos.to_setup(), CastlingMode::Standard);
    if let Err(e) = result {
        result = e.ignore_invalid_castling_rights();
    }
    if let Err(e) = result {
        result = e.ignore_invalid_ep_square();
    }
    if let Err(e) = result {
        result = e.ignore_impossible_check();
    }
    if let Err(e) = result {
        result = e.ignore_too_much_material();
    }
    result.map_err(|e| format!("not a position standard chess accepts: {e}"))
}

/// The most plies away a mate reported by an engine is counted: a mate further away
/// (an engine would not say so, but its output is outside text) is counted as this far,
/// so that it stays worth more than any centipawn score.
const MATE_PLIES_CAP: u32 = 5_000;

/// Reads `score cp X` or `score mate Y` from an `info` line, for the side to move. Any
/// text is read without failing; numbers too large for an `i64` are no score.
fn info_score(line: &str) -> Option<f64> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    while let Some(w) = words.next() {
        if w == "score" {
            let kind = words.next()?;
            let n: i64 = words.next()?.parse().ok()?;
            // Mate in n moves is 2n - 1 plies of ours and theirs, plus the capture.
            let plies = |extra: u64| {
                let p = n.unsigned_abs().saturating_mul(2).saturating_add(extra);
                u32::try_from(p).unwrap_or(u32::MAX).min(MATE_PLIES_CAP)
            };
            return match kind {
                "cp" => Some(n as f64),
                "mate" if n > 0 => Some(mate_cp(true, plies(1))),
                "mate" => Some(mate_cp(false, plies(2))),
                _ => None,
            };
        }
    }
    None
}

impl Evaluator for UciEvaluator {
    fn describe(&self) -> String {
        format!("{} nodes {}", self.name, self.nodes)
    }

    fn evaluate(&mut self, pos: &Position, rules: &RuleSet) -> Result<Evaluation, String> {
        let chess = standard_chess(pos)?;
        let white = pos.turn().is_white();
        let sign = if white { 1.0 } else { -1.0 };
        if chess.legal_moves().is_empty() {
            // Checkmate or stalemate in standard chess: every fog-of-war move leaves the
            // king capturable, none is better than another.
            return Ok(Evaluation {
                cp: mate_cp(!white, 2),
                best: String::new(),
            });
        }
        let fen = Fen::from_position(&chess, EnPassantMode::Legal);
        self.send(&format!("position fen {fen}"))?;
        self.send(&format!("go nodes {}", self.nodes))?;
        let mut score = None;
        let bestmove = self.wait_for("bestmove", self.timeout, |l| {
            if let Some(s) = info_score(l) {
                score = Some(s);
            }
            l.starts_with("bestmove")
        })?;
        // The engine's text goes into the analysis CSV: control characters escaped.
        let best =
            fow_variants::printable(bestmove.split_whitespace().nth(1).unwrap_or("")).into_owned();
        let cp = score.ok_or_else(|| format!("{}: bestmove without a score", self.name))?;
        // Castling and promotions read back through our rules when they fit them.
        let best = match pos.parse_uci(&best, rules) {
            Ok(m) => m.uci(),
            Err(_) if best == "(none)" => String::new(),
            Err(_) => best,
        };
        Ok(Evaluation {
            cp: sign * cp,
            best,
        })
    }
}

impl Drop for UciEvaluator {
    fn drop(&mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            match self.child.try_wait() {
                Ok(None) => thread::sleep(Duration::from_millis(5)),
                _ => break,
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mystockfish_scores_convert_to_centipawns_and_mates() {
        assert_eq!(mystockfish_cp(PAWN, 4), 100.0);
        assert_eq!(mystockfish_cp(-3 * PAWN / 2, 4), -150.0);
        // A capture at the root of a depth-4 search: 1 ply away.
        assert_eq!(mystockfish_cp(king_capture(4), 4), MATE_CP - 1.0);
        // The opponent captures on its first move: 2 plies away, lost.
        assert_eq!(mystockfish_cp(-king_capture(3), 4), -(MATE_CP - 2.0));
        // Found in the recapture extension below the nominal depth.
        assert_eq!(mystockfish_cp(king_capture(-1), 2), MATE_CP - 4.0);
    }

    #[test]
    fn uci_scores_are_for_the_side_to_move() {
        assert_eq!(
            info_score("info depth 5 score cp 31 nodes 100 pv e2e4"),
            Some(31.0)
        );
        assert_eq!(
            info_score("info depth 9 score mate 2 pv a1a8"),
            Some(MATE_CP - 5.0)
        );
        assert_eq!(
            info_score("info depth 9 score mate -1"),
            Some(-(MATE_CP - 4.0))
        );
        assert_eq!(
            info_score("info depth 0 score mate 0"),
            Some(-(MATE_CP - 2.0))
        );
        assert_eq!(info_score("info string hello"), None);
        assert_eq!(info_score("bestmove e2e4"), None);
        // Numbers an engine should never give: no overflow, a mate stays a mate.
        assert_eq!(
            info_score("info score mate 9223372036854775807"),
            Some(MATE_CP - 5000.0)
        );
        assert_eq!(
            info_score("info score mate -9223372036854775808"),
            Some(-(MATE_CP - 5000.0))
        );
        assert_eq!(info_score("info score cp 99999999999999999999"), None);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 500,
            failure_persistence: None,
            ..Default::default()
        })]

        /// Engine lines are outside text: any of them reads without a panic, and a score
        /// read is a number, a mate on the right side of every centipawn score.
        #[test]
        fn any_engine_line_reads(
            line in "(info|bestmove)? ?((depth|score|cp|mate|nodes|pv) ?(-?[0-9]{0,20}|[a-h][1-8][a-h][1-8]) ?){0,5}",
            n in proptest::prelude::any::<i64>(),
        ) {
            if let Some(v) = info_score(&line) {
                proptest::prop_assert!(v.is_finite());
            }
            let win = info_score(&format!("info depth 3 score mate {n}")).unwrap();
            let mate = if n > 0 {
                win >= MATE_CP / 2.0
            } else {
                win <= -MATE_CP / 2.0
            };
            proptest::prop_assert!(mate, "mate {} read as {}", n, win);
        }
    }

    #[test]
    fn a_king_capture_ends_the_game_even_with_the_winner_s_king_attacked() {
        let rules = RuleSet::thesis();
        // Black's rook attacks White's king on e1, but White takes Black's king first.
        let mut pos: Position = "4k3/p7/8/8/8/8/8/Q3K2r w - - 0 1".parse().unwrap();
        assert!(king_capturable(
            &{
                let mut p = pos.clone();
                p.play(&p.parse_uci("a1a2", &rules).unwrap());
                p
            },
            Color::White,
            &rules
        ));
        pos.play(&pos.parse_uci("a1e5", &rules).unwrap());
        let m = pos.parse_uci("a7a6", &rules).unwrap();
        pos.play(&m);
        pos.play(&pos.parse_uci("e5e8", &rules).unwrap());
        assert!(!pos.has_king(Color::Black));
        // The rook still attacks e1, but the game is over.
        assert!(pos.legal_moves(&rules).iter().any(Move::captures_king));
        assert!(!king_capturable(&pos, Color::White, &rules));
    }

    #[test]
    fn standard_chess_takes_fog_of_war_positions() {
        // White's king attacked three times (Black ignored White's threats): standard
        // chess calls it an impossible check; Stockfish still searches it.
        let pos: Position = "4r1k1/8/8/8/1b6/3n4/8/4K3 w - - 0 1".parse().unwrap();
        assert!(standard_chess(&pos).is_ok());
        // Castling rights carry over.
        let pos: Position = "4k3/8/8/8/8/8/8/4K2R w K - 0 1".parse().unwrap();
        let chess = standard_chess(&pos).unwrap();
        assert!(chess.legal_moves().iter().any(|m| m.is_castle()));
    }

    #[test]
    fn decided_positions_are_not_searched() {
        let rules = RuleSet::thesis();
        let mut e = MyStockfishEvaluator::new(2, None);
        // A rook up, nothing capturable: the engine's value.
        let pos: Position = "R7/4k3/8/8/8/8/8/4K3 b - - 0 1".parse().unwrap();
        let v = value_of(&pos, &rules, &mut e).unwrap();
        assert!(v.cp > 400.0 && v.cp < 600.0, "{v:?}");
        // White to move takes the king: a win one ply away.
        let pos: Position = "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1".parse().unwrap();
        let v = value_of(&pos, &rules, &mut e).unwrap();
        assert_eq!((v.cp, v.best.as_str()), (MATE_CP - 1.0, "e1e8"));
        // The same for Black.
        let pos: Position = "4k3/8/8/8/8/8/8/4r1K1 b - - 0 1".parse().unwrap();
        let v = value_of(&pos, &rules, &mut e).unwrap();
        assert_eq!((v.cp, v.best.as_str()), (-(MATE_CP - 1.0), "e1g1"));
    }
}
