//! The report's plots, drawn by plotters into SVG strings (no JavaScript): results by colour,
//! game lengths, material and mobility by ply, piece values.

use crate::report::{Report, SetReport};
use plotters::coord::Shift;
use plotters::prelude::*;

type Failure = Box<dyn std::error::Error>;
type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

const COLOURS: [RGBColor; 2] = [RGBColor(31, 119, 180), RGBColor(230, 110, 10)];
const ENGINE: RGBColor = RGBColor(120, 120, 120);
const SIZE: (u32, u32) = (720, 400);

fn svg(draw: impl FnOnce(&Area) -> Result<(), Failure>) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        draw(&root).map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

fn label(set: &SetReport) -> String {
    if set.rules.is_empty() {
        format!("{}: default rules", set.label)
    } else {
        format!("{}: {}", set.label, set.rules.join(" "))
    }
}

/// Bars for categories at x = 0, 1, ...; each set's bar beside the other's.
fn offset(set: usize, sets: usize) -> (f64, f64) {
    let w = 0.8 / sets as f64;
    (-0.4 + w * set as f64, -0.4 + w * (set as f64 + 1.0))
}

fn category_formatter(names: &[String]) -> impl Fn(&f64) -> String + '_ {
    move |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 {
            names.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    }
}

fn results(rep: &Report) -> Result<String, String> {
    let names: Vec<String> = ["White wins", "draws", "Black wins", "White score"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    svg(|root| {
        let mut chart = ChartBuilder::on(root)
            .caption("Results by colour (95% intervals)", ("sans-serif", 20))
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(45)
            .build_cartesian_2d(-0.5f64..3.5f64, 0f64..1f64)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(9)
            .x_label_formatter(&category_formatter(&names))
            .y_desc("fraction of games / of points")
            .draw()?;
        let n = rep.sets.len();
        for (s, set) in rep.sets.iter().enumerate() {
            let c = COLOURS[s % 2];
            let figures = [
                set.white_win_rate,
                set.draw_rate,
                set.black_win_rate,
                set.white_score,
            ];
            let (l, r) = offset(s, n);
            let bars: Vec<_> = figures
                .iter()
                .enumerate()
                .filter_map(|(i, f)| f.map(|f| (i as f64, f)))
                .collect();
            chart
                .draw_series(bars.iter().map(|&(x, f)| {
                    Rectangle::new(
                        [(x + l + 0.02, 0.0), (x + r - 0.02, f.value)],
                        c.mix(0.6).filled(),
                    )
                }))?
                .label(label(set))
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 12, y + 5)], c.mix(0.6).filled())
                });
            for &(x, f) in &bars {
                let m = x + (l + r) / 2.0;
                chart.draw_series(std::iter::once(PathElement::new(
                    vec![(m, f.lo), (m, f.hi)],
                    BLACK.stroke_width(2),
                )))?;
                for y in [f.lo, f.hi] {
                    chart.draw_series(std::iter::once(PathElement::new(
                        vec![(m - 0.05, y), (m + 0.05, y)],
                        BLACK.stroke_width(2),
                    )))?;
                }
            }
        }
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(-0.5, 0.5), (3.5, 0.5)],
            BLACK.mix(0.3),
        )))?;
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .border_style(BLACK)
            .background_style(WHITE.mix(0.8))
            .draw()?;
        Ok(())
    })
}

fn lengths(rep: &Report) -> Result<String, String> {
    svg(|root| {
        let bin = rep.sets.first().map_or(1, |s| s.bin_width) as f64;
        let xmax = rep
            .sets
            .iter()
            .flat_map(|s| s.length_histogram.iter().map(|&(b, _)| b as f64 + bin))
            .fold(bin, f64::max);
        let ymax = rep
            .sets
            .iter()
            .flat_map(|s| s.length_histogram.iter().map(|&(_, c)| c as f64))
            .fold(1.0, f64::max);
        let mut chart = ChartBuilder::on(root)
            .caption("Game length (plies)", ("sans-serif", 20))
            .margin(10)
            .x_label_area_size(35)
            .y_label_area_size(45)
            .build_cartesian_2d(0f64..xmax, 0f64..ymax * 1.1)?;
        chart
            .configure_mesh()
            .x_desc("plies")
            .y_desc("games")
            .draw()?;
        let n = rep.sets.len() as f64;
        for (s, set) in rep.sets.iter().enumerate() {
            let c = COLOURS[s % 2];
            let w = bin / n;
            chart
                .draw_series(set.length_histogram.iter().map(|&(b, count)| {
                    let x0 = b as f64 + w * s as f64;
                    Rectangle::new(
                        [(x0, 0.0), (x0 + w * 0.95, count as f64)],
                        c.mix(0.6).filled(),
                    )
                }))?
                .label(label(set))
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 12, y + 5)], c.mix(0.6).filled())
                });
        }
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE.mix(0.8))
            .draw()?;
        Ok(())
    })
}

type ByPly = Vec<(usize, f64, f64, f64)>;

