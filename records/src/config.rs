//! What a run is: the settings stored in `tournament.json` ([`TournamentConfig`]) and
//! the schedule they define ([`TournamentConfig::schedule`]), one [`Pairing`] per game
//! with its derived seeds and start position. Playing the schedule is the arena's job;
//! reading a results folder checks each saved game against it.

use std::collections::HashSet;
use std::fs;
use std::path::Path;

use fow_players::PlayerSpec;
use fow_variants::RuleSet;
use serde::{Deserialize, Serialize};

use crate::error::RecordError;
use crate::files::{io_err, CONFIG_FILE};
use crate::openings::Openings;
use crate::seed::{game_seed, legacy_game_seed, player_seeds, SeedKey, Seeding, SECRET_FILE};
use crate::shard::Shard;
use crate::time_control::TimeControl;

/// The folder of a tournament's player logs: `logs/<game id>-<white|black>.stderr` holds
/// what an external program wrote to stderr in that game (only programs that wrote
/// something get a file).
pub const LOGS_DIR: &str = "logs";

/// The settings that define a tournament (stored as `tournament.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentConfig {
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
}

fn is_false(b: &bool) -> bool {
    !*b
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
            None => Some(SeedKey::random().map_err(RecordError::Config)?),
        };
        Ok(TournamentConfig {
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
        })
    }

    /// The settings stored in `dir` (`tournament.json`, and the secret key beside it
    /// for a run without a public seed), as stored: [`TournamentConfig::validated`]
    /// checks that their players can be built.
    pub fn load(dir: &Path) -> Result<TournamentConfig, RecordError> {
        let cfg_path = dir.join(CONFIG_FILE);
        let text = fs::read_to_string(&cfg_path).map_err(io_err(&cfg_path))?;
        let config: TournamentConfig =
            serde_json::from_str(&text).map_err(|e| RecordError::Format {
                path: cfg_path.clone(),
                line: e.line() as u64,
                message: e.to_string(),
            })?;
        config.check_openings(&cfg_path, &text)?;
        config.with_secret(dir)
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
                    return Err(RecordError::Config(format!(
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
    fn key(&self) -> Option<SeedKey> {
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
    pub fn validated(mut self) -> Result<TournamentConfig, RecordError> {
        for p in &mut self.players {
            let spec: PlayerSpec = p.parse()?;
            spec.build()?;
            *p = spec.to_string();
        }
        if self.players.len() < 2 {
            return Err(RecordError::Config(
                "a tournament needs at least two players".into(),
            ));
        }
        if self.games_per_pair == 0 {
            return Err(RecordError::Config("--games must be at least 1".into()));
        }
        let n = self.players.len() as u64;
        let total = self.game_count();
        if total > MAX_GAMES {
            return Err(RecordError::Config(format!(
                "{total} games ({n} players, {} per ordered pair) is more than one tournament holds ({MAX_GAMES}); use fewer --games or players",
                self.games_per_pair
            )));
        }
        match (self.seeding, self.seed, &self.secret) {
            (Seeding::Legacy, None, _) => {
                return Err(RecordError::Config(
                    "a tournament of the legacy seeding needs its public seed".into(),
                ))
            }
            (Seeding::Keyed, None, None) => {
                return Err(RecordError::Config(
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
            return Err(RecordError::Config(format!(
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
                return Err(RecordError::Config(format!(
                    "player '{p}' is listed twice (give the second other parameters)"
                )));
            }
        }
        if let Some(s) = self.shard {
            if s.count == 0 || s.index == 0 || s.index > s.count {
                return Err(RecordError::Config(format!(
                    "shard {}/{} does not exist: a shard is I/N with 1 <= I <= N",
                    s.index, s.count
                )));
            }
        }
        if let Some(o) = &self.openings {
            o.parsed(&self.rules)
                .map_err(|(_, m)| RecordError::Config(format!("openings: {m}")))?;
        }
        if self.sprt.is_some() && !(self.paired && self.gauntlet && self.players.len() == 2) {
            return Err(RecordError::Config(
                "an SPRT needs a paired match of two players".into(),
            ));
        }
        Ok(self)
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

    /// The games this folder plays: the [`TournamentConfig::schedule`], or the games of
    /// its shard.
    pub fn games_to_play(&self) -> Vec<Pairing> {
        let mut v = self.schedule();
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
    pub fn schedule(&self) -> Vec<Pairing> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
            for p in c.schedule() {
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
