//! Finding the brilliant and great moves of an analysed game ([`highlight_moves`]; the
//! rules and their thresholds are in [`crate::highlight`]).
//!
//! The cost is bounded by what the rules need: SEE on every move (no engine); the deeper
//! engine on the position before and after each sacrifice that is not a mistake or
//! blunder at the analysis depth (two positions each); and for each of the engine's own
//! moves that is not a winning capture and does not leave the mover lost, the other
//! legal moves valued at the analysis depth, captures first, until one does not fall
//! short (usually the first: a great move is rare), so at most all of them.

use fow_records::SavedGame;
use fow_variants::{Move, Position, RuleSet};

use crate::analysis::{win_chance, GameAnalysis, MoveAnalysis, MoveLabel};
use crate::analyze::{value_of, AnalysisError, Evaluator};
use crate::highlight::{
    brilliant_by, falls_short, Highlight, Outlook, SACRIFICE_CP, WINNING_CAPTURE_CP,
};
use crate::see::{see, see_value};

/// Marks each move of `analysis` (the analysis of `game` by `engine`) brilliant, great or
/// neither, with `deeper` (the same engine searching deeper, see
/// [`crate::EngineSettings::deeper_evaluator`]) confirming sacrifices. Returns how many
/// positions the two engines valued. Deterministic when the engines are.
pub fn highlight_moves(
    game: &SavedGame,
    analysis: &mut GameAnalysis,
    engine: &mut dyn Evaluator,
    deeper: &mut dyn Evaluator,
) -> Result<usize, AnalysisError> {
    let positions = game.positions();
    let rules = game.rules;
    let mut valued = 0;
    for m in &mut analysis.moves {
        m.highlight = Highlight::None;
        let i = m.ply - 1;
        let (Some(mv), Some(pos), Some(after)) =
            (game.moves.get(i), positions.get(i), positions.get(i + 1))
        else {
            continue;
        };
        if m.king_left_capturable || mv.captures_king() {
            continue;
        }
        let exchange = see(pos, mv);
        let sign = if pos.turn().is_white() { 1.0 } else { -1.0 };
        let mut value = |p: &Position, e: &mut dyn Evaluator| {
            valued += 1;
            value_of(p, &rules, e)
                .map(|v| win_chance(sign * v.cp))
                .map_err(|message| AnalysisError {
                    ply: i,
                    fen: p.fen(),
                    message,
                })
        };
        let error = matches!(m.label, MoveLabel::Mistake | MoveLabel::Blunder);
        if exchange <= -SACRIFICE_CP && !error {
            let before = value(pos, deeper)?;
            let after = value(after, deeper)?;
            if brilliant_by(exchange, before, after) {
                m.highlight = Highlight::Brilliant;
                continue;
            }
        }
        if could_be_great(m, exchange)
            && only_move(pos, mv, m.win_after, &rules, |p| value(p, engine))?
        {
            m.highlight = Highlight::Great;
        }
    }
    Ok(valued)
}

/// Whether `m` is worth checking for a great move: the engine's own choice, not a
/// winning capture, and the mover not lost after it.
fn could_be_great(m: &MoveAnalysis, exchange: i32) -> bool {
    m.label == MoveLabel::Best
        && exchange < WINNING_CAPTURE_CP
        && Outlook::of(m.win_after) > Outlook::Lost
}

