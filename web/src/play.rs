//! A person's game against a bot in the browser: [`Sessions`] keeps the games being
//! played, each a [`fow_arena::HumanGame`] (saved as `fow play` saves it) on its own
//! thread, with a [`WebPerson`] at the person's side.
//!
//! The trust boundary: what the browser receives while the game runs ([`Session::state`])
//! is built from the person's own [`Observation`] only: their view with the fog (a fogged
//! square is `"?"`, never what stands there), their legal moves, their own moves and what
//! changed in their sight. The bot's moves, its pieces out of sight and the true board
//! are never in it; the finished game (the whole record) opens in the game page.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use fow_arena::{describe_changes, HumanGame, Person};
use fow_players::{Budget, GameStart, Player, PlayerError, PlayerErrorKind, PlayerSpec};
use fow_variants::{side_name, Color, FogView, Move, Observation, RuleSet};

use fow_analysis::cells;
use serde_json::{json, Value};

/// How long a person's turn may wait for a move before they are taken to have left.
pub const IDLE_LIMIT: Duration = Duration::from_secs(3600);

/// What the person's side of a running game shares with the server.
#[derive(Default)]
struct Shared {
    /// Bumped on every change (long polls wait for it to pass theirs).
    version: u64,
    /// The person's colour, once told.
    color: Option<Color>,
    /// Their view and legal moves while it is their turn.
    turn: Option<Turn>,
    /// The answer the page gave to the turn.
    answer: Option<Answer>,
    /// Their moves so far, in UCI.
    moves: Vec<String>,
    /// What changed in their sight before their last turn, in words.
    changes: Vec<String>,
    /// How they stopped early, if they did.
    left: Option<String>,
    /// The end: the game's result, reason and detail, and where it is saved.
    over: Option<Value>,
    /// An error that ended the session before the game (a folder that cannot be written).
    error: Option<String>,
}

/// The person's turn as the page sees it.
#[derive(Clone)]
struct Turn {
    ply: u32,
    view: FogView,
    legal: Vec<Move>,
}

/// What the page answered.
enum Answer {
    Move(Move),
    Resign,
}

/// One game being played in the browser.
pub struct Session {
    shared: Mutex<Shared>,
    changed: Condvar,
    bot: String,
    name: String,
    dir: PathBuf,
}

impl Session {
    fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn update(&self, f: impl FnOnce(&mut Shared)) {
        let mut s = self.lock();
        f(&mut s);
        s.version += 1;
        self.changed.notify_all();
    }

    /// What the person may see now, once its version passes `after` (or `wait` passes):
    /// their side's view only (see the module's notes).
    pub fn state(&self, after: Option<u64>, wait: Duration) -> Value {
        let deadline = Instant::now() + wait;
        let mut s = self.lock();
        while after.is_some_and(|a| s.version <= a) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            s = self
                .changed
                .wait_timeout(s, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        let color = s.color.map(|c| side_name(c).to_lowercase());
        let status = if s.error.is_some() {
            "error"
        } else if s.over.is_some() {
            "over"
        } else if s.turn.is_some() {
            "your-move"
        } else {
            "waiting"
        };
        let turn = s.turn.as_ref().map(|t| {
            json!({
                "ply": t.ply,
                "board": cells(t.view.board(), t.view.visible()),
                "legal": t.legal.iter().map(move_json).collect::<Vec<_>>(),
            })
        });
        json!({
            "version": s.version,
            "status": status,
            "color": color,
            "bot": self.bot,
            "name": self.name,
            "turn": turn,
            "moves": s.moves,
            "changes": s.changes,
            "over": s.over,
            "error": s.error,
        })
    }

    /// Hands the page's answer (`move` in UCI, or `resign`) to the person's turn; an
    /// error when it is not their turn or the move is not among their legal moves.
    pub fn answer(&self, text: &str) -> Result<(), String> {
        let mut s = self.lock();
        let Some(turn) = &s.turn else {
            return Err("it is not your turn".into());
        };
        if s.answer.is_some() {
            return Err("a move is already on its way".into());
        }
        let answer = if text == "resign" {
            Answer::Resign
        } else {
            let m = turn
                .legal
                .iter()
                .find(|m| m.uci() == text)
                .ok_or_else(|| format!("{text}: not one of your legal moves"))?;
            Answer::Move(*m)
        };
        s.answer = Some(answer);
        // Not their turn any more: the page shows the bot thinking at once.
        s.turn = None;
        s.version += 1;
        self.changed.notify_all();
        Ok(())
    }
}

/// A legal move as the page offers it.
fn move_json(m: &Move) -> Value {
    let uci = m.uci();
    json!({
        "uci": uci,
        "from": &uci[0..2],
        "to": &uci[2..4],
        "promotion": uci.get(4..5),
    })
}

/// The person's side: a [`Player`] whose moves come from the page.
pub struct WebPerson {
    session: Arc<Session>,
    stop: Arc<AtomicBool>,
    error: Option<PlayerError>,
}

impl WebPerson {
    fn leave(&mut self, how: &str) -> Move {
        self.session.update(|s| s.left = Some(how.to_string()));
        self.error = Some(PlayerError {
            kind: PlayerErrorKind::Other,
            message: format!("the person {how}"),
        });
        Move::NULL
    }
}

impl Player for WebPerson {
    fn start(&mut self, game: &GameStart) {
        let color = game.color;
        self.session.update(|s| s.color = Some(color));
    }

