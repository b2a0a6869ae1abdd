//! Opening names by position: the ECO code and name of the deepest position of a game
//! that an opening table knows, and the ply where the game leaves the table.
//!
//! The table is Lichess's chess-openings list (CC0; `records/data/openings.tsv`, where
//! its README says which commits), embedded and read on first use
//! ([`OpeningTable::standard`]). Each line's moves are played from the standard start
//! (standard chess, shakmaty's SAN reader) and the position they reach is the line's key,
//! so a game finds a name by position whatever its move order (transpositions), as
//! Polyglot books are probed.
//!
//! A position's key ([`opening_key`]) is a Zobrist hash of the pieces, the side to move
//! and the castling rights, without the en passant square: the thesis's rules have no
//! en passant and chess.com's do, and a name should not depend on a capture that lasts
//! one ply, so no rule set's games are keyed by it.
//!
//! ```
//! use fow_records::OpeningTable;
//! use fow_variants::{Position, RuleSet};
//! let rules = RuleSet::chesscom();
//! let mut positions = vec![Position::startpos()];
//! for uci in ["e2e4", "c7c5", "d1h5"] {
//!     let mut p = positions.last().unwrap().clone();
//!     let m = p.parse_uci(uci, &rules).unwrap();
//!     p.play(&m);
//!     positions.push(p);
//! }
//! let o = OpeningTable::standard().identify(&positions).unwrap();
//! assert_eq!((o.eco.as_str(), o.name.as_str()), ("B20", "Sicilian Defense"));
//! assert_eq!((o.ply, o.out_of_book), (2, Some(3))); // 2. Qh5 leaves the table
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use fow_variants::shakmaty::san::San;
use fow_variants::shakmaty::zobrist::{Zobrist64, ZobristValue};
use fow_variants::shakmaty::{
    Bitboard, Board, CastlingSide, Chess, Color, File, Position as _, Rank,
};
use fow_variants::Position;
use serde::{Deserialize, Serialize};

use crate::error::RecordError;

/// The table fow ships (Lichess's chess-openings, `a.tsv` to `e.tsv` joined).
const STANDARD_TEXT: &str = include_str!("../data/openings.tsv");
/// The name errors give the shipped table: its path in the repository.
const STANDARD_PATH: &str = "records/data/openings.tsv";
/// A table's header line; each joined file keeps its own.
const HEADER: &str = "eco\tname\tpgn";

/// One line of an opening table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningName {
    /// The ECO code, `A00` to `E99`.
    pub eco: String,
    /// The name, `Family: Variation, Line`.
    pub name: String,
    /// The moves from the standard start, as the table writes them.
    pub moves: String,
    /// Plies of `moves`.
    pub plies: usize,
    /// The 1-based line of the table it came from.
    pub line: u64,
}

/// What the table says about one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameOpening {
    /// The ECO code of the deepest (last) position of the game that the table names.
    pub eco: String,
    /// Its name.
    pub name: String,
    /// The plies played to reach that position (0: the start position itself).
    pub ply: usize,
    /// The ply whose move leaves the table for good (`ply + 1`: no later position is in
    /// it); `None` when the game ends in a position the table names.
    pub out_of_book: Option<usize>,
}

/// An opening table: names by position key ([`opening_key`]).
#[derive(Clone, Debug)]
pub struct OpeningTable {
    names: Vec<OpeningName>,
    by_key: HashMap<u64, usize>,
}

