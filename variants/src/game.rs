//! A game in progress: the true position plus what the draw rules need to remember.

use shakmaty::{Color, Role};

use crate::moves::Move;
use crate::position::{castling_key, move_key, Position};
use crate::rules::{Castling, RuleSet};

/// Why a game ended by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameEnd {
    /// A king was captured; its side lost.
    KingCaptured,
    /// The no-progress rule: `draw_plies` plies without a capture or a pawn move.
    NoProgress,
    /// The same position occurred `repetition` times.
    Repetition,
    /// The side to move has no legal move (a draw).
    NoLegalMoves,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Why it ended.
    pub end: GameEnd,
}

/// A game under a rule set: the position, the ply count and the repetition history.
///
/// Under rules with a repetition draw, the position's repetition key (see
/// [`Position::repetition_key`]) is kept up to date move by move: its en passant part is
/// added each ply, the rest changes by the pieces the move moves, the side to move and
/// the castling rights it loses, instead of being computed from the whole board.
///
/// ```
/// use fow_variants::{Game, GameEnd, Position, RuleSet};
/// let mut g = Game::new(Position::from_fen("4k3/8/8/8/8/8/3r4/4K3 b - - 0 1").unwrap(), RuleSet::thesis());
/// let m = g.position().parse_uci("d2d1", g.rules()).unwrap();
/// assert_eq!(g.play(&m), None);
/// let m = g.position().parse_uci("e1d1", g.rules()).unwrap();
/// assert_eq!(g.play(&m), None);
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    pos: Position,
    /// The position before the last move (the start before any move).
    before: Position,
    rules: RuleSet,
    ply: u32,
    keys: Vec<u64>,
    /// The repetition key without its en passant part (only kept under rules with a
    /// repetition draw).
    base: u64,
}

impl Game {
    /// A game starting from `pos`.
    pub fn new(pos: Position, rules: RuleSet) -> Game {
        let mut keys = Vec::new();
        let mut base = 0;
        if rules.repetition.is_some() {
            base = pos.repetition_base(&rules);
            keys.push(base ^ pos.en_passant_key(&rules));
        }
        Game {
            before: pos.clone(),
            pos,
            rules,
            ply: 0,
            keys,
            base,
        }
    }

    /// The current true position.
    #[inline]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The position before the last move (the start position before any move). From the
    /// second ply on, it is the position right after the side to move's own previous
    /// move: what that side's previous view is computed from (see
    /// [`Observation::for_game`](crate::Observation::for_game)).
    #[inline]
    pub fn before(&self) -> &Position {
        &self.before
    }

    /// The rules.
    #[inline]
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// Plies played so far.
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Plays a legal move and says whether the game ended with it.
    // Always inlined: see `Position::play`.
    #[inline(always)]
    pub fn play(&mut self, m: &Move) -> Option<Outcome> {
        let mover = self.pos.turn();
        let rights = self.pos.castling_rights();
        self.before.clone_from(&self.pos);
        let captured = self.pos.play(m);
        self.ply += 1;
        if captured == Some(Role::King) {
            return Some(Outcome {
                winner: Some(mover),
                end: GameEnd::KingCaptured,
            });
        }
        if let Some(limit) = self.rules.draw_plies {
            if self.pos.halfmoves() >= limit {
                return Some(Outcome {
                    winner: None,
                    end: GameEnd::NoProgress,
                });
            }
        }
        if let Some(times) = self.rules.repetition {
            if m.is_zeroing() {
                self.keys.clear();
            }
            self.base ^= move_key(m, mover);
            if self.rules.castling == Castling::Rights {
                self.base ^= castling_key(rights ^ self.pos.castling_rights());
            }
            let key = self.base ^ self.pos.en_passant_key(&self.rules);
            let seen = self.keys.iter().filter(|&&k| k == key).count() as u32;
            self.keys.push(key);
            if seen + 1 >= times {
                return Some(Outcome {
                    winner: None,
                    end: GameEnd::Repetition,
                });
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(g: &mut Game, uci: &str) -> Option<Outcome> {
        let m = g.position().parse_uci(uci, g.rules()).unwrap();
        g.play(&m)
    }

    #[test]
    fn threefold_repetition_only_under_chesscom() {
        for (rules, ends) in [(RuleSet::chesscom(), true), (RuleSet::thesis(), false)] {
            let mut g = Game::new(Position::startpos(), rules);
            let mut last = None;
            for _ in 0..2 {
                for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                    last = play(&mut g, m);
                }
            }
            // Start position now seen three times.
            assert_eq!(last.is_some(), ends);
            if ends {
                assert_eq!(last.unwrap().end, GameEnd::Repetition);
            }
        }
    }

    /// The key kept move by move equals the key computed from the whole position at
    /// every ply of random games: captures, promotions, en passant, castling and lost
    /// castling rights, under rules with rights (chess.com) and without (positional).
    #[test]
    fn kept_repetition_key_equals_the_whole_computation() {
        use rand::{Rng, SeedableRng};
        let mut positional = RuleSet::thesis();
        positional.repetition = Some(3);
        let starts = [
            Position::startpos(),
            Position::from_fen("r3k2r/1p4p1/8/2pP4/8/8/1P4P1/R3K2R w KQkq c6 0 1").unwrap(),
        ];
        for rules in [RuleSet::chesscom(), positional] {
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
            let mut plies = 0;
            for start in starts.iter().cycle().take(400) {
                let mut g = Game::new(start.clone(), rules);
                loop {
                    let kept = g.base ^ g.pos.en_passant_key(&rules);
                    assert_eq!(kept, g.pos.repetition_key(&rules), "{}", g.pos);
                    let moves = g.pos.legal_moves(&rules);
                    if moves.is_empty() {
                        break;
                    }
                    plies += 1;
                    if g.play(&moves[rng.random_range(0..moves.len())]).is_some() {
                        break;
                    }
                }
            }
            assert!(plies > 10_000, "{plies}");
        }
    }

    #[test]
    fn no_progress_rule_counts_plies() {
        let mut rules = RuleSet::thesis();
        rules.draw_plies = Some(4);
        let mut g = Game::new(Position::startpos(), rules);
        assert_eq!(play(&mut g, "g1f3"), None);
        assert_eq!(play(&mut g, "g8f6"), None);
        assert_eq!(play(&mut g, "f3g1"), None);
        let end = play(&mut g, "f6g8").unwrap();
        assert_eq!(end.end, GameEnd::NoProgress);
        assert_eq!(end.winner, None);
    }

    #[test]
    fn king_capture_wins() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/3q4/4K3 b - - 0 1").unwrap();
        let mut g = Game::new(pos, RuleSet::chesscom());
        let end = play(&mut g, "d2e1").unwrap();
        assert_eq!(end.winner, Some(Color::Black));
        assert_eq!(end.end, GameEnd::KingCaptured);
    }
}
