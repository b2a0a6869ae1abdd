//! Bit tricks on 64-bit boards.

use shakmaty::Square;

/// For each byte value and rank `r`, the position of its `r`-th set bit.
static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut r = 0;
        let mut bit = 0;
        while bit < 8 {
            if b >> bit & 1 == 1 {
                t[b][r] = bit as u8;
                r += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// The square of the `j`-th set bit of `x` (counting from the least significant, from
/// 0); `j` must be below `x.count_ones()`. Broadword select: no loop, no branch. The
/// move set draws its `j`-th target with it.
///
/// ```
/// use fow_variants::{select_bit, Square};
/// assert_eq!(select_bit(0b1010_0100, 0), Square::C1);
/// assert_eq!(select_bit(0b1010_0100, 2), Square::H1);
/// ```
#[inline(always)]
pub fn select_bit(x: u64, j: u32) -> Square {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // Per-byte popcounts, then their running sums: byte k holds the set bits of bytes
    // 0..=k (at most 64, so no byte overflows).
    let mut s = x - ((x >> 1) & 0x5555_5555_5555_5555);
    s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    s = (s + (s >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    let sums = s.wrapping_mul(ONES);
    // Bytes whose running sum is at most j lie wholly before the wanted bit.
    let le = ((((j as u64) * ONES) | HIGHS) - sums) & HIGHS;
    let byte = le.count_ones() & 7;
    let before = ((sums << 8) >> (8 * byte)) & 0xff;
    let rank = (j - before as u32) & 7;
    let bits = ((x >> (8 * byte)) & 0xff) as usize;
    Square::new(8 * byte + SELECT_IN_BYTE[bits][rank as usize] as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_bit_finds_every_set_bit() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..2000 {
            let want: Vec<u32> = (0..64).filter(|b| x >> b & 1 == 1).collect();
            for (j, &b) in want.iter().enumerate() {
                assert_eq!(select_bit(x, j as u32) as u32, b, "{x:#x} bit {j}");
            }
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            x ^= x >> 29;
        }
        for b in 0..64 {
            assert_eq!(select_bit(1 << b, 0) as u32, b);
            assert_eq!(select_bit(u64::MAX, b) as u32, b);
        }
    }
}
