//! The files of a tournament folder: `tournament.json`, `games.csv`, `times.csv`.
//!
//! `games.csv` is deterministic (same settings and seed, same bytes); wall-clock times
//! live apart in `times.csv` so that the results can be compared with `diff`.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::ArenaError;
use crate::record::{GameRecord, GameResult, Reason};

/// One row of `games.csv`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    /// The game's number in the schedule (0-based).
    pub id: u64,
    /// Which meeting of this ordered pair it is (0-based).
    pub round: u32,
    /// White's spec.
    pub white: String,
    /// Black's spec.
    pub black: String,
    /// The game seed.
    pub seed: u64,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why it ended (`king captured`, `no progress`, `illegal move`, ...).
    pub reason: String,
    /// Plies played.
    pub plies: usize,
    /// Details of a player failure, else empty.
    pub detail: String,
    /// The moves, space-separated UCI.
    pub moves: String,
}

impl GameRow {
    /// The row for a finished game.
    pub fn new(id: u64, round: u32, rec: &GameRecord) -> GameRow {
        GameRow {
            id,
            round,
            white: rec.white.clone(),
            black: rec.black.clone(),
            seed: rec.seed,
            result: rec.result.to_string(),
            reason: rec.reason.to_string(),
            plies: rec.plies(),
            detail: rec.detail.clone(),
            moves: rec.moves_uci(),
        }
    }

    /// The moves, read back as legal moves from the start position under `rules` (an
    /// error names the game and the ply of the first move that does not fit).
    pub fn legal_moves(
        &self,
        rules: &fow_variants::RuleSet,
    ) -> Result<Vec<fow_variants::Move>, String> {
        let mut pos = fow_variants::Position::startpos();
        let mut moves = Vec::new();
        for (i, text) in self.moves.split_whitespace().enumerate() {
            let m = pos
                .parse_uci(text, rules)
                .map_err(|e| format!("game {}, ply {}: {e} (rules {rules})", self.id, i + 1))?;
            pos.play(&m);
            moves.push(m);
        }
        Ok(moves)
    }

    /// The result column as a [`GameResult`].
    pub fn game_result(&self) -> Result<GameResult, String> {
        self.result.parse()
    }

    /// The parsed reason.
    pub fn game_reason(&self) -> Result<Reason, String> {
        self.reason.parse()
    }
}

/// One row of `times.csv`: wall time per side (not deterministic).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TimeRow {
    /// The game's number.
    pub id: u64,
    /// White's thinking time in milliseconds.
    pub white_ms: f64,
    /// Black's thinking time in milliseconds.
    pub black_ms: f64,
    /// Moves White chose.
    pub white_moves: u32,
    /// Moves Black chose.
    pub black_moves: u32,
}

impl TimeRow {
    /// The row for a finished game.
    pub fn new(id: u64, rec: &GameRecord) -> TimeRow {
        let ms = |d: std::time::Duration| (d.as_secs_f64() * 1e6).round() / 1e3;
        TimeRow {
            id,
            white_ms: ms(rec.time[0]),
            black_ms: ms(rec.time[1]),
            white_moves: rec.decisions[0],
            black_moves: rec.decisions[1],
        }
    }
}

/// Names of the files in a tournament folder.
pub const CONFIG_FILE: &str = "tournament.json";
/// Results, one row per game.
pub const GAMES_FILE: &str = "games.csv";
/// Wall times, one row per game.
pub const TIMES_FILE: &str = "times.csv";

pub(crate) fn io_err(path: &Path) -> impl FnOnce(io::Error) -> ArenaError + '_ {
    move |e| ArenaError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// Cuts a file after its last newline (a line cut off by a kill is dropped).
pub(crate) fn drop_partial_line(path: &Path) -> Result<(), ArenaError> {
    let mut f = match OpenOptions::new().read(true).write(true).open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io_err(path)(e)),
    };
    let mut data = Vec::new();
    f.read_to_end(&mut data).map_err(io_err(path))?;
    let keep = data.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if keep != data.len() {
        f.set_len(keep as u64).map_err(io_err(path))?;
        f.seek(SeekFrom::End(0)).map_err(io_err(path))?;
    }
    Ok(())
}

