// fow web: one script draws every page from the JSON API (/api/...). Every text from a
// results folder goes in through textContent, never as HTML. `body[data-ready]` turns
// to 1 when a page is drawn (the browser tests wait for it), `body[data-page]` names it.
"use strict";

const FILES = "abcdefgh";
const GLYPH = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
const ROLES = [["p", "pawns"], ["n", "knights"], ["b", "bishops"], ["r", "rooks"], ["q", "queens"], ["k", "king"]];
const app = document.getElementById("app");
const params = new URLSearchParams(location.search);

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k instanceof Node ? k : String(k));
  return e;
}
function svg(tag, attrs, ...kids) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  for (const k of kids.flat()) if (k) e.append(k);
  return e;
}
async function api(path) {
  const r = await fetch(path, { cache: "no-store" });
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || r.statusText);
  return j;
}
function q(o) { return new URLSearchParams(o).toString(); }
function ready(page) { document.body.dataset.page = page; document.body.dataset.ready = "1"; }
function busy() { document.body.dataset.ready = "0"; }
function crumbs(...parts) {
  const c = document.getElementById("crumbs"); c.textContent = "";
  parts.forEach((p, i) => { if (i) c.append(" › "); c.append(p); });
}
function fail(e) { app.replaceChildren(el("p", { class: "err", id: "error", text: String(e.message || e) })); ready("error"); }
function fmt(x, d) { return x === null || x === undefined || !isFinite(x) ? "–" : Number(x).toFixed(d); }
function pct(x) { return x === null || x === undefined ? "–" : (100 * x).toFixed(1) + "%"; }

// A board: 64 cells, a8 first ("" empty, "?" fog, else a FEN letter). opts: flip, id,
// moved [from, to], heat {cells: 64 numbers 0..1}, onclick(square).
function board(cells, opts) {
  opts = opts || {};
  const b = el("div", { class: "board", id: opts.id, role: "grid", "aria-label": opts.label || "board" });
  for (let i = 0; i < 64; i++) {
    const k = opts.flip ? 63 - i : i;
    const file = k % 8, rank = 7 - Math.floor(k / 8);
    const name = FILES[file] + (rank + 1);
    const c = cells[k];
    const cls = ["sq", (file + rank) % 2 ? "l" : "d"];
    if (c === "?") cls.push("fog");
    if (opts.moved && opts.moved.includes(name)) cls.push("moved");
    const sq = el("div", { class: cls.join(" "), "data-sq": name, "data-piece": c && c !== "?" ? c : null, "data-fog": c === "?" ? "1" : null });
    if (c && c !== "?") sq.append(el("span", { class: c === c.toUpperCase() ? "piece-w" : "piece-b", text: GLYPH[c] }));
    if (opts.heat) {
      const h = opts.heat[k];
      if (h > 0) {
        sq.append(el("span", { class: "heat", style: "--h:" + (0.15 + 0.7 * h).toFixed(3) }));
        sq.append(el("span", { class: "pct", text: Math.round(100 * h) }));
      }
      sq.dataset.heat = h.toFixed(4);
    }
    if (opts.onclick) sq.addEventListener("click", () => opts.onclick(name));
    b.append(sq);
  }
  return b;
}

// ---------------------------------------------------------------- index
async function indexPage() {
  crumbs();
  const data = await api("/api/runs");
  const filter = el("input", { id: "filter", placeholder: "filter by path, kind or player", size: 40 });
  const body = el("tbody");
  const draw = () => {
    const f = filter.value.toLowerCase();
    body.replaceChildren(...data.runs.filter(r => !f || [r.path, r.kind, ...r.players].join(" ").toLowerCase().includes(f)).map(r =>
      el("tr", { "data-run": r.id },
        el("td", {}, el("a", { href: "/run?" + q({ r: r.id }), text: r.path })),
        el("td", { text: r.kind }),
        el("td", { text: r.players.length ? r.players.join(", ") : "–" }),
        el("td", { class: "num", text: r.games }),
        el("td", { text: r.date }),
        el("td", {}, r.live ? el("span", { class: "badge live", text: "being written" }) : null))));
  };
  filter.addEventListener("input", draw);
  draw();
  app.replaceChildren(
    el("h1", { text: "Runs" }),
    el("p", { class: "muted", text: `${data.runs.length} results folders under ${data.roots.join(", ")}` }),
    el("div", { class: "filters" }, filter),
    el("table", { class: "data", id: "runs" },
      el("thead", {}, el("tr", {}, ["folder", "kind", "players", "games", "last change", ""].map(h => el("th", { text: h })))),
      body));
  ready("index");
}

