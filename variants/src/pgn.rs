//! PGN: a reader for games with moves in SAN (`Nf3`, `O-O`), UCI or the long algebraic
//! notation chess.com exports fog-of-war games in (`1. d2d4 e7e6`, `3. Ng1f3 a7a5`,
//! `Ke1g1`, `h7h8=Q`), and a writer in SAN.
//!
//! [`read_pgn`] splits a text into [`PgnGame`]s (tag pairs, move texts, result);
//! [`PgnGame::replay`] plays the moves under a [`RuleSet`], reading each with
//! [`Position::parse_move`]. [`PgnGame::from_moves`] and [`PgnGame::to_pgn`] go the other
//! way: moves to SAN (without check marks: fog-of-war chess has no check), with move
//! numbers, lines of at most 80 columns.
//!
//! Supported besides tags and moves: move numbers (`12.`, `12...`, also glued to the move
//! as in `12.e2e4`), the results `1-0`, `0-1`, `1/2-1/2` and `*`, comments in braces
//! (which may span lines) or after `;`, and NAGs (`$1`). Variations in parentheses are
//! refused. Games follow each other; a game ends at its result or where the next tag
//! section begins.

use std::fmt;

use shakmaty::Color;

use crate::game::{Game, GameEnd, Outcome};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::RuleSet;
use crate::san::is_move_text;
use crate::text::{printable, quote};
use crate::view::side_name;

/// The result of a PGN game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PgnResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
}

impl PgnResult {
    /// Reads `1-0`, `0-1` or `1/2-1/2`; `None` for anything else (including `*`).
    pub fn parse(text: &str) -> Option<PgnResult> {
        match text {
            "1-0" => Some(PgnResult::WhiteWins),
            "0-1" => Some(PgnResult::BlackWins),
            "1/2-1/2" => Some(PgnResult::Draw),
            _ => None,
        }
    }

    /// The winner; `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            PgnResult::WhiteWins => Some(Color::White),
            PgnResult::BlackWins => Some(Color::Black),
            PgnResult::Draw => None,
        }
    }
}

impl fmt::Display for PgnResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PgnResult::WhiteWins => "1-0",
            PgnResult::BlackWins => "0-1",
            PgnResult::Draw => "1/2-1/2",
        })
    }
}

/// One game of a PGN text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// The tag pairs in file order, e.g. `("White", "oferwald")`.
    pub tags: Vec<(String, String)>,
    /// The move texts in order, without move numbers (`d2d4`, `Ng1f3`, `h7h8=Q`).
    pub moves: Vec<String>,
    /// The 1-based line of each move text, parallel to `moves`.
    pub move_lines: Vec<usize>,
    /// The result: the game's termination marker, else its `Result` tag; `None` when
    /// neither gives a decided result (`*`, or both missing).
    pub result: Option<PgnResult>,
    /// The 1-based line where the game starts.
    pub line: usize,
}

/// A PGN text that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, printable(&self.message))
    }
}

impl std::error::Error for PgnError {}

/// A game's moves that could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The 1-based line of the offending move (or of the game, for a bad `FEN` tag).
    pub line: usize,
    /// The 0-based index of the offending move in [`PgnGame::moves`]; `None` for a bad
    /// start position.
    pub ply: Option<usize>,
    /// What is wrong, naming the move number as PGN writes it (`move 12... Nf3e5`).
    pub message: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, printable(&self.message))
    }
}

/// How the rules ended a game, in words: `White captured the king`, `draw by repetition`.
fn ended(o: Outcome) -> String {
    match (o.end, o.winner) {
        (GameEnd::KingCaptured, Some(w)) => format!("{} captured the king", side_name(w)),
        (GameEnd::KingCaptured, None) => "a king was captured".into(),
        (GameEnd::NoProgress, _) => "draw: no capture or pawn move for too long".into(),
        (GameEnd::Repetition, _) => "draw by repetition".into(),
        (GameEnd::NoLegalMoves, _) => "draw: no legal move".into(),
    }
}

impl std::error::Error for ReplayError {}

