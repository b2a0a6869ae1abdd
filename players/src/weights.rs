//! The thesis code's piece weights, used by its greedy bots.

use fow_variants::Role;

/// Weight of a piece in the thesis's greedy bots: pawn 1, knight 3, bishop 3, rook 5,
/// queen 10, king 100.
#[inline]
pub const fn thesis_weight(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight => 3,
        Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 10,
        Role::King => 100,
    }
}
