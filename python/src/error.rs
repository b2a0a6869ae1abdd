//! `fow.FowError`: every error fow raises, with fow's one-line message.

use pyo3::exceptions::PyValueError;
use pyo3::PyErr;

pyo3::create_exception!(
    fow,
    FowError,
    PyValueError,
    "An error of fow's, with its one-line message: a malformed FEN or spec, an illegal move, an unknown bot, an unreadable results folder. A ValueError."
);

/// A `FowError` with `message`.
pub fn fow_error(message: impl std::fmt::Display) -> PyErr {
    FowError::new_err(message.to_string())
}
