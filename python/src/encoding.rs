//! The fixed action encoding: every move of fog-of-war chess as an integer in
//! `0..ACTIONS`, and back, without a position.
//!
//! - `from * 64 + to` (0..4096) for every move that does not promote: plain moves,
//!   captures, en passant, and castling as the king's move (`e1g1`). Squares count a1 = 0,
//!   b1 = 1, ..., h8 = 63.
//! - `4096 + side * 96 + piece * 24 + file * 3 + direction` (4096..4288) for promotions:
//!   `side` 0 for White (rank 7 to 8), 1 for Black (rank 2 to 1); `piece` 0 knight,
//!   1 bishop, 2 rook, 3 queen; `file` the pawn's file (a = 0); `direction` 0 capturing
//!   towards the a-file, 1 straight ahead, 2 capturing towards the h-file.
//!
//! Every UCI move text maps to one action and back (a promotion's piece letter is part
//! of it), so the encoding needs no position; an action is legal where the observation's
//! mask says so.

use fow_variants::shakmaty::{File, Rank};
use fow_variants::{Move, MoveText, Role, Square};

/// The number of actions.
pub const ACTIONS: usize = 4096 + 2 * 4 * 24;

const PROMOTIONS: [Role; 4] = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

/// The action of a move.
pub fn action_of(m: &Move) -> usize {
    action_of_parts(m.from, m.to, m.promotion)
}

/// The action of a move given by its squares and promotion piece; `None` where no move
/// of the game has them (a promotion from the wrong rank, or not one file across).
fn action_of_parts_checked(from: Square, to: Square, promotion: Option<Role>) -> Option<usize> {
    let Some(piece) = promotion else {
        return Some(from as usize * 64 + to as usize);
    };
    let piece = PROMOTIONS.iter().position(|&r| r == piece)?;
    let side = match (from.rank(), to.rank()) {
        (Rank::Seventh, Rank::Eighth) => 0,
        (Rank::Second, Rank::First) => 1,
        _ => return None,
    };
    let df = to.file() as i32 - from.file() as i32;
    if df.abs() > 1 {
        return None;
    }
    Some(4096 + side * 96 + piece * 24 + from.file() as usize * 3 + (df + 1) as usize)
}

fn action_of_parts(from: Square, to: Square, promotion: Option<Role>) -> usize {
    // Generated moves always fit the encoding.
    action_of_parts_checked(from, to, promotion).unwrap_or(from as usize * 64 + to as usize)
}

/// The squares and promotion piece of an action; `None` outside `0..ACTIONS`, or for a
/// promotion whose target is off the board.
pub fn parts_of(action: usize) -> Option<(Square, Square, Option<Role>)> {
    if action < 4096 {
        return Some((
            Square::new(action as u32 / 64),
            Square::new(action as u32 % 64),
            None,
        ));
    }
    if action >= ACTIONS {
        return None;
    }
    let a = action - 4096;
    let (side, piece, file, dir) = (a / 96, a % 96 / 24, a % 24 / 3, a % 3);
    let to_file = file as i32 + dir as i32 - 1;
    if !(0..8).contains(&to_file) {
        return None;
    }
    let (from_rank, to_rank) = match side {
        0 => (Rank::Seventh, Rank::Eighth),
        _ => (Rank::Second, Rank::First),
    };
    let from = Square::from_coords(File::new(file as u32), from_rank);
    let to = Square::from_coords(File::new(to_file as u32), to_rank);
    Some((from, to, Some(PROMOTIONS[piece])))
}

/// The UCI text of an action (`e2e4`, `e7e8q`, `e1g1`); `None` for a number that is not
/// an action.
pub fn uci_of(action: usize) -> Option<String> {
    let (from, to, promotion) = parts_of(action)?;
    let mut s = format!("{from}{to}");
    if let Some(p) = promotion {
        s.push(p.char());
    }
    Some(s)
}

/// The action of a UCI move text; an error that says what is wrong otherwise.
pub fn action_of_uci(text: &str) -> Result<usize, String> {
    let t = MoveText::parse(text.trim()).ok_or_else(|| {
        format!(
            "'{}' is not a move in UCI notation (like e2e4 or e7e8q)",
            fow_variants::quote(text)
        )
    })?;
    action_of_parts_checked(t.from, t.to, t.promotion).ok_or_else(|| {
        format!(
            "'{}' is no move of fog-of-war chess (a promotion goes one rank forward to the last rank, to a knight, bishop, rook or queen)",
            fow_variants::quote(text)
        )
    })
}
