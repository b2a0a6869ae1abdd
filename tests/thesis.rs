//! The thesis reproduction, scaled down: `fow tournament --preset thesis` with one game per
//! ordered pair and a small node budget (the full run is 100 games per pair at the bots'
//! default budgets), and `fow compare-thesis`.

mod common;
use common::*;

use std::collections::HashMap;
use std::fs;
use std::path::Path;

use fow_records::{read_games, TournamentConfig};

const THESIS_ORDER: [&str; 10] = [
    "RandomMove",
    "CaptureKing",
    "CaptureLargest",
    "CaptureWithLargestDifference",
    "Supporter",
    "PositionaryEvaluator",
    "NeuralNetworkPlayer",
    "SimpleStockfish",
    "PossibleBoardGenerator",
    "PossibleBoardList",
];

/// The presets' players: the thesis's bots, its network as the thesis's own.
fn preset_players() -> Vec<&'static str> {
    let mut p = THESIS_ORDER.to_vec();
    p[6] = "NeuralNetworkPlayer:weights=thesis";
    p
}

/// Files every tournament writes, and those the preset adds.
const TOURNAMENT_FILES: [&str; 6] = [
    "tournament.json",
    "games.csv",
    "times.csv",
    "crosstable.csv",
    "ratings.csv",
    "summary.csv",
];
const COMPARISON_FILES: [&str; 6] = [
    "crosstable.md",
    "ratings.md",
    "thesis-comparison.csv",
    "thesis-comparison.md",
    "thesis-correlation.csv",
    "ladder.svg",
];
/// The files that hold no wall-clock figure: equal across runs with the same seed.
const DETERMINISTIC: [&str; 7] = [
    "games.csv",
    "crosstable.csv",
    "ratings.csv",
    "crosstable.md",
    "thesis-correlation.csv",
    "ladder.svg",
    "tournament.json",
];

/// `fow tournament --preset PRESET --games 1 --nodes 500` into `dir`; returns its output.
fn preset(preset: &str, dir: &Path) -> String {
    ok(&[
        "tournament",
        "--preset",
        preset,
        "--games",
        "1",
        "--nodes",
        "500",
        "--jobs",
        "2",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ])
}

/// The rows of a CSV without quoted fields, as maps from the header's names.
fn csv_rows(dir: &Path, name: &str) -> Vec<HashMap<String, String>> {
    let text = String::from_utf8(read(dir, name)).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| {
            let fields: Vec<&str> = l.split(',').collect();
            assert_eq!(fields.len(), header.len(), "{name}: {l}");
            header
                .iter()
                .zip(fields)
                .map(|(h, f)| (h.to_string(), f.to_string()))
                .collect()
        })
        .collect()
}

