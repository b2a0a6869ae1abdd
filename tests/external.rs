//! Bots as separate programs (`exec:cmd=...`, PROTOCOL.md): faults lose the game with the
//! reason recorded and leave no process behind, parallel games keep their messages apart,
//! a served built-in bot plays exactly its in-process games, and the Python examples play
//! a tournament. Tests that need python3 are skipped (with a message) without it.

mod common;
use common::*;

use std::fs;
use std::process::Command;

use fow_arena::{play_game, GameOptions};
use fow_players::external::protocol::OptionType;
use fow_players::external::{program_options, ExternalPlayer, ProbeError};
use fow_players::{Budget, GameStart, Player, PlayerErrorKind, PlayerSpec};
use fow_records::{read_games, Reason, GAMES_FILE, LOGS_DIR};
use fow_variants::{Observation, Position, RuleSet};

/// A tournament of RandomMove and `faulty.py MODE`: the faulty bot loses both games with
/// `reason` (or, with `None`, the games end normally), its stderr is in the logs and its
/// processes are gone.
fn fault(mode: &str, options: &str, reason: Option<Reason>) {
    if !python("the test bots are Python scripts") {
        return;
    }
    let token = token();
    let bot = format!("exec:cmd=python3 tests/bots/faulty.py {mode} {token}{options}");
    let (dir, games) = tournament(&format!("RandomMove,{bot}"), 1, "2");
    assert_eq!(games.len(), 2);
    for g in &games {
        let colour = if g.white == bot { "white" } else { "black" };
        match reason {
            Some(r) => {
                assert_eq!(g.game_reason().unwrap(), r, "{g:?}");
                let winner = g.game_result().unwrap().winner().unwrap();
                assert_eq!(winner.is_white(), g.white == "RandomMove", "{g:?}");
                // The detail names the program, or for an illegal move the move.
                let what = if r == Reason::IllegalMove {
                    "a1a1".to_string()
                } else {
                    format!("faulty.py {mode}")
                };
                assert!(g.detail.contains(&what), "{g:?}");
            }
            None => assert!(!g.game_reason().unwrap().is_fault(), "{g:?}"),
        }
        let log = dir
            .path()
            .join(LOGS_DIR)
            .join(format!("{}-{colour}.stderr", g.id));
        // A bot that timed out may have been killed before it logged its pid (its
        // interpreter still starting on a busy machine); every other bot logged it.
        match logged_pid(&log) {
            Some(pid) => assert!(gone(pid, "faulty.py"), "{mode}: process {pid} still there"),
            None => assert_eq!(reason, Some(Reason::Timeout), "{mode}: no pid in the log"),
        }
    }
    assert!(
        no_process_with(&token),
        "{mode}: a process of the bot is still there"
    );
}

#[test]
fn a_bot_that_never_answers_loses_on_time() {
    fault("silent", ",timeout=300", Some(Reason::Timeout));
}

#[test]
fn a_bot_that_never_says_hello_loses_on_time() {
    // Long enough for the interpreter to start and log its pid on a busy machine.
    fault("slowstart", ",startup=2000", Some(Reason::Timeout));
}

#[test]
fn a_bot_that_answers_garbage_loses_by_protocol_error() {
    fault("garbage", "", Some(Reason::ProtocolError));
}

#[test]
fn a_bot_that_answers_an_illegal_move_loses() {
    fault("illegal", "", Some(Reason::IllegalMove));
}

#[test]
fn a_bot_that_exits_mid_game_loses_by_crash() {
    fault("crash", "", Some(Reason::Crash));
}

#[test]
fn a_bot_that_floods_its_output_loses_by_protocol_error() {
    fault("flood", "", Some(Reason::ProtocolError));
}

#[test]
fn a_bot_that_ignores_quit_is_killed_after_its_game() {
    fault("noquit", "", None);
}

#[test]
fn the_crash_log_holds_the_programs_stderr() {
    if !python("the test bots are Python scripts") {
        return;
    }
    let (dir, games) = tournament(
        "RandomMove,exec:cmd=python3 tests/bots/faulty.py crash",
        1,
        "1",
    );
    let g = &games[0];
    assert!(g.detail.contains("exit status: 3"), "{g:?}");
    let log = fs::read_to_string(dir.path().join(LOGS_DIR).join("0-black.stderr")).unwrap();
    assert!(log.contains("crashing on purpose"), "{log}");
}

/// Plays `spec` in process and as `fow serve spec`, both against RandomMove, and returns
/// the two move lists; the served program must be gone after each game.
fn in_process_and_served(spec: &str, seed: u64, white: bool) -> (String, String) {
    in_process_and_served_from(None, spec, seed, white)
}

