//! Perft: counting the move tree, the standard check of a move generator.

use crate::moves::Move;
use crate::moveset::MoveSet;
use crate::position::Position;
use crate::rules::RuleSet;

/// Counts the leaf nodes of the move tree of depth `depth`. A position whose king was
/// just captured is a leaf (the game is over); draw rules are not applied.
///
/// ```
/// use fow_variants::{perft, Position, RuleSet};
/// assert_eq!(perft(&Position::startpos(), 3, &RuleSet::thesis()), 8_902);
/// ```
pub fn perft(pos: &Position, depth: u32, rules: &RuleSet) -> u64 {
    let mut buffers: Vec<(MoveSet, Vec<Move>)> = (0..=depth)
        .map(|_| {
            (
                MoveSet::new(pos.turn(), rules.promotion),
                Vec::with_capacity(64),
            )
        })
        .collect();
    count(pos, depth, rules, &mut buffers)
}

fn count(pos: &Position, depth: u32, rules: &RuleSet, buffers: &mut [(MoveSet, Vec<Move>)]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let ((set, moves), rest) = buffers.split_first_mut().expect("a buffer per level");
    pos.move_set_into(rules, set);
    if depth == 1 {
        return set.len() as u64;
    }
    set.write_to(pos.board(), moves);
    let mut n = 0;
    for m in moves.iter() {
        if m.captures_king() {
            n += 1;
            continue;
        }
        let mut child = pos.clone();
        child.play(m);
        n += count(&child, depth - 1, rules, rest);
    }
    n
}

/// Perft split by first move: each legal move with the leaf count below it.
pub fn perft_divide(pos: &Position, depth: u32, rules: &RuleSet) -> Vec<(Move, u64)> {
    let depth = depth.max(1);
    pos.legal_moves(rules)
        .into_iter()
        .map(|m| {
            if m.captures_king() {
                return (m, 1);
            }
            let mut child = pos.clone();
            child.play(&m);
            (m, perft(&child, depth - 1, rules))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_matches_standard_chess_while_no_king_can_fall() {
        for rules in [RuleSet::thesis(), RuleSet::chesscom()] {
            let p = Position::startpos();
            assert_eq!(perft(&p, 1, &rules), 20);
            assert_eq!(perft(&p, 2, &rules), 400);
            assert_eq!(perft(&p, 3, &rules), 8_902);
        }
    }

    #[test]
    fn divide_sums_to_perft() {
        let p = Position::startpos();
        let rules = RuleSet::chesscom();
        let d = perft_divide(&p, 3, &rules);
        assert_eq!(d.len(), 20);
        assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), perft(&p, 3, &rules));
    }
}
