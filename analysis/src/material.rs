//! Material-balance samples from recorded games, for fitting piece values.
//!
//! Each sample is one position of a game seen from the side to move: the features are
//! own minus enemy counts of pawns, knights, bishops, rooks and queens (kings excluded),
//! and the label is the side to move's final score (1 win, 0 loss, 0.5 draw). A logistic
//! fit of labels on features (`fow_ratings::fit_logistic`) turns them into piece values.
//!
//! Positions in the middle of an exchange would blur the values (a side a knight up for
//! one ply, until the recapture, is not really a knight up), so positions less than
//! `skip` plies after a capture are left out: with `skip = 2`, the position right after a
//! capture and the one after that. Nothing else is filtered (in particular not positions
//! where a capture is merely possible). Every position before a move is a candidate,
//! and the final position too unless a king is missing from it (after a king capture).
//!
//! Samples from one game are strongly correlated, so standard errors computed as if they
//! were independent are too small.

use fow_variants::{Board, Color, Move, PgnGame, PgnResult, Position, ReplayError, Role, RuleSet};

use fow_records::GameResult;
use fow_records::GameRow;

/// The roles whose counts are the features, in feature order.
pub const MATERIAL_ROLES: [Role; 5] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];

/// Lower-case names of [`MATERIAL_ROLES`], in the same order.
pub const MATERIAL_NAMES: [&str; 5] = ["pawn", "knight", "bishop", "rook", "queen"];

/// What to do with drawn games (also `fow tune-material --draws`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Draws {
    /// Draws count as half a win (label 0.5).
    #[default]
    Half,
    /// Drawn games are left out.
    Skip,
}

/// Settings of the sample extraction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaterialOptions {
    /// Leave out the positions 1 to `skip` plies after each capture (0: keep all).
    pub skip: usize,
    /// Drawn games: labelled 0.5, or left out.
    pub draws: Draws,
}

impl Default for MaterialOptions {
    fn default() -> MaterialOptions {
        MaterialOptions {
            skip: 2,
            draws: Draws::Half,
        }
    }
}

/// One position: material balance from the side to move's view, and its final score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MaterialSample {
    /// Own minus enemy count of pawn, knight, bishop, rook, queen.
    pub features: [f64; 5],
    /// The side to move's score in the game: 1, 0.5 or 0.
    pub label: f64,
}

/// Own minus enemy counts of [`MATERIAL_ROLES`] on a board, for `side`.
///
/// ```
/// use fow_analysis::material_balance;
/// use fow_variants::{Color, Position};
/// let pos = Position::from_fen("4k3/8/8/8/8/8/PPP5/RN2K3 w - - 0 1").unwrap();
/// assert_eq!(material_balance(pos.board(), Color::White), [3, 1, 0, 1, 0]);
/// assert_eq!(material_balance(pos.board(), Color::Black), [-3, -1, 0, -1, 0]);
/// ```
pub fn material_balance(board: &Board, side: Color) -> [i32; 5] {
    MATERIAL_ROLES.map(|role| {
        let of = |c: Color| (board.by_role(role) & board.by_color(c)).count() as i32;
        of(side) - of(!side)
    })
}

/// The samples of a game given as a start position, its moves (legal in turn; not
/// checked) and its result. Returns no samples for a draw under [`Draws::Skip`].
pub fn game_samples(
    start: &Position,
    moves: &[Move],
    result: GameResult,
    opts: &MaterialOptions,
) -> Vec<MaterialSample> {
    if result == GameResult::Draw && opts.draws == Draws::Skip {
        return Vec::new();
    }
    let mut pos = start.clone();
    let mut samples = Vec::new();
    // Plies since the last capture (large: none yet).
    let mut since_capture = usize::MAX;
    for i in 0..=moves.len() {
        let keep = since_capture > opts.skip
            && (i < moves.len() || (pos.has_king(Color::White) && pos.has_king(Color::Black)));
        if keep {
            let us = pos.turn();
            let white = result.white_points();
            samples.push(MaterialSample {
                features: material_balance(pos.board(), us).map(f64::from),
                label: if us == Color::White {
                    white
                } else {
                    1.0 - white
                },
            });
        }
        if let Some(m) = moves.get(i) {
            pos.play(m);
            since_capture = if m.is_capture() {
                1
            } else {
                since_capture.saturating_add(1)
            };
        }
    }
    samples
}

/// The samples of one row of a `games.csv`, replaying its moves from its start under
/// `rules`. `Ok(None)` for a game not to use: one lost by a player's fault (illegal
/// move, crash, timeout, ...), or a draw under [`Draws::Skip`]. The error says which move
/// could not be replayed.
pub fn row_samples(
    row: &GameRow,
    rules: &RuleSet,
    opts: &MaterialOptions,
) -> Result<Option<Vec<MaterialSample>>, String> {
    let result = row.game_result()?;
    if row.game_reason()?.is_fault() || (result == GameResult::Draw && opts.draws == Draws::Skip) {
        return Ok(None);
    }
    let moves = row.legal_moves(rules)?;
    Ok(Some(game_samples(
        &row.start_position()?,
        &moves,
        result,
        opts,
    )))
}