/// Whether every legal move in `pos` other than `played` (after which the mover's win
/// chance is `played_win`) falls short of it, each valued by `value` (the mover's win
/// chance after it), captures of the most valuable pieces first; stops at the first that
/// does not. False with no other move.
fn only_move(
    pos: &Position,
    played: &Move,
    played_win: f64,
    rules: &RuleSet,
    mut value: impl FnMut(&Position) -> Result<f64, AnalysisError>,
) -> Result<bool, AnalysisError> {
    let mut others: Vec<Move> = pos
        .legal_moves(rules)
        .into_iter()
        .filter(|m| m != played)
        .collect();
    if others.is_empty() {
        return Ok(false);
    }
    others.sort_by_key(|m| std::cmp::Reverse(m.capture.map_or(0, see_value)));
    for m in &others {
        let mut p = pos.clone();
        p.play(m);
        if !falls_short(played_win, value(&p)?) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A game between `A` and `B` from `fen` with `moves` (UCI, space-separated) under the
/// thesis's rules, for tests.
#[cfg(test)]
pub(crate) fn test_game(fen: &str, moves: &str) -> SavedGame {
    let rules = RuleSet::thesis();
    let start: Position = fen.parse().unwrap();
    let (_, moves, _) = fow_records::replay_uci(&start, moves, &rules).unwrap();
    let mut game = SavedGame::from_uci("A", "B", rules, &[]).unwrap();
    game.start = start;
    game.moves = moves;
    game
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::{analyze_game, MyStockfishEvaluator};

    /// The highlights of `moves` from `fen`, analysed at depth 2 and confirmed at 4.
    fn highlights(fen: &str, moves: &str) -> Vec<Highlight> {
        let game = test_game(fen, moves);
        let mut engine = MyStockfishEvaluator::new(2, None);
        let mut deeper = MyStockfishEvaluator::new(4, None);
        let mut a = analyze_game(&game, &mut engine).unwrap();
        highlight_moves(&game, &mut a, &mut engine, &mut deeper).unwrap();
        a.moves.iter().map(|m| m.highlight).collect()
    }

    /// The knight on e7 shields its king from the rook on e1. 1. Qc6 puts the queen
    /// where the knight attacks it (SEE: the queen for nothing), but Nxc6 lets Rxe8 take
    /// the king, and the queen threatens the king and the rook on a8: after 1... Kf8
    /// and then Qxa8, White, a knight down before, is up the exchange.
    const PIN: &str = "r3k3/p3nppp/7n/7b/8/8/2Q2PPP/4R1K1 w - - 0 1";

    #[test]
    fn a_sacrifice_the_deeper_search_confirms_is_brilliant() {
        let pos: Position = PIN.parse().unwrap();
        let m = pos.parse_uci("c2c6", &RuleSet::thesis()).unwrap();
        assert_eq!(see(&pos, &m), -900);
        let h = highlights(PIN, "c2c6 e8f8 c6a8");
        assert_eq!(h[0], Highlight::Brilliant);
        // Taking the rook wins material: neither.
        assert_eq!(h[2], Highlight::None);
    }

    #[test]
    fn a_sacrifice_that_just_loses_is_not_brilliant() {
        // The same queen move with the rook on d1: nothing shields the king any more,
        // the knight takes the queen.
        let fen = "r3k3/p3nppp/7n/7b/8/8/2Q2PPP/3R2K1 w - - 0 1";
        assert_eq!(highlights(fen, "c2c6 e7c6"), [Highlight::None; 2]);
        // With a rook more, White was winning anyway: giving material back is no feat.
        let won = "r3k3/p3nppp/8/7b/8/8/2Q2PPP/R3R1K1 w - - 0 1";
        assert_eq!(highlights(won, "c2c6")[0], Highlight::None);
        // With the pin, a quiet queen move that gives nothing up is not brilliant either.
        assert_eq!(highlights(PIN, "c2d3")[0], Highlight::None);
    }

    /// Black's rook on a1 attacks White's king on g1 along the first rank: only Kh2
    /// saves the king (the rook on c7 cannot reach the first rank past its pawn).
    const ONE_FLIGHT: &str = "6k1/2R2ppp/8/8/8/7P/2P2PP1/r5K1 w - - 0 1";

    #[test]
    fn the_only_move_that_keeps_the_result_is_great() {
        assert_eq!(highlights(ONE_FLIGHT, "g1h2"), [Highlight::Great]);
    }

    #[test]
    fn a_good_move_that_is_not_the_only_one_is_not_great() {
        // Without the pawn on f2 the king has two flights, Kf2 and Kh2.
        let two_flights = "6k1/2R2ppp/8/8/8/7P/2P3P1/r5K1 w - - 0 1";
        assert_eq!(highlights(two_flights, "g1f2"), [Highlight::None]);
        assert_eq!(highlights(two_flights, "g1h2"), [Highlight::None]);
        // The only move that saves the king, but it takes a rook for nothing: the
        // obvious move, not great.
        let take = "6k1/R4ppp/8/8/8/8/5PPP/r5K1 w - - 0 1";
        assert_eq!(highlights(take, "a7a1"), [Highlight::None]);
        // A move that loses at once is nothing either.
        assert_eq!(highlights(ONE_FLIGHT, "c7c8"), [Highlight::None]);
    }
}
