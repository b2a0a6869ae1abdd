//! A move from Python (UCI text or an action number) found among the legal moves.

use fow_variants::Move;
use pyo3::prelude::*;

use crate::encoding::action_of;
use crate::error::fow_error;

/// A move given as UCI text or as an action number, found among `moves`.
pub fn find_move(moves: &[Move], given: &Bound<'_, PyAny>) -> PyResult<Move> {
    if given.is_instance_of::<pyo3::types::PyBool>() {
        return Err(fow_error(
            "a move is UCI text (like 'e2e4') or an action number, not True or False",
        ));
    }
    let action = match given.extract::<i64>() {
        Ok(a) => a,
        Err(_) => {
            let text: String = given
                .extract()
                .map_err(|_| fow_error("a move is UCI text (like 'e2e4') or an action number"))?;
            crate::encoding::action_of_uci(&text).map_err(fow_error)? as i64
        }
    };
    find_action(moves, action)
}

/// The move of `action` among `moves`; an error naming it when none is.
pub fn find_action(moves: &[Move], action: i64) -> PyResult<Move> {
    moves
        .iter()
        .find(|m| action_of(m) as i64 == action)
        .copied()
        .ok_or_else(|| {
            let text = usize::try_from(action)
                .ok()
                .and_then(crate::encoding::uci_of)
                .unwrap_or_else(|| action.to_string());
            fow_error(format!(
                "illegal move {text}: not among the {} legal moves",
                moves.len()
            ))
        })
}
