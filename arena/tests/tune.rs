//! The tuner: it finds a planted optimum, its trajectory does not depend on the threads,
//! and a run stopped between batches and resumed is the run played through.

use fow_arena::tune::{space_of, TuneConfig, Tuner, TRAJECTORY_FILE};
use fow_players::tune::TuneSpace;
use fow_variants::RuleSet;

/// Planted's x and y from far from the planted point (0.7, 0.3), with steps for a
/// short run.
fn planted(batches: u32, seed: u64) -> TuneConfig {
    let mut space =
        TuneSpace::declared("Planted:x=0.05,y=0.95", &["x".into(), "y".into()]).unwrap();
    for p in &mut space.params {
        p.c_end = 0.05;
        p.r_end = 0.05;
    }
    TuneConfig::new(space, batches, 8, Vec::new(), RuleSet::thesis(), Some(seed)).unwrap()
}

#[test]
fn spsa_finds_the_planted_optimum() {
    let tmp = tempfile::tempdir().unwrap();
    for seed in [1, 2] {
        let mut t =
            Tuner::create(Some(&tmp.path().join(seed.to_string())), planted(300, seed)).unwrap();
        t.run(2, |_| true).unwrap();
        let (x, y) = (t.theta()[0], t.theta()[1]);
        let d = (x - 0.7).hypot(y - 0.3);
        assert!(
            d < 0.2,
            "seed {seed}: ended at ({x:.3}, {y:.3}), {d:.3} from (0.7, 0.3)"
        );
    }
}

#[test]
fn the_trajectory_does_not_depend_on_threads_or_a_stop() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |name: &str, jobs: usize, stop_at: Option<u32>| {
        let dir = tmp.path().join(name);
        let mut t = Tuner::create(Some(&dir), planted(30, 9)).unwrap();
        t.run(jobs, |log| Some(log.batch + 1) != stop_at).unwrap();
        if let Some(stop) = stop_at {
            drop(t);
            let mut t = Tuner::open(&dir).unwrap();
            assert_eq!(t.done(), stop);
            t.run(jobs, |_| true).unwrap();
        }
        std::fs::read_to_string(dir.join(TRAJECTORY_FILE)).unwrap()
    };
    let one = run("one", 1, None);
    assert_eq!(one.lines().count(), 31, "{one}");
    assert_eq!(one, run("two", 2, None));
    assert_eq!(one, run("stopped", 2, Some(11)));
}

#[test]
fn a_cut_trajectory_is_repaired_from_the_checkpoint() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let mut t = Tuner::create(Some(&dir), planted(6, 3)).unwrap();
    t.run(1, |log| log.batch < 3).unwrap();
    drop(t);
    let path = dir.join(TRAJECTORY_FILE);
    let full = std::fs::read_to_string(&path).unwrap();
    // A kill after the checkpoint and in the middle of the last row.
    let cut = &full[..full.len() - 7];
    std::fs::write(&path, cut).unwrap();
    let mut t = Tuner::open(&dir).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), full);
    t.run(1, |_| true).unwrap();
    let mut whole = Tuner::create(Some(&tmp.path().join("w")), planted(6, 3)).unwrap();
    whole.run(1, |_| true).unwrap();
    assert_eq!(t.theta(), whole.theta());
}

#[test]
fn bad_setups_are_refused_with_their_reason() {
    let err = |player: &str, names: &[&str]| {
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        space_of(Some(player), &names, None)
            .unwrap_err()
            .to_string()
    };
    assert!(err("Planted", &["q"]).contains("no parameter 'q'"));
    assert!(err("NoSuchBot", &["q"]).contains("unknown bot"));
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let mut c = planted(5, 1);
    c.pairs = 0;
    assert!(Tuner::create(Some(&dir), c)
        .err()
        .unwrap()
        .to_string()
        .contains("--pairs"));
    let e = Tuner::open(&tmp.path().join("none"))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("holds no tuning run"), "{e}");
}