/// A replayed game: every position and move.
#[derive(Clone, Debug)]
pub struct PgnReplay {
    /// `positions[i]` is the position before `moves[i]`; the last is the final position
    /// (so there is one more position than moves).
    pub positions: Vec<Position>,
    /// The moves played.
    pub moves: Vec<Move>,
    /// How the rules ended the game with its last move, if they did (a king capture, a
    /// draw rule); `None` when the game stopped otherwise (resignation, time).
    pub outcome: Option<Outcome>,
}

impl PgnGame {
    /// The value of the first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The start position: the `FEN` tag's, else the standard one.
    pub fn start_position(&self) -> Result<Position, ReplayError> {
        match self.tag("FEN") {
            None => Ok(Position::startpos()),
            Some(fen) => Position::from_fen(fen).map_err(|e| ReplayError {
                line: self.line,
                ply: None,
                message: format!("FEN tag: {e}"),
            }),
        }
    }

    /// Plays the moves from the start position under `rules`, each read as SAN, UCI or
    /// long algebraic notation ([`Position::parse_move`]). Fails at the first move that
    /// is not legal there (or is ambiguous SAN), or that follows the end of the game by
    /// the rules (a captured king, a draw rule).
    ///
    /// ```
    /// use fow_variants::{read_pgn, GameEnd, RuleSet};
    /// let games = read_pgn("[Result \"1-0\"]\n\n1. e2e4 f7f6 2. Bf1c4 g7g5 3. Qd1h5 a7a6 4. Qh5e8 1-0\n")?;
    /// let replay = games[0].replay(&RuleSet::chesscom()).unwrap();
    /// assert_eq!(replay.moves.len(), 7);
    /// assert_eq!(replay.outcome.unwrap().end, GameEnd::KingCaptured);
    /// let bad = read_pgn("1. e2e4 e7e5 2. e4e5 *")?;
    /// let e = bad[0].replay(&RuleSet::chesscom()).unwrap_err();
    /// assert_eq!(e.message, "move 2. e4e5: illegal move 'e4e5'");
    /// let san = read_pgn("1. e4 f6 2. Bc4 g5 3. Qh5 a6 4. Qxe8 1-0")?;
    /// assert_eq!(san[0].replay(&RuleSet::chesscom()).unwrap().moves, replay.moves);
    /// # Ok::<(), fow_variants::PgnError>(())
    /// ```
    pub fn replay(&self, rules: &RuleSet) -> Result<PgnReplay, ReplayError> {
        let start = self.start_position()?;
        let mut game = Game::new(start.clone(), *rules);
        let mut positions = vec![start];
        let mut moves = Vec::with_capacity(self.moves.len());
        let mut outcome: Option<Outcome> = None;
        for (i, text) in self.moves.iter().enumerate() {
            let pos = game.position();
            let number = format!(
                "move {}{} {}",
                pos.fullmoves(),
                if pos.turn() == Color::White {
                    "."
                } else {
                    "..."
                },
                quote(text)
            );
            let fail = |message: String| ReplayError {
                line: self.move_lines.get(i).copied().unwrap_or(self.line),
                ply: Some(i),
                message,
            };
            if let Some(o) = outcome {
                return Err(fail(format!(
                    "{number}: the game already ended by the rules ({})",
                    ended(o)
                )));
            }
            let m = pos
                .parse_move(text, rules)
                .map_err(|e| fail(format!("{number}: {e}")))?;
            outcome = game.play(&m);
            moves.push(m);
            positions.push(game.position().clone());
        }
        Ok(PgnReplay {
            positions,
            moves,
            outcome,
        })
    }
}

