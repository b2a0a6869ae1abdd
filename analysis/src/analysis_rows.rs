//! The check every analysis read back passes, whatever its file: each row a move of its
//! game, read once.

use fow_records::SavedGame;

use crate::analysis::MoveAnalysis;

/// Why `row` cannot be a row of `game`'s analysis that already has `rows`: a ply the
/// game does not have, another move than the game's there, or a ply read twice.
pub(crate) fn check_row(
    row: &MoveAnalysis,
    rows: &[MoveAnalysis],
    game: &SavedGame,
) -> Result<(), String> {
    let Some(m) = row.ply.checked_sub(1).and_then(|i| game.moves.get(i)) else {
        return Err(format!(
            "ply {} is not a move of {} ({} plies)",
            row.ply,
            game.source,
            game.moves.len()
        ));
    };
    if m.uci() != row.uci {
        return Err(format!(
            "ply {} is {} but {} played {} there: the analysis is of another game",
            row.ply,
            row.uci,
            game.source,
            m.uci()
        ));
    }
    if rows.iter().any(|r| r.ply == row.ply) {
        return Err(format!("ply {} appears twice", row.ply));
    }
    Ok(())
}
