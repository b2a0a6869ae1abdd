//! The moves column of a saved game (space-separated UCI) replayed under its rules, and
//! an end by the rules in words for the messages of the checks.

use fow_variants::{side_name, Color, Game, GameEnd, Move, MoveError, Outcome, Position, RuleSet};

/// The moves of `text` (space-separated UCI) played from `start` under
/// `rules`: the game after them, the moves, and the end the last one made. The error
/// (without the game's number) names the ply: an illegal move, or a move after the end
/// of the game by the rules.
pub fn replay_uci(
    start: &Position,
    text: &str,
    rules: &RuleSet,
) -> Result<(Game, Vec<Move>, Option<Outcome>), String> {
    let mut game = Game::new(start.clone(), *rules);
    let mut moves = Vec::with_capacity(text.len() / 5 + 1);
    let mut last: Option<Outcome> = None;
    for (i, t) in text.split_whitespace().enumerate() {
        let ply = i + 1;
        if let Some(o) = last {
            return Err(format!(
                "ply {ply}: {t} comes after the end of the game: {}",
                describe_end(o, i, rules, game.position().turn())
            ));
        }
        let m = match game.position().parse_uci(t, rules) {
            Ok(m) => m,
            Err(e @ MoveError::Illegal(_)) if game.position().legal_moves(rules).is_empty() => {
                let end = Outcome {
                    winner: None,
                    end: GameEnd::NoLegalMoves,
                };
                return Err(format!(
                    "ply {ply}: {e}: the game was over: {}",
                    describe_end(end, i, rules, game.position().turn())
                ));
            }
            Err(e) => return Err(format!("ply {ply}: {e} (rules {rules})")),
        };
        last = game.play(&m);
        moves.push(m);
    }
    Ok((game, moves, last))
}

/// An end by the rules after `plies` moves, `to_move` then to move, in words for
/// messages: `White captured the king with the last move (ply 57)`.
pub(crate) fn describe_end(o: Outcome, plies: usize, rules: &RuleSet, to_move: Color) -> String {
    match (o.end, o.winner) {
        (GameEnd::KingCaptured, w) => format!(
            "{} captured the king with the last move (ply {plies})",
            side_name(w.unwrap_or(Color::White))
        ),
        (GameEnd::NoProgress, _) => format!(
            "the last move (ply {plies}) completed {} plies without a capture or a pawn move, a draw by the no-progress rule",
            rules.draw_plies.unwrap_or(0)
        ),
        (GameEnd::Repetition, _) => format!(
            "the last move (ply {plies}) repeated the position a {}th time, a draw by repetition",
            rules.repetition.unwrap_or(0)
        ),
        (GameEnd::NoLegalMoves, _) if plies == 0 => format!(
            "{} has no legal move in the start position, a draw",
            side_name(to_move)
        ),
        (GameEnd::NoLegalMoves, _) => format!(
            "after the last move (ply {plies}) {} has no legal move, a draw",
            side_name(to_move)
        ),
    }
}
