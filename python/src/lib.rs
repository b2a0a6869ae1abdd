//! The native half of the `fow` Python package (`fow._fow`): fow's rules, observations,
//! action encoding and bots for Python, built with PyO3 into one abi3 extension for every
//! CPython from 3.9 on. The Python half (`python/fow/`) adds the PettingZoo environment
//! and re-exports these names; `python/fow/_fow.pyi` types them.

mod arrays;
mod bot;
mod color;
mod encoding;
mod error;
mod game;
mod game_start;
mod halt;
mod history;
mod moves;
mod observation;
mod planes;
mod pybot;
mod results;
mod rules;
mod runs;
mod vector;

use pyo3::prelude::*;

/// The action number of a UCI move (`"e2e4"`, `"e7e8q"`); raises `FowError` for text
/// that is no move of fog-of-war chess.
#[pyfunction]
fn uci_to_action(uci: &str) -> PyResult<usize> {
    encoding::action_of_uci(uci).map_err(error::fow_error)
}

/// The UCI text of an action number; raises `FowError` outside `0..fow.ACTIONS`.
#[pyfunction]
fn action_to_uci(action: i128) -> PyResult<String> {
    usize::try_from(action)
        .ok()
        .and_then(encoding::uci_of)
        .ok_or_else(|| {
            error::fow_error(match (0..encoding::ACTIONS as i128).contains(&action) {
                true => format!(
                    "{action} is no move: in the encoding it is a promotion from the a-file towards the a-file or from the h-file towards the h-file, off the board"
                ),
                false => format!("{action} is not an action (0 to {})", encoding::ACTIONS - 1),
            })
        })
}

#[pymodule]
fn _fow(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ACTIONS", encoding::ACTIONS)?;
    m.add("PLANES", planes::PLANES)?;
    m.add("INFO_PLANES", history::INFO_PLANES)?;
    m.add("FowError", m.py().get_type::<error::FowError>())?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<observation::PyObservation>()?;
    m.add_class::<bot::PyBot>()?;
    m.add_class::<vector::PyVecGames>()?;
    m.add_function(wrap_pyfunction!(uci_to_action, m)?)?;
    m.add_function(wrap_pyfunction!(action_to_uci, m)?)?;
    m.add_function(wrap_pyfunction!(bot::players, m)?)?;
    m.add_class::<game_start::PyGameStart>()?;
    m.add_function(wrap_pyfunction!(pybot::register_bot, m)?)?;
    m.add_function(wrap_pyfunction!(runs::tournament, m)?)?;
    m.add_function(wrap_pyfunction!(runs::match_, m)?)?;
    m.add_function(wrap_pyfunction!(runs::resume, m)?)?;
    m.add_function(wrap_pyfunction!(results::results_json, m)?)?;
    Ok(())
}
