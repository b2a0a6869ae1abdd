//! No program player outlives fow (issue 41): however fow ends — Ctrl-C (`SIGINT`),
//! `SIGTERM`, `SIGHUP` or `SIGKILL`, which it cannot catch — every process of every
//! program player ends with it, including a child that ignores `SIGTERM` and the other
//! catchable signals.
//!
//! This binary makes itself a child subreaper, so that the killed bots, orphaned when
//! fow ends, become its children and it can reap them: a zombie still counts as alive.

mod common;
use common::*;

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// The pids in `file` (lines of `PID CHILD`).
fn recorded(file: &Path) -> Vec<u32> {
    fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.ends_with(|c: char| c.is_ascii_digit()))
        .flat_map(|l| l.split_whitespace().map(|p| p.parse::<u32>().unwrap()))
        .collect()
}

/// Reaps every child that has ended (the orphans that came to this subreaper).
fn reap() {
    loop {
        let mut status = 0;
        // SAFETY: waitpid writes only into `status`.
        if unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) } <= 0 {
            return;
        }
    }
}

fn alive(pid: u32) -> bool {
    reap();
    Path::new(&format!("/proc/{pid}")).exists()
}

/// Waits for `what` for at most `limit` (generous: a busy machine is slow, and a correct
/// fow never needs it all).
fn wait_for(limit: Duration, mut what: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + limit;
    while Instant::now() < until {
        if what() {
            return true;
        }
        sleep(Duration::from_millis(20));
    }
    what()
}

#[test]
fn every_bot_process_ends_with_fow_however_fow_ends() {
    if !python("the stubborn bot is a Python script") {
        return;
    }
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes plain integers.
    unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/hostile.py");
    for (name, signal) in [
        ("SIGINT", libc::SIGINT),
        ("SIGTERM", libc::SIGTERM),
        ("SIGHUP", libc::SIGHUP),
        ("SIGKILL", libc::SIGKILL),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let pids = tmp.path().join("pids");
        let players = format!(
            "exec:cmd=python3 {} stubborn --pids={},name=A,exec:cmd=python3 {} stubborn --pids={},name=B",
            bot.display(),
            pids.display(),
            bot.display(),
            pids.display()
        );
        let mut fow = Command::new(FOW)
            .args(["tournament", "-q", "--jobs", "2", "--games", "50"])
            .args(["--players", &players, "--out"])
            .arg(tmp.path().join("run"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Both games under way: four bots, each with its stubborn child.
        assert!(
            wait_for(Duration::from_secs(120), || recorded(&pids).len() >= 8),
            "{name}: the bots did not start: {:?}",
            recorded(&pids)
        );
        // SAFETY: kill takes plain integers.
        unsafe { libc::kill(fow.id() as libc::pid_t, signal) };
        let status = fow.wait().unwrap();
        assert!(!status.success(), "{name}: fow ended by the signal");
        let all = recorded(&pids);
        assert!(
            wait_for(Duration::from_secs(60), || all.iter().all(|&p| !alive(p))),
            "{name}: processes outlived fow: {:?}",
            all.iter().filter(|&&p| alive(p)).collect::<Vec<_>>()
        );
    }
}
