//! A tapered evaluation (`eval=tapered` of BeliefSearch): the thesis's piece values plus
//! positional terms that push play forward, blended between a middle-game and an endgame
//! table by the material left, in micro-pawns like [`super::evaluate`].
//!
//! With x the file (0..7), y the rank counted from the piece owner's side (0..7) and d
//! the thesis's distance from the centre, each piece is worth its thesis value plus, in
//! pawns:
//!
//! | piece  | middle game                                  | endgame                           |
//! |--------|----------------------------------------------|-----------------------------------|
//! | pawn   | 0, 0, .03, .08, .15, .25, .40 by y (1..6), +.05 on d/e files at y 3–4 | 0, 0, .10, .20, .35, .60, 1.0 by y |
//! | knight | −.15 on its first rank                       | 0                                 |
//! | bishop | −.15 on its first rank                       | 0                                 |
//! | rook   | +.15 on the seventh rank                     | +.10 on the seventh rank          |
//! | queen  | 0                                            | 0                                 |
//! | king   | +.20 on its first rank on files a–c and g–h, −.10 on its second rank, −.30 − .10(y − 2) beyond | .30 − .10 d |
//!
//! The phase is 1 per knight or bishop, 2 per rook and 4 per queen on the board (24 at
//! the start, capped there); a board's value is (mg · phase + eg · (24 − phase)) / 24,
//! rounded toward zero. Pawn steps are what resets the draw counters, so the endgame
//! pawn table is steep: it turns a won endgame into a promotion instead of a shuffle.

use std::sync::LazyLock;

use fow_variants::{Color, Role, Square};

use super::evaluate::{signed_table, unsigned_value, without_king_base, Score, Table};

/// The phase of a full board: all the knights, bishops, rooks and queens.
pub const MAX_PHASE: i32 = 24;

/// What a piece adds to the phase.
#[inline]
pub fn phase_weight(role: Role) -> i32 {
    match role {
        Role::Knight | Role::Bishop => 1,
        Role::Rook => 2,
        Role::Queen => 4,
        Role::Pawn | Role::King => 0,
    }
}

/// The positional bonus of a `role` on file `x`, rank `y` (from its owner's side) in the
/// middle game, in pawns.
fn middle_game(role: Role, x: usize, y: usize) -> f64 {
    match role {
        Role::Pawn => {
            let advance = [0.0, 0.0, 0.03, 0.08, 0.15, 0.25, 0.40, 0.0][y];
            let centre = if (x == 3 || x == 4) && (y == 3 || y == 4) {
                0.05
            } else {
                0.0
            };
            advance + centre
        }
        Role::Knight | Role::Bishop if y == 0 => -0.15,
        Role::Rook if y == 6 => 0.15,
        Role::King => match y {
            0 if x <= 2 || x >= 6 => 0.20,
            0 => 0.0,
            1 => -0.10,
            _ => -0.30 - 0.10 * (y as f64 - 2.0),
        },
        _ => 0.0,
    }
}

/// The positional bonus in the endgame, in pawns.
fn endgame(role: Role, x: usize, y: usize) -> f64 {
    match role {
        Role::Pawn => [0.0, 0.0, 0.10, 0.20, 0.35, 0.60, 1.0, 0.0][y],
        Role::Rook if y == 6 => 0.10,
        Role::King => {
            let d = ((x as f64 - 3.5).powi(2) + (y as f64 - 3.5).powi(2)).sqrt();
            0.30 - 0.10 * d
        }
        _ => 0.0,
    }
}

/// The thesis's value plus `bonus`, as a table.
fn table(bonus: fn(Role, usize, usize) -> f64) -> Table {
    signed_table(|role, x, y| unsigned_value(role, x, y) + bonus(role, x, y))
}

/// A tapered evaluation's tables: each piece's signed middle-game and endgame values by
/// square, and the same less [`KING_BASE`](super::evaluate::KING_BASE) for kings (what a
/// [`crate::search::SearchBoard`] sums). [`Eval::Tapered`](super::Eval::Tapered) and
/// [`Eval::Learned`](super::Eval::Learned) differ only by their tables.
pub(crate) struct Tables {
    middle_game: Table,
    endgame: Table,
    relative_middle_game: Table,
    relative_endgame: Table,
}

