//! `fow.Bot`: any player a spec names (a built-in bot, `exec:`, `uci:`), from Python.

use std::sync::Mutex;

use fow_players::{Budget, GameStart, Player, PlayerSpec};
use fow_variants::Position;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::color::parse_color;
use crate::error::fow_error;
use crate::observation::PyObservation;
use crate::rules::read_rules;

/// A player built from a spec, as `fow players` lists them: `fow.Bot("RandomMove")`,
/// `fow.Bot("BeliefSearch:nodes=200000")`, `fow.Bot("uci:stockfish")`.
///
/// >>> bot = fow.Bot("CaptureLargest")
/// >>> game = fow.Game()
/// >>> bot.start("white", seed=1)
/// >>> game.play(bot.choose(game.observation()))
#[pyclass(name = "Bot", module = "fow")]
pub struct PyBot {
    spec: PlayerSpec,
    player: Mutex<Box<dyn Player>>,
    started: bool,
}

#[pymethods]
impl PyBot {
    #[new]
    fn new(spec: &str) -> PyResult<Self> {
        let spec: PlayerSpec = spec.parse().map_err(fow_error)?;
        let player = spec.build().map_err(fow_error)?;
        Ok(PyBot {
            spec,
            player: Mutex::new(player),
            started: false,
        })
    }

    /// The spec, normalised.
    #[getter]
    fn spec(&self) -> String {
        self.spec.to_string()
    }

    /// Begins a game: the bot's colour, the seed of all its randomness, the rules (a
    /// preset and switches) and the start position (public, like the standard start).
    #[pyo3(signature = (color, seed=0, rules="thesis", fen=None, **switches))]
    fn start(
        &mut self,
        color: &Bound<'_, PyAny>,
        seed: u64,
        rules: &str,
        fen: Option<&str>,
        switches: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        let color = parse_color(color)?;
        let rules = read_rules(rules, switches)?;
        let mut start = GameStart::new(color, rules, seed);
        if let Some(f) = fen {
            start = start.with_position(Position::from_fen(f).map_err(fow_error)?);
        }
        self.player
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .start(&start);
        self.started = true;
        Ok(())
    }

    /// The bot's move (UCI) for `obs`, within `nodes` search nodes where given (else the
    /// bot's own budget). The interpreter's other threads run while it thinks.
    #[pyo3(signature = (obs, nodes=None))]
    fn choose(
        &mut self,
        py: Python<'_>,
        obs: &PyObservation,
        nodes: Option<u64>,
    ) -> PyResult<String> {
        if !self.started {
            return Err(fow_error(
                "call start() before choose(): the bot needs its colour and seed",
            ));
        }
        let budget = Budget {
            nodes,
            ..Budget::default()
        };
        let player = &self.player;
        let obs = obs.inner();
        let (m, err) = py.detach(|| {
            let mut p = player.lock().unwrap_or_else(|e| e.into_inner());
            let m = p.choose(obs, &budget);
            let err = (!obs.is_legal(&m)).then(|| p.take_error());
            (m, err)
        });
        match err {
            None => Ok(m.uci()),
            Some(Some(e)) => Err(fow_error(format!("{}: {e}", self.spec))),
            Some(None) => Err(fow_error(format!(
                "{} answered the illegal move {m}",
                self.spec
            ))),
        }
    }

    /// Search nodes spent since `start`.
    #[getter]
    fn nodes(&self) -> u64 {
        self.player
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .nodes()
    }

    fn __repr__(&self) -> String {
        format!("fow.Bot('{}')", self.spec)
    }
}

/// A parameter as `fow.players()` lists it: name, default, range, what it does.
pub type ParamRow = (String, String, String, String);

/// A bot as `fow.players()` lists it: name, description, parameters.
pub type BotRow = (String, String, Vec<ParamRow>);

/// Every built-in bot as `(name, description, parameters)`, each parameter as
/// `(name, default, range, what it does)`, as `fow players` lists them.
#[pyfunction]
pub fn players() -> Vec<BotRow> {
    fow_players::registry()
        .iter()
        .map(|b| {
            let params = b
                .params
                .iter()
                .map(|p| {
                    (
                        p.name.to_string(),
                        p.default_text(),
                        p.range_text(),
                        p.doc.to_string(),
                    )
                })
                .collect();
            (b.name.to_string(), b.description.to_string(), params)
        })
        .collect()
}