/// Reads rows of a CSV file written by the arena. Errors name the file and line.
pub fn read_rows<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Vec<T>, ArenaError> {
    let file = File::open(path).map_err(io_err(path))?;
    let mut rdr = csv::Reader::from_reader(io::BufReader::new(file));
    let mut rows = Vec::new();
    for (i, r) in rdr.deserialize().enumerate() {
        rows.push(r.map_err(|e: csv::Error| ArenaError::Format {
            path: path.to_path_buf(),
            line: e.position().map_or(i as u64 + 2, |p| p.line()),
            message: match e.kind() {
                csv::ErrorKind::Deserialize { err, .. } => err.to_string(),
                _ => e.to_string(),
            },
        })?);
    }
    Ok(rows)
}

/// Reads a `games.csv`.
pub fn read_games(path: &Path) -> Result<Vec<GameRow>, ArenaError> {
    let rows: Vec<GameRow> = read_rows(path)?;
    for (i, r) in rows.iter().enumerate() {
        let bad = |message: String| ArenaError::Format {
            path: path.to_path_buf(),
            line: i as u64 + 2,
            message,
        };
        r.game_result().map_err(bad)?;
        r.game_reason().map_err(bad)?;
    }
    Ok(rows)
}

/// An append-only CSV file, flushed after every row.
pub(crate) struct Appender {
    path: PathBuf,
    writer: csv::Writer<File>,
}

impl Appender {
    /// Opens `path` for appending, writing the header if the file is new or empty.
    pub fn open<T: Serialize + Default>(path: &Path) -> Result<Appender, ArenaError> {
        drop_partial_line(path)?;
        let fresh = fs::metadata(path).map(|m| m.len() == 0).unwrap_or(true);
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io_err(path))?;
        if fresh {
            writeln!(file, "{}", header_line::<T>()).map_err(io_err(path))?;
        }
        Ok(Appender {
            path: path.to_path_buf(),
            writer: csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(file),
        })
    }

    /// Appends one row and flushes it to the operating system.
    pub fn append<T: Serialize>(&mut self, row: &T) -> Result<(), ArenaError> {
        self.writer.serialize(row).map_err(csv_err(&self.path))?;
        self.writer.flush().map_err(io_err(&self.path))
    }
}

/// The CSV header line of a row type.
fn header_line<T: Serialize + Default>() -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.serialize(T::default()).expect("serializing to memory");
    let bytes = w.into_inner().expect("flushing to memory");
    let text = String::from_utf8(bytes).expect("CSV of UTF-8 fields");
    text.lines().next().unwrap_or_default().to_string()
}

fn csv_err(path: &Path) -> impl FnOnce(csv::Error) -> ArenaError + '_ {
    move |e| ArenaError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// Rewrites a CSV file with its rows in a new order, atomically (temp file + rename).
pub(crate) fn rewrite_rows<T: Serialize>(path: &Path, rows: &[T]) -> Result<(), ArenaError> {
    let tmp = path.with_extension("csv.tmp");
    {
        let file = File::create(&tmp).map_err(io_err(&tmp))?;
        let mut w = csv::Writer::from_writer(io::BufWriter::new(file));
        for r in rows {
            w.serialize(r).map_err(csv_err(&tmp))?;
        }
        let mut inner = w.into_inner().map_err(|e| io_err(&tmp)(e.into_error()))?;
        inner.flush().map_err(io_err(&tmp))?;
        inner.get_ref().sync_all().map_err(io_err(&tmp))?;
    }
    fs::rename(&tmp, path).map_err(io_err(path))
}

/// Writes `bytes` to `path` atomically: a temporary file beside it, synced, then renamed
/// over it, so a kill leaves either the old or the new content.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ArenaError> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    let tmp = path.with_file_name(name);
    {
        let mut file = File::create(&tmp).map_err(io_err(&tmp))?;
        file.write_all(bytes).map_err(io_err(&tmp))?;
        file.sync_all().map_err(io_err(&tmp))?;
    }
    fs::rename(&tmp, path).map_err(io_err(path))
}
