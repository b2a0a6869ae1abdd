//! `fow web` end to end, over HTTP: the runs it lists and the JSON of a run, a match and
//! a game; the files it never serves (path traversal, links out, foreign hosts); many
//! connections at once and a slow client; a game played over HTTP whose every answer
//! holds only the person's own view; Ctrl-C; live updates of a run and of a game being
//! played (server-sent events). The browser tests are in tests/web_browser.rs.

mod common;
use common::web::*;
use common::*;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::time::Duration;

use fow_records::{load_game, LiveFile, GAMES_FILE};
use fow_variants::{Color, FogView, Position, RuleSet};
use serde_json::Value;

#[test]
fn web_lists_runs_and_serves_a_run_a_match_and_a_game() {
    let root = runs();
    let server = Server::start(&[root.path()], &[]);
    let runs = server.json("/api/runs");
    let kinds: Vec<(&str, &str, u64)> = runs["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap(),
                r["kind"].as_str().unwrap(),
                r["games"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(kinds.contains(&("0/t", "tournament", 12)), "{kinds:?}");
    assert!(
        kinds.iter().any(|k| k.0 == "0/m" && k.1 == "match"),
        "{kinds:?}"
    );

    let t = server.json("/api/run?r=0/t");
    assert_eq!(t["games"].as_array().unwrap().len(), 12);
    let table = &t["table"];
    assert_eq!(table["players"].as_array().unwrap().len(), 3);
    // The crosstable: each pair met 4 times (2 games each way).
    for (i, row) in table["cells"].as_array().unwrap().iter().enumerate() {
        for (j, c) in row.as_array().unwrap().iter().enumerate() {
            if i == j {
                assert!(c.is_null());
            } else {
                let n = c["wins"].as_u64().unwrap()
                    + c["draws"].as_u64().unwrap()
                    + c["losses"].as_u64().unwrap();
                assert_eq!(n, 4, "{i} against {j}");
            }
        }
    }
    let ratings = table["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 3);
    // The same ratings as the tournament's own ratings.csv.
    let csv = std::fs::read_to_string(root.path().join("t/ratings.csv")).unwrap();
    for r in ratings {
        let name = r["player"].as_str().unwrap();
        let line = csv.lines().find(|l| l.contains(name)).unwrap();
        let elo = format!("{:.2}", r["elo"].as_f64().unwrap());
        assert!(line.contains(&elo), "{name}: {elo} not in {line}");
    }
    assert!(t["settings"].get("secret").is_none());

    let m = server.json("/api/run?r=0/m");
    let opp = &m["match"]["opponents"][0];
    let pairs = m["match"]["pairs"].as_u64().unwrap();
    assert!(pairs > 0);
    assert_eq!(opp["llr"].as_array().unwrap().len() as u64, pairs);
    let bounds = opp["bounds"].as_array().unwrap();
    assert!(bounds[0].as_f64().unwrap() < 0.0 && bounds[1].as_f64().unwrap() > 0.0);
    // The last LLR is match.json's.
    let written: Value =
        serde_json::from_slice(&std::fs::read(root.path().join("m/match.json")).unwrap()).unwrap();
    let last = opp["llr"].as_array().unwrap().last().unwrap()[1]
        .as_f64()
        .unwrap();
    let llr = written["opponents"][0]["sprt"]["llr"].as_f64().unwrap();
    assert!((last - llr).abs() < 1e-9, "{last} against {llr}");

    let g = server.json("/api/game?r=0/t&g=3");
    let saved = load_game(
        &root.path().join("t/games.csv"),
        Some(3),
        &RuleSet::thesis(),
    )
    .unwrap();
    let frames = g["frames"].as_array().unwrap();
    assert_eq!(frames.len(), saved.moves.len() + 1);
    let mut pos = Position::startpos();
    for (i, m) in saved.moves.iter().enumerate() {
        pos.play(m);
        let f = &frames[i + 1];
        for (key, color) in [("white", Color::White), ("black", Color::Black)] {
            let want = cells_of(&FogView::of(&pos, color, &RuleSet::thesis()));
            let got: Vec<String> = serde_json::from_value(f[key].clone()).unwrap();
            assert_eq!(got, want, "ply {} {key}", i + 1);
        }
    }
    let (status, pgn) = server.get("/api/pgn?r=0/t&g=3");
    assert_eq!(status, 200);
    assert!(
        pgn.contains(&format!("[White \"{}\"]", saved.white)),
        "{pgn}"
    );
    for missing in ["/api/game?r=0/t&g=99", "/api/run?r=0/nothing", "/nothing"] {
        assert_eq!(server.get(missing).0, 404, "{missing}");
    }
}

#[test]
fn web_never_serves_a_file_outside_its_roots() {
    let outer = tempfile::tempdir().unwrap();
    let root = outer.path().join("results");
    std::fs::create_dir_all(&root).unwrap();
    let secret = "TOP-SECRET-4711";
    std::fs::write(outer.path().join("secret.svg"), secret).unwrap();
    std::fs::write(outer.path().join("secret.txt"), secret).unwrap();
    let t = root.join("t");
    ok(&[
        "tournament",
        "--players",
        "RandomMove,CaptureLargest",
        "-n",
        "2",
        "-q",
        "--out",
        t.to_str().unwrap(),
    ]);
    std::os::unix::fs::symlink(outer.path().join("secret.svg"), t.join("ladder.svg")).unwrap();
    std::os::unix::fs::symlink(outer.path(), root.join("out")).unwrap();
    let server = Server::start(&[&root], &[]);
    for path in [
        "/api/run?r=0/..",
        "/api/run?r=0%2F..%2F..",
        "/api/run?r=0/out",
        "/api/run?r=/etc",
        "/api/run?r=0//etc",
        "/api/run?r=1/t",
        "/api/plot?r=0/t&f=ladder.svg",
        "/api/plot?r=0/t&f=../../secret.svg",
        "/api/plot?r=0/t&f=%2E%2E%2F%2E%2E%2Fsecret.svg",
        "/api/plot?r=0/out&f=secret.svg",
        "/api/plot?r=0&f=../secret.svg",
        "/api/plot?r=0/t&f=/etc/passwd",
        "/api/game?r=0/out&g=0",
        "/../secret.txt",
        "/..%2F..%2Fsecret.txt",
        "/%2e%2e/%2e%2e/secret.txt",
        "//etc/passwd",
        "/etc/passwd",
    ] {
        let (status, body) = server.get(path);
        assert!(status == 404 || status == 400, "{path}: {status} {body}");
        assert!(
            !body.contains(secret) && !body.contains("root:"),
            "{path}: {body}"
        );
    }
    // The link out is not listed either.
    let runs = server.json("/api/runs");
    assert_eq!(runs["runs"].as_array().unwrap().len(), 1, "{runs}");
    // Another host (DNS rebinding) and another site's change are refused.
    let (status, _) = request(
        &server.addr,
        "GET /api/runs HTTP/1.1\r\nHost: evil.example:80\r\n",
        "",
    );
    assert_eq!(status, 403);
    let (status, _) = request(
        &server.addr,
        &format!(
            "POST /api/play/new HTTP/1.1\r\nHost: {}\r\nOrigin: http://evil.example\r\nContent-Length: 7\r\n",
            server.addr
        ),
        "bot=x&y",
    );
    assert_eq!(status, 403);
    // A page may not start a program player.
    let (status, body) = server.post("/api/play/new", "bot=exec%3Acmd%3Dtouch%20%2Ftmp%2Fpwned");
    assert_eq!(status, 403, "{body}");
}

#[test]
fn a_hundred_connections_at_once_and_a_slow_client_are_all_answered() {
    let root = runs();
    let server = Server::start(&[root.path()], &[]);
    // A client that sends half its request and waits.
    let mut slow = TcpStream::connect(&server.addr).unwrap();
    write!(slow, "GET /api/runs HTTP/1.1\r\nHo").unwrap();
    let addr = server.addr.clone();
    let threads: Vec<_> = (0..100)
        .map(|i| {
            let addr = addr.clone();
            std::thread::spawn(move || {
                let path = if i % 2 == 0 {
                    "/api/run?r=0/t"
                } else {
                    "/api/runs"
                };
                request(
                    &addr,
                    &format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n"),
                    "",
                )
            })
        })
        .collect();
    for t in threads {
        let (status, body) = t.join().unwrap();
        assert_eq!(status, 200, "{body}");
        assert!(serde_json::from_str::<Value>(&body).is_ok());
    }
    // The slow client finishes its request and is answered too.
    write!(slow, "st: {}\r\nConnection: close\r\n\r\n", server.addr).unwrap();
    slow.set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    let mut out = String::new();
    slow.read_to_string(&mut out).unwrap();
    assert!(out.starts_with("HTTP/1.1 200"), "{out}");
}

/// Plays a whole game over HTTP against RandomMove, always the first legal move the
/// server offers; returns every state answer and the saved folder.
fn play_over_http(server: &Server, color: &str) -> (Vec<Value>, PathBuf) {
    let (status, body) = server.post(
        "/api/play/new",
        &format!("bot=RandomMove&color={color}&seed=7&name=Tester"),
    );
    assert_eq!(status, 200, "{body}");
    let token = serde_json::from_str::<Value>(&body).unwrap()["session"]
        .as_str()
        .unwrap()
        .to_string();
    let mut states = Vec::new();
    let mut after: Option<u64> = None;
    loop {
        let path = match after {
            None => format!("/api/play/state?s={token}"),
            Some(v) => format!("/api/play/state?s={token}&after={v}"),
        };
        let s = server.json(&path);
        after = s["version"].as_u64();
        states.push(s.clone());
        match s["status"].as_str().unwrap() {
            "over" => {
                let dir = PathBuf::from(s["over"]["dir"].as_str().unwrap());
                return (states, dir);
            }
            "your-move" => {
                let uci = s["turn"]["legal"][0]["uci"].as_str().unwrap().to_string();
                let (status, body) = server.post(&format!("/api/play/move?s={token}"), &uci);
                assert_eq!(status, 200, "{body}");
            }
            "waiting" => {}
            other => panic!("{other}: {s}"),
        }
    }
}

#[test]
fn a_game_over_http_shows_the_person_only_their_own_view() {
    let root = tempfile::tempdir().unwrap();
    let server = Server::start(&[root.path()], &["--play", "RandomMove"]);
    for color in ["white", "black"] {
        let (states, dir) = play_over_http(&server, color);
        let game = load_game(&dir.join(GAMES_FILE), Some(0), &RuleSet::thesis()).unwrap();
        let us = if color == "white" {
            Color::White
        } else {
            Color::Black
        };
        assert_eq!(game.player(us), "Tester");
        // The positions before each of the person's moves, by ply.
        let positions = game.positions();
        let mut turns = 0;
        for s in &states {
            if s["status"] == "over" {
                assert!(s["game"]["run"].as_str().is_some(), "{s}");
                continue;
            }
            // Nothing but these fields, and the moves are the person's own.
            let keys: Vec<&str> = s.as_object().unwrap().keys().map(String::as_str).collect();
            assert_eq!(
                keys,
                [
                    "bot", "changes", "color", "error", "moves", "name", "over", "status", "turn",
                    "version"
                ]
            );
            for (k, m) in s["moves"].as_array().unwrap().iter().enumerate() {
                let ply = game
                    .moves
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| positions[*i].turn() == us)
                    .nth(k)
                    .unwrap();
                assert_eq!(m.as_str().unwrap(), ply.1.uci());
            }
            let Some(turn) = s["turn"].as_object() else {
                continue;
            };
            turns += 1;
            let ply = turn["ply"].as_u64().unwrap() as usize;
            let pos = &positions[ply];
            assert_eq!(pos.turn(), us);
            let view = FogView::of(pos, us, &RuleSet::thesis());
            let board: Vec<String> = serde_json::from_value(turn["board"].clone()).unwrap();
            assert_eq!(
                board,
                cells_of(&view),
                "ply {ply}: the board is exactly the view"
            );
            // Each legal move starts on one of the person's own pieces.
            for m in turn["legal"].as_array().unwrap() {
                let from = m["from"].as_str().unwrap();
                let sq: fow_variants::Square = from.parse().unwrap();
                assert!(view.ours().contains(sq), "{from}");
            }
        }
        assert!(turns > 0);
        assert!(
            dir.starts_with(root.path().canonicalize().unwrap()) || dir.starts_with(root.path())
        );
    }
    let (code, out) = server.stop();
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("stopped"), "{out}");
}

#[test]
fn ctrl_c_stops_the_server_and_saves_the_game_being_played_as_left() {
    let root = tempfile::tempdir().unwrap();
    let server = Server::start(&[root.path()], &[]);
    let (status, body) = server.post(
        "/api/play/new",
        "bot=CaptureLargest&color=white&seed=3&name=Tester",
    );
    assert_eq!(status, 200, "{body}");
    let token = serde_json::from_str::<Value>(&body).unwrap()["session"]
        .as_str()
        .unwrap()
        .to_string();
    // Wait for the person's first turn (the state answers at once when it is).
    let mut state = server.json(&format!("/api/play/state?s={token}"));
    while state["status"] != "your-move" {
        let v = state["version"].as_u64().unwrap();
        state = server.json(&format!("/api/play/state?s={token}&after={v}"));
    }
    let (code, out) = server.stop();
    assert_eq!(code, Some(0), "{out}");
    let game = played_game(root.path());
    assert_eq!(game.result.map(|r| r.to_string()).as_deref(), Some("0-1"));
    assert!(game.detail().contains("left"), "{}", game.detail());
}

#[test]
fn a_run_being_written_and_a_game_being_played_reach_the_page_as_they_happen() {
    let root = runs();
    let t = root.path().join("t");
    // A copy of the tournament with its first 5 games, then one more.
    let x = root.path().join("x");
    let lines = first_games(&t, &x, 5);
    let server = Server::start(&[root.path()], &[]);
    let id = "0/x";
    let mut run = Events::open(&server, &format!("/api/events/run?r={id}"));
    let (name, data) = run.next();
    assert_eq!((name.as_str(), data["games"].as_u64()), ("games", Some(5)));
    // Half a line is not a game yet; the whole line is.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(x.join(GAMES_FILE))
        .unwrap();
    let (head, tail) = lines[6].split_at(10);
    f.write_all(head.as_bytes()).unwrap();
    f.flush().unwrap();
    assert_eq!(
        server.json(&format!("/api/run?r={id}"))["games"]
            .as_array()
            .unwrap()
            .len(),
        5
    );
    f.write_all(format!("{tail}\n").as_bytes()).unwrap();
    f.flush().unwrap();
    let (name, data) = run.next();
    assert_eq!((name.as_str(), data["games"].as_u64()), ("games", Some(6)));
    assert_eq!(
        server.json(&format!("/api/run?r={id}"))["games"]
            .as_array()
            .unwrap()
            .len(),
        6
    );

    // A game being played: its live file grows move by move.
    let saved = load_game(&t.join(GAMES_FILE), Some(7), &RuleSet::thesis()).unwrap();
    let header = live_header(&saved, 7);
    let mut watch = Events::open(&server, &format!("/api/events/game?r={id}&g=7"));
    assert_eq!(watch.next().0, "waiting");
    let mut live = LiveFile::create(&x, &header).unwrap();
    let (name, data) = watch.next();
    assert_eq!(name, "start");
    assert_eq!(data["white"], saved.white.as_str());
    let mut pos = Position::startpos();
    for (i, m) in saved.moves.iter().take(6).enumerate() {
        live.push(m);
        pos.play(m);
        let (name, data) = watch.next();
        assert_eq!(name, "ply");
        assert_eq!(data["ply"].as_u64(), Some(i as u64 + 1));
        assert_eq!(data["uci"], m.uci().as_str());
        let black: Vec<String> = serde_json::from_value(data["boards"]["black"].clone()).unwrap();
        assert_eq!(
            black,
            cells_of(&FogView::of(&pos, Color::Black, &RuleSet::thesis()))
        );
    }
    // The run lists it while it is played.
    let page = server.json(&format!("/api/run?r={id}"));
    assert_eq!(page["live_games"][0]["id"].as_u64(), Some(7));
    assert_eq!(page["live_games"][0]["plies"].as_u64(), Some(6));
    // The game ends: its row is written, then its live file goes (as the arena does).
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(x.join(GAMES_FILE))
        .unwrap();
    f.write_all(format!("{}\n", lines[8]).as_bytes()).unwrap();
    f.flush().unwrap();
    live.close().unwrap();
    let (name, data) = watch.next();
    assert_eq!(name, "end", "{data}");
    assert_eq!(data["result"], saved.result.unwrap().to_string().as_str());
}
