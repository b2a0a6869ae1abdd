//! What wrote a results folder ([`FolderKind`]), and so which command resumes, merges
//! and rates it: a match resumed as a tournament would ignore its SPRT and leave its
//! `match.json` stale, so each command refuses a folder of another kind
//! ([`check_kind`]).
//!
//! `tournament.json` records the kind (`"kind": "match"`); folders written before it
//! show their kind where their files do ([`folder_kind`]): an `evolve.json`, a
//! `match.json`, an SPRT or the paired gauntlet of `fow match`, the master seed 0 of
//! `fow import`. Any other folder with settings reads as a tournament, as before.

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::RecordError;
use crate::files::{CONFIG_FILE, EVOLVE_FILE, MATCH_FILE, TUNE_FILE};

/// The command that wrote a results folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FolderKind {
    /// `fow tournament`: a round robin or a gauntlet.
    Tournament,
    /// `fow match`: game pairs, perhaps until an SPRT decides (`match.json`).
    Match,
    /// `fow play`: one game of a person against a bot.
    Play,
    /// `fow import`: games read from PGN or other folders.
    Import,
    /// `fow evolve`: an evolution (`evolve.json`, no `tournament.json`).
    Evolve,
    /// `fow tune`: a tuning run (`tune.json`, no `tournament.json`).
    Tune,
}

impl fmt::Display for FolderKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FolderKind::Tournament => "tournament",
            FolderKind::Match => "match",
            FolderKind::Play => "play",
            FolderKind::Import => "import",
            FolderKind::Evolve => "evolve",
            FolderKind::Tune => "tune",
        })
    }
}

impl FolderKind {
    /// What to do with a folder of this kind instead, for a message about `dir`.
    fn resumed(self, dir: &Path) -> String {
        let d = dir.display();
        match self {
            FolderKind::Tournament => format!("resume it with fow tournament --resume --out {d}"),
            FolderKind::Match => format!("resume it with fow match --resume --out {d}"),
            FolderKind::Evolve => format!("resume it with fow evolve --resume --out {d}"),
            FolderKind::Tune => format!("resume it with fow tune --resume --out {d}"),
            FolderKind::Play => {
                "a game of fow play is finished when it is saved: nothing resumes it".into()
            }
            FolderKind::Import => {
                "an import is not resumed: import more games into a new folder".into()
            }
        }
    }

    /// Whether `fow merge` joins shards of this kind.
    pub fn merges(self) -> bool {
        matches!(self, FolderKind::Tournament | FolderKind::Match)
    }
}

/// The kind of the results folder `dir` and what shows it (`kind "match" in its
/// tournament.json`, `its match.json`), or `None` when `dir` holds neither settings nor
/// an evolution (or settings that do not read: their reader says what is wrong).
pub fn folder_kind(dir: &Path) -> Result<Option<(FolderKind, String)>, RecordError> {
    if dir.join(EVOLVE_FILE).is_file() {
        return Ok(Some((FolderKind::Evolve, format!("its {EVOLVE_FILE}"))));
    }
    if dir.join(TUNE_FILE).is_file() {
        return Ok(Some((FolderKind::Tune, format!("its {TUNE_FILE}"))));
    }
    let path = dir.join(CONFIG_FILE);
    let text = match std::fs::read(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(crate::files::io_err(&path)(e)),
    };
    let Ok(serde_json::Value::Object(json)) = serde_json::from_slice(&text) else {
        return Ok(None);
    };
    if let Some(k) = json.get("kind") {
        return Ok(serde_json::from_value::<FolderKind>(k.clone())
            .ok()
            .map(|kind| (kind, format!("kind \"{kind}\" in its {CONFIG_FILE}"))));
    }
    let flag = |name: &str| json.get(name).and_then(|v| v.as_bool()) == Some(true);
    let shown = if json.get("seed").and_then(|v| v.as_u64()) == Some(0) {
        (FolderKind::Import, "the master seed 0 of fow import".into())
    } else if json.get("sprt").is_some_and(|v| !v.is_null()) {
        (FolderKind::Match, format!("the SPRT in its {CONFIG_FILE}"))
    } else if dir.join(MATCH_FILE).is_file() {
        (FolderKind::Match, format!("its {MATCH_FILE}"))
    } else if flag("paired") && flag("gauntlet") {
        (
            FolderKind::Match,
            format!("the game pairs of one player against the others in its {CONFIG_FILE}"),
        )
    } else {
        (FolderKind::Tournament, format!("its {CONFIG_FILE}"))
    };
    Ok(Some(shown))
}

/// Refuses `dir` unless it is a folder of `wanted` kind, or shows no kind: one line
/// saying what the folder is and what to do with it instead (`M is a match folder (its
/// match.json); resume it with fow match --resume --out M`).
pub fn check_kind(dir: &Path, wanted: FolderKind) -> Result<(), RecordError> {
    match folder_kind(dir)? {
        Some((kind, why)) if kind != wanted => Err(RecordError::folder(
            dir,
            format!(
                "is {} {kind} folder ({why}), not {} {wanted} folder; {}",
                article(kind),
                article(wanted),
                kind.resumed(dir)
            ),
        )),
        _ => Ok(()),
    }
}

fn article(kind: FolderKind) -> &'static str {
    match kind {
        FolderKind::Import | FolderKind::Evolve => "an",
        _ => "a",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn kinds_show_in_the_settings_or_the_files() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        assert!(folder_kind(d).unwrap().is_none());
        let cfg = d.join(CONFIG_FILE);
        let kind = |json: &str| {
            fs::write(&cfg, json).unwrap();
            folder_kind(d).unwrap().map(|(k, _)| k)
        };
        assert_eq!(kind("{\"kind\": \"play\"}"), Some(FolderKind::Play));
        assert_eq!(kind("{\"seed\": 0}"), Some(FolderKind::Import));
        assert_eq!(
            kind("{\"seed\": 1, \"sprt\": \"elo0=0,elo1=5\"}"),
            Some(FolderKind::Match)
        );
        assert_eq!(
            kind("{\"seed\": 1, \"paired\": true, \"gauntlet\": true}"),
            Some(FolderKind::Match)
        );
        assert_eq!(
            kind("{\"seed\": 1, \"gauntlet\": true}"),
            Some(FolderKind::Tournament)
        );
        fs::write(d.join(MATCH_FILE), "{}").unwrap();
        assert_eq!(kind("{\"seed\": 1}"), Some(FolderKind::Match));
        let e = check_kind(d, FolderKind::Tournament)
            .unwrap_err()
            .to_string();
        assert!(
            e.ends_with(&format!(
                "is a match folder (its match.json), not a tournament folder; resume it with fow match --resume --out {}",
                d.display()
            )),
            "{e}"
        );
        assert!(check_kind(d, FolderKind::Match).is_ok());
        fs::write(d.join(EVOLVE_FILE), "{}").unwrap();
        assert_eq!(kind("{}"), Some(FolderKind::Evolve));
    }
}
