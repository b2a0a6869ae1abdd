//! `fow web` in a real browser: headless Chromium (Debian's package, found on PATH or
//! in `FOW_CHROMIUM`) driven through the DevTools protocol by the headless_chrome crate.
//! Each page is opened and read through its DOM; a whole game is played against
//! RandomMove by clicks on the board; a run being written updates in the page; the
//! belief overlay shows what the bot itself believed. Screenshots of every page go to
//! `FOW_WEB_SHOTS` when set (`results/web/shots.sh` keeps them under `results/web/`).
//!
//! Skipped, with a message, when Chromium is not installed (`scripts/install-chromium.sh`).

mod common;
use common::web::*;
use common::*;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use fow_analysis::{belief_overlay, OverlayPlies};
use fow_players::Budget;
use fow_records::{load_game, LiveFile, GAMES_FILE};
use fow_variants::{Color, FogView, Position, RuleSet};
use headless_chrome::browser::tab::point::Point;
use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::{Browser, LaunchOptions, Tab};

/// The Chromium binary, if one runs.
fn chromium() -> Option<PathBuf> {
    let names = match std::env::var("FOW_CHROMIUM") {
        Ok(c) => vec![c],
        Err(_) => vec!["chromium".into(), "chromium-browser".into()],
    };
    names.into_iter().find_map(|c| {
        let ok = Command::new(&c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        ok.then(|| PathBuf::from(c))
    })
}

/// A headless browser, or `None` (the test is skipped, saying why).
fn browser(test: &str) -> Option<Browser> {
    let Some(path) = chromium() else {
        eprintln!(
            "skipped: {test}: chromium is not installed (scripts/install-chromium.sh installs it)"
        );
        return None;
    };
    let options = LaunchOptions::default_builder()
        .path(Some(path))
        .headless(true)
        .sandbox(false)
        .window_size(Some((1400, 1000)))
        .idle_browser_timeout(Duration::from_secs(600))
        .args(vec![
            std::ffi::OsStr::new("--disable-gpu"),
            std::ffi::OsStr::new("--disable-background-networking"),
            std::ffi::OsStr::new("--disable-component-update"),
        ])
        .build()
        .unwrap();
    Some(Browser::new(options).expect("chromium starts"))
}

/// A new tab with generous waits (a busy machine is slow, never wrong).
fn tab(b: &Browser) -> Arc<Tab> {
    let t = b.new_tab().unwrap();
    t.set_default_timeout(Duration::from_secs(120));
    t
}

/// Opens `path` on `server` and waits for the page `page` to be drawn.
fn open(tab: &Tab, server: &Server, path: &str, page: &str) {
    tab.navigate_to(&format!("http://{}{path}", server.addr))
        .unwrap();
    tab.wait_until_navigated().unwrap();
    tab.wait_for_element(&format!("body[data-ready='1'][data-page='{page}']"))
        .unwrap_or_else(|e| {
            panic!(
                "{path}: {e}; body: {}",
                text(tab, "document.body.innerText")
            )
        });
}

/// A JavaScript expression's value, as text.
fn text(tab: &Tab, js: &str) -> String {
    let v = tab.evaluate(&format!("String({js})"), false).unwrap();
    v.value
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default()
}

/// Waits until the JavaScript condition holds (the guard only fails a test that hangs).
fn until(tab: &Tab, js: &str) {
    let start = Instant::now();
    while text(tab, js) != "true" {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "never true: {js}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Keeps a screenshot as `name.png` in `FOW_WEB_SHOTS`, when set.
fn shot(tab: &Tab, name: &str) {
    let Ok(dir) = std::env::var("FOW_WEB_SHOTS") else {
        return;
    };
    let png = tab
        .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
        .unwrap();
    std::fs::write(Path::new(&dir).join(format!("{name}.png")), png).unwrap();
}

/// The elements `selector` finds, each as its square (`data-sq`, or for a promotion
/// button its piece) and its middle on the page, for a mouse click there.
fn squares(tab: &Tab, selector: &str) -> Vec<(String, Point)> {
    let js = format!(
        "JSON.stringify([...document.querySelectorAll(\"{selector}\")].map(e => {{ const r = e.getBoundingClientRect(); return [e.dataset.sq || e.dataset.promotion, r.x + r.width / 2, r.y + r.height / 2]; }}))"
    );
    let found: Vec<(String, f64, f64)> = serde_json::from_str(&text(tab, &js)).unwrap();
    found
        .into_iter()
        .map(|(s, x, y)| (s, Point { x, y }))
        .collect()
}

/// The cells a board of the page shows (`data-piece`, `?` for fog), a8 first.
fn page_cells(tab: &Tab, board: &str) -> Vec<String> {
    let js = format!(
        "JSON.stringify([...document.querySelectorAll('#{board} .sq')].map(s => s.dataset.fog ? '?' : (s.dataset.piece || '')))"
    );
    serde_json::from_str(&text(tab, &js)).unwrap()
}

/// An analysis of game `n` of the run in `dir`, saved as the folder's `analysis.csv`:
/// its 3rd ply a blunder.
fn write_analysis(dir: &Path, n: u64) {
    let game = load_game(&dir.join(GAMES_FILE), Some(n), &RuleSet::thesis()).unwrap();
    analysis_csv(&game, 3, 400.0, "a2a3", &dir.join("analysis.csv"));
}

#[test]
fn each_page_in_chromium_with_the_analysis_and_the_belief_overlay() {
    let Some(b) = browser("each page") else {
        return;
    };
    let root = runs();
    let t = root.path().join("t");
    // Game 4 of the round robin: PossibleBoardList (White) against RandomMove.
    let game = load_game(&t.join(GAMES_FILE), Some(4), &RuleSet::thesis()).unwrap();
    assert_eq!(
        (game.white.as_str(), game.black.as_str()),
        ("PossibleBoardList", "RandomMove")
    );
    write_analysis(&t, 4);
    let server = Server::start(&[root.path()], &[]);
    let tab = tab(&b);

    open(&tab, &server, "/", "index");
    assert_eq!(
        text(
            &tab,
            "document.querySelectorAll('#runs tr[data-run]').length"
        ),
        "2"
    );
    shot(&tab, "index");
    tab.find_element("#filter")
        .unwrap()
        .type_into("match")
        .unwrap();
    until(
        &tab,
        "document.querySelectorAll('#runs tr[data-run]').length === 1",
    );

    open(&tab, &server, "/run?r=0/t", "run");
    assert_eq!(
        text(
            &tab,
            "document.querySelectorAll('#ratings tbody tr').length"
        ),
        "3"
    );
    assert_eq!(
        text(
            &tab,
            "document.querySelectorAll('#crosstable tbody tr').length"
        ),
        "3"
    );
    assert_eq!(
        text(&tab, "document.querySelectorAll('#ladder circle').length"),
        "3"
    );
    shot(&tab, "run");
    // Sorting by plies, longest first, by two clicks on the column's head.
    tab.find_element("th[data-sort='plies']")
        .unwrap()
        .click()
        .unwrap();
    tab.find_element("th[data-sort='plies']")
        .unwrap()
        .click()
        .unwrap();
    let plies: Vec<u64> = serde_json::from_str(&text(
        &tab,
        "JSON.stringify([...document.querySelectorAll('#games tbody tr')].map(r => +r.cells[5].textContent))",
    ))
    .unwrap();
    assert_eq!(plies.len(), 12);
    assert!(plies.windows(2).all(|w| w[0] >= w[1]), "{plies:?}");
    // Filtering by player: RandomMove played 8 of the 12 games.
    tab.evaluate(
        "const s = document.getElementById('f-player'); s.value = 'RandomMove'; s.dispatchEvent(new Event('change'))",
        false,
    )
    .unwrap();
    assert_eq!(
        text(&tab, "document.getElementById('games-count').textContent"),
        "8 of 12 games"
    );

    open(&tab, &server, "/run?r=0/m", "run");
    let pairs = server.json("/api/run?r=0/m")["match"]["pairs"]
        .as_u64()
        .unwrap();
    assert_eq!(
        text(&tab, "document.querySelector('svg.llr').dataset.points"),
        pairs.to_string()
    );
    shot(&tab, "match");

    open(&tab, &server, "/game?r=0/t&g=4", "game");
    assert!(text(&tab, "document.getElementById('accuracy').textContent").starts_with("Accuracy"));
    // The start has no analysis, and nothing stands in for it.
    assert_eq!(
        text(&tab, "document.getElementById('info').textContent"),
        "Ply 0 of ".to_string() + &game.moves.len().to_string() + "Start position"
    );
    for _ in 0..3 {
        tab.press_key("ArrowRight").unwrap();
    }
    until(&tab, "document.body.dataset.ply === '3'");
    let mut pos = Position::startpos();
    for m in &game.moves[..3] {
        pos.play(m);
    }
    assert_eq!(
        page_cells(&tab, "board-white"),
        cells_of(&FogView::of(&pos, Color::White, &RuleSet::thesis()))
    );
    assert_eq!(
        page_cells(&tab, "board-black"),
        cells_of(&FogView::of(&pos, Color::Black, &RuleSet::thesis()))
    );
    assert_eq!(
        text(&tab, "document.querySelector('#moves .mv.cur').dataset.ply"),
        "3"
    );
    assert!(text(&tab, "document.getElementById('analysis').textContent").starts_with("blunder"));
    shot(&tab, "game");

    // The belief overlay at ply 4 (White to move): the bot's own belief, replayed here.
    tab.press_key("ArrowRight").unwrap();
    until(&tab, "document.body.dataset.ply === '4'");
    tab.find_element("#belief-white").unwrap().click().unwrap();
    tab.wait_for_element("#belief-count").unwrap();
    let overlay = belief_overlay(
        &game,
        Color::White,
        &Budget::default(),
        OverlayPlies::One(5),
    )
    .unwrap();
    let turn = overlay.turns.iter().find(|t| t.ply == 5).unwrap();
    assert_eq!(
        text(
            &tab,
            "document.getElementById('belief-count').dataset.boards"
        ),
        turn.boards.to_string()
    );
    // The heat map of the enemy king, square by square.
    let heat: Vec<f64> = serde_json::from_str(&text(
        &tab,
        "JSON.stringify([...document.querySelectorAll('#board-heat .sq')].map(s => +(s.dataset.heat || 0)))",
    ))
    .unwrap();
    let want = turn.heat.as_ref().unwrap().king.clone();
    for (i, (g, w)) in heat.iter().zip(&want).enumerate() {
        assert!((g - w).abs() < 1e-3, "square {i}: {g} against {w}");
    }
    assert!(want.iter().sum::<f64>() > 0.99);
    tab.evaluate("document.getElementById('belief').scrollIntoView()", false)
        .unwrap();
    shot(&tab, "belief");
}

#[test]
fn a_whole_game_against_random_move_by_clicks() {
    let Some(b) = browser("a game by clicks") else {
        return;
    };
    let root = tempfile::tempdir().unwrap();
    let server = Server::start(&[root.path()], &["--play", "RandomMove"]);
    let tab = tab(&b);
    open(&tab, &server, "/play", "play-form");
    tab.evaluate("document.getElementById('color').value = 'white'", false)
        .unwrap();
    tab.find_element("#seed").unwrap().type_into("11").unwrap();
    tab.find_element("#start").unwrap().click().unwrap();
    tab.wait_for_element("body[data-page='play']").unwrap();
    let mut clicked = Vec::new();
    let mut shot_taken = false;
    let mut pick: u64 = 11;
    loop {
        until(&tab, "['your-move', 'over'].includes(document.body.dataset.status) && document.body.dataset.ready === '1'");
        if text(&tab, "document.body.dataset.status") == "over" {
            break;
        }
        // Fogged squares never carry a piece.
        assert_eq!(
            text(
                &tab,
                "document.querySelectorAll('#board-mine .sq.fog[data-piece]').length"
            ),
            "0"
        );
        if clicked.len() == 4 && !shot_taken {
            shot(&tab, "play");
            shot_taken = true;
        }
        let version = text(&tab, "document.body.dataset.version");
        // Click one of our pieces that may move (a page mark), then one of the places it
        // shows: an enemy piece there if any (the king first), else one chosen by a fixed
        // sequence, so that the game is varied but repeatable. Each click is the mouse's,
        // at the square's middle.
        let movable: Vec<(String, Point)> = squares(&tab, "#board-mine .sq[data-movable]");
        assert!(!movable.is_empty(), "no piece of ours may move");
        pick = pick
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let (sq, at) = &movable[(pick >> 33) as usize % movable.len()];
        tab.click_point(*at).unwrap();
        let targets = squares(&tab, "#board-mine .sq.target[data-piece='k']");
        let targets = if targets.is_empty() {
            squares(&tab, "#board-mine .sq.target")
        } else {
            targets
        };
        assert!(!targets.is_empty(), "{sq} shows no place to go");
        let (target, at) = &targets[(pick >> 40) as usize % targets.len()];
        tab.click_point(*at).unwrap();
        let promo = squares(&tab, "#promo button");
        if let Some((p, at)) = promo.first() {
            tab.click_point(*at).unwrap();
            clicked.push(format!("{sq}{target}{p}"));
        } else {
            clicked.push(format!("{sq}{target}"));
        }
        until(
            &tab,
            &format!("document.body.dataset.version !== '{version}'"),
        );
    }
    eprintln!("{} moves clicked", clicked.len());
    shot(&tab, "play-over");
    // The saved game opens in the game page, and our moves are the ones clicked.
    tab.wait_for_element("body[data-ready='1'][data-page='game']")
        .unwrap();
    let game = played_game(root.path());
    assert_eq!(game.white, "Human");
    // Under thesis rules a pawn promotes to a queen, which games.csv leaves unwritten.
    let ours: Vec<String> = game.moves.iter().step_by(2).map(|m| m.uci()).collect();
    let clicked: Vec<String> = clicked
        .iter()
        .map(|m| m.strip_suffix('q').unwrap_or(m).to_string())
        .collect();
    let ours: Vec<String> = ours
        .iter()
        .map(|m| m.strip_suffix('q').unwrap_or(m).to_string())
        .collect();
    assert_eq!(ours, clicked);
    assert!(game.result.is_some());
    let frames = text(&tab, "document.querySelectorAll('#moves .mv').length");
    assert_eq!(frames, game.moves.len().to_string());
}

#[test]
fn a_run_being_written_updates_in_the_browser_and_a_game_is_watched_ply_by_ply() {
    let Some(b) = browser("live updates") else {
        return;
    };
    let root = runs();
    let t = root.path().join("t");
    let x = root.path().join("x");
    let lines = first_games(&t, &x, 5);
    let server = Server::start(&[root.path()], &[]);
    let tab = tab(&b);
    open(&tab, &server, "/run?r=0/x", "run");
    until(&tab, "document.body.dataset.games === '5'");
    assert_eq!(
        text(&tab, "document.getElementById('games-count').textContent"),
        "5 of 5 games"
    );
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(x.join(GAMES_FILE))
        .unwrap();
    writeln!(f, "{}", lines[6]).unwrap();
    until(
        &tab,
        "document.getElementById('games-count').textContent === '6 of 6 games'",
    );
    until(
        &tab,
        "document.querySelectorAll('#ratings tbody tr').length === 3",
    );
    shot(&tab, "live-run");

    let saved = load_game(&t.join(GAMES_FILE), Some(7), &RuleSet::thesis()).unwrap();
    let mut live = LiveFile::create(&x, &live_header(&saved, 7)).unwrap();
    open(&tab, &server, "/run?r=0/x", "run");
    assert_eq!(
        text(&tab, "document.querySelectorAll('#live-games li').length"),
        "1"
    );
    open(&tab, &server, "/watch?r=0/x&g=7", "watch");
    let mut pos = Position::startpos();
    for (i, m) in saved.moves.iter().take(5).enumerate() {
        live.push(m);
        pos.play(m);
        until(
            &tab,
            &format!("document.body.dataset.plies === '{}'", i + 1),
        );
        assert_eq!(page_cells(&tab, "board-truth"), board_cells(&pos));
        assert_eq!(
            page_cells(&tab, "board-black"),
            cells_of(&FogView::of(&pos, Color::Black, &RuleSet::thesis()))
        );
    }
    shot(&tab, "watch");
    writeln!(f, "{}", lines[8]).unwrap();
    live.close().unwrap();
    until(&tab, "document.body.dataset.over === '1'");
    assert!(text(&tab, "document.getElementById('status').textContent").starts_with("Game over"));
}
