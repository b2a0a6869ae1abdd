//! The HTML replay in a real browser: headless Chromium opens the page `fow replay --html`
//! wrote, at a step given by the URL hash, presses keys and clicks buttons through the
//! page's own handlers, and the test reads the resulting DOM: the move shown, every
//! square of the board (pieces, and fog in a side's view), the view, the result, the
//! analysis.
//!
//! Skipped, with a message, when Chromium is not installed (`scripts/install-chromium.sh`
//! installs it; CI runs that first). `FOW_CHROMIUM` names another binary.

mod common;
use common::*;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use fow_records::{load_game, SavedGame};
use fow_variants::{piece_symbol, Color, FogView, Position, RuleSet, Square};

const CHESSCOM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/chesscom-fow");

/// The Chromium binary, if one runs.
fn chromium() -> Option<String> {
    let candidates = match std::env::var("FOW_CHROMIUM") {
        Ok(c) => vec![c],
        Err(_) => vec!["chromium".to_string(), "chromium-browser".to_string()],
    };
    for c in candidates {
        let ok = Command::new(&c)
            .arg("--version")
            .stderr(Stdio::null())
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            return Some(c);
        }
    }
    None
}

/// The DOM of `page` opened at `#hash`, after its scripts ran.
fn dom(chromium: &str, page: &Path, hash: &str) -> String {
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--no-first-run",
            "--disable-extensions",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}#{hash}", page.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        stdout.read_to_string(&mut s).map(|_| s)
    });
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within 120 s on #{hash}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = reader.join().unwrap().unwrap();
    assert!(
        out.contains("data-ready=\"1\""),
        "the page's script did not run (#{hash}):\n{out}"
    );
    out
}

/// HTML text entities back to text.
fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

/// An element's opening tag: its attributes, and its text up to the next tag.
struct Element {
    attrs: Vec<(String, String)>,
    text: String,
}

impl Element {
    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn has_class(&self, class: &str) -> bool {
        self.attr("class")
            .is_some_and(|c| c.split_whitespace().any(|x| x == class))
    }
}

/// The element whose opening tag starts at `at` (the `<`).
fn element_at(dom: &str, at: usize) -> Element {
    let end = at + dom[at..].find('>').unwrap();
    let tag = &dom[at + 1..end];
    let mut attrs = Vec::new();
    let mut rest = tag.split_once(char::is_whitespace).map_or("", |x| x.1);
    while let Some(eq) = rest.find('=') {
        let name = rest[..eq].trim().to_string();
        let value_start = eq + 2; // after ="
        let value_end = value_start + rest[value_start..].find('"').unwrap();
        attrs.push((name, unescape(&rest[value_start..value_end])));
        rest = &rest[value_end + 1..];
        // Attributes without a value (none in this page) would need more care.
    }
    let text_end = end + 1 + dom[end + 1..].find('<').unwrap();
    Element {
        attrs,
        text: unescape(&dom[end + 1..text_end]),
    }
}

/// The element with `id`.
fn by_id(dom: &str, id: &str) -> Element {
    let needle = format!(" id=\"{id}\"");
    let at = dom
        .find(&needle)
        .unwrap_or_else(|| panic!("no #{id} in the page"));
    element_at(dom, dom[..at].rfind('<').unwrap())
}

/// Every element with an attribute `name`.
fn all_with(dom: &str, name: &str) -> Vec<Element> {
    let needle = format!(" {name}=\"");
    dom.match_indices(&needle)
        .map(|(at, _)| element_at(dom, dom[..at].rfind('<').unwrap()))
        .collect()
}

/// The 64 board squares by name.
fn squares(dom: &str) -> Vec<(Square, Element)> {
    let sq: Vec<(Square, Element)> = all_with(dom, "data-square")
        .into_iter()
        .map(|e| (e.attr("data-square").unwrap().parse().unwrap(), e))
        .collect();
    assert_eq!(sq.len(), 64);
    sq
}

/// Checks the shown board against the position: the true board, or exactly what one
/// side sees (fog elsewhere: no hidden piece is shown).
fn check_board(dom: &str, pos: &Position, view: Option<Color>, rules: &RuleSet) {
    let fog_view = view.map(|c| FogView::of(pos, c, rules));
    let mut fog = 0;
    for (sq, e) in squares(dom) {
        let seen = fog_view.as_ref().is_none_or(|v| v.visible().contains(sq));
        if seen {
            let want = pos
                .board()
                .piece_at(sq)
                .map_or(String::new(), |p| piece_symbol(p).to_string());
            assert!(!e.has_class("fog"), "{sq} is visible");
            assert_eq!(e.text, want, "{sq} in {view:?}");
        } else {
            fog += 1;
            assert!(e.has_class("fog"), "{sq} should be fog in {view:?}");
            assert_eq!(e.text, "", "{sq} is fog but shows something");
            assert_eq!(e.attr("data-piece"), Some("?"));
        }
    }
    assert_eq!(fog > 0, view.is_some(), "fog squares: {fog}");
}

/// The position after `ply` plies.
fn position_after(game: &SavedGame, ply: usize) -> Position {
    let mut pos = game.start.clone();
    for m in &game.moves[..ply] {
        pos.play(m);
    }
    pos
}

