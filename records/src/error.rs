//! The arena's errors. Each displays as one line naming the file and line where one is
//! involved.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use fow_players::SpecError;

/// What can go wrong running or reading a tournament.
#[derive(Debug)]
pub enum RecordError {
    /// A file could not be read or written: the system failed (a full disk, a device
    /// error), not the path ([`RecordError::io`] tells them apart).
    Io {
        /// The file.
        path: PathBuf,
        /// The system's message.
        message: String,
    },
    /// A path that does not lead to what is needed: nothing there, a folder where a file
    /// is expected or a file where a folder is, no permission. Bad input: the one who
    /// named the path can fix it.
    Path {
        /// The path.
        path: PathBuf,
        /// What is wrong with it, in words.
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
            RecordError::Io { path, message } | RecordError::Path { path, message } => {
                format!("{}: {message}", path.display())
            }
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

impl RecordError {
    /// The error of an I/O operation on `path`: [`RecordError::Path`] when the path is
    /// what is wrong (nothing there, a folder for a file or a file for a folder, no
    /// permission, a read-only file system), said in words; [`RecordError::Io`] with the
    /// system's message otherwise.
    ///
    /// ```
    /// use fow_records::RecordError;
    /// let dir = tempfile::tempdir().unwrap();
    /// let e = std::fs::read(dir.path()).unwrap_err();
    /// let e = RecordError::io(dir.path(), &e);
    /// assert!(matches!(e, RecordError::Path { .. }));
    /// assert!(e.to_string().ends_with(": is a folder, not a file"), "{e}");
    /// ```
    pub fn io(path: &Path, e: &io::Error) -> RecordError {
        use io::ErrorKind as K;
        let path = path.to_path_buf();
        let message = match e.kind() {
            K::NotFound | K::NotADirectory | K::AlreadyExists if blocking_file(&path).is_some() => {
                let file = blocking_file(&path).expect("checked");
                format!("{} is a file, not a folder", file.display())
            }
            K::NotFound => "no such file or folder".to_string(),
            K::NotADirectory => "is a file, not a folder".to_string(),
            K::AlreadyExists => "already exists".to_string(),
            K::IsADirectory => "is a folder, not a file".to_string(),
            K::PermissionDenied => "permission denied".to_string(),
            K::ReadOnlyFilesystem => "on a read-only file system".to_string(),
            _ => {
                return RecordError::Io {
                    path,
                    message: e.to_string(),
                }
            }
        };
        RecordError::Path { path, message }
    }
}

/// The file standing in `path` where a folder is expected (`a/file` of `a/file/b`), if
/// one does.
fn blocking_file(path: &Path) -> Option<PathBuf> {
    path.ancestors()
        .skip(1)
        .find(|a| a.is_file())
        .map(Path::to_path_buf)
}

impl std::error::Error for RecordError {}

impl From<SpecError> for RecordError {
    fn from(e: SpecError) -> RecordError {
        RecordError::Spec(e)
    }
}