impl Tables {
    /// The tables of signed middle-game and endgame values (kings with their base).
    pub(crate) fn new(middle_game: Table, endgame: Table) -> Tables {
        Tables {
            middle_game,
            endgame,
            relative_middle_game: without_king_base(middle_game),
            relative_endgame: without_king_base(endgame),
        }
    }

    /// The signed middle-game and endgame values (plus for White) of a `color` `role` on
    /// `sq`.
    #[inline]
    pub(crate) fn piece_values(&self, color: Color, role: Role, sq: Square) -> (Score, Score) {
        let (c, r, s) = (color as usize, role as usize - 1, sq as usize);
        (self.middle_game[c][r][s], self.endgame[c][r][s])
    }

    /// [`Tables::piece_values`] less the base for a king.
    #[inline]
    pub(crate) fn relative_values(&self, color: Color, role: Role, sq: Square) -> (Score, Score) {
        let (c, r, s) = (color as usize, role as usize - 1, sq as usize);
        (
            self.relative_middle_game[c][r][s],
            self.relative_endgame[c][r][s],
        )
    }

    /// The value of a board, plus for White (without noise).
    pub(crate) fn value(&self, board: &fow_variants::Board) -> Score {
        let (mut mg, mut eg, mut phase) = (0, 0, 0);
        for (sq, p) in board.iter() {
            let (m, e) = self.piece_values(p.color, p.role, sq);
            mg += m;
            eg += e;
            phase += phase_weight(p.role);
        }
        blend(mg, eg, phase)
    }
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| Tables::new(table(middle_game), table(endgame)));

/// The tapered evaluation's tables.
#[inline]
pub(crate) fn tables() -> &'static Tables {
    &TABLES
}

/// The signed middle-game and endgame values (plus for White) of a `color` `role` on `sq`.
#[inline]
pub fn piece_values(color: Color, role: Role, sq: Square) -> (Score, Score) {
    TABLES.piece_values(color, role, sq)
}

/// The blend of a middle-game and an endgame value at `phase` (capped at [`MAX_PHASE`]).
#[inline]
pub fn blend(middle_game: Score, endgame: Score, phase: i32) -> Score {
    let p = Score::from(phase.clamp(0, MAX_PHASE));
    (middle_game * p + endgame * (Score::from(MAX_PHASE) - p)) / Score::from(MAX_PHASE)
}

/// The tapered value of a board, plus for White (without noise).
pub fn value(board: &fow_variants::Board) -> Score {
    TABLES.value(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::Position;

    fn value_of(fen: &str) -> Score {
        value(fen.parse::<Position>().unwrap().board())
    }

    #[test]
    fn the_start_is_even_and_full_material_is_the_middle_game() {
        assert_eq!(value(Position::startpos().board()), 0);
        let (mg, eg) = piece_values(Color::White, Role::Pawn, Square::E4);
        assert_eq!(blend(mg, eg, MAX_PHASE), mg);
        assert_eq!(blend(mg, eg, 0), eg);
        assert_eq!(blend(mg, eg, 40), mg, "the phase is capped");
        // A white pawn on e4 (y = 3): 1.02 + .08 + .05 in the middle game, 1.02 + .20 in
        // the endgame.
        assert_eq!((mg, eg), (1_150_000, 1_220_000));
        // The same for Black on e5, with the sign turned.
        assert_eq!(
            piece_values(Color::Black, Role::Pawn, Square::E5),
            (-1_150_000, -1_220_000)
        );
    }

    #[test]
    fn endgames_reward_passed_pawns_and_a_central_king() {
        // Kings and one pawn each: phase 0, the endgame table alone.
        let far = value_of("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        let near = value_of("4k3/4P3/8/8/8/8/8/4K3 w - - 0 1");
        assert!(
            near - far > 900_000,
            "a pawn on the seventh is worth a pawn more"
        );
        let corner = value_of("k7/8/8/8/8/8/8/K7 w - - 0 1");
        let centre = value_of("k7/8/8/8/3K4/8/8/8 w - - 0 1");
        assert!(centre > corner + 300_000, "{centre} {corner}");
        // With the queens on, the king belongs on its first rank, castled.
        let castled = value_of("rnbqkbnr/8/8/8/8/8/8/RNBQ1RK1 w - - 0 1");
        let walked = value_of("rnbqkbnr/8/8/8/8/8/4K3/RNBQ1R2 w - - 0 1");
        assert!(castled > walked + 250_000, "{castled} {walked}");
    }
}
