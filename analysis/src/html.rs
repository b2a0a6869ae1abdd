//! The HTML replay (`fow replay --html`): one self-contained HTML page (inline CSS and JavaScript, pieces
//! as Unicode text, no network) with the game embedded as JSON.
//!
//! The JSON holds, per ply, the 64 squares (a8, b8, ..., h1) of the true board, of
//! White's view and of Black's view: `""` empty, `"?"` fog, else the piece's FEN letter.
//! The page steps with buttons, arrow keys and clicks on the move list; a URL hash such
//! as `#ply=5&view=white&keys=ArrowRight,ArrowLeft&click=next` opens it at a step and
//! then replays keys and button clicks through the same handlers (used by the browser
//! test). `<body>` carries `data-ply` and `data-view` of what is shown.

use fow_variants::shakmaty::{File, Rank};
use fow_variants::{Bitboard, Board, Color, Square};
use serde_json::{json, Value};

use fow_variants::side_name;

use crate::replay::{piece_on, squares_text, Replay};

/// The replay as one self-contained HTML page (the game as JSON, with the true board and both views of every ply; buttons, arrow keys, clicks on the move list and a URL hash step through it).
pub fn html_page(r: &Replay) -> String {
    let data = serde_json::to_string(&replay_json(r)).expect("JSON of plain values");
    // `<`, `>` and `&` appear only inside JSON strings, where \u escapes mean the same:
    // no `</script>` can end the data block early.
    let data = data
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    let title = format!(
        "{} vs {} — fow replay",
        escape(&r.game.white),
        escape(&r.game.black)
    );
    TEMPLATE
        .replace("{{TITLE}}", &title)
        .replace("{{STYLE}}", STYLE)
        .replace("{{SCRIPT}}", SCRIPT)
        .replace("{{DATA}}", &data)
}

/// HTML text escaping.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// The 64 squares of `board` as the HTML replay and `fow web` draw them, a8 first and
/// h1 last: `""` empty, `"?"` outside `visible` (fog), else the piece's FEN letter.
pub fn cells(board: &Board, visible: Bitboard) -> Vec<String> {
    let mut out = Vec::with_capacity(64);
    for rank in Rank::ALL.into_iter().rev() {
        for file in File::ALL {
            let sq = Square::from_coords(file, rank);
            out.push(if !visible.contains(sq) {
                "?".to_string()
            } else {
                board
                    .piece_at(sq)
                    .map_or(String::new(), |p| p.char().to_string())
            });
        }
    }
    out
}

fn names(squares: &[Square]) -> Vec<String> {
    squares.iter().map(|s| s.to_string()).collect()
}

/// The replay as the JSON the HTML page embeds (and `fow web` serves): the game, one
/// frame per ply with the true board and both views (64 squares each, a8 first: `""`
/// empty, `"?"` fog, else the FEN letter), the move, its analysis, and the sides' summaries.
pub fn replay_json(r: &Replay) -> Value {
    let g = &r.game;
    let frames: Vec<Value> = r
        .frames
        .iter()
        .map(|f| {
            let mv = f.played.as_ref().map(|p| {
                json!({
                    "number": p.number,
                    "mover": side_name(p.mover).to_lowercase(),
                    "san": p.san,
                    "uci": p.uci,
                    "text": p.numbered(),
                    "from": p.mv.from.to_string(),
                    "to": p.mv.to.to_string(),
                    "capture": p.capture.map(|(piece, sq)| piece_on(piece, sq)),
                    "capture_square": p.capture.map(|(_, sq)| sq.to_string()),
                    "changed": {
                        "white": names(&p.white_changed),
                        "black": names(&p.black_changed),
                    },
                    "changed_text": format!(
                        "White's view {}; Black's view {}",
                        squares_text(&p.white_changed, 8),
                        squares_text(&p.black_changed, 8)
                    ),
                })
            });
            let analysis = r.analysis_at(f.ply).map(|a| {
                json!({
                    "label": a.label.as_str(),
                    "win_before": a.win_before,
                    "win_after": a.win_after,
                    "drop": a.drop,
                    "best": r.best_text(f.ply),
                    "accuracy": a.accuracy,
                    "king_left_capturable": a.king_left_capturable,
                    "notes": crate::replay::analysis_notes(a),
                })
            });
            json!({
                "ply": f.ply,
                "board": cells(f.position.board(), Bitboard::FULL),
                "white": cells(f.white.board(), f.white.visible()),
                "black": cells(f.black.board(), f.black.visible()),
                "move": mv,
                "analysis": analysis,
            })
        })
        .collect();
    let analysis = r.analysis.as_ref().map(|rows| {
        let side = |c: Color| {
            let name = side_name(c).to_lowercase();
            let moves: Vec<_> = rows.iter().flatten().filter(|m| m.mover == name).collect();
            let count = |label: &str| moves.iter().filter(|m| m.label.as_str() == label).count();
            json!({
                "accuracy": r.accuracy(c),
                "moves": moves.len(),
                "inaccuracies": count("inaccuracy"),
                "mistakes": count("mistake"),
                "blunders": count("blunder"),
                "king_left_capturable": moves.iter().filter(|m| m.king_left_capturable).count(),
            })
        };
        json!({
            "white": side(Color::White),
            "black": side(Color::Black),
            "source": r.analysis_source,
        })
    });
    json!({
        "source": g.source,
        "white": g.white,
        "black": g.black,
        "rules": g.rules.to_string(),
        // As text: a u64 seed does not fit a JavaScript number (2^53) exactly.
        "seed": g.seed.map(|s| s.to_string()),
        "result": g.result.map(|r| r.to_string()),
        "outcome": fow_records::outcome_text(g),
        "opening": crate::replay::opening_text(g),
        "frames": frames,
        "analysis": analysis,
    })
}

