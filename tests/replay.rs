//! `fow replay`: the printed replay against the rules engine, errors, the fallback without
//! a terminal, the interactive viewer driven through tmux, and the HTML file's content
//! (the browser itself is in tests/browser.rs).

mod common;
use common::*;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Seconds after which a wait on the terminal viewer counts as a hang.
const HANG: u64 = 180;

use fow_records::{load_game, SavedGame};
use fow_variants::shakmaty::{File, Rank};
use fow_variants::{Color, Position, RuleSet, Square};

const CHESSCOM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/chesscom-fow");

/// One ply of `--print --ascii` output: its first line, the lines before the boards, and
/// the boards (true, White's, Black's), rank 8 first.
struct PrintedPly {
    head: String,
    notes: Vec<String>,
    boards: [[[char; 8]; 8]; 3],
}

fn parse_print(out: &str) -> Vec<PrintedPly> {
    let lines: Vec<&str> = out.lines().collect();
    let mut plies = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].starts_with("ply ") {
            i += 1;
            continue;
        }
        let head = lines[i].to_string();
        i += 1;
        let mut notes = Vec::new();
        while !lines[i].starts_with("true board") {
            notes.push(lines[i].to_string());
            i += 1;
        }
        let mut boards = [[['\0'; 8]; 8]; 3];
        for (row, rank) in (1..=8).rev().enumerate() {
            let line = lines[i + 1 + row];
            for (k, board) in boards.iter_mut().enumerate() {
                let col = &line.get(k * 22..).unwrap_or("");
                assert!(col.starts_with(&rank.to_string()), "rank label: {line:?}");
                for (f, cell) in board[row].iter_mut().enumerate() {
                    *cell = col.as_bytes()[2 + 2 * f] as char;
                }
            }
        }
        assert!(lines[i + 9].trim_start().starts_with("a b c d e f g h"));
        i += 10;
        plies.push(PrintedPly {
            head,
            notes,
            boards,
        });
    }
    plies
}

/// Row (rank 8 first) and column of a square in a parsed board.
fn cell(sq: Square) -> (usize, usize) {
    (7 - sq.rank() as usize, sq.file() as usize)
}

/// Checks every printed ply against the rules engine: the true board, and each view
/// showing exactly the squares that side sees (fog `?` elsewhere, so no hidden enemy
/// piece ever appears in it).
fn check_against_engine(plies: &[PrintedPly], game: &SavedGame) {
    assert_eq!(plies.len(), game.moves.len() + 1);
    let mut pos: Position = game.start.clone();
    let mut hidden_enemies = 0;
    for (n, ply) in plies.iter().enumerate() {
        assert!(ply.head.starts_with(&format!("ply {n}: ")), "{}", ply.head);
        if n > 0 {
            let m = &game.moves[n - 1];
            let number = if pos.turn() == Color::White {
                format!("{}. ", pos.fullmoves())
            } else {
                format!("{}... ", pos.fullmoves())
            };
            let text = format!(
                "ply {n}: {number}{} ({}), ",
                pos.san(m, &game.rules),
                m.uci()
            );
            assert!(ply.head.starts_with(&text), "{} is not {text}", ply.head);
            pos.play(m);
        }
        for sq in Square::ALL {
            let (r, f) = cell(sq);
            let truth = pos.board().piece_at(sq).map_or('.', |p| p.char());
            assert_eq!(ply.boards[0][r][f], truth, "ply {n} {sq} true board");
            for (k, color) in [(1, Color::White), (2, Color::Black)] {
                let shown = ply.boards[k][r][f];
                if pos.visible(color, &game.rules).contains(sq) {
                    assert_eq!(shown, truth, "ply {n} {sq} {color:?}'s view");
                } else {
                    assert_eq!(shown, '?', "ply {n} {sq}: fog in {color:?}'s view");
                    if pos.board().piece_at(sq).is_some_and(|p| p.color != color) {
                        hidden_enemies += 1;
                    }
                }
                if let Some(p) = pos.board().piece_at(sq).filter(|p| p.color == color) {
                    assert_eq!(shown, p.char(), "ply {n}: own piece on {sq} always seen");
                }
            }
        }
    }
    assert!(hidden_enemies > 0, "the game never hid an enemy piece");
}

