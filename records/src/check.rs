//! Saved games checked against the rules they record, when they are read.
//!
//! `games.csv` and PGN files are user-editable, so every reader of saved games goes
//! through this module, and a game that its own record contradicts is an error naming the
//! file and line rather than data:
//!
//! - every move is legal in turn under the game's rules, and none follows the end of the
//!   game by the rules (a captured king, the no-progress or repetition draw, a side with
//!   no legal move);
//! - an ending by the rules (`king captured`, `no progress`, `repetition`, `no legal
//!   moves`) is exactly the one the replay reaches with the last move, with its result;
//! - an ending by a player (`illegal move`, `timeout`, `crash`, `protocol error`,
//!   `player error`, `panic`, `resignation`) comes where the rules had not ended the
//!   game, and a fault loses for the side to move after the last move (as the arena
//!   scores it, see `fow_arena::play_game`), a resignation for either side;
//! - in `games.csv`: `plies` is the number of moves, both names are non-empty, ids are
//!   unique, and no game (same players and seed) appears twice; beside a
//!   `tournament.json`, each row is the game of its schedule
//!   ([`TournamentConfig::pairings`]) with that id: players, round and seed;
//! - in PGN: a `Variant` tag names fog-of-war chess, and the result and the
//!   `Termination` (ours, or chess.com's `King captured`, `... forfeits on time`,
//!   `... resigned`) agree with the moves where they can be checked;
//! - last, in `games.csv` beside settings with a tag: each row's tag (see
//!   [`crate::mac`]), which refuses what the checks above cannot see (a result flipped
//!   within the rules, a row a bot appended).
//!
//! [`check_ending`] is the one comparison of a recorded end with the replay; the readers
//! of `games.csv` ([`read_games`](crate::read_games), [`load_games`](crate::load_games),
//! `tournament --resume`) call it through [`check_row`], the readers of PGN through
//! [`check_pgn_game`].

use std::collections::HashMap;
use std::path::Path;

use fow_variants::{
    side_name, Color, GameEnd, Move, Outcome, PgnGame, PgnReplay, PgnResult, Position, ReplayError,
    RuleSet,
};

use crate::config::{TournamentConfig, MAX_GAMES};
use crate::error::RecordError;
use crate::files::{read_csv, GameRow, CONFIG_FILE};
use crate::moves_text::{describe_end, replay_uci};
use crate::notice::{notice, Notice};
use crate::record::{GameResult, Reason};

/// How the rules stand after a game's last move: what [`check_ending`] compares a
/// recorded end with.
#[derive(Clone, Copy, Debug)]
pub struct Replayed<'a> {
    /// The position after the last move.
    pub position: &'a Position,
    /// The rules.
    pub rules: &'a RuleSet,
    /// The end the rules made with the last move (`None`: the game went on, or there was
    /// no move).
    pub last: Option<Outcome>,
    /// Moves played.
    pub plies: usize,
}

impl Replayed<'_> {
    /// The end by the rules after the last move: the one the last move made, else a draw
    /// when the side to move has no legal move (the arena's `no legal moves`).
    pub fn rules_end(&self) -> Option<Outcome> {
        self.last.or_else(|| {
            self.position
                .legal_moves(self.rules)
                .is_empty()
                .then_some(Outcome {
                    winner: None,
                    end: GameEnd::NoLegalMoves,
                })
        })
    }
}

/// The result as words: `White wins`, `a draw`.
fn result_words(r: GameResult) -> String {
    match r.winner() {
        Some(c) => format!("{} wins", side_name(c)),
        None => "a draw".into(),
    }
}

