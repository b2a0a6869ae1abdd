//! Python bots in-process: a class with `start(game)` and `choose(observation)`,
//! registered under a name ([`register_bot`]), becomes a player spec that fow's runs
//! build like a built-in bot's, one fresh instance per game, called under the GIL.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use fow_players::{
    BotInfo, Budget, GameStart, Player, PlayerError, PlayerErrorKind, PlayerSpec, SpecError,
};
use fow_variants::{Color, Move, Observation};
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyType};

use crate::encoding::{uci_of, ACTIONS};
use crate::error::fow_error;
use crate::game_start::PyGameStart;
use crate::observation::PyObservation;

/// The line `fow players`-style listings show for a Python bot.
const DESCRIPTION: &str = "a Python bot, played in-process (fow.register_bot)";

/// The Python bots registered in this interpreter, by name: what makes a fresh bot (a
/// class, or any callable without arguments).
static BOTS: Mutex<Vec<(String, Arc<Py<PyAny>>)>> = Mutex::new(Vec::new());

/// The maker of the Python bot registered as `name`.
fn maker(name: &str) -> Option<Arc<Py<PyAny>>> {
    let bots = BOTS.lock().unwrap_or_else(|e| e.into_inner());
    bots.iter().find(|(n, _)| n == name).map(|(_, m)| m.clone())
}

/// Whether the player spec `spec` names a Python bot registered here (which only this
/// interpreter can build: the `fow` command cannot resume a run it plays in).
pub fn is_python_bot(spec: &str) -> bool {
    spec.parse::<PlayerSpec>()
        .is_ok_and(|s| maker(&s.name).is_some())
}

/// The registry's build function of every Python bot: looks its name up.
fn build(spec: &PlayerSpec) -> Result<Box<dyn Player>, SpecError> {
    let make = maker(&spec.name).ok_or_else(|| SpecError::BadParam {
        bot: spec.name.clone(),
        message: "no Python bot of this name is registered in this interpreter".into(),
    })?;
    Ok(Box::new(PyPlayer {
        name: spec.name.clone(),
        make,
        bot: None,
        color: Color::White,
        log: None,
        failed: None,
    }))
}

/// Registers `bot` (a class whose instances have `start(game)` and `choose(observation)`,
/// or any callable that makes such an instance) as the player `name` (default: its
/// `__name__`), usable in the player specs of `fow.tournament`, `fow.match` and
/// `fow.Bot`; returns the name. A name already registered for a Python bot is given to
/// `bot` (a class defined again in a notebook); a built-in bot's name is refused.
///
/// A fresh instance plays each game: `start` receives a `fow.GameStart` (colour, seed,
/// rules, start FEN), `choose` a `fow.Observation`, and returns UCI text or an action
/// number. An optional `finish(outcome, reason)` hears the end (`"win"`, `"loss"` or
/// `"draw"`, and the reason as games.csv records it). An exception loses the game
/// (`player error`), its traceback in the run's `logs/`.
///
/// A Python bot runs inside the interpreter with its rights: it is trusted code, as a
/// built-in bot is, and a run of Python bots only gets a public seed by default. Run a
/// bot you do not trust as an `exec:` program in the sandbox (`python3 -m fow.serve`).
#[pyfunction]
#[pyo3(signature = (bot, name=None))]
pub fn register_bot(bot: &Bound<'_, PyAny>, name: Option<&str>) -> PyResult<String> {
    let name = match name {
        Some(n) => n.to_string(),
        None => bot
            .getattr("__name__")
            .and_then(|n| n.extract::<String>())
            .map_err(|_| {
                fow_error(format!(
                    "{} has no __name__: give the bot a name (fow.register_bot(bot, name=...))",
                    short_repr(bot)
                ))
            })?,
    };
    if !bot.is_callable() {
        return Err(fow_error(format!(
            "{name}: a Python bot is registered as its class (or a callable that makes one), not an instance: a fresh bot plays each game"
        )));
    }
    if bot.is_instance_of::<PyType>() {
        for method in ["start", "choose"] {
            if !bot.hasattr(method)? {
                return Err(fow_error(format!(
                    "{name}: a Python bot has start(game) and choose(observation); this class has no {method}"
                )));
            }
        }
    }
    let mut bots = BOTS.lock().unwrap_or_else(|e| e.into_inner());
    let made = Arc::new(bot.clone().unbind());
    if let Some(entry) = bots.iter_mut().find(|(n, _)| *n == name) {
        entry.1 = made;
        return Ok(name);
    }
    let leaked: &'static str = Box::leak(name.clone().into_boxed_str());
    fow_players::register(BotInfo::new(leaked, DESCRIPTION, &[], build)).map_err(fow_error)?;
    bots.push((name.clone(), made));
    Ok(name)
}

/// A Python bot as a [`Player`]: its instance for the current game, called under the GIL.
struct PyPlayer {
    name: String,
    make: Arc<Py<PyAny>>,
    /// This game's instance (`None` before `start` and after a failed one).
    bot: Option<Py<PyAny>>,
    color: Color,
    /// Where tracebacks go (the run's `logs/ID-side.stderr`); stderr without one.
    log: Option<PathBuf>,
    /// The failure not yet taken; while it is there, `choose` answers [`Move::NULL`].
    failed: Option<PlayerError>,
}

