//! Saved games, found again by number: a tournament's results folder (`games.csv` with
//! the rules of its `tournament.json`), a `games.csv` file, a PGN file (ours or
//! chess.com's fog-of-war export) or a folder of PGN files.
//!
//! [`load_games`] reads every game of such a source into [`SavedGame`]s: players, seed,
//! rules, start position, the moves as legal [`Move`]s, result and termination. Games
//! from `games.csv` keep their `id` as number; games from PGN are numbered 1, 2, ... in
//! file order (files of a folder sorted by name), unless a `FowGame` tag gives the number.
//! Every game is checked against the rules it records (see [`check_row`] and
//! [`check_pgn_game`]): a game whose moves cannot be replayed, or whose result, reason,
//! ply count or `Variant` the moves contradict, is an error naming the file, the line
//! and the game; [`load_games_lenient`] instead skips such a game, records the error and
//! goes on.
//!
//! The other way: [`SavedGame::to_pgn`] writes a game as PGN with moves in SAN, and
//! [`import_games`] writes games as a results folder (`games.csv` and `tournament.json`)
//! that every command reading tournament results opens.

use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use fow_variants::{
    read_pgn_games, Color, Game, GameEnd, Move, Outcome, PgnGame, PgnResult, Position, RuleSet,
};

use crate::check::{check_pgn_game, check_row, is_fog_of_war, read_checked, CheckAgainst};
use crate::config::TournamentConfig;
use crate::error::RecordError;
use crate::files::{pgn_files, GameRow, CONFIG_FILE, EVOLVE_FILE, GAMES_FILE};
use crate::folder::{RunFolder, Tables};
use crate::kind::FolderKind;
use crate::moves_text::replay_uci;
use crate::opening_names::{GameOpening, OpeningTable};
use crate::record::{GameResult, Reason};
use crate::tags::{DETAIL_TAG, GAME_TAG, RULES_TAG, SEED_TAG, SWITCHES_TAG, VARIANT};

/// One saved game, ready to replay.
#[derive(Clone, Debug)]
pub struct SavedGame {
    /// The game's number: its `id` in `games.csv`, else its `FowGame` tag, else its
    /// 1-based place in the PGN input.
    pub number: u64,
    /// Where it came from, for messages: `FILE` plus `game N`.
    pub source: String,
    /// White's name (bot spec or PGN `White` tag; `?` if unknown).
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The seed the arena played it with, if known (a 0 in `games.csv` means unknown:
    /// [`import_games`] writes it for games fow did not play, and fow's own game seeds
    /// are hashes that are practically never 0).
    pub seed: Option<u64>,
    /// The rules it was played under.
    pub rules: RuleSet,
    /// The start position.
    pub start: Position,
    /// The moves, legal in turn from `start` under `rules`.
    pub moves: Vec<Move>,
    /// The result; `None` when undecided or unknown (`*`).
    pub result: Option<GameResult>,
    /// How it ended, in words (`king captured`, chess.com's `Termination` tag, ...);
    /// empty if unknown.
    pub termination: String,
    /// All PGN tags (for `games.csv` games only a [`DETAIL_TAG`] with a non-empty
    /// `detail` column).
    pub tags: Vec<(String, String)>,
}

impl SavedGame {
    /// A game numbered 1 between `white` and `black` from the standard start, its moves
    /// given as UCI text and checked under `rules` as a saved game's moves are
    /// ([`replay_uci`]: the error names the ply of the first move that is not legal or
    /// comes after the end), with no seed, result or tags: for building games in code.
    ///
    /// ```
    /// use fow_records::SavedGame;
    /// use fow_variants::RuleSet;
    /// let g = SavedGame::from_uci("A", "B", RuleSet::chesscom(), &["e2e4", "d7d5"]).unwrap();
    /// assert_eq!(g.moves.len(), 2);
    /// assert!(SavedGame::from_uci("A", "B", RuleSet::chesscom(), &["e2e5"]).is_err());
    /// ```
    pub fn from_uci(
        white: &str,
        black: &str,
        rules: RuleSet,
        moves: &[&str],
    ) -> Result<SavedGame, String> {
        let (_, ms, _) = replay_uci(&Position::startpos(), &moves.join(" "), &rules)?;
        Ok(SavedGame {
            number: 1,
            source: format!("{white} vs {black}"),
            white: white.into(),
            black: black.into(),
            seed: None,
            rules,
            start: Position::startpos(),
            moves: ms,
            result: None,
            termination: String::new(),
            tags: Vec::new(),
        })
    }

    /// The positions before each move and after the last (one more than the moves).
    pub fn positions(&self) -> Vec<Position> {
        let mut pos = self.start.clone();
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        out.push(pos.clone());
        for m in &self.moves {
            pos.play(m);
            out.push(pos.clone());
        }
        out
    }

    /// The game's opening by position in the shipped table
    /// ([`OpeningTable::standard`]): the ECO code and name of the last position the table
    /// names, and the ply that leaves the table.
    pub fn opening(&self) -> Option<GameOpening> {
        OpeningTable::standard().identify(&self.positions())
    }

