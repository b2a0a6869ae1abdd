//! Checking a tuning run's result (`fow tune --verify`): the tuned spec against the
//! start spec in game pairs until an SPRT decides, as `fow match --sprt` plays it, in
//! the run's `verify/` folder (an ordinary match folder: `fow match --resume` reads it).

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use fow_arena::tune::TuneConfig;
use fow_arena::{Run, RunPlan};
use fow_players::PlayerSpec;
use fow_ratings::{Pentanomial, SprtSpec};
use fow_records::{FolderKind, GameRow, TournamentConfig};

use crate::error::{input, ReportError};
use crate::match_report::{sprt_step, write_match_report, MatchReport};

/// The verification's folder, inside the tuning run's.
pub const VERIFY_DIR: &str = "verify";
/// The SPRT of `--verify` without a value: is the tuned spec at least 10 Elo stronger?
pub const DEFAULT_VERIFY_SPRT: &str = "elo0=0,elo1=10,alpha=0.05,beta=0.05";
/// The most games of the verification without `--verify-games`.
pub const DEFAULT_VERIFY_GAMES: u32 = 2000;

/// What the verification is: its SPRT and its most games.
#[derive(Clone, Debug, PartialEq)]
pub struct Verify {
    /// The SPRT, as `fow match --sprt` takes it.
    pub sprt: String,
    /// The most games (an even number: game pairs).
    pub games: u32,
}

impl Default for Verify {
    fn default() -> Verify {
        Verify {
            sprt: DEFAULT_VERIFY_SPRT.into(),
            games: DEFAULT_VERIFY_GAMES,
        }
    }
}

impl Verify {
    /// Checks the SPRT and the number of games (before a run, so that a mistake is
    /// caught before the tuning, not after it); the SPRT, read.
    pub fn check(&self) -> Result<SprtSpec, ReportError> {
        let sprt = SprtSpec::parse(&self.sprt).map_err(|e| input(format!("--verify: {e}")))?;
        if self.games == 0 || self.games % 2 == 1 {
            return Err(input(format!(
                "--verify-games must be a positive even number (games come in pairs), not {}",
                self.games
            )));
        }
        Ok(sprt)
    }
}

/// A finished verification.
#[derive(Debug)]
pub struct Verification {
    /// Its folder.
    pub dir: PathBuf,
    /// The statistics and the SPRT's verdict, as `match.json` holds them.
    pub report: MatchReport,
    /// Games on disk.
    pub games: usize,
    /// Games played now (the rest were there from an interrupted verification).
    pub played_now: usize,
}

impl Verification {
    /// The SPRT's verdict: `H1 accepted` (the tuned spec is better), `H0 accepted` or
    /// `undecided` (the games ran out first).
    pub fn verdict(&self) -> &str {
        self.report
            .opponents
            .first()
            .and_then(|o| o.sprt.as_ref())
            .map_or("undecided", |s| s.verdict.as_str())
    }
}

/// The match of the verification of `tuned` (a tuning run's result) against the start of
/// `config`'s space: the run's rules, node budget, clock, openings and seed.
pub fn verify_plan(config: &TuneConfig, tuned: &PlayerSpec, verify: &Verify) -> RunPlan {
    let start = config.space.spec(&config.space.start());
    let players = vec![tuned.to_string(), start.to_string()];
    let mut plan = RunPlan::new(FolderKind::Match, players, verify.games / 2, config.rules);
    plan.seed = Some(config.seed);
    plan.nodes = config.nodes;
    plan.tc = config.tc;
    plan.openings = config.openings.clone();
    plan.sprt = Some(verify.sprt.clone());
    plan
}

