//! [`UciPlayer`]: a UCI chess engine (Stockfish, ...) as a fog-of-war bot, the
//! `uci:cmd=<engine>` spec.
//!
//! Each turn it captures the king when it can; otherwise it builds one full board from
//! what it saw (a PossibleBoardGenerator-style guess kept across turns, or with
//! `board=belief` a seeded random board of the exact belief set, both starting from the
//! start position it is told), makes it a position
//! standard chess accepts ([`prepare`]: fixing or skipping what it does not), asks the
//! engine (`position fen ...`, `go nodes N` or `go movetime T`) and plays its `bestmove`
//! when it is legal in the real observation. Otherwise it plays the fallback: the legal
//! move that captures the heaviest visible piece, ties (and no capture) at random. What
//! was fixed, skipped or rejected is counted in [`UciCounts`], saved after each game
//! next to the engine's stderr log (`<log>.uci.json`, see [`read_uci_counts`]).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use fow_variants::shakmaty::fen::Fen;
use fow_variants::shakmaty::{
    Bitboard, Board, CastlingMode, Chess, EnPassantMode, FromSetup, Position as _,
    PositionErrorKinds, Setup,
};
use fow_variants::{apply_move, Color, FogView, Move, Observation, RuleSet};
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

use super::command::{executable, find_program};
use super::launch::Launch;
use super::process::{Line, Process, DEFAULT_STARTUP_MS, DEFAULT_TIMEOUT_MS};
use super::uci_option::{EngineOptions, UciOption, OPTION_PREFIX};
use crate::belief::board_list::{BoardList, Status};
use crate::belief::guess::{initial_guess, update_guess};
use crate::bots::BotRng;
use crate::pick::best_move;
use crate::player::{Budget, GameStart, Player, PlayerError, PlayerErrorKind};
use crate::spec::{PlayerSpec, SpecError};
use crate::weights::thesis_weight;

/// The spec keys of `uci:`.
pub const UCI_KEYS: [&str; 9] = [
    "cmd", "name", "timeout", "startup", "nodes", "movetime", "board", "sandbox", "bind",
];
/// Default engine nodes per move.
pub const DEFAULT_UCI_NODES: u64 = 2000;
/// The most boards the `board=belief` set holds before it falls back to the guess.
pub const BELIEF_CAP: usize = 20_000;

/// Which full board the engine is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardSource {
    /// One guessed board kept across turns (as PossibleBoardGenerator keeps it).
    Guess,
    /// A seeded random board of the exact belief set (as PossibleBoardList keeps it);
    /// the guess when the set overflowed or emptied.
    Belief,
}

/// How to run one UCI engine, read from a `uci:cmd=...` spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciSettings {
    /// The engine, its arguments, environment and sandbox.
    pub launch: Launch,
    /// The name in messages.
    pub name: String,
    /// Wait from the start to `uciok` and `readyok`.
    pub startup: Duration,
    /// Wait for one `bestmove`.
    pub timeout: Duration,
    /// `go nodes N` (used unless `movetime` is set).
    pub nodes: u64,
    /// `go movetime MS`.
    pub movetime: Option<u64>,
    /// The board shown to the engine.
    pub board: BoardSource,
    /// The engine options to set (`option.NAME=VALUE`), in the order first given (a
    /// repeated name keeps its last value): `NAME` as written in the spec, checked
    /// against what the engine lists when it starts.
    pub options: Vec<(String, String)>,
}

