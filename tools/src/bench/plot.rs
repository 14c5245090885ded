//! The benchmark's picture: one group of bars per case (ours, Triton,
//! PyTorch, in GB/s) under the device's copy bandwidth, as a PNG drawn
//! with plotters.
//!
//! The run's numbers are also written as JSON ([`Plot`], serde), so the
//! picture can be drawn again anywhere (`tile-tools plot FILE.json`):
//! plotters draws text with a TrueType font found on the machine
//! ([`FONT_PATHS`]), and a GPU machine may have none.

use plotters::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One case's bandwidths, in GB/s (`None`: not measured).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bars {
    /// The kernel and size (`row_sum 65536x1024`).
    pub label: String,
    /// Ours.
    pub ours: Option<f64>,
    /// Triton's.
    pub triton: Option<f64>,
    /// PyTorch's.
    pub torch: Option<f64>,
}

/// What one picture shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plot {
    /// The title (device and date).
    pub title: String,
    /// The device-to-device copy bandwidth, in GB/s, drawn as a line.
    pub copy_gbps: Option<f64>,
    /// One group of bars per case.
    pub cases: Vec<Bars>,
}

/// Where a TrueType font is looked for (Debian and Ubuntu packages of
/// DejaVu and Liberation).
pub const FONT_PATHS: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/liberation-sans/LiberationSans-Regular.ttf",
];

/// Makes the first font of [`FONT_PATHS`] plotters' `sans-serif`, once.
fn register_font() -> Result<(), String> {
    static REGISTERED: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    REGISTERED
        .get_or_init(|| {
            let bytes = FONT_PATHS
                .iter()
                .find_map(|p| std::fs::read(p).ok())
                .ok_or_else(|| format!("no TrueType font at any of {FONT_PATHS:?}"))?;
            // plotters keeps the font for the life of the process.
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            plotters::style::register_font("sans-serif", FontStyle::Normal, bytes)
                .map_err(|_| "the font could not be read".to_string())
        })
        .clone()
}

/// One series: its name, its colour, and its value in a case.
type Series = (&'static str, RGBColor, fn(&Bars) -> Option<f64>);

/// The series, in the order of their bars.
const SERIES: [Series; 3] = [
    ("ours", RGBColor(31, 119, 180), |b| b.ours),
    ("Triton", RGBColor(255, 127, 14), |b| b.triton),
    ("PyTorch", RGBColor(44, 160, 44), |b| b.torch),
];

/// Draws `plot` to the PNG `path`.
pub fn write_png(plot: &Plot, path: &Path) -> Result<(), String> {
    register_font()?;
    let err = |e: &dyn std::fmt::Display| format!("drawing {}: {e}", path.display());
    let width = 160 + 210 * plot.cases.len().max(1) as u32;
    let root = BitMapBackend::new(path, (width, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let top = plot
        .cases
        .iter()
        .flat_map(|b| SERIES.iter().filter_map(|(_, _, v)| v(b)))
        .chain(plot.copy_gbps)
        .fold(1.0f64, f64::max)
        * 1.35;
    let groups = plot.cases.len().max(1);
    let mut chart = ChartBuilder::on(&root)
        .caption(&plot.title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..groups as f64, 0.0..top)
        .map_err(|e| err(&e))?;
    let labels: Vec<String> = plot.cases.iter().map(|b| b.label.clone()).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_desc("GB/s (bytes the kernel must move / median time)")
        .x_labels(groups * 2 + 1)
        .x_label_formatter(&|x| {
            let i = x.floor() as usize;
            if (x - i as f64 - 0.5).abs() < 1e-6 {
                labels.get(i).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .x_label_style(("sans-serif", 13))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()
        .map_err(|e| err(&e))?;
    for (s, (name, color, value)) in SERIES.iter().enumerate() {
        let bars = plot.cases.iter().enumerate().filter_map(|(i, b)| {
            let v = value(b)?;
            let x0 = i as f64 + 0.1 + 0.27 * s as f64;
            Some(Rectangle::new([(x0, 0.0), (x0 + 0.25, v)], color.filled()))
        });
        chart
            .draw_series(bars)
            .map_err(|e| err(&e))?
            .label(*name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled()));
    }
    if let Some(copy) = plot.copy_gbps {
        chart
            .draw_series(LineSeries::new(
                [(0.0, copy), (groups as f64, copy)],
                BLACK.stroke_width(2),
            ))
            .map_err(|e| err(&e))?
            .label(format!("device copy {copy:.0} GB/s"))
            .legend(|(x, y)| PathElement::new([(x, y), (x + 12, y)], BLACK.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

/// Writes `plot` as JSON to `json` and as a PNG beside it (same name,
/// `.png`). The PNG is skipped, with the reason returned, when it cannot
/// be drawn here (no font); the JSON is always written.
pub fn write(plot: &Plot, json: &Path) -> Result<Option<String>, String> {
    let text = serde_json::to_string_pretty(plot).map_err(|e| e.to_string())?;
    std::fs::write(json, text).map_err(|e| format!("writing {}: {e}", json.display()))?;
    Ok(write_png(plot, &json.with_extension("png")).err())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Plot {
        Plot {
            title: "NVIDIA H200 2026-11-25".into(),
            copy_gbps: Some(3900.0),
            cases: vec![
                Bars {
                    label: "vector_add 268435456".into(),
                    ours: Some(3700.0),
                    triton: Some(3650.0),
                    torch: Some(3600.0),
                },
                Bars {
                    label: "row_sum 65536x1024".into(),
                    ours: Some(3300.0),
                    triton: None,
                    torch: Some(3100.0),
                },
            ],
        }
    }

    #[test]
    fn the_numbers_round_trip_and_the_picture_is_a_png() {
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("bench.json");
        let skipped = write(&sample(), &json).unwrap();
        let back: Plot = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        assert_eq!(back, sample());
        match skipped {
            // A machine without fonts: the reason names where it looked.
            Some(reason) => assert!(reason.contains("font"), "{reason}"),
            None => {
                let png = std::fs::read(json.with_extension("png")).unwrap();
                assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
                assert!(png.len() > 10_000, "{} bytes", png.len());
            }
        }
    }
}
