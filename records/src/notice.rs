//! What a reader of results folders wants the user to know without it being an error:
//! rows that are not authenticated. Readers deep in the library ([`read_checked`](crate::read_checked),
//! under every command that reads games) record a [`Notice`] here, and the program says
//! each kind once ([`take_notes`]), however many folders or reads gave rise to it, as a
//! logger would: this is the crate's one piece of process-wide state.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Why a folder's rows are not authenticated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Notice {
    /// Tagged under a public `--seed`: anyone can recompute the tags.
    PublicKey,
    /// Written before rows were tagged (no `tag` in its `tournament.json`).
    Untagged,
    /// A `games.csv` without the `tournament.json` (and key) beside it: its tags, if
    /// any, cannot be checked.
    NoSettings,
}

/// Notices recorded and not yet taken, each with the folders or files it is about.
static NOTICES: Mutex<Vec<(Notice, Vec<PathBuf>)>> = Mutex::new(Vec::new());

/// Records `notice` about `path` (a folder, or a `games.csv` without settings).
pub(crate) fn notice(notice: Notice, path: &Path) {
    let mut all = NOTICES.lock().unwrap_or_else(|e| e.into_inner());
    let i = match all.iter().position(|(n, _)| *n == notice) {
        Some(i) => i,
        None => {
            all.push((notice, Vec::new()));
            all.len() - 1
        }
    };
    let paths = &mut all[i].1;
    if !paths.iter().any(|p| p == path) {
        paths.push(path.to_path_buf());
    }
}

/// The notes recorded since the last call, one line per kind of notice (without the
/// `note: ` the program puts before each), naming the first two folders or files it is
/// about; clears them.
pub fn take_notes() -> Vec<String> {
    let mut all = std::mem::take(&mut *NOTICES.lock().unwrap_or_else(|e| e.into_inner()));
    all.sort();
    all.into_iter()
        .map(|(n, paths)| {
            let mut names: Vec<String> = paths
                .iter()
                .take(2)
                .map(|p| p.display().to_string())
                .collect();
            if paths.len() > 2 {
                names.push(format!("{} more", paths.len() - 2));
            }
            let names = match names.as_slice() {
                [a] => a.clone(),
                [a, b] => format!("{a} and {b}"),
                [a, b, c] => format!("{a}, {b} and {c}"),
                _ => String::new(),
            };
            match n {
                Notice::PublicKey => format!(
                    "the games of {names} are not authenticated: their seed is public, so anyone can recompute the tags of their rows (a run without --seed has a secret key when a program player takes part, or with --secret-key FILE; see docs/src/tournament.md)"
                ),
                Notice::Untagged => format!(
                    "{names} predate{} authenticated rows (no tag in tournament.json): their games are checked against the rules and the schedule only",
                    if paths.len() == 1 { "s" } else { "" }
                ),
                Notice::NoSettings => format!(
                    "{names} ha{} no tournament.json beside {}: {} rows cannot be authenticated",
                    if paths.len() == 1 { "s" } else { "ve" },
                    if paths.len() == 1 { "it" } else { "them" },
                    if paths.len() == 1 { "its" } else { "their" },
                ),
            }
        })
        .collect()
}
