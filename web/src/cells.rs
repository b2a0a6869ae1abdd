//! A view as the pages draw it ([`view_cells`]): 64 squares, a8 first and h1 last, `""`
//! empty, `"?"` fog, else the piece's FEN letter (as `fow replay --html` writes them).

use fow_variants::{FogView, Square};

/// The 64 squares of `view`, a8 first: what its side sees, fog where it sees nothing.
pub fn view_cells(view: &FogView) -> Vec<String> {
    let mut out = Vec::with_capacity(64);
    for rank in (0..8u32).rev() {
        for file in 0..8u32 {
            let sq = Square::new(rank * 8 + file);
            out.push(if !view.visible().contains(sq) {
                "?".to_string()
            } else {
                view.piece_at(sq)
                    .map_or(String::new(), |p| p.char().to_string())
            });
        }
    }
    out
}

/// The 64 squares of the whole board of `pos`, a8 first (nothing fogged).
pub fn board_cells(pos: &fow_variants::Position) -> Vec<String> {
    let mut out = Vec::with_capacity(64);
    for rank in (0..8u32).rev() {
        for file in 0..8u32 {
            let sq = Square::new(rank * 8 + file);
            out.push(
                pos.board()
                    .piece_at(sq)
                    .map_or(String::new(), |p| p.char().to_string()),
            );
        }
    }
    out
}
