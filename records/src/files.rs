//! The files of a tournament folder: `tournament.json`, `games.csv`, `times.csv`.
//!
//! `games.csv` is deterministic (same settings and seed, same bytes); wall-clock times
//! live apart in `times.csv` so that the results can be compared with `diff`.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::error::RecordError;
use crate::moves_text::replay_uci;
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
    /// The start position as FEN, in a tournament played from openings (`--openings`);
    /// empty for the standard start. Files of tournaments without openings have no such
    /// column (see [`GamesLayout`]).
    #[serde(default)]
    pub start: String,
    /// The row's tag: HMAC-SHA256 under the run's key of every other column, in
    /// hexadecimal ([`RowTagger`](crate::RowTagger)); checked on every read. Files
    /// written before tags have no such column.
    #[serde(default)]
    pub tag: String,
}

/// Which of the optional columns of `games.csv` a file has: `start` in a run from
/// openings, `tag` in a run whose rows are tagged (every run since tags); see
/// `TournamentConfig::games_layout`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GamesLayout {
    /// The `start` column.
    pub start: bool,
    /// The `tag` column.
    pub tag: bool,
}

impl GamesLayout {
    /// The header line.
    pub fn header(self) -> String {
        let mut h = GameRow::STANDARD_HEADER.to_string();
        if self.start {
            h.push_str(",start");
        }
        if self.tag {
            h.push_str(",tag");
        }
        h
    }
}

/// A row of `games.csv` with the columns of a layout.
struct LaidOut<'a>(&'a GameRow, GamesLayout);

impl Serialize for LaidOut<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let (r, l) = (self.0, self.1);
        let mut st =
            s.serialize_struct("GameRow", 10 + usize::from(l.start) + usize::from(l.tag))?;
        st.serialize_field("id", &r.id)?;
        st.serialize_field("round", &r.round)?;
        st.serialize_field("white", &r.white)?;
        st.serialize_field("black", &r.black)?;
        st.serialize_field("seed", &r.seed)?;
        st.serialize_field("result", &r.result)?;
        st.serialize_field("reason", &r.reason)?;
        st.serialize_field("plies", &r.plies)?;
        st.serialize_field("detail", &r.detail)?;
        st.serialize_field("moves", &r.moves)?;
        if l.start {
            st.serialize_field("start", &r.start)?;
        }
        if l.tag {
            st.serialize_field("tag", &r.tag)?;
        }
        st.end()
    }
}

/// A row type of a CSV file the arena writes.
pub trait CsvRow: DeserializeOwned + Serialize + Default {
    /// The columns a file may leave out: they read as their defaults (`games.csv`
    /// without openings has no `start` column, one written before tags no `tag`).
    const OPTIONAL: &'static [&'static str] = &[];
}

impl CsvRow for GameRow {
    const OPTIONAL: &'static [&'static str] = &["start", "tag"];
}

impl CsvRow for TimeRow {}

impl CsvRow for ClockRow {}

impl GameRow {
    /// The header of `games.csv` without openings: every column but `start`.
    pub const STANDARD_HEADER: &'static str =
        "id,round,white,black,seed,result,reason,plies,detail,moves";

    /// The start position (the standard one when `start` is empty); the error says what
    /// is wrong with the FEN.
    pub fn start_position(&self) -> Result<fow_variants::Position, String> {
        if self.start.is_empty() {
            return Ok(fow_variants::Position::startpos());
        }
        fow_variants::Position::from_fen(&self.start)
            .map_err(|e| format!("game {}: column start: {e}", self.id))
    }

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
            start: String::new(),
            tag: String::new(),
        }
    }

    /// The moves, read back as legal moves from the start position under `rules` (an
    /// error names the game and the ply of the first move that does not fit, or that
    /// follows the end of the game by the rules).
    pub fn legal_moves(
        &self,
        rules: &fow_variants::RuleSet,
    ) -> Result<Vec<fow_variants::Move>, String> {
        let start = self.start_position()?;
        replay_uci(&start, &self.moves, rules)
            .map(|(_, moves, _)| moves)
            .map_err(|e| format!("game {}, {e}", self.id))
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

/// One row of `clocks.csv`, written under a time control only: the mover's time left
/// after each move of a game (not deterministic).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClockRow {
    /// The game's number.
    pub id: u64,
    /// Milliseconds left on the mover's clock after each move (increment included),
    /// space-separated, in move order.
    pub clocks_ms: String,
}