/// Checks a recorded end (`result`, `reason`, and the `detail` of a player's failure)
/// against the replay: the one comparison every reader of saved games makes. `result`
/// `None` is an unknown result (PGN's `*`), not checked. The error says in chess words
/// what the moves make instead.
pub fn check_ending(
    game: &Replayed<'_>,
    result: Option<GameResult>,
    reason: Reason,
    detail: &str,
) -> Result<(), String> {
    let plies = game.plies;
    if let Some(end) = game.rules_end() {
        let made = Reason::from(end.end);
        let how = describe_end(end, plies, game.rules, game.position.turn());
        if reason != made {
            return Err(if plies == 0 && end.end != GameEnd::NoLegalMoves {
                format!("the reason '{reason}' is not how the game ended: no move was played")
            } else {
                format!("the reason '{reason}' is not how the game ended: {how}")
            });
        }
        if let Some(r) = result.filter(|r| r.winner() != end.winner) {
            return Err(format!("the result {r} contradicts the moves: {how}"));
        }
        return Ok(());
    }
    // The rules did not end the game: a player did.
    let to_move = game.position.turn();
    let after = match plies {
        0 => "before the first move".to_string(),
        n => format!("after the last move (ply {n})"),
    };
    if !reason.is_fault() && reason != Reason::Resignation {
        return Err(if plies == 0 {
            format!("the reason '{reason}' is not how the game ended: no move was played")
        } else {
            format!(
                "the reason '{reason}' is not how the game ended: {after} the game goes on by the rules ({} to move)",
                side_name(to_move)
            )
        });
    }
    let Some(result) = result else {
        return Ok(());
    };
    let Some(winner) = result.winner() else {
        return Err(format!(
            "the result is a draw, but '{reason}' ends a game with a loss for the player"
        ));
    };
    // A panic in a player's `start` comes before any move, and may be Black's.
    let loser = match Color::ALL.into_iter().find(|c| {
        reason == Reason::Panic && plies == 0 && detail == format!("{c} panicked in start")
    }) {
        Some(c) => c,
        None if reason == Reason::Resignation => return Ok(()),
        None => to_move,
    };
    if winner == loser {
        return Err(format!(
            "the result {result} ({}) contradicts the moves: the {reason} is {}'s, who was to move {after}, so {} wins",
            result_words(result),
            side_name(loser),
            side_name(!loser)
        ));
    }
    Ok(())
}

/// Checks one row of `games.csv` on its own under `rules` and returns its moves: both
/// names non-empty, a known result and reason, `plies` the number of moves, every move
/// legal in turn and none after an end by the rules, and the end as [`check_ending`]
/// checks it. (Ids, repeated games and the schedule are checks across the rows of a
/// file, made by [`read_games`](crate::read_games).) The error starts with `game ID: ` or
/// `game ID, ply N: `.
pub fn check_row(row: &GameRow, rules: &RuleSet) -> Result<Vec<Move>, String> {
    let id = row.id;
    let bad = |m: String| format!("game {id}: {m}");
    for (side, name) in [("White", &row.white), ("Black", &row.black)] {
        if name.trim().is_empty() {
            return Err(bad(format!("{side}'s name is empty")));
        }
    }
    let result = row.game_result().map_err(bad)?;
    let reason = row.game_reason().map_err(bad)?;
    let count = row.moves.split_whitespace().count();
    if row.plies != count {
        return Err(bad(format!(
            "plies says {}, but {count} moves are recorded",
            row.plies
        )));
    }
    let start = row.start_position()?;
    if let Err(e) = crate::openings::check_start(&start, rules) {
        return Err(bad(format!(
            "column start: the game cannot start there: {e}"
        )));
    }
    let (game, moves, last) =
        replay_uci(&start, &row.moves, rules).map_err(|e| match row.start.is_empty() {
            true => format!("game {id}, {e}"),
            false => format!("game {id}, {e}, from the start '{}'", row.start),
        })?;
    let replayed = Replayed {
        position: game.position(),
        rules,
        last,
        plies: moves.len(),
    };
    check_ending(&replayed, Some(result), reason, &row.detail).map_err(bad)?;
    Ok(moves)
}

/// Whether a PGN `Variant` tag names fog-of-war chess: ours and chess.com's `Fog of War`,
/// spelled any way (`fog-of-war`, `FogOfWar`), or its other name, dark chess.
pub fn is_fog_of_war(variant: &str) -> bool {
    let key: String = variant
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    key == "fogofwar" || key == "darkchess"
}

