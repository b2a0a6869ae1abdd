//! Rook attacks from small tables ("kindergarten bitboards").
//!
//! shakmaty's magic bitboards answer with one lookup, but a rook's lookup goes into
//! about 700 KiB of tables: in the arena's per-ply path, where every lookup has a fresh
//! occupancy, it usually misses the first-level cache, and a sampling profile put about
//! a fifth of a random game's time on those loads. This function does about a dozen
//! more arithmetic instructions instead, and its tables (8.5 KiB) stay in the
//! first-level cache. Bishops keep shakmaty's lookup: the same trick for them (two
//! diagonals per lookup), or a compact magic table of their own, measured no faster.
//!
//! - A rank holds one square per file, so multiplying its occupancy by the b-file
//!   gathers the six inner files into the top six bits, which index the attacks of a
//!   rook on that file along a rank ([`FILL_UP`], copied onto every rank, then masked
//!   by the rank).
//! - A file's occupancy, shifted onto the a-file, is gathered the same way by
//!   multiplying with the c2-h7 diagonal and indexes the a-file attacks of a rook on
//!   that rank ([`A_FILE_ATTACKS`]), shifted back to the file.
//!
//! Both gatherings are exact (no two partial products land on the same bit), and a test
//! compares every square against shakmaty's attacks on random occupancies.

use shakmaty::{Bitboard, Square};

const A_FILE: u64 = 0x0101_0101_0101_0101;
const B_FILE: u64 = 0x0202_0202_0202_0202;
const C2_H7: u64 = 0x0080_4020_1008_0400;

/// The squares a slider on `from` (0..8) attacks along a line of 8 squares whose
/// occupancy is `occ` (bit `i` for square `i`), up to and including the first blocker
/// each way.
const fn line_attacks(from: u32, occ: u32) -> u32 {
    let mut att = 0;
    let mut i = from as i32 + 1;
    while i < 8 {
        att |= 1 << i;
        if occ >> i & 1 == 1 {
            break;
        }
        i += 1;
    }
    let mut i = from as i32 - 1;
    while i >= 0 {
        att |= 1 << i;
        if occ >> i & 1 == 1 {
            break;
        }
        i -= 1;
    }
    att
}

/// For each file of the slider and each occupancy of the six inner files (bit `k` for
/// file `k + 1`), its attacks along a rank, copied onto all eight ranks.
static FILL_UP: [[u64; 64]; 8] = {
    let mut t = [[0u64; 64]; 8];
    let mut file = 0;
    while file < 8 {
        let mut inner = 0;
        while inner < 64 {
            t[file][inner] = line_attacks(file as u32, (inner as u32) << 1) as u64 * A_FILE;
            inner += 1;
        }
        file += 1;
    }
    t
};

/// For each rank of the slider and each gathered occupancy of the a-file's six inner
/// squares (the index [`file_index`] computes), its attacks along the a-file.
static A_FILE_ATTACKS: [[u64; 64]; 8] = {
    let mut t = [[0u64; 64]; 8];
    let mut rank = 0;
    while rank < 8 {
        let mut inner = 0u32;
        while inner < 64 {
            // The a-file occupancy with ranks 2..7 from `inner`.
            let mut occ = 0u64;
            let mut k = 0;
            while k < 6 {
                if inner >> k & 1 == 1 {
                    occ |= 1 << (8 * (k + 1));
                }
                k += 1;
            }
            let ranks = line_attacks(rank as u32, inner << 1);
            let mut att = 0u64;
            let mut r = 0;
            while r < 8 {
                if ranks >> r & 1 == 1 {
                    att |= 1 << (8 * r);
                }
                r += 1;
            }
            t[rank][file_index(occ)] = att;
            inner += 1;
        }
        rank += 1;
    }
    t
};

/// The six inner squares of an a-file occupancy, gathered into six bits.
#[inline(always)]
const fn file_index(a_file_occ: u64) -> usize {
    (a_file_occ.wrapping_mul(C2_H7) >> 58) as usize
}

/// Per square: its rank without the square.
static RANKS_EX: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = (0xffu64 << (sq / 8 * 8)) & !(1u64 << sq);
        sq += 1;
    }
    t
};

/// Attacks along `line` (the rank through `from`, without it) of a rook on `from`.
#[inline(always)]
fn along(line: u64, file: usize, occupied: u64) -> u64 {
    let inner = ((line & occupied).wrapping_mul(B_FILE) >> 58) as usize;
    FILL_UP[file][inner] & line
}

/// The squares a rook on `from` attacks (equal to shakmaty's `rook_attacks`).
#[inline(always)]
pub fn rook_attacks(from: Square, occupied: Bitboard) -> Bitboard {
    let sq = from as u32;
    let (file, rank) = (sq & 7, sq >> 3);
    let rank_att = along(RANKS_EX[sq as usize], file as usize, occupied.0);
    let file_occ = (occupied.0 >> file) & A_FILE;
    let file_att = A_FILE_ATTACKS[rank as usize][file_index(file_occ)] << file;
    Bitboard(rank_att | file_att)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn equal_to_shakmaty_on_random_occupancies() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        for n in 0..20_000 {
            // Sparse and dense boards both.
            let occ = match n % 3 {
                0 => rng.random::<u64>(),
                1 => rng.random::<u64>() & rng.random::<u64>(),
                _ => rng.random::<u64>() & rng.random::<u64>() & rng.random::<u64>(),
            };
            for sq in Square::ALL {
                let o = Bitboard(occ);
                assert_eq!(rook_attacks(sq, o), shakmaty::attacks::rook_attacks(sq, o));
            }
        }
    }
}
