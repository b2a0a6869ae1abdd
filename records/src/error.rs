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
    /// Settings or options that do not make a run (bad input): too few players, no
    /// games, a shard that does not exist, shards that are not of one run, ...
    Settings(String),
    /// A folder that cannot be used as asked (bad input): in use by another command,
    /// holding another run or games already, of another kind, holding no run to resume.
    Folder {
        /// The folder.
        dir: PathBuf,
        /// What is wrong with it, in words, after its name (`is in use by ...`).
        message: String,
    },
    /// The system failed, not the input: no random source for a key, no threads.
    System(String),
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
            RecordError::Settings(m) | RecordError::System(m) => m.clone(),
            RecordError::Folder { dir, message } => format!("{} {message}", dir.display()),
            RecordError::Spec(e) => e.to_string(),
        }
    }
}

impl RecordError {
    /// A [`RecordError::Folder`] error: `dir` and what is wrong with it.
    pub fn folder(dir: &Path, message: impl Into<String>) -> RecordError {
        RecordError::Folder {
            dir: dir.to_path_buf(),
            message: message.into(),
        }
    }

    /// Whether the input is at fault (a path, a file, a setting, a folder, a spec), not
    /// the system: a command exits 2 for these, 1 for the others.
    pub fn is_input(&self) -> bool {
        !matches!(self, RecordError::Io { .. } | RecordError::System(_))
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_says_whose_fault_it_is_in_one_line() {
        let folder = RecordError::folder(Path::new("runs/a"), "is in use by another fow command");
        assert_eq!(
            folder.to_string(),
            "runs/a is in use by another fow command"
        );
        assert!(folder.is_input());
        assert!(RecordError::Settings("--games must be at least 1".into()).is_input());
        let system = RecordError::System("cannot start 4 threads: out of memory".into());
        assert!(!system.is_input());
        let io = RecordError::io(Path::new("x"), &io::Error::other("device error"));
        assert!(!io.is_input());
        let multi = RecordError::Settings("two\nlines".into());
        assert_eq!(multi.to_string(), "two\\nlines");
    }
}