#[test]
fn presets_write_the_comparison_and_repeat_exactly() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let out = preset("thesis", &a);
    assert!(
        out.starts_with("10 players, 1 game per ordered pair, 90 games, rules thesis, seed 2023"),
        "{out}"
    );
    assert!(out.contains("# fow against the thesis"), "{out}");
    assert!(out.contains("Spearman's rho = "), "{out}");
    for f in TOURNAMENT_FILES.iter().chain(&COMPARISON_FILES) {
        assert!(!read(&a, f).is_empty(), "{f} is empty");
    }

    // The comparison: one row per thesis bot, in the thesis's order, our figures beside
    // the thesis's Table 2.
    let rows = csv_rows(&a, "thesis-comparison.csv");
    let order: Vec<&str> = rows.iter().map(|r| r["thesis_player"].as_str()).collect();
    assert_eq!(order, THESIS_ORDER);
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r["thesis_index"], (i + 1).to_string());
        // NeuralNetworkPlayer:weights=thesis is compared with the thesis's network.
        assert_eq!(r["player"], preset_players()[i]);
        assert_eq!(r["games"], "18");
        let mle: f64 = r["mle_elo"].parse().unwrap();
        let thesis: f64 = r["thesis_elo"].parse().unwrap();
        let diff: f64 = r["difference"].parse().unwrap();
        assert!((mle - thesis - diff).abs() < 0.011, "{r:?}");
        assert!(r["avg_ms_per_move"].parse::<f64>().unwrap() >= 0.0);
    }
    assert_eq!(rows[0]["mle_elo"], "0.00");
    assert_eq!(rows[9]["thesis_elo"], "1525.73");
    assert_eq!(rows[9]["thesis_avg_ms_per_move"], "475");
    assert!(["yes", "no"].contains(&rows[9]["outside_our_ci95"].as_str()));

    let corr = csv_rows(&a, "thesis-correlation.csv");
    assert_eq!(corr[0]["measure"], "spearman_rho");
    assert_eq!(corr[1]["measure"], "kendall_tau_b");
    for c in &corr {
        let v: f64 = c["value"].parse().unwrap();
        assert!((-1.0..=1.0).contains(&v), "{c:?}");
        assert_eq!(c["players"], "10");
    }

    let cfg = TournamentConfig::load(&a).unwrap();
    assert_eq!(cfg.players, preset_players());
    let md = String::from_utf8(read(&a, "thesis-comparison.md")).unwrap();
    assert!(
        md.contains("| 7 | NeuralNetworkPlayer | NeuralNetworkPlayer:weights=thesis |"),
        "{md}"
    );
    assert_eq!(
        md.lines().filter(|l| l.starts_with("| ")).count(),
        11,
        "{md}"
    );
    assert!(md.contains("node budget 500 per move"), "{md}");
    let svg = String::from_utf8(read(&a, "ladder.svg")).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("PossibleBoardList"),
        "{svg}"
    );
    let crosstable = String::from_utf8(read(&a, "crosstable.md")).unwrap();
    assert_eq!(
        crosstable.lines().filter(|l| l.starts_with("| ")).count(),
        11
    );

    // Same seed, same games and the same deterministic files.
    preset("thesis", &b);
    for f in DETERMINISTIC {
        assert!(read(&a, f) == read(&b, f), "{f} differs between two runs");
    }

    // Resuming a finished preset run plays nothing and writes the comparison again.
    fs::remove_file(a.join("thesis-comparison.csv")).unwrap();
    let out = ok(&[
        "tournament",
        "--preset",
        "thesis",
        "--resume",
        "--quiet",
        "--out",
        a.to_str().unwrap(),
    ]);
    assert!(out.contains("90 games on disk, 0 played now"), "{out}");
    assert_eq!(csv_rows(&a, "thesis-comparison.csv").len(), 10);

    // compare-thesis regenerates the files from the folder alone.
    for f in COMPARISON_FILES {
        fs::remove_file(b.join(f)).unwrap();
    }
    let out = ok(&["compare-thesis", b.to_str().unwrap()]);
    assert!(out.contains("Kendall's tau-b = "), "{out}");
    for f in DETERMINISTIC {
        assert!(
            read(&a, f) == read(&b, f),
            "{f} differs after compare-thesis"
        );
    }

    check_extended(&a, &tmp.path().join("ext"));
}

/// `--preset thesis-extended` into `ext`: the variant's row follows PositionaryEvaluator's,
/// and the ten bots' games equal those of the plain preset's run in `base`.
fn check_extended(base: &Path, ext: &Path) {
    let out = preset("thesis-extended", ext);
    assert!(
        out.starts_with("11 players, 1 game per ordered pair, 110 games"),
        "{out}"
    );
    let rows = csv_rows(ext, "thesis-comparison.csv");
    let players: Vec<&str> = rows.iter().map(|r| r["player"].as_str()).collect();
    let variant = "PositionaryEvaluator:params=data/thesis/positionary_evaluator_params.json";
    let mut expected: Vec<&str> = preset_players();
    expected.insert(6, variant);
    assert_eq!(players, expected);
    assert_eq!(rows[6]["thesis_player"], "PositionaryEvaluator");
    assert_eq!(rows[6]["thesis_elo"], "992.05");
    assert_eq!(csv_rows(ext, "thesis-correlation.csv")[0]["players"], "10");

    // A game's seed depends on its players and round only: the ten bots' games are those
    // of the plain preset.
    let key = |g: &fow_records::GameRow| (g.white.clone(), g.black.clone(), g.round);
    let ten: HashMap<_, _> = read_games(&base.join("games.csv"))
        .unwrap()
        .into_iter()
        .map(|g| (key(&g), (g.seed, g.result, g.moves)))
        .collect();
    let eleven = read_games(&ext.join("games.csv")).unwrap();
    assert_eq!(eleven.len(), 110);
    let mut shared = 0;
    for g in &eleven {
        if let Some(same) = ten.get(&key(g)) {
            assert_eq!(same, &(g.seed, g.result.clone(), g.moves.clone()), "{g:?}");
            shared += 1;
        }
    }
    assert_eq!(shared, 90);
}

