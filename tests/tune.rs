//! End-to-end tests of `fow tune`: what it writes, that the tuned spec plays, that
//! `--resume` continues exactly, the GA method, and bad input.

mod common;
use common::*;

#[allow(dead_code)]
#[path = "../examples/tunable_rust_bot.rs"]
mod bot;

use std::fs;

#[test]
fn tune_writes_a_spec_that_plays_and_is_deterministic() {
    let tmp = tempfile::tempdir().unwrap();
    let (full, part) = (tmp.path().join("full"), tmp.path().join("part"));
    let run = |dir: &std::path::Path, batches: &str| {
        ok(&[
            "tune",
            "Planted:x=0.1,y=0.9",
            "--params",
            "x,y",
            "--r-end",
            "0.05",
            "--batches",
            batches,
            "--pairs",
            "3",
            "--seed",
            "5",
            "-q",
            "--out",
            dir.to_str().unwrap(),
        ])
    };
    let out = run(&full, "6");
    assert!(
        out.contains("tuning x, y of Planted:x=0.1,y=0.9: 6 batches of 3 game pairs (0 done)"),
        "{out}"
    );
    // The same command gives the same files (the arena's tests stop and resume a run).
    run(&part, "6");
    let csv = fs::read_to_string(part.join("tune.csv")).unwrap();
    assert_eq!(csv.lines().count(), 7, "{csv}");
    assert_eq!(
        csv.lines().next().unwrap(),
        "batch,result,score,x,y,c_x,c_y"
    );
    for f in ["tune.csv", "best.json", "checkpoint.json", "tune.json"] {
        assert_eq!(
            fs::read(full.join(f)).unwrap(),
            fs::read(part.join(f)).unwrap(),
            "{f}"
        );
    }
    let best: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(full.join("best.json")).unwrap()).unwrap();
    let spec = best["player"].as_str().unwrap();
    assert!(
        spec.starts_with("Planted:x=") && spec.contains(",y="),
        "{spec}"
    );
    let m = tmp.path().join("m");
    ok(&[
        "match",
        spec,
        "Planted",
        "-n",
        "2",
        "-q",
        "--out",
        m.to_str().unwrap(),
    ]);
    let resumed = ok(&[
        "tune",
        "--resume",
        "--batches",
        "8",
        "-q",
        "--out",
        full.to_str().unwrap(),
    ]);
    assert!(
        resumed.contains("(6 done)") && resumed.contains("2 batches"),
        "{resumed}"
    );
    fails(
        &[
            "tune",
            "--resume",
            "--seed",
            "1",
            "--out",
            full.to_str().unwrap(),
        ],
        "--resume takes its settings",
    );
    fails(
        &[
            "tune",
            "--out",
            full.to_str().unwrap(),
            "Planted",
            "--params",
            "x",
            "-q",
        ],
        "already holds a tuning run",
    );
}

#[test]
fn the_ga_method_evolves_named_parameters() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("ga");
    let out = ok(&[
        "tune",
        "Planted",
        "--params",
        "x,y",
        "--method",
        "ga",
        "--batches",
        "2",
        "--population",
        "4",
        "--survivors",
        "2",
        "--benchmark-games",
        "4",
        "-q",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        out.contains("evolving Planted (2 parameters): population 4"),
        "{out}"
    );
    let best: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("best.json")).unwrap()).unwrap();
    assert!(
        best["player"].as_str().unwrap().starts_with("Planted:x="),
        "{best}"
    );
    let more = ok(&[
        "tune",
        "--resume",
        "--batches",
        "3",
        "-q",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(more.contains("(2 done)"), "{more}");
}

#[test]
fn bad_setups_are_one_line_and_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("t.toml");
    fs::write(
        &file,
        "player = \"Planted\"\n[[param]]\nname = \"x\"\nmin = 0.9\nmax = 0.1\n",
    )
    .unwrap();
    let out = tmp.path().join("o");
    let o = out.to_str().unwrap();
    fails(
        &[
            "tune",
            "--tune-file",
            file.to_str().unwrap(),
            "-q",
            "--out",
            o,
        ],
        "t.toml:3: parameter 'x': min 0.9 is above max 0.1",
    );
    fs::write(
        &file,
        "player = \"Planted\"\n[[param]]\nname = \"x\"\nstart = [\n",
    )
    .unwrap();
    fails(
        &[
            "tune",
            "--tune-file",
            file.to_str().unwrap(),
            "-q",
            "--out",
            o,
        ],
        "t.toml:4:",
    );
    fails(
        &["tune", "Planted", "--params", "z", "-q", "--out", o],
        "Planted has no parameter 'z'",
    );
    fails(
        &["tune", "Planted:x=2", "--params", "x", "-q", "--out", o],
        "the start 2 is outside its range 0 to 1",
    );
    fails(
        &["tune", "BeliefSearch", "--params", "eval", "-q", "--out", o],
        "is not a number",
    );
    fails(
        &["tune", "Nobody", "--params", "x", "-q", "--out", o],
        "unknown bot 'Nobody'",
    );
    fails(
        &[
            "tune", "Planted", "--params", "x", "--r-end", "0", "-q", "--out", o,
        ],
        "--r-end must be more than 0",
    );
    assert!(!out.exists(), "a refused run leaves no folder");
}

