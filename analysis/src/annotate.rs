//! [`annotate_game`]: the second pass of `fow analyze` and `fow replay --analyze` over a
//! game already valued: brilliant and great moves marked, mistakes and blunders
//! explained, with what each step cost.

use std::time::Instant;

use fow_records::SavedGame;

use crate::analysis::GameAnalysis;
use crate::engine::EngineSettings;
use crate::error::ReportError;
use crate::fog_errors::{explain_errors, FogSettings};
use crate::highlight_moves::highlight_moves;

/// Marks the brilliant and great moves of `analysis` (confirmed by `engine`'s deeper
/// evaluator) and explains its mistakes and blunders over `fog_boards` boards each,
/// calling `progress(done, total)` as errors are explained. Returns one line on what each
/// step valued and how long it took.
pub fn annotate_game(
    game: &SavedGame,
    engine: &EngineSettings,
    analysis: &mut GameAnalysis,
    fog_boards: usize,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<String, ReportError> {
    let started = Instant::now();
    let failed = |e: crate::AnalysisError| ReportError::Failed(format!("{}: {e}", game.source));
    let mut evaluator = engine.evaluator()?;
    let mut deeper = engine.deeper_evaluator()?;
    let highlighted =
        highlight_moves(game, analysis, evaluator.as_mut(), deeper.as_mut()).map_err(failed)?;
    let highlight_time = started.elapsed();
    let fog = FogSettings {
        boards: fog_boards,
        ..FogSettings::default()
    };
    let mut errors = 0;
    let valued = explain_errors(
        game,
        analysis,
        evaluator.as_mut(),
        &fog,
        &mut |done, total| {
            errors = total;
            progress(done, total);
        },
    )
    .map_err(failed)?;
    let positions = |n: usize| format!("{n} position{}", if n == 1 { "" } else { "s" });
    Ok(format!(
        "highlights: {} valued in {:.2} s; mistakes and blunders: {errors} explained, {} valued in {:.2} s",
        positions(highlighted),
        highlight_time.as_secs_f64(),
        positions(valued),
        (started.elapsed() - highlight_time).as_secs_f64()
    ))
}