impl PgnGame {
    /// A game of `moves` (legal in turn from `start` under `rules`), with the move texts
    /// in SAN. `tags` come first in their order, then `SetUp` and `FEN` when `start` is
    /// not the standard position (unless `tags` has them already). The `line` fields are
    /// 0 (no text yet).
    ///
    /// ```
    /// use fow_variants::{PgnGame, PgnResult, Position, RuleSet};
    /// let rules = RuleSet::chesscom();
    /// let mut pos = Position::startpos();
    /// let mut moves = Vec::new();
    /// for uci in ["e2e4", "f7f6", "g1f3", "e8f7", "f3g5", "f6g5", "d1h5"] {
    ///     let m = pos.parse_uci(uci, &rules).unwrap();
    ///     pos.play(&m);
    ///     moves.push(m);
    /// }
    /// let tags = vec![("White".to_string(), "me".to_string())];
    /// let g = PgnGame::from_moves(tags, &Position::startpos(), &moves, &rules, None);
    /// assert_eq!(g.moves, ["e4", "f6", "Nf3", "Kf7", "Ng5", "fxg5", "Qh5"]);
    /// assert_eq!(g.to_pgn(), "[White \"me\"]\n\n1. e4 f6 2. Nf3 Kf7 3. Ng5 fxg5 4. Qh5 *\n");
    /// ```
    pub fn from_moves(
        tags: Vec<(String, String)>,
        start: &Position,
        moves: &[Move],
        rules: &RuleSet,
        result: Option<PgnResult>,
    ) -> PgnGame {
        let mut game = PgnGame {
            tags,
            result,
            ..PgnGame::default()
        };
        if *start != Position::startpos() {
            for (name, value) in [("SetUp", "1".to_string()), ("FEN", start.fen())] {
                if game.tag(name).is_none() {
                    game.tags.push((name.to_string(), value));
                }
            }
        }
        let mut pos = start.clone();
        let mut legal = Vec::with_capacity(64);
        for m in moves {
            pos.legal_moves_into(rules, &mut legal);
            game.moves.push(crate::san::san_among(m, &legal));
            game.move_lines.push(0);
            pos.play(m);
        }
        game
    }

    /// The game as PGN text: the tags (values escaped), a blank line, the moves with move
    /// numbers in lines of at most 80 columns, and the result (`*` if undecided), ending
    /// with a newline. Move numbers follow the `FEN` tag's side to move and move number
    /// (the standard start without one). [`read_pgn`] reads the text back.
    pub fn to_pgn(&self) -> String {
        let mut out = String::new();
        for (name, value) in &self.tags {
            let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
            out.push_str(&format!("[{name} \"{escaped}\"]\n"));
        }
        if !self.tags.is_empty() {
            out.push('\n');
        }
        // A u64: a FEN tag may start the numbers at `u32::MAX`.
        let (mut turn, mut number) = self
            .start_position()
            .map_or((Color::White, 1), |p| (p.turn(), u64::from(p.fullmoves())));
        let mut tokens = Vec::with_capacity(self.moves.len() * 3 / 2 + 1);
        for (i, m) in self.moves.iter().enumerate() {
            match turn {
                Color::White => tokens.push(format!("{number}. {m}")),
                Color::Black if i == 0 => tokens.push(format!("{number}... {m}")),
                Color::Black => tokens.push(m.clone()),
            }
            if turn == Color::Black {
                number += 1;
            }
            turn = !turn;
        }
        tokens.push(self.result.map_or("*".to_string(), |r| r.to_string()));
        let mut line_len = 0;
        for t in tokens {
            // A move number stays on the line of its move: tokens are "N. move" units.
            if line_len > 0 && line_len + 1 + t.len() > 80 {
                out.push('\n');
                line_len = 0;
            } else if line_len > 0 {
                out.push(' ');
                line_len += 1;
            }
            out.push_str(&t);
            line_len += t.len();
        }
        out.push('\n');
        out
    }
}

/// Reads one `[Name "value"]` tag line (already trimmed).
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(|c: char| c.is_whitespace())?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return None,
            c => value.push(c),
        }
    }
    Some((name.to_string(), value))
}

/// Strips a leading move number (`12.`, `12...`) from a token; returns the rest, which may
/// be empty.
fn strip_move_number(token: &str) -> &str {
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && token[digits..].starts_with('.') {
        token[digits..].trim_start_matches('.')
    } else {
        token
    }
}

