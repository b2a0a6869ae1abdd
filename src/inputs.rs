//! Output files given on the command line: their folder is locked before the work.

use std::path::Path;

use crate::error::CliError;

/// Makes the folder an output file goes into and takes its lock (one writer per
/// folder: another fow command writing there, such as a running tournament, is refused),
/// before the work that leads to the file. The lock lasts until the result is dropped.
pub fn lock_parent(out: &Path) -> Result<fow_records::FolderLock, CliError> {
    let dir = match out.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    Ok(fow_records::lock_folder(dir)?)
}