// ---------------------------------------------------------------- run
let runState = { sort: "id", desc: false, player: "", result: "", reason: "" };

async function runPage() {
  const id = params.get("r");
  const data = await api("/api/run?" + q({ r: id }));
  drawRun(id, data);
  {
    const es = new EventSource("/api/events/run?" + q({ r: id }));
    let seen = null;
    es.addEventListener("games", async ev => {
      const d = JSON.parse(ev.data);
      document.body.dataset.games = d.games;
      if (seen !== null && d.games !== seen) {
        try { drawRun(id, await api("/api/run?" + q({ r: id }))); } catch (e) { /* keep the last page */ }
      }
      seen = d.games;
      document.body.dataset.events = String(Number(document.body.dataset.events || 0) + 1);
    });
  }
}

function drawRun(id, d) {
  busy();
  crumbs(el("a", { href: "/run?" + q({ r: id }), text: id }));
  const parts = [el("h1", {}, `${d.kind}: ${id} `, d.live ? el("span", { class: "badge live", id: "live", text: "being written" }) : null)];
  if (d.settings) {
    const s = d.settings;
    parts.push(el("p", { class: "muted", id: "settings", text:
      `${s.players.length} players · ${s.rules} rules · ${s.games_per_pair} games per pair · seed ${s.seed ?? "secret"}` +
      (s.nodes ? ` · ${s.nodes} nodes` : "") + (s.clock ? ` · clock ${s.clock}` : "") + (s.sprt ? ` · SPRT ${s.sprt}` : "") }));
  }
  for (const e of d.errors || []) parts.push(el("p", { class: "err", text: e }));
  if (Array.isArray(d.live_games) && d.live_games.length) {
    parts.push(el("h2", { text: "Being played now" }), el("ul", { id: "live-games" }, d.live_games.map(g =>
      el("li", { "data-game": g.id }, el("a", { href: "/watch?" + q({ r: id, g: g.id }), text: `game ${g.id}: ${g.white} vs ${g.black}` }), ` (${g.plies} plies so far)`))));
  }
  if (d.table) parts.push(...tableSection(d.table));
  if (d.match) parts.push(...matchSection(d.match));
  if (d.best) parts.push(el("h2", { text: "Best so far" }), el("pre", { text: JSON.stringify(d.best, null, 2) }));
  if (d.progress !== undefined) parts.push(el("p", { text: `${d.progress} ${d.kind === "tune" ? "batches" : "generations"} logged` }));
  // The version in the URL: a plot drawn afresh (a tuning run's) is fetched again after
  // each change.
  for (const p of d.plots || []) parts.push(el("h2", { text: p }), el("img", { src: "/api/plot?" + q({ r: id, f: p, v: document.body.dataset.games || 0 }), alt: p, class: "plot" }));
  if (d.games) parts.push(...gamesSection(id, d.games));
  app.replaceChildren(...parts);
  ready("run");
}

