//! Saved games, found again by number: a tournament's results folder (`games.csv` with
//! the rules of its `tournament.json`), a `games.csv` file, a PGN file (ours or
//! chess.com's fog-of-war export) or a folder of PGN files.
//!
//! [`load_games`] reads every game of such a source into [`SavedGame`]s: players, seed,
//! rules, start position, the moves as legal [`Move`]s, result and termination. Games
//! from `games.csv` keep their `id` as number; games from PGN are numbered 1, 2, ... in
//! file order (files of a folder sorted by name), unless a `FowGame` tag gives the number.
//! A game whose moves cannot be replayed is an error naming the file, the game and the
//! move.

use std::path::{Path, PathBuf};

use fow_variants::{read_pgn, Color, Move, PgnGame, PgnResult, Position, RuleSet};

use crate::error::ArenaError;
use crate::files::{read_games, CONFIG_FILE, GAMES_FILE};
use crate::record::GameResult;

/// PGN tag naming the rule set as [`RuleSet`]'s `Display` writes it (`thesis`,
/// `chesscom`, `custom(...)`).
pub const RULES_TAG: &str = "Rules";
/// PGN tag with every rule switch as `key=value` text (informative; [`RULES_TAG`] wins).
pub const SWITCHES_TAG: &str = "RuleSwitches";
/// PGN tag with the game's seed.
pub const SEED_TAG: &str = "Seed";
/// PGN tag with the game's number in its tournament.
pub const GAME_TAG: &str = "FowGame";

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
    /// The seed the arena played it with, if known.
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
    /// All PGN tags (empty for `games.csv` games).
    pub tags: Vec<(String, String)>,
}

