//! A whole run analysed (`fow analyze --all`): every game of a results folder, a
//! games.csv or a PGN file (or folder) of many games, on several threads, into one
//! [`RunReport`]: each game's [`GameReport`] and each player's [`Summary`] across the
//! run, the same whatever the number of threads.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use fow_records::{load_games, RecordError, SavedGame};
use fow_variants::RuleSet;

use crate::analysis::{GameAnalysis, MoveAnalysis};
use crate::analyze::{analyze_game_with_progress, AnalysisError};
use crate::engine::EngineSettings;
use crate::error::{input, write_failed, ReportError};
use crate::fog_errors::{explain_errors, FogSettings};
use crate::game_report::GameReport;
use crate::highlight_moves::highlight_moves;
use crate::summary::Summary;

/// One player across the run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerSummary {
    /// The player as the games record it (a bot spec or a PGN name).
    pub player: String,
    /// Its name in tables (a program's `name=` where given, else its spec; see
    /// `fow_players::player_labels`).
    pub label: String,
    /// Games it played, as White or Black.
    pub games: usize,
    /// Its moves in all the games, summarised.
    pub summary: Summary,
}

/// The analysis of a whole run, as `fow analyze --all --json` writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    /// The games' file or folder, as given.
    pub source: String,
    /// The engine and its settings, in words.
    pub engine: String,
    /// Positions valued in all (each game's plies plus one).
    pub positions: usize,
    /// Every player, by name (its spec).
    pub players: Vec<PlayerSummary>,
    /// Every game, by number.
    pub games: Vec<GameReport>,
}

impl RunReport {
    /// The report of `games` analysed as `analyses` (in the same order) from `source`.
    pub fn new(source: &str, games: &[SavedGame], analyses: &[GameAnalysis]) -> RunReport {
        let reports: Vec<GameReport> = games
            .iter()
            .zip(analyses)
            .map(|(g, a)| GameReport::new(g, a))
            .collect();
        let mut names: Vec<String> = games
            .iter()
            .flat_map(|g| [g.white.clone(), g.black.clone()])
            .collect();
        names.sort();
        names.dedup();
        let labels = fow_players::player_labels(&names);
        let players = names
            .into_iter()
            .zip(labels)
            .map(|(player, label)| {
                let of = |r: &GameReport, white: bool| match white {
                    true => r.white == player,
                    false => r.black == player,
                };
                // Game by game, in game order, so that the sums are the same every run.
                let moves: Vec<&MoveAnalysis> = reports
                    .iter()
                    .flat_map(|r| r.moves.iter().filter(move |m| of(r, m.mover == "white")))
                    .collect();
                PlayerSummary {
                    games: reports
                        .iter()
                        .filter(|r| of(r, true) || of(r, false))
                        .count(),
                    summary: Summary::of(moves),
                    player,
                    label,
                }
            })
            .collect();
        RunReport {
            source: source.to_string(),
            engine: analyses.first().map_or(String::new(), |a| a.engine.clone()),
            positions: games.iter().map(|g| g.moves.len() + 1).sum(),
            players,
            games: reports,
        }
    }
}

/// Every game of `path` (see [`load_games`]; a game that cannot be read is bad input),
/// in the order of their numbers. Two games with one number are refused: the run's files
/// name games by number.
pub fn run_games(path: &Path, default_rules: &RuleSet) -> Result<Vec<SavedGame>, ReportError> {
    let mut games = load_games(path, default_rules)?;
    if games.is_empty() {
        return Err(input(format!("{}: no games", path.display())));
    }
    games.sort_by_key(|g| g.number);
    if let Some(w) = games.windows(2).find(|w| w[0].number == w[1].number) {
        return Err(input(format!(
            "{} and {} are both game {}: a run's analysis names games by number",
            w[0].source, w[1].source, w[0].number
        )));
    }
    Ok(games)
}

