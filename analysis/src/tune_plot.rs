//! The picture of a tuning run (`fow tune`): `tune.svg` beside its `tune.csv`. Above,
//! every parameter's path over the batches, each scaled to its range; below, the `+`
//! candidate's running score and the run's cumulative result.

use std::path::{Path, PathBuf};

use fow_arena::tune::{BatchLog, TuneConfig, TRAJECTORY_FILE};
use fow_players::tune::TuneParam;
use fow_records::{write_atomic, TUNE_FILE};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::error::{input, ReportError};
use crate::plot::series_colour;

/// The plot of a tuning run, in its folder.
pub const TUNE_PLOT_FILE: &str = "tune.svg";

/// Batches in the running mean of the score (fewer at the start of a run).
pub const SCORE_WINDOW: usize = 20;

const WIDTH: u32 = 1100;
const CHAR_PX: f64 = 6.5;
const LEGEND_LINE_PX: i32 = 18;
const BOTTOM_PX: u32 = 300;
const CUMULATIVE_SELF: &str = "cumulative result (right): wins − losses";
const CUMULATIVE_AGAINST: &str = "cumulative result (right): points of + − of −";

/// Draws `dir/tune.svg` ([`TUNE_PLOT_FILE`]) from the run's `tune.json` and `tune.csv`
/// (written atomically: a kill leaves the old picture or the new one); its path.
pub fn tune_plot(dir: &Path) -> Result<PathBuf, ReportError> {
    let path = dir.join(TUNE_PLOT_FILE);
    write_atomic(&path, tune_plot_svg(dir)?.as_bytes())?;
    Ok(path)
}

/// The SVG [`tune_plot`] draws, from the run's files as they are now (a run being
/// written included: `fow web` draws it afresh), without writing it.
pub fn tune_plot_svg(dir: &Path) -> Result<String, ReportError> {
    let settings = dir.join(TUNE_FILE);
    let text = std::fs::read_to_string(&settings)
        .map_err(|e| input(format!("{}: {e}", settings.display())))?;
    let config: TuneConfig = serde_json::from_str(&text)
        .map_err(|e| input(format!("{}:{}: {e}", settings.display(), e.line())))?;
    let rows = read_trajectory(&dir.join(TRAJECTORY_FILE), config.space.params.len())?;
    tune_svg(&config, &rows)
}

/// The rows of a `tune.csv` with `n` parameters: batch, result, score, the `n` values,
/// the `n` perturbations (complete lines only).
fn read_trajectory(path: &Path, n: usize) -> Result<Vec<BatchLog>, ReportError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| input(format!("{}: {e}", path.display())))?;
    // A last line without its newline is still being written: left out.
    let complete = text.rfind('\n').map_or("", |i| &text[..=i]);
    let mut rows = Vec::new();
    for (i, line) in complete.lines().enumerate().skip(1) {
        let bad = |why: &str| input(format!("{}:{}: {why}", path.display(), i + 1));
        let fields: Result<Vec<f64>, _> = line.split(',').map(str::parse::<f64>).collect();
        let fields = fields.map_err(|_| bad("a field is not a number"))?;
        if fields.len() != 3 + 2 * n {
            return Err(bad(&format!(
                "{} fields, not {} (batch, result, score, {n} values, {n} steps)",
                fields.len(),
                3 + 2 * n
            )));
        }
        rows.push(BatchLog {
            batch: fields[0] as u32,
            result: fields[1],
            score: fields[2],
            theta: fields[3..3 + n].to_vec(),
            c: fields[3 + n..].to_vec(),
        });
    }
    Ok(rows)
}

