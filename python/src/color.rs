//! Colours as Python names them: `"white"` and `"black"` (also `"w"`, `"b"`, 0, 1).

use fow_variants::Color;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::error::fow_error;

/// Reads a colour: `"white"`/`"w"`/`0` or `"black"`/`"b"`/`1`.
pub fn parse_color(value: &Bound<'_, PyAny>) -> PyResult<Color> {
    // Text is not tried as a number: a failed extraction builds an exception, which
    // costs more than the rest of a call such as `Game.tensor("white")`.
    if !value.is_instance_of::<PyString>() {
        if let Ok(i) = value.extract::<i64>() {
            return match i {
                0 => Ok(Color::White),
                1 => Ok(Color::Black),
                _ => Err(fow_error(format!(
                    "a colour is 0 (white) or 1 (black), not {i}"
                ))),
            };
        }
    }
    let text: String = value.extract()?;
    match text.to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(fow_error(format!(
            "a colour is 'white' or 'black', not '{}'",
            fow_variants::quote(&text)
        ))),
    }
}

/// `"white"` or `"black"`.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}
