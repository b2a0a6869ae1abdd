//! The arena's errors. Each displays as one line naming the file and line where one is
//! involved.

use std::fmt;
use std::path::PathBuf;

use fow_players::SpecError;

/// What can go wrong running or reading a tournament.
#[derive(Debug)]
pub enum RecordError {
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

impl fmt::Display for RecordError {
    /// One line: control characters (a newline in a quoted field, bytes of a binary
    /// file) are written escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.raw_text();
        if !text.chars().any(char::is_control) {
            return f.write_str(&text);
        }
        for c in text.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

impl RecordError {
    /// The message as it is, perhaps on several lines.
    fn raw_text(&self) -> String {
        match self {
            RecordError::Io { path, message } => format!("{}: {message}", path.display()),
            RecordError::Format {
                path,
                line,
                message,
            } => format!("{}:{line}: {message}", path.display()),
            RecordError::Config(m) => m.clone(),
            RecordError::Spec(e) => e.to_string(),
        }
    }
}

impl std::error::Error for RecordError {}

impl From<SpecError> for RecordError {
    fn from(e: SpecError) -> RecordError {
        RecordError::Spec(e)
    }
}
