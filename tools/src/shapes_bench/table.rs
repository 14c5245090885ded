//! The tables of `shapes-bench`: one row per case and configuration
//! (times, ratios, bandwidths, target and verdict; [`markdown`]), and per
//! case the fastest configuration of each side ([`fastest`]).

use super::baselines::Baseline;
use super::cases::{Case, Config};
use crate::bench::table::gbps;
use crate::markdown::Table;
use tile_examples::tile_shapes::ShapeKernel;

/// One row: a case in one configuration, ours, the copy and Triton.
#[derive(Clone, Debug)]
pub struct Row {
    /// The case.
    pub case: Case,
    /// The configuration both sides ran.
    pub config: Config,
    /// Our median, ms, or why there is none.
    pub ours: Result<f64, String>,
    /// A device-to-device copy of the case's `[M, N]` tensor, ms.
    pub copy_ms: Option<f64>,
    /// The script's measurement, if it gave one.
    pub baseline: Option<Baseline>,
}

impl Row {
    fn ours_ms(&self) -> Option<f64> {
        self.ours.as_ref().ok().copied()
    }

    fn triton_ms(&self) -> Option<f64> {
        self.baseline.as_ref()?.triton_ms
    }

    /// Ours over Triton, in time.
    pub fn vs_triton(&self) -> Option<f64> {
        Some(self.ours_ms()? / self.triton_ms()?)
    }

    /// Ours over a copy of the same bytes, in time (transposes only).
    pub fn vs_copy(&self) -> Option<f64> {
        self.case.target().vs_copy?;
        Some(self.ours_ms()? / self.copy_ms?)
    }

    /// `PASS` when ours is within the target of Triton's time (and, for a
    /// transpose, of the copy's), `FAIL` otherwise or when ours failed,
    /// `-` without a Triton time (or a copy time, for a transpose); notes
    /// a Triton output that did not match PyTorch's.
    pub fn verdict(&self) -> String {
        let target = self.case.target();
        let verdict = match (&self.ours, self.vs_triton()) {
            (Err(_), _) => "FAIL (ours failed)",
            (Ok(_), None) => "-",
            (Ok(_), Some(t)) => match (target.vs_copy, self.vs_copy()) {
                (Some(_), None) => "-",
                (Some(c), Some(r)) if r > c => "FAIL",
                _ if t <= target.vs_triton => "PASS",
                _ => "FAIL",
            },
        };
        match &self.baseline {
            Some(b) if b.triton_ms.is_some() && !b.ok => format!("{verdict} (Triton wrong)"),
            _ => verdict.to_string(),
        }
    }
}

/// `x` with `digits` decimals, or `-`.
fn cell(x: Option<f64>, digits: usize) -> String {
    x.map_or_else(|| "-".to_string(), |x| format!("{x:.digits$}"))
}

/// The main table, one row per case and configuration.
pub fn markdown(rows: &[Row]) -> String {
    let mut table = Table::new(&[
        "kernel",
        "dtype",
        "MxN",
        "tile/warps/stages",
        "ours ms",
        "Triton ms",
        "ours/Triton",
        "ours GB/s",
        "copy GB/s",
        "ours/copy",
        "target",
        "verdict",
    ]);
    for r in rows {
        let c = &r.case;
        let target = if c.kernel == ShapeKernel::GeluFast {
            format!("{} (tanh.approx rel. err. <= 2^-10.987)", c.target().text())
        } else {
            c.target().text()
        };
        table.push([
            c.kernel.name().to_string(),
            c.dtype_name().to_string(),
            c.size(),
            r.config.name(),
            cell(r.ours_ms(), 4),
            cell(r.triton_ms(), 4),
            cell(r.vs_triton(), 3),
            cell(r.ours_ms().map(|ms| gbps(c.bytes(), ms)), 0),
            cell(r.copy_ms.map(|ms| gbps(2 * c.tensor_bytes(), ms)), 0),
            cell(r.vs_copy(), 3),
            target,
            r.verdict(),
        ]);
    }
    table.to_string()
}

/// One case's fastest configuration on each side (what an autotuner on
/// each side would pick among the same configurations; Triton's among
/// those whose output matched PyTorch's).
#[derive(Clone, Debug, PartialEq)]
pub struct Fastest {
    /// The case.
    pub case: Case,
    /// Our fastest median (ms) and its configuration.
    pub ours: Option<(f64, String)>,
    /// Triton's fastest median (ms) and its configuration.
    pub triton: Option<(f64, String)>,
}

impl Fastest {
    /// Ours' best over Triton's best, in time.
    pub fn ratio(&self) -> Option<f64> {
        Some(self.ours.as_ref()?.0 / self.triton.as_ref()?.0)
    }

    /// `fastest CASE: ours CONFIG T ms, Triton CONFIG T ms, best/best R`.
    pub fn line(&self) -> String {
        let side = |b: &Option<(f64, String)>| {
            b.as_ref()
                .map_or("-".to_string(), |(ms, c)| format!("{c} {ms:.4} ms"))
        };
        format!(
            "fastest {}: ours {}, Triton {}, best/best {}",
            self.case.label(),
            side(&self.ours),
            side(&self.triton),
            cell(self.ratio(), 3)
        )
    }
}