impl OpeningTable {
    /// The shipped table, read on first use. It is checked by the crate's tests, so a
    /// failure to read it is a bug in fow, not bad input.
    pub fn standard() -> &'static OpeningTable {
        static TABLE: OnceLock<OpeningTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            OpeningTable::parse(Path::new(STANDARD_PATH), STANDARD_TEXT)
                .unwrap_or_else(|e| panic!("the shipped opening table: {e}"))
        })
    }

    /// Reads a table in Lichess's TSV format: lines `eco<TAB>name<TAB>moves` (header
    /// lines `eco<TAB>name<TAB>pgn` allowed anywhere, as in joined files), the moves in
    /// SAN from the standard start with optional move numbers. A malformed line (a wrong
    /// number of columns, an ECO code outside A00-E99, no name, no moves, a move that is
    /// not legal there) is an error naming `path` and the line. When several lines reach
    /// the same position the first one names it.
    ///
    /// ```
    /// use std::path::Path;
    /// use fow_records::OpeningTable;
    /// let t = OpeningTable::parse(Path::new("t.tsv"), "eco\tname\tpgn\nB20\tSicilian\t1. e4 c5\n").unwrap();
    /// assert_eq!(t.len(), 1);
    /// let e = OpeningTable::parse(Path::new("t.tsv"), "B20\tSicilian\t1. e4 c6 2. Ke3\n").unwrap_err();
    /// assert_eq!(e.to_string(), "t.tsv:1: move 'Ke3' (ply 3) is not legal there: illegal san");
    /// ```
    pub fn parse(path: &Path, text: &str) -> Result<OpeningTable, RecordError> {
        let mut table = OpeningTable {
            names: Vec::new(),
            by_key: HashMap::new(),
        };
        for (i, raw) in text.lines().enumerate() {
            let line = i as u64 + 1;
            let bad = |message: String| RecordError::Format {
                path: path.to_path_buf(),
                line,
                message,
            };
            let row = raw.strip_suffix('\r').unwrap_or(raw);
            if row == HEADER || row.trim().is_empty() {
                continue;
            }
            let (name, key) = read_line(row).map_err(bad)?;
            let index = table.names.len();
            table.by_key.entry(key).or_insert(index);
            table.names.push(OpeningName { line, ..name });
        }
        if table.names.is_empty() {
            return Err(RecordError::Format {
                path: PathBuf::from(path),
                line: 1,
                message: "no openings: an opening table has lines eco<TAB>name<TAB>pgn".into(),
            });
        }
        Ok(table)
    }

    /// How many lines the table has.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the table has no lines (never, for a table [`OpeningTable::parse`] made).
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// How many different positions the table names (lines reaching the same position
    /// count once).
    pub fn positions(&self) -> usize {
        self.by_key.len()
    }

    /// The table's lines, in file order.
    pub fn names(&self) -> &[OpeningName] {
        &self.names
    }

    /// The name of `pos`, if the table knows it.
    pub fn lookup(&self, pos: &Position) -> Option<&OpeningName> {
        self.by_key.get(&position_key(pos)).map(|&i| &self.names[i])
    }

    /// The opening of a game given as its positions (the start, then one per ply): the
    /// name of the last position the table knows, with its ply and the ply that leaves
    /// the table; `None` when no position is in the table.
    pub fn identify(&self, positions: &[Position]) -> Option<GameOpening> {
        let (ply, name) = positions
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, p)| self.lookup(p).map(|n| (i, n)))?;
        Some(GameOpening {
            eco: name.eco.clone(),
            name: name.name.clone(),
            ply,
            out_of_book: (ply + 1 < positions.len()).then_some(ply + 1),
        })
    }
}

/// One table line read: the name (its line number still to set) and the key of the
/// position its moves reach.
fn read_line(row: &str) -> Result<(OpeningName, u64), String> {
    let fields: Vec<&str> = row.split('\t').collect();
    let [eco, name, moves] = fields[..] else {
        return Err(format!(
            "{} tab-separated columns, an opening table has 3 (eco, name, pgn)",
            fields.len()
        ));
    };
    let b = eco.as_bytes();
    if !(b.len() == 3 && (b'A'..=b'E').contains(&b[0]) && b[1..].iter().all(u8::is_ascii_digit)) {
        return Err(format!(
            "ECO code '{}' is not a letter A to E and two digits",
            fow_variants::printable(eco)
        ));
    }
    if name.trim().is_empty() {
        return Err("the name is empty".into());
    }
    let mut pos = Chess::default();
    let mut plies = 0;
    for token in moves.split_whitespace() {
        let number = token.trim_end_matches('.');
        if number.len() < token.len() && number.bytes().all(|c| c.is_ascii_digit()) {
            continue;
        }
        plies += 1;
        let m = San::from_ascii(token.as_bytes())
            .map_err(|e| e.to_string())
            .and_then(|san| san.to_move(&pos).map_err(|e| e.to_string()))
            .map_err(|e| {
                format!(
                    "move '{}' (ply {plies}) is not legal there: {e}",
                    fow_variants::printable(token)
                )
            })?;
        pos.play_unchecked(m);
    }
    if plies == 0 {
        return Err("no moves".into());
    }
    let key = opening_key(pos.board(), pos.turn(), pos.castles().castling_rights());
    let name = OpeningName {
        eco: eco.to_string(),
        name: name.to_string(),
        moves: moves.to_string(),
        plies,
        line: 0,
    };
    Ok((name, key))
}

