//! `fow play` driven through a pipe: messages for wrong entries, `moves`, whole games
//! against RandomMove with a fixed seed, `resign`, `quit`, the end of the input, and the
//! saved folder.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::{fails, FOW};
use fow_arena::{play_game, view_diagram, GameOptions};
use fow_players::{Budget, GameStart, Player, PlayerSpec};
use fow_records::{load_game, read_games, GameRecord, GameRow, GAMES_FILE};
use fow_variants::{san_among, Color, FogView, Move, Observation, Position, RuleSet};

/// Runs `fow play` with `args`, feeding `script` to its stdin.
fn play(args: &[&str], script: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(FOW)
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let script = script.as_ref().to_vec();
    // Written from a thread: the program may stop reading early (a game that ends).
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&script);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "fow play failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn saved(dir: &Path) -> GameRow {
    let rows = read_games(&dir.join(GAMES_FILE)).unwrap();
    assert_eq!(rows.len(), 1);
    rows[0].clone()
}

#[test]
fn wrong_entries_get_a_message_and_a_new_prompt() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("g");
    // Wrong entries on the first move, then 1. d4, 2. Nf3 and an ambiguous knight move.
    let script = b"e2e5\nhello\n\nNf4\n\xff\xfe\nmoves\nhelp\nboard\nd4\nNf3\nNd2\nresign\n";
    let out = stdout(&play(
        &[
            "--bot",
            "RandomMove",
            "--seed",
            "3",
            "--ascii",
            "--out",
            out_dir.to_str().unwrap(),
        ],
        script,
    ));
    assert!(out.starts_with("You play White against RandomMove (rules thesis, seed 3)."));
    assert_eq!(
        out.matches("white> ").count(),
        12,
        "one prompt per line: {out}"
    );
    assert!(out.contains("white> e2e5\nillegal move 'e2e5'; type moves to list your legal moves\n"));
    assert!(
        out.contains("white> hello\ncannot read move 'hello'"),
        "{out}"
    );
    assert!(out.contains("white> \nType a move (e4 or e2e4)"), "{out}");
    assert!(out.contains("white> Nf4\nillegal move 'Nf4'"), "{out}");
    assert!(
        out.contains("white> moves\n20 legal moves:\n  Na3 Nc3 Nf3 Nh3 a3 b3"),
        "{out}"
    );
    assert!(out.contains("white> \nthat line is not valid UTF-8 text; type help for help\n"));
    assert!(out.contains("white> help\nEnter a move in SAN"), "{out}");
    assert!(out.contains("moves    list your legal moves"));
    // White's starting view: four ranks of fog, then its half.
    let start = view_diagram(
        &FogView::of(&Position::startpos(), Color::White, &RuleSet::thesis()),
        false,
    );
    assert!(start.starts_with("8 ? ? ? ? ? ? ? ?\n"));
    assert_eq!(
        out.matches(&start).count(),
        2,
        "the turn and `board`: {out}"
    );
    assert!(out.contains("Game over: 0-1 (you lose), resignation: White resigned."));
    assert!(
        out.contains("white> Nd2\nambiguous move 'Nd2' (could be Nbd2, Nfd2)"),
        "{out}"
    );
    let row = saved(&out_dir);
    assert_eq!(
        (row.white.as_str(), row.black.as_str(), row.seed),
        (
            "Human",
            "RandomMove",
            fow_records::seed::game_seed(
                &fow_records::seed::SeedKey::public(3),
                "Human",
                "RandomMove",
                0
            )
        )
    );
    assert_eq!(
        (
            row.result.as_str(),
            row.reason.as_str(),
            row.detail.as_str()
        ),
        ("0-1", "resignation", "White resigned")
    );
    assert_eq!(row.plies, 4);
    assert!(row.moves.starts_with("d2d4 ") && row.moves.contains(" g1f3 "));
}

#[test]
fn quit_and_end_of_input_lose_and_save() {
    let dir = tempfile::tempdir().unwrap();
    for (script, color, detail, result) in [
        ("quit\n", "black", "Black quit", "1-0"),
        ("", "white", "White left (end of input)", "0-1"),
        ("e4\n", "white", "White left (end of input)", "0-1"),
    ] {
        let out_dir = dir.path().join(format!("g{}", script.len()));
        let out = stdout(&play(
            &[
                "--bot",
                "CaptureLargest",
                "--color",
                color,
                "--seed",
                "9",
                "--out",
                out_dir.to_str().unwrap(),
            ],
            script,
        ));
        assert!(out.contains(&format!("resignation: {detail}.")), "{out}");
        let row = saved(&out_dir);
        assert_eq!((row.result.as_str(), row.detail.as_str()), (result, detail));
        assert_eq!(row.reason, "resignation");
        // The saved folder replays: the same moves.
        let g = load_game(&out_dir, None, &RuleSet::chesscom()).unwrap();
        assert_eq!(g.rules, RuleSet::thesis(), "rules from tournament.json");
        assert_eq!(g.moves.len(), row.plies);
        if script == "e4\n" {
            assert_eq!(g.moves[0].uci(), "e2e4");
            assert!(out.contains("You play e4.\n"), "{out}");
        }
        if color == "black" {
            assert!(out.contains("White has moved.\n"), "{out}");
            assert_eq!(row.plies, 1, "the bot's first move");
        }
    }
}

