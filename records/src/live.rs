//! The live feed of a run played with `--live`: each game in play is a file
//! `live/<id>.txt` in the results folder, a first line of JSON ([`LiveHeader`]) and then
//! one UCI move per line, appended after each ply ([`LiveFile`]) and removed once the
//! game's row is in `games.csv`. A program that only reads files (the web app) follows
//! the games in play with [`live_games`].
//!
//! The files show both sides' moves while the game runs, so they are written only where
//! no player can read them (see `fow_arena::Run`'s `--live` check). They are not results:
//! the checks, `fow merge` and `fow export` ignore them, and a run that starts or resumes
//! clears those a killed run left ([`clear_live`]).

use std::fs::{self, File};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use fow_variants::{Game, Move, Position, RuleSet};
use serde::{Deserialize, Serialize};

use crate::error::RecordError;
use crate::files::io_err;

/// The folder of a results folder that holds the games in play (with `--live`).
pub const LIVE_DIR: &str = "live";

/// The first line of a live file: which game it is, who plays it, under which rules and
/// from where. No seed: the file is for watching, and tells nothing the finished row
/// will not.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveHeader {
    /// The game's number in the schedule (its row's `id` in `games.csv`).
    pub id: u64,
    /// Which meeting of this ordered pair it is (0-based).
    pub round: u32,
    /// White's spec.
    pub white: String,
    /// Black's spec.
    pub black: String,
    /// The rules, every switch.
    pub rules: RuleSet,
    /// The start position, FEN.
    pub start: String,
}

/// A game in play as its live file shows it so far.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveGame {
    /// The file.
    pub path: PathBuf,
    /// Its first line.
    pub header: LiveHeader,
    /// The moves played so far (each complete line), legal from the start position.
    pub moves: Vec<Move>,
}

/// The live file of game `id` in the results folder `dir`: `dir/live/<id>.txt`.
pub fn live_file(dir: &Path, id: u64) -> PathBuf {
    dir.join(LIVE_DIR).join(format!("{id}.txt"))
}

/// The writer of one game's live file: made with its header, told each move as it is
/// played, removed at the end ([`LiveFile::close`]).
#[derive(Debug)]
pub struct LiveFile {
    path: PathBuf,
    /// `None` after a write failed: the game goes on, the feed stops, the error waits
    /// for [`LiveFile::close`].
    file: Option<File>,
    error: Option<RecordError>,
}