/// Writes a page with an analysis where White's 5th ply is a blunder that leaves its
/// king capturable; returns the page's path.
fn write_page(dir: &Path, game: &SavedGame) -> PathBuf {
    let csv = dir.join("analysis.csv");
    analysis_csv(game, 5, 400.0, "b1c3", &csv);
    let page = dir.join("game.html");
    ok(&[
        "replay",
        CHESSCOM,
        "--game",
        "1",
        "--analysis",
        csv.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    page
}

#[test]
fn chromium_shows_the_game_steps_and_views() {
    let Some(chromium) = chromium() else {
        eprintln!("skipped: chromium is not installed (scripts/install-chromium.sh installs it)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let game = load_game(Path::new(CHESSCOM), Some(1), &RuleSet::thesis()).unwrap();
    let page = write_page(dir.path(), &game);
    let rules = game.rules;

    // Opened at ply 35 in Black's view: 18. Qxb4, and only what Black saw.
    let d = dom(&chromium, &page, "ply=35&view=black");
    let body = by_id(&d.replace("<body ", "<body id=\"body\" "), "body");
    assert_eq!(body.attr("data-ply"), Some("35"));
    assert_eq!(body.attr("data-view"), Some("black"));
    assert_eq!(by_id(&d, "move").text, "18. Qxb4 (d2b4) by White");
    assert_eq!(by_id(&d, "capture").text, "Captures Black's bishop on b4");
    assert_eq!(by_id(&d, "position").text, "Ply 35 of 36 · Black's view");
    assert!(by_id(&d, "view-black").has_class("active"));
    assert!(by_id(&d, "end").attr("hidden").is_some());
    let pos = position_after(&game, 35);
    check_board(&d, &pos, Some(Color::Black), &rules);
    // White's king on c1 is hidden from Black; the queen that just took is seen.
    let sq = squares(&d);
    let at = |name: &str| &sq.iter().find(|(s, _)| s.to_string() == name).unwrap().1;
    assert!(at("c1").has_class("fog"));
    assert_eq!(at("b4").text, "♕");
    assert!(at("b4").has_class("moved"));

    // Keys through the page's keydown handler: → → → ← End ← Home Space l, then 3.
    let d = dom(
        &chromium,
        &page,
        "keys=ArrowRight,ArrowRight,ArrowRight,ArrowLeft,End,ArrowLeft,Home,Space,l,3",
    );
    assert_eq!(by_id(&d, "move").text, "1... e6 (e7e6) by Black");
    assert_eq!(by_id(&d, "position").text, "Ply 2 of 36 · Black's view");
    check_board(&d, &position_after(&game, 2), Some(Color::Black), &rules);

    // Buttons and the move list through click(): next next last prev prev, move 7,
    // White's view, next.
    let d = dom(
        &chromium,
        &page,
        "click=next,next,last,prev,prev,move-7,view-white,next",
    );
    assert_eq!(by_id(&d, "move").text, "4... d6 (d7d6) by Black");
    assert_eq!(by_id(&d, "position").text, "Ply 8 of 36 · White's view");
    check_board(&d, &position_after(&game, 8), Some(Color::White), &rules);
    let current: Vec<Element> = all_with(&d, "data-ply")
        .into_iter()
        .filter(|e| e.has_class("current"))
        .collect();
    assert_eq!(current.len(), 1);
    assert_eq!(current[0].attr("data-ply"), Some("8"));
    assert_eq!(current[0].text, "d6");

    // The end, full board: the result, the analysis summary and the flagged blunder.
    let d = dom(&chromium, &page, "ply=36&view=full");
    check_board(&d, &position_after(&game, 36), None, &rules);
    let end = by_id(&d, "end");
    assert!(end.attr("hidden").is_none());
    assert_eq!(
        end.text,
        "Game over: 0-1, Black wins (White resigned • 0-1)"
    );
    assert_eq!(
        by_id(&d, "result").text,
        "Result: 0-1, Black wins (White resigned • 0-1)"
    );
    // The opening by position, as `fow analyze` and `fow export` name it.
    let opening = by_id(&d, "opening");
    assert!(opening.attr("hidden").is_none());
    assert_eq!(
        opening.text,
        "Opening: C00 French Defense: Normal Variation (out of the table from ply 4)"
    );
    let accuracy = by_id(&d, "accuracy").text;
    assert!(
        accuracy.starts_with("White accuracy ")
            && accuracy.contains("1 blunder")
            && accuracy.contains("king left capturable 1 time"),
        "{accuracy}"
    );
    let fifth = all_with(&d, "data-ply")
        .into_iter()
        .find(|e| e.attr("data-ply") == Some("5"))
        .unwrap();
    assert!(fifth.has_class("label-blunder"), "{:?}", fifth.attrs);
    assert!(d.contains("class=\"kingflag\""));
    let d = dom(&chromium, &page, "ply=5");
    let analysis = by_id(&d, "analysis");
    assert!(analysis.has_class("label-blunder"));
    assert!(
        analysis
            .text
            .starts_with("Analysis: blunder — White's win chance 50.0% → ")
            && analysis
                .text
                .ends_with("engine's move Nc3 (b1c3) ⚠ left its king capturable"),
        "{}",
        analysis.text
    );
}

/// A tournament game's 64-bit seed shows exactly (it is larger than JavaScript's exact
/// integers, so the page must carry it as text).
#[test]
fn chromium_shows_a_tournament_seed_exactly() {
    let Some(chromium) = chromium() else {
        eprintln!("skipped: chromium is not installed (scripts/install-chromium.sh installs it)");
        return;
    };
    let (dir, rows) = tournament("RandomMove,CaptureKing", 1, "1");
    let row = rows
        .iter()
        .find(|r| r.seed > 1 << 53)
        .expect("a seed above 2^53");
    let page = dir.path().join("game.html");
    ok(&[
        "replay",
        dir.path().to_str().unwrap(),
        "--game",
        &row.id.to_string(),
        "--html",
        page.to_str().unwrap(),
    ]);
    let d = dom(&chromium, &page, "ply=1");
    let meta = by_id(&d, "meta").text;
    assert!(meta.contains(&format!("seed {} ", row.seed)), "{meta}");
}
