//! The result table: one row per case, ours against Triton and PyTorch,
//! with bandwidths and the verdict against the target ratio.

use super::cases::Case;
use super::triton::Baseline;
use crate::markdown::Table;

/// One row of the table.
#[derive(Clone, Debug)]
pub struct Row {
    /// The kernel's name.
    pub kernel: &'static str,
    /// The size (`65536x1024`).
    pub size: String,
    /// The bytes the kernel must move.
    pub bytes: u64,
    /// The largest `ours / Triton` ratio that passes.
    pub target: f64,
    /// Our median time in ms, or why there is none (a failed check).
    pub ours: Result<f64, String>,
    /// The script's numbers for the case, if it gave any.
    pub baseline: Option<Baseline>,
}

impl Row {
    /// A row for `case`, with our outcome and the script's baseline.
    pub fn new(case: &Case, ours: Result<f64, String>, baseline: Option<Baseline>) -> Row {
        Row {
            kernel: case.kind.name(),
            size: case.size(),
            bytes: case.bytes(),
            target: case.kind.target(),
            ours,
            baseline,
        }
    }

    fn triton_ms(&self) -> Option<f64> {
        self.baseline.as_ref().and_then(|b| b.triton_ms)
    }

    /// `ours / Triton`, when both were measured.
    pub fn ratio(&self) -> Option<f64> {
        Some(self.ours.as_ref().ok()? / self.triton_ms()?)
    }

    /// `PASS` when our output was right and the ratio is within the
    /// target; `FAIL` when our output was wrong or the ratio is over it;
    /// `-` when there is no Triton time to compare with. Notes a Triton
    /// output that did not match PyTorch.
    pub fn verdict(&self) -> String {
        let verdict = match (&self.ours, self.ratio()) {
            (Err(_), _) => "FAIL (ours failed)",
            (Ok(_), None) => "-",
            (Ok(_), Some(r)) if r <= self.target => "PASS",
            (Ok(_), Some(_)) => "FAIL",
        };
        match &self.baseline {
            Some(b) if b.triton_ms.is_some() && !b.ok => format!("{verdict} (Triton wrong)"),
            _ => verdict.to_string(),
        }
    }
}

/// The picture of `rows`: each case's bandwidth, ours, Triton's and
/// PyTorch's, under the copy bandwidth.
pub fn picture(title: &str, rows: &[Row], copy_gbps: Option<f64>) -> super::plot::Plot {
    super::plot::Plot {
        title: title.to_string(),
        copy_gbps,
        cases: rows
            .iter()
            .map(|row| super::plot::Bars {
                label: format!("{} {}", row.kernel, row.size),
                ours: row.ours.as_ref().ok().map(|&ms| gbps(row.bytes, ms)),
                triton: row.triton_ms().map(|ms| gbps(row.bytes, ms)),
                torch: row
                    .baseline
                    .as_ref()
                    .and_then(|b| b.torch_ms)
                    .map(|ms| gbps(row.bytes, ms)),
            })
            .collect(),
    }
}

/// GB/s (10^9 bytes per second) of `bytes` moved in `ms`.
pub fn gbps(bytes: u64, ms: f64) -> f64 {
    bytes as f64 / (ms * 1e6)
}

/// `x` with `digits` decimals, or `-`.
fn cell(x: Option<f64>, digits: usize) -> String {
    x.map_or_else(|| "-".to_string(), |x| format!("{x:.digits$}"))
}

/// The markdown table of `rows`; `copy_gbps` is the measured copy
/// bandwidth the last numeric column is a percentage of.
pub fn markdown(rows: &[Row], copy_gbps: Option<f64>) -> String {
    let mut table = Table::new(&[
        "kernel",
        "size",
        "ours ms",
        "Triton ms",
        "PyTorch ms",
        "ours/Triton",
        "target",
        "ours GB/s",
        "Triton GB/s",
        "% of copy (ours)",
        "verdict",
    ]);
    for row in rows {
        let ours = row.ours.as_ref().ok().copied();
        let ours_gbps = ours.map(|ms| gbps(row.bytes, ms));
        let torch = row.baseline.as_ref().and_then(|b| b.torch_ms);
        let of_copy = ours_gbps.zip(copy_gbps).map(|(o, c)| 100.0 * o / c);
        table.push([
            row.kernel.to_string(),
            row.size.clone(),
            cell(ours, 4),
            cell(row.triton_ms(), 4),
            cell(torch, 4),
            cell(row.ratio(), 3),
            format!("{:.2}", row.target),
            cell(ours_gbps, 0),
            cell(row.triton_ms().map(|ms| gbps(row.bytes, ms)), 0),
            cell(of_copy, 1),
            row.verdict(),
        ]);
    }
    table.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::cases::cases;

    fn baseline(triton_ms: Option<f64>, ok: bool) -> Baseline {
        Baseline {
            kernel: "row_sum".into(),
            size: "65536x1024".into(),
            triton_ms,
            torch_ms: Some(0.103),
            max_err: Some(0.0),
            ok,
        }
    }

    #[test]
    fn verdicts_follow_the_target() {
        let case = &cases(false)[1]; // row sum, target 1.02
        let row = |ours, triton, ok| Row::new(case, ours, Some(baseline(triton, ok)));
        assert_eq!(row(Ok(0.0999), Some(0.098), true).verdict(), "PASS");
        assert_eq!(row(Ok(0.1), Some(0.098), true).verdict(), "FAIL");
        assert_eq!(row(Ok(0.100), None, true).verdict(), "-");
        assert_eq!(
            row(Err("wrong".into()), Some(0.098), true).verdict(),
            "FAIL (ours failed)"
        );
        assert_eq!(
            row(Ok(0.09), Some(0.098), false).verdict(),
            "PASS (Triton wrong)"
        );
        assert_eq!(Row::new(case, Ok(0.1), None).verdict(), "-");
    }

    #[test]
    fn the_table_has_one_line_per_row_with_bandwidths() {
        let all = cases(false);
        let rows = [
            // 3 GiB in 1.06 ms: 3039 GB/s, 101.3% of 3000 GB/s.
            Row::new(&all[0], Ok(1.06), None),
            Row::new(&all[1], Ok(0.1), Some(baseline(Some(0.098), true))),
            Row::new(&all[4], Err("bad".into()), None),
        ];
        let table = markdown(&rows, Some(3000.0));
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 2 + rows.len());
        assert_eq!(
            lines[2],
            "| vector_add | 268435456 | 1.0600 | - | - | - | 1.02 | 3039 | - | 101.3 | - |"
        );
        assert!(lines[3].contains("| 1.020 | 1.02 |"), "{}", lines[3]);
        assert!(lines[3].ends_with("| FAIL |"), "{}", lines[3]);
        assert!(
            lines[4].starts_with("| softmax | 4096x4096 | - |"),
            "{}",
            lines[4]
        );
        assert_eq!(gbps(2_000_000, 1.0), 2.0);
    }
}