function tableSection(t) {
  const out = [];
  if (t.error) return [el("p", { class: "err", text: t.error })];
  out.push(el("h2", { text: "Ratings" }));
  out.push(el("table", { class: "data", id: "ratings" },
    el("thead", {}, el("tr", {}, ["#", "player", "games", "points", "score", "Elo", "±95%"].map((h, i) => el("th", { class: i > 1 ? "num" : null, text: h })))),
    el("tbody", {}, [...t.ratings].sort((a, b) => b.elo - a.elo).map((r, i) => el("tr", {},
      el("td", { text: i + 1 }), el("td", { text: r.player }), el("td", { class: "num", text: r.games }),
      el("td", { class: "num", text: r.points }), el("td", { class: "num", text: pct(r.score) }),
      el("td", { class: "num", text: fmt(r.elo, 1) }), el("td", { class: "num", text: fmt(r.half_width, 1) }))))));
  if (t.ratings.length) out.push(ladder(t.ratings));
  for (const n of t.notes || []) out.push(el("p", { class: "note", text: n }));
  out.push(el("h2", { text: "Crosstable" }), el("p", { class: "muted", text: "row player's wins-draws-losses against the column player, both colours" }));
  out.push(el("table", { class: "data", id: "crosstable" },
    el("thead", {}, el("tr", {}, el("th", {}), t.players.map(p => el("th", { text: p })))),
    el("tbody", {}, t.players.map((p, i) => el("tr", {}, el("th", { text: p }),
      t.cells[i].map(c => el("td", { class: "num", text: c ? `${c.wins}-${c.draws}-${c.losses}` : "" })))))));
  if (t.los && t.los.players) {
    out.push(el("h2", { text: "Likelihood of superiority" }), el("p", { class: "muted", text: "the chance that the row player is stronger than the column player" }));
    out.push(el("table", { class: "data", id: "los" },
      el("thead", {}, el("tr", {}, el("th", {}), t.los.players.map(p => el("th", { text: p })))),
      el("tbody", {}, t.los.players.map((p, i) => el("tr", {}, el("th", { text: p }),
        t.los.rows[i].map(x => el("td", { class: "num", text: x === null ? "" : pct(x) })))))));
  }
  return out;
}

// The ratings with their 95% intervals, one bar per player, best at the top.
function ladder(ratings) {
  const rs = [...ratings].sort((a, b) => b.elo - a.elo);
  const lo = Math.min(...rs.map(r => r.elo - r.half_width)), hi = Math.max(...rs.map(r => r.elo + r.half_width));
  const W = 640, L = 190, R = 20, row = 22, H = rs.length * row + 30;
  const x = v => L + (W - L - R) * (v - lo) / ((hi - lo) || 1);
  const s = svg("svg", { class: "chart", id: "ladder", width: W, height: H, viewBox: `0 0 ${W} ${H}` });
  rs.forEach((r, i) => {
    const y = 15 + i * row;
    s.append(svg("text", { x: L - 8, y: y + 4, "text-anchor": "end", "font-size": 12, text: r.player }));
    s.append(svg("line", { x1: x(r.elo - r.half_width), x2: x(r.elo + r.half_width), y1: y, y2: y, stroke: "#2f6fb3", "stroke-width": 3 }));
    s.append(svg("circle", { cx: x(r.elo), cy: y, r: 4, fill: "#1d2733" }));
  });
  s.append(svg("text", { x: L, y: H - 5, "font-size": 11, text: fmt(lo, 0) }));
  s.append(svg("text", { x: W - R, y: H - 5, "font-size": 11, "text-anchor": "end", text: fmt(hi, 0) + " Elo" }));
  return s;
}

function matchSection(m) {
  if (m.error) return [el("p", { class: "err", text: m.error })];
  const out = [el("h2", { text: `Match: ${m.player}` + (m.sprt ? ` (SPRT ${m.sprt})` : "") }),
    el("p", { class: "muted", text: `${m.pairs} complete game pairs` })];
  out.push(el("table", { class: "data", id: "match" },
    el("thead", {}, el("tr", {}, ["opponent", "pairs", "W-D-L", "score", "Elo [95%]", "nElo [95%]", "LOS", "pentanomial", "LLR (bounds)"].map(h => el("th", { text: h })))),
    el("tbody", {}, m.opponents.map(o => {
      const s = o.stats, last = o.llr.length ? o.llr[o.llr.length - 1][1] : null;
      const iv = e => e ? `${fmt(e.value, 1)} [${e.lower === null ? "−∞" : fmt(e.lower, 1)}, ${e.upper === null ? "+∞" : fmt(e.upper, 1)}]` : "–";
      return el("tr", {}, el("td", { text: o.opponent }), el("td", { class: "num", text: s.pairs }),
        el("td", { text: `${s.wins}-${s.draws}-${s.losses}` }), el("td", { class: "num", text: pct(s.score) }),
        el("td", { class: "num", text: iv(s.elo) }), el("td", { class: "num", text: iv(s.nelo) }),
        el("td", { class: "num", text: pct(s.los) }), el("td", { text: o.pentanomial.join(" ") }),
        el("td", { class: "num", text: last === null ? "–" : `${fmt(last, 2)} (${fmt(o.bounds[0], 2)}, ${fmt(o.bounds[1], 2)})` }));
    }))));
  for (const o of m.opponents) if (o.bounds) out.push(llrChart(o));
  return out;
}