impl ClockRow {
    /// The row for a finished game.
    pub fn new(id: u64, rec: &GameRecord) -> ClockRow {
        let ms: Vec<String> = rec
            .clocks
            .iter()
            .map(|d| d.as_millis().to_string())
            .collect();
        ClockRow {
            id,
            clocks_ms: ms.join(" "),
        }
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
/// A match's statistics and verdict (written by `fow match` and `fow merge`).
pub const MATCH_FILE: &str = "match.json";
/// An evolution's settings (`fow evolve`): such a folder holds no `tournament.json`.
pub const EVOLVE_FILE: &str = "evolve.json";
/// A tuning run's settings (`fow tune`): such a folder holds no `tournament.json`.
pub const TUNE_FILE: &str = "tune.json";
/// Wall times, one row per game.
pub const TIMES_FILE: &str = "times.csv";
/// Under a time control: each side's time left after each move.
pub const CLOCKS_FILE: &str = "clocks.csv";

/// Turns an I/O error on `path` into a [`RecordError`] naming the file (for `map_err`):
/// [`RecordError::Path`] when the path is what is wrong, else [`RecordError::Io`] (see
/// [`RecordError::io`]).
pub fn io_err(path: &Path) -> impl FnOnce(io::Error) -> RecordError + '_ {
    move |e| RecordError::io(path, &e)
}

/// Checks that `dir` is an existing folder: nothing there, or a file, is a
/// [`RecordError::Path`] naming it.
pub fn existing_folder(dir: &Path) -> Result<(), RecordError> {
    match fs::metadata(dir).map_err(io_err(dir))?.is_dir() {
        true => Ok(()),
        false => Err(RecordError::Path {
            path: dir.to_path_buf(),
            message: "is a file, not a folder".into(),
        }),
    }
}

/// Cuts a file after its last newline (a line cut off by a kill is dropped).
pub fn drop_partial_line(path: &Path) -> Result<(), RecordError> {
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

/// The rows of a CSV file written by the arena, each with its 1-based line, or the error
/// of a row that does not read (naming file and line); `kind` names the file for messages
/// (`games.csv`). The first line must be the header of `T`. With `complete_lines`, a last
/// line without its newline (a row cut short by a kill) is left out, but must look like
/// the start of a line fow writes (text; the header's start if it is the only line).
/// Also says whether the file ends inside a line that was read (`complete_lines` off).
/// Errors of the file as a whole (it cannot be read, it is not such a file) are returned.
#[allow(clippy::type_complexity)]
pub fn read_csv<T: CsvRow>(
    path: &Path,
    complete_lines: bool,
    kind: &str,
) -> Result<(Vec<(u64, Result<T, RecordError>)>, bool), RecordError> {
    let data = fs::read(path).map_err(io_err(path))?;
    let bad = |line: u64, message: String| RecordError::Format {
        path: path.to_path_buf(),
        line,
        message,
    };
    let header = header_line::<T>();
    let columns: Vec<&str> = header.split(',').collect();
    // The headers a file may have: every column, some optional ones left out.
    let allowed: Vec<Vec<&str>> = (0..1usize << T::OPTIONAL.len())
        .map(|drop| {
            columns
                .iter()
                .copied()
                .filter(|c| {
                    T::OPTIONAL
                        .iter()
                        .position(|o| o == c)
                        .is_none_or(|i| drop & (1 << i) == 0)
                })
                .collect()
        })
        .collect();
    let not_kind = || {
        let optional = match T::OPTIONAL {
            [] => String::new(),
            [one] => format!(" (the column {one} optional)"),
            many => format!(" (the columns {} optional)", many.join(" and ")),
        };
        bad(
            1,
            format!("not a {kind}: its first line must be the header '{header}'{optional}"),
        )
    };
    let ends_inside = !data.is_empty() && !data.ends_with(b"\n");
    let keep = match complete_lines {
        true => data.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1),
        false => data.len(),
    };
    let body = &data[..keep];
    let mut rdr = csv::ReaderBuilder::new().from_reader(body);
    let headers = match rdr.byte_headers() {
        _ if body.is_empty() => csv::ByteRecord::new(),
        Ok(h)
            if allowed
                .iter()
                .any(|a| h.iter().eq(a.iter().map(|c| c.as_bytes()))) =>
        {
            h.clone()
        }
        _ => return Err(not_kind()),
    };
    let tail = &data[keep..];
    if !tail.is_empty() {
        // Left out: it must look like what a kill leaves.
        if keep == 0 {
            if !allowed
                .iter()
                .any(|a| a.join(",").as_bytes().starts_with(tail))
            {
                return Err(not_kind());
            }
        } else if !looks_like_text(tail) {
            let line = body.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
            return Err(bad(
                line,
                "the last line is cut short and is not text: not a row cut off by a kill".into(),
            ));
        }
    }
    if body.is_empty() {
        return Ok((Vec::new(), false));
    }
    let names: Vec<String> = headers
        .iter()
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect();
    let mut rows = Vec::new();
    let mut rec = csv::ByteRecord::new();
    loop {
        let next_line = rdr.position().line();
        match rdr.read_byte_record(&mut rec) {
            Ok(false) => break,
            Ok(true) => {
                let line = rec.position().map_or(next_line, |p| p.line());
                let row = rec.deserialize::<T>(Some(&headers)).map_err(|e| {
                    let message = match e.kind() {
                        csv::ErrorKind::Deserialize { err, .. } => {
                            let column = err
                                .field()
                                .and_then(|i| names.get(i as usize))
                                .map_or(String::new(), |n| format!("column {n}: "));
                            format!("{column}{}", err.kind())
                        }
                        _ => e.to_string(),
                    };
                    bad(line, message)
                });
                rows.push((line, row));
            }
            Err(e) => {
                let line = e.position().map_or(next_line, |p| p.line());
                let message = match e.kind() {
                    csv::ErrorKind::UnequalLengths { len, .. } => format!(
                        "the row has {len} fields, and a {kind} row has {} ({})",
                        names.len(),
                        names.join(",")
                    ),
                    _ => e.to_string(),
                };
                let io = e.is_io_error();
                rows.push((line, Err(bad(line, message))));
                if io {
                    break;
                }
            }
        }
    }
    Ok((rows, ends_inside && !complete_lines))
}

/// Whether the header (first line) of the CSV file at `path` has the column `name`.
pub(crate) fn header_has(path: &Path, name: &str) -> Result<bool, RecordError> {
    let mut first = Vec::new();
    let f = File::open(path).map_err(io_err(path))?;
    io::BufRead::read_until(&mut io::BufReader::new(f), b'\n', &mut first).map_err(io_err(path))?;
    Ok(first
        .trim_ascii_end()
        .split(|&b| b == b',')
        .any(|c| c == name.as_bytes()))
}

/// Whether the bytes are the start of a line of text: UTF-8 (perhaps cut inside its last
/// character) without control characters but tabs.
fn looks_like_text(bytes: &[u8]) -> bool {
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) if e.error_len().is_none() => {
            std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default()
        }
        Err(_) => return false,
    };
    text.chars().all(|c| c == '\t' || !c.is_control())
}

