//! The replay as plain text (`fow replay --print`): the header, then every ply's move,
//! its analysis and the three boards side by side, then the result.

use fow_records::outcome_text;
use fow_variants::{board_diagram, diagrams_side_by_side};

use crate::replay::{header, move_facts, Replay};

/// The whole replay as text, pieces as Unicode symbols or (`unicode` false) letters.
pub fn replay_text(r: &Replay, unicode: bool) -> String {
    let mut out = String::new();
    for line in header(r) {
        out.push_str(&line);
        out.push('\n');
    }
    for frame in &r.frames {
        out.push('\n');
        let facts = move_facts(frame);
        out.push_str(&format!("ply {}: {}\n", frame.ply, facts[0]));
        for line in &facts[1..] {
            out.push_str(line);
            out.push('\n');
        }
        if let Some(line) = r.analysis_line(frame.ply) {
            out.push_str(&line);
            out.push('\n');
        }
        out.push_str(&diagrams_side_by_side(&[
            ("true board", board_diagram(frame.position.board(), unicode)),
            ("White sees", frame.white.diagram(unicode)),
            ("Black sees", frame.black.diagram(unicode)),
        ]));
    }
    out.push_str(&format!("\nresult: {}\n", outcome_text(&r.game)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_records::SavedGame;
    use fow_variants::RuleSet;

    /// A two-ply game: the header, the start and both plies with their boards, the result.
    #[test]
    fn every_ply_with_its_boards_then_the_result() {
        let game = SavedGame::from_uci("A", "B", RuleSet::thesis(), &["e2e4", "e7e5"])
            .expect("a legal game");
        let result = format!("\nresult: {}\n", outcome_text(&game));
        let text = replay_text(&Replay::new(game, None, String::new()), false);
        assert!(
            text.starts_with("A vs B: A (White) vs B (Black)\n"),
            "{text}"
        );
        assert!(text.contains("\n\nply 0: start position\n"), "{text}");
        assert!(
            text.contains("\n\nply 2: 1... e5 (e7e5), no capture\n"),
            "{text}"
        );
        let titles = "true board            White sees            Black sees\n";
        assert_eq!(text.matches(titles).count(), 3, "{text}");
        let rank_4 = "4 . . . . P . . .     4 . . . . P . . .     4 ? . ? ? ? ? ? .\n";
        assert!(text.contains(rank_4), "{text}");
        assert!(text.ends_with(&result), "{text}");
    }
}