    /// The name of the side `color`.
    pub fn player(&self, color: Color) -> &str {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

/// Reads every game of `path`: a results folder, a `games.csv`, a PGN file or a folder
/// of `.pgn` files. `default_rules` applies to PGN games with neither a [`RULES_TAG`]
/// nor chess.com's `[Variant "Fog of War"]` (which means `chesscom`). The first game that
/// cannot be read is an error naming the file, the line, the game and the move.
pub fn load_games(path: &Path, default_rules: &RuleSet) -> Result<Vec<SavedGame>, RecordError> {
    let (mut games, mut error) = (Vec::new(), None);
    for_each_game(path, default_rules, &mut |g| match g {
        Ok(g) => {
            games.push(g);
            ControlFlow::Continue(())
        }
        Err(e) => {
            error = Some(e);
            ControlFlow::Break(())
        }
    })?;
    match error {
        Some(e) => Err(e),
        None => Ok(games),
    }
}

/// Reads every game of `path` like [`load_games`], but skips a game that cannot be read
/// (a bad move, a malformed row, a broken PGN game) and goes on with the next: the games
/// read, and one line per skipped game naming the file, the line, the game and what is
/// wrong (`bad.pgn:40: game 3: move 12... Nf3: illegal move 'Nf3'`). Skipped games keep
/// their number, so the others are numbered as [`load_games`] numbers them. Fails only
/// when `path` cannot be read at all.
pub fn load_games_lenient(
    path: &Path,
    default_rules: &RuleSet,
) -> Result<(Vec<SavedGame>, Vec<String>), RecordError> {
    let (mut games, mut errors) = (Vec::new(), Vec::new());
    for_each_game(path, default_rules, &mut |g| {
        match g {
            Ok(g) => games.push(g),
            Err(e) => errors.push(e.to_string()),
        }
        ControlFlow::Continue(())
    })?;
    Ok((games, errors))
}

/// What [`for_each_game`] calls with each game or the error of a game that cannot be
/// read; `Break` stops the reading.
type Each<'a> = dyn FnMut(Result<SavedGame, RecordError>) -> ControlFlow<()> + 'a;

/// Calls `each` with every game of `path` in order, or with the error of a game that
/// cannot be read, until `each` breaks. Errors of the source as a whole (a missing file,
/// a folder without games) are returned.
/// A results folder stands for its `games.csv`; any other path (a file, a folder of PGN
/// files) for itself.
pub fn games_csv_of(path: &Path) -> PathBuf {
    let csv = path.join(GAMES_FILE);
    if path.is_dir() && csv.is_file() {
        csv
    } else {
        path.to_path_buf()
    }
}

fn for_each_game(
    path: &Path,
    default_rules: &RuleSet,
    each: &mut Each<'_>,
) -> Result<(), RecordError> {
    let csv = games_csv_of(path);
    if csv != path {
        return load_games_csv(&csv, each);
    }
    if path.is_dir() && path.join(EVOLVE_FILE).is_file() {
        return Err(config(
            path,
            format!("an evolve folder (its {EVOLVE_FILE}) holds no games: its epochs are in log.csv, its best parameters in best.json"),
        ));
    }
    if path.is_dir() {
        let mut next = 1;
        for file in pgn_files(path)? {
            match load_pgn(&file, default_rules, next, each)? {
                ControlFlow::Continue(n) => next = n,
                ControlFlow::Break(()) => break,
            }
        }
        return Ok(());
    }
    if !path.exists() {
        return Err(config(path, "no such file or folder".into()));
    }
    if path.extension().is_some_and(|x| x == "csv") {
        return load_games_csv(path, each);
    }
    load_pgn(path, default_rules, 1, each).map(|_| ())
}

/// The game numbered `number` of `path` (see [`load_games`]); `None` picks the first.
/// Other games that cannot be read do not matter: the error is that of the game asked
/// for, or says there is no such game (and how many others could not be read).
pub fn load_game(
    path: &Path,
    number: Option<u64>,
    default_rules: &RuleSet,
) -> Result<SavedGame, RecordError> {
    let mut found: Option<Result<SavedGame, RecordError>> = None;
    let (mut numbers, mut unreadable) = (Vec::new(), 0usize);
    let (key_colon, key_comma) = number.map_or((String::new(), String::new()), |n| {
        (format!("game {n}:"), format!("game {n},"))
    });
    for_each_game(path, default_rules, &mut |g| {
        let wanted = match (&g, number) {
            (_, None) => true,
            (Ok(g), Some(n)) => g.number == n,
            (Err(RecordError::Format { message, .. }), Some(_)) => {
                message.starts_with(&key_colon) || message.starts_with(&key_comma)
            }
            (Err(_), Some(_)) => false,
        };
        if wanted {
            found = Some(g);
            return ControlFlow::Break(());
        }
        match g {
            Ok(g) => numbers.push(g.number),
            Err(_) => unreadable += 1,
        }
        ControlFlow::Continue(())
    })?;
    if let Some(g) = found {
        return g;
    }
    let others = match unreadable {
        0 => String::new(),
        1 => "; 1 more game could not be read".into(),
        k => format!("; {k} more games could not be read"),
    };
    match (number, numbers.iter().min(), numbers.iter().max()) {
        (_, None, _) | (_, _, None) if unreadable == 0 => {
            Err(config(path, "holds no games".into()))
        }
        (Some(n), Some(lo), Some(hi)) => Err(config(
            path,
            format!(
                "has no game {n} (its {} games are numbered {lo} to {hi}{others})",
                numbers.len()
            ),
        )),
        (Some(n), _, _) => Err(config(path, format!("has no readable game {n}{others}"))),
        (None, _, _) => Err(config(path, "holds no games".into())),
    }
}

fn config(path: &Path, message: String) -> RecordError {
    RecordError::Settings(format!("{}: {message}", path.display()))
}

/// The rules of a `games.csv`: those of the `tournament.json` beside it, else thesis.
pub fn rules_beside(games_csv: &Path) -> Result<RuleSet, RecordError> {
    let cfg = games_csv
        .parent()
        .unwrap_or(Path::new("."))
        .join(CONFIG_FILE);
    let Ok(text) = std::fs::read_to_string(&cfg) else {
        return Ok(RuleSet::thesis());
    };
    let bad = |line: usize, message: String| RecordError::Format {
        path: cfg.clone(),
        line: line as u64,
        message,
    };
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| bad(e.line(), e.to_string()))?;
    let rules = json
        .get("rules")
        .ok_or_else(|| bad(1, "no \"rules\"".into()))?;
    serde_json::from_value(rules.clone()).map_err(|e| bad(1, format!("rules: {e}")))
}

fn load_games_csv(path: &Path, each: &mut Each<'_>) -> Result<(), RecordError> {
    let (rules, rows) = read_checked(path, CheckAgainst::Beside, false)?;
    for r in rows {
        let game = r.row.map(|(row, moves)| {
            // check_row read the start already.
            let start = row.start_position().unwrap_or_default();
            let mut tags = Vec::new();
            if !row.detail.is_empty() {
                tags.push((DETAIL_TAG.to_string(), row.detail.clone()));
            }
            SavedGame {
                number: row.id,
                source: format!("{} game {}", path.display(), row.id),
                seed: (row.seed != 0).then_some(row.seed),
                rules,
                start,
                moves,
                result: row.game_result().ok(),
                termination: row.reason,
                tags,
                white: row.white,
                black: row.black,
            }
        });
        if each(game).is_break() {
            break;
        }
    }
    Ok(())
}

/// The rules of a PGN game: its [`RULES_TAG`], else `chesscom` for chess.com's fog of
/// war (a `Variant` tag [`is_fog_of_war`] without a [`SWITCHES_TAG`]), else `default`.
/// A `Variant` tag of another game is refused by [`check_pgn_game`], not here.
pub fn pgn_rules(game: &PgnGame, default: &RuleSet) -> Result<RuleSet, String> {
    if let Some(text) = game.tag(RULES_TAG) {
        return text
            .parse()
            .map_err(|e| format!("{RULES_TAG} tag '{text}': {e}"));
    }
    if game.tag("Variant").is_some_and(is_fog_of_war) && game.tag(SWITCHES_TAG).is_none() {
        return Ok(RuleSet::chesscom());
    }
    if let Some(text) = game.tag(SWITCHES_TAG) {
        return text
            .parse()
            .map_err(|e| format!("{SWITCHES_TAG} tag '{text}': {e}"));
    }
    Ok(*default)
}

/// Reads the games of one PGN file, numbering them from `first` (unless a [`GAME_TAG`]
/// says otherwise); continues with the number after the last game's place, or breaks
/// where `each` did.
fn load_pgn(
    path: &Path,
    default: &RuleSet,
    first: u64,
    each: &mut Each<'_>,
) -> Result<ControlFlow<(), u64>, RecordError> {
    let text = crate::text::read_text(path)?;
    let games = read_pgn_games(&text);
    for (i, g) in games.iter().enumerate() {
        let place = first + i as u64;
        let game = match g {
            Ok(g) => pgn_game(path, g, place, default),
            Err(e) => Err(RecordError::Format {
                path: path.to_path_buf(),
                line: e.line as u64,
                message: format!("game {place}: {}", e.message),
            }),
        };
        if each(game).is_break() {
            return Ok(ControlFlow::Break(()));
        }
    }
    Ok(ControlFlow::Continue(first + games.len() as u64))
}

/// One PGN game as a [`SavedGame`], replayed under its rules.
fn pgn_game(
    path: &Path,
    g: &PgnGame,
    place: u64,
    default: &RuleSet,
) -> Result<SavedGame, RecordError> {
    let bad = |line: usize, number: u64, message: String| RecordError::Format {
        path: path.to_path_buf(),
        line: line as u64,
        message: format!("game {number}: {message}"),
    };
    let number = match g.tag(GAME_TAG) {
        Some(n) => n.parse().map_err(|_| {
            bad(
                g.line,
                place,
                format!("{GAME_TAG} tag '{n}' is not a number"),
            )
        })?,
        None => place,
    };
    let rules = pgn_rules(g, default).map_err(|m| bad(g.line, number, m))?;
    let replay = check_pgn_game(g, &rules).map_err(|e| bad(e.line, number, e.message))?;
    let seed = match g.tag(SEED_TAG) {
        Some(s) => Some(s.parse().map_err(|_| {
            bad(
                g.line,
                number,
                format!("{SEED_TAG} tag '{s}' is not a number"),
            )
        })?),
        None => None,
    };
    let result = g.result.map(|r| match r {
        PgnResult::WhiteWins => GameResult::WhiteWins,
        PgnResult::BlackWins => GameResult::BlackWins,
        PgnResult::Draw => GameResult::Draw,
    });
    Ok(SavedGame {
        number,
        source: format!("{} game {number}", path.display()),
        white: g.tag("White").unwrap_or("?").to_string(),
        black: g.tag("Black").unwrap_or("?").to_string(),
        seed,
        rules,
        start: replay.positions[0].clone(),
        moves: replay.moves,
        result,
        termination: g.tag("Termination").unwrap_or("").to_string(),
        tags: g.tags.clone(),
    })
}

/// The tags [`SavedGame::to_pgn`] writes itself; other tags of a source follow them.
const OWN_TAGS: [&str; 18] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "SetUp",
    "FEN",
    "Variant",
    RULES_TAG,
    SWITCHES_TAG,
    SEED_TAG,
    GAME_TAG,
    "Termination",
    DETAIL_TAG,
    "ECO",
    "Opening",
];

/// A date as PGN writes it (`2023.04.11`): a PGN date is kept, chess.com's
/// `Tue Apr 11 2023 21:32:37 GMT+0000 (...)` converted; `None` for anything else.
fn pgn_date(text: &str) -> Option<String> {
    let t = text.trim();
    let pgn_like = t.len() == 10
        && t.bytes().enumerate().all(|(i, c)| match i {
            4 | 7 => c == b'.',
            _ => c.is_ascii_digit() || c == b'?',
        });
    if pgn_like {
        return Some(t.to_string());
    }
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let mut words = t.split_whitespace();
    let (_weekday, month, day, year) = (words.next()?, words.next()?, words.next()?, words.next()?);
    let month = MONTHS.iter().position(|m| *m == month)? + 1;
    let day: u32 = day.parse().ok().filter(|d| (1..=31).contains(d))?;
    let year: u32 = year.parse().ok().filter(|y| (1000..=9999).contains(y))?;
    Some(format!("{year}.{month:02}.{day:02}"))
}

impl SavedGame {
    /// The value of the first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The details of a player failure (the [`DETAIL_TAG`]), or empty.
    pub fn detail(&self) -> &str {
        self.tag(DETAIL_TAG).unwrap_or("")
    }