fn by_ply(
    rep: &Report,
    title: &str,
    y: &str,
    pick: fn(&SetReport) -> &ByPly,
) -> Result<String, String> {
    svg(|root| {
        let xmax = rep
            .sets
            .iter()
            .filter_map(|s| pick(s).last().map(|p| p.0 as f64))
            .fold(1.0, f64::max);
        let lo = rep
            .sets
            .iter()
            .flat_map(|s| pick(s).iter().map(|p| p.1))
            .fold(0.0, f64::min);
        let hi = rep
            .sets
            .iter()
            .flat_map(|s| pick(s).iter().map(|p| p.3))
            .fold(1.0, f64::max);
        let pad = (hi - lo).max(1.0) * 0.05;
        let mut chart = ChartBuilder::on(root)
            .caption(title, ("sans-serif", 20))
            .margin(10)
            .x_label_area_size(35)
            .y_label_area_size(55)
            .build_cartesian_2d(0f64..xmax, (lo - pad)..(hi + pad))?;
        chart.configure_mesh().x_desc("ply").y_desc(y).draw()?;
        for (s, set) in rep.sets.iter().enumerate() {
            let c = COLOURS[s % 2];
            let rows = pick(set);
            if rows.is_empty() {
                continue;
            }
            let mut band: Vec<(f64, f64)> = rows.iter().map(|r| (r.0 as f64, r.3)).collect();
            band.extend(rows.iter().rev().map(|r| (r.0 as f64, r.1)));
            chart.draw_series(std::iter::once(Polygon::new(band, c.mix(0.2).filled())))?;
            chart
                .draw_series(LineSeries::new(
                    rows.iter().map(|r| (r.0 as f64, r.2)),
                    c.stroke_width(2),
                ))?
                .label(format!("{} (median, band: quartiles)", label(set)))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 14, y)], c.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE.mix(0.8))
            .draw()?;
        Ok(())
    })
}

fn pieces(rep: &Report) -> Result<String, String> {
    let mut names: Vec<char> = Vec::new();
    for s in &rep.sets {
        for p in &s.piece_values {
            if p.engine.is_some() && !names.contains(&p.piece) {
                names.push(p.piece);
            }
        }
    }
    let labels: Vec<String> = names.iter().map(|c| c.to_string()).collect();
    svg(|root| {
        let value = |s: &SetReport, k: char, engine: bool| {
            s.piece_values.iter().find(|p| p.piece == k).and_then(|p| {
                if engine {
                    p.engine
                } else {
                    p.estimated.map(|e| e.value)
                }
            })
        };
        let interval = |s: &SetReport, k: char| {
            s.piece_values
                .iter()
                .find(|p| p.piece == k)
                .and_then(|p| p.estimated)
        };
        let all: Vec<f64> = rep
            .sets
            .iter()
            .flat_map(|s| {
                names.iter().flat_map(move |&k| {
                    [
                        value(s, k, true),
                        interval(s, k).map(|e| e.lo),
                        interval(s, k).map(|e| e.hi),
                    ]
                })
            })
            .flatten()
            .collect();
        let lo = all.iter().copied().fold(0.0, f64::min);
        let hi = all.iter().copied().fold(100.0, f64::max);
        let pad = (hi - lo) * 0.05;
        let mut chart = ChartBuilder::on(root)
            .caption(
                "Piece values (centipawns): engine, and from results with 95% intervals",
                ("sans-serif", 20),
            )
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(55)
            .build_cartesian_2d(
                -0.5f64..(names.len().max(1) as f64 - 0.5),
                (lo - pad)..(hi + pad),
            )?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(2 * names.len().max(1) + 1)
            .x_label_formatter(&category_formatter(&labels))
            .y_label_formatter(&|v| format!("{v:.0}"))
            .x_desc("piece letter")
            .draw()?;
        let bars = 1 + rep.sets.len();
        for b in 0..bars {
            let (l, r) = offset(b, bars);
            let (colour, text) = if b == 0 {
                (ENGINE, "engine".to_string())
            } else {
                (
                    COLOURS[(b - 1) % 2],
                    format!("estimated, {}", label(&rep.sets[b - 1])),
                )
            };
            let set = &rep.sets[b.saturating_sub(1)];
            let rects: Vec<_> = names
                .iter()
                .enumerate()
                .filter_map(|(i, &k)| value(set, k, b == 0).map(|v| (i as f64, v)))
                .map(|(x, v)| {
                    Rectangle::new(
                        [(x + l + 0.02, 0.0), (x + r - 0.02, v)],
                        colour.mix(0.7).filled(),
                    )
                })
                .collect();
            chart.draw_series(rects)?.label(text).legend(move |(x, y)| {
                Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.mix(0.7).filled())
            });
            if b > 0 {
                let whiskers: Vec<_> = names
                    .iter()
                    .enumerate()
                    .filter_map(|(i, &k)| interval(set, k).map(|e| (i as f64 + (l + r) / 2.0, e)))
                    .map(|(x, e)| {
                        PathElement::new(
                            vec![
                                (x - 0.03, e.lo),
                                (x + 0.03, e.lo),
                                (x, e.lo),
                                (x, e.hi),
                                (x - 0.03, e.hi),
                                (x + 0.03, e.hi),
                            ],
                            BLACK.stroke_width(1),
                        )
                    })
                    .collect();
                chart.draw_series(whiskers)?;
            }
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .border_style(BLACK)
            .background_style(WHITE.mix(0.8))
            .draw()?;
        Ok(())
    })
}

/// Every plot: `(file name, SVG text)`.
pub fn all(rep: &Report) -> Result<Vec<(String, String)>, String> {
    Ok(vec![
        ("results.svg".into(), results(rep)?),
        ("lengths.svg".into(), lengths(rep)?),
        (
            "material.svg".into(),
            by_ply(
                rep,
                "Material balance for White by ply",
                "centipawns",
                |s| &s.material_by_ply,
            )?,
        ),
        (
            "mobility.svg".into(),
            by_ply(
                rep,
                "Legal moves of the side to move by ply",
                "legal moves",
                |s| &s.mobility_by_ply,
            )?,
        ),
        ("pieces.svg".into(), pieces(rep)?),
    ])
}
