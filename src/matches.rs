//! `fow match`: a player against one opponent (or several: a gauntlet) in game pairs,
//! a fixed number of games or until an SPRT decides.

use std::sync::Mutex;

use fow_arena::{pair_results, GameRow, PairResult, Tournament, TournamentConfig};
use fow_ratings::{llr, MatchStats, Pentanomial, Score, SprtSpec, Verdict};
use serde::Serialize;

use crate::error::{input, CliError};
use crate::out::count;
use crate::rules_args::RulesArgs;
use crate::run_args::RunArgs;
use crate::tournament::{create_run, public_seed_note, run_seed, seed_text};

/// The file a match writes its statistics to.
pub const MATCH_FILE: &str = "match.json";
/// Games of a match without --sprt, per opponent.
pub const DEFAULT_GAMES: u32 = 100;
/// The most games of an SPRT without --games, per opponent.
pub const DEFAULT_SPRT_GAMES: u32 = 20_000;

/// Play a match in game pairs: is A better than B, and by how much?
///
/// Games are played in pairs: the same game seed with colours swapped, each player
/// keeping its own seed in both games, so the luck of a seed cancels within a pair. With
/// --sprt the match stops as soon as a generalized SPRT on the pentanomial distribution
/// of pair scores (0, 0.5, 1, 1.5, 2 points for A), checked after every pair in schedule
/// order, accepts H0 or H1 (as fastchess and fishtest compute it). At the end: games,
/// W/D/L, pentanomial counts, score, Elo with its 95% interval, normalized Elo, LOS,
/// the LLR and the verdict, also written to DIR/match.json beside games.csv. Same seed,
/// same games, same verdict, whatever --jobs. A may meet itself (`fow match A A`), the
/// sanity check that equal players score near 50%.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The player under test (a player spec, see `fow players`).
    #[arg(value_name = "A", required_unless_present = "resume")]
    pub first: Option<String>,
    /// Its opponent, or opponents comma-separated for a gauntlet (A against each); A
    /// itself is allowed.
    #[arg(value_name = "B[,C,...]", required_unless_present = "resume")]
    pub opponents: Option<String>,
    /// Games against each opponent, an even number (pairs); with --sprt the most games
    /// (default 100; 20000 with --sprt).
    #[arg(long, short = 'n', value_name = "N")]
    pub games: Option<u32>,
    /// Stop when an SPRT decides: `elo0=X,elo1=Y[,alpha=0.05,beta=0.05][,model=logistic|normalized]`
    /// (one opponent only).
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Runs (or resumes) the match and reports.
pub fn run(a: Args) -> Result<(), CliError> {
    let jobs = a.run.jobs()?;
    let limit = a.run.move_time_limit()?;
    let own = a.first.is_some()
        || a.opponents.is_some()
        || a.games.is_some()
        || a.sprt.is_some()
        || a.rules.any_given();
    let resume = a
        .run
        .resume_folder(own, "the players/--games/--sprt/--rules")?;
    let (t, dir) = if let Some(dir) = resume {
        let t = Tournament::open(&dir)?;
        if !(t.config().paired && t.config().gauntlet) {
            return Err(input(format!(
                "{} holds a tournament, not a match (resume it with fow tournament --resume)",
                dir.display()
            )));
        }
        (t, dir)
    } else {
        let first = a.first.clone().expect("clap requires A");
        let opponents =
            fow_players::split_spec_list(&a.opponents.clone().expect("clap requires B"));
        if let Some(spec) = &a.sprt {
            SprtSpec::parse(spec).map_err(|e| input(format!("--sprt: {e}")))?;
            if opponents.len() != 1 {
                return Err(input("--sprt takes one opponent (a gauntlet has several)"));
            }
        }
        let default = if a.sprt.is_some() {
            DEFAULT_SPRT_GAMES
        } else {
            DEFAULT_GAMES
        };
        let games = a.games.unwrap_or(default);
        if games == 0 || games % 2 == 1 {
            return Err(input(format!(
                "--games must be a positive even number (games come in pairs), not {games}"
            )));
        }
        let mut players = vec![first];
        players.extend(opponents);
        let seed = run_seed(a.run.seed, &players);
        let mut config =
            TournamentConfig::new(players, games / 2, a.rules.rule_set()?, seed, a.run.nodes)?;
        config.gauntlet = true;
        config.paired = true;
        config.sprt = a.sprt.clone();
        config.tc = a.run.time_control()?;
        config.openings = a.run.openings(&config.rules)?;
        a.run.shard_settings(&mut config)?;
        create_run(config.validated()?, a.run.out.clone(), "-match")?
    };
    let cfg = t.config().clone();
    let sprt = sprt_of(&cfg, &dir)?;
    let total = cfg.games_to_play().len();
    let labels = fow_players::player_labels(&cfg.players);
    outln!(
        "{} against {}: {} in pairs{}{}, rules {}, seed {}, {} -> {}",
        labels[0],
        labels[1..].join(", "),
        count(total, "game"),
        crate::tournament::shard_text(&cfg),
        match (&sprt, cfg.shard) {
            (Some(s), None) => format!(" at most, SPRT {}", s),
            (Some(s), Some(_)) =>
                format!(" (all of them: `fow merge` applies the SPRT {s} to the joined shards)"),
            (None, _) => String::new(),
        },
        cfg.rules,
        seed_text(&cfg, &dir),
        count(jobs, "job"),
        dir.display()
    );
    public_seed_note(&cfg);
    crate::tournament::clock_note(&cfg);
    crate::tournament::openings_note(&cfg);
    let bar = a.run.progress_bar(total as u64);
    // The SPRT sees the pairs in schedule order, whatever order the games end in.
    let live = Mutex::new(Pentanomial::default());
    let stop = |g0: &GameRow, g1: &GameRow| {
        let (decided, shown) = sprt_step(&live, sprt.as_ref(), g0, g1);
        bar.set_message(shown);
        decided
    };
    let rep = t.run_until(
        jobs,
        limit,
        &|_, done, _| bar.set_position(done as u64),
        Some(&stop),
    )?;
    bar.finish_and_clear();
    let secs = rep.elapsed.as_secs_f64();
    outln!(
        "{} on disk, {} played now in {:.1} s{}\n",
        count(rep.games.len(), "game"),
        rep.played_now,
        secs,
        if rep.stopped {
            " (the SPRT decided)"
        } else {
            ""
        }
    );
    match_results(&cfg, &rep.games, sprt.as_ref(), rep.stopped, &dir)
}

