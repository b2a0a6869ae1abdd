//! A run's page as JSON ([`run_json`]): its settings (never its secret key), every game
//! complete on disk, and what fow's reports say of them: for a tournament (and a play or
//! an import) the crosstable, the BayesElo-model ratings with their 95% intervals and the
//! likelihoods of superiority; for a match the statistics against each opponent and the
//! SPRT's log-likelihood ratio after each pair, with its bounds; the plots the folder
//! holds. A folder being written is read as far as its lines are complete (whether it is
//! being written, and its games in play, change every ply: the server adds them to each
//! answer).

use std::path::Path;

use fow_analysis::{fit, matrix_of, Method};
use fow_ratings::{llr, MatchStats, Pentanomial, Score, SprtSpec};
use fow_records::{read_checked, CheckAgainst, FolderKind, GameRow, TournamentConfig, GAMES_FILE};
use serde_json::{json, Value};

use crate::scan::{complete_rows, progress_file};

/// The page of the run in `dir` (resolved inside a root) whose id is `id`.
pub fn run_json(id: &str, dir: &Path) -> Result<Value, String> {
    let kind = fow_records::folder_kind(dir)
        .map_err(|e| e.to_string())?
        .map(|(k, _)| k)
        .ok_or_else(|| format!("{id}: not a results folder"))?;
    let mut page = json!({
        "id": id,
        "kind": kind.to_string(),
        "plots": plots(dir, kind),
    });
    match kind {
        FolderKind::Evolve | FolderKind::Tune => {
            page["progress"] = json!(complete_rows(&dir.join(progress_file(kind))));
            page["best"] = best_json(dir);
            return Ok(page);
        }
        _ => {}
    }
    let cfg = TournamentConfig::load(dir).map_err(|e| e.to_string())?;
    page["settings"] = settings_json(&cfg);
    let (games, errors) = games(dir);
    page["errors"] = json!(errors);
    page["games"] = Value::Array(games.iter().map(game_row_json).collect());
    let labels = fow_players::player_labels(&cfg.players);
    page["players"] = json!(labels);
    if cfg.paired {
        page["match"] = match_json(&cfg, &games);
    } else {
        page["table"] = table_json(&cfg.players, &games);
    }
    Ok(page)
}

/// The settings a page shows: what tournament.json holds, less the run's secret key.
fn settings_json(cfg: &TournamentConfig) -> Value {
    json!({
        "kind": cfg.kind.map(|k| k.to_string()),
        "players": cfg.players,
        "games_per_pair": cfg.games_per_pair,
        "rules": cfg.rules.to_string(),
        // As text: a u64 does not fit a JavaScript number exactly.
        "seed": cfg.seed.map(|s| s.to_string()),
        "nodes": cfg.nodes,
        "gauntlet": cfg.gauntlet,
        "paired": cfg.paired,
        "sprt": cfg.sprt,
        "clock": cfg.tc.map(|t| t.to_string()),
        "tagged": cfg.tagged,
    })
}

/// The games whose lines are complete, and the rows that do not check (each as its
/// error: the file, the line and what is wrong).
pub fn games(dir: &Path) -> (Vec<GameRow>, Vec<String>) {
    let path = dir.join(GAMES_FILE);
    if !path.is_file() {
        return (Vec::new(), Vec::new());
    }
    match read_checked(&path, CheckAgainst::Beside, true) {
        Err(e) => (Vec::new(), vec![e.to_string()]),
        Ok((_, rows)) => {
            let mut games = Vec::new();
            let mut errors = Vec::new();
            for r in rows {
                match r.row {
                    Ok((row, _)) => games.push(row),
                    Err(e) => errors.push(e.to_string()),
                }
            }
            games.sort_by_key(|g| g.id);
            (games, errors)
        }
    }
}

/// One game as the run's list shows it.
fn game_row_json(g: &GameRow) -> Value {
    json!({
        "id": g.id,
        "round": g.round,
        "white": g.white,
        "black": g.black,
        "result": g.result,
        "reason": g.reason,
        "plies": g.plies,
        "detail": g.detail,
    })
}

