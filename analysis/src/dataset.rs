//! Training examples for the network from recorded games (`fow dataset`): every
//! decision of the selected sides of `games.csv` files and PGN files, each game checked
//! as it is read, a game found in several inputs counted once.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use fow_players::nn::dataset::{game_examples, Example};
use fow_records::{games_csv_of, pgn_files, read_games, rules_beside};
use fow_variants::{read_pgn, Color, RuleSet};

use crate::error::{input, ReportError};

/// What [`gather_examples`] read.
#[derive(Clone, Debug, Default)]
pub struct Gathered {
    /// The examples, in input order.
    pub examples: Vec<Example>,
    /// The rules of the games used (`None`: no game used).
    pub rules: Option<RuleSet>,
    /// Games read.
    pub games: usize,
    /// Games used (not a duplicate, not ended by a player fault, a side selected).
    pub used: usize,
    /// `games.csv` games skipped as already read from another input.
    pub duplicates: usize,
}

/// Whether a side named `name` is selected.
fn selected(players: &[String], name: &str) -> bool {
    players.is_empty()
        || players
            .iter()
            .any(|p| p == name || name.split(':').next() == Some(p.as_str()))
}

/// Reads every input (a results folder, a `games.csv`, a PGN file or a folder of them)
/// and returns the examples of the decisions of `players` (a PGN player name, or a bot
/// name or spec in a games.csv; empty: both sides of every game). PGN games are replayed
/// under `forced` rules where given, else their `Rules` tag, else chesscom; a games.csv's
/// under the rules of the `tournament.json` beside it. Inputs of different rules are an
/// error (a dataset has one rule set).
pub fn gather_examples(
    inputs: &[PathBuf],
    players: &[String],
    forced: Option<RuleSet>,
) -> Result<Gathered, ReportError> {
    let pgn_rules = forced.unwrap_or(RuleSet::chesscom());
    let mut examples: Vec<Example> = Vec::new();
    let mut rules_seen: Option<RuleSet> = None;
    let mut seen = HashSet::new();
    let (mut games, mut used, mut duplicates) = (0usize, 0usize, 0usize);
    let mut check_rules = |r: RuleSet, path: &Path| -> Result<(), ReportError> {
        match rules_seen {
            None => rules_seen = Some(r),
            Some(prev) if prev != r => {
                return Err(input(format!(
                    "{}: rules {r} differ from the other inputs' ({prev}); make one dataset per rule set",
                    path.display()
                )))
            }
            _ => {}
        }
        Ok(())
    };
    for path in inputs {
        let path = &games_csv_of(path);
        let is_csv = path.extension().is_some_and(|e| e == "csv");
        if is_csv {
            let rules = rules_beside(path)?;
            check_rules(rules, path)?;
            let rows = read_games(path).map_err(input)?;
            for (i, row) in rows.iter().enumerate() {
                games += 1;
                if !seen.insert((
                    row.white.clone(),
                    row.black.clone(),
                    row.seed,
                    row.start.clone(),
                    row.moves.clone(),
                )) {
                    duplicates += 1;
                    continue;
                }
                let bad = |e: String| input(format!("{}:{}: {e}", path.display(), i + 2));
                if row.game_reason().map_err(bad)?.is_fault() {
                    continue;
                }
                let winner = row.game_result().map_err(bad)?.winner();
                let (w, b) = (selected(players, &row.white), selected(players, &row.black));
                if !(w || b) {
                    continue;
                }
                let moves = row.legal_moves(&rules).map_err(bad)?;
                let start = row.start_position().map_err(bad)?;
                let ex = game_examples(&start, &moves, &rules, winner, |c| {
                    if c == Color::White {
                        w
                    } else {
                        b
                    }
                })
                .map_err(bad)?;
                used += 1;
                examples.extend(ex);
            }
        } else {
            for file in pgn_files(path)? {
                let text = fow_records::read_text(&file)?;
                let pgn = read_pgn(&text)
                    .map_err(|e| input(format!("{}:{}: {}", file.display(), e.line, e.message)))?;
                for (k, g) in pgn.iter().enumerate() {
                    games += 1;
                    let bad =
                        |line: usize, m: String| input(format!("{}:{line}: {m}", file.display()));
                    // --rules wins; else the game's own Rules tag (fow's PGN), else chesscom.
                    let rules = match forced {
                        Some(_) => pgn_rules,
                        None => {
                            fow_records::pgn_rules(g, &pgn_rules).map_err(|m| bad(g.line, m))?
                        }
                    };
                    // Every game is checked, selected or not.
                    let replay = fow_records::check_pgn_game(g, &rules)
                        .map_err(|e| bad(e.line, format!("game {}: {}", k + 1, e.message)))?;
                    let name = |tag: &str| g.tag(tag).unwrap_or("").to_string();
                    let (w, b) = (
                        selected(players, &name("White")),
                        selected(players, &name("Black")),
                    );
                    if !(w || b) {
                        continue;
                    }
                    check_rules(rules, &file)?;
                    let start = g.start_position().map_err(|e| bad(e.line, e.message))?;
                    let winner = g.result.and_then(|r| r.winner());
                    let ex = game_examples(&start, &replay.moves, &rules, winner, |c| {
                        if c == Color::White {
                            w
                        } else {
                            b
                        }
                    })
                    .map_err(|e| bad(g.line, e))?;
                    used += 1;
                    examples.extend(ex);
                }
            }
        }
    }
    Ok(Gathered {
        examples,
        rules: rules_seen,
        games,
        used,
        duplicates,
    })
}