/// Feeds the next pair (in schedule order) to the live pentanomial counts: whether the
/// SPRT has decided, and the score and LLR as the status line shows them.
pub(crate) fn sprt_step(
    live: &Mutex<Pentanomial>,
    sprt: Option<&SprtSpec>,
    g0: &GameRow,
    g1: &GameRow,
) -> (bool, String) {
    let mut p = live.lock().unwrap_or_else(|e| e.into_inner());
    let score = |g: &GameRow, white| {
        g.game_result()
            .map_or(0.5, |r| fow_arena::score_of(r, white))
    };
    p.add_pair(points(score(g0, true)), points(score(g1, false)));
    let shown = format!("{:.1}%", 100.0 * p.points() / p.games() as f64);
    match sprt {
        Some(s) => {
            let llr = llr(&p, s);
            let (lo, hi) = s.bounds();
            (
                s.verdict(llr) != Verdict::Continue,
                format!("{shown}, LLR {llr:.2} ({lo:.2}, {hi:.2})"),
            )
        }
        None => (false, shown),
    }
}

/// The SPRT of a match's settings, read.
pub(crate) fn sprt_of(
    cfg: &TournamentConfig,
    dir: &std::path::Path,
) -> Result<Option<SprtSpec>, CliError> {
    cfg.sprt
        .as_deref()
        .map(SprtSpec::parse)
        .transpose()
        .map_err(|e| input(format!("{}: sprt: {e}", dir.display())))
}

/// Prints a finished match's statistics and writes them to `dir/match.json`.
pub(crate) fn match_results(
    cfg: &TournamentConfig,
    games: &[GameRow],
    sprt: Option<&SprtSpec>,
    stopped: bool,
    dir: &std::path::Path,
) -> Result<(), CliError> {
    let pairs = pair_results(cfg, games)?;
    let report = MatchReport::new(cfg, &pairs, sprt, stopped);
    outln!("{}", report.text());
    let path = dir.join(MATCH_FILE);
    let json = serde_json::to_string_pretty(&report).expect("the report serializes") + "\n";
    std::fs::write(&path, json)
        .map_err(|e| CliError::Failed(format!("{}: {e}", path.display())))?;
    outln!("wrote {}", path.display());
    Ok(())
}

/// What `match.json` holds: the statistics against each opponent.
#[derive(Debug, Serialize)]
pub struct MatchReport {
    /// The player under test, as the tables name it: its `name=` where given, else its
    /// spec (tournament.json has the specs).
    pub player: String,
    /// The rules, as text.
    pub rules: String,
    /// The SPRT, as given (`None`: a fixed match).
    pub sprt: Option<String>,
    /// Whether the SPRT ended the match before its last game.
    pub stopped: bool,
    /// One entry per opponent, in the order given.
    pub opponents: Vec<OpponentReport>,
}