#[test]
fn print_shows_a_chesscom_game_ply_by_ply() {
    let out = ok(&["replay", CHESSCOM, "--game", "1", "--print", "--ascii"]);
    let head: Vec<&str> = out.lines().take(2).collect();
    assert!(
        head[0].ends_with("game-000.pgn game 1: chaodins (White) vs oferwald (Black)"),
        "{}",
        head[0]
    );
    assert_eq!(
        head[1],
        "rules chesscom, 36 plies, result 0-1, Black wins (White resigned • 0-1)"
    );
    let game = load_game(Path::new(CHESSCOM), Some(1), &RuleSet::thesis()).unwrap();
    let plies = parse_print(&out);
    check_against_engine(&plies, &game);
    assert_eq!(plies[0].head, "ply 0: start position");
    // 14. Ke1c1 castles long: the rook jumps to d1.
    assert_eq!(plies[1].head, "ply 1: 1. d4 (d2d4), no capture");
    assert_eq!(plies[27].head, "ply 27: 14. O-O-O (e1c1), no capture");
    assert_eq!(plies[27].boards[0][7][3], 'R');
    // The last move takes White's queen; Black's view changed on the capture square.
    let last = &plies[36];
    assert_eq!(
        last.head,
        "ply 36: 18... Nxb4 (c6b4), captures White's queen on b4"
    );
    assert!(
        last.notes[0].starts_with("views changed: White "),
        "{:?}",
        last.notes
    );
    assert!(
        last.notes[0].contains("Black 5 squares (c2 d3 b4 b5 c6)"),
        "{:?}",
        last.notes
    );
    assert!(out.ends_with("\nresult: 0-1, Black wins (White resigned • 0-1)\n"));
    // Unicode pieces by default: the same layout with symbols and shaded fog.
    let uni = ok(&["replay", CHESSCOM, "--game", "1", "--print"]);
    assert!(
        uni.contains("8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜     8 ░ ░ ░ ░ ░ ░ ░ ░     8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜"),
        "{uni}"
    );
}

#[test]
fn print_shows_a_tournament_game_from_its_results_folder() {
    let (dir, games) = tournament("RandomMove,CaptureKing", 1, "1");
    assert_eq!(games.len(), 2);
    let folder = dir.path().to_str().unwrap();
    for row in &games {
        let id = row.id.to_string();
        let out = ok(&["replay", folder, "--game", &id, "--print", "--ascii"]);
        let first = out.lines().next().unwrap();
        assert!(
            first.ends_with(&format!(
                "game {id}: {} (White) vs {} (Black)",
                row.white, row.black
            )),
            "{first}"
        );
        assert!(
            out.lines().nth(1).unwrap().starts_with(&format!(
                "rules thesis, seed {}, {} plies, result {}",
                row.seed, row.plies, row.result
            )),
            "{out}"
        );
        assert!(
            out.trim_end().ends_with(&format!("({})", row.reason)),
            "{out}"
        );
        let game = load_game(dir.path(), Some(row.id), &RuleSet::thesis()).unwrap();
        let ucis: Vec<String> = game.moves.iter().map(|m| m.uci()).collect();
        assert_eq!(ucis.join(" "), row.moves);
        check_against_engine(&parse_print(&out), &game);
    }
}

