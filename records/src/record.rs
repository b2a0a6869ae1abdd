//! [`GameRecord`]: everything about one finished game.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use fow_variants::{GameEnd, Move, RuleSet};

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// 1-0.
    WhiteWins,
    /// 0-1.
    BlackWins,
    /// 1/2-1/2.
    Draw,
}

impl GameResult {
    /// White's points: 1, 0 or 0.5.
    pub fn white_points(self) -> f64 {
        match self {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
        }
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<fow_variants::Color> {
        match self {
            GameResult::WhiteWins => Some(fow_variants::Color::White),
            GameResult::BlackWins => Some(fow_variants::Color::Black),
            GameResult::Draw => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        })
    }
}

impl FromStr for GameResult {
    type Err = String;
    fn from_str(s: &str) -> Result<GameResult, String> {
        match s {
            "1-0" => Ok(GameResult::WhiteWins),
            "0-1" => Ok(GameResult::BlackWins),
            "1/2-1/2" => Ok(GameResult::Draw),
            _ => Err(format!("bad result '{s}' (expected 1-0, 0-1 or 1/2-1/2)")),
        }
    }
}

/// Why a game ended: by the rules, or because a player failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// A king was captured.
    KingCaptured,
    /// The no-progress draw rule.
    NoProgress,
    /// Repetition.
    Repetition,
    /// The side to move had no legal move.
    NoLegalMoves,
    /// A player answered a move that is not legal; it lost.
    IllegalMove,
    /// A player panicked; it lost.
    Panic,
    /// A player ran out of time; it lost.
    Timeout,
    /// A player broke its protocol; it lost.
    ProtocolError,
    /// A player's program died; it lost.
    Crash,
    /// A player reported another error; it lost.
    PlayerError,
    /// A player resigned (a human at `fow play` who resigned or quit); it lost.
    Resignation,
    /// A player's clock ran out under a time control; it lost.
    TimeForfeit,
}

impl Reason {
    const NAMES: [(Reason, &'static str); 12] = [
        (Reason::KingCaptured, "king captured"),
        (Reason::NoProgress, "no progress"),
        (Reason::Repetition, "repetition"),
        (Reason::NoLegalMoves, "no legal moves"),
        (Reason::IllegalMove, "illegal move"),
        (Reason::Panic, "panic"),
        (Reason::Timeout, "timeout"),
        (Reason::ProtocolError, "protocol error"),
        (Reason::Crash, "crash"),
        (Reason::PlayerError, "player error"),
        (Reason::Resignation, "resignation"),
        (Reason::TimeForfeit, "time forfeit"),
    ];

    /// Whether the game ended because a player failed rather than by the rules (a
    /// resignation is neither: the game is lost, but nothing went wrong).
    pub fn is_fault(self) -> bool {
        !matches!(
            self,
            Reason::KingCaptured
                | Reason::NoProgress
                | Reason::Repetition
                | Reason::NoLegalMoves
                | Reason::Resignation
        )
    }
}

impl From<GameEnd> for Reason {
    fn from(e: GameEnd) -> Reason {
        match e {
            GameEnd::KingCaptured => Reason::KingCaptured,
            GameEnd::NoProgress => Reason::NoProgress,
            GameEnd::Repetition => Reason::Repetition,
            GameEnd::NoLegalMoves => Reason::NoLegalMoves,
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = Reason::NAMES.iter().find(|(r, _)| r == self).map(|x| x.1);
        f.write_str(name.unwrap_or("?"))
    }
}

impl FromStr for Reason {
    type Err = String;
    fn from_str(s: &str) -> Result<Reason, String> {
        Reason::NAMES
            .iter()
            .find(|(_, n)| *n == s)
            .map(|x| x.0)
            .ok_or_else(|| format!("unknown reason '{s}'"))
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// White's player spec.
    pub white: String,
    /// Black's player spec.
    pub black: String,
    /// The game seed (players' seeds derive from it).
    pub seed: u64,
    /// The rules played.
    pub rules: RuleSet,
    /// Every move, in order.
    pub moves: Vec<Move>,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub reason: Reason,
    /// Details when a player failed (the illegal move, the panic message...).
    pub detail: String,
    /// Wall time each side spent choosing moves, White first.
    pub time: [Duration; 2],
    /// Moves each side chose, White first (a failed attempt counts).
    pub decisions: [u32; 2],
    /// Under a time control: the mover's time left after each move, increment included
    /// (one entry per move, in order; empty without a clock).
    pub clocks: Vec<Duration>,
}

impl GameRecord {
    /// Plies played.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// The moves as space-separated UCI.
    pub fn moves_uci(&self) -> String {
        let mut s = String::with_capacity(self.moves.len() * 5);
        for (i, m) in self.moves.iter().enumerate() {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(&m.uci());
        }
        s
    }
}