impl UciSettings {
    /// Reads `uci:cmd=<engine>[,nodes=N|,movetime=MS][,board=guess|belief][,name=N]
    /// [,timeout=MS][,startup=MS][,sandbox=bwrap][,option.NAME=VALUE...]`. A bare engine
    /// name not on `PATH` is also looked for in `/usr/games` (where Debian installs
    /// Stockfish).
    pub fn from_spec(spec: &PlayerSpec) -> Result<UciSettings, SpecError> {
        let bad = |message: String| SpecError::BadParam {
            bot: spec.name.clone(),
            message,
        };
        let mut options: Vec<(String, String)> = Vec::new();
        for (k, v) in &spec.params {
            if let Some(name) = k.strip_prefix(OPTION_PREFIX) {
                if name.is_empty() {
                    return Err(bad(format!("'{k}' names no engine option")));
                }
                match options.iter_mut().find(|(n, _)| n == name) {
                    Some(given) => given.1.clone_from(v),
                    None => options.push((name.to_string(), v.clone())),
                }
            } else if !UCI_KEYS.contains(&k.as_str()) && !Launch::is_key(k) {
                return Err(bad(format!(
                    "unknown parameter '{k}' (known: {}, env.NAME, option.NAME)",
                    UCI_KEYS.join(", ")
                )));
            }
        }
        let cmd = spec.param("cmd").unwrap_or_default();
        let launch = Launch::from_spec(spec, "engine command line", |program| {
            find_program(program).or_else(|| {
                let games = Path::new("/usr/games").join(program);
                (!program.contains('/') && executable(&games)).then_some(games)
            })
        })?;
        let ms = |key: &str, default: u64| -> Result<Duration, SpecError> {
            match spec.parsed(key, default)? {
                0 => Err(bad(format!("{key} must be at least 1 ms"))),
                v => Ok(Duration::from_millis(v)),
            }
        };
        let nodes: u64 = spec.parsed("nodes", DEFAULT_UCI_NODES)?;
        if nodes == 0 {
            return Err(bad("nodes must be at least 1".into()));
        }
        let movetime = match spec.param("movetime") {
            None => None,
            Some(_) => match spec.parsed::<u64>("movetime", 0)? {
                0 => return Err(bad("movetime must be at least 1 ms".into())),
                v => Some(v),
            },
        };
        let board = match spec.param("board").unwrap_or("guess") {
            "guess" => BoardSource::Guess,
            "belief" => BoardSource::Belief,
            other => return Err(bad(format!("board is guess or belief, not '{other}'"))),
        };
        Ok(UciSettings {
            name: spec.param("name").unwrap_or(cmd).to_string(),
            launch,
            startup: ms("startup", DEFAULT_STARTUP_MS)?,
            timeout: ms("timeout", DEFAULT_TIMEOUT_MS)?,
            nodes,
            movetime,
            board,
            options,
        })
    }
}

/// What happened over one game (or, summed, many): how each turn was decided, what was
/// fixed in the boards shown to the engine, and why the engine was skipped or overruled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UciCounts {
    /// Turns played.
    pub turns: u32,
    /// Turns that captured the king (no engine asked).
    pub king_captures: u32,
    /// Turns that played the engine's move.
    pub engine_moves: u32,
    /// Turns that played the fallback (engine skipped or its move rejected).
    pub fallbacks: u32,
    /// `board=belief`: turns shown the guess because the belief set overflowed or emptied.
    pub belief_to_guess: u32,
    /// Fixes: castling rights dropped that the board does not allow.
    pub fixed_castling: u32,
    /// Fixes: an en passant square dropped.
    pub fixed_ep: u32,
    /// Fixes: the enemy king was missing and was put on a fog square.
    pub fixed_king_added: u32,
    /// Fixes: the guessed enemy king stood in check (the side not to move) and was moved
    /// to a safe fog square.
    pub fixed_king_moved: u32,
    /// Fixes: guessed enemy pawns on a back rank removed.
    pub fixed_back_rank_pawns: u32,
    /// Fixes: material no legal game reaches (two bishops on one square colour, more
    /// pieces than promotions explain) accepted, each side having at most 16 pieces.
    pub fixed_material: u32,
    /// Skips: no fog square could take the missing enemy king.
    pub skipped_missing_king: u32,
    /// Skips: the side not to move in check and no fix.
    pub skipped_opposite_check: u32,
    /// Skips: impossible checks on our king (too many or aligned checkers).
    pub skipped_impossible_check: u32,
    /// Skips: more than 16 pieces on a side.
    pub skipped_too_much_material: u32,
    /// Skips: no legal chess move on the board (mate or stalemate in the guess).
    pub skipped_no_moves: u32,
    /// Skips: anything else standard chess rejects.
    pub skipped_other: u32,
    /// Engine answers: a move not legal in the real observation.
    pub engine_illegal: u32,
    /// Engine answers: `bestmove (none)`, `0000` or text that is not a move.
    pub engine_garbage: u32,
}

impl UciCounts {
    /// Adds `other` to these counts.
    pub fn add(&mut self, o: &UciCounts) {
        self.turns += o.turns;
        self.king_captures += o.king_captures;
        self.engine_moves += o.engine_moves;
        self.fallbacks += o.fallbacks;
        self.belief_to_guess += o.belief_to_guess;
        self.fixed_castling += o.fixed_castling;
        self.fixed_ep += o.fixed_ep;
        self.fixed_king_added += o.fixed_king_added;
        self.fixed_king_moved += o.fixed_king_moved;
        self.fixed_back_rank_pawns += o.fixed_back_rank_pawns;
        self.fixed_material += o.fixed_material;
        self.skipped_missing_king += o.skipped_missing_king;
        self.skipped_opposite_check += o.skipped_opposite_check;
        self.skipped_impossible_check += o.skipped_impossible_check;
        self.skipped_too_much_material += o.skipped_too_much_material;
        self.skipped_no_moves += o.skipped_no_moves;
        self.skipped_other += o.skipped_other;
        self.engine_illegal += o.engine_illegal;
        self.engine_garbage += o.engine_garbage;
    }
}

