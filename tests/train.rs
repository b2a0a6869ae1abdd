//! End-to-end tests of `fow train`. Without the `torch` feature it refuses in one line;
//! with it (`source .libtorch/env.sh && cargo test --features torch --test train`) it
//! trains a small network on the chess.com games.

mod common;
use common::*;

#[cfg(not(feature = "torch"))]
#[test]
fn without_the_feature_train_says_how_to_get_it() {
    let out = fow(&["train", "some.fownn", "--out", "nowhere"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("scripts/install-libtorch.sh"), "{err}");
    assert!(err.contains("--features torch"), "{err}");
    assert!(!std::path::Path::new("nowhere").exists());
}

#[cfg(feature = "torch")]
#[test]
fn trains_on_the_chesscom_games_and_writes_its_files() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("chesscom.fownn");
    let chesscom = concat!(env!("CARGO_MANIFEST_DIR"), "/data/chesscom-fow");
    let out = fow(&["dataset", chesscom, "--out", data.to_str().unwrap()]);
    assert!(out.status.success());
    let dir = tmp.path().join("run");
    let args = [
        "train",
        data.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
        "--hidden",
        "32",
        "--epochs",
        "3",
        "--quiet",
    ];
    let out = fow(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("best epoch"), "{stdout}");
    for f in [
        "weights.safetensors",
        "weights.json",
        "log.csv",
        "curve.svg",
    ] {
        assert!(dir.join(f).exists(), "{f} missing");
    }
    let log = std::fs::read_to_string(dir.join("log.csv")).unwrap();
    assert_eq!(log.lines().count(), 4, "{log}");
    let svg = std::fs::read_to_string(dir.join("curve.svg")).unwrap();
    assert!(svg.contains("validation top-1"));
    // Bad input is exit 2.
    let out = fow(&["train", chesscom, "--out", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
}
