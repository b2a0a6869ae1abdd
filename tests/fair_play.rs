//! Fair play between untrusted programs (issue 28): a program player's whole process tree
//! ends with its game, `sandbox=bwrap` hides the results folder and the network, one
//! writer per results folder, and runs with program players get a secret seed.

mod common;
use common::*;

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use fow_records::{read_games, LOGS_DIR};

/// The numbers after `word` in a log (`child 1234`).
fn logged(log: &Path, word: &str) -> Vec<u32> {
    let text = fs::read_to_string(log).unwrap_or_else(|e| panic!("{}: {e}", log.display()));
    text.lines()
        .filter_map(|l| {
            l.strip_prefix(word)?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        })
        .collect()
}

/// Whether a process with this pid exists at all (a zombie counts: it has not been
/// reaped, so it still outlives its game).
fn exists(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

#[test]
fn a_forking_bot_leaves_no_process_behind() {
    if !python("the test bots are Python scripts") {
        return;
    }
    let bot = "exec:cmd=python3 tests/bots/faulty.py fork";
    let (dir, games) = tournament(&format!("RandomMove,{bot}"), 2, "2");
    assert_eq!(games.len(), 4);
    let mut children = Vec::new();
    for g in &games {
        let colour = if g.white == bot { "white" } else { "black" };
        let log = dir
            .path()
            .join(LOGS_DIR)
            .join(format!("{}-{colour}.stderr", g.id));
        children.extend(logged(&log, "child "));
        children.extend(logged(&log, "pid "));
    }
    assert_eq!(children.len(), 8, "a bot and its child per game");
    // fow has exited; the bots' children must not have outlived their games (before
    // process groups they slept on for ten minutes).
    let alive: Vec<u32> = children.into_iter().filter(|&p| exists(p)).collect();
    assert!(alive.is_empty(), "processes still there: {alive:?}");
}

#[test]
fn a_forking_bot_in_process_is_ended_with_its_game() {
    if !python("the test bots are Python scripts") {
        return;
    }
    use fow_arena::{play_game, GameOptions};
    use fow_players::PlayerSpec;
    use fow_variants::RuleSet;
    let tmp = tempfile::tempdir().unwrap();
    let spec: PlayerSpec = "exec:cmd=python3 tests/bots/faulty.py fork"
        .parse()
        .unwrap();
    let mut bot = spec.build().unwrap();
    let log = tmp.path().join("bot.stderr");
    bot.log_to(&log);
    let mut other = "RandomMove".parse::<PlayerSpec>().unwrap().build().unwrap();
    let rec = play_game(
        bot.as_mut(),
        other.as_mut(),
        "fork",
        "RandomMove",
        5,
        &GameOptions::new(RuleSet::thesis()),
    );
    assert!(!rec.reason.is_fault(), "{rec:?}");
    // play_game has returned: the game is over, and so is every process of the bot.
    let pids: Vec<u32> = logged(&log, "child ")
        .into_iter()
        .chain(logged(&log, "pid "))
        .collect();
    assert_eq!(pids.len(), 2);
    for p in pids {
        assert!(!exists(p), "process {p} outlived its game");
    }
}

/// Whether bubblewrap and a system Python (one that needs nothing outside /usr) are here.
fn bwrap_and_system_python() -> bool {
    let bwrap = Command::new("bwrap")
        .args(["--ro-bind", "/", "/", "true"])
        .status()
        .is_ok_and(|s| s.success());
    if !bwrap {
        eprintln!("skipped: bubblewrap (bwrap) is not installed or cannot run here (scripts/install-bubblewrap.sh)");
        return false;
    }
    if !Path::new("/usr/bin/python3").is_file() {
        eprintln!("skipped: the sandbox test bot needs /usr/bin/python3");
        return false;
    }
    true
}

#[test]
fn a_sandboxed_bot_sees_neither_the_results_folder_nor_the_network() {
    if !bwrap_and_system_python() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("run");
    let snoop = |name: &str| {
        format!(
            "exec:cmd=/usr/bin/python3 tests/bots/faulty.py snoop --dir={},name={name}",
            dir.display()
        )
    };
    let boxed = snoop("boxed") + ",sandbox=bwrap";
    let open = snoop("open");
    let status = Command::new(FOW)
        .args(["tournament", "-q", "--jobs", "1", "--games", "1"])
        .args(["--players", &format!("RandomMove,{boxed},{open}")])
        .arg("--out")
        .arg(&dir)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let games = read_games(&dir.join("games.csv")).unwrap();
    assert_eq!(games.len(), 6);
    let netns = fs::read_link("/proc/self/ns/net")
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let mut seen = [0, 0];
    for g in &games {
        for (colour, spec) in [("white", &g.white), ("black", &g.black)] {
            if spec == "RandomMove" {
                continue;
            }
            let log = dir.join(LOGS_DIR).join(format!("{}-{colour}.stderr", g.id));
            let text = fs::read_to_string(&log).unwrap();
            assert!(!g.game_reason().unwrap().is_fault(), "{g:?} {text}");
            if spec.contains("sandbox=bwrap") {
                // Its own network namespace, with nothing but a loopback interface.
                seen[0] += 1;
                assert!(text.contains("cannot list"), "{text}");
                assert!(!text.contains(&netns), "{text}");
                assert!(text.contains(" interfaces lo\n"), "{text}");
            } else {
                // The control: without the sandbox the same bot lists the folder (and
                // finds the secret key of this run) and shares our network.
                seen[1] += 1;
                assert!(text.contains("listed "), "{text}");
                assert!(text.contains("secret.key"), "{text}");
                assert!(text.contains(&netns), "{text}");
            }
        }
    }
    assert_eq!(seen, [4, 4]);
}

#[test]
fn sandbox_takes_none_or_bwrap() {
    let out = Command::new(FOW)
        .args(["tournament", "--players"])
        .arg("RandomMove,exec:cmd=python3 x.py,sandbox=docker")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("sandbox must be none or bwrap"), "{err}");
}