/// Reads rows of a CSV file written by the arena (its first line the header of `T`).
/// Errors name the file and line.
pub fn read_rows<T: CsvRow>(path: &Path) -> Result<Vec<T>, RecordError> {
    let kind = path
        .file_name()
        .map_or("CSV file".into(), |n| n.to_string_lossy().into_owned());
    let (rows, _) = read_csv::<T>(path, false, &kind)?;
    rows.into_iter().map(|(_, r)| r).collect()
}

/// An append-only CSV file, flushed after every row.
pub struct Appender {
    path: PathBuf,
    writer: csv::Writer<File>,
}

impl Appender {
    /// Opens `path` for appending, writing the header if the file is new or empty.
    pub fn open<T: Serialize + Default>(path: &Path) -> Result<Appender, RecordError> {
        Appender::open_with_header(path, &header_line::<T>())
    }

    /// Opens `path` for appending, writing `header` if the file is new or empty.
    fn open_with_header(path: &Path, header: &str) -> Result<Appender, RecordError> {
        drop_partial_line(path)?;
        let fresh = fs::metadata(path).map(|m| m.len() == 0).unwrap_or(true);
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io_err(path))?;
        if fresh {
            writeln!(file, "{header}").map_err(io_err(path))?;
        }
        Ok(Appender {
            path: path.to_path_buf(),
            writer: csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(file),
        })
    }

    /// Appends one row and flushes it to the operating system.
    pub fn append<T: Serialize>(&mut self, row: &T) -> Result<(), RecordError> {
        self.writer.serialize(row).map_err(csv_err(&self.path))?;
        self.writer.flush().map_err(io_err(&self.path))
    }
}