const TEMPLATE: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{TITLE}}</title>
<style>{{STYLE}}</style>
</head>
<body data-ply="0" data-view="full">
<header>
<h1 id="title"></h1>
<p id="meta"></p>
<p id="result"></p>
<p id="opening" hidden></p>
<p id="accuracy" hidden></p>
</header>
<main>
<section id="left">
<div id="views" role="group" aria-label="view">
<button type="button" id="view-full" data-view="full">Full board</button>
<button type="button" id="view-white" data-view="white">White's view</button>
<button type="button" id="view-black" data-view="black">Black's view</button>
</div>
<div id="board" aria-label="board"></div>
<div id="controls" role="group" aria-label="steps">
<button type="button" id="first" title="Home">&laquo; First</button>
<button type="button" id="prev" title="Left arrow">&#x25C0; Back</button>
<button type="button" id="next" title="Right arrow">Next &#x25B6;</button>
<button type="button" id="last" title="End">Last &raquo;</button>
</div>
<p id="position"></p>
<p id="move"></p>
<p id="capture"></p>
<p id="changed"></p>
<p id="analysis"></p>
<p id="end" hidden></p>
<p id="help">Keys: &rarr; / &larr; step, Home / End jump, 1 / 2 / 3 full board / White's / Black's view. Click a move to jump to it.</p>
</section>
<section id="right">
<h2>Moves</h2>
<div id="moves"></div>
</section>
</main>
<script type="application/json" id="game-data">{{DATA}}</script>
<script>{{SCRIPT}}</script>
</body>
</html>
"#;

