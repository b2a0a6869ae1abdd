//! A saved game ready to show, ply by ply, with its analysis: the model behind every
//! replay view (`fow replay`'s terminal viewer and printout, and [`html_page`](crate::html_page)),
//! and the texts they share.

use fow_records::{outcome_text, replay_frames, Frame, SavedGame};
use fow_variants::{role_name, side_name, Color, Piece, Square};

use crate::analysis::MoveAnalysis;
#[cfg(doc)]
use crate::read_analysis;

/// A game ready to show: the game, its frames and its analysis (one entry per ply
/// 1..=moves, `None` where the analysis has no row).
pub struct Replay {
    /// The saved game.
    pub game: SavedGame,
    /// Start position, then one frame per move.
    pub frames: Vec<Frame>,
    /// `analysis[ply - 1]` for the move of that ply, when an analysis was given.
    pub analysis: Option<Vec<Option<MoveAnalysis>>>,
    /// Where the analysis came from: the engine and its settings, or the CSV file.
    pub analysis_source: String,
}

impl Replay {
    /// The replay of `game`, with the analysis `rows` (as [`read_analysis`] or
    /// [`analyze_game`](crate::analyze_game) gives them; rows of plies the game does not
    /// have are left out) from `analysis_source`.
    pub fn new(
        game: SavedGame,
        rows: Option<Vec<MoveAnalysis>>,
        analysis_source: String,
    ) -> Replay {
        let frames = replay_frames(&game);
        let analysis = rows.map(|rows| {
            let mut per_ply = vec![None; game.moves.len()];
            for r in rows {
                if let Some(slot) = r.ply.checked_sub(1).and_then(|i| per_ply.get_mut(i)) {
                    *slot = Some(r);
                }
            }
            per_ply
        });
        Replay {
            game,
            frames,
            analysis,
            analysis_source,
        }
    }

    /// The analysis of the move that led to frame `ply` (none for the start).
    pub fn analysis_at(&self, ply: usize) -> Option<&MoveAnalysis> {
        self.analysis.as_ref()?.get(ply.checked_sub(1)?)?.as_ref()
    }

    /// The engine's preferred move instead of the move of `ply`, in SAN with its UCI
    /// (`Nc3 (b1c3)`); `None` when it gave none or preferred the move played.
    pub fn best_text(&self, ply: usize) -> Option<String> {
        let a = self.analysis_at(ply)?;
        if a.best.is_empty() || a.best == a.uci {
            return None;
        }
        let pos = &self.frames.get(ply.checked_sub(1)?)?.position;
        Some(match pos.parse_uci(&a.best, &self.game.rules) {
            Ok(m) => format!("{} ({})", pos.san(&m, &self.game.rules), a.best),
            Err(_) => a.best.clone(),
        })
    }

    /// The analysis line of the move of `ply`, if it was analysed.
    pub fn analysis_line(&self, ply: usize) -> Option<String> {
        let a = self.analysis_at(ply)?;
        Some(analysis_text(a, self.best_text(ply).as_deref()))
    }

    /// Mean accuracy of `color`'s analysed moves.
    pub fn accuracy(&self, color: Color) -> Option<f64> {
        let side = side_name(color).to_lowercase();
        let a: Vec<f64> = self
            .analysis
            .as_ref()?
            .iter()
            .flatten()
            .filter(|m| m.mover == side)
            .map(|m| m.accuracy)
            .collect();
        (!a.is_empty()).then(|| a.iter().sum::<f64>() / a.len() as f64)
    }
}

/// `Black's pawn on d5`.
pub fn piece_on(piece: Piece, sq: Square) -> String {
    format!(
        "{}'s {} on {sq}",
        side_name(piece.color),
        role_name(piece.role)
    )
}

