//! The arena's errors. Each displays as one line naming the file and line where one is
//! involved.

use std::fmt;
use std::path::PathBuf;

use fow_players::SpecError;

/// What can go wrong running or reading a tournament.
#[derive(Debug)]
pub enum ArenaError {
    /// A file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// The system's message.
        message: String,
    },
    /// A file's content is malformed.
    Format {
        /// The file.
        path: PathBuf,
        /// The 1-based line.
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// The settings do not make a tournament, or do not match a stored one.
    Config(String),
    /// A player spec cannot be built.
    Spec(SpecError),
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::Io { path, message } => write!(f, "{}: {message}", path.display()),
            ArenaError::Format {
                path,
                line,
                message,
            } => write!(f, "{}:{line}: {message}", path.display()),
            ArenaError::Config(m) => f.write_str(m),
            ArenaError::Spec(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ArenaError {}

impl From<SpecError> for ArenaError {
    fn from(e: SpecError) -> ArenaError {
        ArenaError::Spec(e)
    }
}
