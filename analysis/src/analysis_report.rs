//! The report of `fow analyze`: a game's header (with its opening by position), one line
//! per move (values, win chances, drop, label, the engine's move, a hanging king) under a
//! line naming each game phase as it begins, and each side's summary (with its accuracy
//! by phase).

use fow_records::{outcome_text, SavedGame};
use fow_variants::{Color, Position, RuleSet};

use crate::analysis::{GameAnalysis, MoveAnalysis, MoveLabel};
use crate::analyze::MATE_CP;
use crate::error_cause::Cause;
use crate::fog_errors::lost_by_cause;
use crate::highlight::Highlight;
use crate::phase::Phase;

/// A value in pawns from White's side, or `#+N` / `#-N` for a king capture N plies ahead.
fn value_text(cp: f64) -> String {
    if cp.abs() >= MATE_CP - 1000.0 {
        let plies = (MATE_CP - cp.abs()).round() as i64;
        format!("#{}{plies}", if cp > 0.0 { '+' } else { '-' })
    } else {
        format!("{:+.2}", cp / 100.0)
    }
}

/// `12.` for White's move of move 12, `12...` for Black's.
fn move_number(ply: usize, start: &Position) -> String {
    let first_black = start.turn() == Color::Black;
    let half = ply - 1 + usize::from(first_black);
    let number = start.fullmoves() as usize + half / 2;
    if half.is_multiple_of(2) {
        format!("{number}.")
    } else {
        format!("{number}...")
    }
}

/// The engine's preferred move in SAN (its UCI text when our rules do not know it).
fn best_text(pos: &Position, uci: &str, rules: &RuleSet) -> String {
    if uci.is_empty() {
        return "-".into();
    }
    match pos.parse_uci(uci, rules) {
        Ok(m) => pos.san(&m, rules),
        Err(_) => uci.to_string(),
    }
}

/// The game with its players named as the tables name them (a program's `name=` where
/// given, else its spec): for reports and views, not for files that keep the specs.
pub fn labelled_game(mut game: SavedGame) -> SavedGame {
    let labels = fow_players::player_labels(&[game.white.clone(), game.black.clone()]);
    let [white, black]: [String; 2] = labels.try_into().expect("two labels");
    (game.white, game.black) = (white, black);
    game
}

