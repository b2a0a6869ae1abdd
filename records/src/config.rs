//! What a run is: the settings stored in `tournament.json` ([`TournamentConfig`]) and
//! the schedule they define ([`TournamentConfig::pairings`]), one [`Pairing`] per game
//! with its derived seeds and start position. Playing the schedule is the arena's job;
//! reading a results folder checks each saved game against it.

use std::collections::HashSet;
use std::fs;
use std::path::Path;

use fow_players::PlayerSpec;
use fow_variants::RuleSet;
use serde::{Deserialize, Serialize};

use crate::error::RecordError;
use crate::files::{io_err, write_atomic, GamesLayout, CONFIG_FILE};
use crate::kind::FolderKind;
use crate::mac::{RowTagger, TagKey};
use crate::openings::Openings;
use crate::seed::{game_seed, legacy_game_seed, player_seeds, SeedKey, Seeding, SECRET_FILE};
use crate::shard::Shard;
use crate::time_control::TimeControl;

/// The folder of a tournament's player logs: `logs/<game id>-<white|black>.stderr` holds
/// what an external program wrote to stderr in that game (only programs that wrote
/// something get a file).
pub const LOGS_DIR: &str = "logs";

/// The key of the settings' tag in `tournament.json` (see [`crate::mac`]).
const TAG_KEY: &str = "tag";

/// The settings that define a tournament (stored as `tournament.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentConfig {
    /// The command that wrote the folder, and so the one that resumes it (absent in
    /// folders written before it was recorded: see [`crate::folder_kind`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<FolderKind>,
    /// Player specs, in table order.
    pub players: Vec<String>,
    /// Games each ordered pair plays (so each pair meets this often with each colour).
    pub games_per_pair: u32,
    /// The rules.
    pub rules: RuleSet,
    /// The master seed, public (`None`: the run's key is a secret, kept in the folder's
    /// [`SECRET_FILE`] and in [`TournamentConfig::secret`]).
    pub seed: Option<u64>,
    /// The node budget per move given to every player (`None`: each bot's default).
    pub nodes: Option<u64>,
    /// How game seeds derive from the key (absent in folders written before keyed seeds).
    #[serde(default)]
    pub seeding: Seeding,
    /// The secret key of a run without a public seed (never written to
    /// `tournament.json`: `fow_arena::Tournament::create` writes it to [`SECRET_FILE`]).
    #[serde(skip)]
    pub secret: Option<SeedKey>,
    /// Who meets whom: `false`, every ordered pair of players (a round robin); `true`,
    /// the first player against each of the others, not the others among themselves (a
    /// gauntlet, as `fow match` and `fow tournament --gauntlet` play). In a paired
    /// gauntlet (a match) the first player may also be among the others (self-play).
    #[serde(default, skip_serializing_if = "is_false")]
    pub gauntlet: bool,
    /// Games are played in pairs: for each round and each meeting, two games in a row
    /// with the same game seed and colours swapped, each player keeping its own seed in
    /// both (see [`crate::seed::side_seeds`]), so that the luck of a game seed cancels
    /// within a pair (fastchess's and cutechess's game pairs).
    #[serde(default, skip_serializing_if = "is_false")]
    pub paired: bool,
    /// The stopping rule of a match (`fow match --sprt`), as text; the arena only stores
    /// it, the caller of `fow_arena::Tournament::run_until` applies it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<String>,
    /// A clock per side (`None`: node budgets only). Games under a clock depend on the
    /// machine's speed: not deterministic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<TimeControl>,
    /// Start positions by round (`None`: every game starts from the standard position).
    /// With openings, `games.csv` has a `start` column holding each game's start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<Openings>,
    /// This folder plays one shard of the run (`None`: all of it); see [`Shard`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// The run's files carry tags (HMAC-SHA256 under its key, see [`RowTagger`]): its
    /// `tournament.json` a `tag` over the settings, each row of its `games.csv` a `tag`
    /// column. `false` for folders written before tags, which read as before. Not a
    /// setting of its own: [`TournamentConfig::save`] writes the tag, reading checks it.
    #[serde(skip)]
    pub tagged: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Who meets whom in a run, and how (stored in `tournament.json` as its `gauntlet` and
/// `paired` flags, as before this type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Every ordered pair of players (`fow tournament`).
    RoundRobin,
    /// The first player against each of the others, not the others among themselves
    /// (`fow tournament --gauntlet`).
    Gauntlet,
    /// Game pairs of the first player against each of the others, who may include it
    /// (`fow match`): for each round and meeting two games with the same game seed and
    /// colours swapped.
    GamePairs,
}