/// The file [`UciPlayer`] saves its counts to for a game whose engine stderr goes to `log`.
pub fn uci_counts_path(log: &Path) -> PathBuf {
    let mut name = log.file_stem().unwrap_or_default().to_os_string();
    name.push(".uci.json");
    log.with_file_name(name)
}

/// The sum of the counts saved in `dir` (a tournament's `logs/` folder) and how many
/// games they cover.
pub fn read_uci_counts(dir: &Path) -> std::io::Result<(UciCounts, usize)> {
    let mut total = UciCounts::default();
    let mut games = 0;
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.to_string_lossy().ends_with(".uci.json") {
            let text = fs::read_to_string(&path)?;
            let c: UciCounts = serde_json::from_str(&text)
                .map_err(|e| std::io::Error::other(format!("{}: {e}", path.display())))?;
            total.add(&c);
            games += 1;
        }
    }
    Ok((total, games))
}

/// One line of a UCI engine, as [`UciPlayer`] reads it while it waits for a word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineLine {
    /// The awaited line (`uciok`, `readyok`, `bestmove e2e4 ponder e7e5`): the words after
    /// the first.
    Awaited(Vec<String>),
    /// An `info` line, with the node count it gives (`nodes N`), if any.
    Info(Option<u64>),
    /// Anything else, ignored.
    Other,
}

/// Reads one line of a UCI engine's output while waiting for `awaited` (any text: an
/// engine may print anything, and nothing here fails).
///
/// ```
/// use fow_players::external::{read_engine_line, EngineLine};
/// assert_eq!(
///     read_engine_line("bestmove e2e4 ponder e7e5", "bestmove"),
///     EngineLine::Awaited(vec!["e2e4".into(), "ponder".into(), "e7e5".into()])
/// );
/// assert_eq!(read_engine_line("info depth 3 nodes 812 pv e2e4", "bestmove"), EngineLine::Info(Some(812)));
/// assert_eq!(read_engine_line("info nodes 99999999999999999999", "bestmove"), EngineLine::Info(None));
/// assert_eq!(read_engine_line("\0garbage", "bestmove"), EngineLine::Other);
/// ```
pub fn read_engine_line(text: &str, awaited: &str) -> EngineLine {
    let mut words = text.split_whitespace();
    match words.next() {
        Some(w) if w == awaited => EngineLine::Awaited(words.map(str::to_string).collect()),
        Some("info") => {
            let mut nodes = None;
            while let Some(w) = words.next() {
                if w == "nodes" {
                    nodes = words.next().and_then(|n| n.parse::<u64>().ok());
                    break;
                }
            }
            EngineLine::Info(nodes)
        }
        _ => EngineLine::Other,
    }
}

/// Why the engine was not asked this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skip {
    /// No fog square could take the missing enemy king.
    MissingKing,
    /// The enemy king in check and no fix.
    OppositeCheck,
    /// Impossible checks on our king.
    ImpossibleCheck,
    /// Too much material.
    TooMuchMaterial,
    /// No legal move in standard chess.
    NoMoves,
    /// Anything else.
    Other,
}