/// Reads every game of a PGN text with moves in SAN, UCI or long algebraic notation.
///
/// Accepted: tag lines `[Name "value"]`, move numbers (`12.`, `12...`, also glued to the
/// move as in `12.e2e4`), the results `1-0`, `0-1`, `1/2-1/2` and `*`, comments in braces
/// (which may span lines) or after `;`, NAGs (`$1`) and `%` escape lines. Refused, with
/// the line: malformed tags, tokens that are no move in any of these notations,
/// variations in parentheses, a result contradicting the `Result` tag, moves
/// after a result. Games follow each other; a game ends at a blank line after its result
/// or where the next tag section begins.
///
/// ```
/// use fow_variants::{read_pgn, PgnResult};
/// let text = "[White \"a\"]\n[Result \"0-1\"]\n\n1. d2d4 e7e6\n2. Ng1f3 Qd8h4 0-1\n\n\
///             [White \"b\"]\n\n1. e2e4 {a comment} e7e5 *\n";
/// let games = read_pgn(text)?;
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[0].tag("White"), Some("a"));
/// assert_eq!(games[0].moves, ["d2d4", "e7e6", "Ng1f3", "Qd8h4"]);
/// assert_eq!(games[0].move_lines, [4, 4, 5, 5]);
/// assert_eq!(games[0].result, Some(PgnResult::BlackWins));
/// assert_eq!((games[1].line, games[1].result), (7, None));
/// let e = read_pgn("1. e2e4 e7e9").unwrap_err();
/// assert_eq!(e.to_string(), "line 1: cannot read move 'e7e9'");
/// # Ok::<(), fow_variants::PgnError>(())
/// ```
pub fn read_pgn(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    read_pgn_games(text).into_iter().collect()
}

/// Reads every game of a PGN text like [`read_pgn`], but goes on after a game it cannot
/// read: one entry per game, in file order, either the game or what is wrong with it.
/// After an error the reader skips to the next tag section (the next `[` line after some
/// move text) and reads on from there; an unclosed `{` comment still swallows the rest
/// of the text, and the error says where it opened.
///
/// ```
/// use fow_variants::read_pgn_games;
/// let text = "[Round \"1\"]\n\n1. e4 e5 1-0\n\n[Round \"2\"]\n\n1. e4 e9 2. d4 *\n\n\
///             [Round \"3\"]\n\n1. d4 *\n";
/// let games = read_pgn_games(text);
/// assert_eq!(games.len(), 3);
/// assert_eq!(games[0].as_ref().unwrap().moves, ["e4", "e5"]);
/// assert_eq!(games[1].as_ref().unwrap_err().to_string(), "line 7: cannot read move 'e9'");
/// assert_eq!(games[2].as_ref().unwrap().tag("Round"), Some("3"));
/// ```
pub fn read_pgn_games(text: &str) -> Vec<Result<PgnGame, PgnError>> {
    // A UTF-8 byte-order mark (Windows editors write one) is no part of the text.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = Reader::default();
    for (index, raw) in text.lines().enumerate() {
        reader.line(index + 1, raw);
    }
    reader.end()
}

/// The state of [`read_pgn_games`] between lines.
#[derive(Default)]
struct Reader {
    games: Vec<Result<PgnGame, PgnError>>,
    current: Option<PgnGame>,
    /// A game whose move text has begun: a tag line after it starts the next game.
    in_moves: bool,
    /// The termination marker seen for the current game, with its line.
    marker: Option<(Option<PgnResult>, usize)>,
    /// The line where an unclosed `{` comment began.
    comment_from: Option<usize>,
    /// After an error, skipping to the next game: `Some(true)` once past move text
    /// (the next tag line then starts a game), `Some(false)` while still in tags.
    skipping: Option<bool>,
}

impl Reader {
    /// Closes the current game, if any, checking its result marker against its tag.
    fn finish(&mut self) {
        let marker = self.marker.take();
        self.in_moves = false;
        let Some(mut g) = self.current.take() else {
            return;
        };
        let tagged = g.tag("Result").map(|r| (r, PgnResult::parse(r)));
        g.result = match (marker, tagged) {
            (Some((m, line)), Some((text, t))) if text != "*" && t != m => {
                self.games.push(Err(PgnError {
                    line,
                    message: format!(
                        "the result '{}' contradicts the Result tag '{}'",
                        m.map_or("*".to_string(), |r| r.to_string()),
                        quote(text)
                    ),
                }));
                return;
            }
            (Some((m, _)), _) => m,
            (None, Some((_, t))) => t,
            (None, None) => None,
        };
        self.games.push(Ok(g));
    }

    /// Records an error for the current game and skips to the next one.
    fn fail(&mut self, e: PgnError) {
        self.skipping = Some(self.in_moves);
        self.games.push(Err(e));
        self.current = None;
        self.marker = None;
        self.in_moves = false;
        self.comment_from = None;
    }

