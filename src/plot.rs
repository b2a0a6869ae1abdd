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

/// Training curves: train and validation loss (left axis) and validation top-1 accuracy
/// in percent (right axis) per epoch. `points` are (epoch, train loss, validation loss,
/// validation top-1 as a fraction); NaN values (no validation set) are left out.
#[cfg_attr(not(feature = "torch"), allow(dead_code))]
pub fn training_plot(path: &Path, points: &[(f64, f64, f64, f64)]) -> Result<(), CliError> {
    let fail = |e: &dyn std::fmt::Display| CliError::Failed(format!("{}: {e}", path.display()));
    let root = SVGBackend::new(path, (900, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let last = points.last().map_or(1.0, |p| p.0).max(1.0);
    let top = points
        .iter()
        .flat_map(|p| [p.1, p.2])
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max)
        .max(1e-3)
        * 1.05;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "Training: loss and validation top-1 per epoch",
            ("sans-serif", 20),
        )
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(55)
        .right_y_label_area_size(55)
        .build_cartesian_2d(0.0..last, 0.0..top)
        .map_err(|e| fail(&e))?
        .set_secondary_coord(0.0..last, 0.0..100.0);
    chart
        .configure_mesh()
        .x_desc("epoch")
        .y_desc("loss (from + to cross-entropy)")
        .draw()
        .map_err(|e| fail(&e))?;
    chart
        .configure_secondary_axes()
        .y_desc("validation top-1 (%)")
        .draw()
        .map_err(|e| fail(&e))?;
    let series = |f: fn(&(f64, f64, f64, f64)) -> f64| -> Vec<(f64, f64)> {
        points
            .iter()
            .map(|p| (p.0, f(p)))
            .filter(|p| p.1.is_finite())
            .collect()
    };
    let green = RGBColor(0, 140, 0);
    chart
        .draw_series(LineSeries::new(series(|p| p.1), &BLUE))
        .map_err(|e| fail(&e))?
        .label("train loss")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLUE));
    chart
        .draw_series(LineSeries::new(series(|p| p.2), &RED))
        .map_err(|e| fail(&e))?
        .label("validation loss")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], RED));
    chart
        .draw_secondary_series(LineSeries::new(series(|p| 100.0 * p.3), &green))
        .map_err(|e| fail(&e))?
        .label("validation top-1 (%, right)")
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], green));
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))?;
    Ok(())
}
