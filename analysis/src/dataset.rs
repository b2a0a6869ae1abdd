//! Training examples for the network from recorded games (`fow dataset`): every
//! decision of the selected sides of `games.csv` files and PGN files, each game checked
//! as it is read, a game found in several inputs counted once; and the dataset file
//! they make.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use fow_players::nn::dataset::{game_examples, write_dataset, DatasetHeader, Example};
use fow_records::{games_csv_of, pgn_files, read_games, rules_beside};
use fow_variants::{read_pgn, Color, RuleSet};

use crate::error::{input, write_failed, ReportError};
use fow_records::count;

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

impl Gathered {
    /// What was read and kept, in a line (`fow dataset`): games read and skipped, games
    /// used, the examples of `header`'s selection and how many come from won games, the
    /// rules.
    pub fn summary(&self, header: &DatasetHeader) -> String {
        let wins = self.examples.iter().filter(|e| e.result > 0).count();
        format!(
            "{} read ({} skipped), {} used, {} of {} ({:.0}% from won games), rules {}",
            count(self.games, "game"),
            count(self.duplicates, "duplicate"),
            self.used,
            count(self.examples.len(), "example"),
            header.selection,
            100.0 * wins as f64 / self.examples.len() as f64,
            header.rules
        )
    }
}

/// `fow dataset`: the examples of `players` in `inputs` ([`gather_examples`]) written to
/// `out` as a dataset file, whose header names the inputs, the selection and the rules
/// (those of the games, else `forced`, else chesscom). No example selected is bad input
/// and writes nothing. Returns the header and what was read.
pub fn write_examples(
    inputs: &[PathBuf],
    players: &[String],
    forced: Option<RuleSet>,
    out: &Path,
) -> Result<(DatasetHeader, Gathered), ReportError> {
    let gathered = gather_examples(inputs, players, forced)?;
    if gathered.examples.is_empty() {
        return Err(input(format!(
            "no decisions selected{}",
            if players.is_empty() {
                String::new()
            } else {
                format!(" (no side named {})", players.join(", "))
            }
        )));
    }
    let header = DatasetHeader {
        examples: gathered.examples.len() as u64,
        sources: inputs.iter().map(|p| p.display().to_string()).collect(),
        selection: if players.is_empty() {
            "both sides".into()
        } else {
            players.join(", ")
        },
        rules: gathered
            .rules
            .unwrap_or(forced.unwrap_or(RuleSet::chesscom())),
    };
    let file = std::fs::File::create(out).map_err(|e| write_failed(out, e))?;
    let mut w = std::io::BufWriter::new(file);
    write_dataset(&mut w, &header, &gathered.examples).map_err(|e| write_failed(out, e))?;
    Ok((header, gathered))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn chesscom() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/chesscom-fow/game-000.pgn")
    }

    /// The file reads back with its header; the summary counts what was read and kept.
    #[test]
    fn examples_are_written_with_their_header() {
        let dir = tempfile::tempdir().expect("temp dir");
        let out = dir.path().join("d.bin");
        let players = ["oferwald".to_string()];
        let (header, gathered) =
            write_examples(&[chesscom()], &players, None, &out).expect("written");
        assert_eq!(header.selection, "oferwald");
        assert_eq!(header.rules, RuleSet::chesscom());
        assert_eq!(header.examples, gathered.examples.len() as u64);
        let file = std::fs::File::open(&out).expect("a file");
        let (back, examples) =
            fow_players::nn::dataset::read_dataset(&mut std::io::BufReader::new(file))
                .expect("a dataset");
        assert_eq!(back.sources, [chesscom().display().to_string()]);
        assert_eq!(examples.len(), gathered.examples.len());
        let n = examples.len();
        assert_eq!(
            gathered.summary(&header),
            format!("1 game read (0 duplicates skipped), 1 used, {n} examples of oferwald (100% from won games), rules chesscom")
        );
    }

    /// No side selected: bad input naming the names, and no file.
    #[test]
    fn nothing_selected_is_bad_input() {
        let dir = tempfile::tempdir().expect("temp dir");
        let out = dir.path().join("d.bin");
        let players = ["nobody".to_string()];
        let err = write_examples(&[chesscom()], &players, None, &out).err();
        assert!(
            matches!(&err, Some(ReportError::Input(m)) if m == "no decisions selected (no side named nobody)"),
            "{err:?}"
        );
        assert!(!out.exists());
    }
}