// The SPRT's log-likelihood ratio after each pair, between its two bounds.
function llrChart(o) {
  const W = 640, H = 220, L = 40, R = 10, T = 10, B = 25;
  const n = Math.max(1, ...o.llr.map(p => p[0]));
  const [lo, hi] = o.bounds;
  const ymin = Math.min(lo, ...o.llr.map(p => p[1])) - 0.2, ymax = Math.max(hi, ...o.llr.map(p => p[1])) + 0.2;
  const x = v => L + (W - L - R) * v / n, y = v => T + (H - T - B) * (ymax - v) / (ymax - ymin);
  const s = svg("svg", { class: "chart llr", width: W, height: H, "data-opponent": o.opponent, "data-points": o.llr.length });
  for (const [v, c] of [[lo, "#c62828"], [hi, "#2e7d32"], [0, "#999"]]) {
    s.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: c, "stroke-dasharray": v ? "5 4" : "2 3" }));
    s.append(svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", "font-size": 11, text: fmt(v, 2) }));
  }
  if (o.llr.length) s.append(svg("polyline", { fill: "none", stroke: "#2f6fb3", "stroke-width": 2, points: [[0, 0], ...o.llr].map(p => `${x(p[0])},${y(p[1])}`).join(" ") }));
  s.append(svg("text", { x: W - R, y: H - 6, "text-anchor": "end", "font-size": 11, text: `pairs (${n}) · LLR against ${o.opponent}` }));
  return s;
}

function gamesSection(id, games) {
  const st = runState;
  const opts = (vals, cur, all) => [el("option", { value: "", text: all }), ...[...new Set(vals)].sort().map(v => el("option", { value: v, selected: v === cur, text: v }))];
  const player = el("select", { id: "f-player" }, opts(games.flatMap(g => [g.white, g.black]), st.player, "every player"));
  const result = el("select", { id: "f-result" }, opts(games.map(g => g.result), st.result, "every result"));
  const reason = el("select", { id: "f-reason" }, opts(games.map(g => g.reason), st.reason, "every reason"));
  const body = el("tbody");
  const cols = [["id", "game", true], ["white", "White"], ["black", "Black"], ["result", "result"], ["reason", "reason"], ["plies", "plies", true]];
  const draw = () => {
    let gs = games.filter(g => (!st.player || g.white === st.player || g.black === st.player) && (!st.result || g.result === st.result) && (!st.reason || g.reason === st.reason));
    gs = gs.sort((a, b) => { const x = a[st.sort], y = b[st.sort]; const c = typeof x === "number" ? x - y : String(x).localeCompare(String(y)); return st.desc ? -c : c; });
    body.replaceChildren(...gs.map(g => el("tr", { "data-game": g.id },
      el("td", { class: "num" }, el("a", { href: "/game?" + q({ r: id, g: g.id }), text: g.id })),
      el("td", { text: g.white }), el("td", { text: g.black }), el("td", { text: g.result }),
      el("td", { text: g.reason, title: g.detail || null }), el("td", { class: "num", text: g.plies }))));
    count.textContent = `${gs.length} of ${games.length} games`;
  };
  const count = el("span", { id: "games-count", class: "muted" });
  for (const [s, k] of [[player, "player"], [result, "result"], [reason, "reason"]]) s.addEventListener("change", () => { st[k] = s.value; draw(); });
  const head = el("tr", {}, cols.map(([k, h, num]) => el("th", { class: "sortable" + (num ? " num" : ""), "data-sort": k, text: h, onclick: () => { st.desc = st.sort === k ? !st.desc : false; st.sort = k; draw(); } })));
  draw();
  return [el("h2", { text: "Games" }), el("div", { class: "filters" }, player, result, reason, count),
    el("table", { class: "data", id: "games" }, el("thead", {}, head), body)];
}

