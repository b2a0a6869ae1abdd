//! The text report of a whole run (`fow analyze --all`): one line per player (games,
//! moves, accuracy, moves by label, hanging kings, win chance lost), then one table per
//! grouping of [`move_groups`](crate::move_groups) (by side, ...) with each player's
//! moves in each group.

use crate::analysis::MoveLabel;
use crate::run_analysis::RunReport;
use crate::summary::Tally;

/// The labels in the order of the tables, best first.
const LABELS: [MoveLabel; 6] = [
    MoveLabel::Best,
    MoveLabel::Excellent,
    MoveLabel::Good,
    MoveLabel::Inaccuracy,
    MoveLabel::Mistake,
    MoveLabel::Blunder,
];

/// The report: a header, the players' table, and a table per grouping.
pub fn run_report(r: &RunReport) -> String {
    let mut s = format!(
        "{}: {} games, {} positions\nEngine: {}\n\n",
        r.source,
        r.games.len(),
        r.positions,
        r.engine
    );
    let width = r
        .players
        .iter()
        .map(|p| p.label.chars().count())
        .max()
        .unwrap_or(0)
        .max("player".len());
    s.push_str(&format!(
        "{:<width$} {:>6} {:>7} {:>9} {}\n",
        "player",
        "games",
        "moves",
        "accuracy",
        tally_header()
    ));
    for p in &r.players {
        s.push_str(&format!(
            "{:<width$} {:>6} {}\n",
            p.label,
            p.games,
            tally_cells(&p.summary.total)
        ));
    }
    let mut groupings: Vec<&String> = r.players.iter().flat_map(|p| p.summary.by.keys()).collect();
    groupings.sort();
    groupings.dedup();
    for grouping in groupings {
        s.push_str(&format!("\nBy {grouping}:\n"));
        let gw = r
            .players
            .iter()
            .filter_map(|p| p.summary.by.get(grouping))
            .flat_map(|g| g.keys().map(|k| k.chars().count()))
            .max()
            .unwrap_or(0)
            .max(grouping.len());
        s.push_str(&format!(
            "{:<width$} {:<gw$} {:>7} {:>9} {} {:>6}\n",
            "player",
            grouping,
            "moves",
            "accuracy",
            tally_header(),
            "share"
        ));
        for p in &r.players {
            for (group, t) in p.summary.by.get(grouping).into_iter().flatten() {
                let share = match p.summary.total.win_chance_lost {
                    lost if lost > 0.0 => format!("{:.1}%", 100.0 * t.win_chance_lost / lost),
                    _ => "-".to_string(),
                };
                s.push_str(&format!(
                    "{:<width$} {group:<gw$} {} {share:>6}\n",
                    p.label,
                    tally_cells(t)
                ));
            }
        }
    }
    s.push_str(
        "\naccuracy: the mean of the moves' accuracies; best..blunder: moves by label; \
         hangs: moves that left the king capturable;\nlost: win chance given away \
         (percentage points, summed over the moves); share: of the player's lost win chance.\n",
    );
    s
}

/// The label columns' heads, then `hangs` and `lost`.
fn tally_header() -> String {
    let labels: Vec<String> = LABELS
        .iter()
        .map(|l| format!("{:>11}", l.as_str()))
        .collect();
    format!("{} {:>6} {:>9}", labels.join(""), "hangs", "lost")
}

/// Moves, accuracy, the label counts, hanging kings and win chance lost.
fn tally_cells(t: &Tally) -> String {
    let accuracy = t.accuracy.map_or("-".to_string(), |a| format!("{a:.1}%"));
    let labels: String = LABELS
        .iter()
        .map(|&l| format!("{:>11}", t.count(l)))
        .collect();
    format!(
        "{:>7} {accuracy:>9} {labels} {:>6} {:>9.1}",
        t.moves, t.king_left_capturable, t.win_chance_lost
    )
}
