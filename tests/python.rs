//! The Python package (`python/`, issue 44): builds it with maturin into a wheel, installs
//! the wheel into a fresh virtual environment that sees the system's packages, and runs
//! its pytest suite (`python/tests`). This keeps the README's one test command the whole
//! test suite: `cargo test --workspace` runs the Rust tests and the Python tests.
//!
//! Skipped, with the reason, where Python 3, maturin, pytest or numpy is missing
//! (`scripts/install-python-tools.sh` installs them); inside the suite, the tests that
//! need PettingZoo, OpenSpiel or pandas say "skipped" without them.
//!
//! The wheel is built in its own target folder (`target/python-test`): this test runs
//! while `cargo test` holds the build lock of `target/`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Whether `python3 -c code` succeeds.
fn python_can(code: &str) -> bool {
    Command::new("python3")
        .args(["-c", code])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The reason to skip, if any.
fn missing() -> Option<&'static str> {
    if !python_can("import sys; assert sys.version_info >= (3, 9)") {
        return Some("Python 3.9 or newer is not installed");
    }
    if !python_can("import venv") {
        return Some("Python's venv module is missing (Debian: python3-venv)");
    }
    if !python_can("import numpy") {
        return Some("numpy is missing (scripts/install-python-tools.sh installs it)");
    }
    if !python_can("import pytest") {
        return Some("pytest is missing (scripts/install-python-tools.sh installs it)");
    }
    if !python_can("import maturin") {
        return Some("maturin is missing (scripts/install-python-tools.sh installs it)");
    }
    None
}

fn run(cmd: &mut Command, what: &str) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{what} failed:\n{text}");
    text
}

fn wheel_in(dir: &Path) -> PathBuf {
    std::fs::read_dir(dir)
        .expect("maturin's wheel folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "whl"))
        .expect("maturin wrote no wheel")
}

#[test]
fn the_python_package_builds_installs_and_passes_its_tests() {
    if let Some(why) = missing() {
        eprintln!("skipped: {why}");
        return;
    }
    let root = root();
    let work = tempfile::tempdir().unwrap();
    let wheels = work.path().join("wheels");
    run(
        Command::new("python3")
            .args(["-m", "maturin", "build", "--quiet", "--manifest-path"])
            .arg(root.join("python/Cargo.toml"))
            .arg("--out")
            .arg(&wheels)
            .env("CARGO_TARGET_DIR", root.join("target/python-test")),
        "maturin build",
    );
    let wheel = wheel_in(&wheels);
    assert!(
        wheel.to_string_lossy().contains("abi3"),
        "one wheel for every CPython from 3.9 on (abi3), not {}",
        wheel.display()
    );
    let venv = work.path().join("venv");
    run(
        Command::new("python3")
            .args(["-m", "venv", "--system-site-packages"])
            .arg(&venv),
        "python3 -m venv",
    );
    let python = venv.join("bin/python");
    run(
        Command::new(&python)
            .args(["-m", "pip", "install", "--quiet", "--no-deps", "--no-index"])
            .arg(&wheel),
        "pip install the wheel",
    );
    // Run from a folder without the sources, so that the installed package is tested.
    let report = run(
        Command::new(&python)
            .args(["-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider"])
            .arg(root.join("python/tests"))
            .current_dir(work.path())
            .env("FOW_BIN", env!("CARGO_BIN_EXE_fow")),
        "pytest python/tests",
    );
    eprintln!("{report}");
}
