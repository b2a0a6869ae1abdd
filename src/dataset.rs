//! `fow dataset`: recorded games -> training examples for the network.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use fow_arena::read_games;
use fow_players::nn::dataset::{game_examples, write_dataset, DatasetHeader, Example};
use fow_variants::{read_pgn, Color, RuleSet};

use crate::error::{input, CliError};
use crate::inputs::{pgn_files, tournament_rules};
use crate::out::count;

/// Turn recorded games into training examples for the neural network.
///
/// One example per decision of a selected side: what that side saw (its view now and
/// after its previous move) and the move it played, with the game's result. Inputs are
/// `games.csv` files of tournaments (rules from the `tournament.json` beside each) and
/// PGN files or folders of them (rules: --rules, else a game's `Rules` tag as `fow export`
/// writes it, else `chesscom`). The
/// output is a compact binary file (see `fow_players::nn::dataset`); the same inputs
/// give the same file.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Results folders (read as their `games.csv`), `games.csv` files, `.pgn` files or
    /// folders of `.pgn` files.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// Where to write the dataset.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Take only the decisions of this player (a PGN player name such as `oferwald`, or a
    /// bot name / spec in a games.csv such as `PossibleBoardList`); repeatable. Without
    /// it, both sides of every game.
    #[arg(long, value_name = "NAME")]
    pub player: Vec<String>,
    /// Rules for every PGN game, overriding its `Rules` tag (default: the game's `Rules` tag,
    /// else `chesscom`).
    #[arg(long, value_name = "PRESET")]
    pub rules: Option<String>,
}

/// Whether a side named `name` is selected.
fn selected(players: &[String], name: &str) -> bool {
    players.is_empty()
        || players
            .iter()
            .any(|p| p == name || name.split(':').next() == Some(p.as_str()))
}

/// Reads the inputs and writes the dataset.
pub fn run(a: Args) -> Result<(), CliError> {
    let pgn_rules: RuleSet = match &a.rules {
        Some(r) => r.parse().map_err(input)?,
        None => RuleSet::chesscom(),
    };
    let _lock = crate::inputs::lock_parent(&a.out)?;
    let mut examples: Vec<Example> = Vec::new();
    let mut rules_seen: Option<RuleSet> = None;
    let mut seen = HashSet::new();
    let (mut games, mut used, mut duplicates) = (0usize, 0usize, 0usize);
    let mut check_rules = |r: RuleSet, path: &Path| -> Result<(), CliError> {
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
    for path in &a.inputs {
        let path = &fow_arena::games_csv_of(path);
        let is_csv = path.extension().is_some_and(|e| e == "csv");
        if is_csv {
            let rules = tournament_rules(path)?;
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
                let (w, b) = (
                    selected(&a.player, &row.white),
                    selected(&a.player, &row.black),
                );
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
                let text = fow_arena::read_text(&file)?;
                let pgn = read_pgn(&text)
                    .map_err(|e| input(format!("{}:{}: {}", file.display(), e.line, e.message)))?;
                for (k, g) in pgn.iter().enumerate() {
                    games += 1;
                    let bad =
                        |line: usize, m: String| input(format!("{}:{line}: {m}", file.display()));
                    // --rules wins; else the game's own Rules tag (fow's PGN), else chesscom.
                    let rules = match a.rules {
                        Some(_) => pgn_rules,
                        None => fow_arena::pgn_rules(g, &pgn_rules).map_err(|m| bad(g.line, m))?,
                    };
                    // Every game is checked, selected or not.
                    let replay = fow_arena::check_pgn_game(g, &rules)
                        .map_err(|e| bad(e.line, format!("game {}: {}", k + 1, e.message)))?;
                    let name = |tag: &str| g.tag(tag).unwrap_or("").to_string();
                    let (w, b) = (
                        selected(&a.player, &name("White")),
                        selected(&a.player, &name("Black")),
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
    if examples.is_empty() {
        return Err(input(format!(
            "no decisions selected{}",
            if a.player.is_empty() {
                String::new()
            } else {
                format!(" (no side named {})", a.player.join(", "))
            }
        )));
    }
    let header = DatasetHeader {
        examples: examples.len() as u64,
        sources: a.inputs.iter().map(|p| p.display().to_string()).collect(),
        selection: if a.player.is_empty() {
            "both sides".into()
        } else {
            a.player.join(", ")
        },
        rules: rules_seen.unwrap_or(pgn_rules),
    };
    let file = std::fs::File::create(&a.out)
        .map_err(|e| CliError::Failed(format!("{}: {e}", a.out.display())))?;
    let mut w = std::io::BufWriter::new(file);
    write_dataset(&mut w, &header, &examples)
        .map_err(|e| CliError::Failed(format!("{}: {e}", a.out.display())))?;
    let wins = examples.iter().filter(|e| e.result > 0).count();
    outln!(
        "{} read ({} skipped), {used} used, {} of {} ({:.0}% from won games), rules {}",
        count(games, "game"),
        count(duplicates, "duplicate"),
        count(examples.len(), "example"),
        header.selection,
        100.0 * wins as f64 / examples.len() as f64,
        header.rules
    );
    outln!(
        "written to {} ({} bytes per example)",
        a.out.display(),
        Example::BYTES
    );
    Ok(())
}
