//! `fow.GameStart`: what a Python bot is told when a game begins, and nothing more.

use fow_variants::{Color, Position, RuleSet};
use pyo3::prelude::*;

use crate::color::{color_name, parse_color};
use crate::error::fow_error;

/// What a bot is told when a game begins: its colour, the seed of all its randomness,
/// the rules and the start position (public, like the standard start: both players are
/// told all of it). A Python bot's `start(game)` receives one; nothing in it depends on
/// the opponent.
///
/// >>> start = fow.GameStart("white", seed=7)
/// >>> start.rules, start.fen
/// ('thesis', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')
#[pyclass(name = "GameStart", module = "fow", frozen, eq, skip_from_py_object)]
#[derive(Clone, PartialEq)]
pub struct PyGameStart {
    color: Color,
    seed: u64,
    rules: RuleSet,
    fen: String,
}

impl PyGameStart {
    /// What `start` tells a player.
    pub fn of(start: &fow_players::GameStart) -> PyGameStart {
        PyGameStart {
            color: start.color,
            seed: start.seed,
            rules: start.rules,
            fen: start.position.fen(),
        }
    }

    /// The colour.
    pub fn side(&self) -> Color {
        self.color
    }
}

#[pymethods]
impl PyGameStart {
    /// A game start from its parts, as the bot protocol's `new_game` sends them: the
    /// colour, the seed, the rules (a preset, `key=value` switches or both, as
    /// `fow.Game` reads them) and the start position's FEN (the standard start when
    /// `None`).
    #[new]
    #[pyo3(signature = (color, seed=0, rules="thesis", fen=None))]
    fn new(color: &Bound<'_, PyAny>, seed: u64, rules: &str, fen: Option<&str>) -> PyResult<Self> {
        let rules: RuleSet = rules.parse().map_err(fow_error)?;
        let position = match fen {
            Some(f) => Position::from_fen(f).map_err(fow_error)?,
            None => Position::startpos(),
        };
        Ok(PyGameStart {
            color: parse_color(color)?,
            seed,
            rules,
            fen: position.fen(),
        })
    }

    /// Our colour, `"white"` or `"black"`.
    #[getter]
    fn color(&self) -> &'static str {
        color_name(self.color)
    }

    /// The seed of all our randomness in this game (an unsigned 64-bit integer).
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The rules as `fow.Game(rules=...)` reads them: a preset's name, else
    /// `custom(switches)`.
    #[getter]
    fn rules(&self) -> String {
        self.rules.to_string()
    }

    /// The start position as FEN (all six fields); the side to move in it moves first.
    #[getter]
    fn fen(&self) -> &str {
        &self.fen
    }

    fn __repr__(&self) -> String {
        format!(
            "fow.GameStart(color='{}', seed={}, rules='{}', fen='{}')",
            color_name(self.color),
            self.seed,
            self.rules,
            self.fen
        )
    }
}
