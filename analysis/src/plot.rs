//! SVG plots of runs (plotters' SVG backend: no fonts or system libraries needed).

use std::path::Path;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::error::ReportError;

/// Benchmark score (percent) against epoch, like the thesis's Figure 9. The epoch axis
/// is an integer one: its ticks are whole epochs however short the run.
pub fn benchmark_plot(
    path: &Path,
    bot: &str,
    benchmark: &str,
    points: &[(u32, f64)],
) -> Result<(), ReportError> {
    let fail = |e: &dyn std::fmt::Display| ReportError::Failed(format!("{}: {e}", path.display()));
    let root = SVGBackend::new(path, (900, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let last = points.last().map_or(1, |p| p.0).max(1);
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("{bot}: benchmark score against {benchmark} per epoch"),
            ("sans-serif", 20),
        )
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0..last, 0.0..100.0)
        .map_err(|e| fail(&e))?;
    chart
        .configure_mesh()
        .x_desc("epoch")
        .y_desc("score (%)")
        .y_label_formatter(&|v| format!("{v:.0}"))
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
/// validation top-1 as a fraction); NaN values (no validation set) are left out. The
/// epoch axis has whole-epoch ticks only.
pub fn training_plot(path: &Path, points: &[(u32, f64, f64, f64)]) -> Result<(), ReportError> {
    let fail = |e: &dyn std::fmt::Display| ReportError::Failed(format!("{}: {e}", path.display()));
    let root = SVGBackend::new(path, (900, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let last = points.last().map_or(1, |p| p.0).max(1);
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
        .build_cartesian_2d(0..last, 0.0..top)
        .map_err(|e| fail(&e))?
        .set_secondary_coord(0..last, 0.0..100.0);
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
    let series = |f: fn(&(u32, f64, f64, f64)) -> f64| -> Vec<(u32, f64)> {
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

/// One rung of a ladder in [`ladder_plot`].
pub struct Rung {
    /// The name shown beside the point.
    pub label: String,
    /// Its rating.
    pub elo: f64,
    /// Half-width of its 95% interval, drawn as a bar when given.
    pub half_width: Option<f64>,
}

/// Two Elo ladders side by side (a slope chart): the `left` rungs at x = 0, the `right`
/// rungs at x = 1, a line joining each pair in `links` (left index, right index) in one
/// colour per left rung; a right rung with a half-width gets its interval as a bar. Right
/// rungs whose bars overlap vertically stand a little apart to the right (a lane each,
/// given from the lowest bar up), so that every bar is seen at its own rung. Labels are
/// spread apart vertically where rungs are too close to read, with a leader line to their
/// point.
pub fn ladder_plot(
    path: &Path,
    caption: &str,
    titles: [&str; 2],
    left: &[Rung],
    right: &[Rung],
    links: &[(usize, usize)],
) -> Result<(), ReportError> {
    const WIDTH: u32 = 1200;
    const HEIGHT: u32 = 700;
    const CHAR_PX: f64 = 7.0;
    const LINE_PX: f64 = 15.0;
    // The horizontal step between lanes of overlapping bars, and a bar's cap half-width.
    const LANE_PX: f64 = 12.0;
    const CAP_PX: f64 = 4.0;
    let fail = |e: &dyn std::fmt::Display| ReportError::Failed(format!("{}: {e}", path.display()));
    let left_text: Vec<String> = left
        .iter()
        .map(|r| format!("{} {:.0}", r.label, r.elo))
        .collect();
    let right_text: Vec<String> = right
        .iter()
        .map(|r| match r.half_width {
            Some(h) if h > 0.0 => format!("{:.0} ± {:.0} {}", r.elo, h, r.label),
            _ => format!("{:.0} {}", r.elo, r.label),
        })
        .collect();
    // Horizontal layout: label room on both sides, the rest between the two ladders.
    let widest = |t: &[String]| t.iter().map(|s| s.chars().count()).max().unwrap_or(0) as f64;
    let left_px = CHAR_PX * widest(&left_text) + 30.0;
    let intervals: Vec<Option<(f64, f64)>> = right
        .iter()
        .map(|r| match r.half_width {
            Some(h) if h > 0.0 => Some((r.elo - h, r.elo + h)),
            _ => None,
        })
        .collect();
    let lane = lanes(&intervals);
    let lane_count = lane.iter().max().map_or(0, |&l| l + 1);
    let right_px = CHAR_PX * widest(&right_text) + 30.0 + LANE_PX * lane_count as f64;
    let plot_px = f64::from(WIDTH) - 30.0 - 70.0;
    let middle_px = (plot_px - left_px - right_px).max(200.0);
    // Each right rung's x: its lane's, right of x = 1.
    let right_x: Vec<f64> = lane
        .iter()
        .map(|&l| 1.0 + LANE_PX * l as f64 / middle_px)
        .collect();
    let right_label_x = 1.0 + LANE_PX * lane_count.saturating_sub(1) as f64 / middle_px;
    let (x0, x1) = (-left_px / middle_px, 1.0 + right_px / middle_px);
    // Vertical range: every point and interval, with room for the column titles.
    let values = left
        .iter()
        .map(|r| (r.elo, r.elo))
        .chain(right.iter().map(|r| {
            (
                r.elo - r.half_width.unwrap_or(0.0),
                r.elo + r.half_width.unwrap_or(0.0),
            )
        }));
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (a, b)| {
        (lo.min(a), hi.max(b))
    });
    let (lo, hi) = if lo.is_finite() {
        (lo, hi.max(lo + 1.0))
    } else {
        (0.0, 1.0)
    };
    let pad = 0.05 * (hi - lo);
    let (y0, y1) = (lo - pad, hi + 3.0 * pad);

    let root = SVGBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(caption, ("sans-serif", 20))
        .margin(15)
        .y_label_area_size(70)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(|e| fail(&e))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_label_formatter(&|v| format!("{v:.0}"))
        .y_desc("Elo")
        .light_line_style(WHITE)
        .draw()
        .map_err(|e| fail(&e))?;
    let (_, ys) = chart.plotting_area().get_pixel_range();
    let gap = LINE_PX * (y1 - y0) / f64::from((ys.end - ys.start).max(1));

    let colour = |left_index: Option<usize>| -> RGBColor {
        left_index.map_or(RGBColor(90, 90, 90), series_colour)
    };
    let right_colour: Vec<RGBColor> = (0..right.len())
        .map(|j| colour(links.iter().find(|l| l.1 == j).map(|l| l.0)))
        .collect();
    let title_style = ("sans-serif", 16).into_font().color(&BLACK);
    for (x, title) in [(0.0, titles[0]), (1.0, titles[1])] {
        let style = title_style.pos(Pos::new(HPos::Center, VPos::Center));
        chart
            .draw_series(std::iter::once(Text::new(
                title.to_string(),
                (x, hi + 2.0 * pad),
                style,
            )))
            .map_err(|e| fail(&e))?;
    }
    for &(i, j) in links {
        let (Some(a), Some(b)) = (left.get(i), right.get(j)) else {
            continue;
        };
        chart
            .draw_series(std::iter::once(PathElement::new(
                [(0.0, a.elo), (right_x[j], b.elo)],
                colour(Some(i)).stroke_width(2),
            )))
            .map_err(|e| fail(&e))?;
    }
    for (j, interval) in intervals.iter().enumerate() {
        if let Some((lo, hi)) = *interval {
            let (c, x) = (right_colour[j], right_x[j]);
            let cap = CAP_PX / middle_px;
            chart
                .draw_series([
                    PathElement::new([(x, lo), (x, hi)], c.stroke_width(1)),
                    PathElement::new([(x - cap, lo), (x + cap, lo)], c.stroke_width(1)),
                    PathElement::new([(x - cap, hi), (x + cap, hi)], c.stroke_width(1)),
                ])
                .map_err(|e| fail(&e))?;
        }
    }
    // Points, leader lines and labels of one side.
    // Points (rung k at xs[k]), leader lines and labels (beyond `edge`) of one side.
    let mut side = |rungs: &[Rung],
                    texts: &[String],
                    colours: &[RGBColor],
                    xs: &[f64],
                    edge: f64,
                    dir: f64|
     -> Result<(), ReportError> {
        let ys: Vec<f64> = rungs.iter().map(|r| r.elo).collect();
        let placed = spread(&ys, gap, y1 - 2.0 * gap);
        let h = if dir < 0.0 { HPos::Right } else { HPos::Left };
        let label_x = edge + dir * 0.06;
        for (k, r) in rungs.iter().enumerate() {
            let (c, x) = (colours[k], xs[k]);
            chart
                .draw_series(std::iter::once(Circle::new((x, r.elo), 4, c.filled())))
                .map_err(|e| fail(&e))?;
            chart
                .draw_series(std::iter::once(PathElement::new(
                    [(x + dir * 0.015, r.elo), (label_x - dir * 0.005, placed[k])],
                    c.stroke_width(1),
                )))
                .map_err(|e| fail(&e))?;
            let style = ("sans-serif", 13)
                .into_font()
                .color(&c)
                .pos(Pos::new(h, VPos::Center));
            chart
                .draw_series(std::iter::once(Text::new(
                    texts[k].clone(),
                    (label_x, placed[k]),
                    style,
                )))
                .map_err(|e| fail(&e))?;
        }
        Ok(())
    };
    let left_colour: Vec<RGBColor> = (0..left.len()).map(|i| colour(Some(i))).collect();
    side(
        left,
        &left_text,
        &left_colour,
        &vec![0.0; left.len()],
        0.0,
        -1.0,
    )?;
    side(
        right,
        &right_text,
        &right_colour,
        &right_x,
        right_label_x,
        1.0,
    )?;
    root.present().map_err(|e| fail(&e))?;
    Ok(())
}

/// The colour of the `i`-th series of a plot: matplotlib's "tab10" (dark enough for text
/// on white), then plotters' palette.
pub(crate) fn series_colour(i: usize) -> RGBColor {
    const TAB10: [RGBColor; 10] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
        RGBColor(188, 189, 34),
        RGBColor(23, 190, 207),
    ];
    TAB10.get(i).copied().unwrap_or_else(|| {
        let c = Palette99::pick(i).to_rgba();
        RGBColor(c.0, c.1, c.2)
    })
}

/// A lane (0, 1, ...) for each interval `(low, high)`, so that intervals that overlap
/// never share one: from the lowest interval up, each takes the first lane whose last
/// interval ends below its start. Rungs without an interval (`None`) stay in lane 0.
fn lanes(intervals: &[Option<(f64, f64)>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..intervals.len())
        .filter(|&k| intervals[k].is_some())
        .collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (intervals[a].unwrap(), intervals[b].unwrap());
        a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1))
    });
    let mut lane = vec![0; intervals.len()];
    let mut ends: Vec<f64> = Vec::new();
    for k in order {
        let (low, high) = intervals[k].unwrap();
        let l = match ends.iter().position(|&end| end < low) {
            Some(l) => l,
            None => {
                ends.push(f64::NEG_INFINITY);
                ends.len() - 1
            }
        };
        ends[l] = high;
        lane[k] = l;
    }
    lane
}

