//! A results folder read for Python (`fow.read_results`, in `fow/results.py`): its
//! settings, its games as checked by every reader, the ratings as `fow tournament` and
//! `fow rate` fit them, and a match's statistics as `fow match` computes them; handed
//! over as one JSON text.

use std::path::{Path, PathBuf};

use fow_analysis::{fit, labelled, matrix_of, ms_per_move, report, MatchReport};
use fow_ratings::{summary_rows, SummaryRow, Verdict};
use fow_records::{
    games_csv_of, read_csv, read_games, GameRow, RecordError, Schedule, TimeRow, TournamentConfig,
    CONFIG_FILE, TIMES_FILE,
};
use pyo3::prelude::*;
use serde_json::{json, Value};

use crate::error::fow_error;

/// The folder `dir` (or the folder of the games.csv `dir`) as JSON text: `dir`, `config`
/// (tournament.json, when there is one), `games`, `ratings` (one row per player, `null`
/// when no fit applies, e.g. a player against itself), `ratings_text` (the crosstable and
/// ratings as `fow tournament` prints them), `notes`, and for a match `match` (match.json's
/// statistics) and `match_text`. `method`: the fits beside BayesElo's, as
/// `fow rate --method` takes it.
#[pyfunction]
#[pyo3(signature = (dir, method="bayeselo"))]
pub fn results_json(dir: PathBuf, method: &str) -> PyResult<String> {
    let method = crate::runs::method_of(method)?;
    read(&dir, method).map(|v| v.to_string())
}

fn read(dir: &Path, method: fow_analysis::Method) -> PyResult<Value> {
    let games_path = games_csv_of(dir);
    let folder = match games_path.parent() {
        Some(p) if games_path != dir => p.to_path_buf(),
        _ => dir.to_path_buf(),
    };
    if !games_path.is_file() {
        return Err(fow_error(format!(
            "{}: holds no games.csv (not a results folder)",
            dir.display()
        )));
    }
    let config = match folder.join(CONFIG_FILE).is_file() {
        true => Some(TournamentConfig::load(&folder).map_err(fow_error)?),
        false => None,
    };
    let games = read_games(&games_path).map_err(fow_error)?;
    let times = read_times(&folder.join(TIMES_FILE)).map_err(fow_error)?;
    let players = match &config {
        Some(c) => c.players.clone(),
        None => first_appearance(&games),
    };
    let mut notes = Vec::new();
    let (ratings, ratings_text) = match ratings(&players, &games, &times, method) {
        Ok((rows, text, fit_notes)) => {
            notes.extend(fit_notes);
            (Value::Array(rows.iter().map(rating_json).collect()), text)
        }
        Err(e) => {
            notes.push(e);
            (Value::Null, String::new())
        }
    };
    let (stats, match_text) = match config.as_ref().filter(|c| c.paired) {
        Some(c) => {
            let m = match_report(c, &games)?;
            let text = m.text();
            (serde_json::to_value(&m).map_err(fow_error)?, text)
        }
        None => (Value::Null, String::new()),
    };
    Ok(json!({
        "dir": folder.display().to_string(),
        "config": config.as_ref().map(config_json),
        "games": games.iter().map(game_json).collect::<Vec<_>>(),
        "ratings": ratings,
        "ratings_text": ratings_text,
        "notes": notes,
        "match": stats,
        "match_text": match_text,
    }))
}

/// The players of `games` in order of first appearance (a folder without settings).
fn first_appearance(games: &[GameRow]) -> Vec<String> {
    let mut players: Vec<String> = Vec::new();
    for g in games {
        for p in [&g.white, &g.black] {
            if !players.contains(p) {
                players.push(p.clone());
            }
        }
    }
    players
}

/// times.csv's rows (none without the file).
fn read_times(path: &Path) -> Result<Vec<TimeRow>, RecordError> {
    if !path.is_file() {
        return Ok(Vec::new());
    }
    read_csv::<TimeRow>(path, false, TIMES_FILE)?
        .0
        .into_iter()
        .map(|(_, r)| r)
        .collect()
}

