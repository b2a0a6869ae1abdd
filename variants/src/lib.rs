//! # fow-variants: the rules of fog-of-war chess
//!
//! Fog-of-war (dark) chess has no check: every pseudo-legal move is playable, including
//! moves that leave the king attacked, and capturing the king wins. Each side sees only
//! its own pieces and the squares its pieces could move to.
//!
//! - [`RuleSet`]: the switches that differ between platforms, with presets `thesis` and
//!   `chesscom`.
//! - [`Position`]: the true state; [`Game`] adds draw-rule memory.
//! - [`FogView`]: what one side sees (written as fog-FEN, `?` for fog);
//!   [`Observation`]: all a player gets for one decision.
//! - [`Move`] with UCI text, SAN ([`Position::san`]) and one reader for UCI, long
//!   algebraic and SAN ([`Position::parse_move`]), and [`perft()`].
//! - [`read_pgn`]: games in PGN with moves in SAN, UCI or long algebraic notation
//!   (chess.com's fog-of-war export), replayed by [`PgnGame::replay`]; [`read_pgn_games`]
//!   reads on past a bad game; [`PgnGame::from_moves`] and [`PgnGame::to_pgn`] write SAN.
//! - [`printable`] and [`quote`]: text from outside (a FEN, a move, a bot's message) made
//!   safe to repeat on one line, control characters escaped.
//!
//! Every reader takes arbitrary text without panicking and refuses what it cannot read
//! with a one-line error that says what is wrong in chess words (`tests/fuzz.rs`).
//!
//! Built on shakmaty's bitboards, attack tables, squares and FEN; shakmaty's own move
//! generator is for standard chess (legal moves only), so the generator here is ours.
//!
//! ```
//! use fow_variants::{Observation, Position, RuleSet};
//! let rules = RuleSet::chesscom();
//! let mut pos = Position::startpos();
//! let m = pos.parse_uci("e2e4", &rules).unwrap();
//! pos.play(&m);
//! let obs = Observation::new(&pos, &rules, 1, None);
//! // Black sees its own half, the squares in front and the knights' targets.
//! assert_eq!(obs.view().board_fen(), "rnbqkbnr/pppppppp/8/8/????????/????????/????????/????????");
//! ```

#![warn(missing_docs)]

mod bits;
mod epd;
mod error;
mod fen;
mod game;
mod movegen;
mod movelist;
mod moves;
mod moveset;
mod observation;
mod perft;
mod pgn;
mod position;
mod rules;
mod san;
mod sliders;
#[cfg(test)]
mod testing;
mod text;
mod view;

pub use bits::select_bit;
pub use error::{FenError, MoveError, RulesError};
pub use game::{Game, GameEnd, Outcome};
pub use movegen::MoveSource;
pub use moves::{Move, MoveKind, MoveText};
pub use observation::Observation;
pub use perft::{perft, perft_divide};
pub use pgn::{read_pgn, read_pgn_games, PgnError, PgnGame, PgnReplay, PgnResult, ReplayError};
pub use position::{apply_move, Position};
pub use rules::{Castling, Promotion, RuleSet};
pub use san::{parse_move_among, parse_san_among, san_among};
pub use text::{printable, quote, QUOTE_CHARS};
pub use view::{board_diagram, diagrams_side_by_side, piece_symbol, role_name, side_name, FogView};

/// shakmaty, re-exported so that users name the same types.
pub use shakmaty;
pub use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};
