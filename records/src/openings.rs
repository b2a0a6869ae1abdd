//! Start positions for a run of games (`--openings FILE`): read from an EPD/FEN list or
//! from the first plies of the games of a PGN file (or of a folder of PGN files), checked
//! under the run's rules, stored in `tournament.json` and handed out by round.
//!
//! Every game of round `r` (the `r`-th meeting of each pair of players, 0-based) starts
//! from the same position: [`Openings::index_of_round`] picks it, in file order
//! (`sequential`) or in an order shuffled once under the run's key (`random`), starting
//! over after the last. Since a round holds both colourings of every meeting, each
//! opening is played as a pair, once with each colour.
//!
//! A start position is public: both players are told all of it, as they know the
//! standard start.

use std::fs;
use std::path::Path;

use fow_variants::{read_pgn_games, Position, RuleSet};
use serde::{Deserialize, Serialize};

use crate::error::RecordError;
use crate::files::io_err;
use crate::files::pgn_files;
use crate::record::Reason;
use crate::seed::SeedKey;

/// The order in which the rounds take the openings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OpeningOrder {
    /// In file order, starting over after the last.
    #[default]
    Sequential,
    /// In an order shuffled once under the run's seed or key (a permutation, so every
    /// opening comes once before any comes again), starting over after the last.
    Random,
}

impl std::str::FromStr for OpeningOrder {
    type Err = String;
    fn from_str(s: &str) -> Result<OpeningOrder, String> {
        match s {
            "sequential" => Ok(OpeningOrder::Sequential),
            "random" => Ok(OpeningOrder::Random),
            _ => Err(format!(
                "unknown opening order '{s}' (sequential or random)"
            )),
        }
    }
}

impl std::fmt::Display for OpeningOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            OpeningOrder::Sequential => "sequential",
            OpeningOrder::Random => "random",
        })
    }
}

/// The start positions of a run, as `tournament.json` stores them: the positions
/// themselves, so that a results folder replays and resumes without the file they came
/// from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Openings {
    /// The file (or folder of PGN files) they were read from, as given (for people: the
    /// positions below are what is played).
    pub source: String,
    /// For PGN: the plies of each game played to reach its position (`None`: all of them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plies: Option<u32>,
    /// The order the rounds take them in.
    pub order: OpeningOrder,
    /// The positions as FEN ([`Position::fen`]), in file order.
    pub positions: Vec<String>,
}

/// What [`Openings::read`] read, besides the openings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpeningsReport {
    /// PGN games left out because they end, or are decided, within the plies asked for.
    pub skipped: usize,
    /// The first of them, as `FILE line N: why`.
    pub first_skipped: Option<String>,
    /// How many different positions there are.
    pub distinct: usize,
}

/// Why `pos` cannot start a game under `rules`, if it cannot: the game would already be
/// over (the no-progress draw has come, the side to move has no legal move) or decided
/// (the side to move can capture the king). The checks of [`Position::from_fen`] (one
/// king each, no pawn on a back rank, consistent castling rights and en passant square)
/// come first, when the position is read.
///
/// ```
/// use fow_records::check_start;
/// use fow_variants::{Position, RuleSet};
/// let rules = RuleSet::chesscom();
/// assert!(check_start(&Position::startpos(), &rules).is_ok());
/// let over: Position = "4k3/8/8/8/8/8/4P3/4K3 w - - 100 80".parse().unwrap();
/// assert!(check_start(&over, &rules).unwrap_err().contains("already drawn"));
/// let decided: Position = "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1".parse().unwrap();
/// assert!(check_start(&decided, &rules).unwrap_err().contains("capture the king"));
/// ```
pub fn check_start(pos: &Position, rules: &RuleSet) -> Result<(), String> {
    if let Some(limit) = rules.draw_plies {
        if pos.halfmoves() >= limit {
            return Err(format!(
                "the game is already drawn: the half-move clock is {}, and the rules ({rules}) draw after {limit} plies without a capture or a pawn move",
                pos.halfmoves()
            ));
        }
    }
    let moves = pos.legal_moves(rules);
    let mover = fow_variants::side_name(pos.turn());
    if moves.is_empty() {
        return Err(format!("{mover} is to move and has no legal move"));
    }
    if moves.iter().any(|m| m.captures_king()) {
        return Err(format!(
            "{mover} is to move and can capture the king: the game is decided"
        ));
    }
    Ok(())
}

