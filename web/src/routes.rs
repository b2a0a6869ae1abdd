//! Every URL the app answers ([`App::handle`]): the pages (one shell, the app's script
//! draws each), the JSON API under `/api/`, the event streams and the play endpoints.
//!
//! Requests must name this server in their `Host` header (`127.0.0.1:PORT`,
//! `localhost:PORT` or the address it listens on), and a request that changes something
//! (`POST`) must come from one of its own pages (`Origin`): another web site open in the
//! same browser can neither read the results (DNS rebinding) nor start or move in a game.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use fow_variants::{Color, RuleSet};
use serde_json::{json, Value};
use tiny_http::{Method, Request};

use crate::assets::asset;
use crate::http::{body, Answer, EventStream, Target};
use crate::play::{NewGame, Sessions};
use crate::roots::Roots;

/// The longest a play state request waits for a change.
pub const LONG_POLL: Duration = Duration::from_secs(20);

/// The app's state, shared by every request.
pub struct App {
    /// The results roots.
    pub roots: Roots,
    /// Games being played.
    pub sessions: Sessions,
    /// Belief overlays replayed so far.
    pub beliefs: crate::belief_json::Beliefs,
    /// Run pages, kept while their folders are unchanged.
    pub run_pages: crate::run_cache::RunCache,
    /// `--play SPEC`: the bot the play page offers first (the only program player a
    /// page may start).
    pub play: Option<String>,
    /// Where games played here are saved (`<first root>/play`).
    pub play_area: PathBuf,
    /// The rules of games played here.
    pub rules: RuleSet,
    /// Set when the server stops (streams end, games are saved).
    pub stop: Arc<AtomicBool>,
    /// The `Host` values this server answers to.
    pub hosts: Vec<String>,
}

impl App {
    /// Answers one request (on its own thread).
    pub fn handle(&self, mut request: Request) {
        let target = Target::of(request.url());
        if !self.host_ok(&request) {
            return Answer::Error(403, "unknown Host".into()).send(request);
        }
        let post = *request.method() == Method::Post;
        if post && !self.origin_ok(&request) {
            return Answer::Error(403, "a change from another site".into()).send(request);
        }
        match (post, target.path.as_str()) {
            (false, "/api/events/run") => {
                let Some(dir) = target.get("r").and_then(|r| self.roots.resolve(r)) else {
                    return Answer::not_found("run").send(request);
                };
                if let Ok(out) = EventStream::open(request) {
                    let _ = crate::live::run_events(&dir, out, &self.stop);
                }
            }
            (false, "/api/events/game") => {
                let dir = target.get("r").and_then(|r| self.roots.resolve(r));
                let id = target.get("g").and_then(|g| g.parse::<u64>().ok());
                let (Some(dir), Some(id)) = (dir, id) else {
                    return Answer::not_found("game").send(request);
                };
                if let Ok(out) = EventStream::open(request) {
                    let _ = crate::live::game_events(&dir, id, out, &self.stop);
                }
            }
            (true, "/api/play/new") => {
                let answer = match body(&mut request) {
                    Ok(text) => self.new_game(&text),
                    Err(e) => Answer::Error(400, e),
                };
                answer.send(request)
            }
            (true, "/api/play/move") => {
                let answer = match (
                    target.get("s").and_then(|s| self.sessions.get(s)),
                    body(&mut request),
                ) {
                    (None, _) => Answer::not_found("game"),
                    (_, Err(e)) => Answer::Error(400, e),
                    (Some(s), Ok(text)) => match s.answer(text.trim()) {
                        Ok(()) => Answer::Json(json!({ "ok": true })),
                        Err(e) => Answer::Error(409, e),
                    },
                };
                answer.send(request)
            }
            (false, path) => self.get(path, &target).send(request),
            (true, _) => Answer::Error(405, "no such action".into()).send(request),
        }
    }

