//! [`GreedyModel`]: how likely the opponent was to play each of its moves, for weighing
//! the boards of a belief set ([`crate::belief::board_list::OpponentModel`]).

use fow_variants::{Color, Move, Position, Role, Square};

use crate::belief::board_list::OpponentModel;
use crate::search::{evaluate, learned, tapered, Eval, PAWN};

/// A softmax over the opponent's moves of what each gains at once under a static
/// evaluation: the move's probability on a board is `exp(beta * gain) / sum`, the gain
/// in pawns for the mover (its piece's value on the target square, promoted if it
/// promotes, less its value on the origin, plus the value of what it captures). With
/// `beta` 0 every move of a board is equally likely (a board with fewer moves makes each
/// more likely); a king capture, worth a thousand pawns, takes all the probability of a
/// board where it is possible, so that boards on which the opponent could have taken
/// our king but did not become very unlikely.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GreedyModel {
    /// How sharply the model prefers better moves, per pawn of gain.
    pub beta: f64,
    /// The evaluation whose piece values (for a tapered one, its middle-game ones)
    /// measure the gain.
    pub eval: Eval,
}

impl GreedyModel {
    /// The signed value (plus for White, micro-pawns) of a `color` `role` on `sq`.
    fn value(&self, color: Color, role: Role, sq: Square) -> i64 {
        match self.eval {
            Eval::Thesis => evaluate::piece_value(color, role, sq),
            Eval::Tapered => tapered::piece_values(color, role, sq).0,
            Eval::Learned => learned::piece_values(color, role, sq).0,
        }
    }

    /// What `m` gains at once for the side to move on `board`, in pawns.
    pub fn gain(&self, board: &Position, m: &Move) -> f64 {
        let us = board.turn();
        let mut delta =
            self.value(us, m.promotion.unwrap_or(m.role), m.to) - self.value(us, m.role, m.from);
        if let (Some(role), Some(sq)) = (m.capture, m.capture_square()) {
            delta -= self.value(!us, role, sq);
        }
        let delta = if us.is_white() { delta } else { -delta };
        delta as f64 / PAWN as f64
    }
}

impl OpponentModel for GreedyModel {
    fn weigh(&mut self, board: &Position, moves: &[Move], weights: &mut Vec<f64>) {
        weights.extend(moves.iter().map(|m| self.gain(board, m)));
        let best = weights.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut sum = 0.0;
        for w in weights.iter_mut() {
            *w = (self.beta * (*w - best)).exp();
            sum += *w;
        }
        for w in weights.iter_mut() {
            // Never 0: a board the model finds unlikely is still consistent, and is kept
            // when there is room.
            *w = (*w / sum).max(f64::MIN_POSITIVE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::RuleSet;

    fn weights(model: GreedyModel, fen: &str) -> (Vec<Move>, Vec<f64>) {
        let pos: Position = fen.parse().unwrap();
        let moves = pos.legal_moves(&RuleSet::thesis());
        let mut w = Vec::new();
        let mut m = model;
        m.weigh(&pos, &moves, &mut w);
        (moves, w)
    }

    #[test]
    fn probabilities_sum_to_one_and_rise_with_the_gain() {
        // White can take the queen on d5 with the pawn, or the knight on f5 with it.
        let fen = "4k3/8/8/3q1n2/4P3/8/8/4K3 w - - 0 1";
        let model = GreedyModel {
            beta: 1.0,
            eval: Eval::Thesis,
        };
        let (moves, w) = weights(model, fen);
        assert_eq!(moves.len(), w.len());
        assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let at = |uci: &str| w[moves.iter().position(|m| m.uci() == uci).unwrap()];
        assert!(at("e4d5") > at("e4f5"));
        assert!(at("e4f5") > at("e4e5"));
        // Gains: the pawn's own step, then the captured piece's value.
        let pos: Position = fen.parse().unwrap();
        let take = moves.iter().find(|m| m.uci() == "e4d5").unwrap();
        let gain = model.gain(&pos, take);
        assert!(
            (gain - (0.01 + 8.0 - 0.2 * 0.5f64.hypot(0.5))).abs() < 1e-5,
            "{gain}"
        );
        // Black's gains are from Black's side: taking the pawn gains.
        let black: Position = "4k3/8/8/3q4/4P3/8/8/4K3 b - - 0 1".parse().unwrap();
        let m = black
            .legal_moves(&RuleSet::thesis())
            .into_iter()
            .find(|m| m.uci() == "d5e4")
            .unwrap();
        assert!(model.gain(&black, &m) > 0.9);
    }

    #[test]
    fn without_beta_every_move_is_as_likely_and_a_king_capture_takes_all() {
        let flat = GreedyModel {
            beta: 0.0,
            eval: Eval::Tapered,
        };
        let (moves, w) = weights(flat, "4k3/8/8/3q1n2/4P3/8/8/4K3 w - - 0 1");
        let each = 1.0 / moves.len() as f64;
        assert!(w.iter().all(|&x| (x - each).abs() < 1e-12));
        // The rook can take the king on e8.
        let sharp = GreedyModel {
            beta: 1.0,
            eval: Eval::Tapered,
        };
        let (moves, w) = weights(sharp, "4k3/8/8/8/8/8/8/4RK2 w - - 0 1");
        let king = moves.iter().position(|m| m.captures_king()).unwrap();
        assert!(w[king] > 0.999_999);
        assert!(w.iter().all(|&x| x > 0.0));
    }
}