/// A served built-in bot as a program player: no Python needed.
fn served(bot: &str, name: &str) -> String {
    format!("exec:cmd={FOW} serve {bot},name={name}")
}

#[test]
fn a_run_with_a_program_player_and_no_seed_gets_a_secret_key_and_resumes_exactly() {
    let tmp = tempfile::tempdir().unwrap();
    let players = format!("RandomMove,{}", served("CaptureLargest", "A"));
    let run = |dir: &Path| {
        ok(&[
            "tournament",
            "-q",
            "--jobs",
            "2",
            "--games",
            "3",
            "--players",
            &players,
            "--out",
            dir.to_str().unwrap(),
        ])
    };
    let a = tmp.path().join("a");
    let out = run(&a);
    assert!(out.contains("seed secret (its key is in "), "{out}");
    let config = fs::read_to_string(a.join("tournament.json")).unwrap();
    assert!(config.contains("\"seed\": null"), "{config}");
    assert!(config.contains("\"seeding\": \"siphash-2-4\""), "{config}");
    let key = fs::read_to_string(a.join("secret.key")).unwrap();
    assert_eq!(key.trim().len(), 32);
    assert!(key.trim().bytes().all(|b| b.is_ascii_hexdigit()));
    assert!(
        !config.contains(key.trim()),
        "the key is not in tournament.json"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(a.join("secret.key"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    // A second run draws another key, so other games.
    let b = tmp.path().join("b");
    run(&b);
    let games = |d: &Path| fs::read(d.join("games.csv")).unwrap();
    assert_ne!(games(&a), games(&b));
    // Killed after two games, the first run resumes to the same bytes: the key is
    // where --resume finds it.
    let full = games(&a);
    let text = String::from_utf8(full.clone()).unwrap();
    let cut: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
    fs::write(a.join("games.csv"), cut).unwrap();
    ok(&["tournament", "-q", "--resume", "--out", a.to_str().unwrap()]);
    assert_eq!(games(&a), full);
    // Without its key the folder cannot be resumed (nor its seeds checked).
    fs::remove_file(a.join("secret.key")).unwrap();
    fails(
        &["tournament", "-q", "--resume", "--out", a.to_str().unwrap()],
        "its key",
    );
}

#[test]
fn a_public_seed_with_a_program_player_is_noted() {
    let tmp = tempfile::tempdir().unwrap();
    let out = ok(&[
        "tournament",
        "-q",
        "--games",
        "1",
        "--seed",
        "7",
        "--players",
        &format!("RandomMove,{}", served("CaptureKing", "K")),
        "--out",
        tmp.path().join("r").to_str().unwrap(),
    ]);
    assert!(out.contains("seed 7"), "{out}");
    assert!(out.contains("note: the seed is public"), "{out}");
    assert!(!tmp.path().join("r/secret.key").exists());
}

#[test]
fn every_command_that_writes_a_folder_refuses_one_in_use() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("busy");
    let d = dir.to_str().unwrap().to_string();
    // A finished tournament to resume and to read.
    ok(&[
        "tournament",
        "-q",
        "--games",
        "1",
        "--players",
        "RandomMove,CaptureKing",
        "--out",
        &d,
    ]);
    let pgn = fs::read_dir("data/chesscom-fow")
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "pgn"))
        .expect("a chess.com PGN in data/");
    // Another process (this test) holds the folders, as a running tournament would: the
    // tournament's, and an empty one for the commands that make a new folder.
    let lock = fow_records::lock_folder(&dir).unwrap();
    let empty = tmp.path().join("empty");
    let _empty_lock = fow_records::lock_folder(&empty).unwrap();
    let e = empty.to_str().unwrap().to_string();
    let inside = |f: &str| empty.join(f).to_str().unwrap().to_string();
    let commands: Vec<Vec<String>> = vec![
        vec![
            "tournament".into(),
            "-q".into(),
            "--resume".into(),
            "--out".into(),
            d.clone(),
        ],
        vec![
            "tournament".into(),
            "-q".into(),
            "--games".into(),
            "1".into(),
            "--out".into(),
            d.clone(),
        ],
        vec![
            "evolve".into(),
            "--bot".into(),
            "PositionaryEvaluator".into(),
            "--epochs".into(),
            "1".into(),
            "--out".into(),
            e.clone(),
        ],
        vec![
            "import".into(),
            pgn.to_str().unwrap().into(),
            "--out".into(),
            e.clone(),
        ],
        vec![
            "dataset".into(),
            pgn.to_str().unwrap().into(),
            "--out".into(),
            inside("set.bin"),
        ],
        vec![
            "tune-material".into(),
            pgn.to_str().unwrap().into(),
            "--out".into(),
            inside("fit.json"),
        ],
    ];
    for args in &commands {
        let folder = if args[0] == "tournament" { &d } else { &e };
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        fails(&args, &format!("{folder} is in use by another fow command"));
    }
    // `play` too (it reads its moves from standard input).
    let out = Command::new(FOW)
        .args(["play", "--bot", "RandomMove", "--seed", "1", "--out", &e])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is in use by another fow command"));
    // Once the holder ends, the folder is free again (no stale lock to clean up).
    drop(lock);
    ok(&["tournament", "-q", "--resume", "--out", &d]);
}