impl Openings {
    /// Reads the start positions of `path` for games under `rules`: a PGN file or a
    /// folder of PGN files (by the `.pgn` extension, or a first line that is a PGN tag),
    /// each game giving the position after its first `plies` plies (all of them when
    /// `None`); else an EPD or FEN list, one position per line (`#` starts a comment
    /// line; an EPD line's `hmvc` and `fmvn` operations give its clocks).
    ///
    /// A line that does not read, a PGN move that is not legal under `rules`, or a
    /// position that cannot start a game ([`check_start`]) is an error naming the file
    /// and line. PGN games that end, or are decided, within `plies` are left out and
    /// counted in the report; a file with no position left is an error.
    pub fn read(
        path: &Path,
        rules: &RuleSet,
        plies: Option<u32>,
        order: OpeningOrder,
    ) -> Result<(Openings, OpeningsReport), RecordError> {
        if plies == Some(0) {
            return Err(RecordError::Settings(
                "--opening-plies must be at least 1 (leave --openings out to start from the standard position)".into(),
            ));
        }
        let mut report = OpeningsReport::default();
        let positions = if is_pgn(path)? {
            let mut v = Vec::new();
            for file in pgn_files(path)? {
                read_pgn_openings(&file, rules, plies, &mut v, &mut report)?;
            }
            v
        } else {
            if plies.is_some() {
                return Err(RecordError::Settings(format!(
                    "--opening-plies is for PGN openings, and {} is an EPD/FEN list",
                    path.display()
                )));
            }
            read_epd(path, rules)?
        };
        if positions.is_empty() {
            let why = match &report.first_skipped {
                Some(first) => {
                    let games = match report.skipped {
                        1 => "game ends or is",
                        _ => "games end or are",
                    };
                    let plies = plies.unwrap_or(0);
                    format!(
                        "; {} {games} decided within {plies} {} (first: {first})",
                        report.skipped,
                        if plies == 1 { "ply" } else { "plies" }
                    )
                }
                None => String::new(),
            };
            return Err(RecordError::Settings(format!(
                "{} holds no start position{why}",
                path.display()
            )));
        }
        let fens: Vec<String> = positions.iter().map(Position::fen).collect();
        let mut distinct = fens.clone();
        distinct.sort();
        distinct.dedup();
        report.distinct = distinct.len();
        Ok((
            Openings {
                source: path.display().to_string(),
                plies,
                order,
                positions: fens,
            },
            report,
        ))
    }

    /// The positions, read back and checked under `rules` (as stored in a
    /// `tournament.json`, which a person may have edited); the error gives the index of
    /// the first wrong one and says what is wrong, naming it (1-based).
    pub fn parsed(&self, rules: &RuleSet) -> Result<Vec<Position>, (usize, String)> {
        if self.positions.is_empty() {
            return Err((0, "the openings list no position".into()));
        }
        self.positions
            .iter()
            .enumerate()
            .map(|(i, fen)| {
                let bad = |e: String| (i, format!("opening {} ('{fen}'): {e}", i + 1));
                let pos = Position::from_fen(fen).map_err(|e| bad(e.to_string()))?;
                check_start(&pos, rules).map_err(bad)?;
                Ok(pos)
            })
            .collect()
    }

    /// The order the rounds take the openings in: indices into `positions`, in file
    /// order, or shuffled (Fisher–Yates) by SipHash-2-4 draws under `key` (without a
    /// key, file order).
    pub fn sequence(&self, key: Option<&SeedKey>) -> Vec<usize> {
        let n = self.positions.len();
        let mut order: Vec<usize> = (0..n).collect();
        if let (OpeningOrder::Random, Some(key)) = (self.order, key) {
            for i in (1..n).rev() {
                let draw = key.derive(&[b"openings", &(i as u64).to_le_bytes()]);
                // A 64-bit draw modulo at most 10^7: the bias is below 10^-12.
                let j = (draw % (i as u64 + 1)) as usize;
                order.swap(i, j);
            }
        }
        order
    }