/// Makes `setup` (our side to move, the guessed board) a position standard chess accepts,
/// fixing what it can: enemy pawns guessed on a back rank are removed, a missing enemy
/// king is put on a fog square we do not attack, a guessed enemy king in check is moved
/// to such a square, castling rights and an en passant square that do not fit are
/// dropped, unreachable material is accepted up to 16 pieces a side. Every fix is counted in `counts`; what cannot be fixed is a [`Skip`].
/// `fog` is the squares we cannot see (guessed pieces stand only there).
pub fn prepare(
    mut setup: Setup,
    fog: Bitboard,
    rng: &mut BotRng,
    counts: &mut UciCounts,
) -> Result<Chess, Skip> {
    let us = setup.turn;
    let them = !us;
    let back = Bitboard::from_rank(fow_variants::shakmaty::Rank::First)
        | Bitboard::from_rank(fow_variants::shakmaty::Rank::Eighth);
    let guessed_pawns = setup.board.by_color(them) & setup.board.pawns() & back & fog;
    if guessed_pawns.any() {
        for sq in guessed_pawns {
            setup.board.discard_piece_at(sq);
        }
        counts.fixed_back_rank_pawns += 1;
    }
    if setup.board.king_of(us).is_none() {
        return Err(Skip::Other);
    }
    if setup.board.king_of(them).is_none() {
        match safe_king_square(&setup.board, them, fog, rng) {
            Some(sq) => {
                setup.board.set_piece_at(sq, them.king());
                counts.fixed_king_added += 1;
            }
            None => return Err(Skip::MissingKing),
        }
    }
    let mut moved_king = false;
    let result = loop {
        let err = match Chess::from_setup(setup.clone(), CastlingMode::Standard) {
            Ok(pos) => break Ok(pos),
            Err(e) => e,
        };
        let kinds = err.kinds();
        if kinds.contains(PositionErrorKinds::OPPOSITE_CHECK) && !moved_king {
            let king = setup.board.king_of(them).expect("placed above");
            moved_king = true;
            if fog.contains(king) {
                let mut board = setup.board.clone();
                board.discard_piece_at(king);
                if let Some(sq) = safe_king_square(&board, them, fog, rng) {
                    board.set_piece_at(sq, them.king());
                    setup.board = board;
                    counts.fixed_king_moved += 1;
                    continue;
                }
            }
        }
        let mut fixes = UciCounts::default();
        let mut rest = Err(err);
        if kinds.contains(PositionErrorKinds::INVALID_CASTLING_RIGHTS) {
            if let Err(e) = rest {
                rest = e.ignore_invalid_castling_rights();
            }
            fixes.fixed_castling = 1;
        }
        if kinds.contains(PositionErrorKinds::INVALID_EP_SQUARE) {
            if let Err(e) = rest {
                rest = e.ignore_invalid_ep_square();
            }
            fixes.fixed_ep = 1;
        }
        // Unreachable material (mostly two bishops of one square colour after a guessed
        // bishop moved) is harmless to an engine as long as each side has at most 16
        // pieces; more is a skip.
        if kinds.contains(PositionErrorKinds::TOO_MUCH_MATERIAL)
            && Color::ALL
                .iter()
                .all(|&c| setup.board.by_color(c).count() <= 16)
        {
            if let Err(e) = rest {
                rest = e.ignore_too_much_material();
            }
            fixes.fixed_material = 1;
        }
        break match rest {
            Ok(pos) => {
                counts.add(&fixes);
                Ok(pos)
            }
            Err(e) => {
                let k = e.kinds();
                Err(if k.contains(PositionErrorKinds::OPPOSITE_CHECK) {
                    Skip::OppositeCheck
                } else if k.contains(PositionErrorKinds::IMPOSSIBLE_CHECK) {
                    Skip::ImpossibleCheck
                } else if k.contains(PositionErrorKinds::TOO_MUCH_MATERIAL) {
                    Skip::TooMuchMaterial
                } else if k.contains(PositionErrorKinds::MISSING_KING) {
                    Skip::MissingKing
                } else {
                    Skip::Other
                })
            }
        };
    };
    let pos = result?;
    if pos.legal_moves().is_empty() {
        return Err(Skip::NoMoves);
    }
    Ok(pos)
}

/// A random empty fog square where `color`'s king would not be attacked (nor next to
/// the other king).
fn safe_king_square(
    board: &Board,
    color: Color,
    fog: Bitboard,
    rng: &mut BotRng,
) -> Option<fow_variants::Square> {
    let occupied = board.occupied();
    let candidates: Vec<_> = (fog & !occupied)
        .into_iter()
        .filter(|&sq| board.attacks_to(sq, !color, occupied).is_empty())
        .collect();
    candidates.choose(rng).copied()
}

fn count_skip(counts: &mut UciCounts, skip: Skip) {
    match skip {
        Skip::MissingKing => counts.skipped_missing_king += 1,
        Skip::OppositeCheck => counts.skipped_opposite_check += 1,
        Skip::ImpossibleCheck => counts.skipped_impossible_check += 1,
        Skip::TooMuchMaterial => counts.skipped_too_much_material += 1,
        Skip::NoMoves => counts.skipped_no_moves += 1,
        Skip::Other => counts.skipped_other += 1,
    }
}