/// The key of a fow position: [`opening_key`] of its pieces, side to move and castling
/// rights.
pub fn position_key(pos: &Position) -> u64 {
    opening_key(pos.board(), pos.turn(), pos.castling_rights())
}

/// A position's key in an opening table: the Zobrist hash (shakmaty's Polyglot-style
/// 64-bit values) of the pieces, the side to move and the castling rights (`castling`:
/// the rook squares that keep one), without the en passant square.
pub fn opening_key(board: &Board, turn: Color, castling: Bitboard) -> u64 {
    let mut h = Zobrist64::default();
    for sq in board.occupied() {
        if let Some(piece) = board.piece_at(sq) {
            h ^= Zobrist64::zobrist_for_piece(sq, piece);
        }
    }
    if turn.is_white() {
        h ^= Zobrist64::zobrist_for_white_turn();
    }
    for rook in castling {
        let color = if rook.rank() == Rank::First {
            Color::White
        } else {
            Color::Black
        };
        let side = if rook.file() == File::A {
            CastlingSide::QueenSide
        } else {
            CastlingSide::KingSide
        };
        h ^= Zobrist64::zobrist_for_castling_right(color, side);
    }
    h.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::RuleSet;

    /// The positions of a game from the start, moves in UCI under `rules`.
    fn positions(moves: &[&str], rules: &RuleSet) -> Vec<Position> {
        let mut out = vec![Position::startpos()];
        for uci in moves {
            let mut p = out.last().unwrap().clone();
            let m = p.parse_uci(uci, rules).unwrap();
            p.play(&m);
            out.push(p);
        }
        out
    }

    #[test]
    fn the_shipped_table_reads_whole() {
        let t = OpeningTable::standard();
        // 3 529 lines in the five files (records/data/README.md).
        assert_eq!(t.len(), 3529);
        assert_eq!(t.names()[0].eco, "A00");
        assert_eq!(t.names().last().unwrap().eco, "E99");
        // One position has two lines (a transposition named twice); the first names it.
        // Keys without en passant merge no other lines.
        assert_eq!(t.positions(), t.len() - 1);
        let mason_keres = t
            .names()
            .iter()
            .find(|n| n.eco == "C33" && n.name.contains("Mason-Keres"));
        assert_eq!(mason_keres.unwrap().moves, "1. e4 e5 2. f4 exf4 3. Nc3");
        let g = positions(
            &["e2e4", "e7e5", "f2f4", "e5f4", "b1c3"],
            &RuleSet::chesscom(),
        );
        assert_eq!(
            t.lookup(&g[5]).unwrap().name,
            "Van Geet Opening: Nowokunski Gambit"
        );
    }

    #[test]
    fn a_known_line_is_named() {
        let rules = RuleSet::chesscom();
        let t = OpeningTable::standard();
        let g = positions(&["e2e4", "c7c5"], &rules);
        let o = t.identify(&g).unwrap();
        assert_eq!(
            (o.eco.as_str(), o.name.as_str()),
            ("B20", "Sicilian Defense")
        );
        assert_eq!((o.ply, o.out_of_book), (2, None));
        // The start itself is in no line.
        assert!(t.lookup(&Position::startpos()).is_none());
        assert_eq!(t.identify(&g[..1]), None);
    }

    /// Two move orders reaching the same position find the same name: the Queen's
    /// Gambit Declined reached by 1. d4 d5 2. c4 e6 and by 1. c4 e6 2. d4 d5.
    #[test]
    fn transpositions_find_the_name() {
        let rules = RuleSet::chesscom();
        let t = OpeningTable::standard();
        let a = positions(&["d2d4", "d7d5", "c2c4", "e7e6"], &rules);
        let b = positions(&["c2c4", "e7e6", "d2d4", "d7d5"], &rules);
        let (na, nb) = (t.identify(&a).unwrap(), t.identify(&b).unwrap());
        assert_eq!(na, nb);
        assert_eq!(
            (na.eco.as_str(), na.name.as_str()),
            ("D30", "Queen's Gambit Declined")
        );
        // The table's line is 1. d4 d5 2. c4 e6: b reached it by another order.
        assert_eq!(t.lookup(&b[4]).unwrap().moves, "1. d4 d5 2. c4 e6");
    }

    /// The game leaves the table at the first ply after which no position is in it;
    /// positions out of the table before that do not end the book.
    #[test]
    fn leaving_the_table_is_the_ply_after_the_last_named_position() {
        let rules = RuleSet::chesscom();
        let t = OpeningTable::standard();
        // 1. e4 c5 2. Nf3 Nc6 3. Ng1 (out of the table) Nb8 (1. e4 c5 again, named)
        // 4. h3 (out for good).
        let g = positions(
            &["e2e4", "c7c5", "g1f3", "b8c6", "f3g1", "c6b8", "h2h3"],
            &rules,
        );
        assert!(
            t.lookup(&g[5]).is_none(),
            "2... Nc6 3. Ng1 is out of the table"
        );
        assert!(t.lookup(&g[6]).is_some(), "3... Nb8 is 1. e4 c5 again");
        let o = t.identify(&g).unwrap();
        assert_eq!((o.ply, o.out_of_book), (6, Some(7)));
        assert_eq!(o.name, "Sicilian Defense");
    }

    /// Keys ignore en passant: the same placement reached with a double push (an en
    /// passant capture possible) and without one has one key, under either rule set.
    #[test]
    fn keys_ignore_en_passant() {
        for rules in [RuleSet::chesscom(), RuleSet::thesis()] {
            // 1. e4 a6 2. e5 d5: the d-pawn's double push beside White's e5 pawn.
            let a = positions(&["e2e4", "a7a6", "e4e5", "d7d5"], &rules);
            // 1. e3 a6 2. e4 d6 3. e5 d5: the same pieces, White to move, d5 in two steps.
            let c = positions(&["e2e3", "a7a6", "e3e4", "d7d6", "e4e5", "d6d5"], &rules);
            assert!(a[4].ep_square().is_some() && c[6].ep_square().is_none());
            assert_eq!((a[4].board(), a[4].turn()), (c[6].board(), c[6].turn()));
            assert_eq!(position_key(&a[4]), position_key(&c[6]));
        }
    }

    #[test]
    fn castling_rights_are_part_of_the_key() {
        let rules = RuleSet::chesscom();
        // 1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8: the start's pieces with e-pawns moved, no rights.
        let a = positions(&["e2e4", "e7e5", "e1e2", "e8e7", "e2e1", "e7e8"], &rules);
        let b = positions(&["e2e4", "e7e5", "g1f3", "g8f6", "f3g1", "f6g8"], &rules);
        assert_eq!(a[6].board(), b[6].board());
        assert_ne!(position_key(&a[6]), position_key(&b[6]));
        assert_eq!(position_key(&b[6]), position_key(&b[2]));
    }

    #[test]
    fn a_malformed_table_is_refused_with_file_and_line() {
        let p = Path::new("bad.tsv");
        let err = |text: &str| OpeningTable::parse(p, text).unwrap_err().to_string();
        let ok = "eco\tname\tpgn\nB20\tSicilian Defense\t1. e4 c5\n";
        assert!(OpeningTable::parse(p, ok).is_ok());
        assert_eq!(
            err(&format!("{ok}B21\tSmith-Morra Gambit 1. e4 c5 2. d4\n")),
            "bad.tsv:3: 2 tab-separated columns, an opening table has 3 (eco, name, pgn)"
        );
        assert_eq!(
            err(&format!("{ok}F00\tNo Such Code\t1. e4\n")),
            "bad.tsv:3: ECO code 'F00' is not a letter A to E and two digits"
        );
        assert_eq!(
            err(&format!("{ok}{ok}B20\t \t1. e4 c5\n")),
            "bad.tsv:5: the name is empty"
        );
        assert_eq!(err("A00\tNothing\t\n"), "bad.tsv:1: no moves");
        assert_eq!(
            err("C20\tKing's Pawn Game\t1. e4 e5 2. Nf4\n"),
            "bad.tsv:1: move 'Nf4' (ply 3) is not legal there: illegal san"
        );
        assert_eq!(
            err("C20\tKing's Pawn Game\t1. e4 e5 2. Zz9\n"),
            "bad.tsv:1: move 'Zz9' (ply 3) is not legal there: invalid san"
        );
        assert!(err("").starts_with("bad.tsv:1: no openings"), "{}", err(""));
        // A line with a control character is named, written escaped on one line.
        let e = err("B2\u{1b}0\tX\t1. e4\n");
        assert!(
            e.starts_with("bad.tsv:1: ECO code 'B2") && !e.contains('\u{1b}'),
            "{e}"
        );
    }
}
