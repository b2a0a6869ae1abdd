//! Helpers shared by the end-to-end tests: running `fow`, asserting clean failures,
//! small tournaments, and checks for optional tools and finished processes.
#![allow(dead_code)] // each test binary uses some of them

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use fow_records::{read_games, GameRow, GAMES_FILE};

pub mod help;
pub mod web;

/// The `fow` binary under test.
pub const FOW: &str = env!("CARGO_BIN_EXE_fow");

/// Runs `fow` with `args`.
pub fn fow(args: &[&str]) -> Output {
    Command::new(FOW).args(args).output().expect("fow runs")
}

/// Runs `fow`, asserts success and returns its standard output.
pub fn ok(args: &[&str]) -> String {
    let out = fow(args);
    assert!(
        out.status.success(),
        "fow {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Asserts a clean failure: exit 2, one line on stderr naming `needle`, no panic trace.
pub fn fails(args: &[&str], needle: &str) {
    let out = fow(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "fow {args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(needle), "'{needle}' not in: {err}");
}

/// Whether python3 runs; says the test is skipped when it does not (`what` needs it).
pub fn python(what: &str) -> bool {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: python3 is not available ({what})");
    }
    ok
}

/// Runs `fow tournament` quietly and returns its folder and games.
pub fn tournament(players: &str, games: u32, jobs: &str) -> (tempfile::TempDir, Vec<GameRow>) {
    tournament_with(players, games, jobs, &[])
}

/// [`tournament`] with more options.
pub fn tournament_with(
    players: &str,
    games: u32,
    jobs: &str,
    more: &[&str],
) -> (tempfile::TempDir, Vec<GameRow>) {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(FOW)
        .args(["tournament", "--players", players, "-q", "--jobs", jobs])
        .args(["--games", &games.to_string()])
        .args(more)
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = read_games(&dir.path().join(GAMES_FILE)).unwrap();
    (dir, games)
}

/// Whether process `pid` is gone (no zombie either); a reused pid runs something else.
pub fn gone(pid: u32, script: &str) -> bool {
    match fs::read(format!("/proc/{pid}/cmdline")) {
        Err(_) => true,
        Ok(cmd) => !String::from_utf8_lossy(&cmd).contains(script) && !cmd.is_empty(),
    }
}

/// A text no other process has on its command line: given to a test bot as an extra
/// argument, it lets [`no_process_with`] find every process of that bot, including one
/// killed before it could log its pid (on a busy machine an interpreter can take longer
/// to start than a startup limit under test).
pub fn token() -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    format!(
        "fow-test-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// Whether no process (zombies included) has `token` on its command line. A zombie's
/// command line is empty, so zombies are found by their parent's reaping only: the
/// arena reaps what it kills, and [`gone`] checks a known pid strictly.
pub fn no_process_with(token: &str) -> bool {
    let Ok(procs) = fs::read_dir("/proc") else {
        return true;
    };
    !procs.flatten().any(|p| {
        fs::read(p.path().join("cmdline"))
            .is_ok_and(|c| String::from_utf8_lossy(&c).contains(token))
    })
}

/// The pid a test bot wrote first to its stderr log (`pid N ...`), if it wrote one.
pub fn logged_pid(log: &Path) -> Option<u32> {
    let text = fs::read_to_string(log).ok()?;
    text.split_whitespace().nth(1)?.parse().ok()
}

/// Reads a file the test expects to exist.
pub fn read(dir: &Path, name: &str) -> Vec<u8> {
    fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Rewrites the results folder `dir` as fow wrote it before folder kinds and tags: no
/// `kind` and no `tag` in its tournament.json, no tag column in its games.csv (for the
/// checks such older folders still get, and the edits they cannot show).
pub fn as_before_tags(dir: &Path) {
    let cfg = dir.join("tournament.json");
    let mut json: serde_json::Value =
        serde_json::from_slice(&read(dir, "tournament.json")).unwrap();
    let o = json.as_object_mut().unwrap();
    o.remove("kind");
    o.remove("tag");
    fs::write(&cfg, serde_json::to_string_pretty(&json).unwrap() + "\n").unwrap();
    let games = dir.join(GAMES_FILE);
    let mut r = csv::Reader::from_path(&games).unwrap();
    let header = r.headers().unwrap().clone();
    let keep: Vec<usize> = (0..header.len()).filter(|&i| &header[i] != "tag").collect();
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(keep.iter().map(|&i| &header[i])).unwrap();
    for rec in r.records() {
        let rec = rec.unwrap();
        w.write_record(keep.iter().map(|&i| &rec[i])).unwrap();
    }
    fs::write(&games, w.into_inner().unwrap()).unwrap();
}

/// Writes an analysis CSV for `game` as `fow analyze` does: the mover's value drops by
/// `drop` centipawns at ply `blunder` (leaving its king capturable there), else nothing
/// changes; `best` is the engine's preferred move of every ply.
pub fn analysis_csv(
    game: &fow_records::SavedGame,
    blunder: usize,
    drop: f64,
    best: &str,
    path: &Path,
) {
    let mut w = csv::Writer::from_path(path).unwrap();
    let mut cp = 0.0;
    for (i, m) in game.moves.iter().enumerate() {
        let ply = i + 1;
        let after = if ply == blunder { cp - drop } else { cp };
        let row = fow_analysis::MoveAnalysis::new(
            ply,
            ply % 2 == 1,
            m.uci(),
            m.uci(),
            cp,
            after,
            best.into(),
            ply == blunder,
        );
        w.serialize(row).unwrap();
        cp = after;
    }
    w.flush().unwrap();
}