    /// The result as PGN writes it.
    fn pgn_result(&self) -> Option<PgnResult> {
        self.result.map(|r| match r {
            GameResult::WhiteWins => PgnResult::WhiteWins,
            GameResult::BlackWins => PgnResult::BlackWins,
            GameResult::Draw => PgnResult::Draw,
        })
    }

    /// The tags [`SavedGame::to_pgn`] writes, in order: the seven standard ones (`Event`
    /// the source's, else `fow tournament` for a game fow played (its seed is known), else
    /// `?`; `Site` the source's or `?`; `Date` the source's
    /// as a PGN date or `????.??.??`; `Round` the source's or the game's number; `White`,
    /// `Black`, `Result`), `SetUp` and `FEN` when the start is not the standard position,
    /// `Variant "Fog of War"`, [`RULES_TAG`], [`SWITCHES_TAG`], [`SEED_TAG`] (if known),
    /// [`GAME_TAG`], `Termination` (if known), [`DETAIL_TAG`] (if any), `ECO` and
    /// `Opening` (the game's [`SavedGame::opening`], if the table names a position of it;
    /// a source's own `ECO` and `Opening` tags are dropped), then the source's other tags
    /// in their order.
    pub fn pgn_tags(&self) -> Vec<(String, String)> {
        let mut tags: Vec<(String, String)> = Vec::with_capacity(self.tags.len() + 16);
        let mut put = |name: &str, value: String| tags.push((name.to_string(), value));
        let event = match self.tag("Event") {
            Some(e) => e,
            None if self.seed.is_some() => "fow tournament",
            None => "?",
        };
        put("Event", event.into());
        put("Site", self.tag("Site").unwrap_or("?").into());
        put(
            "Date",
            self.tag("Date")
                .and_then(pgn_date)
                .unwrap_or_else(|| "????.??.??".into()),
        );
        put(
            "Round",
            self.tag("Round")
                .map_or_else(|| self.number.to_string(), str::to_string),
        );
        put("White", self.white.clone());
        put("Black", self.black.clone());
        put(
            "Result",
            self.pgn_result().map_or("*".into(), |r| r.to_string()),
        );
        if self.start != Position::startpos() {
            put("SetUp", "1".into());
            put("FEN", self.start.fen());
        }
        put("Variant", VARIANT.into());
        put(RULES_TAG, self.rules.to_string());
        put(SWITCHES_TAG, self.rules.switches());
        if let Some(seed) = self.seed {
            put(SEED_TAG, seed.to_string());
        }
        put(GAME_TAG, self.number.to_string());
        if !self.termination.is_empty() {
            put("Termination", self.termination.clone());
        }
        if !self.detail().is_empty() {
            put(DETAIL_TAG, self.detail().to_string());
        }
        if let Some(o) = self.opening() {
            put("ECO", o.eco);
            put("Opening", o.name);
        }
        for (name, value) in &self.tags {
            if !OWN_TAGS.contains(&name.as_str()) {
                tags.push((name.clone(), value.clone()));
            }
        }
        tags
    }