impl PyPlayer {
    /// Records `err`, raised by the bot's `stage`: its traceback to the log, a one-line
    /// error for the arena. A `KeyboardInterrupt` also halts the runs under way, as
    /// Ctrl-C does.
    fn fail(&mut self, py: Python<'_>, stage: &str, err: PyErr) {
        if err.is_instance_of::<PyKeyboardInterrupt>(py) {
            crate::halt::interrupt_runs();
        }
        self.write_log(py, stage, &err);
        let kind = err
            .get_type(py)
            .name()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "exception".into());
        let value = err
            .value(py)
            .str()
            .map(|s| s.to_string())
            .unwrap_or_default();
        let message = match value.is_empty() {
            true => format!("{}: {stage} raised {kind}", self.name),
            false => format!("{}: {stage} raised {kind}: {value}", self.name),
        };
        self.failed.get_or_insert(PlayerError {
            kind: PlayerErrorKind::Other,
            message,
        });
    }

    /// Appends `err`'s traceback to the log (made when first needed), or writes it to
    /// stderr when the player has no log.
    fn write_log(&self, py: Python<'_>, stage: &str, err: &PyErr) {
        let text = traceback_text(py, err)
            .unwrap_or_else(|_| format!("{}\n", err.value(py)))
            .replace('\0', "");
        let text = format!("{} ({stage}):\n{text}", self.name);
        match &self.log {
            Some(path) => append(path, &text),
            None => eprint!("{text}"),
        }
    }

    /// `bot.choose(obs)`, as a move.
    fn ask(&mut self, py: Python<'_>, obs: &Observation) -> PyResult<Result<Move, String>> {
        let Some(bot) = &self.bot else {
            return Ok(Err("asked to move before start".into()));
        };
        let answer = bot
            .bind(py)
            .call_method1("choose", (PyObservation::new(obs.clone()),))?;
        Ok(move_of(obs, &answer))
    }
}

impl Player for PyPlayer {
    fn start(&mut self, game: &GameStart) {
        self.color = game.color;
        self.failed = None;
        Python::attach(|py| {
            let started = (|| -> PyResult<Py<PyAny>> {
                let bot = self.make.bind(py).call0()?;
                bot.call_method1("start", (PyGameStart::of(game),))?;
                Ok(bot.unbind())
            })();
            match started {
                Ok(bot) => self.bot = Some(bot),
                Err(e) => {
                    self.bot = None;
                    self.fail(py, "start", e);
                }
            }
        });
    }

    fn choose(&mut self, obs: &Observation, _: &Budget) -> Move {
        if self.failed.is_some() {
            return Move::NULL;
        }
        Python::attach(|py| match self.ask(py, obs) {
            Ok(Ok(m)) => m,
            Ok(Err(message)) => {
                self.failed = Some(PlayerError {
                    kind: PlayerErrorKind::Protocol,
                    message: format!("{}: {message}", self.name),
                });
                Move::NULL
            }
            Err(e) => {
                self.fail(py, "choose", e);
                Move::NULL
            }
        })
    }

    fn take_error(&mut self) -> Option<PlayerError> {
        self.failed.take()
    }

    fn finish(&mut self, winner: Option<Color>, reason: &str) {
        let Some(bot) = self.bot.take() else { return };
        let outcome = match winner {
            None => "draw",
            Some(c) if c == self.color => "win",
            Some(_) => "loss",
        };
        Python::attach(|py| {
            let bot = bot.into_bound(py);
            let heard = (|| -> PyResult<()> {
                if bot.hasattr("finish")? {
                    bot.call_method1("finish", (outcome, reason))?;
                }
                Ok(())
            })();
            // The game is over: an exception here changes nothing but the log.
            if let Err(e) = heard {
                if e.is_instance_of::<PyKeyboardInterrupt>(py) {
                    crate::halt::interrupt_runs();
                }
                self.write_log(py, "finish", &e);
            }
            // The instance is released here, with the GIL held.
            drop(bot);
        });
    }

    fn log_to(&mut self, path: &Path) {
        self.log = Some(path.to_path_buf());
    }
}

/// The move `answer` (UCI text or an action number) names in `obs`: a legal one, or a
/// well-formed one that is not legal (the arena records an illegal move); an error for
/// anything else.
fn move_of(obs: &Observation, answer: &Bound<'_, PyAny>) -> Result<Move, String> {
    let text = if answer.is_instance_of::<PyBool>() {
        return Err(format!("choose returned {answer}, not a move"));
    } else if let Ok(action) = answer.extract::<i64>() {
        usize::try_from(action)
            .ok()
            .and_then(uci_of)
            .ok_or_else(|| {
                format!(
                    "choose returned {action}, which is not an action (0 to {})",
                    ACTIONS - 1
                )
            })?
    } else if let Ok(text) = answer.extract::<String>() {
        text
    } else {
        return Err(format!(
            "choose returned {}, not UCI text or an action number",
            short_repr(answer)
        ));
    };
    // As for a program player: a well-formed move outside the legal list goes back to
    // the arena, which records it as an illegal move.
    obs.read_answer(&text).ok_or_else(|| {
        format!(
            "choose returned '{}', which is not a UCI move",
            fow_variants::quote(&text)
        )
    })
}

/// `err`'s traceback as Python prints it.
fn traceback_text(py: Python<'_>, err: &PyErr) -> PyResult<String> {
    let lines = py.import("traceback")?.call_method1(
        "format_exception",
        (err.get_type(py), err.value(py), err.traceback(py)),
    )?;
    Ok(lines.extract::<Vec<String>>()?.concat())
}

/// Appends `text` to the file `path`, making its folder; a log that cannot be written
/// is left out (the game's detail still says what happened).
fn append(path: &Path, text: &str) {
    if let Some(dir) = path.parent() {
        let _ = fs::create_dir_all(dir);
    }
    if let Ok(mut f) = OpenOptions::new().create(true).append(true).open(path) {
        let _ = f.write_all(text.as_bytes());
    }
}

/// `repr(obj)`, cut to 60 characters.
fn short_repr(obj: &Bound<'_, PyAny>) -> String {
    let text = obj
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "the object".into());
    match text.char_indices().nth(60) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text,
    }
}
