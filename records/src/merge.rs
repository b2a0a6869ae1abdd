//! Joining the folders of a run's shards (`fow merge`) into the folder of the whole run:
//! the same `tournament.json` (without the shard), `games.csv`, `times.csv` and
//! `clocks.csv` as one machine playing the whole run would write.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

use crate::config::{TournamentConfig, LOGS_DIR};
use crate::error::RecordError;
use crate::files::{
    existing_folder, io_err, GameRow, TimeRow, CLOCKS_FILE, CONFIG_FILE, GAMES_FILE, TIMES_FILE,
};
use crate::folder::{RunFolder, Tables};
use crate::kind::{folder_kind, FolderKind};
use crate::seed::SECRET_FILE;
use crate::shard::Shard;

/// A stopping rule of a paired schedule: given each pair's two games in schedule order,
/// `true` ends the schedule after that pair (see `fow_arena::Run::play`).
pub type StopRule<'a> = dyn Fn(&GameRow, &GameRow) -> bool + Sync + 'a;

/// What [`merge_shards`] wrote.
#[derive(Clone, Debug)]
pub struct MergeReport {
    /// The settings of the whole run (no shard).
    pub config: TournamentConfig,
    /// Every game, in schedule order.
    pub games: Vec<GameRow>,
    /// Wall times, in schedule order.
    pub times: Vec<TimeRow>,
    /// The stopping rule ended the run before its last pair (the games after the
    /// deciding pair are dropped, as one machine would not have played them).
    pub stopped: bool,
}

/// A shard's folder, read.
struct ShardFolder {
    dir: PathBuf,
    config: TournamentConfig,
    tables: Tables,
}

/// Joins the folders `dirs` of the shards of one run into `out`.
///
/// Each folder must hold a shard (`fow tournament ... --shard I/N`) of the same run: the
/// same settings (players, rules, seed or secret key, games, openings, budgets, clock,
/// match and SPRT) and shard count, each shard once, and each a tournament's or a
/// match's (an import, a game of `fow play` or an evolution is not merged). Their
/// settings and games are read and checked as every reader checks them, tags
/// included: the shards share the run's key, so a setting or row edited in any shard
/// is refused. For a paired schedule with a stopping rule (`stop`: a
/// match's SPRT), the pairs are fed to it in schedule order and the games after the
/// deciding pair are dropped. If a game up to there is missing, the error names the
/// games and the shards that lack them, and nothing is written. Otherwise `out` gets
/// the files one machine would have written for the whole run (`games.csv` byte for
/// byte), plus the logs of the shards. `out` may be new, or hold an earlier merge of
/// the same run (merging is idempotent). Every folder is locked while it is read.
pub fn merge_shards(
    out: &Path,
    dirs: &[PathBuf],
    stop: Option<&StopRule<'_>>,
) -> Result<MergeReport, RecordError> {
    if dirs.is_empty() {
        return Err(RecordError::Settings("no shard folders to merge".into()));
    }
    // The same folder named twice, before any lock (a second lock on it would be
    // refused as if another command held it).
    let real = |d: &Path| fs::canonicalize(d).unwrap_or_else(|_| d.to_path_buf());
    let mut given: HashMap<PathBuf, &Path> = HashMap::new();
    for d in dirs {
        if let Some(other) = given.insert(real(d), d) {
            return Err(RecordError::Settings(format!(
                "{} is given twice (as {} and {})",
                d.display(),
                other.display(),
                d.display()
            )));
        }
    }
    if let Some(shard) = given.get(&real(out)) {
        return Err(RecordError::Settings(format!(
            "the output folder {} is also given as a shard ({}): merge into another folder",
            out.display(),
            shard.display()
        )));
    }
    let folders = dirs
        .iter()
        .map(|d| RunFolder::open(d, None))
        .collect::<Result<Vec<_>, _>>()?;
    let shards = folders
        .iter()
        .map(read_shard)
        .collect::<Result<Vec<_>, _>>()?;
    let whole = same_run(&shards)?;

    // Every game of the run, from the shard that played it.
    let mut games: BTreeMap<u64, (GameRow, usize)> = BTreeMap::new();
    for (k, s) in shards.iter().enumerate() {
        for g in &s.tables.games {
            if let Some((_, other)) = games.insert(g.id, (g.clone(), k)) {
                return Err(RecordError::Settings(format!(
                    "game {} is in two shards: {} and {}",
                    g.id,
                    shards[other].dir.display(),
                    s.dir.display()
                )));
            }
        }
    }
    let total = whole.game_count();
    let mut cutoff = total;
    if let (Some(stop), true) = (stop, whole.paired) {
        for k in 0..total / 2 {
            let (Some((g0, _)), Some((g1, _))) = (games.get(&(2 * k)), games.get(&(2 * k + 1)))
            else {
                break;
            };
            if stop(g0, g1) {
                cutoff = 2 * k + 2;
                break;
            }
        }
    }
    let missing: Vec<u64> = (0..cutoff).filter(|id| !games.contains_key(id)).collect();
    if !missing.is_empty() {
        return Err(RecordError::Settings(missing_text(
            &whole, &shards, &missing,
        )));
    }
    let mut tables = Tables::join(shards.iter().map(|s| Tables {
        games: Vec::new(),
        ..s.tables.clone()
    }));
    tables.games = games.into_values().map(|(g, _)| g).collect();
    tables.settle(cutoff);

    write_merged(out, &whole, &shards, &tables, cutoff)?;
    Ok(MergeReport {
        config: whole,
        games: tables.games,
        times: tables.times,
        stopped: cutoff < total,
    })
}