/// The statistics of the pairs against one opponent.
#[derive(Debug, Serialize)]
pub struct OpponentReport {
    /// The opponent, named as `player` is.
    pub opponent: String,
    /// Pairs scoring 0, 0.5, 1, 1.5 and 2 points for the player under test.
    pub pentanomial: [u64; 5],
    /// The statistics (see [`fow_ratings::MatchStats`]).
    #[serde(flatten)]
    pub stats: MatchStats,
    /// The SPRT's log-likelihood ratio, its bounds and its verdict, with --sprt.
    pub sprt: Option<SprtReport>,
}

/// An SPRT's state.
#[derive(Debug, Serialize)]
pub struct SprtReport {
    /// The log-likelihood ratio of H1 against H0.
    pub llr: f64,
    /// Accept H0 at or below this.
    pub lower: f64,
    /// Accept H1 at or above this.
    pub upper: f64,
    /// `H0 accepted`, `H1 accepted` or `undecided`.
    pub verdict: String,
}

impl MatchReport {
    fn new(
        cfg: &TournamentConfig,
        pairs: &[PairResult],
        sprt: Option<&SprtSpec>,
        stopped: bool,
    ) -> MatchReport {
        let labels = fow_players::player_labels(&cfg.players);
        let opponents = (1..cfg.players.len())
            .map(|j| {
                let mut p = Pentanomial::default();
                for r in pairs.iter().filter(|r| r.opponent == j) {
                    p.add_pair(points(r.scores[0]), points(r.scores[1]));
                }
                let sprt = sprt.map(|s| {
                    let llr = llr(&p, s);
                    let (lower, upper) = s.bounds();
                    SprtReport {
                        llr,
                        lower,
                        upper,
                        verdict: match s.verdict(llr) {
                            Verdict::AcceptH0 => "H0 accepted",
                            Verdict::AcceptH1 => "H1 accepted",
                            Verdict::Continue => "undecided",
                        }
                        .into(),
                    }
                });
                OpponentReport {
                    opponent: labels[j].clone(),
                    pentanomial: p.counts,
                    stats: MatchStats::from(&p),
                    sprt,
                }
            })
            .collect();
        MatchReport {
            player: labels[0].clone(),
            rules: cfg.rules.to_string(),
            sprt: cfg.sprt.clone(),
            stopped,
            opponents,
        }
    }

    /// The report as printed.
    fn text(&self) -> String {
        let mut s = String::new();
        for o in &self.opponents {
            s.push_str(&format!(
                "{} against {} ({} rules):\n{}",
                self.player,
                o.opponent,
                self.rules,
                stats_text(&o.stats, &o.pentanomial)
            ));
            if let Some(r) = &o.sprt {
                s.push_str(&format!(
                    "LLR: {:.2} ({:.2}, {:.2}) {}\nSPRT: {}\n",
                    r.llr,
                    r.lower,
                    r.upper,
                    self.sprt.as_deref().unwrap_or_default(),
                    r.verdict
                ));
            }
            s.push('\n');
        }
        s
    }
}

/// A game's score for the player under test as a [`Score`].
fn points(p: f64) -> Score {
    Score::from_points(p).unwrap_or(Score::Draw)
}

/// A number with `digits` decimals, or `-` when undefined (and `inf` when infinite).
fn num(x: Option<f64>, digits: usize) -> String {
    match x {
        None => "-".into(),
        Some(v) if v.is_infinite() => if v > 0.0 { "inf" } else { "-inf" }.into(),
        Some(v) => format!("{v:.digits$}"),
    }
}

/// The statistics as fastchess prints them.
fn stats_text(s: &MatchStats, ptnml: &[u64; 5]) -> String {
    // `+/- error` as fastchess prints it; the interval itself when an end is infinite
    // (a score interval reaching 0 or 1).
    let pm = |e: Option<fow_ratings::EloInterval>| match e {
        Some(e) if e.error().is_finite() => {
            format!("{} +/- {}", num(Some(e.value), 2), num(Some(e.error()), 2))
        }
        Some(e) => format!(
            "{} (95%: {} to {})",
            num(Some(e.value), 2),
            num(Some(e.lower), 2),
            num(Some(e.upper), 2)
        ),
        None => "-".into(),
    };
    let points = s.wins as f64 + s.draws as f64 / 2.0;
    format!(
        "Elo: {}, nElo: {}\nLOS: {} %, DrawRatio: {} % (pairs)\nGames: {}, Wins: {}, Losses: {}, Draws: {}, Points: {points:.1} ({} %)\nPtnml(0-2): [{}]\n",
        pm(s.elo),
        pm(s.nelo),
        num(s.los.map(|l| 100.0 * l), 2),
        num(s.pair_draw_ratio.map(|d| 100.0 * d), 2),
        s.games,
        s.wins,
        s.losses,
        s.draws,
        num(s.score.map(|x| 100.0 * x), 2),
        ptnml.map(|c| c.to_string()).join(", ")
    )
}