/// What chess.com's `Termination` tag says: the reason, the side that lost if it names
/// one, and the result it ends with (`White forfeits on time • 0-1`). `None` for a text it
/// does not know (a draw by agreement, ...).
fn chesscom_termination(text: &str) -> Option<(Reason, Option<Color>, Option<GameResult>)> {
    let (words, stated) = match text.rsplit_once('•') {
        Some((w, r)) => (w.trim(), r.trim().parse::<GameResult>().ok()),
        None => (text.trim(), None),
    };
    let lower = words.to_lowercase();
    if lower == "king captured" {
        return Some((Reason::KingCaptured, None, stated));
    }
    let (side, rest) = lower.split_once(' ')?;
    let loser = match side {
        "white" => Color::White,
        "black" => Color::Black,
        _ => return None,
    };
    let reason = match rest {
        "forfeits on time" => Reason::Timeout,
        "resigned" | "abandoned" => Reason::Resignation,
        _ => return None,
    };
    Some((reason, Some(loser), stated))
}

/// Replays a PGN game under `rules` and checks it: its `Variant` tag names fog-of-war
/// chess ([`is_fog_of_war`]), every move is legal and none follows an end by the rules,
/// and its result and `Termination` (ours, or chess.com's `King captured`, `... forfeits
/// on time`, `... resigned`) agree with the moves, through [`check_ending`], where they
/// can be checked. The readers of PGN call this instead of [`PgnGame::replay`]. The error's
/// message does not name the game; its line is the move's, or the game's first line.
pub fn check_pgn_game(g: &PgnGame, rules: &RuleSet) -> Result<PgnReplay, ReplayError> {
    let fail = |message: String| ReplayError {
        line: g.line,
        ply: None,
        message,
    };
    if let Some(v) = g.tag("Variant").filter(|v| !is_fog_of_war(v)) {
        return Err(fail(format!(
            "the Variant tag says \"{v}\": fow reads fog-of-war chess only (Variant \"Fog of War\")"
        )));
    }
    let replay = g.replay(rules)?;
    let game = Replayed {
        position: replay.positions.last().expect("the start position"),
        rules,
        last: replay.outcome,
        plies: replay.moves.len(),
    };
    let result = g.result.map(|r| match r {
        PgnResult::WhiteWins => GameResult::WhiteWins,
        PgnResult::BlackWins => GameResult::BlackWins,
        PgnResult::Draw => GameResult::Draw,
    });
    let term = g.tag("Termination").unwrap_or("").trim();
    let detail = g.tag(crate::tags::DETAIL_TAG).unwrap_or("");
    if let Ok(reason) = term.parse::<Reason>() {
        check_ending(&game, result, reason, detail).map_err(fail)?;
    } else if let Some((reason, loser, stated)) = chesscom_termination(term) {
        if let (Some(s), Some(r)) = (stated, result) {
            if s != r {
                return Err(fail(format!(
                    "the Termination \"{term}\" says {s}, the result is {r}"
                )));
            }
        }
        let result = result.or(stated);
        if let (Some(l), Some(r)) = (loser, result) {
            if r.winner() != Some(!l) {
                return Err(fail(format!(
                    "the Termination \"{term}\" contradicts the result {r}"
                )));
            }
        }
        check_ending(&game, result, reason, detail)
            .map_err(|e| fail(format!("the Termination \"{term}\": {e}")))?;
    } else if let (Some(end), Some(r)) = (game.last, result) {
        if end.winner != r.winner() {
            return Err(fail(format!(
                "the result {r} contradicts the moves: {}",
                describe_end(end, game.plies, rules, game.position.turn())
            )));
        }
    }
    Ok(replay)
}

/// Whose schedule the rows of a `games.csv` must fit.
#[derive(Clone, Copy, Debug)]
pub enum CheckAgainst<'a> {
    /// That of the `tournament.json` beside the file, if there is one; a folder `fow
    /// import` wrote (games keep their numbers and seeds) or `fow play`
    /// wrote (one game, whose seed is the folder's) only needs its players.
    Beside,
    /// This tournament's, every row (`tournament --resume`).
    Strict(&'a TournamentConfig),
}

/// One row of a `games.csv` as read and checked: its line, and the row with its moves or
/// what is wrong with it.
pub struct CheckedRow {
    /// The 1-based line where the row starts.
    pub line: u64,
    /// The row and its moves, or the error naming file, line and game.
    pub row: Result<(GameRow, Vec<Move>), RecordError>,
}

