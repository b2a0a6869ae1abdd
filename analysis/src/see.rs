//! Static exchange evaluation (SEE) under fow's rules: what a move wins or gives up in
//! material once every capture on its destination square has been played out, each side
//! taking with its least valuable piece and free to stop when going on would cost it.
//!
//! Fow's rules differ from chess in two ways that matter here: there is no check, so a
//! piece that shields its king may still capture (it is counted like any other), and the
//! king can be captured, which ends the game: a king is worth [`SEE_KING`], so a side
//! never puts its king where it would be taken, and taking a king ends the exchange.
//!
//! ```
//! use fow_analysis::see;
//! use fow_variants::{Position, RuleSet};
//! // White's queen takes a pawn that a pawn defends: a queen for a pawn.
//! let pos: Position = "4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1".parse().unwrap();
//! let m = pos.parse_uci("d2d5", &RuleSet::thesis()).unwrap();
//! assert_eq!(see(&pos, &m), 100 - 900);
//! ```

use fow_variants::{Bitboard, Color, Move, MoveKind, Position, Role, Square};

/// What taking the king is worth in SEE: far more than all the other pieces together.
pub const SEE_KING: i32 = 100_000;

/// The material value of a piece in centipawns as SEE counts it: pawn 100, knight and
/// bishop 300, rook 500, queen 900, king [`SEE_KING`].
pub fn see_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight | Role::Bishop => 300,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::King => SEE_KING,
    }
}

/// The material the side to move in `pos` wins (positive) or gives up (negative) with
/// `m`, in centipawns, once the exchange on `m`'s destination is played out with the
/// least valuable capturer each time (x-rays through the pieces that have captured
/// included, a pawn reaching the last rank counted as a queen). 0 for castling.
pub fn see(pos: &Position, m: &Move) -> i32 {
    if m.kind == MoveKind::Castle {
        return 0;
    }
    if m.captures_king() {
        return SEE_KING;
    }
    let board = pos.board();
    let us = pos.turn();
    let to = m.to;
    let mut occupied = board.occupied();
    occupied.discard(m.from);
    if let (MoveKind::EnPassant, Some(sq)) = (m.kind, m.capture_square()) {
        occupied.discard(sq);
    }
    let promoted = m.promotion.unwrap_or(m.role);
    let first = m.capture.map_or(0, see_value) + see_value(promoted) - see_value(m.role);
    // gains[d]: what the side making capture d has won so far if the exchange stopped
    // right after it (capture 0 is `m`).
    let mut gains = vec![first];
    let mut standing = promoted;
    let mut side = !us;
    while let Some((sq, role)) = least_valuable_attacker(pos, to, side, occupied) {
        let becomes = if role == Role::Pawn && to.rank() == side.backrank().flip_vertical() {
            Role::Queen
        } else {
            role
        };
        let taken = see_value(standing) + see_value(becomes) - see_value(role);
        gains.push(taken - gains.last().copied().unwrap_or(0));
        if standing == Role::King {
            // The game is over: nothing follows a king capture.
            break;
        }
        standing = becomes;
        occupied.discard(sq);
        side = !side;
    }
    // Each side takes only when taking is better than stopping.
    for d in (1..gains.len()).rev() {
        gains[d - 1] = -(-gains[d - 1]).max(gains[d]);
    }
    gains[0]
}

