//! The matmul benchmark's table: one row per type and size.

use super::{Baseline, Case, Config};
use crate::markdown::Table;
use crate::timing::Compared;

/// One row: the case, our best time and configuration (or why there is
/// none), and the script's baselines.
pub type Row = Compared<Case, Config, Baseline>;

impl Row {
    /// ours / Triton, when both were measured.
    pub fn ratio(&self) -> Option<f64> {
        Some(self.ours_ms()? / self.baseline.as_ref()?.triton_ms?)
    }

    /// `PASS` at or under the case's target, `FAIL` over it or when ours
    /// failed, `-` without a Triton time.
    pub fn verdict(&self) -> &'static str {
        match (&self.ours, self.ratio()) {
            (Err(_), _) => "FAIL (ours failed)",
            (Ok(_), Some(r)) if r <= self.case.target() => "PASS",
            (Ok(_), Some(_)) => "FAIL",
            (Ok(_), None) => "-",
        }
    }
}

fn tflops(case: &Case, ms: f64) -> String {
    format!("{:.0}", case.flops() / (ms * 1e-3) / 1e12)
}

/// The rows as a Markdown table.
pub fn markdown(rows: &[Row]) -> String {
    let mut table = Table::new(&[
        "dtype",
        "MxNxK",
        "ours ms",
        "ours TFLOP/s",
        "ours config",
        "Triton ms",
        "Triton TFLOP/s",
        "Triton config",
        "cuBLAS ms",
        "cuBLAS TFLOP/s",
        "ours/Triton",
        "target",
        "verdict",
    ]);
    for r in rows {
        let c = &r.case;
        let (ours_ms, ours_tf, config) = match &r.ours {
            Ok((ms, config)) => (format!("{ms:.4}"), tflops(c, *ms), config.name()),
            Err(_) => ("-".into(), "-".into(), "-".into()),
        };
        let b = r.baseline.clone().unwrap_or_default();
        let ms = |v: Option<f64>| v.map_or("-".to_string(), |x| format!("{x:.4}"));
        let tf = |v: Option<f64>| v.map_or("-".to_string(), |x| tflops(c, x));
        let triton_config = if b.config.is_empty() { "-" } else { &b.config };
        let ratio = r.ratio().map_or("-".to_string(), |x| format!("{x:.3}"));
        table.push([
            c.dtype_name().to_string(),
            c.size(),
            ours_ms,
            ours_tf,
            config,
            ms(b.triton_ms),
            tf(b.triton_ms),
            triton_config.to_string(),
            ms(b.torch_ms),
            tf(b.torch_ms),
            ratio,
            format!("{:.2}", c.target()),
            r.verdict().to_string(),
        ]);
    }
    table.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tile_dialect::DType;

    #[test]
    fn rows_judge_against_the_target() {
        let case = Case {
            dtype: DType::F16,
            m: 4096,
            n: 4096,
            k: 4096,
        };
        let config = super::super::configs()[0];
        let baseline = Baseline {
            triton_ms: Some(0.22),
            torch_ms: Some(0.2),
            ok: true,
            config: "128x256x64/w8/s3".into(),
            ..Baseline::default()
        };
        let row = |ms| Row::new(case, Ok((ms, config)), Some(baseline.clone()));
        assert_eq!(row(0.22).verdict(), "PASS");
        assert_eq!(row(0.23).verdict(), "FAIL");
        assert_eq!(
            Row::new(case, Err("x".into()), None).verdict(),
            "FAIL (ours failed)"
        );
        let table = markdown(&[row(0.2)]);
        // 2 * 4096^3 flops in 0.2 ms: 687 TFLOP/s.
        assert!(
            table.contains("| f16 | 4096x4096x4096 | 0.2000 | 687 |"),
            "{table}"
        );
        assert!(table.contains("| 0.909 | 1.00 | PASS |"), "{table}");
    }
}