/// Plays like a simple human: takes the king when it can, else the heaviest visible
/// piece, else its first legal move. Records what it would type (SAN on even turns, UCI
/// on odd ones) and the views it saw.
struct Scripted {
    typed: Vec<String>,
    views: Vec<FogView>,
}

impl Player for Scripted {
    fn start(&mut self, _: &GameStart) {}

    fn choose(&mut self, obs: &Observation, _: &Budget) -> Move {
        let moves = obs.legal_moves();
        // Roles are ordered pawn < ... < king, so a king capture comes first.
        let m = moves
            .iter()
            .filter(|m| m.is_capture())
            .max_by_key(|m| m.capture.map(|r| r as u32))
            .copied()
            .unwrap_or(moves[0]);
        let text = if self.typed.len().is_multiple_of(2) {
            san_among(&m, moves)
        } else {
            m.uci()
        };
        self.typed.push(text);
        self.views.push(obs.view().clone());
        m
    }
}

/// The game `fow play` must produce when the human types what [`Scripted`] types.
fn expected(color: Color, seed: u64) -> (GameRecord, Scripted) {
    let mut human = Scripted {
        typed: Vec::new(),
        views: Vec::new(),
    };
    let mut bot = "RandomMove".parse::<PlayerSpec>().unwrap().build().unwrap();
    let opts = GameOptions::new(RuleSet::thesis());
    // `fow play --seed S` plays the game seed a one-game tournament of seed S derives.
    let (w, b) = match color {
        Color::White => ("Human", "RandomMove"),
        Color::Black => ("RandomMove", "Human"),
    };
    let game = fow_records::seed::game_seed(&fow_records::seed::SeedKey::public(seed), w, b, 0);
    let rec = match color {
        Color::White => play_game(&mut human, bot.as_mut(), w, b, game, &opts),
        Color::Black => play_game(bot.as_mut(), &mut human, w, b, game, &opts),
    };
    (rec, human)
}

#[test]
fn whole_games_against_random_move_replay_from_the_saved_folder() {
    let dir = tempfile::tempdir().unwrap();
    for (color, seed) in [(Color::White, 11u64), (Color::Black, 12)] {
        let (rec, human) = expected(color, seed);
        assert_eq!(rec.reason.to_string(), "king captured", "a finished game");
        let out_dir = dir.path().join(format!("{seed}"));
        let script = human.typed.join("\n") + "\n";
        let name = if color.is_white() { "white" } else { "black" };
        let out = stdout(&play(
            &[
                "--bot",
                "RandomMove",
                "--color",
                name,
                "--seed",
                &seed.to_string(),
                "--ascii",
                "--out",
                out_dir.to_str().unwrap(),
            ],
            &script,
        ));
        let row = saved(&out_dir);
        assert_eq!(row.moves, rec.moves_uci(), "{out}");
        assert_eq!(row.result, rec.result.to_string());
        assert_eq!(row.reason, "king captured");
        // The human saw exactly its fogged views, in order, and never the true board
        // before the end.
        let (during, end) = out.split_once("\nGame over: ").unwrap();
        let mut rest = during;
        for v in &human.views {
            let d = view_diagram(v, false);
            let at = rest
                .find(&d)
                .unwrap_or_else(|| panic!("view not shown:\n{d}"));
            rest = &rest[at + d.len()..];
        }
        let mut pos = Position::startpos();
        for m in &rec.moves {
            pos.play(m);
        }
        let truth = fow_variants::board_diagram(pos.board(), false);
        assert!(!during.contains(&truth));
        assert!(
            end.contains(&format!("The true board at the end:\n{truth}")),
            "{end}"
        );
        // The whole game in SAN, numbered.
        let first = Position::startpos().san(&rec.moves[0], &RuleSet::thesis());
        assert!(
            end.contains(&format!("The whole game:\n1. {first} ")),
            "{end}"
        );
        let verdict = if rec.result.winner() == Some(color) {
            "you win"
        } else {
            "you lose"
        };
        assert!(end.starts_with(&format!("{} ({verdict}), king captured.", rec.result)));
        assert!(end.contains(&format!("Saved to {}", out_dir.display())));
        let g = load_game(&out_dir, None, &RuleSet::thesis()).unwrap();
        assert_eq!(g.moves, rec.moves);
        assert_eq!(g.seed, Some(rec.seed));
        assert_eq!(g.player(color), "Human");
    }
}