/// Analyses every game of `games` with `engine` on `jobs` threads (at least 1, at most
/// one per game), each with its own engine; `progress(n)` is called, from any thread,
/// after each `n` positions valued. The analyses come back in the order of `games`, and
/// each is what [`analyze_game`](crate::analyze_game) gives for its game, whatever
/// `jobs`; with `fog`, each game's moves are also highlighted
/// ([`highlight_moves`]) and its mistakes and blunders explained ([`explain_errors`]),
/// as `fow analyze` does for one game. The engine's settings are checked, and every engine started, before any game
/// is analysed. When games fail, the others already begun are finished, no more are
/// begun, and the error is that of the first failed game in `games`' order.
pub fn analyze_games(
    games: &[SavedGame],
    engine: &EngineSettings,
    fog: Option<&FogSettings>,
    jobs: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<GameAnalysis>, ReportError> {
    let workers = jobs.clamp(1, games.len().max(1));
    let evaluators = (0..workers)
        .map(|_| Ok((engine.evaluator()?, engine.deeper_evaluator()?)))
        .collect::<Result<Vec<_>, ReportError>>()?;
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let results: Mutex<Vec<Option<Result<GameAnalysis, AnalysisError>>>> =
        Mutex::new(vec![None; games.len()]);
    std::thread::scope(|s| {
        for (mut evaluator, mut deeper) in evaluators {
            let (next, failed, results) = (&next, &failed, &results);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= games.len() || failed.load(Ordering::Relaxed) {
                    break;
                }
                let r = analyze_game_with_progress(&games[i], evaluator.as_mut(), &mut |_, _| {
                    progress(1)
                })
                .and_then(|mut a| {
                    if let Some(fog) = fog {
                        let game = &games[i];
                        highlight_moves(game, &mut a, evaluator.as_mut(), deeper.as_mut())?;
                        explain_errors(game, &mut a, evaluator.as_mut(), fog, &mut |_, _| {})?;
                    }
                    Ok(a)
                });
                failed.fetch_or(r.is_err(), Ordering::Relaxed);
                results.lock().expect("analysis results")[i] = Some(r);
            });
        }
    });
    let results = results.into_inner().expect("analysis results");
    let mut analyses = Vec::with_capacity(games.len());
    for (g, r) in games.iter().zip(results) {
        match r {
            Some(Ok(a)) => analyses.push(a),
            Some(Err(e)) => return Err(ReportError::Failed(format!("{}: {e}", g.source))),
            None => unreachable!("a game before a failed one is analysed"),
        }
    }
    Ok(analyses)
}

/// Writes every move of the run as CSV: a `game` column (the game's number), then
/// [`MoveAnalysis`]'s fields as [`write_analysis_csv`](crate::write_analysis_csv) writes
/// them; games by number, moves by ply.
pub fn write_run_csv(path: &Path, report: &RunReport) -> Result<(), ReportError> {
    let file = std::fs::File::create(path).map_err(|e| write_failed(path, e))?;
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(std::io::BufWriter::new(file));
    let failed = |e: csv::Error| -> ReportError {
        RecordError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        }
        .into()
    };
    w.write_record(std::iter::once("game").chain(move_headers().iter()))
        .map_err(failed)?;
    for g in &report.games {
        for m in &g.moves {
            w.serialize((g.game, m)).map_err(failed)?;
        }
    }
    w.flush().map_err(|e| write_failed(path, e))
}