impl LiveFile {
    /// The live file of `header`'s game in the results folder `dir`, holding its header
    /// line: written under a temporary name and renamed into place, so a reader never
    /// sees a file without its whole header.
    pub fn create(dir: &Path, header: &LiveHeader) -> Result<LiveFile, RecordError> {
        let path = live_file(dir, header.id);
        let folder = dir.join(LIVE_DIR);
        fs::create_dir_all(&folder).map_err(io_err(&folder))?;
        let tmp = path.with_extension("txt.tmp");
        let mut file = File::create(&tmp).map_err(io_err(&tmp))?;
        let mut line = serde_json::to_string(header).expect("a header is JSON");
        line.push('\n');
        file.write_all(line.as_bytes()).map_err(io_err(&tmp))?;
        fs::rename(&tmp, &path).map_err(io_err(&path))?;
        Ok(LiveFile {
            path,
            file: Some(file),
            error: None,
        })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends move `m` as a line, in one write (no buffer in between: a reader sees
    /// it at once). A failure stops the feed; [`LiveFile::close`] reports it.
    pub fn push(&mut self, m: &Move) {
        let Some(file) = &mut self.file else { return };
        let mut line = m.uci();
        line.push('\n');
        if let Err(e) = file.write_all(line.as_bytes()) {
            self.error = Some(RecordError::io(&self.path, &e));
            self.file = None;
        }
    }

    /// Removes the file (the game's row is in `games.csv` now); the first write that
    /// failed, if one did, is the error.
    pub fn close(mut self) -> Result<(), RecordError> {
        self.file = None;
        if let Err(e) = fs::remove_file(&self.path) {
            if e.kind() != ErrorKind::NotFound {
                return Err(RecordError::io(&self.path, &e));
            }
        }
        self.error.map_or(Ok(()), Err)
    }
}

/// Removes the live files of the results folder `dir` (its `live/` folder), as a run
/// that starts, resumes or ends leaves none: those of a killed run are stale.
pub fn clear_live(dir: &Path) -> Result<(), RecordError> {
    let folder = dir.join(LIVE_DIR);
    match fs::remove_dir_all(&folder) {
        Err(e) if e.kind() != ErrorKind::NotFound => Err(RecordError::io(&folder, &e)),
        _ => Ok(()),
    }
}

/// The games in play in the results folder `dir`, by id: each live file's header and
/// its moves so far. A last line still being written (no newline yet) is left out, and
/// a file that vanished between listing and reading (its game ended) is skipped, as is
/// a folder without `live/`. A file that does not read (a header that is not one, a
/// move that is not legal there) is an error naming its file and line.
///
/// ```
/// use fow_records::{live_games, LiveFile, LiveHeader};
/// use fow_variants::{Position, RuleSet};
/// let dir = tempfile::tempdir().unwrap();
/// let start = Position::startpos();
/// let header = LiveHeader {
///     id: 3, round: 0, white: "RandomMove".into(), black: "CaptureLargest".into(),
///     rules: RuleSet::thesis(), start: start.fen(),
/// };
/// let mut file = LiveFile::create(dir.path(), &header).unwrap();
/// file.push(&start.parse_uci("e2e4", &RuleSet::thesis()).unwrap());
/// let games = live_games(dir.path()).unwrap();
/// assert_eq!((games.len(), games[0].moves.len()), (1, 1));
/// file.close().unwrap();
/// assert!(live_games(dir.path()).unwrap().is_empty());
/// ```
pub fn live_games(dir: &Path) -> Result<Vec<LiveGame>, RecordError> {
    let folder = dir.join(LIVE_DIR);
    let entries = match fs::read_dir(&folder) {
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
        r => r.map_err(io_err(&folder))?,
    };
    let mut files = Vec::new();
    for e in entries {
        let name = e.map_err(io_err(&folder))?.file_name();
        let id = name
            .to_str()
            .and_then(|n| n.strip_suffix(".txt"))
            .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|n| n.parse::<u64>().ok());
        if let Some(id) = id {
            files.push((id, folder.join(name)));
        }
    }
    files.sort();
    let mut games = Vec::with_capacity(files.len());
    for (id, path) in files {
        let bytes = match fs::read(&path) {
            Err(e) if e.kind() == ErrorKind::NotFound => continue,
            r => r.map_err(io_err(&path))?,
        };
        if let Some(game) = read_live(path, id, &bytes)? {
            games.push(game);
        }
    }
    Ok(games)
}

/// The game of the live file `path` (of game `id`) holding `bytes`: `None` before its
/// header line is whole.
fn read_live(path: PathBuf, id: u64, bytes: &[u8]) -> Result<Option<LiveGame>, RecordError> {
    let bad = |line: usize, message: String| RecordError::Format {
        path: path.clone(),
        line: line as u64,
        message,
    };
    // Only whole lines: the last one may be half written.
    let Some(end) = bytes.iter().rposition(|&b| b == b'\n') else {
        return Ok(None);
    };
    let text = std::str::from_utf8(&bytes[..end]).map_err(|e| {
        let line = 1 + bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        bad(line, "not UTF-8 text".into())
    })?;
    let mut lines = text.split('\n');
    let first = lines.next().unwrap_or_default();
    let header: LiveHeader = serde_json::from_str(first)
        .map_err(|e| bad(1, format!("not the header of a live game: {e}")))?;
    if header.id != id {
        return Err(bad(
            1,
            format!("the header is game {}'s, in game {id}'s file", header.id),
        ));
    }
    let start =
        Position::from_fen(&header.start).map_err(|e| bad(1, format!("start position: {e}")))?;
    let mut game = Game::new(start, header.rules);
    let mut moves = Vec::new();
    let mut over = false;
    for (i, t) in lines.enumerate() {
        let line = i + 2;
        if over {
            return Err(bad(line, format!("{t} comes after the end of the game")));
        }
        let m = game
            .position()
            .parse_uci(t, &header.rules)
            .map_err(|e| bad(line, format!("ply {}: {e}", i + 1)))?;
        over = game.play(&m).is_some();
        moves.push(m);
    }
    Ok(Some(LiveGame {
        path,
        header,
        moves,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(id: u64) -> LiveHeader {
        LiveHeader {
            id,
            round: 1,
            white: "RandomMove".into(),
            black: "exec:cmd=python3 \"my bot.py\",name=Mine".into(),
            rules: RuleSet::chesscom(),
            start: Position::startpos().fen(),
        }
    }

    fn moves(uci: &[&str]) -> Vec<Move> {
        let rules = RuleSet::chesscom();
        let mut game = Game::new(Position::startpos(), rules);
        uci.iter()
            .map(|t| {
                let m = game.position().parse_uci(t, &rules).unwrap();
                game.play(&m);
                m
            })
            .collect()
    }

    #[test]
    fn a_live_file_reads_back_as_written_and_is_gone_when_closed() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let played = moves(&["e2e4", "d7d5", "e4d5"]);
        let mut f = LiveFile::create(dir, &header(12)).unwrap();
        assert_eq!(f.path(), live_file(dir, 12));
        let mut other = LiveFile::create(dir, &header(4)).unwrap();
        let shown = live_games(dir).unwrap();
        assert_eq!(shown.len(), 2);
        assert!(shown.iter().all(|g| g.moves.is_empty()));
        for m in &played {
            f.push(m);
        }
        other.push(&played[0]);
        let shown = live_games(dir).unwrap();
        // In id order, the header as written (quotes and commas in a spec included).
        assert_eq!(shown[0].header, header(4));
        assert_eq!(shown[1].header, header(12));
        assert_eq!(shown[1].moves, played);
        assert_eq!(shown[0].moves, played[..1]);
        f.close().unwrap();
        assert_eq!(live_games(dir).unwrap().len(), 1);
        other.close().unwrap();
        assert!(live_games(dir).unwrap().is_empty());
        clear_live(dir).unwrap();
        assert!(!dir.join(LIVE_DIR).exists());
        // A folder without live games reads as none.
        assert!(live_games(dir).unwrap().is_empty());
        clear_live(dir).unwrap();
    }

    #[test]
    fn a_partial_last_line_is_left_out_and_other_files_are_ignored() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let head = serde_json::to_string(&header(7)).unwrap();
        fs::create_dir(dir.join(LIVE_DIR)).unwrap();
        fs::write(live_file(dir, 7), format!("{head}\ne2e4\nd7d5\ne4d")).unwrap();
        // A header being written under its temporary name, and other names, are no games.
        fs::write(dir.join(LIVE_DIR).join("8.txt.tmp"), "{\"id\"").unwrap();
        fs::write(dir.join(LIVE_DIR).join("notes.txt"), "x").unwrap();
        fs::write(dir.join(LIVE_DIR).join("+9.txt"), "x").unwrap();
        let games = live_games(dir).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].moves, moves(&["e2e4", "d7d5"]));
        // A header without its newline yet: the game is not shown yet.
        fs::write(live_file(dir, 2), &head[..10]).unwrap();
        assert_eq!(live_games(dir).unwrap().len(), 1);
        // Once the line is whole, it is read.
        fs::write(live_file(dir, 7), format!("{head}\ne2e4\nd7d5\ne4d5\n")).unwrap();
        assert_eq!(live_games(dir).unwrap()[0].moves.len(), 3);
    }

    #[test]
    fn a_file_that_does_not_read_is_an_error_naming_its_line() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let head = serde_json::to_string(&header(5)).unwrap();
        fs::create_dir(dir.join(LIVE_DIR)).unwrap();
        let path = live_file(dir, 5);
        let cases = [
            (format!("{head}\ne2e4\ne7e5\ne4e6\n"), ":4: ply 3:"),
            ("{}\n".to_string(), ":1: not the header of a live game"),
            (
                format!("{}\n", head.replace("\"id\":5", "\"id\":6")),
                ":1: the header is game 6's, in game 5's file",
            ),
            (format!("{head}\n\n"), ":2: ply 1:"),
        ];
        for (text, needle) in cases {
            fs::write(&path, text).unwrap();
            let e = live_games(dir).unwrap_err().to_string();
            assert!(e.contains(&format!("5.txt{needle}")), "{needle}: {e}");
        }
    }
}
