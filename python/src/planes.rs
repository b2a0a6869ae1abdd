//! A side's view as planes of 8 by 8 (the observation tensor), and the legal-action mask.
//!
//! The view's planes, `PLANES` of them, each indexed `[rank][file]` with rank 1 and the
//! a-file at 0 (the board as White sees it, for both sides):
//!
//! | plane | holds 1 where |
//! |---|---|
//! | 0–5 | our pawn, knight, bishop, rook, queen, king |
//! | 6–11 | an enemy pawn, knight, bishop, rook, queen, king that we see |
//! | 12 | fog: a square we do not see |
//! | 13 | our rook that may still castle (the rights the view shows) |
//! | 14 | the en passant square, when we see one |
//! | 15 | every square when we are White, none when we are Black |

use fow_variants::{Bitboard, Color, FogView, Move, Role};

use crate::encoding::{action_of, ACTIONS};

/// The number of planes of one view.
pub const PLANES: usize = 16;

/// The bytes of one view's planes.
pub const VIEW_BYTES: usize = PLANES * 64;

/// The view's planes as bitboards (bit `rank * 8 + file` of plane `p`).
pub fn bitboards(view: &FogView) -> [u64; PLANES] {
    let ours = view.ours();
    let theirs = view.theirs();
    let mut out = [0u64; PLANES];
    // Role::ALL is pawn, knight, bishop, rook, queen, king: the planes' order.
    for (i, role) in Role::ALL.iter().enumerate() {
        let b = view.by_role(*role);
        out[i] = (b & ours).0;
        out[6 + i] = (b & theirs).0;
    }
    out[12] = view.fog().0;
    out[13] = (view.castling_rights() & ours).0;
    out[14] = view.ep_square().map_or(0, |s| Bitboard::from_square(s).0);
    out[15] = match view.color() {
        Color::White => u64::MAX,
        Color::Black => 0,
    };
    out
}

/// Byte `k` of `SPREAD[b]` (little-endian) is bit `k` of `b`: one rank of a plane as its
/// eight bytes 0 or 1.
const SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        while k < 8 {
            table[b] |= ((b as u64 >> k) & 1) << (8 * k);
            k += 1;
        }
        b += 1;
    }
    table
};

/// Writes the view's planes as bytes 0 or 1 into `out` (`VIEW_BYTES` long), a rank at a
/// time.
pub fn write_planes(view: &FogView, out: &mut [u8]) {
    let boards = bitboards(view);
    for (plane, bits) in out.chunks_exact_mut(64).zip(boards) {
        for (rank, byte) in plane.chunks_exact_mut(8).zip(bits.to_le_bytes()) {
            rank.copy_from_slice(&SPREAD[byte as usize].to_le_bytes());
        }
    }
}

/// Writes the mask of `moves` (1 for a legal action) into `out` (`ACTIONS` bytes).
pub fn write_mask(moves: &[Move], out: &mut [u8]) {
    out[..ACTIONS].fill(0);
    for m in moves {
        out[action_of(m)] = 1;
    }
}

/// Writes the mask of `moves` as packed bits (bit `a % 8` of byte `a / 8`, as numpy's
/// `unpackbits(..., bitorder="little")` reads it) into `out` (`ACTIONS / 8` bytes).
pub fn write_packed_mask(moves: &[Move], out: &mut [u8]) {
    out[..ACTIONS / 8].fill(0);
    for m in moves {
        let a = action_of(m);
        out[a / 8] |= 1 << (a % 8);
    }
}
