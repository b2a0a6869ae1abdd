//! End-to-end tests of `fow evolve` and `fow params`.

mod common;
use common::*;

use std::fs;

const SMALL: [&str; 10] = [
    "--population",
    "5",
    "--survivors",
    "2",
    "--benchmark-games",
    "6",
    "--seed",
    "7",
    "--jobs",
    "2",
];

#[test]
fn evolve_resumes_exactly_and_writes_its_files() {
    let tmp = tempfile::tempdir().unwrap();
    let full = tmp.path().join("full");
    let part = tmp.path().join("part");
    let run = |dir: &std::path::Path, epochs: &str, extra: &[&str]| {
        let mut args = vec![
            "evolve",
            "--quiet",
            "--epochs",
            epochs,
            "--out",
            dir.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        ok(&args)
    };
    let out = run(&full, "3", &SMALL);
    assert!(out.contains("3 epochs"), "{out}");
    run(&part, "1", &SMALL);
    let out = run(&part, "3", &["--resume"]);
    assert!(out.contains("2 epochs"), "{out}");
    for f in [
        "log.csv",
        "best.json",
        "top-benchmark.json",
        "checkpoint.json",
    ] {
        assert_eq!(
            fs::read(full.join(f)).unwrap(),
            fs::read(part.join(f)).unwrap(),
            "{f}"
        );
    }
    let log = fs::read_to_string(full.join("log.csv")).unwrap();
    assert_eq!(log.lines().count(), 4, "{log}");
    assert!(log.starts_with(
        "epoch,best_index,best_points,max_points,best_score,benchmark_score,spread,games"
    ));
    let svg = fs::read_to_string(full.join("plot.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("epoch"), "an SVG plot");
    // Three epochs (0 to 2): the ticks are whole epochs (and whole percents), no 0.2.
    let ticks: Vec<&str> = svg
        .split("<text")
        .skip(1)
        .filter_map(|t| Some(t.split_once('>')?.1.split("</text>").next()?.trim()))
        .filter(|t| t.parse::<f64>().is_ok())
        .collect();
    assert!(ticks.contains(&"1") && ticks.contains(&"2"), "{ticks:?}");
    assert!(ticks.iter().all(|t| t.parse::<u32>().is_ok()), "{ticks:?}");
    // The best parameters load as a player and show by name.
    let best = full.join("best.json");
    let spec = format!("PositionaryEvaluator:params={}", best.display());
    let shown = ok(&["params", "show", &spec]);
    assert_eq!(shown.lines().count(), 389);
    assert!(shown.starts_with("capture.pawn"));
    ok(&[
        "tournament",
        "--players",
        &format!("RandomMove,{spec}"),
        "--games",
        "1",
        "--quiet",
        "--out",
        tmp.path().join("t").to_str().unwrap(),
    ]);
    // Against a fixed opponent.
    let out = run(
        &tmp.path().join("against"),
        "1",
        &[&SMALL[..], &["--against", "RandomMove"]].concat(),
    );
    assert!(out.contains("against RandomMove"), "{out}");
}

#[test]
fn evolve_and_params_reject_bad_input() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("e");
    fails(
        &[
            "evolve",
            "--bot",
            "RandomMove",
            "--out",
            out.to_str().unwrap(),
        ],
        "not a parametrized bot",
    );
    fails(
        &["evolve", "--bot", "Nobody", "--out", out.to_str().unwrap()],
        "unknown bot 'Nobody'",
    );
    fails(
        &["evolve", "--survivors", "0", "--out", out.to_str().unwrap()],
        "survivors",
    );
    let bad = tmp.path().join("bad.json");
    fs::write(&bad, "{\"values\": {\"capture.king\": 3}}").unwrap();
    fails(
        &[
            "evolve",
            "--start",
            bad.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        "no parameter 'capture.king'",
    );
    fs::write(&bad, "{\"values\": ").unwrap();
    fails(
        &[
            "params",
            "show",
            &format!("PositionaryEvaluator:params={}", bad.display()),
        ],
        "bad.json",
    );
    let nums = tmp.path().join("nums.txt");
    fs::write(&nums, "1 2\n3 x\n").unwrap();
    fails(
        &["params", "import", nums.to_str().unwrap()],
        "nums.txt:2: 'x' is not a number",
    );
    fs::write(&nums, "1 2 3\n").unwrap();
    fails(
        &["params", "import", nums.to_str().unwrap()],
        "takes 389 parameters, not 3",
    );
    fails(
        &[
            "tournament",
            "--players",
            &format!(
                "RandomMove,PositionaryEvaluator:params={}",
                tmp.path().join("missing.json").display()
            ),
        ],
        "missing.json",
    );
}

#[test]
fn thesis_parameters_import_to_the_shipped_json() {
    let out = ok(&[
        "params",
        "import",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/thesis/positionary_evaluator_params.txt"
        ),
    ]);
    let shipped = fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/thesis/positionary_evaluator_params.json"
    ))
    .unwrap();
    assert_eq!(out, shipped);
}

/// `fow params show` reads every bot's declared parameters (issue 42): the values a spec
/// sets, with their defaults and ranges, and a value out of range is refused with it.
#[test]
fn params_show_lists_any_bots_declared_parameters() {
    let shown = ok(&["params", "show", "BeliefSearch:mean=0.7,deepen=on"]);
    let line = |name: &str| {
        shown
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no {name} in {shown}"))
            .to_string()
    };
    assert!(
        line("mean").contains("0.7") && line("mean").ends_with("(default 0.5; number, 0 to 1)")
    );
    assert!(
        line("deepen").contains(" on ") && line("deepen").ends_with("(default off; on or off)")
    );
    assert!(
        line("depth").ends_with("(default 2; integer, 1 to 32)"),
        "{shown}"
    );
    assert_eq!(
        shown.lines().count(),
        fow_players::find("BeliefSearch").unwrap().params.len()
    );
    assert_eq!(
        ok(&["params", "show", "RandomMove"]).trim(),
        "RandomMove takes no parameters"
    );
    fails(
        &["params", "show", "BeliefSearch:mean=2"],
        "mean must be 0 to 1, not 2",
    );
    fails(
        &["params", "show", "PossibleBoardList:cap=0"],
        "cap must be at least 1, not 0",
    );
}