impl SavedGame {
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
/// nor chess.com's `[Variant "Fog of War"]` (which means `chesscom`).
pub fn load_games(path: &Path, default_rules: &RuleSet) -> Result<Vec<SavedGame>, ArenaError> {
    if path.is_dir() && path.join(GAMES_FILE).is_file() {
        return load_games_csv(&path.join(GAMES_FILE));
    }
    if path.is_dir() {
        let files = pgn_files(path)?;
        let mut games = Vec::new();
        for file in files {
            let first = games.len() as u64 + 1;
            games.extend(load_pgn(&file, default_rules, first)?);
        }
        return Ok(games);
    }
    if path.extension().is_some_and(|x| x == "csv") {
        return load_games_csv(path);
    }
    load_pgn(path, default_rules, 1)
}

/// The game numbered `number` of `path` (see [`load_games`]); `None` picks the first.
pub fn load_game(
    path: &Path,
    number: Option<u64>,
    default_rules: &RuleSet,
) -> Result<SavedGame, ArenaError> {
    let games = load_games(path, default_rules)?;
    let Some(first) = games.first() else {
        return Err(config(path, "holds no games".into()));
    };
    let Some(n) = number else {
        return Ok(first.clone());
    };
    match games.iter().find(|g| g.number == n) {
        Some(g) => Ok(g.clone()),
        None => {
            let (lo, hi) = (
                first.number,
                games.last().map_or(first.number, |g| g.number),
            );
            Err(config(
                path,
                format!(
                    "has no game {n} (its {} games are numbered {lo} to {hi})",
                    games.len()
                ),
            ))
        }
    }
}

fn config(path: &Path, message: String) -> ArenaError {
    ArenaError::Config(format!("{}: {message}", path.display()))
}

/// The `.pgn` files of a folder, sorted.
fn pgn_files(dir: &Path) -> Result<Vec<PathBuf>, ArenaError> {
    let io = |e: std::io::Error| ArenaError::Io {
        path: dir.to_path_buf(),
        message: e.to_string(),
    };
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir).map_err(io)? {
        let p = e.map_err(io)?.path();
        if p.is_file() && p.extension().is_some_and(|x| x == "pgn") {
            files.push(p);
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(config(
            dir,
            "neither games.csv nor .pgn files in the folder".into(),
        ));
    }
    Ok(files)
}

/// The rules of a `games.csv`: those of the `tournament.json` beside it, else thesis.
pub fn rules_beside(games_csv: &Path) -> Result<RuleSet, ArenaError> {
    let cfg = games_csv
        .parent()
        .unwrap_or(Path::new("."))
        .join(CONFIG_FILE);
    let Ok(text) = std::fs::read_to_string(&cfg) else {
        return Ok(RuleSet::thesis());
    };
    let bad = |line: usize, message: String| ArenaError::Format {
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

fn load_games_csv(path: &Path) -> Result<Vec<SavedGame>, ArenaError> {
    let rules = rules_beside(path)?;
    let rows = read_games(path)?;
    let mut games = Vec::with_capacity(rows.len());
    for (i, row) in rows.iter().enumerate() {
        let bad = |message: String| ArenaError::Format {
            path: path.to_path_buf(),
            line: i as u64 + 2,
            message,
        };
        let moves = row.legal_moves(&rules).map_err(bad)?;
        let result = row
            .game_result()
            .map_err(|e| bad(format!("game {}: {e}", row.id)))?;
        games.push(SavedGame {
            number: row.id,
            source: format!("{} game {}", path.display(), row.id),
            white: row.white.clone(),
            black: row.black.clone(),
            seed: Some(row.seed),
            rules,
            start: Position::startpos(),
            moves,
            result: Some(result),
            termination: row.reason.clone(),
            tags: Vec::new(),
        });
    }
    Ok(games)
}

/// The rules of a PGN game: its [`RULES_TAG`], else `chesscom` for chess.com's fog of
/// war, else `default`.
pub fn pgn_rules(game: &PgnGame, default: &RuleSet) -> Result<RuleSet, String> {
    if let Some(text) = game.tag(RULES_TAG) {
        return text
            .parse()
            .map_err(|e| format!("{RULES_TAG} tag '{text}': {e}"));
    }
    if game.tag("Variant") == Some("Fog of War") && game.tag(SWITCHES_TAG).is_none() {
        return Ok(RuleSet::chesscom());
    }
    if let Some(text) = game.tag(SWITCHES_TAG) {
        return text
            .parse()
            .map_err(|e| format!("{SWITCHES_TAG} tag '{text}': {e}"));
    }
    Ok(*default)
}

fn load_pgn(path: &Path, default: &RuleSet, first: u64) -> Result<Vec<SavedGame>, ArenaError> {
    let text = std::fs::read_to_string(path).map_err(|e| ArenaError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    let pgn = read_pgn(&text).map_err(|e| ArenaError::Format {
        path: path.to_path_buf(),
        line: e.line as u64,
        message: e.message,
    })?;
    let mut games = Vec::with_capacity(pgn.len());
    for (i, g) in pgn.iter().enumerate() {
        let place = first + i as u64;
        let number = match g.tag(GAME_TAG) {
            Some(n) => n.parse().map_err(|_| ArenaError::Format {
                path: path.to_path_buf(),
                line: g.line as u64,
                message: format!("game {place}: {GAME_TAG} tag '{n}' is not a number"),
            })?,
            None => place,
        };
        let bad = |line: usize, message: String| ArenaError::Format {
            path: path.to_path_buf(),
            line: line as u64,
            message: format!("game {number}: {message}"),
        };
        let rules = pgn_rules(g, default).map_err(|m| bad(g.line, m))?;
        let replay = g.replay(&rules).map_err(|e| bad(e.line, e.message))?;
        let seed = match g.tag(SEED_TAG) {
            Some(s) => Some(
                s.parse()
                    .map_err(|_| bad(g.line, format!("{SEED_TAG} tag '{s}' is not a number")))?,
            ),
            None => None,
        };
        let result = g.result.map(|r| match r {
            PgnResult::WhiteWins => GameResult::WhiteWins,
            PgnResult::BlackWins => GameResult::BlackWins,
            PgnResult::Draw => GameResult::Draw,
        });
        games.push(SavedGame {
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
        });
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/chesscom-fow")
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