#[test]
fn a_programs_and_an_engines_ranges_come_from_what_they_declare() {
    if !python("the example bot and the fake engine are Python scripts") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("t.toml");
    let o = tmp.path().join("o");
    let o = o.to_str().unwrap();
    let run = |text: &str, extra: &[&str]| {
        fs::write(&file, text).unwrap();
        let mut args = vec![
            "tune",
            "--tune-file",
            file.to_str().unwrap(),
            "--batches",
            "1",
            "--pairs",
            "1",
            "-q",
            "--out",
            o,
        ];
        args.extend_from_slice(extra);
        fow(&args)
    };
    // The greedy example declares greed (real, 0 to 1) and queen (int, 1 to 20).
    let greedy = "player = \"exec:cmd=python3 examples/greedy_bot.py,greed=0.3\"\n[[param]]\nname = \"greed\"\n[[param]]\nname = \"queen\"\n";
    let out = run(greedy, &["--seed", "1"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cfg: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(std::path::Path::new(o).join("tune.json")).unwrap(),
    )
    .unwrap();
    let p = &cfg["space"]["params"];
    assert_eq!(
        (
            p[0]["start"].as_f64(),
            p[0]["min"].as_f64(),
            p[0]["max"].as_f64()
        ),
        (Some(0.3), Some(0.0), Some(1.0))
    );
    assert_eq!(
        (
            p[1]["start"].as_f64(),
            p[1]["max"].as_f64(),
            p[1]["int"].as_bool()
        ),
        (Some(10.0), Some(20.0), Some(true))
    );
    fs::remove_dir_all(o).unwrap();
    fs::write(
        &file,
        "player = \"exec:cmd=python3 examples/greedy_bot.py\"\n\n[[param]]\nname = \"boldness\"\n",
    )
    .unwrap();
    fails(
        &[
            "tune",
            "--tune-file",
            file.to_str().unwrap(),
            "-q",
            "--out",
            o,
        ],
        "t.toml:4: the program declares no option 'boldness'",
    );
    // The fake engine's spins give their ranges; a check option is not tuned.
    let engine = "player = \"uci:cmd=python3 tests/bots/fake_uci.py good x\"\n[[param]]\nname = \"Skill Level\"\n";
    fs::write(&file, engine).unwrap();
    let spec = ok(&[
        "tune",
        "--tune-file",
        file.to_str().unwrap(),
        "--batches",
        "1",
        "--pairs",
        "1",
        "-q",
        "--out",
        o,
    ]);
    assert!(spec.contains("option.Skill_Level="), "{spec}");
    fs::remove_dir_all(o).unwrap();
    fs::write(&file, "player = \"uci:cmd=python3 tests/bots/fake_uci.py good x\"\n[[param]]\nname = \"Ponder\"\n").unwrap();
    fails(
        &[
            "tune",
            "--tune-file",
            file.to_str().unwrap(),
            "-q",
            "--out",
            o,
        ],
        "t.toml:3: the engine's option 'Ponder' is not a spin",
    );
}

#[test]
fn a_bot_of_ones_own_is_registered_and_tuned_through_the_library() {
    use fow_arena::tune::{TuneConfig, Tuner};
    use fow_players::tune::TuneSpace;
    fow_players::register(fow_players::BotInfo::new(
        bot::NAME,
        "own",
        bot::PARAMS,
        |spec| Ok(Box::new(bot::Tunable::from_spec(spec)?)),
    ))
    .unwrap();
    assert!(
        fow_players::register(fow_players::BotInfo::new("RandomMove", "x", &[], |_| {
            unreachable!()
        }))
        .is_err()
    );
    let names = ["greed".to_string(), "queen".to_string()];
    let space = TuneSpace::declared("Tunable:greed=0.2", &names).unwrap();
    assert_eq!(
        (
            space.params[1].min,
            space.params[1].max,
            space.params[1].int
        ),
        (1.0, 20.0, true)
    );
    let config = TuneConfig::new(
        space,
        3,
        2,
        vec!["CaptureLargest".into()],
        fow_variants::RuleSet::thesis(),
        Some(1),
    )
    .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let mut t = Tuner::create(Some(&tmp.path().join("own")), config).unwrap();
    t.run(2, |_| true).unwrap();
    assert_eq!(t.done(), 3);
    assert!(
        t.best_spec().to_string().starts_with("Tunable:greed="),
        "{}",
        t.best_spec()
    );
}