/// The `tournament.json` beside a `games.csv`, if there is one, read as
/// [`TournamentConfig::load`] reads it (its tag checked).
pub fn config_beside(games_csv: &Path) -> Result<Option<TournamentConfig>, RecordError> {
    let path = games_csv
        .parent()
        .unwrap_or(Path::new("."))
        .join(CONFIG_FILE);
    let text = match std::fs::read(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(crate::files::io_err(&path)(e)),
    };
    TournamentConfig::read(&path, &text).map(Some)
}

/// Reads a `games.csv` and checks every row ([`check_row`], and across rows: unique ids
/// and games, the schedule) under the rules of the `tournament.json` beside it (thesis without one) and against `schedule`. With
/// `complete_lines`, a last line without its newline (a row cut short by a kill) is left
/// out, but must look like one. Errors of the file as a whole (not a games.csv, a bad
/// `tournament.json`) are returned; those of a row are in its [`CheckedRow`].
pub fn read_checked(
    path: &Path,
    schedule: CheckAgainst<'_>,
    complete_lines: bool,
) -> Result<(RuleSet, Vec<CheckedRow>), RecordError> {
    let beside = config_beside(path)?;
    let rules = match (&schedule, &beside) {
        (CheckAgainst::Strict(c), _) => c.rules,
        (CheckAgainst::Beside, Some(c)) => c.rules,
        (CheckAgainst::Beside, None) => RuleSet::thesis(),
    };
    let (read, cut) = read_csv::<GameRow>(path, complete_lines, "games.csv")?;
    let err = |line: u64, message: String| RecordError::Format {
        path: path.to_path_buf(),
        line,
        message,
    };
    let mut rows: Vec<CheckedRow> = read
        .into_iter()
        .map(|(line, r)| CheckedRow {
            line,
            row: r.and_then(|row| match check_row(&row, &rules) {
                Ok(moves) => Ok((row, moves)),
                Err(m) => Err(err(line, m)),
            }),
        })
        .collect();
    check_file(path, &mut rows, schedule, beside.as_ref())?;
    let run = match schedule {
        CheckAgainst::Strict(c) => Some(c),
        CheckAgainst::Beside => beside.as_ref(),
    };
    check_tags(path, &mut rows, run)?;
    if cut {
        // A row cut short by a kill, read without `complete_lines`: say so.
        if let Some(CheckedRow {
            row: Err(RecordError::Format { message, .. }),
            ..
        }) = rows.last_mut()
        {
            message.push_str(
                " (the file ends inside this line, as a killed tournament leaves it: `fow tournament --resume` replays the game)",
            );
        }
    }
    Ok((rules, rows))
}

/// The last check of the rows that passed every other: each row's tag, when the run's
/// settings (`run`, `None` for a `games.csv` without settings beside it) say its rows
/// are tagged. Records a [`Notice`] when the rows are not authenticated: a public key, a
/// folder written before tags, no settings.
fn check_tags(
    path: &Path,
    rows: &mut [CheckedRow],
    run: Option<&TournamentConfig>,
) -> Result<(), RecordError> {
    let folder = path.parent().unwrap_or(Path::new("."));
    let tag_column = crate::files::header_has(path, "tag")?;
    let Some(run) = run else {
        notice(Notice::NoSettings, path);
        return Ok(());
    };
    let cfg_path = folder.join(CONFIG_FILE);
    let Some(tagger) = run.row_tagger() else {
        if tag_column {
            return Err(RecordError::Format {
                path: path.to_path_buf(),
                line: 1,
                message: format!(
                    "the rows carry tags, but {} has none: the tag was taken out of the settings, or they are another run's",
                    cfg_path.display()
                ),
            });
        }
        notice(Notice::Untagged, folder);
        return Ok(());
    };
    if !tag_column && !rows.is_empty() {
        return Err(RecordError::Format {
            path: path.to_path_buf(),
            line: 1,
            message: format!(
                "the run's rows are tagged (its {CONFIG_FILE} has a tag), but this file has no tag column: its rows are not the run's"
            ),
        });
    }
    for r in rows.iter_mut() {
        if let Ok((row, _)) = &r.row {
            if !tagger.verify(row) {
                let message = format!(
                    "game {}: the row does not match its tag (HMAC-SHA256 under the run's key): it was changed after the run wrote it, or the run did not write it",
                    row.id
                );
                r.row = Err(RecordError::Format {
                    path: path.to_path_buf(),
                    line: r.line,
                    message,
                });
            }
        }
    }
    if run.public_key() {
        notice(Notice::PublicKey, folder);
    }
    Ok(())
}