/// The samples of a PGN game, replayed and checked under `rules` (see
/// [`check_pgn_game`](fow_records::check_pgn_game)). `Ok(None)` for a game without a decided
/// result (`*`) or a draw under [`Draws::Skip`].
pub fn pgn_samples(
    game: &PgnGame,
    rules: &RuleSet,
    opts: &MaterialOptions,
) -> Result<Option<Vec<MaterialSample>>, ReplayError> {
    let replay = fow_records::check_pgn_game(game, rules)?;
    let result = match game.result {
        None => return Ok(None),
        Some(PgnResult::WhiteWins) => GameResult::WhiteWins,
        Some(PgnResult::BlackWins) => GameResult::BlackWins,
        Some(PgnResult::Draw) if opts.draws == Draws::Skip => return Ok(None),
        Some(PgnResult::Draw) => GameResult::Draw,
    };
    Ok(Some(game_samples(
        &replay.positions[0],
        &replay.moves,
        result,
        opts,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::read_pgn;

    /// 1. e4 d5 2. exd5 Qxd5 3. Nc3 Qxd2 4. Bxd2 Nf6 5. Bb5 Ne4 6. Bxe8 (king capture).
    const GAME: &str = "e2e4 d7d5 e4d5 d8d5 b1c3 d5d2 c1d2 g8f6 f1b5 f6e4 b5e8";

    fn moves(text: &str) -> (Position, Vec<Move>) {
        let rules = RuleSet::thesis();
        let start = Position::startpos();
        let mut pos = start.clone();
        let mut out = Vec::new();
        for t in text.split_whitespace() {
            let m = pos.parse_uci(t, &rules).unwrap();
            pos.play(&m);
            out.push(m);
        }
        (start, out)
    }

    #[test]
    fn skips_positions_right_after_captures() {
        let (start, mv) = moves(GAME);
        assert_eq!(mv.len(), 11);
        let all = MaterialOptions {
            skip: 0,
            draws: Draws::Half,
        };
        // 11 positions before moves; the final one lacks Black's king.
        let s = game_samples(&start, &mv, GameResult::WhiteWins, &all);
        assert_eq!(s.len(), 11);
        // Captures on plies 3, 4, 6, 7 (and 11, the king). skip 2 drops the positions
        // 1 and 2 plies after each: 3..=4, 4..=5, 6..=7, 7..=8.
        let s2 = game_samples(
            &start,
            &mv,
            GameResult::WhiteWins,
            &MaterialOptions::default(),
        );
        assert_eq!(s2.len(), 11 - 6);
        // skip 1 drops 3, 4, 6, 7.
        let s1 = game_samples(
            &start,
            &mv,
            GameResult::WhiteWins,
            &MaterialOptions { skip: 1, ..all },
        );
        assert_eq!(s1.len(), 11 - 4);
    }

    #[test]
    fn features_and_labels_take_the_side_to_move_s_view() {
        let (start, mv) = moves(GAME);
        let all = MaterialOptions {
            skip: 0,
            draws: Draws::Half,
        };
        let s = game_samples(&start, &mv, GameResult::WhiteWins, &all);
        assert_eq!(s[0].features, [0.0; 5]);
        assert_eq!(s[0].label, 1.0);
        // After 2. exd5 (ply 3) Black is to move, a pawn down, and lost.
        assert_eq!(s[3].features, [-1.0, 0.0, 0.0, 0.0, 0.0]);
        assert_eq!(s[3].label, 0.0);
        // After 3... Qxd2 4. Bxd2 (ply 7) Black is to move: a pawn up, a queen down.
        assert_eq!(s[7].features, [1.0, 0.0, 0.0, 0.0, -1.0]);
        let d = game_samples(&start, &mv, GameResult::Draw, &all);
        assert!(d.iter().all(|x| x.label == 0.5));
        let skip = MaterialOptions {
            draws: Draws::Skip,
            ..all
        };
        assert!(game_samples(&start, &mv, GameResult::Draw, &skip).is_empty());
        let b = game_samples(&start, &mv, GameResult::BlackWins, &all);
        assert_eq!((b[0].label, b[1].label), (0.0, 1.0));
    }

    #[test]
    fn the_final_position_counts_when_both_kings_stand() {
        let (start, mv) = moves("e2e4 e7e5 g1f3");
        let s = game_samples(
            &start,
            &mv,
            GameResult::BlackWins,
            &MaterialOptions::default(),
        );
        assert_eq!(s.len(), 4);
        assert_eq!(s[3].label, 1.0, "Black to move at the end, and Black won");
    }

    #[test]
    fn rows_and_pgn_games_give_the_same_samples() {
        let row = GameRow {
            result: "1-0".into(),
            reason: "king captured".into(),
            moves: GAME.into(),
            ..GameRow::default()
        };
        let opts = MaterialOptions::default();
        let a = row_samples(&row, &RuleSet::thesis(), &opts)
            .unwrap()
            .unwrap();
        let pgn = format!("[Result \"1-0\"]\n\n{GAME} 1-0\n");
        let game = &read_pgn(&pgn).unwrap()[0];
        let b = pgn_samples(game, &RuleSet::thesis(), &opts)
            .unwrap()
            .unwrap();
        assert_eq!(a, b);
        // Faults and undecided games are left out; bad moves are errors.
        let fault = GameRow {
            reason: "illegal move".into(),
            ..row.clone()
        };
        assert_eq!(row_samples(&fault, &RuleSet::thesis(), &opts), Ok(None));
        let open = &read_pgn("1. e2e4 *").unwrap()[0];
        assert!(pgn_samples(open, &RuleSet::thesis(), &opts)
            .unwrap()
            .is_none());
        let bad = GameRow {
            moves: "e2e4 e2e4".into(),
            ..row
        };
        let e = row_samples(&bad, &RuleSet::thesis(), &opts).unwrap_err();
        assert!(e.contains("ply 2"), "{e}");
    }
}