    /// The opening of round `round`, as an index into `positions`, given the
    /// [`Openings::sequence`].
    pub fn index_of_round(sequence: &[usize], round: u32) -> usize {
        sequence[round as usize % sequence.len()]
    }
}

/// Whether `path` is PGN: a folder (of PGN files), a `.pgn` file, or a file whose first
/// non-blank line is a PGN tag.
fn is_pgn(path: &Path) -> Result<bool, RecordError> {
    if path.is_dir()
        || path
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case("pgn"))
    {
        return Ok(true);
    }
    let bytes = fs::read(path).map_err(io_err(path))?;
    let text = String::from_utf8_lossy(&bytes);
    Ok(text
        .lines()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| l.trim_start().starts_with('[')))
}

/// Reads an EPD or FEN list.
fn read_epd(path: &Path, rules: &RuleSet) -> Result<Vec<Position>, RecordError> {
    let bytes = fs::read(path).map_err(io_err(path))?;
    let bad = |line: usize, message: String| RecordError::Format {
        path: path.to_path_buf(),
        line: line as u64,
        message,
    };
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        bad(line, "not UTF-8 text: not an EPD or FEN list".into())
    })?;
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = Position::from_epd(line).map_err(|e| bad(i + 1, e.to_string()))?;
        check_start(&pos, rules).map_err(|e| bad(i + 1, format!("{e} ('{}')", pos.fen())))?;
        positions.push(pos);
    }
    Ok(positions)
}

/// Reads the openings of one PGN file into `out`.
fn read_pgn_openings(
    path: &Path,
    rules: &RuleSet,
    plies: Option<u32>,
    out: &mut Vec<Position>,
    report: &mut OpeningsReport,
) -> Result<(), RecordError> {
    let bytes = fs::read(path).map_err(io_err(path))?;
    let text = String::from_utf8(bytes).map_err(|_| RecordError::Format {
        path: path.to_path_buf(),
        line: 1,
        message: "not UTF-8 text: not a PGN file".into(),
    })?;
    let bad = |line: usize, message: String| RecordError::Format {
        path: path.to_path_buf(),
        line: line as u64,
        message,
    };
    for game in read_pgn_games(&text) {
        let mut game = game.map_err(|e| bad(e.line, e.message))?;
        let want = plies.map_or(game.moves.len(), |p| p as usize);
        let line = game.line;
        let mut skip = |why: String| {
            report.skipped += 1;
            report
                .first_skipped
                .get_or_insert_with(|| format!("{} line {line}: {why}", path.display()));
        };
        if game.moves.len() < want {
            skip(format!("the game has {} plies", game.moves.len()));
            continue;
        }
        game.moves.truncate(want);
        game.move_lines.truncate(want);
        let replay = game
            .replay(rules)
            .map_err(|e| bad(e.line, format!("{} (rules {rules})", e.message)))?;
        if let Some(o) = replay.outcome {
            skip(format!(
                "the game ends at ply {} ({})",
                replay.moves.len(),
                Reason::from(o.end)
            ));
            continue;
        }
        let pos = replay.positions.last().expect("the start position").clone();
        if let Err(why) = check_start(&pos, rules) {
            skip(why);
            continue;
        }
        out.push(pos);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_random_order_is_a_permutation_fixed_by_the_key() {
        let o = Openings {
            source: "x".into(),
            plies: None,
            order: OpeningOrder::Random,
            positions: vec![Position::startpos().fen(); 50],
        };
        let a = o.sequence(Some(&SeedKey::public(1)));
        let b = o.sequence(Some(&SeedKey::public(1)));
        let c = o.sequence(Some(&SeedKey::public(2)));
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(
            a, sorted,
            "50 openings stay in file order with chance 1/50!"
        );
        let seq = Openings {
            order: OpeningOrder::Sequential,
            ..o
        };
        assert_eq!(seq.sequence(Some(&SeedKey::public(1))), sorted);
        assert_eq!(Openings::index_of_round(&sorted, 53), 3);
    }
}