// ---------------------------------------------------------------- game
async function gamePage() {
  const id = params.get("r"), n = params.get("g");
  const g = await api("/api/game?" + q({ r: id, g: n }));
  crumbs(el("a", { href: "/run?" + q({ r: id }), text: id }), el("a", { href: location.href, text: "game " + n }));
  let ply = Math.min(Number(params.get("ply") || 0), g.frames.length - 1);
  const boards = el("div", { class: "boards", id: "boards" });
  const info = el("div", { id: "info" });
  const moves = el("div", { id: "moves" });
  const belief = el("div", { id: "belief" });
  const head = el("div", {},
    el("h1", { id: "title", text: `${g.white} vs ${g.black}` }),
    el("p", { id: "meta", class: "muted", text: `${g.source} · ${g.rules} rules` + (g.seed ? ` · seed ${g.seed}` : "") }),
    el("p", { id: "result", text: g.outcome || g.result || "*" }),
    g.opening ? el("p", { id: "opening", text: g.opening }) : null,
    g.analysis ? el("p", { id: "accuracy", text: `Accuracy: White ${fmt(g.analysis.white.accuracy, 1)}%, Black ${fmt(g.analysis.black.accuracy, 1)}% (${g.analysis.source})` }) : null,
    g.analysis_error ? el("p", { class: "note", text: "analysis not shown: " + g.analysis_error }) : null,
    el("p", {}, el("a", { id: "pgn", href: "/api/pgn?" + q({ r: id, g: n }), download: `game-${n}.pgn`, text: "Export PGN" })));
  const go = p => { ply = Math.max(0, Math.min(g.frames.length - 1, p)); draw(); };
  const controls = el("div", { class: "controls" },
    el("button", { id: "first", onclick: () => go(0), text: "« First" }), el("button", { id: "prev", onclick: () => go(ply - 1), text: "◀ Back" }),
    el("button", { id: "next", onclick: () => go(ply + 1), text: "Next ▶" }), el("button", { id: "last", onclick: () => go(g.frames.length - 1), text: "Last »" }));
  const moveEls = [];
  g.frames.forEach((f, i) => {
    if (!f.move) return;
    if (f.move.mover === "white") moves.append(el("span", { class: "num muted", text: f.move.number + "." }));
    const label = f.analysis ? f.analysis.label : "";
    const e = el("span", { class: "mv " + label, "data-ply": i, onclick: () => go(i), text: f.move.san, title: label || null });
    moveEls[i] = e; moves.append(e, " ");
  });
  function draw() {
    const f = g.frames[ply];
    const moved = f.move ? [f.move.from, f.move.to] : null;
    boards.replaceChildren(
      el("div", { class: "boardbox" }, el("h3", { text: "True board" }), board(f.board, { id: "board-truth", moved })),
      el("div", { class: "boardbox" }, el("h3", { text: "White's view" }), board(f.white, { id: "board-white" })),
      el("div", { class: "boardbox" }, el("h3", { text: "Black's view" }), board(f.black, { id: "board-black" })));
    const a = f.analysis;
    info.replaceChildren(
      el("p", { id: "position", text: `Ply ${ply} of ${g.frames.length - 1}` }),
      el("p", { id: "move", text: f.move ? `${f.move.text}` + (f.move.capture ? ` captures ${f.move.capture}` : "") : "Start position" }),
      a ? el("p", { id: "analysis", text: `${a.label}: win chance ${fmt(a.win_before, 0)}% → ${fmt(a.win_after, 0)}%, accuracy ${fmt(a.accuracy, 1)}%` + (a.best ? `, engine preferred ${a.best}` : "") + (a.notes ? ` — ${a.notes}` : "") }) : "");
    moveEls.forEach((e, i) => e && e.classList.toggle("cur", i === ply));
    document.body.dataset.ply = ply;
    history.replaceState(null, "", "/game?" + q({ r: id, g: n, ply }));
    if (beliefSide) showBelief();
  }
  let beliefSide = null, beliefRole = "k";
  async function showBelief() {
    busy();
    const f = g.frames[ply];
    // The belief a side held when it chose its move: at the ply before the move it made.
    const side = beliefSide;
    try {
      const b = await api("/api/belief?" + q({ r: id, g: n, side, ply }));
      if (side !== beliefSide) return;
      const roleButtons = el("div", { class: "controls" }, ROLES.map(([r, name]) => el("button", { "data-role": r, class: r === beliefRole ? "cur" : null, onclick: () => { beliefRole = r; showBelief(); }, text: name })));
      if (!b.turn) {
        belief.replaceChildren(el("p", { id: "belief-count", text: b.message || "no belief at this ply" }));
      } else {
        const t = b.turn;
        const role = side === "white" ? beliefRole : beliefRole.toUpperCase();
        belief.replaceChildren(
          el("h2", { text: `${side === "white" ? "White" : "Black"}'s belief (${b.spec})` }),
          el("p", { id: "belief-count", "data-boards": t.boards, text: `Before its move at ply ${t.ply + 1}: ${t.boards} possible board${t.boards === 1 ? "" : "s"}` + (t.exact ? "" : " (sampled or capped)") + (t.truth_in === false ? "; the true board is not among them" : "") }),
          t.subgame ? el("p", { id: "belief-subgame", text: t.subgame.boards ? `Its subgame: ${t.subgame.candidates} candidate moves over ${t.subgame.boards} boards${t.subgame.twins ? ` and ${t.subgame.twins} twins with its pieces where the opponent last saw them` : ""}${t.subgame.grown ? `, ${t.subgame.grown} replies grown into its next move` : ""}, ${t.subgame.iterations} PCFR+ iterations (exploitability ${t.subgame.exploitability.toFixed(3)} pawns); the move played had probability ${t.subgame.probability.toFixed(3)}.` : `No subgame: ${t.subgame.candidates === 0 ? "a king capture" : "one candidate move"}.` }) : "",
          roleButtons,
          el("div", { class: "boards" },
            el("div", { class: "boardbox" }, el("h3", { text: `Where the enemy ${ROLES.find(x => x[0] === beliefRole)[1]} may stand` }),
              board(t.view, { id: "board-heat", heat: t.heat[role] })),
            el("div", { class: "boardbox" }, el("h3", { text: "True board then" }), board(g.frames[t.ply].board, { id: "board-belief-truth" }))),
          el("p", { class: "muted", text: b.method }));
      }
    } catch (e) {
      belief.replaceChildren(el("p", { class: "err", text: "belief: " + e.message }));
    }
    ready("game");
  }
  const beliefButtons = (g.beliefs || []).map(side => el("button", { id: "belief-" + side, onclick: () => { beliefSide = beliefSide === side ? null : side; if (beliefSide) showBelief(); else belief.replaceChildren(); }, text: `${side === "white" ? "White" : "Black"}'s belief` }));
  document.addEventListener("keydown", e => {
    if (e.key === "ArrowRight") go(ply + 1); else if (e.key === "ArrowLeft") go(ply - 1);
    else if (e.key === "Home") go(0); else if (e.key === "End") go(g.frames.length - 1); else return;
    e.preventDefault();
  });
  app.replaceChildren(head, el("div", { class: "layout" }, el("div", {}, boards, controls, info, el("div", { class: "controls" }, beliefButtons), belief), el("div", {}, el("h2", { text: "Moves" }), moves)));
  draw();
  if (params.get("belief")) { beliefSide = params.get("belief"); await showBelief(); }
  ready("game");
}