    fn choose(&mut self, obs: &Observation, _budget: &Budget) -> Move {
        let view = obs.view().clone();
        self.session.update(|s| {
            s.changes = obs
                .previous()
                .map(|before| describe_changes(before, &view))
                .unwrap_or_default();
            s.turn = Some(Turn {
                ply: obs.ply(),
                view: view.clone(),
                legal: obs.legal_moves().to_vec(),
            });
        });
        let since = Instant::now();
        let answer = {
            let mut s = self.session.lock();
            loop {
                if let Some(a) = s.answer.take() {
                    break Some(a);
                }
                if self.stop.load(Ordering::SeqCst) || since.elapsed() > IDLE_LIMIT {
                    break None;
                }
                s = self
                    .session
                    .changed
                    .wait_timeout(s, Duration::from_millis(200))
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
            }
        };
        self.session.update(|s| s.turn = None);
        match answer {
            Some(Answer::Move(m)) => {
                self.session.update(|s| s.moves.push(m.uci()));
                m
            }
            Some(Answer::Resign) => self.leave("resigned"),
            None if self.stop.load(Ordering::SeqCst) => self.leave("left (the server stopped)"),
            None => self.leave("left (no move within an hour)"),
        }
    }

    fn take_error(&mut self) -> Option<PlayerError> {
        self.error.take()
    }
}

impl Person for WebPerson {
    fn left(&self) -> Option<String> {
        self.session.lock().left.clone()
    }
}

/// How a new game is asked for.
pub struct NewGame {
    /// The bot's spec.
    pub bot: String,
    /// The person's name.
    pub name: String,
    /// Their colour (`None`: drawn from the seed).
    pub color: Option<Color>,
    /// The master seed (`None`: a fresh one).
    pub seed: Option<u64>,
    /// The rules.
    pub rules: RuleSet,
}

/// The games being played, by their session token, and their threads.
#[derive(Default)]
pub struct Sessions {
    games: Mutex<HashMap<String, Arc<Session>>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
    stop: Arc<AtomicBool>,
}

impl Sessions {
    /// Starts a game saved under `area` (`<area>/<UTC timestamp>`), as `fow play` would;
    /// its session token (unguessable: another page cannot read the person's view).
    pub fn start(&self, game: NewGame, area: &Path) -> Result<(String, Arc<Session>), String> {
        let spec: PlayerSpec = game.bot.parse().map_err(|e| format!("{e}"))?;
        // A fresh folder (`-2`, `-3`, ... for games begun in the same second); the game
        // takes its lock again at once.
        let (out, lock) =
            fow_records::fresh_folder(&fow_records::stamped(&area.display().to_string(), ""))
                .map_err(|e| e.to_string())?;
        drop(lock);
        let human = HumanGame::new(
            &spec.to_string(),
            &game.name,
            game.color,
            game.seed,
            game.rules,
            Some(&out),
        )
        .map_err(|e| e.to_string())?;
        let token = format!(
            "{:016x}{:016x}",
            fow_records::seed::random_seed()?,
            fow_records::seed::random_seed()?
        );
        let session = Arc::new(Session {
            shared: Mutex::new(Shared::default()),
            changed: Condvar::new(),
            bot: human.bot_name().to_string(),
            name: game.name.clone(),
            dir: human.dir().to_path_buf(),
        });
        let mut person = WebPerson {
            session: session.clone(),
            stop: self.stop.clone(),
            error: None,
        };
        let s = session.clone();
        let thread = std::thread::spawn(move || {
            let dir = s.dir.clone();
            let over = match human.play(&mut person) {
                Ok(rec) => json!({
                    "result": rec.result.to_string(),
                    "reason": rec.reason.to_string(),
                    "detail": rec.detail,
                    "plies": rec.moves.len(),
                    "dir": dir.display().to_string(),
                }),
                Err(e) => json!({ "error": e.to_string(), "dir": dir.display().to_string() }),
            };
            s.update(|sh| {
                sh.turn = None;
                sh.over = Some(over);
            });
        });
        self.threads
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(thread);
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(token.clone(), session.clone());
        Ok((token, session))
    }

    /// The session of `token`.
    pub fn get(&self, token: &str) -> Option<Arc<Session>> {
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(token)
            .cloned()
    }

    /// Ends every game (the person leaves; each game is saved) and waits for their
    /// threads.
    pub fn stop_all(&self) {
        self.stop.store(true, Ordering::SeqCst);
        let threads = std::mem::take(&mut *self.threads.lock().unwrap_or_else(|e| e.into_inner()));
        for t in threads {
            let _ = t.join();
        }
    }
}

impl Session {
    /// Where the game is saved.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}