/// A UCI chess engine playing fog-of-war chess (the `uci` player spec: each turn a guessed
/// or belief board goes to the engine, whose move is played when legal in the real view).
///
/// The engine is started in [`Player::start`] and ended in [`Player::finish`] (or when the
/// player is dropped): `quit`, [`QUIT_GRACE`](super::QUIT_GRACE) to exit, then kill and
/// reap. An engine that gives no `bestmove` within `timeout` or dies loses the game
/// (reasons `timeout`, `crash`); a `bestmove` that is not a legal move in the real
/// observation is replaced by the fallback and counted.
pub struct UciPlayer {
    settings: UciSettings,
    log: Option<PathBuf>,
    /// Folders the engine must never see (see [`Player::hide`]).
    hidden: Vec<PathBuf>,
    process: Option<Process>,
    /// A failure in `start` or in a turn, not yet taken by [`Player::take_error`]; while
    /// it is there, `choose` answers [`Move::NULL`].
    failed: Option<PlayerError>,
    broken: bool,
    color: Color,
    rules: RuleSet,
    rng: BotRng,
    guess: Board,
    belief: Option<BoardList>,
    last_move: Option<Move>,
    counts: UciCounts,
    nodes: u64,
    /// The FEN sent at the last engine call, for tests and messages.
    last_fen: Option<String>,
    /// Under a clock: this move's thinking time in milliseconds (`go movetime`).
    clock_ms: Option<u64>,
}

impl UciPlayer {
    /// A player for these settings; nothing starts before [`Player::start`].
    pub fn new(settings: UciSettings) -> UciPlayer {
        UciPlayer {
            settings,
            log: None,
            hidden: Vec::new(),
            process: None,
            failed: None,
            broken: false,
            color: Color::White,
            rules: RuleSet::thesis(),
            rng: BotRng::seed_from_u64(0),
            guess: initial_guess(Color::White),
            belief: None,
            last_move: None,
            counts: UciCounts::default(),
            nodes: 0,
            last_fen: None,
            clock_ms: None,
        }
    }

    /// A player for a `uci:cmd=...` spec.
    pub fn from_spec(spec: &PlayerSpec) -> Result<UciPlayer, SpecError> {
        Ok(UciPlayer::new(UciSettings::from_spec(spec)?))
    }

    /// The counts of the current (or last) game.
    pub fn counts(&self) -> &UciCounts {
        &self.counts
    }

