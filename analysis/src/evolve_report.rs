//! The end of an evolution as `fow evolve` reports it: the table of its epochs, its
//! benchmark plot (`plot.svg`) and the files written.

use fow_arena::evolve::{history_table, Evolution};

use crate::error::ReportError;
use crate::plot::benchmark_plot;

/// The plot of the benchmark score per epoch, in the evolution's folder.
pub const EVOLVE_PLOT_FILE: &str = "plot.svg";

/// The table of the evolution's epochs, then (after writing [`EVOLVE_PLOT_FILE`] when
/// there are benchmark scores) the line naming the files written.
pub fn evolution_report(evo: &Evolution) -> Result<String, ReportError> {
    let cfg = evo.config();
    let history = evo.history();
    let plot = evo.dir().join(EVOLVE_PLOT_FILE);
    let points: Vec<(u32, f64)> = history
        .iter()
        .filter_map(|h| h.benchmark_score.map(|s| (h.epoch, 100.0 * s)))
        .collect();
    if cfg.benchmark_games > 0 && !history.is_empty() {
        let benchmark = fow_players::player_label(&cfg.benchmark);
        benchmark_plot(&plot, &cfg.bot, &benchmark, &points)?;
    }
    let mut files = evo.files();
    if plot.exists() {
        files.push(plot);
    }
    let files: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    Ok(format!(
        "\n{}\nwrote {}",
        history_table(history),
        files.join(", ")
    ))
}