/// `games.csv`, appended to, with the columns of its [`GamesLayout`].
pub struct GamesAppender {
    inner: Appender,
    layout: GamesLayout,
}

impl GamesAppender {
    /// Opens `path` for appending, writing the header of `layout` if the file is new or
    /// empty.
    pub fn open(path: &Path, layout: GamesLayout) -> Result<GamesAppender, RecordError> {
        Ok(GamesAppender {
            inner: Appender::open_with_header(path, &layout.header())?,
            layout,
        })
    }

    /// Appends one row and flushes it. Without the `start` column the row must start
    /// from the standard position.
    pub fn append(&mut self, row: &GameRow) -> Result<(), RecordError> {
        debug_assert!(self.layout.start || row.start.is_empty());
        self.inner.append(&LaidOut(row, self.layout))
    }
}

/// Rewrites `games.csv` with `rows`, atomically, with the columns of `layout`.
pub fn rewrite_games(
    path: &Path,
    rows: &[GameRow],
    layout: GamesLayout,
) -> Result<(), RecordError> {
    let laid: Vec<LaidOut<'_>> = rows.iter().map(|r| LaidOut(r, layout)).collect();
    rewrite_rows(path, &laid)
}

/// The CSV header line of a row type.
fn header_line<T: Serialize + Default>() -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.serialize(T::default()).expect("serializing to memory");
    let bytes = w.into_inner().expect("flushing to memory");
    let text = String::from_utf8(bytes).expect("CSV of UTF-8 fields");
    text.lines().next().unwrap_or_default().to_string()
}

fn csv_err(path: &Path) -> impl FnOnce(csv::Error) -> RecordError + '_ {
    move |e| RecordError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// Rewrites a CSV file with its rows in a new order, atomically (temp file + rename).
pub fn rewrite_rows<T: Serialize>(path: &Path, rows: &[T]) -> Result<(), RecordError> {
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
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), RecordError> {
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

/// The PGN files `path` names: itself if it is not a folder, else the `.pgn` files in it,
/// sorted (an error if there are none).
pub fn pgn_files(path: &Path) -> Result<Vec<PathBuf>, RecordError> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let dir = path;
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir).map_err(io_err(dir))? {
        let p = e.map_err(io_err(dir))?.path();
        if p.is_file() && p.extension().is_some_and(|x| x == "pgn") {
            files.push(p);
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(RecordError::Settings(format!(
            "{}: no .pgn files (and no games.csv) in the folder",
            dir.display()
        )));
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_files_read_with_or_without_their_optional_columns() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(GAMES_FILE);
        let row = GameRow {
            id: 1,
            white: "A".into(),
            black: "B".into(),
            moves: "e2e4".into(),
            plies: 1,
            start: "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".into(),
            tag: "ab".into(),
            ..GameRow::default()
        };
        for (start, tag) in [(false, false), (true, false), (false, true), (true, true)] {
            let layout = GamesLayout { start, tag };
            let mut written = row.clone();
            if !start {
                written.start.clear();
            }
            if !tag {
                written.tag.clear();
            }
            rewrite_games(&path, std::slice::from_ref(&written), layout).unwrap();
            let text = fs::read_to_string(&path).unwrap();
            assert!(text.starts_with(&(layout.header() + "\n")), "{text}");
            assert_eq!(header_has(&path, "tag").unwrap(), tag);
            assert_eq!(read_rows::<GameRow>(&path).unwrap(), vec![written]);
        }
        // The optional columns in another order are not a games.csv.
        let h = format!("{},tag,start\n", GameRow::STANDARD_HEADER);
        fs::write(&path, h).unwrap();
        let e = read_rows::<GameRow>(&path).unwrap_err().to_string();
        assert!(e.contains("(the columns start and tag optional)"), "{e}");
    }
}