    /// The process id of the running engine, if one runs.
    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().map(Process::pid)
    }

    /// The FEN last sent to the engine.
    pub fn last_fen(&self) -> Option<&str> {
        self.last_fen.as_deref()
    }

    fn error(&self, kind: PlayerErrorKind, what: String) -> PlayerError {
        PlayerError {
            kind,
            message: format!("{}: {what}", self.settings.name),
        }
    }

    fn send(&self, line: &str) {
        if let Some(p) = &self.process {
            p.send(format!("{line}\n").into_bytes());
        }
    }

    /// Reads lines until one starts with `word` (its words after it), by `deadline`;
    /// `other` sees each line that is neither that nor `info`.
    fn wait_for(
        &mut self,
        word: &str,
        deadline: Instant,
        limit: Duration,
        mut other: impl FnMut(&str),
    ) -> Result<Vec<String>, PlayerError> {
        let mut nodes = None;
        loop {
            let Some(p) = self.process.as_mut() else {
                return Err(self.error(PlayerErrorKind::Other, "not started".into()));
            };
            let line = p.next_line(deadline);
            let text = match line {
                None => {
                    return Err(self.error(
                        PlayerErrorKind::Timeout,
                        format!("no '{word}' within {} ms", limit.as_millis()),
                    ))
                }
                // UCI does not fix an encoding: an engine's text is read as it comes.
                Some(Line::Text(t) | Line::NotUtf8(t)) => t,
                Some(Line::TooLong) => {
                    return Err(self.error(
                        PlayerErrorKind::Protocol,
                        format!("an overlong line while waiting for '{word}'"),
                    ))
                }
                Some(Line::Failed(e)) => {
                    return Err(
                        self.error(PlayerErrorKind::Crash, format!("reading its output: {e}"))
                    )
                }
                Some(Line::Closed) => {
                    let how = p.how_it_ended();
                    return Err(self.error(
                        PlayerErrorKind::Crash,
                        format!("the engine {how} while we waited for '{word}'"),
                    ));
                }
            };
            match read_engine_line(&text, word) {
                EngineLine::Awaited(words) => {
                    self.nodes += nodes.unwrap_or(0);
                    return Ok(words);
                }
                EngineLine::Info(Some(n)) => nodes = Some(n),
                EngineLine::Info(None) => {}
                EngineLine::Other => other(&text),
            }
        }
    }

    /// Starts the engine: `uci`, the options it lists, `uciok`, then a `setoption` for
    /// each option of the spec (see [`UciPlayer::set_options`]).
    fn open(&mut self, deadline: Instant) -> Result<Vec<UciOption>, PlayerError> {
        let process = Process::start(&self.settings.launch, &self.hidden, self.log.as_deref())
            .map_err(|m| self.error(PlayerErrorKind::Crash, m))?;
        self.process = Some(process);
        self.send("uci");
        let mut listed = EngineOptions::default();
        self.wait_for("uciok", deadline, self.settings.startup, |line| {
            listed.read_line(line)
        })?;
        self.set_options(&listed)?;
        Ok(listed.options)
    }

    /// Sends `setoption` for each `option.NAME=VALUE` of the spec, in its order, once
    /// every one is checked: an option the engine did not list, or a value its type or
    /// range refuses, is an error naming it (nothing is sent then).
    fn set_options(&mut self, listed: &EngineOptions) -> Result<(), PlayerError> {
        let lines = self
            .settings
            .options
            .iter()
            .map(|(name, value)| listed.find(name).and_then(|o| o.setoption(value)))
            .collect::<Result<Vec<String>, String>>()
            .map_err(|m| self.error(PlayerErrorKind::Other, m))?;
        for line in lines {
            self.send(&line);
        }
        Ok(())
    }

    /// Starts the engine for a game: [`UciPlayer::open`], `ucinewgame`, `isready`,
    /// `readyok`.
    fn begin(&mut self) -> Result<(), PlayerError> {
        let deadline = Instant::now() + self.settings.startup;
        self.open(deadline)?;
        self.send("ucinewgame");
        self.send("isready");
        self.wait_for("readyok", deadline, self.settings.startup, |_| {})?;
        Ok(())
    }

    /// Starts the engine, reads the options it lists, checks the spec's options against
    /// them and quits it (see [`super::engine_options`]).
    pub(crate) fn probe(&mut self) -> Result<Vec<UciOption>, PlayerError> {
        self.shutdown();
        self.broken = false;
        let deadline = Instant::now() + self.settings.startup;
        let listed = self.open(deadline);
        self.broken = listed.is_err();
        self.shutdown();
        listed
    }

    fn shutdown(&mut self) {
        if let Some(p) = self.process.take() {
            p.end((!self.broken).then(|| b"quit\n".to_vec()));
        }
    }

    /// The board shown to the engine, as a setup with us to move.
    fn board_setup(&mut self, obs: &Observation) -> Setup {
        let view = obs.view();
        let mut setup = Setup::empty();
        setup.turn = self.color;
        setup.fullmoves = std::num::NonZeroU32::new(obs.ply() / 2 + 1).expect("positive");
        if let Some(list) = self.belief.as_mut() {
            let mut update = list.update(obs, self.last_move.as_ref(), BELIEF_CAP);
            if update.parents == 0 && update.status == Status::Exact {
                let consistent: Vec<_> = list
                    .boards()
                    .iter()
                    .filter(|b| FogView::of(b, self.color, &self.rules) == *view)
                    .cloned()
                    .collect();
                if consistent.is_empty() {
                    update.status = Status::Empty;
                } else {
                    list.replace(consistent);
                }
            }
            if update.status == Status::Exact {
                if let Some(pos) = list.boards().choose(&mut self.rng) {
                    setup.board = pos.board().clone();
                    setup.castling_rights = pos.castling_rights();
                    setup.ep_square = pos.ep_square();
                    return setup;
                }
            }
            // Lost track: the guess from here on.
            self.counts.belief_to_guess += 1;
            self.belief = None;
        }
        setup.board = self.guess.clone();
        setup.castling_rights = view.castling_rights();
        setup.ep_square = view.ep_square();
        setup
    }

    /// Asks the engine for its move on `pos`: `Ok(None)` for an answer that is no move.
    fn ask(&mut self, pos: &Chess) -> Result<Option<String>, PlayerError> {
        let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
        self.send(&format!("position fen {fen}"));
        self.last_fen = Some(fen);
        // Under a clock the allocation of the clock decides, not a node count.
        match self.clock_ms.or(self.settings.movetime) {
            Some(ms) => self.send(&format!("go movetime {}", ms.max(1))),
            None => self.send(&format!("go nodes {}", self.settings.nodes)),
        }
        let deadline = Instant::now() + self.settings.timeout;
        let words = self.wait_for("bestmove", deadline, self.settings.timeout, |_| {})?;
        Ok(words.into_iter().next())
    }

    fn fallback(&mut self, obs: &Observation) -> Result<Move, PlayerError> {
        self.counts.fallbacks += 1;
        best_move(obs.legal_moves(), &mut self.rng, |m| {
            m.capture.map_or(0, thesis_weight)
        })
        .ok_or_else(|| self.error(PlayerErrorKind::Other, "no legal move".into()))
    }

    fn turn(&mut self, obs: &Observation) -> Result<Move, PlayerError> {
        if self.process.is_none() {
            return Err(self.error(PlayerErrorKind::Other, "asked to move before start".into()));
        }
        self.counts.turns += 1;
        let view = obs.view();
        self.guess = update_guess(&self.guess, view, &mut self.rng);
        let setup = self.board_setup(obs);
        if let Some(m) = obs.legal_moves().iter().find(|m| m.captures_king()) {
            self.counts.king_captures += 1;
            return Ok(*m);
        }
        let pos = match prepare(setup, view.fog(), &mut self.rng, &mut self.counts) {
            Ok(pos) => pos,
            Err(skip) => {
                count_skip(&mut self.counts, skip);
                return self.fallback(obs);
            }
        };
        match self.ask(&pos)? {
            Some(text) => match obs.parse_uci(&text) {
                Ok(m) => {
                    self.counts.engine_moves += 1;
                    Ok(m)
                }
                Err(fow_variants::MoveError::Illegal(_)) => {
                    self.counts.engine_illegal += 1;
                    self.fallback(obs)
                }
                Err(_) => {
                    self.counts.engine_garbage += 1;
                    self.fallback(obs)
                }
            },
            None => {
                self.counts.engine_garbage += 1;
                self.fallback(obs)
            }
        }
    }
}