/// The checks across rows: unique ids, no game twice, the schedule.
fn check_file(
    path: &Path,
    rows: &mut [CheckedRow],
    schedule: CheckAgainst<'_>,
    beside: Option<&TournamentConfig>,
) -> Result<(), RecordError> {
    let err = |line: u64, message: String| RecordError::Format {
        path: path.to_path_buf(),
        line,
        message,
    };
    // Ids: every row of an id used twice is refused, naming the lines.
    let mut lines_of: HashMap<u64, Vec<u64>> = HashMap::new();
    for r in rows.iter() {
        if let Ok((row, _)) = &r.row {
            lines_of.entry(row.id).or_default().push(r.line);
        }
    }
    let paired = match schedule {
        CheckAgainst::Strict(c) => c.paired,
        CheckAgainst::Beside => beside.is_some_and(|c| c.paired),
    };
    // The same game (players and a known seed) under two ids.
    let mut games: HashMap<(&str, &str, u64), (u64, u64)> = HashMap::new();
    let mut repeats: Vec<(usize, String)> = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        let Ok((row, _)) = &r.row else { continue };
        let lines = &lines_of[&row.id];
        if lines.len() > 1 {
            let list = match lines.as_slice() {
                [a, b] => format!("lines {a} and {b}"),
                [init @ .., z] => format!(
                    "lines {} and {z}",
                    init.iter()
                        .map(u64::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                [] => unreachable!("the row's own line"),
            };
            repeats.push((
                i,
                format!(
                    "game {}: the id {} is used {} times ({list})",
                    row.id,
                    row.id,
                    lines.len()
                ),
            ));
            continue;
        }
        if row.seed != 0 {
            let key = (row.white.as_str(), row.black.as_str(), row.seed);
            // The two games of a pair share their seed; a bot meeting itself gives them
            // the same players too: they are two games, not one game twice.
            let partner = |id: &u64| paired && *id / 2 == row.id / 2;
            if let Some((id, line)) = games.get(&key).filter(|(id, _)| !partner(id)) {
                repeats.push((
                    i,
                    format!(
                        "game {}: the same game as game {id} (line {line}): the same players and seed {}",
                        row.id, row.seed
                    ),
                ));
            } else {
                games.insert(key, (row.id, r.line));
            }
        }
    }
    for (i, m) in repeats {
        let line = rows[i].line;
        rows[i].row = Err(err(line, m));
    }
    // The schedule.
    let config = match schedule {
        CheckAgainst::Strict(c) => c,
        CheckAgainst::Beside => match beside {
            None => return Ok(()),
            Some(c) => c,
        },
    };
    let cfg_name = path.parent().unwrap_or(Path::new(".")).join(CONFIG_FILE);
    let strict = matches!(schedule, CheckAgainst::Strict(_));
    // `fow play` folders are one-game tournaments whose game seed is the schedule's.
    let imported = !strict && config.is_import();
    let mut fits: Vec<Option<String>> = Vec::with_capacity(rows.len());
    if imported {
        for r in rows.iter() {
            fits.push(r.row.as_ref().ok().and_then(|(row, _)| {
                let known = |p: &str| config.players.iter().any(|x| x == p);
                let who = [&row.white, &row.black].into_iter().find(|p| !known(p))?;
                Some(format!(
                    "game {}: '{who}' is not a player of {}",
                    row.id,
                    cfg_name.display()
                ))
            }));
        }
    } else {
        let total = config.game_count();
        if total > MAX_GAMES {
            return Err(err_config(
                &cfg_name,
                format!("{total} games is more than one tournament holds ({MAX_GAMES})"),
            ));
        }
        let sched = config.pairings();
        for r in rows.iter() {
            fits.push(
                r.row
                    .as_ref()
                    .ok()
                    .and_then(|(row, _)| misfit(row, config, &sched, &cfg_name)),
            );
        }
    }
    for (r, m) in rows.iter_mut().zip(fits) {
        if let Some(m) = m {
            r.row = Err(err(r.line, m));
        }
    }
    Ok(())
}

fn err_config(path: &Path, message: String) -> RecordError {
    RecordError::Format {
        path: path.to_path_buf(),
        line: 1,
        message,
    }
}

/// Why `row` is not the game of `schedule` with its id, if it is not.
/// The `start` column of a scheduled game: its opening's FEN, empty without openings.
fn scheduled_start<'a>(config: &'a TournamentConfig, p: &crate::config::Pairing) -> &'a str {
    match (&config.openings, p.opening) {
        (Some(o), Some(i)) => o.positions.get(i).map_or("", String::as_str),
        _ => "",
    }
}

