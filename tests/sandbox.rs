//! The sandbox against a hostile bot (issue 41): run as root or not, a sandboxed
//! program holds no capability, runs as an unprivileged user, cannot remount or write
//! what it is shown, sees neither fow's processes nor the results folder; a spec that
//! would show it the results folder is refused; a Python bot with modules beside it, in
//! a virtualenv or behind a pyenv shim, runs. Every program player, sandboxed or not,
//! gets a minimal environment and no inherited descriptor.

mod common;
use common::*;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use fow_records::{read_games, GameRow, LOGS_DIR};

/// Whether bubblewrap can make namespaces here; says why the test is skipped if not.
fn bwrap() -> bool {
    let ok = Command::new("bwrap")
        .args(["--unshare-user", "--ro-bind", "/", "/", "true"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("skipped: bubblewrap (bwrap) is not installed or cannot make namespaces here (scripts/install-bubblewrap.sh)");
    }
    ok
}

/// The repository's test bots, as an absolute path.
fn bots() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots")
}

/// Runs `fow tournament` over `players` in `cwd` with one game per pair, writing to
/// `out`; returns fow's pid and its exit status, stderr, and the games.
fn run_in(
    cwd: &Path,
    players: &str,
    out: &Path,
    env: &[(&str, &str)],
) -> (u32, Option<i32>, String, Vec<GameRow>) {
    let child = Command::new(FOW)
        .args([
            "tournament",
            "-q",
            "--jobs",
            "1",
            "--games",
            "1",
            "--players",
            players,
        ])
        .arg("--out")
        .arg(out)
        .current_dir(cwd)
        .envs(env.iter().copied())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let games = read_games(&cwd.join(out).join("games.csv")).unwrap_or_default();
    (pid, o.status.code(), err, games)
}

/// The probe reports of the program player in `games` (its logs in `dir`).
fn probes(dir: &Path, games: &[GameRow]) -> Vec<serde_json::Value> {
    let mut v = Vec::new();
    for g in games {
        for (colour, spec) in [("white", &g.white), ("black", &g.black)] {
            if !spec.starts_with("exec:") {
                continue;
            }
            let log = dir.join(LOGS_DIR).join(format!("{}-{colour}.stderr", g.id));
            let text = fs::read_to_string(&log).unwrap_or_default();
            assert!(!g.game_reason().unwrap().is_fault(), "{g:?}\n{text}");
            let line = text
                .lines()
                .find_map(|l| l.strip_prefix("probe "))
                .unwrap_or_else(|| panic!("no probe in {}: {text}", log.display()));
            v.push(serde_json::from_str(line).unwrap());
        }
    }
    v
}