impl super::Program for UciPlayer {
    fn failure(&mut self) -> &mut Option<PlayerError> {
        &mut self.failed
    }

    fn end_broken(&mut self) {
        self.broken = true;
        self.shutdown();
    }
}

impl Player for UciPlayer {
    fn start(&mut self, game: &GameStart) {
        self.shutdown();
        self.broken = false;
        self.color = game.color;
        self.rules = game.rules;
        self.rng = BotRng::seed_from_u64(game.seed ^ 0x0c1_e9e1);
        // The start position is public: the guess and the belief start from it.
        self.guess = game.position.board().clone();
        self.belief = (self.settings.board == BoardSource::Belief)
            .then(|| BoardList::from_start(game.color, game.rules, game.position.clone()));
        self.last_move = None;
        self.counts = UciCounts::default();
        self.nodes = 0;
        self.last_fen = None;
        self.failed = self.begin().err();
        if self.failed.is_some() {
            self.broken = true;
        }
    }

    fn choose(&mut self, obs: &Observation, budget: &Budget) -> Move {
        self.clock_ms = budget.clock.map(|c| c.allocation().as_millis() as u64);
        super::answer(self, |p| {
            let m = p.turn(obs)?;
            apply_move(&mut p.guess, &m, p.color);
            p.last_move = Some(m);
            Ok(m)
        })
    }

    fn take_error(&mut self) -> Option<PlayerError> {
        self.failed.take()
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }

    fn finish(&mut self, _winner: Option<Color>, _reason: &str) {
        self.shutdown();
        if let Some(log) = &self.log {
            let path = uci_counts_path(log);
            if let Some(dir) = path.parent() {
                let _ = fs::create_dir_all(dir);
            }
            let text = serde_json::to_string(&self.counts).expect("counts serialize");
            let _ = fs::write(path, text + "\n");
        }
    }

    fn log_to(&mut self, path: &Path) {
        self.log = Some(path.to_path_buf());
    }

    fn hide(&mut self, dir: &Path) {
        self.hidden.push(dir.to_path_buf());
    }
}

