//! A learned evaluation (`eval=learned` of BeliefSearch and SubgameSolver): a tapered
//! evaluation like [`super::tapered`], blended by the same phase, whose piece values by
//! square were fitted to the results of fog-of-war games instead of set by hand.
//!
//! The table is `learned.txt`, next to this file: for each of middle game (`mg`) and
//! endgame (`eg`) and each role, eight rows of eight values in pawns, seen from the
//! piece's owner (the first row its eighth rank, each row files a to h), kings without
//! their 1000. `arena/examples/texel.rs` wrote it (its header says with which games):
//! a logistic fit of White's points in each game to every position of it (Texel tuning),
//! starting from and held near the tapered evaluation's values (`lambda` 1); the games
//! were those under `results/strength/`, one in ten held out. Over the held-out games the
//! squared error of the predicted points fell from 0.1466 (the tapered evaluation) to
//! 0.1415. Fits held less near (`lambda` 0.3 and 0.1: 0.1377 and 0.1349) predicted
//! better and played worse (results/strength/subgame/README.md, "Fifth round").

use std::sync::LazyLock;

use fow_variants::{role_name, Color, Role, Square};

use super::evaluate::{signed_table, Score, Table};
use super::tapered::Tables;

/// The largest value a table may give a piece on a square, in pawns (a king's without
/// its 1000).
const MAX_VALUE: f64 = 20.0;

/// The shipped table.
const TEXT: &str = include_str!("learned.txt");

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let (mg, eg) = parse(TEXT).unwrap_or_else(|e| panic!("learned.txt: {e}"));
    Tables::new(mg, eg)
});

/// The learned evaluation's tables.
#[inline]
pub(crate) fn tables() -> &'static Tables {
    &TABLES
}

/// The signed middle-game and endgame values (plus for White) of a `color` `role` on `sq`.
#[inline]
pub fn piece_values(color: Color, role: Role, sq: Square) -> (Score, Score) {
    TABLES.piece_values(color, role, sq)
}

/// The learned value of a board, plus for White (without noise).
pub fn value(board: &fow_variants::Board) -> Score {
    TABLES.value(board)
}

fn role_of(name: &str) -> Option<Role> {
    Role::ALL.into_iter().find(|&r| role_name(r) == name)
}