#[test]
fn a_killed_writer_leaves_no_lock_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("k");
    let mut child = Command::new(FOW)
        .args([
            "tournament",
            "-q",
            "--jobs",
            "1",
            "--games",
            "200",
            "--players",
        ])
        .arg("RandomMove,PossibleBoardList")
        .arg("--out")
        .arg(&dir)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the run has made its folder and written its settings (it holds the lock
    // from before that), then kill -9 it.
    // (Had it finished first, the lock would be free all the same.)
    while !dir.join("tournament.json").exists() && child.try_wait().unwrap().is_none() {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // The kernel released the lock with the process.
    fow_records::lock_folder(&dir).unwrap();
}

#[test]
fn evolve_against_a_program_draws_its_seed_unless_given_one() {
    let tmp = tempfile::tempdir().unwrap();
    let seed_of = |name: &str, more: &[&str]| {
        let dir = tmp.path().join(name);
        let mut args = vec![
            "evolve",
            "--quiet",
            "--epochs",
            "1",
            "--population",
            "2",
            "--survivors",
            "1",
            "--games-per-pair",
            "1",
            "--benchmark-games",
            "0",
            "--out",
            dir.to_str().unwrap(),
        ];
        args.extend_from_slice(more);
        ok(&args);
        let json = fs::read_to_string(dir.join("evolve.json")).unwrap();
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        v["seed"].as_u64().unwrap()
    };
    let program = served("RandomMove", "R");
    let a = seed_of("a", &["--against", &program]);
    let b = seed_of("b", &["--against", &program]);
    assert_ne!(a, b);
    assert_ne!(a, 2023);
    assert_eq!(seed_of("c", &["--against", &program, "--seed", "9"]), 9);
    assert_eq!(seed_of("d", &["--against", "RandomMove"]), 2023);
}

#[test]
fn runs_started_together_with_the_default_out_get_their_own_folders() {
    let cwd = tempfile::tempdir().unwrap();
    // Started back to back, the runs usually share their second; whether they do or
    // not, each must get a folder of its own and finish it.
    let runs: Vec<_> = (0..3)
        .map(|_| {
            Command::new(FOW)
                .args([
                    "tournament",
                    "-q",
                    "--games",
                    "2",
                    "--players",
                    "RandomMove,CaptureKing",
                ])
                .current_dir(cwd.path())
                .stdout(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut r in runs {
        assert!(r.wait().unwrap().success());
    }
    let folders: Vec<_> = fs::read_dir(cwd.path().join("results/runs"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(folders.len(), 3, "{folders:?}");
    for f in &folders {
        assert_eq!(
            read_games(&f.join("games.csv")).unwrap().len(),
            4,
            "{}",
            f.display()
        );
    }
}

/// A run with a secret key and a program player outside the sandbox says once that the
/// program could read the key (issue 41); in the sandbox, or with a public seed (which
/// has its own note), it does not.
#[test]
fn an_unsandboxed_program_in_a_secret_run_is_noted() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |players: &str, more: &[&str], name: &str| {
        let out = tmp.path().join(name);
        let mut args = vec!["tournament", "-q", "--games", "1", "--players", players];
        args.extend(more);
        args.extend(["--out", out.to_str().unwrap()]);
        ok(&args)
    };
    let open = format!(
        "RandomMove,{},{}",
        served("CaptureKing", "K"),
        served("CaptureLargest", "L")
    );
    let out = run(&open, &[], "a");
    let notes: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("without the sandbox"))
        .collect();
    assert_eq!(notes.len(), 1, "{out}");
    assert!(
        notes[0].starts_with("note: K, L run without the sandbox"),
        "{out}"
    );
    let out = run(&open, &["--seed", "3"], "b");
    assert!(!out.contains("without the sandbox"), "{out}");
    if bwrap_and_system_python() {
        let boxed = format!("RandomMove,{},sandbox=bwrap", served("CaptureKing", "K"));
        // fow itself must be visible inside: it lies outside the system folders, and
        // its own folder is shown.
        let out = run(&boxed, &[], "c");
        assert!(!out.contains("without the sandbox"), "{out}");
    }
}
