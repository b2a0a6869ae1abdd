//! Reading FEN and fog-FEN, with errors that say in chess words what is wrong.
//!
//! shakmaty's FEN reader also reads variants (crazyhouse pockets, promoted pieces,
//! three-check counters) and clamps what does not fit, so a board with a ninth rank came
//! out as "invalid pocket" or as a position without a king, and a huge half-move clock
//! was silently cut. Fog-of-war chess needs none of that: this reader takes exactly the
//! six fields of standard FEN and refuses anything else with the reason.

use std::num::NonZeroU32;

use shakmaty::{Bitboard, Board, ByColor, ByRole, Color, File, Piece, Rank, Setup, Square};

use crate::error::FenError;
use crate::text::quote;

/// The pieces and the visible squares of a FEN or fog-FEN board.
pub(crate) struct BoardParts {
    pub by_role: ByRole<Bitboard>,
    pub by_color: ByColor<Bitboard>,
    /// Every square but the `?` ones.
    pub visible: Bitboard,
}

impl BoardParts {
    pub(crate) fn board(&self) -> Board {
        Board::try_from_bitboards(self.by_role, self.by_color)
            .expect("one piece per square by construction")
    }
}

/// Reads the board field: 8 ranks separated by `/`, from rank 8 down, each of 8 squares
/// written as piece letters and counts of empty squares (1 to 8), and with `fog` also `?`
/// for a square in fog. The error says what is wrong, without the text.
pub(crate) fn read_board(text: &str, fog: bool) -> Result<BoardParts, String> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!(
            "a board has 8 ranks separated by '/', this one has {}",
            ranks.len()
        ));
    }
    let mut parts = BoardParts {
        by_role: ByRole::default(),
        by_color: ByColor::default(),
        visible: Bitboard::EMPTY,
    };
    for (i, row) in ranks.iter().enumerate() {
        let rank = Rank::new(7 - i as u32);
        let name = rank.char();
        if row.is_empty() {
            return Err(format!(
                "rank {name} is empty; a rank has 8 squares (piece letters and counts of empty squares)"
            ));
        }
        // Squares counted so far (may run past 8: the error then says how many).
        let mut file = 0u32;
        for ch in row.chars() {
            let at = (file < 8).then(|| Square::from_coords(File::new(file), rank));
            if let Some(n) = ch.to_digit(10) {
                if !(1..=8).contains(&n) {
                    return Err(format!(
                        "'{ch}' in rank {name} is no count of empty squares (those are 1 to 8)"
                    ));
                }
                for k in file..(file + n).min(8) {
                    parts.visible.add(Square::from_coords(File::new(k), rank));
                }
                file += n;
                continue;
            }
            file += 1;
            if ch == '?' && fog {
                continue;
            }
            let Some(piece) = Piece::from_char(ch) else {
                return Err(if ch == '?' {
                    format!("'?' (fog) in rank {name}: a true position has no fog (fog-FEN has)")
                } else {
                    format!(
                        "'{}' in rank {name} is not a piece letter (KQRBNP for White, kqrbnp for Black){}",
                        quote(&ch.to_string()),
                        if fog { ", '?' for fog" } else { "" }
                    )
                });
            };
            if let Some(sq) = at {
                parts.visible.add(sq);
                parts.by_role.get_mut(piece.role).add(sq);
                parts.by_color.get_mut(piece.color).add(sq);
            }
        }
        if file != 8 {
            return Err(format!(
                "rank {name} ('{}') has {file} squares; a rank has 8",
                quote(row)
            ));
        }
    }
    Ok(parts)
}

/// Reads the side-to-move field.
pub(crate) fn read_side(text: &str) -> Result<Color, String> {
    match text {
        "w" => Ok(Color::White),
        "b" => Ok(Color::Black),
        _ => Err(format!("the side to move is w or b, not '{}'", quote(text))),
    }
}