/// Label heights for points at `ys`: each at its point where possible, at least `gap`
/// apart, none above `top` (as long as there is room below).
fn spread(ys: &[f64], gap: f64, top: f64) -> Vec<f64> {
    let mut order: Vec<usize> = (0..ys.len()).collect();
    order.sort_by(|&a, &b| ys[a].total_cmp(&ys[b]));
    let mut out = ys.to_vec();
    for k in 1..order.len() {
        let (below, above) = (order[k - 1], order[k]);
        out[above] = out[above].max(out[below] + gap);
    }
    if let Some(&last) = order.last() {
        out[last] = out[last].min(top.max(ys[last]));
    }
    for k in (1..order.len()).rev() {
        let (below, above) = (order[k - 1], order[k]);
        out[below] = out[below].min(out[above] - gap);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{ladder_plot, lanes, spread, Rung};

    #[test]
    fn overlapping_intervals_get_lanes_of_their_own() {
        // Disjoint intervals share lane 0; each overlap opens the next free lane.
        let i = |lo: f64, hi: f64| Some((lo, hi));
        assert_eq!(lanes(&[i(0.0, 1.0), i(2.0, 3.0), None]), [0, 0, 0]);
        assert_eq!(
            lanes(&[
                i(10.0, 20.0),
                i(0.0, 12.0),
                i(5.0, 15.0),
                i(13.0, 30.0),
                None
            ]),
            [2, 0, 1, 0, 0]
        );
    }

    /// The x pixel of every vertical line (an error bar) drawn in `colour` in an SVG.
    fn bars(svg: &str, colour: &str) -> Vec<String> {
        svg.lines()
            .filter(|l| l.contains("<polyline") && l.contains(&format!("stroke=\"{colour}\"")))
            .filter_map(|l| {
                let points = l.split("points=\"").nth(1)?.split('"').next()?;
                let xy: Vec<(&str, &str)> = points
                    .split_whitespace()
                    .filter_map(|p| p.split_once(','))
                    .collect();
                (xy.len() == 2 && xy[0].0 == xy[1].0 && xy[0].1 != xy[1].1)
                    .then(|| xy[0].0.to_string())
            })
            .collect()
    }

    #[test]
    fn every_error_bar_stands_at_its_own_rung() {
        let rung = |label: &str, elo: f64, half_width: Option<f64>| Rung {
            label: label.to_string(),
            elo,
            half_width,
        };
        let left = [
            rung("A", 0.0, None),
            rung("B", 100.0, None),
            rung("C", 500.0, None),
        ];
        // A's and B's intervals overlap; C's overlaps neither.
        let right = [
            rung("A", 0.0, Some(80.0)),
            rung("B", 90.0, Some(80.0)),
            rung("C", 600.0, Some(50.0)),
        ];
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ladder.svg");
        ladder_plot(
            &path,
            "t",
            ["l", "r"],
            &left,
            &right,
            &[(0, 0), (1, 1), (2, 2)],
        )
        .unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        // tab10's first three colours: one bar each, A and B apart, C back in A's lane.
        let (a, b, c) = (
            bars(&svg, "#1F77B4"),
            bars(&svg, "#FF7F0E"),
            bars(&svg, "#2CA02C"),
        );
        assert_eq!((a.len(), b.len(), c.len()), (1, 1, 1), "{svg}");
        assert_ne!(a, b);
        assert_eq!(a, c);
        // Each rung's point sits on its bar.
        for (x, colour) in [(&a[0], "#1F77B4"), (&b[0], "#FF7F0E")] {
            assert!(
                svg.lines().any(|l| l.contains("<circle")
                    && l.contains(&format!("cx=\"{x}\""))
                    && l.contains(&format!("fill=\"{colour}\""))),
                "no point at x = {x}: {svg}"
            );
        }
    }

    #[test]
    fn labels_keep_their_place_or_move_apart() {
        assert_eq!(
            spread(&[0.0, 100.0, 50.0], 10.0, 1000.0),
            [0.0, 100.0, 50.0]
        );
        let s = spread(&[0.0, 3.0, 4.0, 100.0], 10.0, 1000.0);
        assert_eq!(s, [0.0, 10.0, 20.0, 100.0]);
        // The top label may not pass `top`: the crowd moves down instead.
        let s = spread(&[96.0, 98.0, 99.0], 10.0, 100.0);
        assert_eq!(s, [80.0, 90.0, 100.0]);
    }
}