// ---------------------------------------------------------------- watch
// One game of a run being written, ply by ply as it is played (server-sent events).
async function watchPage() {
  const id = params.get("r"), n = params.get("g");
  crumbs(el("a", { href: "/run?" + q({ r: id }), text: id }), "watching game " + n);
  const title = el("h1", { id: "title", text: `Game ${n}` });
  const status = el("p", { id: "status", text: "Connecting…" });
  const boards = el("div", { class: "boards", id: "boards" });
  const moves = el("p", { id: "moves" });
  app.replaceChildren(title, status, boards, moves);
  let plies = 0;
  const show = (b, moved) => boards.replaceChildren(
    el("div", { class: "boardbox" }, el("h3", { text: "True board" }), board(b.board, { id: "board-truth", moved })),
    el("div", { class: "boardbox" }, el("h3", { text: "White's view" }), board(b.white, { id: "board-white" })),
    el("div", { class: "boardbox" }, el("h3", { text: "Black's view" }), board(b.black, { id: "board-black" })));
  const es = new EventSource("/api/events/game?" + q({ r: id, g: n }));
  es.addEventListener("waiting", () => { status.textContent = "Waiting for the game to begin…"; ready("watch"); });
  es.addEventListener("start", ev => {
    const d = JSON.parse(ev.data);
    title.textContent = `Game ${n}: ${d.white} vs ${d.black}`;
    status.textContent = `Being played (${d.rules} rules)`;
    show(d.boards, null); moves.textContent = ""; plies = 0;
    document.body.dataset.plies = 0; ready("watch");
  });
  es.addEventListener("ply", ev => {
    const d = JSON.parse(ev.data);
    show(d.boards, [d.uci.slice(0, 2), d.uci.slice(2, 4)]);
    moves.append((plies ? " " : "") + d.uci); plies = d.ply;
    document.body.dataset.plies = plies; ready("watch");
  });
  es.addEventListener("end", ev => {
    const d = JSON.parse(ev.data);
    es.close();
    status.replaceChildren(`Game over: ${d.result || "unfinished"} (${d.reason}) `,
      d.result ? el("a", { id: "finished", href: "/game?" + q({ r: id, g: n }), text: "open the game" }) : "");
    document.body.dataset.over = "1"; ready("watch");
  });
}

