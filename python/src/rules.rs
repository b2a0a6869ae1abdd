//! Rule sets from Python: a preset name and keyword switches.

use fow_variants::RuleSet;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::error::fow_error;

/// Reads a rule set: a preset name, then switches (`en_passant="on"`, `draw_plies=50`).
pub fn read_rules(rules: &str, switches: Option<&Bound<'_, PyDict>>) -> PyResult<RuleSet> {
    let mut set: RuleSet = rules.parse().map_err(fow_error)?;
    if let Some(sw) = switches {
        for (k, v) in sw.iter() {
            let key: String = k.extract()?;
            let value = match v.extract::<bool>() {
                Ok(b) => (if b { "on" } else { "off" }).to_string(),
                Err(_) => v.str()?.to_string(),
            };
            set.set(&key, &value).map_err(fow_error)?;
        }
    }
    Ok(set)
}