fn misfit(
    row: &GameRow,
    config: &TournamentConfig,
    schedule: &[crate::config::Pairing],
    cfg: &Path,
) -> Option<String> {
    let id = row.id;
    if let Some(s) = config.shard.filter(|s| !s.holds(id, config.paired)) {
        return Some(format!(
            "game {id}: not a game of shard {s}, which {} plays",
            cfg.display()
        ));
    }
    let Some(p) = schedule.get(usize::try_from(id).unwrap_or(usize::MAX)) else {
        return Some(format!(
            "game {id}: not in the schedule of {} (its {} games are numbered 0 to {})",
            cfg.display(),
            schedule.len(),
            schedule.len().saturating_sub(1)
        ));
    };
    let (w, b) = (&config.players[p.white], &config.players[p.black]);
    let what = if row.white != *w || row.black != *b {
        format!(
            "is {w} (White) against {b}, not {} against {}",
            row.white, row.black
        )
    } else if row.round != p.round {
        format!("is round {}, not {}", p.round, row.round)
    } else if row.seed != p.seed {
        format!("has the seed {}, not {}", p.seed, row.seed)
    } else if row.start != scheduled_start(config, p) {
        match scheduled_start(config, p) {
            "" => format!(
                "starts from the standard position, not from '{}'",
                row.start
            ),
            fen if row.start.is_empty() => format!(
                "starts from '{fen}' (its opening), not from the standard position (is the column start missing?)"
            ),
            fen => format!("starts from '{fen}' (its opening), not from '{}'", row.start),
        }
    } else {
        return None;
    };
    Some(format!(
        "game {id}: game {id} of the schedule in {} {what}",
        cfg.display()
    ))
}