// ---------------------------------------------------------------- play
async function playPage() {
  crumbs(el("a", { href: "/play", text: "play" }));
  const s = params.get("s");
  if (s) return playGame(s);
  const cfg = await api("/api/config");
  const bot = el("input", { name: "bot", id: "bot", list: "bots", value: cfg.play || "RandomMove", size: 40 });
  const form = el("form", { class: "play", id: "new-game" },
    el("label", {}, "Bot: ", bot, el("datalist", { id: "bots" }, cfg.bots.map(b => el("option", { value: b })))),
    el("label", {}, "Your colour: ", el("select", { name: "color", id: "color" }, ["random", "white", "black"].map(c => el("option", { value: c, text: c })))),
    el("label", {}, "Your name: ", el("input", { name: "name", id: "name", value: "Human" })),
    el("label", {}, "Seed (empty: a fresh one): ", el("input", { name: "seed", id: "seed" })),
    el("button", { type: "submit", id: "start", text: "Start" }),
    el("p", { class: "muted", text: `Rules: ${cfg.rules}. No check: capturing the king wins. You see only your pieces and the squares they reach.` }));
  form.addEventListener("submit", async e => {
    e.preventDefault();
    busy();
    const r = await fetch("/api/play/new", { method: "POST", body: new URLSearchParams(new FormData(form)) });
    const j = await r.json();
    if (!r.ok) { form.append(el("p", { class: "err", id: "error", text: j.error })); ready("play-form"); return; }
    location.href = "/play?" + q({ s: j.session });
  });
  app.replaceChildren(el("h1", { text: "Play a bot" }), form);
  ready("play-form");
}