const STYLE: &str = r#"
:root { --sq: min(10vw, 56px); font-family: system-ui, sans-serif; color: #222; background: #fafafa; }
body { margin: 1em 2em; }
h1 { font-size: 1.4em; margin: 0 0 .2em; }
header p { margin: .15em 0; color: #444; }
main { display: flex; flex-wrap: wrap; gap: 2em; margin-top: 1em; }
#board { display: grid; grid-template-columns: 1.4em repeat(8, var(--sq));
  grid-template-rows: repeat(8, var(--sq)) 1.4em; user-select: none; margin: .6em 0; }
.label { display: flex; align-items: center; justify-content: center; color: #666; font-size: .85em; }
.sq { display: flex; align-items: center; justify-content: center;
  font-size: calc(var(--sq) * .75); line-height: 1; color: #000; }
.light { background: #f0d9b5; }
.dark { background: #b58863; }
.light.moved { background: #cdd26a; }
.dark.moved { background: #aaa23a; }
.sq.fog { background: repeating-linear-gradient(45deg, #555 0 6px, #666 6px 12px); }
.sq.changed { box-shadow: inset 0 0 0 3px #1e88e5; }
button { font: inherit; padding: .3em .7em; margin-right: .3em; cursor: pointer; }
#views button.active { background: #1e88e5; color: #fff; border-color: #1565c0; }
#left p { margin: .3em 0; }
#move { font-weight: bold; font-size: 1.1em; }
#end { font-weight: bold; color: #b71c1c; }
#help { color: #777; font-size: .85em; }
#moves { display: grid; grid-template-columns: 3em 8em 8em; gap: 2px 4px; align-items: center; max-height: 80vh; overflow-y: auto; }
#moves .num { color: #777; text-align: right; padding-right: .3em; }
#moves .mv { text-align: left; border: 0; background: none; padding: .1em .3em; margin: 0; border-radius: 3px; }
#moves .mv.current { background: #1e88e5; color: #fff; }
.label-best { color: #2e7d32; } .label-excellent { color: #43a047; } .label-good { color: #558b2f; }
.label-inaccuracy { color: #c79100; } .label-mistake { color: #e65100; } .label-blunder { color: #c62828; }
#moves .mv.current[class*="label-"] { color: #fff; }
.kingflag { color: #c62828; font-weight: bold; }
"#;

const SCRIPT: &str = r#"
"use strict";
(function () {
  const G = JSON.parse(document.getElementById("game-data").textContent);
  const SYMBOL = { K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658", P: "\u2659",
    k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
  const VIEWS = { full: "Full board", white: "White's view", black: "Black's view" };
  const LAST = G.frames.length - 1;
  let ply = 0;
  let view = "full";
  const $ = (id) => document.getElementById(id);

  $("title").textContent = G.white + " (White) vs " + G.black + " (Black)";
  $("meta").textContent = G.source + " \u00B7 rules " + G.rules +
    (G.seed === null ? "" : " \u00B7 seed " + G.seed) + " \u00B7 " + LAST + " plies";
  $("result").textContent = "Result: " + G.outcome;
  if (G.opening) {
    $("opening").textContent = "Opening: " + G.opening;
    $("opening").hidden = false;
  }
  if (G.analysis) {
    const count = (n, one, many) => n + " " + (n === 1 ? one : many);
    const side = (name, a) => name + " accuracy " +
      (a.accuracy === null ? "-" : a.accuracy.toFixed(1) + "%") + " over " +
      count(a.moves, "move", "moves") + " (" + count(a.inaccuracies, "inaccuracy", "inaccuracies") +
      ", " + count(a.mistakes, "mistake", "mistakes") + ", " + count(a.blunders, "blunder", "blunders") +
      "; king left capturable " + count(a.king_left_capturable, "time", "times") + ")";
    $("accuracy").textContent = side("White", G.analysis.white) + "; " + side("Black", G.analysis.black) +
      " \u00B7 analysis " + G.analysis.source;
    $("accuracy").hidden = false;
  }

  // The board: rank labels, 64 squares (a8 ... h1), file labels.
  const board = $("board");
  const squares = [];
  for (let i = 0; i < 64; i++) {
    const file = i % 8, rank = 7 - Math.floor(i / 8);
    if (file === 0) {
      const l = document.createElement("div");
      l.className = "label";
      l.textContent = String(rank + 1);
      board.appendChild(l);
    }
    const d = document.createElement("div");
    d.className = "sq " + ((file + rank) % 2 === 1 ? "light" : "dark");
    d.dataset.square = "abcdefgh"[file] + (rank + 1);
    board.appendChild(d);
    squares.push(d);
  }
  board.appendChild(document.createElement("div"));
  for (const f of "abcdefgh") {
    const l = document.createElement("div");
    l.className = "label";
    l.textContent = f;
    board.appendChild(l);
  }

  // The move list: one row per move number, a button per move.
  const moves = $("moves");
  const buttons = [null];
  for (let k = 1; k <= LAST; k++) {
    const m = G.frames[k].move;
    if (m.mover === "white" || k === 1) {
      const n = document.createElement("span");
      n.className = "num";
      n.textContent = m.number + ".";
      moves.appendChild(n);
      if (m.mover === "black") {
        const e = document.createElement("span");
        e.textContent = "\u2026";
        moves.appendChild(e);
      }
    }
    const b = document.createElement("button");
    b.type = "button";
    b.className = "mv";
    b.dataset.ply = String(k);
    b.textContent = m.san;
    const a = G.frames[k].analysis;
    if (a) {
      b.classList.add("label-" + a.label);
      b.title = a.label + ", drop " + a.drop.toFixed(1);
      if (a.king_left_capturable) {
        const f = document.createElement("span");
        f.className = "kingflag";
        f.textContent = " \u26A0";
        f.title = "left its king capturable";
        b.appendChild(f);
      }
    }
    b.addEventListener("click", () => go(k));
    moves.appendChild(b);
    buttons.push(b);
  }

  function go(k) {
    ply = Math.max(0, Math.min(LAST, k));
    render();
  }
  function step(d) { go(ply + d); }
  function setView(v) {
    if (VIEWS[v]) { view = v; render(); }
  }

  function render() {
    const f = G.frames[ply];
    const cells = view === "full" ? f.board : f[view];
    const m = f.move;
    const moved = m ? [m.from, m.to, m.capture_square] : [];
    const changed = m && view !== "full" ? m.changed[view] : [];
    squares.forEach((d, i) => {
      const c = cells[i];
      const name = d.dataset.square;
      d.dataset.piece = c;
      d.classList.toggle("fog", c === "?");
      d.classList.toggle("moved", c !== "?" && moved.includes(name));
      d.classList.toggle("changed", changed.includes(name));
      d.textContent = c === "?" ? "" : (SYMBOL[c] || "");
      d.title = name + (c === "?" ? " (fog)" : "");
    });
    $("position").textContent = "Ply " + ply + " of " + LAST + " \u00B7 " + VIEWS[view];
    if (m) {
      $("move").textContent = m.text + " (" + m.uci + ") by " + (m.mover === "white" ? "White" : "Black");
      $("capture").textContent = m.capture ? "Captures " + m.capture : "No capture";
      $("changed").textContent = "Changed: " + m.changed_text;
    } else {
      $("move").textContent = "Start position";
      $("capture").textContent = "";
      $("changed").textContent = "";
    }
    const a = f.analysis;
    const an = $("analysis");
    an.className = a ? "label-" + a.label : "";
    an.textContent = a ? "Analysis: " + a.label + " \u2014 " + (m.mover === "white" ? "White" : "Black") +
      "'s win chance " + a.win_before.toFixed(1) + "% \u2192 " + a.win_after.toFixed(1) +
      "% (drop " + a.drop.toFixed(1) + ")" + (a.best ? ", engine's move " + a.best : "") +
      (a.king_left_capturable ? " \u26A0 left its king capturable" : "") + a.notes : "";
    $("end").hidden = ply !== LAST;
    $("end").textContent = ply === LAST ? "Game over: " + G.outcome : "";
    buttons.forEach((b, k) => { if (b) b.classList.toggle("current", k === ply); });
    for (const v of Object.keys(VIEWS)) $("view-" + v).classList.toggle("active", v === view);
    $("first").disabled = $("prev").disabled = ply === 0;
    $("next").disabled = $("last").disabled = ply === LAST;
    document.body.dataset.ply = String(ply);
    document.body.dataset.view = view;
    const cur = buttons[ply];
    if (cur && cur.scrollIntoView && document.readyState === "complete") cur.scrollIntoView({ block: "nearest" });
  }

  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => step(-1));
  $("next").addEventListener("click", () => step(1));
  $("last").addEventListener("click", () => go(LAST));
  for (const v of Object.keys(VIEWS)) $("view-" + v).addEventListener("click", () => setView(v));

  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const k = e.key;
    if (k === "ArrowRight" || k === "l" || k === " ") step(1);
    else if (k === "ArrowLeft" || k === "h") step(-1);
    else if (k === "Home" || k === "g") go(0);
    else if (k === "End" || k === "G") go(LAST);
    else if (k === "PageDown") step(10);
    else if (k === "PageUp") step(-10);
    else if (k === "1") setView("full");
    else if (k === "2") setView("white");
    else if (k === "3") setView("black");
    else return;
    e.preventDefault();
  });

  // #ply=N&view=V&keys=K1,K2,...&click=ID1,ID2,...: open at a step, then press keys
  // and click buttons through the same handlers as a user would.
  function applyHash() {
    const h = new URLSearchParams(location.hash.replace(/^#/, ""));
    if (h.has("ply")) go(parseInt(h.get("ply"), 10) || 0);
    if (h.has("view")) setView(h.get("view"));
    for (const k of (h.get("keys") || "").split(",").filter(Boolean)) {
      const key = k === "Space" ? " " : k;
      document.dispatchEvent(new KeyboardEvent("keydown", { key: key, bubbles: true }));
    }
    for (const id of (h.get("click") || "").split(",").filter(Boolean)) {
      const el = id.startsWith("move-")
        ? buttons[parseInt(id.slice(5), 10)]
        : document.getElementById(id);
      if (el) el.click();
    }
  }
  render();
  applyHash();
  window.addEventListener("hashchange", applyHash);
  document.body.dataset.ready = "1";
})();
"#;
