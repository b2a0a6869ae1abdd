//! The thesis's static evaluation, in micro-pawns (1 pawn = [`PAWN`]).
//!
//! With x the file (0..7) and y the rank counted from the piece owner's side (0..7), and
//! d = sqrt((x-3.5)^2 + (y-3.5)^2): pawn 1 + 0.01(y-1); knight 3 - 0.1d; bishop
//! 3 - 0.05d; rook 5 - 0.01|x-3.5|; queen 8 - 0.2d; king 1000 - 0.02y. White's pieces
//! count plus, Black's minus. Each value is rounded to a whole micro-pawn once, in a
//! table, so every sum is exact integer arithmetic.

use std::sync::LazyLock;

use fow_variants::{Color, Role, Square};

/// A value in micro-pawns, positive when good for White.
pub type Score = i64;

/// One pawn in [`Score`] units.
pub const PAWN: Score = 1_000_000;

/// Half the width of the noise term: 0.0005 pawns.
pub const NOISE: Score = 500;

/// The value of a king capture found at remaining depth `depth`: 1000 * (100 + depth)
/// pawns, so a sooner capture (more depth left) is worth more.
#[inline]
pub fn king_capture(depth: i32) -> Score {
    1000 * (100 + depth as Score) * PAWN
}

/// The thesis's value of a `role` on file `x`, rank `y` counted from its owner's side,
/// in pawns.
pub(crate) fn unsigned_value(role: Role, x: usize, y: usize) -> f64 {
    let (fx, fy) = (x as f64, y as f64);
    let d = ((fx - 3.5).powi(2) + (fy - 3.5).powi(2)).sqrt();
    match role {
        Role::Pawn => 1.0 + 0.01 * (fy - 1.0),
        Role::Knight => 3.0 - 0.1 * d,
        Role::Bishop => 3.0 - 0.05 * d,
        Role::Rook => 5.0 - 0.01 * (fx - 3.5).abs(),
        Role::Queen => 8.0 - 0.2 * d,
        Role::King => 1000.0 - 0.02 * fy,
    }
}

/// Signed values (plus for White, in micro-pawns) indexed by `[colour][role - 1][square]`.
pub(crate) type Table = [[[Score; 64]; 6]; 2];

/// The table of `pawns(role, x, y)` (pawns, with x the file and y the rank from the
/// owner's side), rounded to whole micro-pawns and signed by colour.
pub(crate) fn signed_table(pawns: impl Fn(Role, usize, usize) -> f64) -> Table {
    let mut t = [[[0; 64]; 6]; 2];
    for color in Color::ALL {
        for role in Role::ALL {
            for sq in Square::ALL {
                let x = sq.file() as usize;
                let rank = sq.rank() as usize;
                let y = if color.is_white() { rank } else { 7 - rank };
                let v = (pawns(role, x, y) * PAWN as f64).round() as Score;
                t[color as usize][role as usize - 1][sq as usize] =
                    if color.is_white() { v } else { -v };
            }
        }
    }
    t
}

/// The thesis's values.
static TABLE: LazyLock<Table> = LazyLock::new(|| signed_table(unsigned_value));

/// The part of a king's value that does not depend on its square: 1000 pawns. A
/// [`crate::search::SearchBoard`] keeps its sums without it, so that they fit in 32 bits
/// whatever the board (even one with many kings, as an external program's view may
/// claim), and adds it back for each king when asked its value.
pub(crate) const KING_BASE: Score = 1000 * PAWN;

/// `table` with [`KING_BASE`] taken off each king's value (plus for White).
pub(crate) fn without_king_base(mut table: Table) -> Table {
    for color in Color::ALL {
        let base = if color.is_white() {
            KING_BASE
        } else {
            -KING_BASE
        };
        for v in table[color as usize][Role::King as usize - 1].iter_mut() {
            *v -= base;
        }
    }
    table
}

/// The thesis's values less [`KING_BASE`] for kings.
static RELATIVE: LazyLock<Table> = LazyLock::new(|| without_king_base(*TABLE));

/// [`piece_value`] less [`KING_BASE`] for a king: at most a few pawns either way.
#[inline]
pub(crate) fn relative_value(color: Color, role: Role, sq: Square) -> Score {
    RELATIVE[color as usize][role as usize - 1][sq as usize]
}

/// The signed value (plus for White) of a `color` `role` on `sq`.
#[inline]
pub fn piece_value(color: Color, role: Role, sq: Square) -> Score {
    TABLE[color as usize][role as usize - 1][sq as usize]
}

/// The static value of a board (without noise): the sum of its pieces' values.
pub fn material(board: &fow_variants::Board) -> Score {
    board
        .iter()
        .map(|(sq, p)| piece_value(p.color, p.role, sq))
        .sum()
}

/// The noise term for a position hash under a seed: uniform in [-NOISE, NOISE]
/// micro-pawns, a pure function of (hash, seed) so that the search order cannot change
/// it and alpha-beta returns exactly what plain minimax returns.
#[inline]
pub fn noise(hash: u64, seed: u64) -> Score {
    let mut z = hash ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z % (2 * NOISE as u64 + 1)) as Score - NOISE
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::Position;

    #[test]
    fn start_position_is_balanced_and_values_follow_the_formulas() {
        assert_eq!(material(Position::startpos().board()), 0);
        // White pawn on e2: y = 1 -> exactly one pawn.
        assert_eq!(piece_value(Color::White, Role::Pawn, Square::E2), PAWN);
        // Black pawn on e7 is its y = 1 too.
        assert_eq!(piece_value(Color::Black, Role::Pawn, Square::E7), -PAWN);
        assert_eq!(piece_value(Color::White, Role::Pawn, Square::E7), 1_050_000);
        // Knight on a1: d = sqrt(24.5).
        let d = 24.5f64.sqrt();
        assert_eq!(
            piece_value(Color::White, Role::Knight, Square::A1),
            ((3.0 - 0.1 * d) * 1e6).round() as Score
        );
        assert_eq!(piece_value(Color::White, Role::Rook, Square::D1), 4_995_000);
        assert_eq!(
            piece_value(Color::Black, Role::King, Square::E8),
            -1_000_000_000
        );
        assert_eq!(
            piece_value(Color::White, Role::King, Square::E2),
            999_980_000
        );
        assert!(
            piece_value(Color::White, Role::Queen, Square::D4)
                > piece_value(Color::White, Role::Queen, Square::A1)
        );
    }

    #[test]
    fn noise_stays_in_range_and_depends_on_seed() {
        let mut seen = std::collections::HashSet::new();
        for h in 0..10_000u64 {
            let n = noise(h.wrapping_mul(0x1234_5678_9abc_def1), 7);
            assert!((-NOISE..=NOISE).contains(&n));
            seen.insert(n);
        }
        assert!(seen.len() > 900, "noise takes many values: {}", seen.len());
        assert_ne!(
            (0..50).map(|h| noise(h, 1)).collect::<Vec<_>>(),
            (0..50).map(|h| noise(h, 2)).collect::<Vec<_>>()
        );
    }

    #[test]
    fn king_capture_prefers_sooner() {
        assert!(king_capture(3) > king_capture(2));
        assert!(
            king_capture(-5) > 10 * material(Position::startpos().board()).abs() + 90 * PAWN * 1000
        );
    }
}