/// Reads a `games.csv` and checks every game against the rules it records (those of the
/// `tournament.json` beside it, else thesis): legal moves, result, reason and plies
/// agreeing with the replay, non-empty names, unique ids and games, and beside a
/// `tournament.json` its schedule (see [`check`](crate::check_ending)). The first wrong
/// row is an error naming the file, its line and the game.
pub fn read_games(path: &Path) -> Result<Vec<GameRow>, RecordError> {
    let (_, rows) = read_checked(path, CheckAgainst::Beside, false)?;
    rows.into_iter()
        .map(|r| r.row.map(|(row, _)| row))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::read_pgn;

    fn check(pgn: &str) -> Result<(), String> {
        let g = &read_pgn(pgn).unwrap()[0];
        check_pgn_game(g, &RuleSet::chesscom())
            .map(drop)
            .map_err(|e| e.message)
    }

    #[test]
    fn chesscom_terminations_are_read() {
        assert_eq!(
            chesscom_termination("White forfeits on time • 0-1"),
            Some((
                Reason::Timeout,
                Some(Color::White),
                Some(GameResult::BlackWins)
            ))
        );
        assert_eq!(
            chesscom_termination("Black resigned • 1-0"),
            Some((
                Reason::Resignation,
                Some(Color::Black),
                Some(GameResult::WhiteWins)
            ))
        );
        assert_eq!(
            chesscom_termination("King captured • 1-0"),
            Some((Reason::KingCaptured, None, Some(GameResult::WhiteWins)))
        );
        assert_eq!(chesscom_termination("Game drawn by agreement"), None);
        assert!(is_fog_of_war("Fog of War") && is_fog_of_war("fog-of-war"));
        assert!(is_fog_of_war("Dark chess") && !is_fog_of_war("Crazyhouse"));
    }

    #[test]
    fn pgn_endings_are_checked_against_the_moves() {
        let mate = "1. e4 f6 2. Qh5 a6 3. Qxe8";
        assert_eq!(check(&format!("{mate} 1-0")), Ok(()));
        let t = "[Termination \"King captured • 1-0\"]\n\n";
        assert_eq!(check(&format!("{t}{mate} 1-0")), Ok(()));
        assert!(check(&format!("{mate} 0-1"))
            .unwrap_err()
            .contains("White captured the king with the last move (ply 5)"));
        assert!(check(&format!("{mate} 1/2-1/2")).is_err());
        // A resignation can come on either side's turn; a time forfeit is the side to
        // move's; a draw by agreement is not for the rules to judge.
        let r = "[Termination \"White resigned • 0-1\"]\n\n1. e4 0-1";
        assert_eq!(check(r), Ok(()));
        let r = "[Termination \"White resigned • 0-1\"]\n\n1. e4 1-0";
        assert!(check(r).is_err());
        let t = "[Termination \"White forfeits on time • 0-1\"]\n\n1. e4 e5 0-1";
        assert_eq!(check(t), Ok(()));
        let t = "[Termination \"White forfeits on time • 0-1\"]\n\n1. e4 0-1";
        assert!(check(t).unwrap_err().contains("Black's, who was to move"));
        assert_eq!(check("1. e4 e5 1/2-1/2"), Ok(()));
        // Our own terminations are checked the same way.
        let ours = "[Termination \"illegal move\"]\n\n1. e4 1-0";
        assert_eq!(check(ours), Ok(()));
        let ours = "[Termination \"king captured\"]\n\n1. e4 1-0";
        assert!(check(ours).unwrap_err().contains("the game goes on"));
        let zh = "[Variant \"Crazyhouse\"]\n\n1. e4 *";
        assert!(check(zh).unwrap_err().contains("\"Crazyhouse\""));
    }

    #[test]
    fn rows_are_checked_against_the_moves() {
        let rules = RuleSet::thesis();
        let row = |result: &str, reason: &str, plies: usize, moves: &str| GameRow {
            id: 4,
            white: "A".into(),
            black: "B".into(),
            seed: 1,
            result: result.into(),
            reason: reason.into(),
            plies,
            moves: moves.into(),
            ..GameRow::default()
        };
        let mate = "e2e4 f7f6 d1h5 a7a6 h5e8";
        assert!(check_row(&row("1-0", "king captured", 5, mate), &rules).is_ok());
        let e = check_row(&row("0-1", "king captured", 5, mate), &rules).unwrap_err();
        assert_eq!(
            e,
            "game 4: the result 0-1 contradicts the moves: White captured the king with the last move (ply 5)"
        );
        let e = check_row(
            &row("1-0", "king captured", 6, &format!("{mate} e8e7")),
            &rules,
        )
        .unwrap_err();
        assert!(
            e.starts_with(
                "game 4, ply 6: e8e7 comes after the end of the game: White captured the king"
            ),
            "{e}"
        );
        let e = check_row(&row("1-0", "king captured", 0, ""), &rules).unwrap_err();
        assert!(e.contains("no move was played"), "{e}");
        let e = check_row(&row("1-0", "king captured", 999, mate), &rules).unwrap_err();
        assert_eq!(e, "game 4: plies says 999, but 5 moves are recorded");
        let e = check_row(&row("1-0", "timeout", 4, "e2e4 f7f6 d1h5 a7a6"), &rules).unwrap_err();
        assert!(e.contains("the timeout is White's, who was to move after the last move (ply 4), so Black wins"), "{e}");
        assert!(check_row(&row("0-1", "timeout", 4, "e2e4 f7f6 d1h5 a7a6"), &rules).is_ok());
        assert!(check_row(&row("1/2-1/2", "crash", 1, "e2e4"), &rules).is_err());
        assert!(check_row(&row("1-0", "resignation", 1, "e2e4"), &rules).is_ok());
        assert!(check_row(&row("0-1", "resignation", 1, "e2e4"), &rules).is_ok());
        let mut blank = row("1-0", "resignation", 1, "e2e4");
        blank.black = " ".into();
        assert_eq!(
            check_row(&blank, &rules).unwrap_err(),
            "game 4: Black's name is empty"
        );
    }
}