/// The most games one tournament schedules: its schedule, its rows and its tables stay in
/// memory (a game row with its moves takes about a kilobyte).
pub const MAX_GAMES: u64 = 10_000_000;

impl TournamentConfig {
    /// Settings with keyed seeds: `seed` is the public master seed, or `None` for a fresh
    /// secret key from the operating system.
    pub fn new(
        players: Vec<String>,
        games_per_pair: u32,
        rules: RuleSet,
        seed: Option<u64>,
        nodes: Option<u64>,
    ) -> Result<TournamentConfig, RecordError> {
        let secret = match seed {
            Some(_) => None,
            None => Some(SeedKey::random().map_err(RecordError::System)?),
        };
        Ok(TournamentConfig {
            kind: Some(FolderKind::Tournament),
            players,
            games_per_pair,
            rules,
            seed,
            nodes,
            seeding: Seeding::Keyed,
            secret,
            gauntlet: false,
            paired: false,
            sprt: None,
            tc: None,
            openings: None,
            shard: None,
            tagged: true,
        })
    }

    /// Who meets whom.
    pub fn schedule(&self) -> Schedule {
        match (self.gauntlet, self.paired) {
            (true, true) => Schedule::GamePairs,
            (true, false) => Schedule::Gauntlet,
            (false, _) => Schedule::RoundRobin,
        }
    }

    /// Sets who meets whom.
    pub fn set_schedule(&mut self, schedule: Schedule) {
        (self.gauntlet, self.paired) = match schedule {
            Schedule::RoundRobin => (false, false),
            Schedule::Gauntlet => (true, false),
            Schedule::GamePairs => (true, true),
        };
    }

    /// The settings stored in `dir` (`tournament.json`, and the secret key beside it
    /// for a run without a public seed), as stored, their tag checked:
    /// [`TournamentConfig::validated`] checks that their players can be built.
    pub fn load(dir: &Path) -> Result<TournamentConfig, RecordError> {
        let cfg_path = dir.join(CONFIG_FILE);
        let text = fs::read(&cfg_path).map_err(io_err(&cfg_path))?;
        TournamentConfig::read(&cfg_path, &text)
    }

    /// The settings in `text`, read from the `tournament.json` at `path`: the stored
    /// openings checked, the secret key beside it read, and the tag checked (an error
    /// naming the line of the tag when the settings are not those the run wrote).
    pub(crate) fn read(path: &Path, text: &[u8]) -> Result<TournamentConfig, RecordError> {
        let bad = |line: usize, message: String| RecordError::Format {
            path: path.to_path_buf(),
            line: line.max(1) as u64,
            message,
        };
        let config: TournamentConfig = serde_json::from_slice(text)
            .map_err(|e| bad(e.line(), format!("not a tournament's settings: {e}")))?;
        let lossy = String::from_utf8_lossy(text);
        config.check_openings(path, &lossy)?;
        let dir = path.parent().unwrap_or(Path::new("."));
        let mut config = config.with_secret(dir)?;
        let mut json: serde_json::Value = serde_json::from_slice(text)
            .map_err(|e| bad(e.line(), format!("not a tournament's settings: {e}")))?;
        let tag = json.as_object_mut().and_then(|o| o.remove(TAG_KEY));
        let tag_line = || {
            let needle = format!("\"{TAG_KEY}\"");
            lossy
                .lines()
                .position(|l| l.trim_start().starts_with(&needle))
                .map_or(1, |i| i + 1)
        };
        config.tagged = tag.is_some();
        if let Some(tag) = tag {
            let key = config.key().map(|k| TagKey::of(&k));
            let ok = match (tag.as_str(), key) {
                (Some(tag), Some(key)) => key.settings_verify(&canonical(&json), tag),
                _ => false,
            };
            if !ok {
                return Err(bad(
                    tag_line(),
                    "the settings do not match their tag (HMAC-SHA256 under the run's key): they were changed after the run wrote them, or the run did not write them; settings cannot be changed: start a new run".into(),
                ));
            }
        }
        Ok(config)
    }

