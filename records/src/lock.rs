//! One writer per results folder: an exclusive operating-system lock on the folder,
//! held for as long as a command writes there and released by the kernel when the
//! process ends, however it ends (`kill -9` needs no clean-up, and no lock file is left
//! behind to delete).
//!
//! The lock is `flock(2)` on the folder itself (through `std::fs::File::try_lock`, in the
//! standard library since Rust 1.89, so no crate is needed). Files are opened
//! close-on-exec, so program players started during a run do not inherit it.

use std::fs::{self, File, TryLockError};
use std::io;
use std::path::{Path, PathBuf};

use crate::error::RecordError;
use crate::files::{existing_folder, io_err};

/// An exclusive lock on a folder; the lock ends when this is dropped or the process ends.
#[derive(Debug)]
pub struct FolderLock {
    _file: File,
    dir: PathBuf,
}

impl FolderLock {
    /// The locked folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// Makes `dir` (and its parents) if needed and takes its lock; another process holding
/// it is an error naming the folder ([`RecordError::Folder`]: the user's command clashes
/// with a running one).
pub fn lock_folder(dir: &Path) -> Result<FolderLock, RecordError> {
    if dir.exists() {
        existing_folder(dir)?;
    }
    fs::create_dir_all(dir).map_err(io_err(dir))?;
    take(dir)
}

/// Takes the lock of the existing folder `dir`, to read it (a shard to merge): a
/// missing folder is not made but an error, as a file is ([`RecordError::Path`]).
pub fn lock_existing(dir: &Path) -> Result<FolderLock, RecordError> {
    existing_folder(dir)?;
    take(dir)
}

fn take(dir: &Path) -> Result<FolderLock, RecordError> {
    let file = File::open(dir).map_err(io_err(dir))?;
    match file.try_lock() {
        Ok(()) => Ok(FolderLock {
            _file: file,
            dir: dir.to_path_buf(),
        }),
        Err(TryLockError::WouldBlock) => Err(RecordError::folder(dir, "is in use by another fow command (it holds the folder's lock); wait for it to end, or choose another folder".to_string())),
        Err(TryLockError::Error(e)) => Err(io_err(dir)(e)),
    }
}

/// Makes a new folder `base` (or `base-2`, `base-3`, ... when that exists already, for
/// instance made by another run in the same second) and takes its lock. The folder is
/// claimed by creating it, which succeeds for one process only.
pub fn fresh_folder(base: &Path) -> Result<(PathBuf, FolderLock), RecordError> {
    if let Some(parent) = base.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(io_err(parent))?;
    }
    for k in 1u32.. {
        let dir = if k == 1 {
            base.to_path_buf()
        } else {
            let mut name = base.file_name().unwrap_or_default().to_os_string();
            name.push(format!("-{k}"));
            base.with_file_name(name)
        };
        match fs::create_dir(&dir) {
            Ok(()) => {
                let lock = take(&dir)?;
                return Ok((dir, lock));
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && k < 10_000 => continue,
            Err(e) => return Err(io_err(&dir)(e)),
        }
    }
    unreachable!("the loop returns")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_a_folder_is_refused_until_the_first_ends() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("run");
        let first = lock_folder(&dir).unwrap();
        let e = lock_folder(&dir).unwrap_err().to_string();
        assert!(e.contains("is in use by another fow command"), "{e}");
        assert!(e.contains(&dir.display().to_string()), "{e}");
        assert!(!e.contains('\n'));
        drop(first);
        lock_folder(&dir).unwrap();
        // No lock file is left in the folder.
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
    }

    #[test]
    fn a_file_is_no_folder_to_lock_and_an_input_folder_is_not_made() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("file");
        fs::write(&file, "x").unwrap();
        for e in [lock_folder(&file), lock_existing(&file)] {
            let e = e.unwrap_err();
            assert!(matches!(e, RecordError::Path { .. }), "{e}");
            assert!(
                e.to_string().ends_with("file: is a file, not a folder"),
                "{e}"
            );
        }
        let e = lock_folder(&file.join("x")).unwrap_err();
        assert!(matches!(e, RecordError::Path { .. }), "{e}");
        let missing = tmp.path().join("missing");
        let e = lock_existing(&missing).unwrap_err();
        assert!(
            e.to_string().ends_with("missing: no such file or folder"),
            "{e}"
        );
        assert!(!missing.exists());
    }

    #[test]
    fn fresh_folders_never_share_a_name() {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().join("runs/20261124-101010");
        let (a, _la) = fresh_folder(&base).unwrap();
        let (b, _lb) = fresh_folder(&base).unwrap();
        let (c, _lc) = fresh_folder(&base).unwrap();
        assert_eq!(a, base);
        assert_eq!(b, tmp.path().join("runs/20261124-101010-2"));
        assert_eq!(c, tmp.path().join("runs/20261124-101010-3"));
    }
}