/// The least valuable piece of `side` among those standing on `occupied` that attack
/// `to`, with its square.
fn least_valuable_attacker(
    pos: &Position,
    to: Square,
    side: Color,
    occupied: Bitboard,
) -> Option<(Square, Role)> {
    let board = pos.board();
    let attackers = board.attacks_to(to, side, occupied) & occupied;
    Role::ALL.into_iter().find_map(|role| {
        (attackers & board.by_role(role))
            .first()
            .map(|sq| (sq, role))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::RuleSet;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos: Position = fen.parse().unwrap();
        let m = pos.parse_uci(uci, &RuleSet::chesscom()).unwrap();
        see(&pos, &m)
    }

    #[test]
    fn a_free_capture_wins_the_piece() {
        // Nothing defends the knight on e5.
        assert_eq!(see_of("4k3/8/8/4n3/8/8/8/4RK2 w - - 0 1", "e1e5"), 300);
        // A quiet move to a square nobody attacks: nothing changes hands.
        assert_eq!(see_of("4k3/8/8/8/8/8/8/4RK2 w - - 0 1", "e1e4"), 0);
    }

    #[test]
    fn the_cheapest_piece_recaptures_and_each_side_may_stop() {
        // Pawn takes a knight that a pawn defends: knight for pawn.
        assert_eq!(see_of("4k3/8/5p2/4n3/3P4/8/8/4K3 w - - 0 1", "d4e5"), 200);
        // Rook takes a pawn defended by a pawn: Black recaptures, a rook for a pawn.
        assert_eq!(
            see_of("4k3/8/5p2/4p3/8/8/8/4RK2 w - - 0 1", "e1e5"),
            100 - 500
        );
        // Queen to a square a knight attacks: the queen is lost for nothing.
        assert_eq!(see_of("4k3/8/8/8/2n5/8/8/Q3K3 w - - 0 1", "a1a3"), -900);
        // Rxd5 (rook takes pawn), Qxd5? Nxd5 would cost Black's queen for a rook: Black
        // does not take back, and White is a pawn up.
        assert_eq!(see_of("3qk3/8/8/3p4/8/2N5/8/3RK3 w - - 0 1", "d1d5"), 100);
        // With a pawn on c6 too, Black takes back with the pawn first, and Nxd5 costs
        // the knight for a pawn (cxd5 Rxd5 Qxd5); were the queen to take first, White
        // would come out a pawn up.
        assert_eq!(
            see_of("3qk3/8/2p5/3p4/8/2N5/8/3RK3 w - - 0 1", "c3d5"),
            100 - 300
        );
    }

    #[test]
    fn x_rays_through_the_capturers_count() {
        // Doubled rooks against one defender: Rxe5, Rxe5 (rook), Rxe5: White wins the
        // pawn and a rook for a rook.
        assert_eq!(see_of("4r1k1/8/8/4p3/8/8/4R3/4R1K1 w - - 0 1", "e2e5"), 100);
        // Without the rook behind, the same capture loses the rook for a pawn.
        assert_eq!(
            see_of("4r1k1/8/8/4p3/8/8/4R3/6K1 w - - 0 1", "e2e5"),
            100 - 500
        );
    }

    #[test]
    fn no_check_a_shielding_piece_still_recaptures() {
        // The knight on e7 shields its king from the rook on e1, but with no check it may
        // still take on c6: SEE counts it (the queen for nothing).
        assert_eq!(see_of("4k3/4n3/8/8/8/8/2Q5/4R1K1 w - - 0 1", "c2c6"), -900);
    }

    #[test]
    fn kings_are_taken_and_never_walk_into_capture() {
        // Taking the king ends the game.
        assert_eq!(see_of("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "e1e8"), SEE_KING);
        // Queen takes f7, defended by the king only, while the bishop covers f7: the king
        // cannot take back (it would be taken), so the pawn is won.
        assert_eq!(see_of("4k3/5p2/8/8/2B5/8/5Q2/6K1 w - - 0 1", "f2f7"), 100);
        // Without the bishop, the king takes the queen.
        assert_eq!(
            see_of("4k3/5p2/8/8/8/8/5Q2/6K1 w - - 0 1", "f2f7"),
            100 - 900
        );
        // A king that steps onto an attacked square is lost.
        assert_eq!(see_of("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "e1e2"), -SEE_KING);
        assert_eq!(see_of("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "e1d2"), 500);
    }

    #[test]
    fn promotions_and_en_passant() {
        // A pawn promotes on a free square: a queen for a pawn.
        assert_eq!(see_of("8/P3k3/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), 800);
        // ... on a square the rook covers: the queen is taken back.
        assert_eq!(
            see_of("r7/1P2k3/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"),
            800 - 900
        );
        // En passant wins the pawn.
        assert_eq!(see_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 100);
    }
}
