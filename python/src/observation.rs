//! `fow.Observation`: all a player is given for one decision, and nothing more.

use fow_variants::{FogView, Observation, RuleSet};
use pyo3::prelude::*;

use crate::arrays::u8_array;
use crate::color::color_name;
use crate::encoding::{action_of, ACTIONS};
use crate::error::fow_error;
use crate::planes::{write_mask, write_planes, PLANES};

/// What a player is given for one decision: its colour, the ply, what it sees now, what
/// it saw right after its own previous move, the rules, and its legal moves (which follow
/// from what it sees). It holds nothing hidden: two true positions that look the same to
/// the player give equal observations.
#[pyclass(name = "Observation", module = "fow", frozen, skip_from_py_object)]
#[derive(Clone)]
pub struct PyObservation {
    obs: Observation,
}

impl PyObservation {
    /// Wraps an observation.
    pub fn new(obs: Observation) -> PyObservation {
        PyObservation { obs }
    }

    /// The observation.
    pub fn inner(&self) -> &Observation {
        &self.obs
    }
}

#[pymethods]
impl PyObservation {
    /// An observation from its parts as the bot protocol sends them: the view now and
    /// the view after the player's previous move (fog-FEN), the ply and the rules.
    #[new]
    #[pyo3(signature = (view, previous=None, ply=0, rules="thesis"))]
    fn from_parts(view: &str, previous: Option<&str>, ply: u32, rules: &str) -> PyResult<Self> {
        let rules: RuleSet = rules.parse().map_err(fow_error)?;
        let view: FogView = view.parse().map_err(fow_error)?;
        let previous = match previous {
            Some(p) => Some(p.parse::<FogView>().map_err(fow_error)?),
            None => None,
        };
        Ok(PyObservation::new(Observation::from_views(
            view, previous, ply, &rules,
        )))
    }

    /// The player's colour, `"white"` or `"black"`.
    #[getter]
    fn color(&self) -> &'static str {
        color_name(self.obs.color())
    }

    /// Plies played before this decision (0 for White's first move).
    #[getter]
    fn ply(&self) -> u32 {
        self.obs.ply()
    }

    /// What the player sees now, as fog-FEN (`?` for fog).
    #[getter]
    fn view(&self) -> String {
        self.obs.view().to_string()
    }

    /// What it saw right after its own previous move (fog-FEN), `None` before its first.
    #[getter]
    fn previous(&self) -> Option<String> {
        self.obs.previous().map(|v| v.to_string())
    }

    /// The rule set's name (`thesis`, `chesscom` or `custom`).
    #[getter]
    fn rules(&self) -> &'static str {
        self.obs.rules().name()
    }

    /// The legal moves in UCI, in fow's generation order.
    fn legal_moves(&self) -> Vec<String> {
        self.obs.legal_moves().iter().map(|m| m.uci()).collect()
    }

    /// The legal moves as action numbers, in the same order.
    fn legal_actions(&self) -> Vec<usize> {
        self.obs.legal_moves().iter().map(action_of).collect()
    }

    /// Whether a move (UCI text or action number) is legal.
    fn is_legal(&self, mv: &Bound<'_, PyAny>) -> bool {
        crate::moves::find_move(self.obs.legal_moves(), mv).is_ok()
    }

    /// The view as a uint8 array of shape `(16, 8, 8)`.
    fn tensor<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        u8_array(py, &[PLANES, 8, 8], |b| write_planes(self.obs.view(), b))
    }

    /// The legal-action mask: a uint8 array of `fow.ACTIONS`, 1 where legal.
    fn mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        u8_array(py, &[ACTIONS], |b| write_mask(self.obs.legal_moves(), b))
    }

    /// The pieces the player sees, its own and the enemy's, as a dict from square
    /// (`"e4"`) to piece letter (`"P"` a white pawn, `"n"` a black knight).
    fn pieces(&self) -> std::collections::BTreeMap<String, char> {
        let view = self.obs.view();
        view.board()
            .clone()
            .into_iter()
            .map(|(sq, p)| (sq.to_string(), p.char()))
            .collect()
    }

    /// The squares in fog (the player does not see them), in order a1, b1, ..., h8.
    fn fog(&self) -> Vec<String> {
        self.obs
            .view()
            .fog()
            .into_iter()
            .map(|s| s.to_string())
            .collect()
    }

    /// The view as a diagram (`?` for fog).
    fn diagram(&self) -> String {
        self.obs.view().diagram(false)
    }

    fn __eq__(&self, other: &Self) -> bool {
        self.obs == other.obs
    }

    fn __repr__(&self) -> String {
        format!(
            "fow.Observation(color={}, ply={}, view='{}', moves={})",
            self.color(),
            self.obs.ply(),
            self.obs.view(),
            self.obs.move_count()
        )
    }
}
