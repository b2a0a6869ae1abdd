//! A match's statistics (`fow match`, `fow merge`): the pentanomial counts of its game
//! pairs against each opponent, Elo, nElo, LOS and the SPRT's state, as fastchess prints
//! them, and `match.json`.

use std::sync::Mutex;

use fow_arena::pair_results;
use fow_arena::PairResult;
use fow_ratings::{llr, MatchStats, Pentanomial, Score, SprtSpec, Verdict};
use fow_records::{GameRow, TournamentConfig};
use serde::{Deserialize, Serialize};

use crate::error::{input, write_failed, ReportError};

/// The file a match writes its statistics to.
pub use fow_records::MATCH_FILE;

/// Feeds the next pair (in schedule order) to the live pentanomial counts: whether the
/// SPRT has decided, and the score and LLR as the status line shows them.
pub fn sprt_step(
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
pub fn sprt_of(
    cfg: &TournamentConfig,
    dir: &std::path::Path,
) -> Result<Option<SprtSpec>, ReportError> {
    cfg.sprt
        .as_deref()
        .map(SprtSpec::parse)
        .transpose()
        .map_err(|e| input(format!("{}: sprt: {e}", dir.display())))
}

/// A finished match's statistics, as printed, written to `dir/match.json` ([`MATCH_FILE`]).
pub fn match_results(
    cfg: &TournamentConfig,
    games: &[GameRow],
    sprt: Option<&SprtSpec>,
    stopped: bool,
    dir: &std::path::Path,
) -> Result<String, ReportError> {
    Ok(write_match_report(cfg, games, sprt, stopped, dir)?.text())
}

/// A finished match's statistics, written to `dir/match.json` ([`MATCH_FILE`]).
pub(crate) fn write_match_report(
    cfg: &TournamentConfig,
    games: &[GameRow],
    sprt: Option<&SprtSpec>,
    stopped: bool,
    dir: &std::path::Path,
) -> Result<MatchReport, ReportError> {
    let pairs = pair_results(cfg, games)?;
    let report = MatchReport::new(cfg, &pairs, sprt, stopped);
    let path = dir.join(MATCH_FILE);
    let json = serde_json::to_string_pretty(&report).expect("the report serializes") + "\n";
    std::fs::write(&path, json).map_err(|e| write_failed(&path, e))?;
    Ok(report)
}

/// What `match.json` holds: the statistics against each opponent. It reads back from the
/// file it was written to (an infinite interval end, written `null`, included: see
/// [`fow_ratings::EloInterval`]).
#[derive(Debug, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, PartialEq, Serialize, Deserialize)]
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
    /// The statistics of `pairs` (the game pairs of a match with settings `cfg`), with
    /// the SPRT's state when there is one; `stopped`: the SPRT ended the match early.
    pub fn new(
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

    /// The report as printed: fastchess's lines per opponent.
    pub fn text(&self) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed match that the SPRT decided after 23 pairs: its Elo interval's upper
    /// end is infinite, written `null`.
    #[test]
    fn match_json_reads_back_as_written() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../results/match-examples/sprt-h1")
            .join(MATCH_FILE);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(r#""upper": null"#), "{text}");
        let report: MatchReport = serde_json::from_str(&text).unwrap();
        let elo = report.opponents[0].stats.elo.unwrap();
        assert_eq!(elo.upper, f64::INFINITY);
        assert!(elo.lower.is_finite() && elo.lower < elo.value);
        // Written again as match_results writes it, it is the same file.
        let again = serde_json::to_string_pretty(&report).unwrap() + "\n";
        assert_eq!(again, text);
    }
}
