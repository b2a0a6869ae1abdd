//! A side's perfect-recall information state: what it saw at each of its turns, the move
//! it played, and what it saw right after, in order; nothing of the other side's moves
//! but what its own view shows.
//!
//! As a tensor, one row of `INFO_PLANES` planes of 8 by 8 per turn:
//!
//! | planes | hold |
//! |---|---|
//! | 0–15 | the view when the turn began (the observation planes, see `planes`) |
//! | 16 | the square the move left |
//! | 17 | the square the move reached |
//! | 18–21 | every square when the move promoted to a knight, bishop, rook, queen |
//! | 22–37 | the view right after the move |
//!
//! Then, when the side has seen more than its last turn's view after the move (it is to
//! move; it is Black and White has not moved yet; the game ended on the other side's
//! move), a last row with its view now and zeros for the rest. A turn's row always has
//! a square on planes 16 and 17, so the two kinds of row cannot be confused.

use std::fmt::Write;

use fow_variants::{FogView, Move, Role};

use crate::planes::{write_planes, PLANES, VIEW_BYTES};

/// The planes of one row of the information-state tensor.
pub const INFO_PLANES: usize = 2 * PLANES + 6;

/// One of a side's turns.
#[derive(Clone, Debug)]
pub struct Turn {
    /// What it saw when the turn began.
    pub seen: FogView,
    /// The move it played.
    pub played: Move,
    /// What it saw right after.
    pub after: FogView,
}

/// The information state's text: the side, then one line per turn, then its view now
/// (`now`) when it has seen more since, then the result (`over`) when the game is over.
pub fn info_text(color: &str, turns: &[Turn], now: Option<&FogView>, over: Option<&str>) -> String {
    let mut s = String::from(color);
    for (i, t) in turns.iter().enumerate() {
        let _ = write!(
            s,
            "\n{}. seen {} | played {} | then {}",
            i + 1,
            t.seen,
            t.played,
            t.after
        );
    }
    if let Some(v) = now {
        let _ = write!(s, "\nnow {v}");
    }
    if let Some(o) = over {
        let _ = write!(s, "\nover {o}");
    }
    s
}

/// The information state's tensor bytes, `rows * INFO_PLANES * 64` of them.
pub fn info_tensor(turns: &[Turn], now: Option<&FogView>, out: &mut [u8]) {
    let row = INFO_PLANES * 64;
    for (t, chunk) in turns.iter().zip(out.chunks_exact_mut(row)) {
        write_planes(&t.seen, &mut chunk[..VIEW_BYTES]);
        let rest = &mut chunk[VIEW_BYTES..];
        rest[t.played.from as usize] = 1;
        rest[64 + t.played.to as usize] = 1;
        let promoted = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .iter()
            .position(|&r| Some(r) == t.played.promotion);
        if let Some(p) = promoted {
            rest[128 + p * 64..192 + p * 64].fill(1);
        }
        write_planes(&t.after, &mut chunk[VIEW_BYTES + 6 * 64..]);
    }
    if let Some(v) = now {
        let last = turns.len() * row;
        write_planes(v, &mut out[last..last + VIEW_BYTES]);
    }
}
