//! A running `fow web` for the end-to-end tests (tests/web.rs, tests/web_browser.rs):
//! started on a free port, asked over plain HTTP, its event streams read, and stopped
//! with Ctrl-C; the runs it serves.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fow_variants::FogView;
use serde_json::Value;

use super::{ok, FOW};

/// A running `fow web`, stopped (Ctrl-C) when dropped.
pub struct Server {
    child: Option<Child>,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Server {
    /// `fow web DIRS --listen 127.0.0.1:0 EXTRA`, once it prints its address.
    pub fn start(dirs: &[&Path], extra: &[&str]) -> Server {
        let mut child = Command::new(FOW)
            .arg("web")
            .args(dirs)
            .args(["--listen", "127.0.0.1:0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("fow web starts");
        let mut line = String::new();
        BufReader::new(child.stdout.as_mut().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|s| s.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server {
            child: Some(child),
            addr,
        }
    }

    /// Ctrl-C; its exit status and the rest of its output.
    pub fn stop(mut self) -> (Option<i32>, String) {
        let mut child = self.child.take().unwrap();
        unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
        let mut rest = String::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut rest)
            .unwrap();
        (child.wait().unwrap().code(), rest)
    }

    /// `GET path`: the status and the body.
    pub fn get(&self, path: &str) -> (u16, String) {
        request(
            &self.addr,
            &format!("GET {path} HTTP/1.1\r\nHost: {}\r\n", self.addr),
            "",
        )
    }

    /// `POST path` with `body`, from one of the server's own pages.
    pub fn post(&self, path: &str, body: &str) -> (u16, String) {
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: {0}\r\nOrigin: http://{0}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {1}\r\n",
            self.addr,
            body.len()
        );
        request(&self.addr, &head, body)
    }

    /// `GET path` as JSON, which must answer 200.
    pub fn json(&self, path: &str) -> Value {
        let (status, body) = self.get(path);
        assert_eq!(status, 200, "{path}: {body}");
        serde_json::from_str(&body).unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Sends a request (`head`: its request line and headers) and reads the whole answer.
pub fn request(addr: &str, head: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    write!(s, "{head}Connection: close\r\n\r\n{body}").unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, dechunk(&text, body))
}

/// The body of a chunked answer, joined.
fn dechunk(head: &str, body: &str) -> String {
    if !head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        return body.to_string();
    }
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&tail[..n]);
        rest = &tail[n + 2..];
    }
    out
}

/// A stream of server-sent events.
pub struct Events {
    reader: BufReader<TcpStream>,
}

impl Events {
    /// Opens `path` on the server.
    pub fn open(server: &Server, path: &str) -> Events {
        let mut s = TcpStream::connect(&server.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        write!(s, "GET {path} HTTP/1.1\r\nHost: {}\r\n\r\n", server.addr).unwrap();
        let mut reader = BufReader::new(s);
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert!(line.starts_with("HTTP/1.1 200"), "{line}");
        loop {
            line.clear();
            reader.read_line(&mut line).unwrap();
            if line == "\r\n" {
                break;
            }
        }
        Events { reader }
    }

    /// The next event: its name and data (comments skipped).
    pub fn next(&mut self) -> (String, Value) {
        let (mut name, mut data) = (String::new(), String::new());
        loop {
            let mut line = String::new();
            assert!(
                self.reader.read_line(&mut line).unwrap() > 0,
                "stream ended"
            );
            let line = line.trim_end();
            if let Some(n) = line.strip_prefix("event: ") {
                name = n.to_string();
            } else if let Some(d) = line.strip_prefix("data: ") {
                data = d.to_string();
            } else if line.is_empty() && !name.is_empty() {
                return (name, serde_json::from_str(&data).unwrap());
            }
        }
    }
}

/// A tournament and a match in one root: `(root, tournament id, match id)`.
pub fn runs() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let t = root.path().join("t");
    ok(&[
        "tournament",
        "--players",
        "RandomMove,CaptureLargest,PossibleBoardList",
        "-n",
        "2",
        "-q",
        "--out",
        t.to_str().unwrap(),
    ]);
    let m = root.path().join("m");
    ok(&[
        "match",
        "Supporter",
        "CaptureLargest",
        "--sprt",
        "elo0=0,elo1=20",
        "--games",
        "20",
        "-q",
        "--out",
        m.to_str().unwrap(),
    ]);
    root
}

/// The 64 cells of `view` as the app draws them.
pub fn cells_of(view: &FogView) -> Vec<String> {
    let mut out = Vec::new();
    for rank in (0..8u32).rev() {
        for file in 0..8u32 {
            let sq = fow_variants::Square::new(rank * 8 + file);
            out.push(if !view.visible().contains(sq) {
                "?".into()
            } else {
                view.piece_at(sq)
                    .map_or(String::new(), |p| p.char().to_string())
            });
        }
    }
    out
}

/// The 64 cells of the whole board of `pos`, as the app draws the true board.
pub fn board_cells(pos: &fow_variants::Position) -> Vec<String> {
    (0..64u32)
        .map(|i| {
            let sq = fow_variants::Square::new((7 - i / 8) * 8 + i % 8);
            pos.board()
                .piece_at(sq)
                .map_or(String::new(), |p| p.char().to_string())
        })
        .collect()
}

/// The one game played under `root`'s `play/` (a game of `fow web`), read back.
pub fn played_game(root: &Path) -> fow_records::SavedGame {
    let play = root.join("play");
    let dir = std::fs::read_dir(&play)
        .unwrap()
        .next()
        .expect("a game saved under play/")
        .unwrap()
        .path();
    fow_records::load_game(
        &dir.join(fow_records::GAMES_FILE),
        Some(0),
        &fow_variants::RuleSet::thesis(),
    )
    .unwrap()
}

/// A copy of the run in `from` as `to` with only its first `n` games, as a run being
/// written looks; the lines of `from`'s games.csv (header first), to append more.
pub fn first_games(from: &Path, to: &Path, n: usize) -> Vec<String> {
    std::fs::create_dir_all(to).unwrap();
    std::fs::copy(from.join("tournament.json"), to.join("tournament.json")).unwrap();
    let games = std::fs::read_to_string(from.join(fow_records::GAMES_FILE)).unwrap();
    let lines: Vec<String> = games.lines().map(String::from).collect();
    std::fs::write(
        to.join(fow_records::GAMES_FILE),
        lines[..=n].join("\n") + "\n",
    )
    .unwrap();
    lines
}

/// The live-feed header of `game` played as game `id` of round 0 from the start, as a
/// run with `--live` writes it.
pub fn live_header(game: &fow_records::SavedGame, id: u64) -> fow_records::LiveHeader {
    fow_records::LiveHeader {
        id,
        round: 0,
        white: game.white.clone(),
        black: game.black.clone(),
        rules: fow_variants::RuleSet::thesis(),
        start: fow_variants::Position::startpos().fen(),
    }
}