#[test]
fn random_colour_comes_from_the_seed() {
    let dir = tempfile::tempdir().unwrap();
    let mut seen = Vec::new();
    for seed in 0..6 {
        let run = |name: &str| {
            let out_dir = dir.path().join(format!("{name}{seed}"));
            let args = [
                "--bot",
                "RandomMove",
                "--color",
                "random",
                "--seed",
                &seed.to_string(),
                "--out",
                out_dir.to_str().unwrap(),
            ];
            stdout(&play(&args, "resign\n"))
        };
        let out = run("a");
        let white = out.starts_with("You play White");
        assert!(white || out.starts_with("You play Black"), "{out}");
        // The same seed, the same colour.
        let again = run("b");
        assert_eq!(again.starts_with("You play White"), white);
        seen.push(white);
    }
    assert!(seen.contains(&true) && seen.contains(&false), "{seen:?}");
}

#[test]
fn bad_options_fail_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    fails(&["play", "--bot", "NoSuchBot"], "NoSuchBot");
    fails(&["play", "--bot", "RandomMove", "--rules", "nope"], "nope");
    fails(
        &["play", "--bot", "RandomMove", "--name", "RandomMove"],
        "--name",
    );
    let out_dir = dir.path().join("g");
    let o = out_dir.to_str().unwrap();
    stdout(&play(&["--bot", "RandomMove", "--out", o], "resign\n"));
    fails(
        &["play", "--bot", "RandomMove", "--out", o],
        "already holds games",
    );
}

/// Ctrl-C at the prompt saves the game as left (a loss, like `quit`) and exits 130. The
/// signal comes once the prompt is out (the handler is in place by then), and stdin is
/// closed after it: whether the signal interrupts the read or comes just before it, the
/// outcome is the same, with no timing involved.
#[test]
fn ctrl_c_saves_the_game_and_exits_130() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("g");
    let mut child = Command::new(FOW)
        .args(["play", "--bot", "CaptureLargest", "--seed", "9", "--out"])
        .arg(&out_dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut seen = Vec::new();
    let mut prompt = |seen: &mut Vec<u8>, n: usize| {
        while String::from_utf8_lossy(seen).matches("white> ").count() < n {
            let mut buf = [0u8; 4096];
            let k = stdout.read(&mut buf).unwrap();
            assert!(k > 0, "no prompt: {}", String::from_utf8_lossy(seen));
            seen.extend_from_slice(&buf[..k]);
        }
    };
    prompt(&mut seen, 1);
    stdin.write_all(b"e4\n").unwrap();
    stdin.flush().unwrap();
    prompt(&mut seen, 2);
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    drop(stdin);
    stdout.read_to_end(&mut seen).unwrap();
    let status = child.wait().unwrap();
    let out = String::from_utf8(seen).unwrap();
    assert_eq!(status.code(), Some(130), "{out}");
    assert!(
        out.contains("Game over: 0-1 (you lose), resignation: White left (interrupted)."),
        "{out}"
    );
    assert!(out.contains("Saved to "), "{out}");
    let row = saved(&out_dir);
    assert_eq!(
        (
            row.result.as_str(),
            row.reason.as_str(),
            row.detail.as_str()
        ),
        ("0-1", "resignation", "White left (interrupted)")
    );
    assert_eq!(row.plies, 2, "e4 and the bot's reply");
}

/// The same through the library: a read that fails after the interrupt flag is set (as
/// the read a Ctrl-C interrupts does) stops the human as interrupted, not as the end of
/// the input.
#[test]
fn an_interrupted_read_stops_the_human_as_interrupted() {
    use fow_arena::{HumanPlayer, HumanStop, Interruptible};
    use std::sync::atomic::{AtomicBool, Ordering};
    static FLAG: AtomicBool = AtomicBool::new(false);
    /// Gives `e4` once, then sets the flag and fails as a signal does.
    struct CtrlC(bool);
    impl std::io::Read for CtrlC {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if !self.0 {
                self.0 = true;
                buf[..3].copy_from_slice(b"e4\n");
                return Ok(3);
            }
            FLAG.store(true, Ordering::SeqCst);
            Err(std::io::ErrorKind::Interrupted.into())
        }
    }
    let input = std::io::BufReader::new(Interruptible::new(CtrlC(false), &FLAG));
    let mut human =
        HumanPlayer::new(Box::new(input), Box::new(std::io::sink()), false).interrupted_by(&FLAG);
    let mut bot = "RandomMove".parse::<PlayerSpec>().unwrap().build().unwrap();
    let opts = GameOptions::new(RuleSet::thesis());
    let rec = play_game(&mut human, bot.as_mut(), "Human", "RandomMove", 1, &opts);
    assert_eq!(human.stopped(), Some(HumanStop::Interrupted));
    assert_eq!(rec.moves.len(), 2);
    assert_eq!(rec.moves[0].uci(), "e2e4");
}
