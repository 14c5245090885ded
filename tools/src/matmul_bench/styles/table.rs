//! The table of `matmul-bench --styles`: one row per style, type and
//! size, with the throughputs, the ratios and the verdict.

use super::{StyleCase, StyleRun};
use crate::markdown::Table;
use crate::matmul_bench::Baseline;
use crate::timing::Compared;

/// One row of the table: the case, our best median (ms) and
/// configuration, Triton's and cuBLAS's.
pub type StyleRow = Compared<StyleCase, StyleRun, Baseline>;

impl StyleRow {
    /// Ours over Triton, in throughput (Triton's time over ours).
    pub fn vs_triton(&self) -> Option<f64> {
        Some(self.baseline.as_ref()?.triton_ms? / self.ours_ms()?)
    }

    /// Ours over cuBLAS, in throughput.
    pub fn vs_cublas(&self) -> Option<f64> {
        Some(self.baseline.as_ref()?.torch_ms? / self.ours_ms()?)
    }

    /// `PASS` when every target that applies is met, `FAIL` otherwise or
    /// when ours failed, `-` without a Triton time.
    pub fn verdict(&self) -> &'static str {
        if self.ours.is_err() {
            return "FAIL (ours failed)";
        }
        let Some(t) = self.vs_triton() else {
            return "-";
        };
        let cublas_ok = match (self.case.cublas_target(), self.vs_cublas()) {
            (Some(target), Some(r)) => r >= target,
            _ => true,
        };
        if t >= self.case.triton_target() && cublas_ok {
            "PASS"
        } else {
            "FAIL"
        }
    }
}

/// The rows as a Markdown table.
pub fn markdown(rows: &[StyleRow]) -> String {
    let mut table = Table::new(&[
        "style",
        "dtype",
        "MxNxK",
        "ours TFLOP/s",
        "ours config",
        "Triton TFLOP/s",
        "Triton config",
        "cuBLAS TFLOP/s",
        "ours/Triton",
        "ours/cuBLAS",
        "targets",
        "verdict",
    ]);
    for r in rows {
        let c = &r.case;
        let tf = |ms: Option<f64>| {
            ms.map_or("-".to_string(), |x| {
                format!("{:.0}", c.flops() / (x * 1e-3) / 1e12)
            })
        };
        let (ours_tf, config) = match &r.ours {
            Ok((ms, run)) => (tf(Some(*ms)), run.name()),
            Err(_) => ("-".into(), "-".into()),
        };
        let b = r.baseline.clone().unwrap_or_default();
        let ratio = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.3}"));
        let targets = match c.cublas_target() {
            Some(t) => format!(">= {:.2} / >= {t:.2}", c.triton_target()),
            None => format!(">= {:.2}", c.triton_target()),
        };
        let triton_config = if b.config.is_empty() { "-" } else { &b.config };
        table.push([
            c.style.name().to_string(),
            c.dtype_name().to_string(),
            c.size(),
            ours_tf,
            config,
            tf(b.triton_ms),
            triton_config.to_string(),
            tf(b.torch_ms),
            ratio(r.vs_triton()),
            ratio(r.vs_cublas()),
            targets,
            r.verdict().to_string(),
        ]);
    }
    table.to_string()
}

#[cfg(test)]
mod tests {
    use super::super::{cases, configs_for};
    use super::*;
    use tile_dialect::DType;
    use tile_examples::matmul_styles::Style;

    #[test]
    fn verdicts_and_the_table() {
        // The pointer style in f16 at 4096^3.
        let case = cases(false)
            .into_iter()
            .find(|c| c.style == Style::Pointers && c.dtype == DType::F16 && c.m == 4096)
            .unwrap();
        let run = configs_for(&case)[0];
        let row = |ours_ms: f64, triton_ms: f64, torch_ms: f64| StyleRow {
            case,
            ours: Ok((ours_ms, run)),
            baseline: Some(Baseline {
                triton_ms: Some(triton_ms),
                torch_ms: Some(torch_ms),
                ok: true,
                ..Baseline::default()
            }),
        };
        // 0.95 of Triton's throughput and 0.90 of cuBLAS's pass; less fails.
        assert_eq!(row(0.20, 0.191, 0.181).verdict(), "PASS");
        assert_eq!(row(0.21, 0.19, 0.18).verdict(), "FAIL");
        assert_eq!(row(0.20, 0.20, 0.17).verdict(), "FAIL");
        // The block-pointer form must match Triton.
        let block = StyleRow {
            case: StyleCase {
                style: Style::BlockPointers,
                ..case
            },
            ..row(0.20, 0.195, 0.19)
        };
        assert_eq!(block.verdict(), "FAIL");
        // No cuBLAS target off the square sizes.
        let odd = StyleRow {
            case: StyleCase {
                m: 1000,
                n: 3000,
                k: 2000,
                ..case
            },
            ..row(0.10, 0.10, 0.02)
        };
        assert_eq!(odd.verdict(), "PASS");
        let table = markdown(&[row(0.20, 0.191, 0.181)]);
        let lines: Vec<&str> = table.lines().collect();
        assert!(lines[0].starts_with("| style | dtype | MxNxK |"), "{table}");
        assert_eq!(
            lines[1],
            "|---|---|---|---|---|---|---|---|---|---|---|---|"
        );
        assert_eq!(
            lines[2],
            "| pointers | f16 | 4096x4096x4096 | 687 | 128x256x64/w8/s3 | 720 | - | 759 | 0.955 | 0.905 | >= 0.95 / >= 0.90 | PASS |"
        );
    }
}