/// The whole report: header, one line per move, each side's summary.
pub fn analysis_report(game: &SavedGame, analysis: &GameAnalysis) -> String {
    let mut s = String::new();
    let positions = game.positions();
    s.push_str(&format!(
        "{}\nWhite: {}\nBlack: {}\nRules: {}\nResult: {}\nEngine: {}\n\n",
        game.source,
        game.white,
        game.black,
        game.rules,
        outcome_text(game),
        analysis.engine
    ));
    s.push_str(&opening_line(game, analysis));
    s.push_str(
        "Values in pawns from White's side (#+N: White captures the king N plies ahead);\n\
         win% and drop are for the side that moved.\n\n",
    );
    s.push_str(&format!(
        "{:<14} {:>15}  {:>13}\n{:<14} {:>7} {:>7}  {:>6} {:>6} {:>5}  {:<10} {:<7} {}\n",
        "",
        "value",
        "win%",
        "move",
        "before",
        "after",
        "before",
        "after",
        "drop",
        "label",
        "best",
        "flag"
    ));
    let mut phase = None;
    for m in &analysis.moves {
        if m.phase.is_some() && m.phase != phase {
            phase = m.phase;
            s.push_str(&format!("-- {} --\n", m.phase.map_or("", Phase::as_str)));
        }
        let before = &positions[m.ply - 1];
        let flag = flags(m, &game.start);
        let line = format!(
            "{:<14} {:>7} {:>7}  {:>6.1} {:>6.1} {:>5.1}  {:<10} {:<7} {}",
            format!("{} {}", move_number(m.ply, &game.start), m.san),
            value_text(m.cp_before),
            value_text(m.cp_after),
            m.win_before,
            m.win_after,
            m.drop,
            m.label.as_str(),
            best_text(before, &m.best, &game.rules),
            flag
        );
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s.push('\n');
    for (white, color) in [(true, "White"), (false, "Black")] {
        s.push_str(&side_summary(game, analysis, white, color));
    }
    s
}

/// `Opening: ECO name` with where the game is in the table: the ply (and move) of its
/// last named position and the move that leaves it; one line, blank line after.
fn opening_line(game: &SavedGame, analysis: &GameAnalysis) -> String {
    let Some(o) = &analysis.opening else {
        return "Opening: no position of the game is in the opening table\n\n".into();
    };
    let at = |ply: usize| {
        analysis
            .moves
            .iter()
            .find(|m| m.ply == ply)
            .map_or(format!("ply {ply}"), |m| {
                format!("{} {} (ply {ply})", move_number(ply, &game.start), m.san)
            })
    };
    let named = if o.ply == 0 {
        "in the table from the start".to_string()
    } else {
        format!("in the table to {}", at(o.ply))
    };
    let left = match o.out_of_book {
        Some(ply) => format!("out of it from {}", at(ply)),
        None => "still in it at the end".to_string(),
    };
    format!("Opening: {} {}, {named}; {left}\n\n", o.eco, o.name)
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// One side's accuracy, counts of weak moves and the moves that left its king capturable.
fn side_summary(game: &SavedGame, analysis: &GameAnalysis, white: bool, color: &str) -> String {
    let name = if white { &game.white } else { &game.black };
    let Some(accuracy) = analysis.accuracy(white) else {
        return format!("{color} ({name}): no moves\n");
    };
    let side = if white { "white" } else { "black" };
    let moves: Vec<&MoveAnalysis> = analysis.moves.iter().filter(|m| m.mover == side).collect();
    let hanging: Vec<String> = moves
        .iter()
        .filter(|m| m.king_left_capturable)
        .map(|m| format!("{} {}", move_number(m.ply, &game.start), m.san))
        .collect();
    let mut s = format!(
        "{color} ({name}): accuracy {accuracy:.1}% over {}; {}, {}, {}\n",
        plural(moves.len(), "move", "moves"),
        plural(
            analysis.count(white, MoveLabel::Inaccuracy),
            "inaccuracy",
            "inaccuracies"
        ),
        plural(
            analysis.count(white, MoveLabel::Mistake),
            "mistake",
            "mistakes"
        ),
        plural(
            analysis.count(white, MoveLabel::Blunder),
            "blunder",
            "blunders"
        ),
    );
    if moves.iter().any(|m| m.phase.is_some()) {
        let parts: Vec<String> = Phase::ALL
            .iter()
            .map(|&p| match analysis.phase_accuracy(white, p) {
                Some((a, n)) => format!("{} {a:.1}% ({})", p.as_str(), plural(n, "move", "moves")),
                None => format!("{} no moves", p.as_str()),
            })
            .collect();
        s.push_str(&format!("  accuracy by phase: {}\n", parts.join(", ")));
    }
    if hanging.is_empty() {
        s.push_str("  king never left capturable\n");
    } else {
        s.push_str(&format!(
            "  king left capturable after {}: {}\n",
            plural(hanging.len(), "move", "moves"),
            hanging.join(", ")
        ));
    }
    s.push_str(&highlights_line(game, &moves));
    s.push_str(&causes_line(analysis, white));
    s
}

/// A move's flags: a hanging king, brilliant or great, and for an explained mistake or
/// blunder its cause and what the boards the mover could not rule out said (and the
/// move they were tracked from, when not the start: see `consistent_boards`).
fn flags(m: &MoveAnalysis, start: &Position) -> String {
    let mut flags = Vec::new();
    if m.king_left_capturable {
        flags.push("king hangs".to_string());
    }
    if m.highlight != Highlight::None {
        flags.push(m.highlight.as_str().to_string());
    }
    if m.cause != Cause::None {
        let tracked = match m.fog_from {
            0 => String::new(),
            ply => format!(", tracked from {}", move_number(ply + 1, start)),
        };
        flags.push(cause_text(m, &tracked));
    }
    flags.join("; ")
}

/// An explained mistake's or blunder's cause and what the boards the mover could not rule
/// out said (`luck: bad on 25% of 32 boards, mean drop 8.1`), `tracked` (where the boards
/// were tracked from, or nothing) and what its replayed belief held of the truth.
pub fn cause_text(m: &MoveAnalysis, tracked: &str) -> String {
    let belief = match m.belief_truth {
        Some(0.0) => ", truth not in its belief",
        Some(w) if w < crate::error_cause::LITTLE_WEIGHT => ", truth unlikely in its belief",
        _ => "",
    };
    format!(
        "{}: bad on {:.0}% of {}, mean drop {:.1}{tracked}{belief}",
        m.cause.as_str(),
        100.0 * m.fog_bad,
        plural(m.boards, "board", "boards"),
        m.fog_drop
    )
}

/// `  brilliant: 12. Qxf7; great: 20... Kh2`, or nothing without such moves.
fn highlights_line(game: &SavedGame, moves: &[&MoveAnalysis]) -> String {
    let parts: Vec<String> = [Highlight::Brilliant, Highlight::Great]
        .into_iter()
        .filter_map(|h| {
            let list: Vec<String> = moves
                .iter()
                .filter(|m| m.highlight == h)
                .map(|m| format!("{} {}", move_number(m.ply, &game.start), m.san))
                .collect();
            (!list.is_empty()).then(|| format!("{}: {}", h.as_str(), list.join(", ")))
        })
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("  {}\n", parts.join("; "))
    }
}

/// The win chance one side lost in mistakes and blunders, by cause (belief only for a
/// belief bot whose belief replayed, not explained only when some were not); nothing
/// when none was explained.
fn causes_line(analysis: &GameAnalysis, white: bool) -> String {
    let side = if white { "white" } else { "black" };
    let moves = || analysis.moves.iter().filter(|m| m.mover == side);
    let errors = moves().filter(|m| matches!(m.label, MoveLabel::Mistake | MoveLabel::Blunder));
    let (explained, lost) = errors.fold((0, 0.0), |(n, d), m| {
        (n + usize::from(m.cause != Cause::None), d + m.drop)
    });
    if explained == 0 {
        return String::new();
    }
    let replayed = moves().any(|m| m.belief_truth.is_some());
    let parts: Vec<String> = lost_by_cause(analysis, white)
        .iter()
        .filter(|&&(cause, n, _)| match cause {
            Cause::Decision | Cause::Luck => true,
            Cause::Belief => replayed || n > 0,
            Cause::None => n > 0,
        })
        .map(|&(cause, n, lost)| {
            let name = if cause == Cause::None {
                "not explained"
            } else {
                cause.as_str()
            };
            format!("{name} {lost:.1} ({})", plural(n, "move", "moves"))
        })
        .collect();
    let all: f64 = moves().map(|m| m.drop).sum();
    format!(
        "  win chance lost: {all:.1} in all, {lost:.1} in mistakes and blunders: {}\n",
        parts.join(", ")
    )
}
