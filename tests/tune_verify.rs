//! `fow tune --verify`: the tuned spec against the start spec in an SPRT when tuning
//! ends, its verdict printed and stored in DIR/verify/match.json; a bad SPRT or game
//! count is refused before any tuning.

mod common;

#[test]
fn verify_plays_an_sprt_after_tuning_and_stores_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let d = dir.to_str().unwrap();
    let tune = [
        "tune",
        "--verify",
        "Planted:x=0.05,y=0.95",
        "--params",
        "x,y",
        "--batches",
        "4",
        "--pairs",
        "2",
        "-q",
        "--out",
        d,
    ];
    let out = common::ok(&[&tune[..], &["--verify-games", "40"]].concat());
    assert!(out.contains("verifying Planted:x="), "{out}");
    assert!(out.contains("SPRT: "), "{out}");
    let verdict = out.lines().find(|l| l.starts_with("verified: ")).unwrap();
    assert!(verdict.contains("verify/match.json"), "{out}");
    let report: serde_json::Value =
        serde_json::from_slice(&common::read(&dir.join("verify"), "match.json")).unwrap();
    assert_eq!(
        report["sprt"],
        serde_json::json!("elo0=0,elo1=10,alpha=0.05,beta=0.05")
    );
    assert_eq!(
        report["opponents"][0]["opponent"],
        serde_json::json!("Planted:x=0.05,y=0.95")
    );
    // --resume with --verify and nothing left to tune: the same verification, not
    // played again.
    let again = common::ok(&[
        "tune",
        "--resume",
        "--out",
        d,
        "-q",
        "--verify",
        "--verify-games",
        "40",
    ]);
    assert_eq!(
        again.lines().find(|l| l.starts_with("verified: ")),
        Some(verdict)
    );
}

#[test]
fn a_bad_verification_is_refused_before_tuning() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let d = dir.to_str().unwrap();
    let base = [
        "tune",
        "Planted",
        "--params",
        "x",
        "--batches",
        "2",
        "--out",
        d,
    ];
    common::fails(&[&base[..], &["--verify=elo0=0"]].concat(), "--verify: ");
    common::fails(
        &[&base[..], &["--verify", "--verify-games", "7"]].concat(),
        "--verify-games must be a positive even number",
    );
    assert!(!dir.exists());
}