    /// The game as PGN: [`SavedGame::pgn_tags`], then the moves in SAN without check
    /// marks, with move numbers, in lines of at most 80 columns, and the result.
    /// [`load_games`] reads it back as the same game.
    ///
    /// ```
    /// use fow_records::load_game;
    /// use fow_variants::RuleSet;
    /// let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/chesscom-fow");
    /// let game = load_game(&dir, Some(1), &RuleSet::thesis()).unwrap();
    /// let pgn = game.to_pgn();
    /// assert!(pgn.starts_with("[Event \"?\"]\n[Site \"www.chess.com/"));
    /// assert!(pgn.contains("[Date \"2023.04.11\"]\n[Round \"1\"]\n[White \"chaodins\"]"));
    /// assert!(pgn.contains("[Rules \"chesscom\"]\n"));
    /// // 1. d4 e6 2. e4: the French Defense by transposition (the table has 1. e4 e6 2. d4).
    /// assert!(pgn.contains("[ECO \"C00\"]\n[Opening \"French Defense: Normal Variation\"]\n"));
    /// assert!(pgn.contains("\n\n1. d4 e6 2. e4 c6 3. Nf3 a5 4. Ne5 d6 5. Nc4 Nf6 6. Qf3 b5 7. Bg5 bxc4"));
    /// ```
    pub fn to_pgn(&self) -> String {
        PgnGame::from_moves(
            self.pgn_tags(),
            &self.start,
            &self.moves,
            &self.rules,
            self.pgn_result(),
        )
        .to_pgn()
    }

    /// Games as one PGN text (`fow export`): each as [`SavedGame::to_pgn`] writes it, a
    /// blank line between them.
    pub fn pgn_of(games: &[SavedGame]) -> String {
        let pgns: Vec<String> = games.iter().map(SavedGame::to_pgn).collect();
        pgns.join("\n")
    }

    /// How the rules ended the game: with its last move (a king capture, a draw rule), or
    /// with no legal move left for the side to move (a draw, as the arena scores it);
    /// `None` when it stopped otherwise (resignation, time, a player's fault).
    pub fn outcome(&self) -> Option<Outcome> {
        let mut game = Game::new(self.start.clone(), self.rules);
        let mut outcome = None;
        for m in &self.moves {
            outcome = game.play(m);
        }
        if outcome.is_none() && game.position().legal_moves(&self.rules).is_empty() {
            outcome = Some(Outcome {
                winner: None,
                end: GameEnd::NoLegalMoves,
            });
        }
        outcome
    }