/// A round robin's crosstable, ratings and LOS.
fn table_json(players: &[String], games: &[GameRow]) -> Value {
    let (labels, games) = fow_analysis::labelled(players, games.to_vec());
    let m = match matrix_of(&labels, &games) {
        Ok(m) => m,
        Err(e) => return json!({ "error": e.to_string() }),
    };
    let n = labels.len();
    let mut cells = vec![vec![Value::Null; n]; n];
    for (i, row) in cells.iter_mut().enumerate() {
        for (j, cell) in row.iter_mut().enumerate() {
            if i == j {
                continue;
            }
            // Player i against j, both colours together.
            let h = m.head_to_head(i, j).unwrap_or_default();
            let (w, d, l) = (h.wins, h.draws, h.losses);
            if w + d + l > 0 {
                *cell = json!({ "wins": w, "draws": d, "losses": l });
            }
        }
    }
    let mut ratings = Vec::new();
    let mut los = Value::Null;
    let mut notes = Vec::new();
    if games.is_empty() {
        notes.push("no games yet".to_string());
    } else {
        match fit(&m, None, Method::Bayeselo) {
            Ok(fits) => {
                notes = fits.notes.clone();
                if let Some(elo) = &fits.elo {
                    for (k, &i) in fits.elo_rated.iter().enumerate() {
                        let p = m.player_points(i).unwrap_or(0.0);
                        let g = m.player_games(i).unwrap_or(0);
                        ratings.push(json!({
                            "player": labels[i],
                            "games": g,
                            "points": p,
                            "score": if g > 0 { p / g as f64 } else { 0.0 },
                            "elo": elo.ratings[k],
                            "half_width": elo.half_widths[k],
                        }));
                    }
                    let r = fits.elo_rated.len();
                    let rows: Vec<Vec<Option<f64>>> = (0..r)
                        .map(|a| {
                            (0..r)
                                .map(|b| (a != b).then(|| elo.los(a, b)).flatten())
                                .collect()
                        })
                        .collect();
                    los = json!({
                        "players": fits.elo_rated.iter().map(|&i| &labels[i]).collect::<Vec<_>>(),
                        "rows": rows,
                    });
                }
            }
            Err(e) => notes.push(e.to_string()),
        }
    }
    json!({
        "players": labels,
        "cells": cells,
        "ratings": ratings,
        "los": los,
        "notes": notes,
    })
}

/// A match's statistics against each opponent, and the SPRT's LLR pair by pair.
fn match_json(cfg: &TournamentConfig, games: &[GameRow]) -> Value {
    let pairs = match fow_arena::pair_results(cfg, games) {
        Ok(p) => p,
        Err(e) => return json!({ "error": e.to_string() }),
    };
    let sprt = cfg.sprt.as_deref().map(SprtSpec::parse).transpose();
    let sprt = match sprt {
        Ok(s) => s,
        Err(e) => return json!({ "error": format!("sprt: {e}") }),
    };
    let labels = fow_players::player_labels(&cfg.players);
    let score = |p: f64| Score::from_points(p).unwrap_or(Score::Draw);
    let opponents: Vec<Value> = (1..cfg.players.len())
        .map(|j| {
            let mut p = Pentanomial::default();
            let mut series = Vec::new();
            for r in pairs.iter().filter(|r| r.opponent == j) {
                p.add_pair(score(r.scores[0]), score(r.scores[1]));
                if let Some(s) = &sprt {
                    series.push(json!([p.games() / 2, llr(&p, s)]));
                }
            }
            let stats = MatchStats::from(&p);
            json!({
                "opponent": labels[j],
                "pentanomial": p.counts,
                "stats": stats,
                "llr": series,
                "bounds": sprt.as_ref().map(|s| { let (lo, hi) = s.bounds(); [lo, hi] }),
            })
        })
        .collect();
    json!({
        "player": labels[0],
        "sprt": cfg.sprt,
        "pairs": pairs.len(),
        "opponents": opponents,
    })
}

/// The SVG plots in the folder (a ladder, an evolution's or a tuning run's curve); a
/// tuning run's curve is drawn afresh from its log ([`fow_analysis::tune_plot_svg`]), so
/// it is listed even before `fow tune` writes it.
fn plots(dir: &Path, kind: FolderKind) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .map(|r| {
            r.flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|n| n.ends_with(".svg") && !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    if kind == FolderKind::Tune && !out.iter().any(|p| p == fow_analysis::TUNE_PLOT_FILE) {
        out.push(fow_analysis::TUNE_PLOT_FILE.to_string());
    }
    out.sort();
    out
}

/// A tuning run's or evolution's best parameters so far (`best.json`), if written.
fn best_json(dir: &Path) -> Value {
    std::fs::read(dir.join(fow_arena::tune::BEST_FILE))
        .ok()
        .and_then(|t| serde_json::from_slice(&t).ok())
        .unwrap_or(Value::Null)
}