#[test]
fn bad_games_and_files_are_one_clear_error() {
    fails(
        &["replay", CHESSCOM, "--game", "99", "--print"],
        "has no game 99",
    );
    fails(&["replay", CHESSCOM, "--game", "0"], "numbered 1 to 80");
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.pgn");
    fs::write(
        &bad,
        "[White \"a\"]\n[Black \"b\"]\n\n1. e2e4 e7e5 2. e4e5 *\n",
    )
    .unwrap();
    let path = bad.to_str().unwrap();
    fails(&["replay", path, "--print"], "bad.pgn");
    fails(&["replay", path, "--print"], "game 1");
    fails(&["replay", path, "--print"], "e4e5");
    let junk = dir.path().join("games.csv");
    fs::write(&junk, "this is not a games file\n1,2\n").unwrap();
    fails(&["replay", junk.to_str().unwrap(), "--print"], "games.csv");
    // A missing file: one line naming it, and a non-zero exit.
    let out = fow(&["replay", "/nonexistent/x.pgn", "--print"]);
    assert!(matches!(out.status.code(), Some(1 | 2)), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/x.pgn"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

#[test]
fn without_a_terminal_it_prints() {
    // The test harness captures standard output: not a terminal, so no raw mode, no
    // waiting for keys, the same text as --print.
    let plain = fow(&["replay", CHESSCOM, "--game", "3", "--ascii"]);
    assert!(plain.status.success());
    let print = ok(&["replay", CHESSCOM, "--game", "3", "--ascii", "--print"]);
    assert_eq!(String::from_utf8(plain.stdout).unwrap(), print);
}

#[test]
fn analysis_is_shown_and_checked_against_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let game = load_game(Path::new(CHESSCOM), Some(1), &RuleSet::thesis()).unwrap();
    let csv = dir.path().join("a.csv");
    analysis_csv(&game, 5, 300.0, "a2a3", &csv);
    let a = csv.to_str().unwrap();
    let out = ok(&[
        "replay",
        CHESSCOM,
        "--game",
        "1",
        "--print",
        "--ascii",
        "--analysis",
        a,
    ]);
    assert!(out.contains("\naccuracy: White 9"), "{out}");
    let plies = parse_print(&out);
    assert_eq!(
        plies[5].notes.last().unwrap(),
        "analysis: blunder, White's win chance 50.0% -> 24.9% (drop 25.1), engine's move a3 (a2a3); left its king capturable"
    );
    // No drop, but not the engine's move (a3 in these made-up rows): excellent, not best.
    assert!(plies[4]
        .notes
        .last()
        .unwrap()
        .starts_with("analysis: excellent"));
    // The analysis of game 1 does not fit game 2.
    fails(
        &[
            "replay",
            CHESSCOM,
            "--game",
            "2",
            "--print",
            "--analysis",
            a,
        ],
        "the analysis is of another game",
    );
}

/// The HTML page's embedded game data.
fn page_data(html: &str) -> serde_json::Value {
    let start = "<script type=\"application/json\" id=\"game-data\">";
    let from = html.find(start).expect("data block") + start.len();
    let to = from + html[from..].find("</script>").unwrap();
    serde_json::from_str(&html[from..to]).unwrap()
}

#[test]
fn html_is_one_self_contained_file_with_every_ply() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("game.html");
    let printed = ok(&[
        "replay",
        CHESSCOM,
        "--game",
        "1",
        "--html",
        out.to_str().unwrap(),
    ]);
    assert!(printed.starts_with("wrote "), "{printed}");
    let html = fs::read_to_string(&out).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    for external in [
        "http:",
        "https:",
        "<link",
        " src=",
        "@import",
        "url(",
        "@font-face",
    ] {
        assert!(
            !html.contains(external),
            "the page refers outside itself: {external}"
        );
    }
    let data = page_data(&html);
    let game = load_game(Path::new(CHESSCOM), Some(1), &RuleSet::thesis()).unwrap();
    let frames = data["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 37);
    assert_eq!(data["outcome"], "0-1, Black wins (White resigned • 0-1)");
    let mut pos = game.start.clone();
    for (n, f) in frames.iter().enumerate() {
        if n > 0 {
            assert_eq!(f["move"]["uci"], game.moves[n - 1].uci());
            pos.play(&game.moves[n - 1]);
        }
        for (key, color) in [
            ("board", None),
            ("white", Some(Color::White)),
            ("black", Some(Color::Black)),
        ] {
            let cells = f[key].as_array().unwrap();
            assert_eq!(cells.len(), 64);
            for (i, c) in cells.iter().enumerate() {
                let sq = Square::from_coords(File::new(i as u32 % 8), Rank::new(7 - i as u32 / 8));
                let seen = color.is_none_or(|c| pos.visible(c, &game.rules).contains(sq));
                let want = match pos.board().piece_at(sq) {
                    _ if !seen => "?".to_string(),
                    Some(p) => p.char().to_string(),
                    None => String::new(),
                };
                assert_eq!(c.as_str().unwrap(), want, "ply {n} {key} {sq}");
            }
        }
    }
    // Player names cannot break out of the page.
    let pgn = dir.path().join("x.pgn");
    fs::write(
        &pgn,
        "[White \"</script><b>x\"]\n[Black \"a&b\"]\n\n1. e2e4 e7e5 *\n",
    )
    .unwrap();
    let out2 = dir.path().join("x.html");
    ok(&[
        "replay",
        pgn.to_str().unwrap(),
        "--html",
        out2.to_str().unwrap(),
    ]);
    let html = fs::read_to_string(&out2).unwrap();
    assert_eq!(
        html.matches("</script>").count(),
        2,
        "only the page's own scripts end"
    );
    assert!(
        html.contains("<title>&lt;/script&gt;&lt;b&gt;x vs a&amp;b"),
        "{html}"
    );
    assert_eq!(page_data(&html)["white"], "</script><b>x");
}

/// A tmux server of its own for one test, killed at the end.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn cmd(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("tmux runs")
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.cmd(&["capture-pane", "-p", "-t", "replay"]).stdout)
            .into_owned()
    }

    /// Waits until the screen shows every one of `texts` and returns it ([`HANG`] at most:
    /// a guard against a hung viewer, not a time limit on a busy machine).
    /// Callers include the key help, the last line drawn, so the screen is complete.
    fn wait_for(&self, texts: &[&str]) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if texts.iter().all(|t| s.contains(t)) {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(HANG),
                "not all of {texts:?} on:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "replay"];
        args.extend_from_slice(keys);
        assert!(self.cmd(&args).status.success());
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd(&["kill-server"]);
    }
}