/// Each case's fastest configurations, in the order of `rows`.
pub fn fastest(rows: &[Row]) -> Vec<Fastest> {
    let mut cases: Vec<Case> = Vec::new();
    for r in rows {
        if !cases.contains(&r.case) {
            cases.push(r.case);
        }
    }
    cases
        .into_iter()
        .map(|case| {
            let best = |ms: &dyn Fn(&Row) -> Option<f64>| {
                rows.iter()
                    .filter(|r| r.case == case)
                    .filter_map(|r| Some((ms(r)?, r.config.name())))
                    .min_by(|a, b| a.0.total_cmp(&b.0))
            };
            Fastest {
                case,
                ours: best(&|r| r.ours_ms()),
                triton: best(&|r| {
                    r.triton_ms()
                        .filter(|_| r.baseline.as_ref().is_some_and(|b| b.ok))
                }),
            }
        })
        .collect()
}

/// The table of [`fastest`]: per case, each side's fastest configuration
/// and time, and ours' best over Triton's best.
pub fn fastest_markdown(fastest: &[Fastest]) -> String {
    let mut table = Table::new(&[
        "kernel",
        "dtype",
        "MxN",
        "ours best",
        "ours ms",
        "Triton best",
        "Triton ms",
        "best/best",
    ]);
    let name = |b: &Option<(f64, String)>| b.as_ref().map_or("-".to_string(), |b| b.1.clone());
    let ms = |b: &Option<(f64, String)>| cell(b.as_ref().map(|b| b.0), 4);
    for f in fastest {
        let c = &f.case;
        table.push([
            c.kernel.name().to_string(),
            c.dtype_name().to_string(),
            c.size(),
            name(&f.ours),
            ms(&f.ours),
            name(&f.triton),
            ms(&f.triton),
            cell(f.ratio(), 3),
        ]);
    }
    table.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes_bench::cases::{cases, configs_for};

    fn row(kernel: ShapeKernel, ours: Result<f64, String>, triton: Option<f64>, copy: f64) -> Row {
        let case = cases(false)
            .into_iter()
            .find(|c| c.kernel == kernel)
            .unwrap();
        Row {
            case,
            config: configs_for(&case)[1],
            ours,
            copy_ms: Some(copy),
            baseline: Some(Baseline {
                triton_ms: triton,
                ok: true,
                ..Baseline::default()
            }),
        }
    }

    #[test]
    fn verdicts_follow_the_targets() {
        use ShapeKernel::*;
        assert_eq!(row(Softmax, Ok(1.05), Some(1.0), 0.5).verdict(), "PASS");
        assert_eq!(row(Softmax, Ok(1.06), Some(1.0), 0.5).verdict(), "FAIL");
        assert_eq!(
            row(Softmax, Err("bad".into()), Some(1.0), 0.5).verdict(),
            "FAIL (ours failed)"
        );
        assert_eq!(row(Softmax, Ok(1.0), None, 0.5).verdict(), "-");
        // Transposes: within 1.05 of Triton and 1.10 of the copy.
        assert_eq!(row(Transpose, Ok(1.1), Some(1.1), 1.0).verdict(), "PASS");
        assert_eq!(row(Transpose, Ok(1.11), Some(1.2), 1.0).verdict(), "FAIL");
        assert_eq!(row(Softmax, Ok(1.11), Some(1.2), 0.5).vs_copy(), None);
        // The fast GELU must match Triton's fast one.
        assert_eq!(row(GeluFast, Ok(1.0), Some(1.0), 0.5).verdict(), "PASS");
        assert_eq!(row(GeluFast, Ok(1.01), Some(1.0), 0.5).verdict(), "FAIL");
        let mut wrong = row(Gelu, Ok(1.0), Some(1.0), 0.5);
        wrong.baseline.as_mut().unwrap().ok = false;
        assert_eq!(wrong.verdict(), "PASS (Triton wrong)");
    }

    #[test]
    fn the_tables() {
        let rows = [
            row(ShapeKernel::Transpose, Ok(0.5), Some(0.5), 0.5),
            row(ShapeKernel::GeluFast, Ok(0.25), Some(0.2), 0.5),
        ];
        let table = markdown(&rows);
        let lines: Vec<&str> = table.lines().collect();
        assert!(
            lines[0].starts_with("| kernel | dtype | MxN | tile/warps/stages | ours ms |"),
            "{table}"
        );
        // 2 x 8192^2 x 4 bytes in 0.5 ms: 1074 GB/s.
        assert_eq!(
            lines[2],
            "| transpose | f32 | 8192x8192 | 64x64/w4/s3 | 0.5000 | 0.5000 | 1.000 | 1074 | 1074 | 1.000 | <= 1.05, copy <= 1.10 | PASS |"
        );
        assert!(
            lines[3].contains("| <= 1.00 (tanh.approx rel. err. <= 2^-10.987) | FAIL |"),
            "{}",
            lines[3]
        );
        let best = fastest(&rows);
        assert_eq!(
            best[1].line(),
            "fastest gelu_fast f16 8192x4096: ours 64x64/w4/s3 0.2500 ms, Triton 64x64/w4/s3 0.2000 ms, best/best 1.250"
        );
        let table = fastest_markdown(&best);
        assert!(
            table.contains("| transpose | f32 | 8192x8192 | 64x64/w4/s3 | 0.5000 | 64x64/w4/s3 | 0.5000 | 1.000 |"),
            "{table}"
        );
    }
}