/// The header of a game's CSV: [`MoveAnalysis`]'s field names, as csv writes them.
fn move_headers() -> csv::StringRecord {
    let m = MoveAnalysis::new(1, true, "a".into(), "a".into(), 0.0, 0.0, "".into(), false);
    let mut w = csv::Writer::from_writer(Vec::new());
    w.serialize(&m).expect("a record serializes to memory");
    let bytes = w.into_inner().expect("a record writes to memory");
    let mut r = csv::Reader::from_reader(bytes.as_slice());
    r.headers().expect("the header reads back").clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use crate::summary::Tally;

    fn games() -> Vec<SavedGame> {
        let lines: [&[&str]; 3] = [
            &["e2e4", "f7f6", "d1h5", "a7a6", "h5e8"],
            &["d2d4", "d7d5", "c1f4"],
            &["g1f3", "g8f6", "f3g1", "f6g8", "b1c3"],
        ];
        let players = [("A", "B"), ("B", "C"), ("C", "A")];
        lines
            .iter()
            .zip(players)
            .enumerate()
            .map(|(i, (moves, (w, b)))| {
                let mut g = SavedGame::from_uci(w, b, RuleSet::thesis(), moves).unwrap();
                g.number = i as u64 + 1;
                g.source = format!("test game {}", i + 1);
                g
            })
            .collect()
    }

    fn settings() -> EngineSettings {
        EngineSettings {
            engine: Engine::Mystockfish,
            depth: Some(2),
            nodes: Some(2000),
            stockfish: String::new(),
        }
    }

    /// Each game's analysis is the single game's, whatever the threads, and every
    /// position is counted once in the progress.
    #[test]
    fn a_run_is_its_games_analysed_one_by_one() {
        let games = games();
        let done = AtomicUsize::new(0);
        let count = |n: usize| {
            done.fetch_add(n, Ordering::Relaxed);
        };
        let one = analyze_games(&games, &settings(), None, 1, &count).unwrap();
        assert_eq!(done.load(Ordering::Relaxed), 6 + 4 + 6);
        for jobs in [2, 3, 8] {
            assert_eq!(
                analyze_games(&games, &settings(), None, jobs, &|_| {}).unwrap(),
                one
            );
        }
        for (g, a) in games.iter().zip(&one) {
            let mut e = settings().evaluator().unwrap();
            assert_eq!(&crate::analyze_game(g, e.as_mut()).unwrap(), a);
        }
    }

    /// Each player's summary is its moves in all its games, as White and as Black.
    #[test]
    fn players_are_summarised_across_the_run() {
        let games = games();
        let analyses = analyze_games(&games, &settings(), None, 2, &|_| {}).unwrap();
        let r = RunReport::new("run", &games, &analyses);
        assert_eq!(r.positions, 16);
        let names: Vec<&str> = r.players.iter().map(|p| p.player.as_str()).collect();
        assert_eq!(names, ["A", "B", "C"]);
        let a = &r.players[0];
        assert_eq!(a.games, 2);
        // A: White in game 1 (3 moves), Black in game 3 (2 moves).
        let mine: Vec<&MoveAnalysis> = analyses[0]
            .moves
            .iter()
            .filter(|m| m.mover == "white")
            .chain(analyses[2].moves.iter().filter(|m| m.mover == "black"))
            .collect();
        assert_eq!(a.summary.total, Tally::of(mine));
        assert_eq!(a.summary.by["side"]["white"].moves, 3);
        assert_eq!(a.summary.by["side"]["black"].moves, 2);
        // B hung its king in game 1 (2... a6).
        assert_eq!(r.players[1].summary.total.king_left_capturable, 1);
        assert_eq!(r.games[1].game, 2);
    }

    /// The run's CSV is one game's CSV with the game's number first, and reads back one
    /// game at a time; a row with a bad number names its line and field.
    #[test]
    fn the_run_csv_reads_back_game_by_game() {
        let games = games();
        let analyses = analyze_games(&games, &settings(), None, 2, &|_| {}).unwrap();
        let r = RunReport::new("run", &games, &analyses);
        let dir = tempfile::tempdir().unwrap();
        let (run, one) = (dir.path().join("run.csv"), dir.path().join("one.csv"));
        write_run_csv(&run, &r).unwrap();
        let text = std::fs::read_to_string(&run).unwrap();
        crate::write_analysis_csv(&one, &analyses[0]).unwrap();
        let header = std::fs::read_to_string(&one).unwrap();
        let header = header.lines().next().unwrap();
        assert_eq!(text.lines().next().unwrap(), format!("game,{header}"));
        assert_eq!(text.lines().count(), 1 + 5 + 3 + 5);
        for (g, a) in games.iter().zip(&analyses) {
            assert_eq!(crate::read_analysis(&run, g).unwrap(), a.moves);
        }
        let mut other = games[0].clone();
        other.number = 4;
        let e = crate::read_analysis(&run, &other).unwrap_err().to_string();
        assert!(e.ends_with("run.csv:1: no analysed moves of game 4"), "{e}");
        std::fs::write(&run, text.replacen("\n1,", "\nx,", 1)).unwrap();
        let e = crate::read_analysis(&run, &games[0])
            .unwrap_err()
            .to_string();
        assert!(
            e.ends_with("run.csv:2: field 1: bad game number 'x'"),
            "{e}"
        );
        let bad_ply = text.replacen("\n1,1,", "\n1,one,", 1);
        std::fs::write(&run, bad_ply).unwrap();
        let e = crate::read_analysis(&run, &games[0])
            .unwrap_err()
            .to_string();
        assert!(e.contains("run.csv:2: field 2: "), "{e}");
    }

    #[test]
    fn games_are_sorted_and_numbers_unique() {
        let dir = tempfile::tempdir().unwrap();
        let pgn = dir.path().join("g.pgn");
        std::fs::write(
            &pgn,
            "[FowGame \"9\"]\n\n1. e2e4 1-0\n\n[FowGame \"3\"]\n\n1. d2d4 1-0\n",
        )
        .unwrap();
        let games = run_games(&pgn, &RuleSet::thesis()).unwrap();
        assert_eq!(games.iter().map(|g| g.number).collect::<Vec<_>>(), [3, 9]);
        std::fs::write(
            &pgn,
            "[FowGame \"3\"]\n\n1. e2e4 1-0\n\n[FowGame \"3\"]\n\n1. d2d4 1-0\n",
        )
        .unwrap();
        let e = run_games(&pgn, &RuleSet::thesis()).unwrap_err().to_string();
        assert!(e.contains("are both game 3"), "{e}");
    }
}