/// [`in_process_and_served`] from `start` (`None`: the standard start).
fn in_process_and_served_from(
    start: Option<Position>,
    spec: &str,
    seed: u64,
    white: bool,
) -> (String, String) {
    let opts = GameOptions {
        start,
        ..GameOptions::new(RuleSet::chesscom())
    };
    let play = |p: &mut dyn Player| {
        let mut other = PlayerSpec::build(&"RandomMove".parse().unwrap()).unwrap();
        let rec = if white {
            play_game(p, other.as_mut(), "a", "b", seed, &opts)
        } else {
            play_game(other.as_mut(), p, "b", "a", seed, &opts)
        };
        assert!(!rec.reason.is_fault(), "{spec}: {rec:?}");
        format!("{} {} {}", rec.result, rec.reason, rec.moves_uci())
    };
    let spec: PlayerSpec = spec.parse().unwrap();
    let mut inside = spec.build().unwrap();
    let a = play(inside.as_mut());
    let exec: PlayerSpec = format!("exec:cmd=\"{FOW} serve {spec}\"").parse().unwrap();
    let mut served = ExternalPlayer::from_spec(&exec).unwrap();
    let b = play(&mut served);
    assert!(served.pid().is_none(), "the program ends with the game");
    (a, b)
}

#[test]
fn a_served_bot_plays_exactly_the_games_of_the_built_in_one() {
    for (spec, seed) in [
        ("CaptureLargest", 1),
        ("PositionaryEvaluator", 2),
        ("SimpleStockfish:depth=2", 3),
    ] {
        for white in [true, false] {
            let (a, b) = in_process_and_served(spec, seed, white);
            assert_eq!(a, b, "{spec} as {}", if white { "White" } else { "Black" });
        }
    }
}

/// A book position with Black to move first, castling rights and hidden pieces.
const BOOK: &str = "r3k2r/ppp2ppp/2n5/3pp3/8/2N2N2/PPPP1PPP/R1B1K2R b KQkq - 0 7";

#[test]
fn a_served_belief_bot_is_told_the_start_position() {
    // The belief bots start from the position they are told: served, they must get it
    // through `new_game` to play the in-process games.
    let book: Position = BOOK.parse().unwrap();
    for (spec, seed) in [
        ("PossibleBoardList:depth=1,nodes=3000", 4),
        ("PossibleBoardGenerator:depth=1", 5),
    ] {
        for white in [true, false] {
            let (a, b) = in_process_and_served_from(Some(book.clone()), spec, seed, white);
            assert_eq!(a, b, "{spec} as {}", if white { "White" } else { "Black" });
        }
    }
}

#[test]
fn a_program_gets_the_start_position_in_new_game() {
    if !python("the test bots are Python scripts") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let book: Position = BOOK.parse().unwrap();
    for (i, start) in [None, Some(book)].into_iter().enumerate() {
        let expect = start.clone().unwrap_or_else(Position::startpos).fen();
        let opts = GameOptions {
            start,
            ..GameOptions::new(RuleSet::thesis())
        };
        let spec: PlayerSpec = "exec:cmd=python3 tests/bots/start.py".parse().unwrap();
        let mut bot = ExternalPlayer::from_spec(&spec).unwrap();
        let log = dir.path().join(format!("{i}.stderr"));
        bot.log_to(&log);
        let mut other = PlayerSpec::build(&"RandomMove".parse().unwrap()).unwrap();
        let rec = play_game(other.as_mut(), &mut bot, "RandomMove", "start", 3, &opts);
        assert!(!rec.reason.is_fault(), "{rec:?}");
        // The log is written by the time the game is over (the program is ended then).
        let text = fs::read_to_string(&log).unwrap();
        assert_eq!(text.trim_end(), format!("start {expect}"), "{text}");
    }
}

#[test]
fn the_program_is_reaped_when_its_game_ends() {
    let spec: PlayerSpec = format!("exec:cmd={FOW} serve RandomMove").parse().unwrap();
    let mut p = ExternalPlayer::from_spec(&spec).unwrap();
    p.start(&GameStart::new(
        fow_variants::Color::White,
        RuleSet::thesis(),
        1,
    ));
    let pid = p.pid().expect("started");
    assert!(!gone(pid, "serve"), "running");
    assert_eq!(p.bot_name(), Some("RandomMove"));
    p.finish(None, "no progress");
    assert!(fs::metadata(format!("/proc/{pid}")).is_err(), "reaped");
}