    /// Why the game ended, as a `games.csv` reason, with the detail column: the rules'
    /// end when the moves make one; else the termination when it names a reason
    /// (`illegal move`, ...); else `resignation` for a termination that says resigned or
    /// abandoned, `timeout` for one that says time, and `resignation` for a decided game
    /// with no termination at all. The termination text goes to the detail when the reason
    /// is only read from it. Errors: no decided result, a result the moves contradict, a
    /// draw the rules did not make, a termination claiming an end the moves do not make.
    pub fn reason(&self) -> Result<(Reason, String), String> {
        let Some(result) = self.result else {
            return Err("no result (*): games.csv holds finished games only".into());
        };
        let detail = self.detail().to_string();
        let term = self.termination.trim();
        if let Some(o) = self.outcome() {
            if o.winner != result.winner() {
                return Err(format!(
                    "the result {result} contradicts the moves ({})",
                    match (o.end, o.winner) {
                        (GameEnd::KingCaptured, Some(c)) => format!("{c:?} captured the king"),
                        (end, _) => format!("{} by the rules", Reason::from(end)),
                    }
                ));
            }
            return Ok((Reason::from(o.end), detail));
        }
        if let Ok(r) = term.to_lowercase().parse::<Reason>() {
            if !r.is_fault() && r.to_string() != "resignation" {
                return Err(format!(
                    "the termination '{term}' is not what the moves make (the game goes on after them)"
                ));
            }
            if result == GameResult::Draw {
                return Err(format!("a draw with the termination '{term}'"));
            }
            return Ok((r, detail));
        }
        if result == GameResult::Draw {
            return Err(format!(
                "a draw the rules did not make (termination '{term}'): games.csv has no reason for it"
            ));
        }
        let lower = term.to_lowercase();
        let name = if lower.contains("time") {
            "timeout"
        } else {
            "resignation"
        };
        let reason = name
            .parse::<Reason>()
            .map_err(|e| format!("termination '{term}': {e}"))?;
        let detail = match (term.is_empty(), detail.is_empty()) {
            (true, _) => detail,
            (false, true) => term.to_string(),
            (false, false) => format!("{term}; {detail}"),
        };
        Ok((reason, detail))
    }

    /// The game as a row of `games.csv` with number `id` and `round` (the meeting of its
    /// ordered pair). Errors, besides those of [`SavedGame::reason`]: a start other than
    /// the standard position (`games.csv` replays from it).
    pub fn game_row(&self, id: u64, round: u32) -> Result<GameRow, String> {
        if self.start != Position::startpos() {
            return Err(format!(
                "starts from the position '{}', and games.csv holds games from the standard start only",
                self.start.fen()
            ));
        }
        let (reason, detail) = self.reason()?;
        let result = self.result.expect("reason() checked the result");
        Ok(GameRow {
            id,
            round,
            white: self.white.clone(),
            black: self.black.clone(),
            seed: self.seed.unwrap_or(0),
            result: result.to_string(),
            reason: reason.to_string(),
            plies: self.moves.len(),
            detail,
            moves: self
                .moves
                .iter()
                .map(|m| m.uci())
                .collect::<Vec<_>>()
                .join(" "),
            start: String::new(),
            tag: String::new(),
        })
    }
}

/// What [`import_games`] wrote and left out.
#[derive(Clone, Debug)]
pub struct ImportReport {
    /// The rows written to `games.csv`, in order.
    pub rows: Vec<GameRow>,
    /// The rules written to `tournament.json` (those of the first game).
    pub rules: RuleSet,
    /// The players written to `tournament.json`, in order of first appearance.
    pub players: Vec<String>,
    /// One line per game left out, naming its source and why.
    pub skipped: Vec<String>,
    /// Whether the games were renumbered 1, 2, ... because their numbers clashed.
    pub renumbered: bool,
}

/// Writes `games` as a results folder in `dir` (created if needed, and which must not hold
/// a `games.csv` already): `games.csv` with one row per game that fits it (see
/// [`SavedGame::game_row`]; the seed column is 0 for a game without a known seed), and a
/// `tournament.json` of kind `import` with the players, the rules, a fresh secret key
/// (in `secret.key`: the rows are tagged from the import on) and `games_per_pair` the
/// most games any ordered pair played. Game numbers are kept, unless two of the games written
/// share one: then they are numbered 1, 2, ... in the order given. Rows are sorted by
/// number, and `round` counts the earlier games of the same ordered pair. The rules of the folder are those of the
/// first game; a game under other rules is left out, as is a game that does not fit
/// `games.csv` (see [`SavedGame::game_row`] and [`check_row`]) and a game with a known
/// seed that an earlier one repeats (the same players and seed). No `times.csv` is written (there are no thinking times). Writes nothing
/// when no game fits.
pub fn import_games(games: &[SavedGame], folder: &RunFolder) -> Result<ImportReport, RecordError> {
    if folder.dir().join(GAMES_FILE).exists() {
        return Err(RecordError::folder(
            folder.dir(),
            "already holds games; choose another folder".to_string(),
        ));
    }
    let mut report = ImportReport {
        rows: Vec::new(),
        rules: games.first().map_or(RuleSet::thesis(), |g| g.rules),
        players: Vec::new(),
        skipped: Vec::new(),
        renumbered: false,
    };
    let mut fitting = Vec::with_capacity(games.len());
    let mut seen: HashMap<(String, String, u64), String> = HashMap::new();
    for g in games {
        if g.rules != report.rules {
            report.skipped.push(format!(
                "{}: rules {} differ from the folder's ({}, the first game's); import them into another folder",
                g.source, g.rules, report.rules
            ));
            continue;
        }
        // The row as every reader checks it, so that the folder reads back.
        match g.game_row(g.number, 0).and_then(|row| {
            check_row(&row, &report.rules)?;
            Ok(row)
        }) {
            Ok(row) => {
                let key = (row.white.clone(), row.black.clone(), row.seed);
                match seen.get(&key) {
                    Some(first) if row.seed != 0 => report.skipped.push(format!(
                        "{}: the same game as {first} (the same players and seed {})",
                        g.source, row.seed
                    )),
                    _ => {
                        seen.insert(key, g.source.clone());
                        fitting.push(row);
                    }
                }
            }
            Err(e) => report.skipped.push(format!("{}: {e}", g.source)),
        }
    }
    let mut numbers = HashSet::new();
    report.renumbered = !fitting.iter().all(|r| numbers.insert(r.id));
    if report.renumbered {
        for (i, row) in fitting.iter_mut().enumerate() {
            row.id = i as u64 + 1;
        }
    }
    if fitting.is_empty() {
        return Ok(report);
    }
    fitting.sort_by_key(|r| r.id);
    let mut meetings: HashMap<(String, String), u32> = HashMap::new();
    for row in &mut fitting {
        let n = meetings
            .entry((row.white.clone(), row.black.clone()))
            .or_insert(0);
        row.round = *n;
        *n += 1;
        for p in [&row.white, &row.black] {
            if !report.players.contains(p) {
                report.players.push(p.clone());
            }
        }
    }
    // A fresh secret key: the folder's rows are tagged from now on, so that an edit
    // after the import shows (the games themselves are only as good as their source).
    let mut config = TournamentConfig::new(
        report.players.clone(),
        meetings.values().copied().max().unwrap_or(0),
        report.rules,
        None,
        None,
    )?;
    config.kind = Some(FolderKind::Import);
    let tables = Tables {
        games: fitting,
        ..Tables::default()
    };
    folder.save(&config, tables.clone())?;
    let tagger = config.row_tagger().expect("new settings are tagged");
    report.rows = tables.games;
    for row in &mut report.rows {
        row.tag = tagger.tag(row);
    }
    Ok(report)
}

impl ImportReport {
    /// `fow import`: reads every game of `inputs` (results folders, `games.csv` files, PGN
    /// files or folders of them; `rules` for PGN games that name none) and writes those
    /// that fit as the results folder `dir` ([`import_games`]), holding the folder's lock.
    /// A game that cannot be read is left out with the others [`import_games`] leaves
    /// out, listed first in `skipped`. A `dir` that holds a `games.csv` already is refused
    /// before anything is read (and again under the lock), and a folder made here is
    /// removed again when nothing is written.
    pub fn import_inputs(
        inputs: &[PathBuf],
        rules: &RuleSet,
        dir: &Path,
    ) -> Result<ImportReport, RecordError> {
        if dir.join(GAMES_FILE).exists() {
            return Err(RecordError::folder(
                dir,
                "already holds games; choose another folder",
            ));
        }
        let (mut games, mut skipped) = (Vec::new(), Vec::new());
        for path in inputs {
            let (g, e) = load_games_lenient(path, rules)?;
            games.extend(g);
            skipped.extend(e);
        }
        let existed = dir.exists();
        let folder = RunFolder::create(Some(dir), "", "")?;
        // A refused import leaves no folder behind (the folder is empty when nothing was
        // written, and only a folder made here is removed).
        let unmake = || {
            if !existed {
                let _ = std::fs::remove_dir(dir);
            }
        };
        let mut report = import_games(&games, &folder).inspect_err(|_| unmake())?;
        if report.rows.is_empty() {
            unmake();
        }
        skipped.append(&mut report.skipped);
        report.skipped = skipped;
        Ok(report)
    }