/// The settings of the shard in `dir`, checked: the folder of a tournament or a match
/// (not an import, a game of `fow play` or an evolution), its settings as written
/// (their tag checked) and those of a shard.
pub fn shard_config(dir: &Path) -> Result<TournamentConfig, RecordError> {
    existing_folder(dir)?;
    if let Some((kind, why)) = folder_kind(dir)?.filter(|(k, _)| !k.merges()) {
        return Err(RecordError::folder(
            dir,
            format!(
                "is {} {kind} folder ({why}): only the shards of a tournament or a match merge",
                if matches!(kind, FolderKind::Play) {
                    "a"
                } else {
                    "an"
                }
            ),
        ));
    }
    if !dir.join(CONFIG_FILE).is_file() {
        return Err(RecordError::folder(
            dir,
            format!("holds no run (no {CONFIG_FILE})"),
        ));
    }
    let config = TournamentConfig::load(dir)?.validated()?;
    if config.shard.is_none() {
        return Err(RecordError::folder(
            dir,
            format!(
                "holds a whole run, not a shard (its {CONFIG_FILE} has no shard): nothing to merge"
            ),
        ));
    }
    Ok(config)
}

/// Reads one shard's folder: its settings ([`shard_config`]), and its tables, the games
/// checked against its schedule (a last line cut short by a kill is left out: that game
/// is missing).
fn read_shard(folder: &RunFolder) -> Result<ShardFolder, RecordError> {
    let config = shard_config(folder.dir())?;
    Ok(ShardFolder {
        dir: folder.dir().to_path_buf(),
        tables: folder.read_tables(&config, true)?,
        config,
    })
}

/// The settings of the whole run, after checking that the shards come from one run
/// (settings, key, shard count) and that each shard is given once.
fn same_run(shards: &[ShardFolder]) -> Result<TournamentConfig, RecordError> {
    let first = &shards[0];
    let whole = TournamentConfig {
        shard: None,
        ..first.config.clone()
    };
    let count = first.config.shard.expect("a shard").count;
    let mut seen: HashMap<u32, &Path> = HashMap::new();
    for s in shards {
        let shard = s.config.shard.expect("a shard");
        let this = TournamentConfig {
            shard: None,
            ..s.config.clone()
        };
        if this != whole || shard.count != count {
            return Err(RecordError::Settings(format!(
                "{} and {} are not shards of one run: {}",
                first.dir.display(),
                s.dir.display(),
                difference(&first.config, &s.config)
            )));
        }
        if let Some(other) = seen.insert(shard.index, &s.dir) {
            return Err(RecordError::Settings(format!(
                "shard {shard} is given twice: {} and {}",
                other.display(),
                s.dir.display()
            )));
        }
    }
    Ok(whole)
}

/// In words, the first setting in which two shards' settings differ.
fn difference(a: &TournamentConfig, b: &TournamentConfig) -> String {
    if a.secret != b.secret {
        return "their secret keys differ".into();
    }
    if a.tagged != b.tagged {
        return "the rows of one are tagged, those of the other (written before tags) are not"
            .into();
    }
    let (Ok(serde_json::Value::Object(x)), Ok(serde_json::Value::Object(y))) =
        (serde_json::to_value(a), serde_json::to_value(b))
    else {
        return "their settings differ".into();
    };
    let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
    for k in keys {
        let (u, v) = (x.get(k), y.get(k));
        if k == "shard" {
            let count = |s: Option<&serde_json::Value>| s.and_then(|s| s.get("count")).cloned();
            if count(u) != count(v) {
                return format!(
                    "one is split into {} shards, the other into {}",
                    count(u).unwrap_or_default(),
                    count(v).unwrap_or_default()
                );
            }
            continue;
        }
        if u != v {
            let show = |s: Option<&serde_json::Value>| {
                let t = s.map_or("(none)".to_string(), |s| s.to_string());
                match t.chars().count() > 80 {
                    true => t.chars().take(77).collect::<String>() + "...",
                    false => t,
                }
            };
            return format!("their settings differ in {k} ({} and {})", show(u), show(v));
        }
    }
    "their settings differ".into()
}