    /// The answer to a `GET` that is not a stream.
    fn get(&self, path: &str, t: &Target) -> Answer {
        let run = || {
            t.get("r")
                .and_then(|r| self.roots.resolve(r).map(|d| (r, d)))
        };
        let number = || t.get("g").and_then(|g| g.parse::<u64>().ok());
        match path {
            "/" | "/run" | "/game" | "/watch" | "/play" => asset("/index.html"),
            "/api/runs" => Answer::Json(json!({
                "roots": self.roots.given().map(|p| p.display().to_string()).collect::<Vec<_>>(),
                "runs": crate::scan::runs(&self.roots),
            })),
            "/api/run" => match run() {
                Some((id, dir)) => json_or_error(
                    self.run_pages
                        .page(&dir, || crate::run_json::run_json(id, &dir))
                        .map(|mut v| {
                            // Always fresh: the live files change every ply.
                            v["live_games"] = crate::live::live_list(&dir);
                            v["live"] = crate::scan::being_written(&dir).into();
                            v
                        }),
                ),
                None => Answer::not_found("run"),
            },
            "/api/game" => match (run(), number()) {
                (Some((_, dir)), Some(n)) => json_or_error(crate::game_json::game_json(&dir, n)),
                _ => Answer::not_found("game"),
            },
            "/api/belief" => {
                let side = match t.get("side") {
                    Some("white") => Some(Color::White),
                    Some("black") => Some(Color::Black),
                    _ => None,
                };
                let ply = t.get("ply").and_then(|p| p.parse::<usize>().ok());
                match (run(), number(), side, ply) {
                    (Some((_, dir)), Some(n), Some(side), Some(ply)) => {
                        json_or_error(self.beliefs.json(&dir, n, side, ply))
                    }
                    _ => Answer::Error(400, "belief: r, g, side (white or black) and ply".into()),
                }
            }
            "/api/pgn" => match (run(), number()) {
                (Some((_, dir)), Some(n)) => match crate::game_json::game_pgn(&dir, n) {
                    Ok(pgn) => Answer::Text("application/x-chess-pgn; charset=utf-8", pgn),
                    Err(e) => Answer::Error(404, e),
                },
                _ => Answer::not_found("game"),
            },
            "/api/plot" if t.get("f") == Some(fow_analysis::TUNE_PLOT_FILE) => {
                // A tuning run's curve, drawn from its log as it is now.
                let tune = run().filter(|(_, dir)| dir.join(fow_records::TUNE_FILE).is_file());
                match tune.map(|(_, dir)| fow_analysis::tune_plot_svg(&dir)) {
                    Some(Ok(svg)) => Answer::Text("image/svg+xml", svg),
                    Some(Err(e)) => Answer::Error(404, e.to_string()),
                    None => Answer::not_found("plot"),
                }
            }
            "/api/plot" => {
                let file = run().and_then(|(_, dir)| {
                    let name = t.get("f")?;
                    name.ends_with(".svg")
                        .then(|| self.roots.file_in(&dir, name))
                        .flatten()
                });
                match file.and_then(|f| std::fs::read_to_string(f).ok()) {
                    Some(svg) => Answer::Text("image/svg+xml", svg),
                    None => Answer::not_found("plot"),
                }
            }
            "/api/config" => Answer::Json(json!({
                "play": self.play,
                "bots": fow_players::registry().iter().map(|b| b.name).collect::<Vec<_>>(),
                "rules": self.rules.to_string(),
            })),
            "/api/play/state" => match t.get("s").and_then(|s| self.sessions.get(s)) {
                Some(s) => {
                    let after = t.get("after").and_then(|a| a.parse().ok());
                    let mut state = s.state(after, LONG_POLL);
                    if state["status"] == "over" {
                        state["game"] = self.saved_game_link(s.dir());
                    }
                    Answer::Json(state)
                }
                None => Answer::not_found("game"),
            },
            p => asset(p),
        }
    }

    /// The game page of a finished game saved in `dir`, when it lies under a root.
    fn saved_game_link(&self, dir: &std::path::Path) -> Value {
        let dir = dir.canonicalize().ok();
        (0..self.roots.len())
            .find_map(|i| self.roots.id_of(i, dir.as_deref()?))
            .map_or(Value::Null, |id| json!({ "run": id, "game": 0 }))
    }

    /// Starts the game a play page asks for (`bot`, `name`, `color`, `seed` as a form).
    fn new_game(&self, form: &str) -> Answer {
        let fields: std::collections::HashMap<String, String> =
            form_urlencoded::parse(form.as_bytes())
                .into_owned()
                .collect();
        let get = |k: &str| fields.get(k).map(|v| v.trim()).filter(|v| !v.is_empty());
        let Some(bot) = get("bot").or(self.play.as_deref()) else {
            return Answer::Error(400, "no bot chosen".into());
        };
        let program = bot.starts_with("exec:") || bot.starts_with("uci:");
        if program && Some(bot) != self.play.as_deref() {
            return Answer::Error(
                403,
                "a page may start only built-in bots, or the program given to fow web --play"
                    .into(),
            );
        }
        let color = match get("color") {
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            None | Some("random") => None,
            Some(c) => return Answer::Error(400, format!("color {c}: white, black or random")),
        };
        let seed = match get("seed").map(str::parse::<u64>).transpose() {
            Ok(s) => s,
            Err(e) => return Answer::Error(400, format!("seed: {e}")),
        };
        let game = NewGame {
            bot: bot.to_string(),
            name: get("name").unwrap_or("Human").to_string(),
            color,
            seed,
            rules: self.rules,
        };
        match self.sessions.start(game, &self.play_area) {
            Ok((token, _)) => Answer::Json(json!({ "session": token })),
            Err(e) => Answer::Error(400, e),
        }
    }

    fn header<'a>(request: &'a Request, name: &str) -> Option<&'a str> {
        request
            .headers()
            .iter()
            .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
            .map(|h| h.value.as_str())
    }

    fn host_ok(&self, request: &Request) -> bool {
        Self::header(request, "Host").is_some_and(|h| self.hosts.iter().any(|ok| ok == h))
    }

    fn origin_ok(&self, request: &Request) -> bool {
        match Self::header(request, "Origin") {
            None => true,
            Some(o) => self.hosts.iter().any(|h| o == format!("http://{h}")),
        }
    }
}

fn json_or_error(r: Result<Value, String>) -> Answer {
    match r {
        Ok(v) => Answer::Json(v),
        Err(e) => Answer::Error(404, e),
    }
}