    /// Writes the settings to `dir/tournament.json` (atomically), with their tag when
    /// the run's files are [`tagged`](TournamentConfig::tagged). The secret key is not
    /// written here (see [`write_secret`]).
    pub fn save(&self, dir: &Path) -> Result<(), RecordError> {
        let path = dir.join(CONFIG_FILE);
        let mut json = serde_json::to_string_pretty(self).expect("settings serialize");
        if self.tagged {
            let key = self.key().ok_or_else(|| {
                RecordError::Settings(format!(
                    "{}: the settings cannot be tagged without the run's key",
                    path.display()
                ))
            })?;
            let value = serde_json::to_value(self).expect("settings serialize");
            let tag = TagKey::of(&key).settings_tag(&canonical(&value));
            /// The settings with their tag last.
            #[derive(Serialize)]
            struct Tagged<'a> {
                #[serde(flatten)]
                settings: &'a TournamentConfig,
                tag: &'a str,
            }
            json = serde_json::to_string_pretty(&Tagged {
                settings: self,
                tag: &tag,
            })
            .expect("settings serialize");
        }
        write_atomic(&path, (json + "\n").as_bytes())
    }

    /// What tags and checks the rows of this run's `games.csv`: `None` for a folder
    /// written before tags (or settings whose secret key was not loaded). The tags
    /// cover the run's settings but its shard, so the shards of a run and their merge
    /// tag every game alike.
    pub fn row_tagger(&self) -> Option<RowTagger> {
        if !self.tagged {
            return None;
        }
        let key = self.key()?;
        let mut run = serde_json::to_value(self).expect("settings serialize");
        if let Some(o) = run.as_object_mut() {
            o.remove("shard");
        }
        Some(TagKey::of(&key).rows(&canonical(&run)))
    }

    /// The columns of the run's `games.csv`: `start` with openings, `tag` when its rows
    /// are tagged.
    pub fn games_layout(&self) -> GamesLayout {
        GamesLayout {
            start: self.openings.is_some(),
            tag: self.tagged,
        }
    }

    /// Whether `fow import` wrote the folder (its kind, or for a folder written before
    /// kinds its master seed 0): its games keep their own numbers and seeds, and only
    /// their players are checked against the settings.
    pub fn is_import(&self) -> bool {
        match self.kind {
            Some(k) => k == FolderKind::Import,
            None => self.seed == Some(0),
        }
    }

    /// Whether the run's key is public (a `--seed`): its tags prove nothing.
    pub fn public_key(&self) -> bool {
        self.secret.is_none()
    }

    /// Checks the stored openings (a person may have edited `tournament.json`, stored
    /// at `path` with `text`): the error names the file and the line of the first
    /// position that does not read or cannot start a game under the rules.
    pub(crate) fn check_openings(&self, path: &Path, text: &str) -> Result<(), RecordError> {
        let Some(o) = &self.openings else {
            return Ok(());
        };
        o.parsed(&self.rules).map_err(|(i, message)| {
            let line = o
                .positions
                .get(i)
                .and_then(|fen| {
                    let needle = serde_json::to_string(fen).ok()?;
                    text.lines().position(|l| l.contains(&needle))
                })
                .map_or(1, |k| k + 1);
            RecordError::Format {
                path: path.to_path_buf(),
                line: line as u64,
                message,
            }
        })?;
        Ok(())
    }

    /// Reads the secret key from `dir` when the seed is secret (settings read from
    /// `dir/tournament.json`); unchanged otherwise.
    pub(crate) fn with_secret(mut self, dir: &Path) -> Result<TournamentConfig, RecordError> {
        let cfg_path = dir.join(CONFIG_FILE);
        if self.seed.is_none() {
            let key_path = dir.join(SECRET_FILE);
            let text = match fs::read_to_string(&key_path) {
                Ok(t) => t,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    return Err(RecordError::Settings(format!(
                        "{}: the run's seed is secret, but its key ({}) is missing",
                        cfg_path.display(),
                        key_path.display()
                    )))
                }
                Err(e) => return Err(io_err(&key_path)(e)),
            };
            self.secret = Some(SeedKey::from_hex(&text).map_err(|m| RecordError::Format {
                path: key_path.clone(),
                line: 1,
                message: m,
            })?);
        }
        Ok(self)
    }

    /// The key game seeds derive from (`None`: secret and not loaded).
    pub(crate) fn key(&self) -> Option<SeedKey> {
        match (self.seed, &self.secret) {
            (_, Some(k)) => Some(*k),
            (Some(s), None) => Some(SeedKey::public(s)),
            (None, None) => None,
        }
    }

    /// The seed of game `round` between players `white` and `black` (indices); 0, which
    /// no game of fow has, when the key is secret and was not loaded (settings read
    /// without [`TournamentConfig::load`]).
    fn seed_of(&self, white: usize, black: usize, round: u32) -> u64 {
        let (w, b) = (&self.players[white], &self.players[black]);
        match (self.seeding, self.key()) {
            (Seeding::Keyed, Some(key)) => game_seed(&key, w, b, round),
            (Seeding::Keyed, None) => 0,
            (Seeding::Legacy, _) => legacy_game_seed(self.seed.unwrap_or(0), w, b, round),
        }
    }

    /// Checks the settings and normalises the specs (each must build).
    /// Unknown or malformed specs are reported before the player count, so that
    /// `--players Foo` says that `Foo` is unknown.
    pub fn validated(self) -> Result<TournamentConfig, RecordError> {
        self.checked().map(|(config, _)| config)
    }

    /// [`TournamentConfig::validated`], with the players' specs as parsed (in the
    /// order of [`TournamentConfig::players`]).
    pub fn checked(mut self) -> Result<(TournamentConfig, Vec<PlayerSpec>), RecordError> {
        let mut specs = Vec::with_capacity(self.players.len());
        for p in &mut self.players {
            let spec: PlayerSpec = p.parse()?;
            spec.build()?;
            *p = spec.to_string();
            specs.push(spec);
        }
        if self.kind == Some(FolderKind::Evolve) {
            return Err(RecordError::Settings(
                "the settings of a tournament cannot be of kind evolve (an evolution's are in evolve.json)".into(),
            ));
        }
        if self.players.len() < 2 {
            return Err(RecordError::Settings(
                "a tournament needs at least two players".into(),
            ));
        }
        if self.games_per_pair == 0 {
            return Err(RecordError::Settings("--games must be at least 1".into()));
        }
        let n = self.players.len() as u64;
        let total = self.game_count();
        if total > MAX_GAMES {
            return Err(RecordError::Settings(format!(
                "{total} games ({n} players, {} per ordered pair) is more than one tournament holds ({MAX_GAMES}); use fewer --games or players",
                self.games_per_pair
            )));
        }
        match (self.seeding, self.seed, &self.secret) {
            (Seeding::Legacy, None, _) => {
                return Err(RecordError::Settings(
                    "a tournament of the legacy seeding needs its public seed".into(),
                ))
            }
            (Seeding::Keyed, None, None) => {
                return Err(RecordError::Settings(
                    "a tournament without a public seed needs its secret key".into(),
                ))
            }
            _ => {}
        }
        // In a paired gauntlet (a match) the first player may meet itself: each side
        // keeps its own seed in both games of a pair, so they are two games. Unpaired,
        // the two colourings of a meeting with itself have the same players and seed:
        // one game twice, which no reader accepts. No one else is listed twice.
        if self.gauntlet && !self.paired && self.players[1..].contains(&self.players[0]) {
            let p = &self.players[0];
            return Err(RecordError::Settings(format!(
                "'{p}' is the gauntlet's player and also one of its opponents: a gauntlet plays its player against the others, not against itself (leave it out of --players; `fow match {p} {p}` plays a player against itself)"
            )));
        }
        let mut seen = HashSet::new();
        let others = if self.gauntlet {
            &self.players[1..]
        } else {
            &self.players[..]
        };
        for p in others {
            if !seen.insert(p) {
                return Err(RecordError::Settings(format!(
                    "player '{p}' is listed twice (give the second other parameters)"
                )));
            }
        }
        if let Some(s) = self.shard {
            if s.count == 0 || s.index == 0 || s.index > s.count {
                return Err(RecordError::Settings(format!(
                    "shard {}/{} does not exist: a shard is I/N with 1 <= I <= N",
                    s.index, s.count
                )));
            }
        }
        if let Some(o) = &self.openings {
            o.parsed(&self.rules)
                .map_err(|(_, m)| RecordError::Settings(format!("openings: {m}")))?;
        }
        if self.sprt.is_some() && !(self.paired && self.gauntlet && self.players.len() == 2) {
            return Err(RecordError::Settings(
                "an SPRT needs a paired match of two players".into(),
            ));
        }
        Ok((self, specs))
    }

    /// The players' meetings, each once (first index lower): every pair of players, or
    /// in a gauntlet the first player with each other one.
    fn meetings(&self) -> Vec<(usize, usize)> {
        let n = self.players.len();
        if self.gauntlet {
            (1..n).map(|j| (0, j)).collect()
        } else {
            (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect()
        }
    }

    /// How many games the schedule holds: each meeting, each colour, each round.
    pub fn game_count(&self) -> u64 {
        let n = self.players.len() as u64;
        let meetings = if self.gauntlet {
            n.saturating_sub(1)
        } else {
            n * n.saturating_sub(1) / 2
        };
        2u64.saturating_mul(meetings)
            .saturating_mul(u64::from(self.games_per_pair))
    }

    /// The games this folder plays: the [`TournamentConfig::pairings`], or the games of
    /// its shard.
    pub fn games_to_play(&self) -> Vec<Pairing> {
        let mut v = self.pairings();
        if let Some(s) = self.shard {
            v.retain(|p| s.holds(p.id, self.paired));
        }
        v
    }

    /// Every game of the run (of every shard). Unpaired: for each round, every ordered pair of players that meet
    /// (White by White's index, then Black's). Paired: for each round and meeting `(a,
    /// b)`, `a` with White then `b` with White, the two games sharing their game seed.
    ///
    /// With [`TournamentConfig::openings`], every game of a round starts from the
    /// round's opening ([`Openings::index_of_round`]).
    pub fn pairings(&self) -> Vec<Pairing> {
        let meetings = self.meetings();
        let mut v = Vec::with_capacity(self.game_count() as usize);
        let sequence = self
            .openings
            .as_ref()
            .map(|o| o.sequence(self.key().as_ref()));
        let opening_of = |round: u32| {
            sequence
                .as_ref()
                .map(|s| Openings::index_of_round(s, round))
        };
        let push = |v: &mut Vec<Pairing>, round, white, black, seed, player_seeds| {
            v.push(Pairing {
                id: v.len() as u64,
                round,
                white,
                black,
                seed,
                player_seeds,
                opening: opening_of(round),
            })
        };
        for round in 0..self.games_per_pair {
            if self.paired {
                for &(a, b) in &meetings {
                    let seed = self.seed_of(a, b, round);
                    let [sa, sb] = crate::seed::side_seeds(seed);
                    push(&mut v, round, a, b, seed, [sa, sb]);
                    push(&mut v, round, b, a, seed, [sb, sa]);
                }
                continue;
            }
            let n = self.players.len();
            for white in 0..n {
                for black in 0..n {
                    let (lo, hi) = (white.min(black), white.max(black));
                    if white != black && meetings.binary_search(&(lo, hi)).is_ok() {
                        let seed = self.seed_of(white, black, round);
                        push(&mut v, round, white, black, seed, player_seeds(seed));
                    }
                }
            }
        }
        v
    }
}

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// Its number.
    pub id: u64,
    /// Which meeting of this ordered pair.
    pub round: u32,
    /// White's index in the player list.
    pub white: usize,
    /// Black's index.
    pub black: usize,
    /// Its seed.
    pub seed: u64,
    /// The seeds handed to White's and Black's players.
    pub player_seeds: [u64; 2],
    /// Its start position, as an index into the openings' positions (`None`: the
    /// standard start).
    pub opening: Option<usize>,
}