/// The error of a merge with games missing: how many, the first few, and which shards
/// lack them (shards not given at all, or given but unfinished).
fn missing_text(whole: &TournamentConfig, shards: &[ShardFolder], missing: &[u64]) -> String {
    let count = shards[0].config.shard.expect("a shard").count;
    let mut lacking: BTreeMap<u32, usize> = BTreeMap::new();
    for &id in missing {
        let index = (1..=count)
            .find(|&i| Shard { index: i, count }.holds(id, whole.paired))
            .expect("a shard holds every game");
        *lacking.entry(index).or_default() += 1;
    }
    let given: HashMap<u32, &Path> = shards
        .iter()
        .map(|s| (s.config.shard.expect("a shard").index, s.dir.as_path()))
        .collect();
    let per_shard: Vec<String> = lacking
        .iter()
        .map(|(i, n)| match given.get(i) {
            Some(dir) => format!(
                "shard {i}/{count} ({}) lacks {n} (resume it)",
                dir.display()
            ),
            None => format!("shard {i}/{count} was not given ({n} games)"),
        })
        .collect();
    let shown: Vec<String> = missing.iter().take(10).map(u64::to_string).collect();
    format!(
        "the shards lack {} of the run's games ({}{}): {}",
        missing.len(),
        shown.join(", "),
        if missing.len() > 10 { ", ..." } else { "" },
        per_shard.join("; ")
    )
}

/// In a folder without `tournament.json`, the first file that an earlier merge of this
/// run, killed before writing it, does not explain: a merge writes the key (the run's
/// own), then `tournament.json` and the tables, each through a temporary
/// (`tournament.json.tmp`, `games.csv.tmp`, ..., written over by the next write) renamed
/// into place, so those are left-overs to write over, not another run's files (nor is a
/// `live/` folder of games in play: it is not results, and the merge clears it).
fn first_foreign_file(dir: &Path, whole: &TournamentConfig) -> Result<Option<String>, RecordError> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .map_err(io_err(dir))?
        .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect::<Result<_, _>>()
        .map_err(io_err(dir))?;
    names.sort();
    let own_key = |name: &str| {
        name == SECRET_FILE
            && whole.seed.is_none()
            && fs::read_to_string(dir.join(name))
                .is_ok_and(|t| crate::seed::SeedKey::from_hex(&t).ok() == whole.secret)
    };
    let temporary = |name: &str| {
        [CONFIG_FILE, GAMES_FILE, TIMES_FILE, CLOCKS_FILE]
            .iter()
            .any(|f| name.strip_suffix(".tmp") == Some(f))
    };
    // A live feed's folder holds no results: a run clears it (see `crate::live`).
    let live = |name: &str| name == crate::live::LIVE_DIR;
    Ok(names
        .into_iter()
        .find(|n| !temporary(n) && !own_key(n) && !live(n)))
}

/// Writes the merged folder: settings, key, games, times, clocks, logs.
fn write_merged(
    out: &Path,
    whole: &TournamentConfig,
    shards: &[ShardFolder],
    tables: &Tables,
    cutoff: u64,
) -> Result<(), RecordError> {
    let folder = RunFolder::create(Some(out), "", "")?;
    let dir = folder.dir();
    if folder.holds_run() {
        let there = TournamentConfig::load(dir)?;
        if there != *whole {
            return Err(RecordError::folder(
                dir,
                format!(
                    "already holds another run ({}): merge into a new folder",
                    difference(&there, whole)
                ),
            ));
        }
    } else if let Some(name) = first_foreign_file(dir, whole)? {
        return Err(RecordError::folder(
            dir,
            format!(
                "is not empty and holds no run ({} is there): merge into a new folder",
                name
            ),
        ));
    }
    folder.write_settings(whole)?;
    folder.rewrite(whole, tables)?;
    crate::live::clear_live(dir)?;
    // The logs of the games kept, from the shard that played each.
    for s in shards {
        let logs = s.dir.join(LOGS_DIR);
        let Ok(entries) = fs::read_dir(&logs) else {
            continue;
        };
        for e in entries {
            let e = e.map_err(io_err(&logs))?;
            let name = e.file_name();
            let id = name
                .to_str()
                .and_then(|n| n.split(['-', '.']).next())
                .and_then(|n| n.parse::<u64>().ok());
            if id.is_some_and(|id| id < cutoff) {
                let to = dir.join(LOGS_DIR);
                fs::create_dir_all(&to).map_err(io_err(&to))?;
                let dest = to.join(&name);
                fs::copy(e.path(), &dest).map_err(io_err(&dest))?;
            }
        }
    }
    Ok(())
}
