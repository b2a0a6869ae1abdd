//! A finished run's results as `fow tournament`, `fow merge` and `fow compare-thesis`
//! print them: the crosstable and ratings of a tournament (written beside its games), a
//! note on games ended by a player fault, and the files written.

use std::path::Path;

use fow_records::{GameRow, TimeRow, TournamentConfig};

use crate::error::ReportError;
use crate::tables::{fit, labelled, matrix_of, ms_per_move, report, Method};
use crate::thesis::{compare, FILES};
use fow_records::count;

/// A tournament's results: the text printed, and the players' labels and the games
/// relabelled as the tables show them.
pub struct TournamentResults {
    /// The crosstable and ratings, a note on player faults, and `wrote ...`.
    pub text: String,
    /// The players as the tables name them.
    pub labels: Vec<String>,
    /// The games, their players so named.
    pub games: Vec<GameRow>,
}

/// Rates a finished tournament (`method`'s columns beside the default fit), writes its
/// tables into `dir` (crosstable, ratings, summary, LOS) and says what it wrote.
pub fn tournament_results(
    cfg: &TournamentConfig,
    games: Vec<GameRow>,
    times: &[TimeRow],
    dir: &Path,
    method: Method,
) -> Result<TournamentResults, ReportError> {
    let (labels, games) = labelled(&cfg.players, games);
    let m = matrix_of(&labels, &games)?;
    let ms = ms_per_move(&labels, &games, times);
    let fits = fit(&m, None, method)?;
    let mut text = report(&m, &fits, Some(&ms), Some(dir))?;
    let faults = games
        .iter()
        .filter(|g| g.game_reason().is_ok_and(|r| r.is_fault()))
        .count();
    if faults > 0 {
        text.push_str(&format!(
            "note: {} ended by a player fault (see the reason and detail columns of games.csv)\n",
            count(faults, "game")
        ));
    }
    text.push_str(&format!(
        "\nwrote {}\n",
        paths_text(&fow_records::folder_files(dir))
    ));
    Ok(TournamentResults {
        text,
        labels,
        games,
    })
}

/// A tournament's ladder beside the thesis's ([`compare`]), writing the comparison's
/// files into `dir`, and the line naming them.
pub fn thesis_comparison(
    dir: &Path,
    cfg: &TournamentConfig,
    labels: &[String],
    games: &[GameRow],
    times: &[TimeRow],
) -> Result<String, ReportError> {
    let text = compare(dir, cfg, labels, games, times)?;
    let files: Vec<_> = FILES.iter().map(|f| dir.join(f)).collect();
    Ok(format!("{text}\nwrote {}\n", paths_text(&files)))
}

/// Paths joined with `, `.
fn paths_text(paths: &[std::path::PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
