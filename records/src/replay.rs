//! A saved game step by step, as the replay viewers show it: for each ply the true
//! position, what White and what Black saw there, and the move that led to it (its
//! number, SAN and UCI, the piece it captured, and the squares where each side's view
//! changed).
//!
//! ```
//! use fow_records::{replay_frames, load_game};
//! use fow_variants::RuleSet;
//! # let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/chesscom-fow");
//! let game = load_game(&dir, Some(1), &RuleSet::thesis()).unwrap();
//! let frames = replay_frames(&game);
//! assert_eq!(frames.len(), game.moves.len() + 1);
//! assert!(frames[0].played.is_none());
//! let first = frames[1].played.as_ref().unwrap();
//! assert_eq!((first.uci.as_str(), first.san.as_str()), ("d2d4", "d4"));
//! assert_eq!(first.numbered(), "1. d4");
//! ```

use fow_variants::{Color, FogView, Move, Piece, Position, Square};

use crate::saved::SavedGame;

/// The position after `ply` plies and what each side saw there.
#[derive(Clone, Debug)]
pub struct Frame {
    /// Plies played so far (0: the start position).
    pub ply: usize,
    /// The true position.
    pub position: Position,
    /// What White sees in `position`.
    pub white: FogView,
    /// What Black sees in `position`.
    pub black: FogView,
    /// The move that led here (`None` for the start position).
    pub played: Option<Played>,
}

impl Frame {
    /// What `color` sees in this frame's position.
    pub fn view(&self, color: Color) -> &FogView {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

/// A move of a replayed game with what it did.
#[derive(Clone, Debug)]
pub struct Played {
    /// The move.
    pub mv: Move,
    /// Who played it.
    pub mover: Color,
    /// The full-move number it was played at (1 for `1. e4` and `1... e5`).
    pub number: u32,
    /// The move in UCI.
    pub uci: String,
    /// The move in SAN (no check marks: fog-of-war chess has no check).
    pub san: String,
    /// The piece it captured and where that piece stood (differs from the target square
    /// for en passant).
    pub capture: Option<(Piece, Square)>,
    /// The squares where White's view differs from the one before the move (a square
    /// that came out of or went into fog, or whose visible content changed).
    pub white_changed: Vec<Square>,
    /// The same for Black's view.
    pub black_changed: Vec<Square>,
}

impl Played {
    /// The move with its number, `12. Nf3` or `12... Nf6`.
    pub fn numbered(&self) -> String {
        match self.mover {
            Color::White => format!("{}. {}", self.number, self.san),
            Color::Black => format!("{}... {}", self.number, self.san),
        }
    }

    /// The squares where `color`'s view changed with this move.
    pub fn changed(&self, color: Color) -> &[Square] {
        match color {
            Color::White => &self.white_changed,
            Color::Black => &self.black_changed,
        }
    }
}

/// Every frame of `game`: the start position, then the position after each move (one
/// more frame than moves).
pub fn replay_frames(game: &SavedGame) -> Vec<Frame> {
    let rules = &game.rules;
    let mut pos = game.start.clone();
    let mut white = FogView::of(&pos, Color::White, rules);
    let mut black = FogView::of(&pos, Color::Black, rules);
    let mut frames = Vec::with_capacity(game.moves.len() + 1);
    frames.push(Frame {
        ply: 0,
        position: pos.clone(),
        white: white.clone(),
        black: black.clone(),
        played: None,
    });
    for (i, m) in game.moves.iter().enumerate() {
        let mover = pos.turn();
        let number = pos.fullmoves();
        let san = pos.san(m, rules);
        let capture = m
            .capture_square()
            .and_then(|sq| pos.board().piece_at(sq).map(|p| (p, sq)));
        pos.play(m);
        let new_white = FogView::of(&pos, Color::White, rules);
        let new_black = FogView::of(&pos, Color::Black, rules);
        let played = Played {
            mv: *m,
            mover,
            number,
            uci: m.uci(),
            san,
            capture,
            white_changed: view_changes(&white, &new_white),
            black_changed: view_changes(&black, &new_black),
        };
        white = new_white;
        black = new_black;
        frames.push(Frame {
            ply: i + 1,
            position: pos.clone(),
            white: white.clone(),
            black: black.clone(),
            played: Some(played),
        });
    }
    frames
}

/// The squares whose look differs between two views of one side: fog or not, and the
/// visible piece.
fn view_changes(before: &FogView, after: &FogView) -> Vec<Square> {
    let fog_changed = before.visible() ^ after.visible();
    Square::ALL
        .into_iter()
        .filter(|&sq| {
            fog_changed.contains(sq)
                || (after.visible().contains(sq) && before.piece_at(sq) != after.piece_at(sq))
        })
        .collect()
}

/// The game's end in words: `0-1, Black wins (White resigned)`, `1/2-1/2, draw
/// (repetition)`, or `* (unfinished or unknown)`.
pub fn outcome_text(game: &SavedGame) -> String {
    let mut s = match game.result {
        Some(r) => match r.winner() {
            Some(Color::White) => format!("{r}, White wins"),
            Some(Color::Black) => format!("{r}, Black wins"),
            None => format!("{r}, draw"),
        },
        None => "* (unfinished or unknown)".to_string(),
    };
    if !game.termination.is_empty() {
        s.push_str(&format!(" ({})", game.termination));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::GameResult;
    use fow_variants::{Role, RuleSet};

    fn game(moves: &[&str]) -> SavedGame {
        let mut g = SavedGame::from_uci("A", "B", RuleSet::chesscom(), moves).unwrap();
        g.source = "test game 1".into();
        g.result = Some(GameResult::WhiteWins);
        g.termination = "king captured".into();
        g
    }

    #[test]
    fn frames_follow_the_game() {
        let g = game(&["e2e4", "d7d5", "e4d5", "d8d5"]);
        let f = replay_frames(&g);
        assert_eq!(f.len(), 5);
        let p3 = f[3].played.as_ref().unwrap();
        assert_eq!(p3.mover, Color::White);
        assert_eq!(p3.number, 2);
        assert_eq!(p3.capture, Some((Role::Pawn.of(Color::Black), Square::D5)));
        let p4 = f[4].played.as_ref().unwrap();
        assert_eq!(p4.numbered(), format!("2... {}", p4.san));
        // Views are those of the library, and a side's pieces are always visible to it.
        for fr in &f {
            assert_eq!(fr.white, FogView::of(&fr.position, Color::White, &g.rules));
            assert!(fr.black.visible().is_superset(fr.position.board().black()));
        }
    }

    #[test]
    fn view_changes_name_the_squares() {
        let g = game(&["e2e4", "d7d5"]);
        let f = replay_frames(&g);
        // 1. e4: White's pawn leaves e2 and reaches e4, so both squares changed for White;
        // Black sees none of it (e4 is in fog for Black before and after).
        let p1 = f[1].played.as_ref().unwrap();
        assert!(p1.white_changed.contains(&Square::E2));
        assert!(p1.white_changed.contains(&Square::E4));
        assert!(!p1.black_changed.contains(&Square::E4));
        // 1... d5: now Black's pawn attacks e4, so Black sees White's pawn there.
        let p2 = f[2].played.as_ref().unwrap();
        assert!(p2.black_changed.contains(&Square::E4));
        assert_eq!(
            f[2].black.piece_at(Square::E4),
            Some(Role::Pawn.of(Color::White))
        );
        assert_eq!(outcome_text(&g), "1-0, White wins (king captured)");
    }
}
