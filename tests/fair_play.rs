//! Fair play between untrusted programs (issue 28): a program player's whole process tree
//! ends with its game, `sandbox=bwrap` hides the results folder and the network, one
//! writer per results folder, and runs with program players get a secret seed.

mod common;
use common::*;

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use fow_arena::{read_games, LOGS_DIR};

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