fn names(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_sandboxed_bot_holds_no_capability_and_cannot_write_or_remount() {
    if !python("the probe bot is a Python script") || !bwrap() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let bot = format!(
        "exec:cmd=\"python3 {}/hostile.py probe --etc=1 --dir={}\",sandbox=bwrap",
        bots().display(),
        out.display()
    );
    let (fow_pid, code, err, games) = run_in(tmp.path(), &format!("RandomMove,{bot}"), &out, &[]);
    assert_eq!(code, Some(0), "{err}");
    let reports = probes(&out, &games);
    assert_eq!(reports.len(), 2);
    for r in reports {
        // An unprivileged user in its own user namespace, every capability dropped
        // (before issue 41, as root: uid 0 and CapEff 000001ffffffffff).
        assert_eq!(r["uid"], 65534, "{r}");
        assert_eq!(r["gid"], 65534, "{r}");
        assert_eq!(r["capeff"], "0000000000000000", "{r}");
        // Its own folder is read-only and stays so; the results folder is not there;
        // only its scratch home takes writes.
        assert_ne!(r["remount"], "ok", "{r}");
        assert_ne!(r["write_own"], "ok", "{r}");
        assert_ne!(r["write_dir"], "ok", "{r}");
        assert_ne!(r["write_etc"], "ok", "{r}");
        assert_ne!(r["list_dir"], "ok", "{r}");
        assert_eq!(r["write_home"], "ok", "{r}");
        // Its own PID namespace: fow is not in its /proc.
        let pids: Vec<u64> = r["pids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_u64().unwrap())
            .collect();
        assert!(!pids.contains(&u64::from(fow_pid)), "{r}");
        assert!(pids.len() <= 3, "{r}");
        assert_eq!(r["fds"], serde_json::json!([0, 1, 2]), "{r}");
    }
    assert!(!bots().join("written-by-bot").exists());
    assert!(!Path::new("/etc/written-by-bot").exists());
    assert!(!out.join("written-by-bot").exists());
}

/// When the tests run as root: the same sandbox holds for fow run as an ordinary user.
#[test]
fn the_sandbox_holds_for_an_ordinary_user_too() {
    if !python("the probe bot is a Python script") || !bwrap() {
        return;
    }
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped here: the tests already run as an ordinary user (the other sandbox tests are that case)");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    // A copy of fow and of the bot that the user `nobody` can read and run.
    let world = tmp.path().join("w");
    fs::create_dir(&world).unwrap();
    fs::copy(FOW, world.join("fow")).unwrap();
    fs::copy(bots().join("hostile.py"), world.join("hostile.py")).unwrap();
    let out = tmp.path().join("out");
    let run_as_nobody = |args: &[&str]| {
        Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(world.join("fow"))
            .args(args)
            .current_dir(&world)
            .output()
    };
    use std::os::unix::fs::PermissionsExt;
    for p in [tmp.path(), &world] {
        fs::set_permissions(p, fs::Permissions::from_mode(0o777)).unwrap();
    }
    let Ok(probe) = run_as_nobody(&["--version"]) else {
        eprintln!("skipped: setpriv (util-linux) is not installed");
        return;
    };
    if !probe.status.success() || !Path::new("/usr/bin/python3").is_file() {
        eprintln!(
            "skipped: the user nobody cannot run a copy of fow here, or there is no /usr/bin/python3 ({})",
            String::from_utf8_lossy(&probe.stderr).trim()
        );
        return;
    }
    let bot = format!(
        "exec:cmd=/usr/bin/python3 {}/hostile.py probe --dir={},sandbox=bwrap",
        world.display(),
        out.display()
    );
    let o = run_as_nobody(&[
        "tournament",
        "-q",
        "--games",
        "1",
        "--players",
        &format!("RandomMove,{bot}"),
        "--out",
        out.to_str().unwrap(),
    ])
    .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    if err.contains("setting up uid map") || err.contains("No permissions to create new namespace")
    {
        eprintln!("skipped: this kernel does not let an ordinary user make namespaces ({err})");
        return;
    }
    assert!(o.status.success(), "{err}");
    let games = read_games(&out.join("games.csv")).unwrap();
    for r in probes(&out, &games) {
        assert_eq!(r["capeff"], "0000000000000000", "{r}");
        assert_ne!(r["remount"], "ok", "{r}");
        assert_ne!(r["write_own"], "ok", "{r}");
        assert_ne!(r["list_dir"], "ok", "{r}");
    }
    assert!(!world.join("written-by-bot").exists());
}

/// A project whose results folder lies inside the bot's folder, as `cd PROJECT && fow
/// tournament ... --out results/run1` makes it.
fn project() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for f in ["bot.py", "helper.py"] {
        fs::copy(bots().join("pkg").join(f), tmp.path().join(f)).unwrap();
    }
    fs::copy(bots().join("hostile.py"), tmp.path().join("hostile.py")).unwrap();
    tmp
}

#[test]
fn a_spec_that_would_show_the_results_folder_is_refused() {
    if !python("the test bot is a Python script") || !bwrap() {
        return;
    }
    let p = project();
    for extra in [
        " .\"",
        "\",bind=.",
        "\",bind=results",
        "\",bind=results/run1/secret.key",
    ] {
        let spec = format!("RandomMove,exec:cmd=\"python3 bot.py{extra},sandbox=bwrap");
        // Earlier runs are there.
        fs::create_dir_all(p.path().join("results/old")).unwrap();
        if extra.contains("secret.key") {
            // Only a path that exists is bound: make the folder exist with a key.
            fs::create_dir_all(p.path().join("results/run1")).unwrap();
            fs::write(p.path().join("results/run1/secret.key"), "0").unwrap();
        }
        let out = p.path().join("results/run1");
        let (_, code, err, games) = run_in(p.path(), &spec, &out, &[]);
        assert_eq!(code, Some(2), "{spec}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.starts_with("fow: error: "), "{err}");
        assert!(
            err.contains("would show the results folder")
                || err.contains("lies in the results folder"),
            "{spec}: {err}"
        );
        assert!(games.is_empty());
        if !extra.contains("secret.key") {
            assert!(
                !out.exists(),
                "a refused run leaves no folder: {}",
                out.display()
            );
        }
        let _ = fs::remove_dir_all(p.path().join("results"));
    }
}

#[test]
fn a_bot_beside_its_results_folder_runs_with_its_modules_and_cannot_see_the_results() {
    if !python("the test bots are Python scripts") || !bwrap() {
        return;
    }
    let p = project();
    let out = Path::new("results/run1");
    let players = "RandomMove,exec:cmd=python3 bot.py,sandbox=bwrap,exec:cmd=\"python3 hostile.py probe --dir=results/run1\",sandbox=bwrap,name=probe";
    let (_, code, err, games) = run_in(p.path(), players, out, &[]);
    assert_eq!(code, Some(0), "{err}");
    let dir = p.path().join(out);
    assert_eq!(games.len(), 6);
    // bot.py imported the module beside it: no game of it ended in a fault.
    for g in &games {
        assert!(!g.game_reason().unwrap().is_fault(), "{g:?}");
    }
    let probing: Vec<GameRow> = games
        .into_iter()
        .filter(|g| g.white.contains("probe") || g.black.contains("probe"))
        .map(|mut g| {
            // Only the probe's own logs.
            if !g.white.contains("probe") {
                g.white = "RandomMove".into();
            }
            if !g.black.contains("probe") {
                g.black = "RandomMove".into();
            }
            g
        })
        .collect();
    for r in probes(&dir, &probing) {
        assert_ne!(r["list_dir"], "ok", "the results folder is not shown: {r}");
        assert_ne!(r["write_dir"], "ok", "{r}");
    }
}

#[test]
fn a_virtualenv_python_and_a_shim_run_in_the_sandbox() {
    if !python("the test bot is a Python script") || !bwrap() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let venv = tmp.path().join("venv");
    let made = Command::new("python3")
        .args(["-m", "venv", "--without-pip"])
        .arg(&venv)
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        eprintln!(
            "skipped: python3 cannot make a virtual environment here (the venv module is missing)"
        );
        return;
    }
    // A shim, as pyenv's: a script named python3 that runs the real interpreter
    // (which, unlike the shim, the sandbox is shown).
    let shims = tmp.path().join("shims");
    fs::create_dir(&shims).unwrap();
    let real = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .unwrap();
    let real = String::from_utf8(real.stdout).unwrap();
    fs::write(
        shims.join("python3"),
        format!("#!/bin/sh\nexec '{}' \"$@\"\n", real.trim()),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(shims.join("python3"), fs::Permissions::from_mode(0o755)).unwrap();
    let players = format!(
        "RandomMove,exec:cmd={}/bin/python3 {}/pkg/bot.py,sandbox=bwrap,name=venv,exec:cmd={}/python3 {}/pkg/bot.py,sandbox=bwrap,name=shim",
        venv.display(),
        bots().display(),
        shims.display(),
        bots().display()
    );
    let out = tmp.path().join("run");
    let (_, code, err, games) = run_in(tmp.path(), &players, &out, &[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(games.len(), 6);
    for g in &games {
        let log = out.join(LOGS_DIR);
        assert!(
            !g.game_reason().unwrap().is_fault(),
            "{g:?} {:?}",
            fs::read_dir(&log).ok().map(|d| d
                .flatten()
                .map(|e| fs::read_to_string(e.path()).unwrap_or_default())
                .collect::<Vec<_>>())
        );
    }
}

#[test]
fn a_program_gets_a_minimal_environment_and_no_inherited_descriptor() {
    if !python("the probe bot is a Python script") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let secret = tmp.path().join("parent-secret.txt");
    fs::write(&secret, "the parent's secret\n").unwrap();
    let out = tmp.path().join("run");
    // Unsandboxed, the probe writes beside itself: a copy, not the repository's file.
    fs::copy(bots().join("hostile.py"), tmp.path().join("hostile.py")).unwrap();
    let bot = format!(
        "exec:cmd=python3 {}/hostile.py probe --dir={},env.LEVEL=3",
        tmp.path().display(),
        out.display()
    );
    // fow inherits descriptor 7 (open on a file of its parent) and a token in its
    // environment: the bot gets neither.
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "exec 7<'{}'; exec '{FOW}' tournament -q --games 1 --players 'RandomMove,{bot}' --out '{}'",
            secret.display(),
            out.display()
        ))
        .env("FOW_TEST_TOKEN", "s3cr3t")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let games = read_games(&out.join("games.csv")).unwrap();
    for r in probes(&out, &games) {
        assert_eq!(r["fds"], serde_json::json!([0, 1, 2]), "{r}");
        let env = names(&r["env"]);
        assert!(!env.contains(&"FOW_TEST_TOKEN".to_string()), "{r}");
        for k in ["HOME", "TMPDIR", "PATH", "LANG", "LEVEL"] {
            assert!(env.contains(&k.to_string()), "{k}: {r}");
        }
        assert_eq!(r["write_home"], "ok", "a scratch home of its own: {r}");
        let home = Path::new(r["home"].as_str().unwrap());
        assert_ne!(
            Some(home.as_os_str()),
            std::env::var_os("HOME").as_deref(),
            "{r}"
        );
        assert!(
            !home.exists(),
            "the scratch home is removed with the program: {r}"
        );
    }
}