/// The SVG of a run with settings `config` and trajectory `rows`.
pub fn tune_svg(config: &TuneConfig, rows: &[BatchLog]) -> Result<String, ReportError> {
    let fail = |e: &dyn std::fmt::Display| ReportError::Failed(format!("tune plot: {e}"));
    let params = &config.space.params;
    let legend: Vec<String> = params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let now = rows.last().map_or(p.start, |r| r.theta[i]);
            format!(
                "{}  {} → {}  ({} to {})",
                p.name,
                short(p, p.start),
                short(p, now),
                short(p, p.min),
                short(p, p.max)
            )
        })
        .collect();
    let widest = legend
        .iter()
        .map(|s| s.chars().count())
        .chain([CUMULATIVE_SELF.len(), CUMULATIVE_AGAINST.len()])
        .max()
        .unwrap_or(0);
    let legend_px = (CHAR_PX * widest as f64 + 50.0).min(520.0) as u32;
    // The upper panel grows with the legend, so that every parameter is named.
    let top_px = (80 + LEGEND_LINE_PX as u32 * params.len() as u32).max(380);
    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (WIDTH, top_px + BOTTOM_PX + 40)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(&e))?;
        let title = format!(
            "Tuning {}: {} batch{} of {} game pair{} (SPSA)",
            fow_players::player_label(&config.space.player),
            rows.len(),
            if rows.len() == 1 { "" } else { "es" },
            config.pairs,
            if config.pairs == 1 { "" } else { "s" },
        );
        let root = root
            .titled(&title, ("sans-serif", 20))
            .map_err(|e| fail(&e))?;
        let (top, bottom) = root.split_vertically(top_px);
        let (top, top_legend) = top.split_horizontally(WIDTH - legend_px);
        let (bottom, bottom_legend) = bottom.split_horizontally(WIDTH - legend_px);
        let last = rows.last().map_or(1, |r| r.batch + 1).max(1);

        // Each parameter's path: its start at 0, its value after each batch.
        let mut chart = panel(&top, last, -0.02..1.02, false).map_err(|e| fail(&e))?;
        chart
            .configure_mesh()
            .x_desc("batches")
            .y_desc("value (0 = min, 1 = max of its range)")
            .y_label_formatter(&|v| format!("{v:.1}"))
            .draw()
            .map_err(|e| fail(&e))?;
        let width = if params.len() <= 10 { 2 } else { 1 };
        for (i, p) in params.iter().enumerate() {
            let path = std::iter::once((0, scaled(p, p.start)))
                .chain(rows.iter().map(|r| (r.batch + 1, scaled(p, r.theta[i]))));
            chart
                .draw_series(LineSeries::new(path, series_colour(i).stroke_width(width)))
                .map_err(|e| fail(&e))?;
        }
        let entries: Vec<(String, ShapeStyle)> = legend
            .into_iter()
            .enumerate()
            .map(|(i, t)| (t, series_colour(i).stroke_width(2)))
            .collect();
        draw_legend(&top_legend, "parameter  start → now  (range)", &entries)
            .map_err(|e| fail(&e))?;

        // `+`'s score: each batch's, and the running mean; the cumulative result on the
        // right.
        let mut sum = 0.0;
        let cumulative: Vec<(u32, f64)> = rows
            .iter()
            .map(|r| {
                sum += r.result;
                (r.batch + 1, sum)
            })
            .collect();
        let (lo, hi) = cumulative
            .iter()
            .fold((0.0f64, 0.0f64), |(lo, hi), p| (lo.min(p.1), hi.max(p.1)));
        let pad = ((hi - lo) * 0.05).max(1.0);
        let mut chart = panel(&bottom, last, 0.0..100.0, true)
            .map_err(|e| fail(&e))?
            .set_secondary_coord(0..last, lo - pad..hi + pad);
        chart
            .configure_mesh()
            .x_desc("batches")
            .y_desc("score of + (%)")
            .y_label_formatter(&|v| format!("{v:.0}"))
            .draw()
            .map_err(|e| fail(&e))?;
        chart
            .configure_secondary_axes()
            .y_desc("cumulative result")
            .label_style(("sans-serif", 12).into_font().color(&RED))
            .draw()
            .map_err(|e| fail(&e))?;
        let grey = RGBColor(170, 170, 170);
        chart
            .draw_series(LineSeries::new(
                [(0, 50.0), (last, 50.0)],
                BLACK.mix(0.4).stroke_width(1),
            ))
            .map_err(|e| fail(&e))?;
        chart
            .draw_series(
                rows.iter()
                    .map(|r| Circle::new((r.batch + 1, 100.0 * r.score), 2, grey.filled())),
            )
            .map_err(|e| fail(&e))?;
        let mean: Vec<(u32, f64)> = rows
            .iter()
            .enumerate()
            .map(|(k, r)| {
                let window = &rows[(k + 1).saturating_sub(SCORE_WINDOW)..=k];
                let m = window.iter().map(|w| w.score).sum::<f64>() / window.len() as f64;
                (r.batch + 1, 100.0 * m)
            })
            .collect();
        chart
            .draw_series(LineSeries::new(mean, BLUE.stroke_width(2)))
            .map_err(|e| fail(&e))?;
        chart
            .draw_secondary_series(LineSeries::new(cumulative, RED.stroke_width(2)))
            .map_err(|e| fail(&e))?;
        let entries = [
            ("score of + in each batch".to_string(), grey.filled()),
            (
                format!("mean over the last {SCORE_WINDOW} batches"),
                BLUE.stroke_width(2),
            ),
            ("50%".to_string(), BLACK.mix(0.4).stroke_width(1)),
            (
                match config.against.is_empty() {
                    true => CUMULATIVE_SELF,
                    false => CUMULATIVE_AGAINST,
                }
                .to_string(),
                RED.stroke_width(2),
            ),
        ];
        draw_legend(&bottom_legend, "the + candidate", &entries).map_err(|e| fail(&e))?;
        root.present().map_err(|e| fail(&e))?;
    }
    Ok(svg)
}

type Panel<'a, 'b> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<plotters::coord::types::RangedCoordu32, plotters::coord::types::RangedCoordf64>,
>;