    fn line(&mut self, line: usize, raw: &str) {
        if let Some(past_moves) = self.skipping {
            let t = raw.trim();
            if !(t.starts_with('[') && past_moves) {
                if !t.is_empty() && !t.starts_with('[') && !t.starts_with('%') {
                    self.skipping = Some(true);
                }
                return;
            }
            self.skipping = None;
        }
        if let Err(e) = self.read_line(line, raw) {
            self.fail(e);
        }
    }

    fn read_line(&mut self, line: usize, raw: &str) -> Result<(), PgnError> {
        let mut rest = raw;
        if self.comment_from.is_some() {
            match rest.find('}') {
                Some(end) => {
                    rest = &rest[end + 1..];
                    self.comment_from = None;
                }
                None => return Ok(()),
            }
        }
        let trimmed = rest.trim();
        if trimmed.starts_with('%') {
            return Ok(()); // escape line
        }
        if trimmed.starts_with('[') {
            if self.in_moves || self.marker.is_some() {
                self.finish();
            }
            let game = self.current.get_or_insert_with(|| PgnGame {
                line,
                ..PgnGame::default()
            });
            let tag = parse_tag(trimmed).ok_or_else(|| PgnError {
                line,
                message: format!(
                    "malformed tag '{}' (expected [Name \"value\"])",
                    quote(trimmed)
                ),
            })?;
            game.tags.push(tag);
            return Ok(());
        }
        while !rest.trim().is_empty() {
            let r = rest.trim_start();
            if let Some(after) = r.strip_prefix('{') {
                match after.find('}') {
                    Some(end) => rest = &after[end + 1..],
                    None => {
                        self.comment_from = Some(line);
                        rest = "";
                    }
                }
                continue;
            }
            if r.starts_with(';') {
                break;
            }
            self.in_moves = true;
            if r.starts_with('(') {
                return Err(PgnError {
                    line,
                    message: "variations in parentheses are not supported".into(),
                });
            }
            let end = r
                .find(|c: char| c.is_whitespace() || c == '{' || c == ';' || c == '(')
                .unwrap_or(r.len());
            let token = &r[..end];
            rest = &r[end..];
            if token.starts_with('$') {
                continue;
            }
            let token = strip_move_number(token);
            if token.is_empty() {
                continue;
            }
            if let Some((_, at)) = self.marker {
                return Err(PgnError {
                    line,
                    message: format!(
                        "'{}' after the game's result (line {at}); separate games with a tag section",
                        quote(token)
                    ),
                });
            }
            let game = self.current.get_or_insert_with(|| PgnGame {
                line,
                ..PgnGame::default()
            });
            if token == "*" || PgnResult::parse(token).is_some() {
                self.marker = Some((PgnResult::parse(token), line));
                continue;
            }
            if !is_move_text(token) {
                return Err(PgnError {
                    line,
                    message: format!("cannot read move '{}'", quote(token)),
                });
            }
            game.moves.push(token.to_string());
            game.move_lines.push(line);
        }
        if trimmed.is_empty() && self.marker.is_some() {
            // A blank line after the result closes the game.
            self.finish();
        }
        Ok(())
    }

    fn end(mut self) -> Vec<Result<PgnGame, PgnError>> {
        if self.skipping.is_none() {
            match self.comment_from {
                Some(line) => self.fail(PgnError {
                    line,
                    message: "comment '{' never closed: the rest of the text is inside it".into(),
                }),
                None => self.finish(),
            }
        }
        self.games
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameEnd;

    #[test]
    fn reads_tags_moves_and_results() {
        let text = "[Event \"x \\\"quoted\\\"\"]\n[Result \"1/2-1/2\"]\n\n1.e2e4 $1 e7e5 ; rest\n\
                    2. Ng1f3 {multi\nline} 2... Nb8c6 3. Bf1c4 1/2-1/2\n";
        let games = read_pgn(text).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.tag("Event"), Some("x \"quoted\""));
        assert_eq!(g.moves, ["e2e4", "e7e5", "Ng1f3", "Nb8c6", "Bf1c4"]);
        assert_eq!(g.move_lines, [4, 4, 5, 6, 6]);
        assert_eq!(g.result, Some(PgnResult::Draw));
        assert_eq!(g.line, 1);
    }