/// Reads the castling field: `-` or letters of `KQkq`, each at most once; `allowed`
/// limits them to one side's (fog-FEN names only its own side's rights).
pub(crate) fn read_castling(text: &str, allowed: Option<Color>) -> Result<Bitboard, String> {
    let mut rights = Bitboard::EMPTY;
    if text == "-" {
        return Ok(rights);
    }
    for ch in text.chars() {
        let (color, file) = match ch {
            'K' => (Color::White, File::H),
            'Q' => (Color::White, File::A),
            'k' => (Color::Black, File::H),
            'q' => (Color::Black, File::A),
            _ => {
                return Err(format!(
                    "the castling field is '-' or letters of KQkq, not '{}'",
                    quote(text)
                ))
            }
        };
        if let Some(side) = allowed.filter(|&s| s != color) {
            return Err(format!(
                "the castling field '{}' names {} rights in {} view",
                quote(text),
                possessive(color),
                possessive(side)
            ));
        }
        let sq = Square::from_coords(file, color.backrank());
        if rights.contains(sq) {
            return Err(format!(
                "the castling field '{}' names '{ch}' twice",
                quote(text)
            ));
        }
        rights.add(sq);
    }
    Ok(rights)
}

fn possessive(c: Color) -> &'static str {
    c.fold_wb("White's", "Black's")
}

/// Reads the en passant field: `-` or a square.
pub(crate) fn read_ep(text: &str) -> Result<Option<Square>, String> {
    if text == "-" {
        return Ok(None);
    }
    Square::from_ascii(text.as_bytes()).map(Some).map_err(|_| {
        format!(
            "the en passant field is '-' or a square such as e3, not '{}'",
            quote(text)
        )
    })
}

/// Reads a count field (the half-move clock, the move number): decimal digits whose value
/// fits the 32 bits fow keeps it in.
pub(crate) fn read_count(what: &str, text: &str) -> Result<u32, String> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "the {what} is a whole number, not '{}'",
            quote(text)
        ));
    }
    text.parse::<u32>().map_err(|_| {
        format!(
            "the {what} {} is too large (at most {})",
            quote(text),
            u32::MAX
        )
    })
}

/// The names of the six FEN fields, for messages.
const FIELDS: [&str; 6] = [
    "board",
    "side to move",
    "castling",
    "en passant",
    "half-move clock",
    "move number",
];

/// Reads standard FEN: the board, then optionally the side to move (`w`), castling
/// rights (`-`), en passant square (`-`), half-move clock (`0`) and move number (`1`),
/// separated by spaces (or `_`). The setup is not checked for playability here.
pub(crate) fn read_fen(text: &str) -> Result<Setup, FenError> {
    let text = text.trim();
    let bad = |why: String| FenError::Syntax(format!("malformed FEN '{}': {why}", quote(text)));
    let fields: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == '_')
        .filter(|s| !s.is_empty())
        .collect();
    let Some(&board) = fields.first() else {
        return Err(FenError::Syntax(
            "malformed FEN: the text is empty (a FEN starts with the board, e.g. rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR)"
                .into(),
        ));
    };
    if let Some(extra) = fields.get(FIELDS.len()) {
        return Err(bad(format!(
            "unexpected 7th field '{}' (a FEN has 6: {})",
            quote(extra),
            FIELDS.join(", ")
        )));
    }
    let parts = read_board(board, false).map_err(bad)?;
    let mut setup = Setup::empty();
    setup.board = parts.board();
    if let Some(side) = fields.get(1) {
        setup.turn = read_side(side).map_err(bad)?;
    }
    if let Some(castling) = fields.get(2) {
        setup.castling_rights = read_castling(castling, None).map_err(bad)?;
    }
    if let Some(ep) = fields.get(3) {
        setup.ep_square = read_ep(ep).map_err(bad)?;
    }
    if let Some(clock) = fields.get(4) {
        setup.halfmoves = read_count("half-move clock", clock).map_err(bad)?;
    }
    if let Some(number) = fields.get(5) {
        let n = read_count("move number", number).map_err(bad)?;
        setup.fullmoves = NonZeroU32::new(n)
            .ok_or_else(|| bad("the move number is 0; moves are numbered from 1".into()))?;
    }
    Ok(setup)
}