    /// The games written in a line: how many, of how many players, the rules, and who won
    /// (`imported 3 games of 2 players, rules chesscom (White won 2, Black 1, 0 drawn)`).
    pub fn summary(&self) -> String {
        let (mut white, mut black, mut draws) = (0, 0, 0);
        for r in &self.rows {
            match r.result.as_str() {
                "1-0" => white += 1,
                "0-1" => black += 1,
                _ => draws += 1,
            }
        }
        let n = self.rows.len();
        format!(
            "imported {n} game{} of {} players, rules {} (White won {white}, Black {black}, {draws} drawn)",
            if n == 1 { "" } else { "s" },
            self.players.len(),
            self.rules
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn data() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/chesscom-fow")
    }

    /// A game of `moves` (UCI) from the standard start.
    fn game(
        rules: RuleSet,
        moves: &str,
        result: Option<GameResult>,
        termination: &str,
    ) -> SavedGame {
        let mut pos = Position::startpos();
        let moves = moves
            .split_whitespace()
            .map(|t| {
                let m = pos.parse_uci(t, &rules).unwrap();
                pos.play(&m);
                m
            })
            .collect();
        SavedGame {
            number: 7,
            source: "test game 7".into(),
            white: "A".into(),
            black: "B".into(),
            seed: None,
            rules,
            start: Position::startpos(),
            moves,
            result,
            termination: termination.into(),
            tags: Vec::new(),
        }
    }

    #[test]
    fn dates_become_pgn_dates() {
        assert_eq!(pgn_date("2023.04.11").as_deref(), Some("2023.04.11"));
        assert_eq!(pgn_date("2023.??.??").as_deref(), Some("2023.??.??"));
        assert_eq!(
            pgn_date("Tue Apr 11 2023 21:32:37 GMT+0000 (Coordinated Universal Time)").as_deref(),
            Some("2023.04.11")
        );
        assert_eq!(pgn_date("Sat Dec 2 2023").as_deref(), Some("2023.12.02"));
        assert_eq!(pgn_date("yesterday"), None);
        assert_eq!(pgn_date("Tue Foo 11 2023"), None);
    }

    #[test]
    fn reasons_come_from_the_moves_then_the_termination() {
        let r = RuleSet::chesscom();
        let mate = "e2e4 f7f6 d1h5 a7a6 h5e8";
        let g = game(r, mate, Some(GameResult::WhiteWins), "King captured • 1-0");
        assert_eq!(g.reason().unwrap(), (Reason::KingCaptured, String::new()));
        let g = game(r, mate, Some(GameResult::BlackWins), "");
        assert_eq!(
            g.reason().unwrap_err(),
            "the result 0-1 contradicts the moves (White captured the king)"
        );
        let g = game(
            r,
            "e2e4",
            Some(GameResult::BlackWins),
            "White forfeits on time • 0-1",
        );
        assert_eq!(
            g.reason().unwrap(),
            (Reason::Timeout, "White forfeits on time • 0-1".into())
        );
        let g = game(r, "e2e4", Some(GameResult::WhiteWins), "illegal move");
        assert_eq!(g.reason().unwrap(), (Reason::IllegalMove, String::new()));
        let g = game(r, "e2e4", Some(GameResult::WhiteWins), "king captured");
        assert!(g.reason().unwrap_err().contains("not what the moves make"));
        let g = game(r, "e2e4", Some(GameResult::Draw), "agreed");
        assert!(g
            .reason()
            .unwrap_err()
            .contains("a draw the rules did not make"));
        let g = game(r, "e2e4", None, "");
        assert!(g.reason().unwrap_err().starts_with("no result"));
        // A resignation (or an unexplained decided game) is a resignation where the
        // reasons know one.
        let g = game(
            r,
            "e2e4",
            Some(GameResult::WhiteWins),
            "Black resigned • 1-0",
        );
        match "resignation".parse::<Reason>() {
            Ok(res) => assert_eq!(g.reason().unwrap(), (res, "Black resigned • 1-0".into())),
            Err(_) => assert!(g.reason().is_err()),
        }
    }

    #[test]
    fn pgn_round_trip_keeps_every_field() {
        let r = RuleSet::thesis();
        let mut g = game(
            r,
            "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1",
            Some(GameResult::WhiteWins),
            "illegal move",
        );
        g.seed = Some(42);
        g.tags.push((DETAIL_TAG.into(), "answered \"e2e9\"".into()));
        g.tags.push(("WhiteElo".into(), "1500".into()));
        let text = g.to_pgn();
        assert!(
            text.contains("\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O 1-0\n"),
            "{text}"
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.pgn");
        fs::write(&path, &text).unwrap();
        let back = load_game(&path, None, &RuleSet::chesscom()).unwrap();
        assert_eq!(back.number, 7);
        assert_eq!((back.white.as_str(), back.black.as_str()), ("A", "B"));
        assert_eq!(back.seed, Some(42));
        assert_eq!(back.rules, r);
        assert_eq!(back.moves, g.moves);
        assert_eq!(back.result, g.result);
        assert_eq!(back.termination, "illegal move");
        assert_eq!(back.detail(), "answered \"e2e9\"");
        assert_eq!(back.tag("WhiteElo"), Some("1500"));
        assert_eq!(back.to_pgn(), text);
        // A custom rule set and a start position survive too.
        let mut custom = RuleSet::chesscom();
        custom.draw_plies = None;
        let mut g2 = g.clone();
        g2.rules = custom;
        g2.start = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 9".parse().unwrap();
        let m = g2.start.parse_uci("e8d7", &custom).unwrap();
        g2.moves = vec![m];
        // White, to move after 9... Kd7, made the illegal move.
        g2.result = Some(GameResult::BlackWins);
        let text = g2.to_pgn();
        assert!(
            text.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 9\"]"),
            "{text}"
        );
        assert!(text.contains("\n\n9... Kd7 0-1\n"), "{text}");
        fs::write(&path, &text).unwrap();
        let back = load_game(&path, None, &RuleSet::thesis()).unwrap();
        assert_eq!(
            (back.rules, back.start.clone(), back.moves.clone()),
            (custom, g2.start.clone(), g2.moves.clone())
        );
        assert!(back
            .game_row(0, 0)
            .unwrap_err()
            .contains("standard start only"));
    }

    #[test]
    fn lenient_loading_skips_bad_games_and_rows() {
        let dir = tempfile::tempdir().unwrap();
        let pgn = dir.path().join("three.pgn");
        fs::write(
            &pgn,
            "[White \"a\"]\n\n1. e4 e5 1-0\n\n[White \"b\"]\n\n1. e4 e5 2. Nf6 *\n\n\
             [White \"c\"]\n\n1. d4 (1. c4) *\n\n[White \"d\"]\n\n1. Nf3 *\n",
        )
        .unwrap();
        let (games, errors) = load_games_lenient(&pgn, &RuleSet::thesis()).unwrap();
        assert_eq!(games.iter().map(|g| g.number).collect::<Vec<_>>(), [1, 4]);
        let p = pgn.display();
        assert_eq!(
            errors,
            [
                format!("{p}:7: game 2: move 2. Nf6: illegal move 'Nf6'"),
                format!("{p}:11: game 3: variations in parentheses are not supported"),
            ]
        );
        let e = load_games(&pgn, &RuleSet::thesis()).unwrap_err();
        assert_eq!(e.to_string(), errors[0]);
        // One game is found past the bad ones; a bad one asked for gives its error.
        let t = RuleSet::thesis();
        assert_eq!(load_game(&pgn, Some(4), &t).unwrap().white, "d");
        assert_eq!(load_game(&pgn, None, &t).unwrap().white, "a");
        assert_eq!(
            load_game(&pgn, Some(3), &t).unwrap_err().to_string(),
            errors[1]
        );
        assert_eq!(
            load_game(&pgn, Some(5), &t).unwrap_err().to_string(),
            format!("{p}: has no game 5 (its 2 games are numbered 1 to 4; 2 more games could not be read)")
        );
        // games.csv: a malformed row and a bad move are skipped.
        let csv = dir.path().join("games.csv");
        fs::write(
            &csv,
            "id,round,white,black,seed,result,reason,plies,detail,moves\n\
             0,0,A,B,5,1-0,timeout,1,,e2e4\n\
             1,0,A,B,x,1-0,king captured,0,,e2e4\n\
             2,0,A,B,6,1-0,timeout,1,,e2e5\n\
             3,0,A,B,7,1-0,timeout,1,slow,e2e4\n",
        )
        .unwrap();
        let (games, errors) = load_games_lenient(&csv, &RuleSet::thesis()).unwrap();
        assert_eq!(games.iter().map(|g| g.number).collect::<Vec<_>>(), [0, 3]);
        assert_eq!(games[1].detail(), "slow");
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(
            errors[0].starts_with(&format!("{}:3: ", csv.display())),
            "{errors:?}"
        );
        assert!(
            errors[1].contains(":4: game 2, ply 1: illegal move 'e2e5'"),
            "{errors:?}"
        );
        let e = load_games_lenient(&dir.path().join("none.pgn"), &RuleSet::thesis()).unwrap_err();
        assert!(
            e.to_string().ends_with("none.pgn: no such file or folder"),
            "{e}"
        );
    }

    #[test]
    fn import_writes_a_results_folder() {
        let r = RuleSet::chesscom();
        let mate = "e2e4 f7f6 d1h5 a7a6 h5e8";
        let mut a = game(r, mate, Some(GameResult::WhiteWins), "");
        a.number = 3;
        // Black, to move after 1. e4, ran out of time.
        let mut b = game(r, "e2e4", Some(GameResult::WhiteWins), "Time forfeit");
        b.number = 1;
        let c = game(r, "e2e4", None, "");
        let d = game(
            RuleSet::thesis(),
            "e2e4",
            Some(GameResult::BlackWins),
            "timeout",
        );
        let mut e = game(r, mate, Some(GameResult::WhiteWins), "");
        e.number = 9;
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("imported");
        let import = |games: &[SavedGame], out: &Path| {
            import_games(games, &RunFolder::create(Some(out), "", "").unwrap())
        };
        let report = import(&[a.clone(), b.clone(), c, d, e.clone()], &out).unwrap();
        assert_eq!(report.skipped.len(), 2, "{:?}", report.skipped);
        assert!(report.skipped[0].starts_with("test game 7: no result"));
        assert!(report.skipped[1].contains("rules thesis differ from the folder's (chesscom"));
        assert!(!report.renumbered);
        let rows = crate::read_games(&out.join(GAMES_FILE)).unwrap();
        assert_eq!(rows, report.rows);
        assert_eq!(
            rows.iter().map(|r| (r.id, r.round)).collect::<Vec<_>>(),
            [(1, 0), (3, 1), (9, 2)]
        );
        // PGN's standard termination "Time forfeit" is fow's reason of that name.
        assert_eq!(
            (rows[0].reason.as_str(), rows[0].detail.as_str()),
            ("time forfeit", "")
        );
        assert_eq!(
            (rows[0].seed, rows[1].reason.as_str()),
            (0, "king captured")
        );
        assert_eq!(rules_beside(&out.join(GAMES_FILE)).unwrap(), r);
        let config: TournamentConfig =
            serde_json::from_str(&fs::read_to_string(out.join(CONFIG_FILE)).unwrap()).unwrap();
        assert_eq!(
            (config.players, config.games_per_pair),
            (vec!["A".to_string(), "B".to_string()], 3)
        );
        // Loaded back: same games, seed unknown.
        let back = load_games(&out, &RuleSet::thesis()).unwrap();
        assert_eq!(back[1].moves, a.moves);
        assert_eq!(back[1].seed, None);
        // The folder is not overwritten; clashing numbers are renumbered.
        assert!(import(&[a.clone()], &out)
            .unwrap_err()
            .to_string()
            .contains("already holds games"));
        let out2 = dir.path().join("second");
        let report = import(&[a.clone(), a, b], &out2).unwrap();
        assert!(report.renumbered);
        assert_eq!(
            report.rows.iter().map(|r| r.id).collect::<Vec<_>>(),
            [1, 2, 3]
        );
        // Nothing fits: nothing written.
        let out3 = dir.path().join("third");
        let report = import(&[game(r, "e2e4", None, "")], &out3).unwrap();
        assert!(report.rows.is_empty() && fs::read_dir(&out3).unwrap().next().is_none());
    }

    #[test]
    fn import_inputs_reads_leniently_and_leaves_no_folder_when_nothing_fits() {
        let dir = tempfile::tempdir().unwrap();
        let pgn = dir.path().join("in.pgn");
        fs::write(
            &pgn,
            "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
             [White \"B\"]\n[Black \"A\"]\n[Result \"0-1\"]\n\n1. e5 0-1\n",
        )
        .unwrap();
        let out = dir.path().join("out");
        let inputs = [pgn];
        let report = ImportReport::import_inputs(&inputs, &RuleSet::thesis(), &out).unwrap();
        assert_eq!(report.rows.len(), 1);
        assert_eq!(report.skipped.len(), 1, "{:?}", report.skipped);
        assert!(report.skipped[0].contains("game 2"), "{:?}", report.skipped);
        assert_eq!(
            report.summary(),
            "imported 1 game of 2 players, rules thesis (White won 1, Black 0, 0 drawn)"
        );
        assert!(out.join(GAMES_FILE).is_file());
        let again = ImportReport::import_inputs(&inputs, &RuleSet::thesis(), &out);
        assert!(again
            .unwrap_err()
            .to_string()
            .contains("already holds games"));
        let bad = dir.path().join("bad.pgn");
        fs::write(
            &bad,
            "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e5 1-0\n",
        )
        .unwrap();
        let none = dir.path().join("none");
        let report = ImportReport::import_inputs(&[bad], &RuleSet::thesis(), &none).unwrap();
        assert!(report.rows.is_empty() && report.skipped.len() == 1);
        assert!(!none.exists());
    }

    #[test]
    fn pgn_of_games_is_each_game_then_a_blank_line() {
        let a = SavedGame::from_uci("A", "B", RuleSet::thesis(), &["e2e4"]).unwrap();
        let b = SavedGame::from_uci("C", "D", RuleSet::thesis(), &["d2d4"]).unwrap();
        assert_eq!(SavedGame::pgn_of(&[]), "");
        assert_eq!(SavedGame::pgn_of(std::slice::from_ref(&a)), a.to_pgn());
        let both = SavedGame::pgn_of(&[a.clone(), b.clone()]);
        assert_eq!(both, format!("{}\n{}", a.to_pgn(), b.to_pgn()));
        assert!(a.to_pgn().ends_with('\n'));
    }

    #[test]
    fn chesscom_folder_loads_under_chesscom_rules() {
        let games = load_games(&data(), &RuleSet::thesis()).unwrap();
        assert_eq!(games.len(), 80);
        assert!(games.iter().all(|g| g.rules == RuleSet::chesscom()));
        assert_eq!(games[0].number, 1);
        assert_eq!(games[79].number, 80);
        assert_eq!(games[0].black, "oferwald");
        assert_eq!(games[0].result, Some(GameResult::BlackWins));
        let positions = games[0].positions();
        assert_eq!(positions.len(), games[0].moves.len() + 1);
    }

    #[test]
    fn missing_game_number_is_a_clear_error() {
        let e = load_game(&data(), Some(81), &RuleSet::thesis()).unwrap_err();
        assert!(e.to_string().contains("has no game 81"), "{e}");
        let g = load_game(&data(), Some(3), &RuleSet::thesis()).unwrap();
        assert_eq!(g.number, 3);
    }
}