async function playGame(token) {
  const status = el("p", { id: "status" });
  const boardBox = el("div", { id: "play-board" });
  const changes = el("div", { id: "changes" });
  const mine = el("p", { id: "my-moves", class: "muted" });
  const promo = el("div", { id: "promo" });
  const resign = el("button", { id: "resign", text: "Resign", onclick: () => send("resign") });
  app.replaceChildren(el("h1", { id: "play-title", text: "Your game" }), status, boardBox, promo, changes, mine, el("div", { class: "controls" }, resign));
  let state = null, selected = null;
  async function send(text) {
    busy();
    const r = await fetch("/api/play/move?" + q({ s: token }), { method: "POST", body: text });
    if (!r.ok) { status.textContent = (await r.json()).error; ready("play"); }
  }
  function draw() {
    const st = state;
    document.getElementById("play-title").textContent = `${st.name} (${st.color || "?"}) vs ${st.bot}`;
    document.body.dataset.status = st.status;
    document.body.dataset.version = st.version;
    promo.replaceChildren();
    if (st.status === "over") {
      const o = st.over || {};
      status.textContent = o.error ? "Game over: " + o.error : `Game over: ${o.result} (${o.reason}${o.detail ? ", " + o.detail : ""})`;
      boardBox.replaceChildren();
      resign.disabled = true;
      if (st.game) {
        // The saved game opens in the game page, which shows all of it.
        const href = "/game?" + q({ r: st.game.run, g: st.game.game });
        boardBox.append(el("a", { id: "saved-game", href, text: "Open the game" }));
        setTimeout(() => location.assign(href), 1500);
      }
      return;
    }
    if (st.status === "error") { status.textContent = st.error; return; }
    const t = st.turn;
    status.textContent = t ? "Your move." : "The bot is thinking…";
    const flip = st.color === "black";
    const legal = t ? t.legal : [];
    const targets = selected ? legal.filter(m => m.from === selected).map(m => m.to) : [];
    const b = board(t ? t.board : lastBoard, { id: "board-mine", flip, onclick: sq => click(sq) });
    for (const m of legal) b.querySelector(`[data-sq="${m.from}"]`).dataset.movable = "1";
    if (selected) b.querySelector(`[data-sq="${selected}"]`).classList.add("sel");
    for (const sq of targets) b.querySelector(`[data-sq="${sq}"]`).classList.add("target");
    boardBox.replaceChildren(b);
    if (t) lastBoard = t.board;
    changes.replaceChildren(...st.changes.map(c => el("p", { class: "change", text: c })));
    mine.textContent = st.moves.length ? "Your moves: " + st.moves.join(" ") : "";
  }
  let lastBoard = new Array(64).fill("?");
  function click(sq) {
    if (!state || !state.turn) return;
    const legal = state.turn.legal;
    if (selected) {
      const ms = legal.filter((m, i) => m.from === selected && m.to === sq && legal.findIndex(x => x.uci === m.uci) === i);
      if (ms.length === 1) { selected = null; send(ms[0].uci); return; }
      if (ms.length > 1) {
        promo.replaceChildren(el("span", { text: "Promote to: " }), ms.map(m => el("button", { "data-promotion": m.promotion, onclick: () => { selected = null; send(m.uci); }, text: GLYPH[state.color === "white" ? m.promotion.toUpperCase() : m.promotion] })));
        return;
      }
    }
    selected = legal.some(m => m.from === sq) ? sq : null;
    draw();
  }
  let after = null;
  for (;;) {
    try {
      state = await api("/api/play/state?" + q(after === null ? { s: token } : { s: token, after }));
    } catch (e) { status.textContent = e.message; ready("play"); return; }
    after = state.version;
    draw();
    ready("play");
    if (state.status === "over" || state.status === "error") return;
  }
}

// ---------------------------------------------------------------- start
const pages = { "/": indexPage, "/run": runPage, "/game": gamePage, "/watch": watchPage, "/play": playPage };
(pages[location.pathname] || (() => fail("no such page")))().catch(fail);
