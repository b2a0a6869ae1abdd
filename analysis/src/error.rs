//! The error of the reports: bad input, or work that failed.

use std::fmt;

use fow_records::RecordError;

/// Why a report could not be made. Both kinds display as one line; the CLI exits 2 on
/// [`ReportError::Input`] and 1 on [`ReportError::Failed`].
#[derive(Debug)]
pub enum ReportError {
    /// The input does not make the report: an unknown player in the games, a malformed
    /// anchor or SPRT, a folder that is not a tournament's, a malformed saved file.
    Input(String),
    /// The work itself failed: the system could not read or write a file.
    Failed(String),
}

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportError::Input(m) | ReportError::Failed(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for ReportError {}

impl From<RecordError> for ReportError {
    /// A failure of the system (I/O, no random source, no threads) is a failure;
    /// anything else in a record (a path that leads nowhere included) is bad input
    /// ([`RecordError::is_input`]).
    fn from(e: RecordError) -> ReportError {
        match e.is_input() {
            true => ReportError::Input(e.to_string()),
            false => ReportError::Failed(e.to_string()),
        }
    }
}

/// Shorthand for input errors.
pub(crate) fn input(e: impl fmt::Display) -> ReportError {
    ReportError::Input(e.to_string())
}

/// A failure to write `path`: bad input when the path is what is wrong (a folder, no
/// permission, ...), else a failure ([`RecordError::io`]).
pub(crate) fn write_failed(path: &std::path::Path, e: std::io::Error) -> ReportError {
    RecordError::io(path, &e).into()
}
