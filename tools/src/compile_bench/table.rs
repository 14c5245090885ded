//! The compile benchmark's numbers: the median and maximum of a
//! measurement ([`Summary`]), its row and verdict ([`Row`]), the result
//! table and the per-stage tables.

use super::measure::Samples;
use crate::markdown::Table;
use crate::timing::median;

/// The median and the maximum of some times, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// The median (the mean of the middle two for an even count).
    pub median: f64,
    /// The largest.
    pub max: f64,
}

impl Summary {
    /// The summary of `values` (milliseconds; not empty).
    pub fn of(values: &[f64]) -> Summary {
        Summary {
            median: median(values).unwrap_or(f64::NAN),
            max: values
                .iter()
                .copied()
                .max_by(f64::total_cmp)
                .unwrap_or(f64::NAN),
        }
    }
}

/// One measurement of one kernel.
#[derive(Clone, Debug)]
pub struct Row {
    /// The kernel.
    pub kernel: &'static str,
    /// What was measured.
    pub what: &'static str,
    /// The times (ms), or why the kernel could not be measured.
    pub summary: Result<Summary, String>,
    /// The kernel's target (ms).
    pub target_ms: f64,
    /// Whether the verdict applies (context creation alone, or the child
    /// process's whole life, are shown for information).
    pub judged: bool,
}

impl Row {
    /// `PASS` when the median is within the target, else `FAIL` (also when
    /// the kernel could not be measured); `-` for rows shown for
    /// information.
    pub fn verdict(&self) -> &'static str {
        match (self.judged, &self.summary) {
            (false, _) => "-",
            (true, Ok(s)) if s.median <= self.target_ms => "PASS",
            (true, _) => "FAIL",
        }
    }
}

/// The per-stage medians of one kernel, fresh and reused contexts side by
/// side, as Markdown.
pub(super) fn stage_table(kernel: &str, fresh: &Samples, reused: &Samples) -> String {
    let mut table = Table::with_rule(
        &["stage", "fresh context", "reused context"],
        &["---", "---:", "---:"],
    );
    for (stage, values) in &reused.stages {
        let fresh_median = fresh
            .stages
            .iter()
            .find(|(s, _)| s == stage)
            .map(|(_, v)| format!("{:.2}", Summary::of(v).median))
            .unwrap_or_default();
        table.push([
            stage.to_string(),
            fresh_median,
            format!("{:.2}", Summary::of(values).median),
        ]);
    }
    table.push([
        "**compile**".to_string(),
        format!("**{:.2}**", Summary::of(&fresh.totals).median),
        format!("**{:.2}**", Summary::of(&reused.totals).median),
    ]);
    format!("\n{kernel}: per-stage medians (ms)\n\n{table}")
}

/// The result table, as Markdown. A kernel that could not be measured
/// shows the first line of its error that says `error:` (else its first
/// line), up to 200 characters.
pub fn table(rows: &[Row]) -> String {
    let mut table = Table::with_rule(
        &[
            "kernel",
            "measurement",
            "median ms",
            "max ms",
            "target ms",
            "verdict (median <= target)",
        ],
        &["---", "---", "---:", "---:", "---:", "---"],
    );
    for r in rows {
        let (what, median, max) = match &r.summary {
            Ok(s) => (
                r.what.trim_start().to_string(),
                format!("{:.2}", s.median),
                format!("{:.2}", s.max),
            ),
            Err(e) => {
                let line = e.lines().find(|l| l.contains("error:"));
                let line = line.or(e.lines().next()).unwrap_or_default();
                let line: String = line.chars().take(200).collect();
                let what = format!("{}: {}", r.what, line.replace('|', "/"));
                (what, "-".into(), "-".into())
            }
        };
        let target = if r.judged {
            r.target_ms.to_string()
        } else {
            "-".into()
        };
        table.push([
            r.kernel.to_string(),
            what,
            median,
            max,
            target,
            r.verdict().to_string(),
        ]);
    }
    table.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_use_each_kernels_target_and_failures_show_their_error() {
        let row = |median, target_ms, judged| Row {
            kernel: "k",
            what: "cold compile",
            summary: Ok(Summary {
                median,
                max: median,
            }),
            target_ms,
            judged,
        };
        assert_eq!(row(30.0, 40.0, true).verdict(), "PASS");
        assert_eq!(row(30.0, 25.0, true).verdict(), "FAIL");
        assert_eq!(row(30.0, 25.0, false).verdict(), "-");
        let failed = Row {
            summary: Err("stage 'nvvm' failed: a | b\nx.rs:1:2: error: no | way\nnote".into()),
            ..row(0.0, 40.0, true)
        };
        assert_eq!(failed.verdict(), "FAIL");
        let t = table(&[row(30.0, 40.0, true), row(2.0, 40.0, false), failed]);
        assert!(
            t.contains("| k | cold compile | 30.00 | 30.00 | 40 | PASS |"),
            "{t}"
        );
        assert!(
            t.contains("| k | cold compile | 2.00 | 2.00 | - | - |"),
            "{t}"
        );
        assert!(
            t.contains("| k | cold compile: x.rs:1:2: error: no / way | - | - | 40 | FAIL |"),
            "{t}"
        );
    }

    #[test]
    fn summaries() {
        let s = Summary::of(&[3.0, 1.0, 2.0, 10.0]);
        assert_eq!((s.median, s.max), (2.5, 10.0));
        assert_eq!(Summary::of(&[4.0]).median, 4.0);
    }
}