/// The squares as text: all of them up to `max`, else the first ones and a count.
pub fn squares_text(squares: &[Square], max: usize) -> String {
    match squares.len() {
        0 => "unchanged".to_string(),
        n if n <= max => {
            let names: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
            format!("{n} square{} ({})", plural(n), names.join(" "))
        }
        n => format!("{n} squares"),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// What the move of `frame` did, as lines of text: capture and view changes.
pub fn move_facts(frame: &Frame) -> Vec<String> {
    let Some(p) = &frame.played else {
        return vec!["start position".to_string()];
    };
    let capture = match p.capture {
        Some((piece, sq)) => format!("captures {}", piece_on(piece, sq)),
        None => "no capture".to_string(),
    };
    vec![
        format!("{} ({}), {capture}", p.numbered(), p.uci),
        format!(
            "views changed: White {}; Black {}",
            squares_text(&p.white_changed, 8),
            squares_text(&p.black_changed, 8)
        ),
    ]
}

/// The analysis of one move in one line; `best` is the engine's move as text. The phase,
/// a brilliant or great move, and an error's cause under fog follow where the analysis
/// has them.
pub fn analysis_text(m: &MoveAnalysis, best: Option<&str>) -> String {
    let mover = if m.mover == "white" { "White" } else { "Black" };
    let mut s = format!(
        "analysis: {}, {mover}'s win chance {:.1}% -> {:.1}% (drop {:.1})",
        m.label.as_str(),
        m.win_before,
        m.win_after,
        m.drop
    );
    if let Some(best) = best {
        s.push_str(&format!(", engine's move {best}"));
    }
    if m.king_left_capturable {
        s.push_str("; left its king capturable");
    }
    s.push_str(&analysis_notes(m));
    s
}

/// What the analysis adds to a move beyond its label, each part after `; `: the phase,
/// brilliant or great, and an error's cause under fog with its evidence; empty for an
/// analysis without them (one written before they existed).
pub fn analysis_notes(m: &MoveAnalysis) -> String {
    let mut s = String::new();
    if let Some(phase) = m.phase {
        s.push_str(&format!("; {}", phase.as_str()));
    }
    if m.highlight != crate::highlight::Highlight::None {
        s.push_str(&format!("; {}", m.highlight.as_str()));
    }
    if m.cause != crate::error_cause::Cause::None {
        let tracked = match m.fog_from {
            0 => String::new(),
            ply => format!(", tracked from ply {ply}"),
        };
        s.push_str(&format!(
            "; {}",
            crate::analysis_report::cause_text(m, &tracked)
        ));
    }
    s
}

/// The game's opening by position (the opening table of `fow_records`, as `fow analyze`
/// names it): `C00 French Defense: Normal Variation (out of the table from ply 4)`;
/// `None` when the table names no position of the game.
pub fn opening_text(g: &SavedGame) -> Option<String> {
    let o = fow_records::OpeningTable::standard().identify(&g.positions())?;
    let left = match o.out_of_book {
        Some(ply) => format!("out of the table from ply {ply}"),
        None => "in the table to the end".to_string(),
    };
    Some(format!("{} {} ({left})", o.eco, o.name))
}

/// The game's header lines: source, players, rules, seed, result, opening.
pub fn header(r: &Replay) -> Vec<String> {
    let g = &r.game;
    let mut lines = vec![format!(
        "{}: {} (White) vs {} (Black)",
        g.source, g.white, g.black
    )];
    let mut info = format!("rules {}", g.rules);
    if let Some(seed) = g.seed {
        info.push_str(&format!(", seed {seed}"));
    }
    info.push_str(&format!(
        ", {} {}, result {}",
        g.moves.len(),
        if g.moves.len() == 1 { "ply" } else { "plies" },
        outcome_text(g)
    ));
    lines.push(info);
    if let Some(o) = opening_text(g) {
        lines.push(format!("opening: {o}"));
    }
    if r.analysis.is_some() {
        let acc = |c| {
            r.accuracy(c)
                .map_or("-".to_string(), |a| format!("{a:.1}%"))
        };
        lines.push(format!(
            "accuracy: White {}, Black {} (analysis {})",
            acc(Color::White),
            acc(Color::Black),
            r.analysis_source
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error_cause::Cause;
    use crate::highlight::Highlight;
    use crate::phase::Phase;

    #[test]
    fn notes_name_the_phase_the_highlight_and_the_cause_only_where_there_are_some() {
        let mut m = MoveAnalysis::new(
            9,
            true,
            "d1h5".into(),
            "Qh5".into(),
            0.0,
            -300.0,
            "b1c3".into(),
            false,
        );
        // An analysis written before these fields: nothing added.
        assert_eq!(analysis_notes(&m), "");
        m.phase = Some(Phase::Middlegame);
        m.highlight = Highlight::Great;
        m.cause = Cause::Luck;
        (m.boards, m.fog_bad, m.fog_drop, m.fog_from) = (32, 0.25, 8.14, 6);
        assert_eq!(
            analysis_notes(&m),
            "; middlegame; great; luck: bad on 25% of 32 boards, mean drop 8.1, tracked from ply 6"
        );
        assert!(analysis_text(&m, None).ends_with(&analysis_notes(&m)));
    }
}
