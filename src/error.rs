//! The CLI's error: one line for the user and an exit code.

use std::fmt;

/// A failure to report: bad input exits 2, anything else 1.
#[derive(Debug)]
pub enum CliError {
    /// Bad usage or malformed input (exit 2).
    Input(String),
    /// The work itself failed, e.g. a file could not be written (exit 1).
    Failed(String),
}

impl CliError {
    /// The process exit code.
    pub fn code(&self) -> u8 {
        match self {
            CliError::Input(_) => 2,
            CliError::Failed(_) => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Input(m) | CliError::Failed(m) => f.write_str(m),
        }
    }
}

impl From<fow_records::RecordError> for CliError {
    fn from(e: fow_records::RecordError) -> CliError {
        match e.is_input() {
            true => CliError::Input(e.to_string()),
            false => CliError::Failed(e.to_string()),
        }
    }
}

/// Shorthand for input errors.
pub fn input(e: impl fmt::Display) -> CliError {
    CliError::Input(e.to_string())
}

/// The error of an I/O operation on `path` (for `map_err`): bad input when the path is
/// what is wrong (missing, a folder for a file, ...), else a failure
/// ([`fow_records::RecordError::io`]).
pub fn io(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> CliError + '_ {
    move |e| fow_records::RecordError::io(path, &e).into()
}

impl From<fow_analysis::ReportError> for CliError {
    fn from(e: fow_analysis::ReportError) -> CliError {
        match e {
            fow_analysis::ReportError::Input(m) => CliError::Input(m),
            fow_analysis::ReportError::Failed(m) => CliError::Failed(m),
        }
    }
}