#[test]
fn preset_conflicts_and_bad_folders_fail_cleanly() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    fails(
        &[
            "tournament",
            "--preset",
            "thesis",
            "--players",
            "RandomMove,CaptureKing",
            "--out",
            dir,
        ],
        "--preset thesis fixes the players and the rules",
    );
    fails(
        &[
            "tournament",
            "--preset",
            "thesis",
            "--rules",
            "chesscom",
            "--out",
            dir,
        ],
        "drop --players/--rules",
    );
    fails(
        &[
            "tournament",
            "--preset",
            "thesis",
            "--en-passant",
            "on",
            "--out",
            dir,
        ],
        "--preset thesis fixes",
    );
    fails(&["compare-thesis", dir], "tournament.json");

    // A folder of another tournament: --resume --preset refuses it; compare-thesis needs
    // at least one thesis bot.
    let (_t, _) = tournament("RandomMove,CaptureKing", 1, "1");
    let other = _t.path().to_str().unwrap();
    fails(
        &[
            "tournament",
            "--preset",
            "thesis",
            "--resume",
            "--out",
            other,
        ],
        "does not hold a --preset thesis tournament",
    );
    // The committed reproduction was played before the preset used the thesis's network:
    // --resume --preset refuses it (its games would mix two networks) and says how to
    // resume it; compare-thesis still reads it, its NeuralNetworkPlayer row the thesis's.
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/thesis-reproduction");
    let old = tmp.path().join("old");
    fs::create_dir(&old).unwrap();
    for f in ["tournament.json", "games.csv", "times.csv"] {
        fs::copy(committed.join(f), old.join(f)).unwrap();
    }
    let resume = [
        "tournament",
        "--preset",
        "thesis",
        "--resume",
        "--out",
        old.to_str().unwrap(),
    ];
    fails(
        &resume,
        "played before the preset used the thesis's own network",
    );
    fails(&resume, "Resume it without --preset");
    ok(&["compare-thesis", old.to_str().unwrap()]);
    let rows = csv_rows(&old, "thesis-comparison.csv");
    assert_eq!(rows[6]["thesis_player"], "NeuralNetworkPlayer");
    assert_eq!(rows[6]["player"], "NeuralNetworkPlayer");
    assert_eq!(rows[6]["games"], "1800");
    assert_eq!(rows[6]["mle_elo"], "1056.46");

    // The same games between players who are not thesis bots: renamed, with the seeds
    // their schedule gives them (fow checks each row against it).
    let foreign = tmp.path().join("foreign");
    fs::create_dir(&foreign).unwrap();
    let rename = |s: &str| {
        s.replace("RandomMove", "Alice")
            .replace("CaptureKing", "Bob")
    };
    // Renamed settings and rows would not match their tags: a folder as fow wrote them
    // before tags.
    as_before_tags(_t.path());
    let cfg = rename(&fs::read_to_string(_t.path().join("tournament.json")).unwrap());
    fs::write(foreign.join("tournament.json"), &cfg).unwrap();
    let schedule = serde_json::from_str::<TournamentConfig>(&cfg)
        .unwrap()
        .pairings();
    let mut w = csv::Writer::from_path(foreign.join("games.csv")).unwrap();
    for mut row in read_games(&_t.path().join("games.csv")).unwrap() {
        row.white = rename(&row.white);
        row.black = rename(&row.black);
        row.seed = schedule[row.id as usize].seed;
        w.serialize(&row).unwrap();
    }
    w.flush().unwrap();
    drop(w);
    as_before_tags(&foreign);
    fails(
        &["compare-thesis", foreign.to_str().unwrap()],
        "none of the players is one of the thesis's bots",
    );
}