#[test]
fn two_jobs_play_the_same_games_as_one() {
    let players = format!(
        "RandomMove,exec:cmd={FOW} serve CaptureLargest,name=A,exec:cmd=\"{FOW} serve PositionaryEvaluator\",name=B"
    );
    // A public seed: without one, a run with program players gets a fresh secret key.
    let (d1, g1) = tournament_with(&players, 1, "1", &["--seed", "5"]);
    let (d2, g2) = tournament_with(&players, 1, "2", &["--seed", "5"]);
    assert_eq!(g1.len(), 6);
    assert!(
        g1.iter().all(|g| !g.game_reason().unwrap().is_fault()),
        "{g1:?}"
    );
    assert_eq!(
        fs::read(d1.path().join(GAMES_FILE)).unwrap(),
        fs::read(d2.path().join(GAMES_FILE)).unwrap()
    );
    assert_eq!(g1, g2);
}

#[test]
fn the_python_examples_play_a_tournament() {
    if !python("the test bots are Python scripts") {
        return;
    }
    let players = "RandomMove,CaptureLargest,exec:cmd=python3 examples/random_bot.py,name=RandomPy,exec:cmd=python3 examples/greedy_bot.py,name=GreedyPy,king_only=0";
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(FOW)
        .args([
            "tournament",
            "--players",
            players,
            "--games",
            "2",
            "-q",
            "--out",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = read_games(&dir.path().join(GAMES_FILE)).unwrap();
    assert_eq!(games.len(), 24);
    assert!(
        games.iter().all(|g| !g.game_reason().unwrap().is_fault()),
        "{games:?}"
    );
    let points = |name: &str| -> f64 {
        games
            .iter()
            .map(|g| {
                let w = g.game_result().unwrap().white_points();
                if g.white.contains(name) {
                    w
                } else if g.black.contains(name) {
                    1.0 - w
                } else {
                    0.0
                }
            })
            .sum()
    };
    assert!(points("greedy_bot") > points("random_bot") + 3.0, "{text}");
    assert!(
        text.contains("GreedyPy") && text.contains("RandomPy"),
        "{text}"
    );
}

#[test]
fn bad_exec_specs_are_refused_before_any_game() {
    for (players, needle) in [
        (
            "RandomMove,exec:cmd=no-such-program-fow",
            "program 'no-such-program-fow' not found",
        ),
        ("RandomMove,exec:name=x", "cmd=<command line> is required"),
        (
            "RandomMove,exec:cmd=python3 'x.py",
            "cannot read the command line",
        ),
        (
            "RandomMove,exec:cmd=python3,timeout=0",
            "timeout must be at least 1 ms",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new(FOW)
            .args(["tournament", "--players", players, "-q", "--out"])
            .arg(dir.path().join("t"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{players}: {err}");
        assert!(err.contains(needle), "{players}: {err}");
    }
    let out = Command::new(FOW).arg("players").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Programs") && text.contains("exec") && text.contains("startup=10000"),
        "{text}"
    );
}

/// Text from a bot (the message of its `error`, a line that is no message) holding a NUL,
/// a newline, an escape sequence, or invisible formatting characters (a right-to-left
/// override that would show "win" as "niw", zero-width spaces, a byte-order mark) never
/// reaches `games.csv` or the terminal raw: it is escaped visibly where it enters fow.
#[test]
fn control_characters_from_a_bot_are_escaped_in_games_csv() {
    if !python("the test bots are Python scripts") {
        return;
    }
    for (mode, reason, shown) in [
        (
            "control.py error",
            Reason::PlayerError,
            "the program reports an error: out\\u{0}of\\u{a}memory \\u{1b}[31mred\\u{7}",
        ),
        (
            "control.py garbage",
            Reason::ProtocolError,
            "cannot read 'not\\u{0}json \\u{1b}[31mred' as its move at ply",
        ),
        (
            "hostile.py rtl",
            Reason::PlayerError,
            "I \\u{202e}niw\\u{202c}\\u{200b}\\u{2066} always\\u{feff}",
        ),
    ] {
        let bot = format!("exec:cmd=python3 tests/bots/{mode}");
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new(FOW)
            .args(["tournament", "--players", &format!("RandomMove,{bot}")])
            .args(["--games", "1", "--jobs", "1", "--out"])
            .arg(dir.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let csv = fs::read_to_string(dir.path().join(GAMES_FILE)).unwrap();
        let invisible = ['\u{202e}', '\u{202c}', '\u{200b}', '\u{2066}', '\u{feff}'];
        let raw = |c: char| c.is_control() && c != '\n' || invisible.contains(&c);
        assert!(
            !csv.chars().any(raw),
            "{mode}: a control character in games.csv: {}",
            csv.escape_debug()
        );
        let terminal = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
        assert!(
            !terminal.chars().any(raw),
            "{mode}: a control character on the terminal"
        );
        let games = read_games(&dir.path().join(GAMES_FILE)).unwrap();
        assert_eq!(games.len(), 2);
        for g in &games {
            assert_eq!(g.game_reason().unwrap(), reason, "{g:?}");
            assert!(g.detail.contains(shown), "{mode}: {}", g.detail);
        }
    }
}

/// The protocol's lines are UTF-8: a `hello` that is not loses the game by protocol
/// error, rather than being read with replacement characters (issue 41).
#[test]
fn a_hello_that_is_not_utf8_loses_by_protocol_error() {
    if !python("the test bots are Python scripts") {
        return;
    }
    let bot = "exec:cmd=python3 tests/bots/hostile.py badutf8";
    let (_dir, games) = tournament(&format!("RandomMove,{bot}"), 1, "1");
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g.game_reason().unwrap(), Reason::ProtocolError, "{g:?}");
        assert!(
            g.detail.contains("not UTF-8 while waiting for hello"),
            "{}",
            g.detail
        );
    }
}

/// A command that names a file that cannot be executed, or a folder, is refused before
/// the first game with one line, rather than crashing every game (issue 41).
#[test]
fn a_command_that_is_not_a_program_is_refused_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("hostname");
    fs::write(&text, "a text file, not a program\n").unwrap();
    for (cmd, needle) in [
        (text.display().to_string(), "is not a program"),
        (dir.path().display().to_string(), "not found"),
    ] {
        let out = dir.path().join("t");
        fails(
            &[
                "tournament",
                "-q",
                "--players",
                &format!("RandomMove,exec:cmd={cmd}"),
                "--out",
                out.to_str().unwrap(),
            ],
            needle,
        );
        assert!(!out.join(GAMES_FILE).exists());
    }
}

/// A program's stderr is kept in memory while its game goes on, so that no other program
/// (its opponent, which may read the results folder when it runs unsandboxed) can read
/// it mid-game; it is written to the log when the program ends.
#[test]
fn the_log_is_written_only_when_the_game_is_over() {
    if !python("the test bot is a Python script") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("bot.stderr");
    let spec: PlayerSpec = "exec:cmd=python3 tests/bots/faulty.py plain"
        .parse()
        .unwrap();
    let mut p = ExternalPlayer::from_spec(&spec).unwrap();
    p.log_to(&log);
    p.start(&GameStart::new(
        fow_variants::Color::White,
        RuleSet::thesis(),
        1,
    ));
    // The program has said hello and ready, so it has written its first stderr line.
    assert!(p.pid().is_some() && p.take_error().is_none());
    assert!(
        !log.exists(),
        "the log is not on disk while the game goes on"
    );
    p.finish(None, "no progress");
    let text = fs::read_to_string(&log).unwrap();
    assert!(
        text.starts_with("pid ") && text.contains("mode plain"),
        "{text}"
    );
}

#[test]
fn a_hello_that_declares_a_range_upside_down_loses_by_protocol_error() {
    fault("badrange", "", Some(Reason::ProtocolError));
    if !python("the test bots are Python scripts") {
        return;
    }
    let spec: PlayerSpec = "exec:cmd=python3 tests/bots/faulty.py badrange"
        .parse()
        .unwrap();
    let e = program_options(&spec).unwrap_err().to_string();
    assert!(
        e.ends_with("its hello: option x: min 3 is above max 1"),
        "{e}"
    );
}

/// The greedy example bot with `options`.
fn greedy(options: &str) -> PlayerSpec {
    format!("exec:cmd=python3 examples/greedy_bot.py,name=GreedyPy{options}")
        .parse()
        .unwrap()
}

#[test]
fn the_greedy_example_declares_its_numbers_with_their_ranges() {
    if !python("the example bots are Python scripts") {
        return;
    }
    let token = token();
    let spec: PlayerSpec = format!("exec:cmd=python3 examples/greedy_bot.py {token},greed=0.5")
        .parse()
        .unwrap();
    let options = program_options(&spec)
        .unwrap()
        .expect("it lists its options");
    let typed: Vec<_> = options
        .iter()
        .map(|o| (o.name.as_str(), o.kind, o.min, o.max))
        .collect();
    assert_eq!(
        typed,
        [
            ("greed", Some(OptionType::Real), Some(0.0), Some(1.0)),
            ("queen", Some(OptionType::Int), Some(1.0), Some(20.0)),
            ("king_only", None, None, None),
        ]
    );
    assert!(no_process_with(&token), "the program was ended");
    for (options, why) in [
        (
            ",greed=2",
            "option greed must be a number from 0 to 1, not '2'",
        ),
        (
            ",queen=9.5",
            "option queen must be an integer from 1 to 20, not '9.5'",
        ),
        (
            ",greedy=1",
            "the program takes no option 'greedy' (it takes: greed, queen, king_only)",
        ),
    ] {
        let e = program_options(&greedy(options)).unwrap_err();
        assert!(matches!(e, ProbeError::Program(_)), "{e:?}");
        assert_eq!(e.to_string(), format!("GreedyPy: {why}"));
        // In a game, the same refusal loses it before it begins.
        let mut p = ExternalPlayer::from_spec(&greedy(options)).unwrap();
        p.start(&GameStart::new(
            fow_variants::Color::White,
            RuleSet::thesis(),
            1,
        ));
        let e = p.take_error().expect("refused");
        assert_eq!(e.kind, PlayerErrorKind::Other);
        assert_eq!(e.message, format!("GreedyPy: {why}"));
    }
}

#[test]
fn the_greedy_examples_options_change_its_play() {
    if !python("the example bots are Python scripts") {
        return;
    }
    // White's knight on d4 can take the queen on c6 or the rook on e6: the queen is worth
    // 10 by default, 1 with queen=1 (less than the rook's 5).
    let rules = RuleSet::thesis();
    let pos: Position = "4k3/8/2q1r3/8/3N4/8/8/4K3 w - - 0 1".parse().unwrap();
    let obs = Observation::new(&pos, &rules, 0, None);
    for (options, expect) in [("", "d4c6"), (",queen=10", "d4c6"), (",queen=1", "d4e6")] {
        let mut p = ExternalPlayer::from_spec(&greedy(options)).unwrap();
        p.start(&GameStart::new(fow_variants::Color::White, rules, 7).with_position(pos.clone()));
        let m = p.choose(&obs, &Budget::default());
        assert_eq!(p.take_error(), None);
        p.finish(None, "test");
        assert_eq!(m.uci(), expect, "{options}");
    }
    // greed=0 plays at random: it scores far less against RandomMove than greed=1 (the
    // games are seeded, so these are the same games on every run).
    let points = |options: &str| -> f64 {
        let opts = GameOptions::new(rules);
        (0..20u64)
            .map(|seed| {
                let mut bot = ExternalPlayer::from_spec(&greedy(options)).unwrap();
                let mut other = PlayerSpec::build(&"RandomMove".parse().unwrap()).unwrap();
                let white = seed % 2 == 0;
                let rec = if white {
                    play_game(&mut bot, other.as_mut(), "g", "r", seed, &opts)
                } else {
                    play_game(other.as_mut(), &mut bot, "r", "g", seed, &opts)
                };
                assert!(!rec.reason.is_fault(), "{options}: {rec:?}");
                let w = rec.result.white_points();
                if white {
                    w
                } else {
                    1.0 - w
                }
            })
            .sum()
    };
    let (sure, never) = (points(",greed=1"), points(",greed=0"));
    eprintln!("against RandomMove, 20 games: greed=1 {sure}, greed=0 {never}");
    assert!(sure >= never + 5.0, "greed=1 {sure}, greed=0 {never}");
}

#[test]
fn a_served_bot_declares_its_numbers_with_their_ranges() {
    // Every built-in bot's hello, as `fow serve` says it, holds together.
    for bot in fow_players::registry() {
        // An exploiter needs its target to start.
        let served = match bot.name {
            "Exploiter" => "Exploiter:target=RandomMove",
            name => name,
        };
        let spec: PlayerSpec = format!("exec:cmd=\"{FOW} serve {served}\"")
            .parse()
            .unwrap();
        let options = program_options(&spec)
            .unwrap_or_else(|e| panic!("{}: {e}", bot.name))
            .expect("a served bot lists its options");
        assert_eq!(options.len(), bot.params.len(), "{}", bot.name);
    }
    let spec: PlayerSpec = format!("exec:cmd=\"{FOW} serve BeliefSearch\"")
        .parse()
        .unwrap();
    let options = program_options(&spec).unwrap().unwrap();
    let find = |name: &str| {
        let o = options.iter().find(|o| o.name == name).unwrap();
        (o.kind, o.min, o.max)
    };
    assert_eq!(find("mean"), (Some(OptionType::Real), Some(0.0), Some(1.0)));
    // More than 0: the bound the value must exceed is left out.
    assert_eq!(find("king"), (Some(OptionType::Real), None, None));
    assert_eq!(find("riskboards"), (Some(OptionType::Int), Some(1.0), None));
    assert_eq!(find("eval"), (None, None, None));
}
