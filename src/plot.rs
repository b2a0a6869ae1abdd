//! SVG plots of runs (plotters' SVG backend: no fonts or system libraries needed).

use std::path::Path;

use plotters::prelude::*;

use crate::error::CliError;

/// Benchmark score (percent) against epoch, like the thesis's Figure 9.
pub fn benchmark_plot(
    path: &Path,
    bot: &str,
    benchmark: &str,
    points: &[(f64, f64)],
) -> Result<(), CliError> {
    let fail = |e: &dyn std::fmt::Display| CliError::Failed(format!("{}: {e}", path.display()));
    let root = SVGBackend::new(path, (900, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let last = points.last().map_or(1.0, |p| p.0).max(1.0);
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("{bot}: benchmark score against {benchmark} per epoch"),
            ("sans-serif", 20),
        )
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0..last, 0.0..100.0)
        .map_err(|e| fail(&e))?;
    chart
        .configure_mesh()
        .x_desc("epoch")
        .y_desc("score (%)")
        .draw()
        .map_err(|e| fail(&e))?;
    chart
        .draw_series(LineSeries::new(points.iter().copied(), &BLUE))
        .map_err(|e| fail(&e))?;
    chart
        .draw_series(points.iter().map(|&p| Circle::new(p, 2, BLUE.filled())))
        .map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))?;
    Ok(())
}