/// Writes a secret key readable by its owner only (mode 0600 where the system has modes).
pub fn write_secret(path: &Path, key: &SeedKey) -> Result<(), RecordError> {
    use std::io::Write;
    // A key left by a creation that was interrupted before tournament.json was written.
    let _ = fs::remove_file(path);
    let mut opts = fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
    let mut f = opts.open(path).map_err(io_err(path))?;
    writeln!(f, "{}", key.to_hex()).map_err(io_err(path))?;
    f.sync_all().map_err(io_err(path))
}

/// JSON with its keys sorted and no spaces: the text a tag covers, the same whichever
/// way the file was laid out. (serde_json sorts an object's keys only while no crate in the
/// build turns on its `preserve_order` feature; the tag must not hang on that.)
fn canonical(value: &serde_json::Value) -> String {
    use serde_json::Value;
    fn sorted(v: &Value) -> Value {
        match v {
            Value::Object(m) => {
                let mut keys: Vec<&String> = m.keys().collect();
                keys.sort();
                Value::Object(
                    keys.into_iter()
                        .map(|k| (k.clone(), sorted(&m[k])))
                        .collect(),
                )
            }
            Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    serde_json::to_string(&sorted(value)).expect("JSON serializes")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::OpeningOrder;

    /// Settings with every optional field set, under a secret key.
    fn full() -> TournamentConfig {
        let mut c = TournamentConfig::new(
            vec!["CaptureLargest".into(), "RandomMove".into()],
            3,
            RuleSet::chesscom(),
            None,
            Some(100),
        )
        .unwrap();
        c.kind = Some(FolderKind::Match);
        c.gauntlet = true;
        c.paired = true;
        c.sprt = Some("elo0=0,elo1=10".into());
        c.tc = Some("10+0.1".parse().unwrap());
        c.openings = Some(Openings {
            source: "book.epd".into(),
            plies: Some(4),
            order: OpeningOrder::Random,
            positions: vec!["4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".into()],
        });
        c.shard = Some(Shard { index: 2, count: 3 });
        c
    }

    fn saved(c: &TournamentConfig) -> tempfile::TempDir {
        let tmp = tempfile::tempdir().unwrap();
        write_secret(&tmp.path().join(SECRET_FILE), &c.secret.unwrap()).unwrap();
        c.save(tmp.path()).unwrap();
        tmp
    }

    #[test]
    fn settings_read_back_as_saved_with_their_tag() {
        let c = full();
        let tmp = saved(&c);
        let text = fs::read_to_string(tmp.path().join(CONFIG_FILE)).unwrap();
        assert!(text.starts_with("{\n  \"kind\": \"match\",\n"), "{text}");
        let tag_line = text.lines().rev().nth(1).unwrap();
        assert!(tag_line.starts_with("  \"tag\": \""), "{text}");
        let back = TournamentConfig::load(tmp.path()).unwrap();
        assert_eq!(back, c);
        assert!(back.tagged && !back.public_key());
        // The tag covers the settings, not their layout: keys in another order, on one
        // line, read the same.
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        fs::write(tmp.path().join(CONFIG_FILE), json.to_string()).unwrap();
        assert_eq!(TournamentConfig::load(tmp.path()).unwrap(), c);
        // Rows are tagged alike in every shard of a run, and differently in another run.
        let row = crate::GameRow::default();
        let tag = c.row_tagger().unwrap().tag(&row);
        let other_shard = TournamentConfig {
            shard: Some(Shard { index: 1, count: 3 }),
            ..c.clone()
        };
        assert_eq!(other_shard.row_tagger().unwrap().tag(&row), tag);
        let other_run = TournamentConfig {
            nodes: Some(101),
            ..c.clone()
        };
        assert_ne!(other_run.row_tagger().unwrap().tag(&row), tag);
    }

    #[test]
    fn an_edited_setting_is_refused_naming_the_tag_line() {
        let c = full();
        let tmp = saved(&c);
        let path = tmp.path().join(CONFIG_FILE);
        let text = fs::read_to_string(&path).unwrap();
        let tag_line = text.lines().position(|l| l.contains("\"tag\"")).unwrap() as u64 + 1;
        for (from, to) in [
            ("\"nodes\": 100", "\"nodes\": 1000"),
            ("\"kind\": \"match\"", "\"kind\": \"tournament\""),
            ("\"games_per_pair\": 3", "\"games_per_pair\": 4"),
            ("\"index\": 2", "\"index\": 1"),
            // A field this fow does not know is covered too.
            ("\"nodes\": 100", "\"nodes\": 100, \"extra\": 1"),
        ] {
            assert!(text.contains(from), "{from}");
            fs::write(&path, text.replacen(from, to, 1)).unwrap();
            match TournamentConfig::load(tmp.path()) {
                Err(RecordError::Format { line, message, .. }) => {
                    assert_eq!(line, tag_line, "{to}");
                    assert!(message.contains("do not match their tag"), "{message}");
                }
                other => panic!("{to}: {other:?}"),
            }
        }
        // Under another key.
        fs::write(&path, &text).unwrap();
        write_secret(&tmp.path().join(SECRET_FILE), &SeedKey::random().unwrap()).unwrap();
        assert!(TournamentConfig::load(tmp.path()).is_err());
    }

    #[test]
    fn settings_written_before_tags_read_untagged() {
        let mut c = full();
        c.tagged = false;
        let tmp = saved(&c);
        let back = TournamentConfig::load(tmp.path()).unwrap();
        assert!(!back.tagged && back.row_tagger().is_none());
    }

    fn config(players: &[&str], gauntlet: bool, paired: bool) -> TournamentConfig {
        let players = players.iter().map(|p| p.to_string()).collect();
        let mut c = TournamentConfig::new(players, 3, RuleSet::thesis(), Some(7), None).unwrap();
        c.gauntlet = gauntlet;
        c.paired = paired;
        c
    }

    /// Two games of one schedule with the same players and the same players' seeds are
    /// one game played twice: every reader refuses the second, so no settings that
    /// validate may schedule them (the folder could not be read back).
    #[test]
    fn a_valid_schedule_never_holds_the_same_game_twice() {
        let cases = [
            config(&["RandomMove", "CaptureLargest", "Supporter"], false, false),
            config(&["RandomMove", "CaptureLargest", "Supporter"], true, false),
            config(&["RandomMove", "RandomMove", "CaptureLargest"], true, false),
            config(&["RandomMove", "CaptureLargest"], true, true),
            config(&["RandomMove", "RandomMove"], true, true),
            config(&["RandomMove", "RandomMove", "CaptureLargest"], true, true),
        ];
        let mut valid = 0;
        for c in cases {
            let Ok(c) = c.validated() else { continue };
            valid += 1;
            let mut seen = HashSet::new();
            for p in c.pairings() {
                let game = (&c.players[p.white], &c.players[p.black], p.player_seeds);
                assert!(seen.insert(game), "{:?}: game {} twice", c.players, p.id);
            }
        }
        assert!(valid >= 5, "only {valid} of the settings validate");
    }

    #[test]
    fn an_unpaired_gauntlet_may_not_list_its_own_player() {
        for players in [
            &["RandomMove", "RandomMove", "CaptureLargest"][..],
            &["RandomMove", "RandomMove"],
        ] {
            let e = config(players, true, false).validated().unwrap_err();
            let e = e.to_string();
            assert!(e.contains("'RandomMove'") && e.contains("itself"), "{e}");
        }
        // A round robin refuses any player listed twice.
        let e = config(&["RandomMove", "RandomMove"], false, false).validated();
        assert!(e.unwrap_err().to_string().contains("listed twice"));
    }
}
