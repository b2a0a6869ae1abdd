//! `fow replay --print`: the header, then every ply's move and the three boards.

use std::io::Write;

use fow_variants::board_diagram;

use crate::error::CliError;
use fow_analysis::{header, move_facts, Replay};

/// Width of one board column, labels included.
const COLUMN: usize = 19;

/// The whole replay as text.
pub fn render(r: &Replay, unicode: bool) -> String {
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
        let boards = [
            ("true board", board_diagram(frame.position.board(), unicode)),
            ("White sees", frame.white.diagram(unicode)),
            ("Black sees", frame.black.diagram(unicode)),
        ];
        out.push_str(&side_by_side(&boards));
    }
    out.push_str(&format!(
        "\nresult: {}\n",
        fow_records::outcome_text(&r.game)
    ));
    out
}

/// Diagrams in columns under their titles.
fn side_by_side(boards: &[(&str, String)]) -> String {
    let pad = |s: &str| {
        let n = s.chars().count();
        format!("{s}{}", " ".repeat(COLUMN.saturating_sub(n)))
    };
    let mut out = String::new();
    let titles: Vec<String> = boards.iter().map(|b| pad(b.0)).collect();
    out.push_str(titles.join("   ").trim_end());
    out.push('\n');
    let lines: Vec<Vec<&str>> = boards.iter().map(|b| b.1.lines().collect()).collect();
    for i in 0..lines[0].len() {
        let row: Vec<String> = lines.iter().map(|l| pad(l[i])).collect();
        out.push_str(row.join("   ").trim_end());
        out.push('\n');
    }
    out
}

/// Prints the replay to standard output; a closed pipe (`| head`) ends it quietly.
pub fn print(r: &Replay, unicode: bool) -> Result<(), CliError> {
    let text = render(r, unicode);
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(CliError::Failed(format!("writing the replay: {e}")))
        }
        _ => Ok(()),
    }
}
