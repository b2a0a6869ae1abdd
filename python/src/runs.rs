//! `fow.tournament`, `fow.match` and `fow.resume`: runs of games from Python, played
//! by fow-arena's [`Run`] into the same results folders as `fow tournament` and `fow
//! match`, their tables written by the same fow-analysis calls. Python bots play
//! in-process ([`crate::pybot`]); Ctrl-C halts a run and keeps every complete game.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Mutex;
use std::time::Duration;

use fow_analysis::{match_results, sprt_of, sprt_step, tournament_results, Method};
use fow_arena::{Run, RunPlan, RunReport};
use fow_ratings::{Pentanomial, SprtSpec};
use fow_records::{FolderKind, GameRow, Schedule, StopRule};
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::error::fow_error;
use crate::halt::Halt;
use crate::pybot::{is_python_bot, register_bot};
use crate::rules::read_rules;

/// How often the calling thread looks for Ctrl-C while a run plays.
const POLL: Duration = Duration::from_millis(100);

/// Plays `run` on worker threads with the GIL released (Python bots take it in turn),
/// polling for Ctrl-C: on one, no game starts any more, the games in flight are
/// dropped, and `KeyboardInterrupt` is raised once the folder holds only complete
/// games (`fow.resume` or `--resume` finishes it).
///
/// `progress(done, total)`, when given, is called after each game is written (on a worker
/// thread, holding the GIL); an exception there halts the run like Ctrl-C and is raised.
fn play(
    py: Python<'_>,
    run: &Run,
    jobs: Option<usize>,
    stop: Option<&StopRule<'_>>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<RunReport> {
    let jobs = match jobs {
        Some(0) => return Err(fow_error("jobs must be at least 1")),
        Some(j) => j,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let halt = Halt::new();
    let flag: &AtomicBool = &halt.0;
    let mut interrupted: Option<PyErr> = None;
    let progress = progress.map(|p| p.clone().unbind());
    let raised: Mutex<Option<PyErr>> = Mutex::new(None);
    let on_game = |_: &fow_records::GameRecord, done: usize, total: usize| {
        let Some(p) = &progress else { return };
        Python::attach(|py| {
            if let Err(e) = p.bind(py).call1((done, total)) {
                flag.store(true, Ordering::SeqCst);
                raised
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert(e);
            }
        });
    };
    let (tx, rx) = mpsc::channel::<()>();
    // In a mutex, so that the GIL-free wait may borrow it.
    let rx = Mutex::new(rx);
    let played = std::thread::scope(|s| {
        let worker = s.spawn(move || {
            let report = run.play_until(jobs, None, &on_game, stop, flag);
            let _ = tx.send(());
            report
        });
        loop {
            let over = py.detach(|| {
                let rx = rx.lock().unwrap_or_else(|e| e.into_inner());
                !matches!(rx.recv_timeout(POLL), Err(RecvTimeoutError::Timeout))
            });
            if over {
                break;
            }
            if interrupted.is_none() {
                if let Err(e) = py.check_signals() {
                    flag.store(true, Ordering::SeqCst);
                    interrupted = Some(e);
                }
            }
        }
        worker.join()
    });
    let report = played
        .map_err(|_| fow_error("the run's thread panicked"))?
        .map_err(fow_error)?;
    let raised = raised.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = interrupted.or(raised) {
        if !e.is_instance_of::<PyKeyboardInterrupt>(py) {
            return Err(e);
        }
    }
    if report.halted {
        let dir = run.dir().display();
        let command = match run.config().kind {
            Some(FolderKind::Match) => "match",
            _ => "tournament",
        };
        let cli = match run.config().players.iter().any(|p| is_python_bot(p)) {
            true => String::new(),
            false => format!(" or `fow {command} --resume --out {dir}`"),
        };
        return Err(PyKeyboardInterrupt::new_err(format!(
            "the run was halted: {dir} holds its {} (each complete); fow.resume('{dir}'){cli} plays the rest",
            fow_records::count(report.games.len(), "game"),
        )));
    }
    Ok(report)
}

/// A player spec from a spec text or a Python bot (registered under its `__name__`); two
/// Python bots of one name in a run are refused.
fn spec_of(player: &Bound<'_, PyAny>, seen: &mut Vec<(String, Py<PyAny>)>) -> PyResult<String> {
    if let Ok(text) = player.cast::<PyString>() {
        return Ok(text.to_string());
    }
    let name: String = player
        .getattr("__name__")
        .and_then(|n| n.extract())
        .map_err(|_| match player.is_callable() {
            true => fow_error("a player is a spec (text) or a Python bot class; register other callables with fow.register_bot(bot, name=...) and give the name"),
            false => fow_error("a Python bot is given as its class (or a callable that makes one), not an instance: a fresh bot plays each game"),
        })?;
    if let Some((_, other)) = seen.iter().find(|(n, _)| *n == name) {
        if !other.bind(player.py()).is(player) {
            return Err(fow_error(format!(
                "two Python bots are named {name}: register one under another name with fow.register_bot(bot, name=...) and give that name"
            )));
        }
    }
    let name = register_bot(player, Some(&name))?;
    seen.push((name.clone(), player.clone().unbind()));
    Ok(name)
}

/// The specs of `players`: a list of specs and Python bots, or one comma-separated text
/// as `fow tournament --players` reads it.
fn specs_of(
    players: &Bound<'_, PyAny>,
    seen: &mut Vec<(String, Py<PyAny>)>,
) -> PyResult<Vec<String>> {
    if let Ok(text) = players.cast::<PyString>() {
        return Ok(fow_players::split_spec_list(&text.to_string()));
    }
    players
        .try_iter()
        .map_err(|_| fow_error("players are a list of specs and Python bot classes"))?
        .map(|p| spec_of(&p?, seen))
        .collect()
}

/// The ratings methods `fow tournament --method` takes.
pub fn method_of(text: &str) -> PyResult<Method> {
    match text {
        "bayeselo" => Ok(Method::Bayeselo),
        "thesis" => Ok(Method::Thesis),
        "mle" => Ok(Method::Mle),
        "both" => Ok(Method::Both),
        _ => Err(fow_error(format!(
            "method is 'bayeselo', 'thesis', 'mle' or 'both', not '{}'",
            fow_variants::quote(text)
        ))),
    }
}

/// The Python results of the folder `dir` (`fow.read_results`).
fn results(py: Python<'_>, dir: &std::path::Path, method: &str) -> PyResult<Py<PyAny>> {
    let read = py.import("fow.results")?.getattr("read_results")?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("method", method)?;
    Ok(read.call((dir.to_path_buf(),), Some(&kwargs))?.unbind())
}

/// A new run of `plan` in `out` (else a fresh `results/runs/<timestamp><suffix>`).
fn create(
    mut plan: RunPlan,
    seed: Option<u64>,
    nodes: Option<u64>,
    out: Option<PathBuf>,
    suffix: &str,
) -> PyResult<Run> {
    plan.seed = seed;
    plan.nodes = nodes;
    Run::create(plan, out.as_deref(), suffix).map_err(fow_error)
}

/// Plays a round robin (or, with `gauntlet`, that player against each of `players`) and
/// rates it, as `fow tournament` does, into the same results folder (`out`, else a fresh
/// `results/runs/<timestamp>`): games.csv, times.csv, crosstable.csv, ratings.csv,
/// summary.csv, los.csv. Returns `fow.read_results(folder)`.
///
/// `players`: specs (`"RandomMove"`, `"BeliefSearch:nodes=2000"`, `"exec:cmd=..."`) and
/// Python bot classes (registered under their `__name__`, see `fow.register_bot`),
/// default: the bots of `fow tournament`. `games`: per ordered pair (default 20).
/// `rules` and `**switches` as `fow.Game` takes them; `seed`, `nodes`, `jobs` as the
/// command's options (default: the public seed 2023, or a secret key with a program
/// player; each bot's own budget; all cores).
///
/// The run plays on worker threads with the GIL released; Python bots take the GIL in
/// turn, so they play one move at a time whatever `jobs` is, while built-in bots play in
/// parallel. `progress(done, total)`, when given, is called after each game is written
/// (on a worker thread). Ctrl-C stops the run: no game starts, the games in flight are
/// dropped, the folder keeps every complete game, and `KeyboardInterrupt` is raised;
/// `fow.resume(folder)` (or `fow tournament --resume --out FOLDER`, when no Python bot
/// plays) plays the rest. A `KeyboardInterrupt` raised by a Python bot or by `progress`
/// stops it the same way (an exception in `progress` too, and is raised).
#[pyfunction]
#[pyo3(signature = (players=None, *, games=None, gauntlet=None, rules="thesis", seed=None, nodes=None, jobs=None, out=None, method="bayeselo", progress=None, **switches))]
#[allow(clippy::too_many_arguments)]
pub fn tournament(
    py: Python<'_>,
    players: Option<&Bound<'_, PyAny>>,
    games: Option<u32>,
    gauntlet: Option<&Bound<'_, PyAny>>,
    rules: &str,
    seed: Option<u64>,
    nodes: Option<u64>,
    jobs: Option<usize>,
    out: Option<PathBuf>,
    method: &str,
    progress: Option<&Bound<'_, PyAny>>,
    switches: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let rules = read_rules(rules, switches)?;
    let method_value = method_of(method)?;
    let mut seen = Vec::new();
    let first = gauntlet.map(|g| spec_of(g, &mut seen)).transpose()?;
    let given = players.map(|p| specs_of(p, &mut seen)).transpose()?;
    let players = fow_arena::tournament_players(given, first.as_deref());
    let games = games.unwrap_or(fow_arena::TOURNAMENT_GAMES);
    let mut plan = RunPlan::new(FolderKind::Tournament, players, games, rules);
    if first.is_some() {
        plan.schedule = Schedule::Gauntlet;
    }
    let run = create(plan, seed, nodes, out, "")?;
    let rep = play(py, &run, jobs, None, progress)?;
    tournament_results(run.config(), rep.games, &rep.times, run.dir(), method_value)
        .map_err(fow_error)?;
    results(py, run.dir(), method)
}

/// Plays `a` against `b` (a spec, a Python bot class, or a list of them for a gauntlet)
/// in game pairs, as `fow match` does, into the same results folder (`out`, else a fresh
/// `results/runs/<timestamp>-match`) with its match.json. Returns
/// `fow.read_results(folder)`, whose `match` holds the statistics (W/D/L, pentanomial
/// counts, Elo with its interval, LOS, the SPRT's LLR).
///
/// `games`: against each opponent, an even number (default 100; with `sprt` the most,
/// default 20000). `sprt`: stop when an SPRT decides,
/// `"elo0=X,elo1=Y[,alpha=0.05,beta=0.05][,model=logistic|normalized]"` (one opponent).
/// The rest as `fow.tournament` takes it, Ctrl-C included.
#[pyfunction(name = "match")]
#[pyo3(signature = (a, b, *, games=None, sprt=None, rules="thesis", seed=None, nodes=None, jobs=None, out=None, progress=None, **switches))]
#[allow(clippy::too_many_arguments)]
pub fn match_(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    games: Option<u32>,
    sprt: Option<String>,
    rules: &str,
    seed: Option<u64>,
    nodes: Option<u64>,
    jobs: Option<usize>,
    out: Option<PathBuf>,
    progress: Option<&Bound<'_, PyAny>>,
    switches: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let rules = read_rules(rules, switches)?;
    let mut seen = Vec::new();
    let mut players = vec![spec_of(a, &mut seen)?];
    // B is one player, or several for a gauntlet: a list, or specs comma-separated.
    match b.cast::<PyString>().is_err() && b.hasattr("__name__")? {
        true => players.push(spec_of(b, &mut seen)?),
        false => players.extend(specs_of(b, &mut seen)?),
    }
    if let Some(s) = &sprt {
        SprtSpec::parse(s).map_err(|e| fow_error(format!("sprt: {e}")))?;
    }
    let pairs =
        fow_arena::match_pairs(games, sprt.is_some(), players.len() - 1).map_err(fow_error)?;
    let mut plan = RunPlan::new(FolderKind::Match, players, pairs, rules);
    plan.sprt = sprt;
    let run = create(plan, seed, nodes, out, "-match")?;
    finish_match(py, &run, jobs, progress)
}

/// Plays (the rest of) a match and writes its match.json, as `fow match` does.
fn finish_match(
    py: Python<'_>,
    run: &Run,
    jobs: Option<usize>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let (cfg, dir) = (run.config(), run.dir());
    let sprt = sprt_of(cfg, dir).map_err(fow_error)?;
    // The SPRT sees the pairs in schedule order, whatever order the games end in.
    let live = Mutex::new(Pentanomial::default());
    let stop = |g0: &GameRow, g1: &GameRow| sprt_step(&live, sprt.as_ref(), g0, g1).0;
    let rep = play(py, run, jobs, Some(&stop), progress)?;
    match_results(cfg, &rep.games, sprt.as_ref(), rep.stopped, dir).map_err(fow_error)?;
    results(py, dir, "bayeselo")
}

/// Finishes the interrupted tournament or match in `dir` with the settings stored there,
/// as `fow tournament --resume` / `fow match --resume` do, and returns
/// `fow.read_results(dir)`. The Python bots it names must be registered (pass their
/// classes as `bots`, or call `fow.register_bot` first).
#[pyfunction]
#[pyo3(signature = (dir, *, bots=None, jobs=None, progress=None))]
pub fn resume(
    py: Python<'_>,
    dir: PathBuf,
    bots: Option<&Bound<'_, PyAny>>,
    jobs: Option<usize>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    if let Some(bots) = bots {
        specs_of(bots, &mut Vec::new())?;
    }
    let kind = fow_records::folder_kind(&dir)
        .map_err(fow_error)?
        .map(|(k, _)| k);
    let run = match kind {
        Some(k @ (FolderKind::Tournament | FolderKind::Match)) => Run::resume(&dir, k),
        Some(k) => {
            return Err(fow_error(format!(
                "{}: is a {k} folder; fow.resume finishes a tournament or a match",
                dir.display()
            )))
        }
        None => Run::open(&dir),
    }
    .map_err(fow_error)?;
    if run.config().kind == Some(FolderKind::Match) || run.config().paired {
        return finish_match(py, &run, jobs, progress);
    }
    let rep = play(py, &run, jobs, None, progress)?;
    tournament_results(
        run.config(),
        rep.games,
        &rep.times,
        run.dir(),
        Method::Bayeselo,
    )
    .map_err(fow_error)?;
    results(py, run.dir(), "bayeselo")
}
