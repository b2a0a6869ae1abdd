//! Observation -> plane codes -> network input. See the [module docs](super).

use fow_variants::{Color, FogView, Observation, Square};

/// Plane code of a fog square.
pub const FOG: u8 = 0;
/// Plane code of a visible empty square.
pub const EMPTY: u8 = 1;
/// Number of plane codes.
pub const PLANES: usize = 14;
/// Inputs per encoded view.
pub const VIEW_INPUTS: usize = PLANES * 64;

/// A square as the mover sees it (flipped top to bottom for Black).
#[inline]
pub fn oriented(sq: Square, mover: Color) -> usize {
    match mover {
        Color::White => sq as usize,
        Color::Black => sq as usize ^ 56,
    }
}

/// The plane code of every square of `view` (indexed by the mover's oriented square),
/// from `mover`'s point of view.
pub fn plane_codes(view: &FogView, mover: Color) -> [u8; 64] {
    let mut codes = [FOG; 64];
    for sq in view.visible() {
        codes[oriented(sq, mover)] = match view.board().piece_at(sq) {
            None => EMPTY,
            Some(p) => {
                let base = if p.color == mover { 2 } else { 8 };
                base + (p.role as u8 - 1)
            }
        };
    }
    codes
}

/// Plane codes of an observation: the view now and the view after the mover's previous
/// move (all fog when there is none).
pub fn observation_codes(obs: &Observation) -> ([u8; 64], [u8; 64]) {
    let mover = obs.color();
    let now = plane_codes(obs.view(), mover);
    let prev = obs.previous().map_or([FOG; 64], |v| plane_codes(v, mover));
    (now, prev)
}

/// The indices of the inputs that are 1.0 (one per square and view): `64` or `128` of
/// them, the rest of the input vector being 0.0.
pub fn active_inputs(now: &[u8; 64], prev: Option<&[u8; 64]>, out: &mut Vec<usize>) {
    out.clear();
    for (sq, &c) in now.iter().enumerate() {
        out.push(c as usize * 64 + sq);
    }
    if let Some(prev) = prev {
        for (sq, &c) in prev.iter().enumerate() {
            out.push(VIEW_INPUTS + c as usize * 64 + sq);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::{Position, RuleSet};

    #[test]
    fn start_position_codes_for_both_sides_look_the_same() {
        let pos = Position::startpos();
        let rules = RuleSet::thesis();
        let w = plane_codes(&FogView::of(&pos, Color::White, &rules), Color::White);
        let b = plane_codes(&FogView::of(&pos, Color::Black, &rules), Color::Black);
        // Mirrored start position: each side sees the same from its own side.
        assert_eq!(w, b);
        assert_eq!(w[Square::E1 as usize], 2 + 5); // own king
        assert_eq!(w[Square::E2 as usize], 2); // own pawn
        assert_eq!(w[Square::E4 as usize], EMPTY);
        assert_eq!(w[Square::E7 as usize], FOG);
        let mut idx = Vec::new();
        active_inputs(&w, None, &mut idx);
        assert_eq!(idx.len(), 64);
        assert!(idx.iter().all(|&i| i < VIEW_INPUTS));
        active_inputs(&w, Some(&b), &mut idx);
        assert_eq!(idx.len(), 128);
        assert_eq!(idx[64], VIEW_INPUTS + (w[0] as usize) * 64);
    }

    #[test]
    fn black_sees_the_board_mirrored_with_the_colours_swapped() {
        // Black: king e8, knight g8, pawn b7; White: king e1, rook a1, queen h6 (which
        // Black's knight attacks, so sees).
        let pos: Position = "4k1n1/1p6/7Q/8/8/8/8/R3K3 b - - 0 1".parse().unwrap();
        let rules = RuleSet::thesis();
        let codes = plane_codes(&FogView::of(&pos, Color::Black, &rules), Color::Black);
        // Rows mirrored (rank 8 is Black's rank 1), Black's pieces on the mover's planes.
        assert_eq!(codes[Square::E1 as usize], 2 + 5); // own king, e8
        assert_eq!(codes[Square::G1 as usize], 2 + 1); // own knight, g8
        assert_eq!(codes[Square::B2 as usize], 2); // own pawn, b7
        assert_eq!(codes[Square::B3 as usize], EMPTY); // b6, the pawn's push
        assert_eq!(codes[Square::B4 as usize], EMPTY); // b5, its double push
        assert_eq!(codes[Square::H3 as usize], 8 + 4); // White's queen, h6
        assert_eq!(codes[Square::A8 as usize], FOG); // White's rook, a1, unseen
        assert_eq!(codes[Square::E8 as usize], FOG); // White's king, e1, unseen
        assert_eq!(codes.iter().filter(|&&c| c >= 8).count(), 1);
        // The same from White's side: no mirroring, White on the mover's planes.
        let codes = plane_codes(&FogView::of(&pos, Color::White, &rules), Color::White);
        assert_eq!(codes[Square::E1 as usize], 2 + 5);
        assert_eq!(codes[Square::A1 as usize], 2 + 3);
        assert_eq!(codes[Square::H6 as usize], 2 + 4);
        assert_eq!(codes[Square::G8 as usize], FOG); // Black's knight: the queen cannot see it
        assert_eq!(codes[Square::H8 as usize], EMPTY); // up the queen's file
                                                       // The thesis's input index 14 * square + plane of Black's king: its square is row
                                                       // 7 (rank 8 mirrored), column 4, 60; fow's input is plane * 64 + oriented square.
        let black = plane_codes(&FogView::of(&pos, Color::Black, &rules), Color::Black);
        let mut idx = Vec::new();
        active_inputs(&black, None, &mut idx);
        assert!(idx.contains(&crate::nn::thesis::fow_input(14 * 60 + 7)));
        assert_eq!(crate::nn::thesis::fow_input(14 * 60 + 7), 7 * 64 + 4);
    }

    #[test]
    fn enemy_pieces_get_enemy_planes() {
        let pos: Position = "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1".parse().unwrap();
        let codes = plane_codes(
            &FogView::of(&pos, Color::White, &RuleSet::thesis()),
            Color::White,
        );
        assert_eq!(codes[Square::D2 as usize], 8 + 4); // enemy queen, visible to the king
        let codes = plane_codes(
            &FogView::of(&pos, Color::Black, &RuleSet::thesis()),
            Color::Black,
        );
        // Black's queen on d2 is on Black's oriented d7.
        assert_eq!(codes[Square::D7 as usize], 2 + 4);
    }
}
