//! The result matrix of whatever `fow rate` reads: a results folder or its `games.csv`, a
//! PGN file or a folder of them, or a result matrix like the thesis's
//! `match_results.txt`.

use std::path::Path;

use fow_ratings::{parse_match_matrix, ResultMatrix, Score};
use fow_records::{games_csv_of, load_games, read_games, GameResult};
use fow_variants::RuleSet;

use crate::error::{input, ReportError};
use crate::tables::{labelled, matrix_of};
use fow_records::count;

/// The result matrix of `path`: a results folder (its `games.csv`) or a `games.csv`, a PGN
/// file or a folder of PGN files (each game replayed under its rules, `rules` for those
/// that name none; undecided games left out, which `note` hears), or a matrix file (row
/// i, column j: `(wins/draws/losses)` of i as White against j). Players are named as
/// every table names them (a program's `name=` where given), in order of first
/// appearance, or in the order of `names`, which must then list exactly them (for a
/// matrix file: its rows' names, default P1, P2, ...). No games is bad input.
pub fn results_matrix(
    path: &Path,
    rules: &RuleSet,
    names: Option<&[String]>,
    note: &mut dyn FnMut(&str),
) -> Result<ResultMatrix, ReportError> {
    let path = &games_csv_of(path);
    let m = if path.is_dir() {
        pgn_matrix(path, rules, names, note)?
    } else {
        let text = std::fs::read(path).map_err(|e| input(format!("{}: {e}", path.display())))?;
        let is_games_csv = path.extension().is_some_and(|x| x == "csv") || text.starts_with(b"id,");
        let is_pgn = path
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case("pgn"))
            || String::from_utf8_lossy(&text)
                .trim_start_matches('\u{feff}')
                .trim_start()
                .starts_with('[');
        if is_pgn {
            pgn_matrix(path, rules, names, note)?
        } else if is_games_csv {
            let games = read_games(path)?;
            let mut players: Vec<String> = Vec::new();
            for g in &games {
                for p in [&g.white, &g.black] {
                    if !players.contains(p) {
                        players.push(p.clone());
                    }
                }
            }
            // Named as every table names them: a program's name= where given.
            let (labels, games) = labelled(&players, games);
            matrix_of(&ordered(path, names, labels)?, &games)?
        } else {
            let text = String::from_utf8(text)
                .map_err(|e| input(format!("{}: not text: {e}", path.display())))?;
            parse_match_matrix(&text, names.map(<[String]>::to_vec))
                .map_err(|e| input(format!("{}: {e}", path.display())))?
        }
    };
    if m.total_games() == 0 {
        return Err(input(format!("{}: no games", path.display())));
    }
    Ok(m)
}

/// The players in `names` order, which must list exactly them.
fn ordered(
    path: &Path,
    names: Option<&[String]>,
    players: Vec<String>,
) -> Result<Vec<String>, ReportError> {
    let Some(order) = names else {
        return Ok(players);
    };
    if order.len() != players.len() || !players.iter().all(|p| order.contains(p)) {
        return Err(input(format!(
            "--names must list exactly the players of {}: {}",
            path.display(),
            players.join(", ")
        )));
    }
    Ok(order.to_vec())
}

/// The result matrix of a PGN file or folder's games (each replayed under its rules,
/// `rules` for those that name none); undecided games are left out with a note.
fn pgn_matrix(
    path: &Path,
    rules: &RuleSet,
    names: Option<&[String]>,
    note: &mut dyn FnMut(&str),
) -> Result<ResultMatrix, ReportError> {
    let games = load_games(path, rules).map_err(input)?;
    let mut players: Vec<String> = Vec::new();
    let mut decided = Vec::new();
    for g in &games {
        let Some(result) = g.result else {
            continue;
        };
        for p in [&g.white, &g.black] {
            if !players.contains(p) {
                players.push(p.clone());
            }
        }
        decided.push((g, result));
    }
    let undecided = games.len() - decided.len();
    if undecided > 0 {
        note(&format!(
            "note: {} of {} left out: undecided (result *)",
            undecided,
            count(games.len(), "game")
        ));
    }
    // Named as every table names them: a program's name= where given.
    let labels = fow_players::player_labels(&players);
    let mut m = ResultMatrix::new(ordered(path, names, labels.clone())?);
    for (g, result) in decided {
        let idx = |name: &String| {
            let label = &labels[players.iter().position(|p| p == name).expect("listed")];
            m.index_of(label).expect("every player was listed")
        };
        let (w, b) = (idx(&g.white), idx(&g.black));
        let score = match result {
            GameResult::WhiteWins => Score::Win,
            GameResult::BlackWins => Score::Loss,
            GameResult::Draw => Score::Draw,
        };
        m.add_game(w, b, score)
            .map_err(|e| input(format!("{}: {e}", g.source)))?;
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PGN: &str = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
                       [White \"B\"]\n[Black \"A\"]\n[Result \"*\"]\n\n1. d4 *\n";

    fn write(name: &str, text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("written");
        (dir, path)
    }

    /// A PGN file's decided games count; the undecided one is left out with a note.
    #[test]
    fn pgn_games_make_the_matrix_and_undecided_ones_a_note() {
        let (_dir, path) = write("games.pgn", PGN);
        let mut notes = Vec::new();
        let m = results_matrix(&path, &RuleSet::thesis(), None, &mut |n| {
            notes.push(n.to_string())
        })
        .expect("a matrix");
        assert_eq!(m.total_games(), 1);
        assert_eq!(notes, ["note: 1 of 2 games left out: undecided (result *)"]);
        let names = ["B".to_string(), "A".to_string()];
        let m =
            results_matrix(&path, &RuleSet::thesis(), Some(&names), &mut |_| {}).expect("a matrix");
        assert_eq!(m.index_of("B"), Some(0));
        let wrong = ["A".to_string(), "C".to_string()];
        let err = results_matrix(&path, &RuleSet::thesis(), Some(&wrong), &mut |_| {});
        assert!(
            matches!(&err, Err(ReportError::Input(m)) if m.ends_with(": A, B") && m.starts_with("--names must list exactly the players of ")),
            "{:?}",
            err.err()
        );
    }

    /// A matrix file takes its names from `names`; one without games is bad input.
    #[test]
    fn a_matrix_file_is_read_and_an_empty_one_refused() {
        let (_dir, path) = write("m.txt", "(---/---/---) (2/1/0)\n(0/0/1) (---/---/---)\n");
        let names = ["X".to_string(), "Y".to_string()];
        let m =
            results_matrix(&path, &RuleSet::thesis(), Some(&names), &mut |_| {}).expect("a matrix");
        assert_eq!(m.total_games(), 4);
        assert_eq!(m.index_of("Y"), Some(1));
        let (_dir, empty) = write("e.txt", "(---/---/---) (0/0/0)\n(0/0/0) (---/---/---)\n");
        let err = results_matrix(&empty, &RuleSet::thesis(), None, &mut |_| {}).err();
        assert!(matches!(err, Some(ReportError::Input(m)) if m.ends_with("e.txt: no games")));
    }
}