/// The ratings table's rows, its text as `fow tournament` prints it, and the fits'
/// notes; the error says why there are none (a player against itself).
fn ratings(
    players: &[String],
    games: &[GameRow],
    times: &[TimeRow],
    method: fow_analysis::Method,
) -> Result<(Vec<SummaryRow>, String, Vec<String>), String> {
    let (labels, games) = labelled(players, games.to_vec());
    let m = matrix_of(&labels, &games).map_err(|e| format!("no ratings: {e}"))?;
    let ms = ms_per_move(&labels, &games, times);
    let fits = fit(&m, None, method).map_err(|e| e.to_string())?;
    let text = report(&m, &fits, Some(&ms), None).map_err(|e| e.to_string())?;
    // The rows as report() writes ratings.csv (every fit), with the times of summary.csv.
    let mut inp = fits.summary_input(&m);
    inp.ms_per_move = Some(&ms);
    let rows = summary_rows(&inp).map_err(|e| e.to_string())?;
    Ok((rows, text, fits.notes.clone()))
}

/// A match's statistics as `fow match` writes them to match.json; `stopped` when the
/// SPRT decided before the schedule's end.
fn match_report(cfg: &TournamentConfig, games: &[GameRow]) -> PyResult<MatchReport> {
    let sprt = cfg
        .sprt
        .as_deref()
        .map(fow_ratings::SprtSpec::parse)
        .transpose()
        .map_err(|e| fow_error(format!("sprt: {e}")))?;
    let pairs = fow_arena::pair_results(cfg, games).map_err(fow_error)?;
    let mut m = MatchReport::new(cfg, &pairs, sprt.as_ref(), false);
    let decided = m.opponents.iter().any(|o| {
        o.sprt
            .as_ref()
            .is_some_and(|s| s.verdict != verdict_text(Verdict::Continue))
    });
    m.stopped = decided && (games.len() as u64) < cfg.game_count();
    Ok(m)
}

/// A verdict as match.json writes it.
fn verdict_text(v: Verdict) -> &'static str {
    match v {
        Verdict::AcceptH0 => "H0 accepted",
        Verdict::AcceptH1 => "H1 accepted",
        Verdict::Continue => "undecided",
    }
}

/// The settings a reader wants: players, games per pair, rules, seed, budget, schedule.
fn config_json(c: &TournamentConfig) -> Value {
    json!({
        "kind": c.kind.map(|k| k.to_string()),
        "players": c.players,
        "labels": fow_players::player_labels(&c.players),
        "games_per_pair": c.games_per_pair,
        "rules": c.rules.to_string(),
        "seed": c.seed,
        "nodes": c.nodes,
        "schedule": match c.schedule() {
            Schedule::RoundRobin => "round robin",
            Schedule::Gauntlet => "gauntlet",
            Schedule::GamePairs => "game pairs",
        },
        "sprt": c.sprt,
        "games": c.game_count(),
    })
}

/// A games.csv row: the moves as a list, the start FEN `null` for the standard start.
fn game_json(g: &GameRow) -> Value {
    json!({
        "id": g.id,
        "round": g.round,
        "white": g.white,
        "black": g.black,
        "seed": g.seed,
        "result": g.result,
        "reason": g.reason,
        "plies": g.plies,
        "detail": g.detail,
        "moves": g.moves.split_whitespace().collect::<Vec<_>>(),
        "start": (!g.start.is_empty()).then_some(&g.start),
    })
}

/// A row of the ratings table, with ratings.csv's names.
fn rating_json(r: &SummaryRow) -> Value {
    json!({
        "player": r.player,
        "games": r.games,
        "points": r.points,
        "score_percent": r.score_percent,
        "elo": r.elo,
        "elo_ci95": r.elo_half_width,
        "thesis_elo": r.thesis_elo,
        "mle_elo": r.mle_elo,
        "mle_ci95": r.mle_half_width,
        "rated": r.rated,
        "ms_per_move": r.ms_per_move,
    })
}