/// A panel over batches `0..last`, with room for a right axis (drawn or not) so that
/// both panels' batch axes line up.
fn panel<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, Shift>,
    last: u32,
    y: std::ops::Range<f64>,
    right_axis: bool,
) -> Result<Panel<'a, 'b>, DrawingAreaErrorKind<std::io::Error>> {
    let mut b = ChartBuilder::on(area);
    b.margin(12).x_label_area_size(40).y_label_area_size(60);
    match right_axis {
        true => b.right_y_label_area_size(60),
        false => b.margin_right(12 + 60),
    };
    b.build_cartesian_2d(0..last, y)
}

/// A legend in its own area: a title, then a sample and a line of text per entry.
fn draw_legend(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    title: &str,
    entries: &[(String, ShapeStyle)],
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    let left = Pos::new(HPos::Left, VPos::Center);
    let font = ("sans-serif", 15).into_font();
    area.draw(&Text::new(
        title.to_string(),
        (8, 22),
        font.clone().style(FontStyle::Bold).color(&BLACK).pos(left),
    ))?;
    for (k, (text, style)) in entries.iter().enumerate() {
        let y = 22 + LEGEND_LINE_PX * (k as i32 + 1);
        match style.filled {
            true => area.draw(&Circle::new((20, y), 3, *style))?,
            false => area.draw(&PathElement::new([(8, y), (32, y)], *style))?,
        }
        area.draw(&Text::new(
            text.clone(),
            (40, y),
            font.clone().color(&BLACK).pos(left),
        ))?;
    }
    Ok(())
}

/// `v` within `p`'s range: 0 at its min, 1 at its max (0.5 for a range of one value).
fn scaled(p: &TuneParam, v: f64) -> f64 {
    match p.max > p.min {
        true => (v - p.min) / (p.max - p.min),
        false => 0.5,
    }
}

/// `v` to four significant digits (whole numbers for an integer parameter).
fn short(p: &TuneParam, v: f64) -> String {
    if p.int || v == 0.0 || !v.is_finite() {
        return format!("{}", v.round());
    }
    let digits = (3 - v.abs().log10().floor() as i32).clamp(0, 6) as usize;
    let s = format!("{v:.digits$}");
    match s.contains('.') {
        true => s.trim_end_matches('0').trim_end_matches('.').to_string(),
        false => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_arena::tune::Tuner;
    use fow_players::tune::TuneSpace;
    use fow_variants::RuleSet;

    fn tuner(dir: &Path, batches: u32) -> Tuner {
        let space =
            TuneSpace::declared("Planted:x=0.05,y=0.95", &["x".into(), "y".into()]).unwrap();
        let config =
            TuneConfig::new(space, batches, 2, Vec::new(), RuleSet::thesis(), Some(1)).unwrap();
        let mut t = Tuner::create(Some(dir), config).unwrap();
        t.run(1, |_| true).unwrap();
        t
    }

    #[test]
    fn the_plot_is_written_and_names_each_parameter() {
        let tmp = tempfile::tempdir().unwrap();
        let t = tuner(&tmp.path().join("t"), 25);
        let path = tune_plot(t.dir()).unwrap();
        assert_eq!(path, t.dir().join(TUNE_PLOT_FILE));
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.starts_with("<svg"), "{svg}");
        for name in ["x", "y"] {
            let start = if name == "x" { "0.05" } else { "0.95" };
            assert!(
                svg.lines()
                    .any(|l| l.starts_with(&format!("{name}  {start} → "))),
                "{name} is not in the legend: {svg}"
            );
        }
        assert!(
            svg.contains("Tuning Planted:x=0.05,y=0.95: 25 batches"),
            "{svg}"
        );
        assert!(svg.contains("mean over the last 20 batches"), "{svg}");
    }

    #[test]
    fn a_broken_trajectory_is_refused_by_file_and_line() {
        let tmp = tempfile::tempdir().unwrap();
        let t = tuner(&tmp.path().join("t"), 3);
        let csv = t.dir().join(TRAJECTORY_FILE);
        let text = std::fs::read_to_string(&csv).unwrap();
        std::fs::write(&csv, text.replacen("\n1,", "\n1,x,", 1)).unwrap();
        let e = tune_plot(t.dir()).unwrap_err().to_string();
        assert!(e.contains("tune.csv:3: "), "{e}");
        assert!(matches!(tune_plot(t.dir()), Err(ReportError::Input(_))));
    }

    #[test]
    fn values_are_shown_short() {
        let p = |int| TuneParam {
            name: "p".into(),
            key: "p".into(),
            start: 0.0,
            min: 0.0,
            max: 1000.0,
            int,
            c_end: 1.0,
            r_end: 0.002,
        };
        assert_eq!(short(&p(false), 0.5110965), "0.5111");
        assert_eq!(short(&p(false), 0.05), "0.05");
        assert_eq!(short(&p(false), 123.456), "123.5");
        assert_eq!(short(&p(false), 0.0), "0");
        assert_eq!(short(&p(true), 12.6), "13");
        assert_eq!(scaled(&p(false), 250.0), 0.25);
    }
}