    #[test]
    fn games_without_blank_lines_or_markers_split_at_tags() {
        let text = "[A \"1\"]\n1. e2e4 1-0\n[A \"2\"]\n[Result \"0-1\"]\n1. d2d4\n[A \"3\"]\n";
        let games = read_pgn(text).unwrap();
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].result, Some(PgnResult::WhiteWins));
        assert_eq!(games[1].result, Some(PgnResult::BlackWins));
        assert_eq!(games[1].line, 3);
        assert_eq!(games[2].moves.len(), 0);
        assert_eq!(games[2].result, None);
        assert!(read_pgn("").unwrap().is_empty());
        assert!(read_pgn("\n\n").unwrap().is_empty());
    }

    #[test]
    fn errors_name_the_line() {
        let e = read_pgn("[White \"a\"]\n[Black b]\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("malformed tag"), "{e}");
        let e = read_pgn("[Result \"1-0\"]\n\n1. e2e4 0-1\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("contradicts"), "{e}");
        let e = read_pgn("1. e2e4 (1. d2d4) e7e5").unwrap_err();
        assert!(e.message.contains("variations"), "{e}");
        let e = read_pgn("\n\n1. e2e4 {open\n").unwrap_err();
        assert_eq!(e.line, 3);
        let e = read_pgn("1. e2e4 1-0 e7e5").unwrap_err();
        assert!(e.message.contains("after the game's result"), "{e}");
        let e = read_pgn("1. Nf3 Nf9").unwrap_err();
        assert_eq!(e.to_string(), "line 1: cannot read move 'Nf9'");
    }

    #[test]
    fn writes_and_reads_back_san() {
        let text = "1. e2e4 d7d5 2. e4d5 Ng8f6 3. d5d6 Nf6e4 4. d6c7 Ne4d6 5. c7d8=Q Ke8d8\n\
                    6. Ng1f3 Bc8g4 7. Bf1e2 e7e6 8. Ke1g1 Bf8e7 *";
        let rules = RuleSet::chesscom();
        let r = read_pgn(text).unwrap()[0].replay(&rules).unwrap();
        let tags = vec![
            ("Event".to_string(), "a \"test\" \\ game".to_string()),
            ("Result".to_string(), "*".to_string()),
        ];
        let g = PgnGame::from_moves(tags, &r.positions[0], &r.moves, &rules, None);
        assert_eq!(&g.moves[8..12], ["cxd8=Q", "Kxd8", "Nf3", "Bg4"]);
        assert_eq!(g.moves[14], "O-O");
        let out = g.to_pgn();
        assert!(out.starts_with(
            "[Event \"a \\\"test\\\" \\\\ game\"]\n[Result \"*\"]\n\n1. e4 d5 2. exd5 Nf6"
        ));
        assert!(out.lines().all(|l| l.len() <= 80), "{out}");
        let back = &read_pgn(&out).unwrap()[0];
        assert_eq!(back.tag("Event"), Some("a \"test\" \\ game"));
        assert_eq!(back.replay(&rules).unwrap().moves, r.moves);
        // A start with Black to move gets SetUp/FEN and "N..." numbering; long games wrap.
        let start: Position = "4k3/8/8/8/8/8/8/R3K3 b - - 0 30".parse().unwrap();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for uci in ["e8d8", "a1a2", "d8e8", "a2a1"].iter().cycle().take(60) {
            let m = pos.parse_uci(uci, &rules).unwrap();
            pos.play(&m);
            moves.push(m);
        }
        let g = PgnGame::from_moves(
            Vec::new(),
            &start,
            &moves,
            &RuleSet::thesis(),
            Some(PgnResult::Draw),
        );
        assert_eq!(g.tag("SetUp"), Some("1"));
        let out = g.to_pgn();
        assert!(
            out.contains("\n\n30... Kd8 31. Ra2 Ke8 32. Ra1 Kd8"),
            "{out}"
        );
        assert!(out.ends_with(" 1/2-1/2\n"), "{out}");
        assert!(
            out.lines().count() > 4 && out.lines().all(|l| l.len() <= 80),
            "{out}"
        );
        let back = &read_pgn(&out).unwrap()[0];
        assert_eq!(back.replay(&RuleSet::thesis()).unwrap().moves, moves);
        assert_eq!(back.result, Some(PgnResult::Draw));
    }

    #[test]
    fn lenient_reader_skips_a_bad_game_and_reads_on() {
        let text = "[White \"a\"]\n[Black b]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
                    [White \"c\"]\n\n1. d4 (1. c4) d5 *\n2. c4 *\n\n\
                    [White \"d\"]\n[Result \"0-1\"]\n\n1. d4 1-0\n\
                    [White \"e\"]\n\n1. Nf3 d5 1/2-1/2 Nc3\n\n\
                    [White \"f\"]\n\n1. f4 {open\n\n[White \"g\"]\n";
        let games = read_pgn_games(text);
        let lines: Vec<Result<&str, usize>> = games
            .iter()
            .map(|g| match g {
                Ok(g) => Ok(g.tag("White").unwrap()),
                Err(e) => Err(e.line),
            })
            .collect();
        // b's malformed tag, c's variation, d's contradicting result, e's move after the
        // result, f's unclosed comment (which swallows g).
        assert_eq!(lines, [Err(2), Err(9), Err(15), Err(18), Err(22)]);
        assert!(games[1]
            .as_ref()
            .unwrap_err()
            .message
            .contains("variations"));
        assert_eq!(read_pgn(text).unwrap_err(), *games[0].as_ref().unwrap_err());
        let text = "[White \"a\"]\n\n1. e4 e9\n2. d4 *\n\n[White \"b\"]\n\n1. d4 *\n";
        let games = read_pgn_games(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].as_ref().unwrap_err().line, 3);
        assert_eq!(games[1].as_ref().unwrap().moves, ["d4"]);
    }

    #[test]
    fn ambiguous_san_names_the_move() {
        let games = read_pgn("[FEN \"4k3/8/8/8/R6R/8/8/4K3 w - - 0 1\"]\n1. Rd4 *").unwrap();
        let e = games[0].replay(&RuleSet::chesscom()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2: move 1. Rd4: ambiguous move 'Rd4' (could be Rad4, Rhd4)"
        );
    }

    #[test]
    fn replays_with_promotion_castling_and_errors() {
        let text = "1. e2e4 d7d5 2. e4d5 Ng8f6 3. d5d6 Nf6e4 4. d6c7 Ne4d6 5. c7d8=Q Ke8d8\n\
                    6. Ng1f3 Bc8g4 7. Bf1e2 e7e6 8. Ke1g1 Bf8e7 *";
        let games = read_pgn(text).unwrap();
        let rules = RuleSet::chesscom();
        let r = games[0].replay(&rules).unwrap();
        assert_eq!(r.moves.len(), 16);
        assert_eq!(r.positions.len(), 17);
        assert_eq!(r.outcome, None);
        assert_eq!(
            r.positions[16].fen().split(' ').next().unwrap(),
            "rn1k3r/pp2bppp/3np3/8/6b1/5N2/PPPPBPPP/RNBQ1RK1"
        );
        // A move after a king capture is refused, naming it.
        let games = read_pgn("1. e2e4 f7f6 2. Qd1h5 a7a6 3. Qh5e8 a6a5").unwrap();
        let e = games[0].replay(&rules).unwrap_err();
        assert_eq!(e.ply, Some(5));
        assert!(e
            .message
            .starts_with("move 3... a6a5: the game already ended"));
        let mut short = games[0].clone();
        short.moves.pop();
        let r = short.replay(&rules).unwrap();
        assert_eq!(r.outcome.unwrap().end, GameEnd::KingCaptured);
        assert_eq!(r.outcome.unwrap().winner, Some(Color::White));
        // The FEN tag sets the start.
        let games = read_pgn("[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n1. Ke1g1 *").unwrap();
        assert_eq!(games[0].replay(&rules).unwrap().moves.len(), 1);
        let games = read_pgn("[FEN \"nonsense\"]\n1. e2e4 *").unwrap();
        assert_eq!(games[0].replay(&rules).unwrap_err().ply, None);
    }
}