#[test]
fn interactive_viewer_steps_with_keys_and_quits_cleanly() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("skipped: tmux is not installed (the interactive viewer's test needs it)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let rc: PathBuf = dir.path().join("rc");
    let tmux = Tmux {
        socket: format!("fow-replay-test-{}", std::process::id()),
    };
    let command = format!(
        "{FOW} replay {CHESSCOM} --game 1 --ascii; echo $? > {}.tmp; mv {0}.tmp {0}; sleep 60",
        rc.display()
    );
    let started = tmux.cmd(&[
        "new-session",
        "-d",
        "-s",
        "replay",
        "-x",
        "100",
        "-y",
        "32",
        &command,
    ]);
    assert!(started.status.success(), "{started:?}");
    // The key help is the last line drawn: waiting for it too means a whole screen.
    const HELP: &str = "q/Esc quit";
    let s = tmux.wait_for(&["ply 0/36: start position", HELP]);
    assert!(
        s.contains("true board") && s.contains("White sees") && s.contains("Black sees"),
        "{s}"
    );
    // Rank 8 at the start: Black's pieces, fog for White, seen by Black.
    assert!(
        s.contains("8 r n b q k b n r     8 ????????????????    8 r n b q k b n r"),
        "{s}"
    );
    tmux.keys(&["Right", "l", "Space"]);
    tmux.wait_for(&["ply 3/36: 2. e4 (e2e4), no capture", HELP]);
    tmux.keys(&["Left"]);
    tmux.wait_for(&["ply 2/36: 1... e6 (e7e6)", HELP]);
    tmux.keys(&["End"]);
    tmux.wait_for(&[
        "ply 36/36: 18... Nxb4 (c6b4), captures White's queen on b4",
        "end: 0-1, Black wins (White resigned",
        HELP,
    ]);
    tmux.keys(&["g"]);
    tmux.wait_for(&["ply 0/36", HELP]);
    tmux.keys(&["G", "h"]);
    tmux.wait_for(&["ply 35/36", HELP]);
    tmux.keys(&["q"]);
    let start = Instant::now();
    while !rc.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(HANG),
            "q did not quit:\n{}",
            tmux.screen()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(fs::read_to_string(&rc).unwrap().trim(), "0");
    // Back on the normal screen: the viewer's board is gone.
    let s = tmux.screen();
    assert!(!s.contains("White sees"), "alternate screen not left:\n{s}");
}

#[test]
fn analyze_runs_the_engine_like_fow_analyze() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("a.csv");
    let engine = ["--depth", "2", "--nodes", "3000"];
    let mut args = vec![
        "analyze",
        CHESSCOM,
        "--game",
        "4",
        "--csv",
        csv.to_str().unwrap(),
    ];
    args.extend(engine);
    ok(&args);
    let from_csv = ok(&[
        "replay",
        CHESSCOM,
        "--game",
        "4",
        "--print",
        "--analysis",
        csv.to_str().unwrap(),
    ]);
    let mut args = vec!["replay", CHESSCOM, "--game", "4", "--print", "--analyze"];
    args.extend(engine);
    let analyzed = ok(&args);
    // The same analysis (MyStockfish is deterministic); only its source differs.
    let source = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("accuracy: "))
            .unwrap()
            .to_string()
    };
    assert!(source(&from_csv).ends_with(&format!("(analysis from {})", csv.display())));
    assert!(
        source(&analyzed).ends_with("(analysis MyStockfish depth 2, nodes 3000)"),
        "{}",
        source(&analyzed)
    );
    let body = |s: &str| {
        s.lines()
            .skip_while(|l| !l.starts_with("accuracy: "))
            .skip(1)
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(body(&from_csv), body(&analyzed));
    let plies = body(&analyzed).matches("\nply ").count();
    let analysed = body(&analyzed).matches("\nanalysis: ").count();
    assert!(
        plies > 10 && analysed == plies - 1,
        "{plies} plies, {analysed} analysed"
    );
    // Engine options only with --analyze, and never with a CSV as well.
    let out = fow(&["replay", CHESSCOM, "--depth", "3", "--print"]);
    assert_eq!(out.status.code(), Some(2));
    let out = fow(&["replay", CHESSCOM, "--analyze", "--analysis", "x.csv"]);
    assert_eq!(out.status.code(), Some(2));
    fails(
        &["replay", CHESSCOM, "--analyze", "--depth", "0", "--print"],
        "--depth must be 1 to 20",
    );
}