/// Plays the verification of `tuned` (a spec of `config`'s space, from the tuning run in
/// `dir`) against the start spec with `jobs` threads, in `dir/verify` ([`VERIFY_DIR`]),
/// and writes its `match.json`. `on_game` hears the games on disk after each game,
/// `on_sprt` the SPRT's state (score and LLR) after each pair.
///
/// A verification of the same match left there by a kill is finished; one of another
/// match (the run has gone on since, and its result changed) is replaced.
pub fn verify_tuning(
    dir: &Path,
    config: &TuneConfig,
    tuned: &PlayerSpec,
    verify: &Verify,
    jobs: usize,
    on_game: &(dyn Fn(usize) + Sync),
    on_sprt: &(dyn Fn(&str) + Sync),
) -> Result<Verification, ReportError> {
    let sprt = verify.check()?;
    let plan = verify_plan(config, tuned, verify);
    let vdir = dir.join(VERIFY_DIR);
    let run = match vdir.join(fow_records::CONFIG_FILE).is_file() {
        true => {
            let run = Run::resume(&vdir, FolderKind::Match)?;
            if same_match(run.config(), &plan.clone().settings()?) {
                run
            } else {
                drop(run);
                std::fs::remove_dir_all(&vdir).map_err(|e| {
                    ReportError::Failed(format!("cannot replace {}: {e}", vdir.display()))
                })?;
                Run::create(plan, Some(&vdir), "-match")?
            }
        }
        false => Run::create(plan, Some(&vdir), "-match")?,
    };
    let live = Mutex::new(Pentanomial::default());
    let stop = |g0: &GameRow, g1: &GameRow| {
        let (decided, shown) = sprt_step(&live, Some(&sprt), g0, g1);
        on_sprt(&shown);
        decided
    };
    let rep = run.play(jobs, None, &|_, done, _| on_game(done), Some(&stop))?;
    let report = write_match_report(run.config(), &rep.games, Some(&sprt), rep.stopped, &vdir)?;
    Ok(Verification {
        dir: vdir,
        report,
        games: rep.games.len(),
        played_now: rep.played_now,
    })
}

/// Whether two match settings play the same games.
fn same_match(a: &TournamentConfig, b: &TournamentConfig) -> bool {
    a.players == b.players
        && a.games_per_pair == b.games_per_pair
        && a.rules == b.rules
        && a.seed == b.seed
        && a.nodes == b.nodes
        && a.sprt == b.sprt
        && a.tc == b.tc
        && a.openings == b.openings
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_players::tune::TuneSpace;
    use fow_variants::RuleSet;

    /// Planted's x and y starting far from its planted optimum (0.7, 0.3).
    fn far_start() -> TuneConfig {
        let space =
            TuneSpace::declared("Planted:x=0.05,y=0.95", &["x".into(), "y".into()]).unwrap();
        TuneConfig::new(space, 10, 4, Vec::new(), RuleSet::thesis(), Some(5)).unwrap()
    }

    #[test]
    fn the_planted_optimum_beats_a_far_start_and_the_verdict_is_stored() {
        let tmp = tempfile::tempdir().unwrap();
        let config = far_start();
        let tuned = config.space.spec(&[0.7, 0.3]);
        let verify = Verify {
            games: 400,
            ..Verify::default()
        };
        let quiet = |_: usize| {};
        let v = verify_tuning(tmp.path(), &config, &tuned, &verify, 2, &quiet, &|_| {}).unwrap();
        assert_eq!(v.verdict(), "H1 accepted", "{}", v.report.text());
        assert!(v.report.stopped && v.games < 400, "{} games", v.games);
        assert_eq!(v.dir, tmp.path().join(VERIFY_DIR));
        let stored = std::fs::read_to_string(v.dir.join(fow_records::MATCH_FILE)).unwrap();
        let stored: MatchReport = serde_json::from_str(&stored).unwrap();
        assert_eq!(stored, v.report);
        assert_eq!(stored.player, tuned.to_string());
        assert_eq!(stored.opponents[0].opponent, "Planted:x=0.05,y=0.95");

        // Again: the folder's match is finished, not played twice; another tuned spec
        // replaces it.
        let again = verify_tuning(tmp.path(), &config, &tuned, &verify, 1, &quiet, &|_| {});
        let again = again.unwrap();
        assert_eq!((again.played_now, again.report), (0, stored));
        let other = config.space.spec(&[0.5, 0.5]);
        let v = verify_tuning(tmp.path(), &config, &other, &verify, 2, &quiet, &|_| {}).unwrap();
        assert_eq!(v.report.player, other.to_string());
        assert_eq!(v.played_now, v.games);
    }

    #[test]
    fn a_bad_sprt_or_game_count_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let config = far_start();
        let tuned = config.space.spec(&[0.7, 0.3]);
        let run = |sprt: &str, games: u32| {
            let verify = Verify {
                sprt: sprt.into(),
                games,
            };
            verify_tuning(tmp.path(), &config, &tuned, &verify, 1, &|_| {}, &|_| {})
                .unwrap_err()
                .to_string()
        };
        assert!(run("elo0=0", 100).starts_with("--verify: "));
        assert!(run(DEFAULT_VERIFY_SPRT, 7).contains("--verify-games"));
        assert!(!tmp.path().join(VERIFY_DIR).exists());
    }
}