/// Reads a table in `learned.txt`'s format into signed middle-game and endgame tables
/// (kings with their 1000 added back). Every one of the twelve tables must be there once,
/// with eight rows of eight numbers; the error names the line.
pub(crate) fn parse(text: &str) -> Result<(Table, Table), String> {
    // [mg/eg][role][y][x], in pawns.
    let mut values = [[[[None::<f64>; 8]; 8]; 6]; 2];
    let mut current: Option<(usize, usize, usize)> = None;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        let at = |e: String| format!("line {}: {e}", n + 1);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if let [phase, role] = words[..] {
            let t = ["mg", "eg"]
                .iter()
                .position(|p| *p == phase)
                .ok_or_else(|| at(format!("{phase:?} is not mg or eg")))?;
            let r = role_of(role).ok_or_else(|| at(format!("{role:?} is not a role")))?;
            if values[t][r as usize - 1][7][0].is_some() {
                return Err(at(format!("{phase} {role} a second time")));
            }
            current = Some((t, r as usize - 1, 0));
            continue;
        }
        let Some((t, r, row)) = current else {
            return Err(at("values before a table's name".into()));
        };
        if row == 8 {
            return Err(at("a ninth row".into()));
        }
        if words.len() != 8 {
            return Err(at(format!("{} values, 8 expected", words.len())));
        }
        for (x, w) in words.iter().enumerate() {
            let v: f64 = w
                .parse()
                .map_err(|_| at(format!("{w:?} is not a number")))?;
            // At most 20 pawns either way: 64 such pieces still sum to under 2^31
            // micro-pawns, what a SearchBoard keeps its sums in.
            if !v.is_finite() || v.abs() > MAX_VALUE {
                return Err(at(format!(
                    "{v} is not a piece value (at most {MAX_VALUE} pawns either way)"
                )));
            }
            values[t][r][7 - row][x] = Some(v);
        }
        current = Some((t, r, row + 1));
    }
    for (t, phase) in values.iter().enumerate() {
        for (r, role) in phase.iter().enumerate() {
            if role.iter().flatten().any(Option::is_none) {
                return Err(format!(
                    "the {} table of role {} is missing or short",
                    ["mg", "eg"][t],
                    r + 1
                ));
            }
        }
    }
    let table = |t: usize| {
        signed_table(|role, x, y| {
            let base = if role == Role::King { 1000.0 } else { 0.0 };
            values[t][role as usize - 1][y][x].unwrap_or(0.0) + base
        })
    };
    Ok((table(0), table(1)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{tapered, PAWN};
    use fow_variants::Position;

    #[test]
    fn the_shipped_table_parses_and_is_symmetric_by_colour() {
        assert_eq!(value(Position::startpos().board()), 0);
        let (mg, eg) = piece_values(Color::White, Role::Queen, Square::D4);
        assert_eq!(
            piece_values(Color::Black, Role::Queen, Square::D5),
            (-mg, -eg)
        );
        // Fitted values stay near the hand-set ones: a queen is still worth 6 to 10
        // pawns, a pawn about one.
        assert!((6 * PAWN..10 * PAWN).contains(&mg), "{mg}");
        let (pawn, _) = piece_values(Color::White, Role::Pawn, Square::E4);
        assert!((PAWN / 2..2 * PAWN).contains(&pawn), "{pawn}");
        let (king, _) = piece_values(Color::White, Role::King, Square::G1);
        assert!((king - 1000 * PAWN).abs() < 5 * PAWN);
    }

    #[test]
    fn the_tapered_table_written_in_this_format_reads_back_as_the_tapered_evaluation() {
        let mut text = String::from("# a comment\n\n");
        for (t, name) in ["mg", "eg"].iter().enumerate() {
            for role in Role::ALL {
                let role_name =
                    ["pawn", "knight", "bishop", "rook", "queen", "king"][role as usize - 1];
                text.push_str(&format!("{name} {role_name}\n"));
                for y in (0..8).rev() {
                    for x in 0..8 {
                        let sq = Square::from_coords(
                            fow_variants::shakmaty::File::new(x),
                            fow_variants::shakmaty::Rank::new(y),
                        );
                        let (mg, eg) = tapered::piece_values(Color::White, role, sq);
                        let v = if t == 0 { mg } else { eg };
                        let base = if role == Role::King { 1000 * PAWN } else { 0 };
                        text.push_str(&format!("{} ", (v - base) as f64 / PAWN as f64));
                    }
                    text.push('\n');
                }
            }
        }
        let (mg, eg) = parse(&text).unwrap();
        let ours = Tables::new(mg, eg);
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "4k3/4P3/8/8/8/8/8/4K3 w - - 0 1",
            "r3k2r/pp3ppp/2n5/3q4/8/2N2N2/PP3PPP/R2Q1RK1 b kq - 0 1",
        ] {
            let board = fen.parse::<Position>().unwrap().board().clone();
            assert_eq!(ours.value(&board), tapered::value(&board), "{fen}");
        }
    }

    #[test]
    fn a_malformed_table_is_an_error_naming_its_line() {
        let e = parse("mg pawn\n1 2 3\n").unwrap_err();
        assert!(e.starts_with("line 2:"), "{e}");
        let e = parse("mg pawnish\n").unwrap_err();
        assert!(e.starts_with("line 1:"), "{e}");
        let e = parse("1 1 1 1 1 1 1 1\n").unwrap_err();
        assert!(e.contains("before a table"), "{e}");
        let e = parse("mg pawn\n1 1 1 1 1 1 1 x\n").unwrap_err();
        assert!(e.contains("\"x\""), "{e}");
        let e = parse("mg pawn\n1 1 1 1 1 1 1 21\n").unwrap_err();
        assert!(e.contains("at most 20 pawns"), "{e}");
        assert!(parse("").unwrap_err().contains("missing"));
    }
}