impl Drop for UciPlayer {
    fn drop(&mut self) {
        self.shutdown();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::Position;

    fn setup_of(fen: &str) -> Setup {
        let pos: Position = fen.parse().unwrap();
        pos.to_setup()
    }

    fn fog_except(visible: &[fow_variants::Square]) -> Bitboard {
        let mut b = Bitboard::FULL;
        for &sq in visible {
            b.discard(sq);
        }
        b
    }

    #[test]
    fn engine_options_are_read_from_the_spec_in_order() {
        let spec: PlayerSpec =
            "uci:cmd=sh,option.Hash=64,option.Skill_Level=3,option.Hash=128,option.Clear_Hash="
                .parse()
                .unwrap();
        let s = UciSettings::from_spec(&spec).unwrap();
        assert_eq!(
            s.options,
            [
                ("Hash".to_string(), "128".to_string()),
                ("Skill_Level".to_string(), "3".to_string()),
                ("Clear_Hash".to_string(), String::new()),
            ]
        );
        let spec: PlayerSpec = "uci:cmd=sh,option.=3".parse().unwrap();
        let e = UciSettings::from_spec(&spec).unwrap_err().to_string();
        assert_eq!(e, "uci: 'option.' names no engine option");
        let spec: PlayerSpec = "uci:cmd=sh,options.Hash=3".parse().unwrap();
        let e = UciSettings::from_spec(&spec).unwrap_err().to_string();
        assert!(e.ends_with("env.NAME, option.NAME)"), "{e}");
    }

    #[test]
    fn a_missing_enemy_king_is_added_on_a_safe_fog_square() {
        let mut setup = setup_of("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        setup.board.discard_piece_at(fow_variants::Square::E8);
        let mut counts = UciCounts::default();
        let mut rng = BotRng::seed_from_u64(1);
        let fog = Bitboard::from_rank(fow_variants::shakmaty::Rank::Eighth);
        let pos = prepare(setup, fog, &mut rng, &mut counts).unwrap();
        let king = pos.board().king_of(Color::Black).unwrap();
        assert!(fog.contains(king));
        // The rook on a1 attacks a8.
        assert_ne!(king, fow_variants::Square::A8);
        assert_eq!(counts.fixed_king_added, 1);
    }

    #[test]
    fn a_guessed_king_in_check_is_moved_and_wrong_castling_dropped() {
        // The black king on e8 in check from the rook on e1's file; White to move.
        let mut setup = Setup::empty();
        let board: Position = "4k3/8/8/8/8/8/8/R3RK2 w - - 0 1".parse().unwrap();
        setup.board = board.board().clone();
        setup.castling_rights = Bitboard::from_square(fow_variants::Square::A1);
        let mut counts = UciCounts::default();
        let mut rng = BotRng::seed_from_u64(2);
        let fog = fog_except(&[]);
        let pos = prepare(setup, fog, &mut rng, &mut counts).unwrap();
        assert_eq!(counts.fixed_king_moved, 1);
        assert_eq!(counts.fixed_castling, 1);
        assert!(!pos.is_check());
        let king = pos.board().king_of(Color::Black).unwrap();
        assert!(pos
            .board()
            .attacks_to(king, Color::White, pos.board().occupied())
            .is_empty());
    }

    #[test]
    fn two_bishops_on_one_colour_are_accepted() {
        let setup = setup_of("2b1kb2/pppppppp/8/8/8/8/8/4K3 w - - 0 1");
        let mut setup = setup;
        setup.board.discard_piece_at(fow_variants::Square::F8);
        setup
            .board
            .set_piece_at(fow_variants::Square::E6, Color::Black.bishop());
        setup
            .board
            .set_piece_at(fow_variants::Square::D6, Color::Black.bishop());
        let mut counts = UciCounts::default();
        let mut rng = BotRng::seed_from_u64(5);
        prepare(setup, Bitboard::EMPTY, &mut rng, &mut counts).unwrap();
        assert_eq!(counts.fixed_material, 1);
    }

    #[test]
    fn a_visible_king_in_check_is_a_skip() {
        let setup = setup_of("4k3/8/8/8/8/8/8/4RK2 b - - 0 1");
        let mut setup = setup;
        setup.turn = Color::White;
        let mut counts = UciCounts::default();
        let mut rng = BotRng::seed_from_u64(3);
        let r = prepare(setup, Bitboard::EMPTY, &mut rng, &mut counts);
        assert_eq!(r.unwrap_err(), Skip::OppositeCheck);
    }

    #[test]
    fn back_rank_pawns_are_removed_and_impossible_checks_skipped() {
        let mut setup = setup_of("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        setup
            .board
            .set_piece_at(fow_variants::Square::A1, Color::Black.pawn());
        let mut counts = UciCounts::default();
        let mut rng = BotRng::seed_from_u64(4);
        prepare(setup, fog_except(&[]), &mut rng, &mut counts).unwrap();
        assert_eq!(counts.fixed_back_rank_pawns, 1);
        // Our king attacked by three pieces at once: impossible.
        let mut setup = setup_of("4k3/8/8/8/8/8/8/2r1K3 w - - 0 1");
        setup
            .board
            .set_piece_at(fow_variants::Square::E3, Color::Black.rook());
        setup
            .board
            .set_piece_at(fow_variants::Square::D3, Color::Black.knight());
        let r = prepare(setup, Bitboard::EMPTY, &mut rng, &mut counts);
        assert_eq!(r.unwrap_err(), Skip::ImpossibleCheck);
    }
}
