//! The table of `attention-bench`: per case, ours (time, throughput,
//! configuration, difference from SDPA), Triton and SDPA, the ratios and
//! the verdict; and the script's results it is built from.

use super::{Case, Config, sdpa};
use crate::markdown::Table;
use crate::protocol::{measurement, text_or_dash};
use crate::timing::Compared;

/// What the script measured for one case.
#[derive(Clone, Debug, Default, PartialEq, serde::Deserialize)]
pub struct Baseline {
    /// `BxHxTxD`.
    #[serde(default)]
    pub size: String,
    /// `causal` or `full`.
    #[serde(default)]
    pub mask: String,
    /// Triton's median, ms.
    #[serde(default, deserialize_with = "measurement")]
    pub triton_ms: Option<f64>,
    /// SDPA's median, ms.
    #[serde(default, deserialize_with = "measurement")]
    pub sdpa_ms: Option<f64>,
    /// Whether Triton's output matched SDPA's.
    #[serde(default)]
    pub ok: bool,
    /// Triton's chosen configuration (`-` when none).
    #[serde(default, deserialize_with = "text_or_dash")]
    pub config: String,
    /// The largest difference between ours and SDPA (in f32) on ours'
    /// inputs ([`sdpa`]).
    #[serde(default, deserialize_with = "measurement")]
    pub ours_err: Option<f64>,
}

/// The baseline of `case` among `results`.
pub fn find(results: &[Baseline], case: &Case) -> Option<Baseline> {
    results
        .iter()
        .find(|b| b.size == case.size() && b.mask == case.mask())
        .cloned()
}

/// One row: the case, ours (the fastest time and its configuration, or
/// why none) and the script's baseline.
pub type Row = Compared<Case, Config, Baseline>;

impl Row {
    /// `PASS` when ours is at least Triton's throughput and within
    /// [`sdpa::TOLERANCE`] of SDPA; `FAIL` otherwise; `-` without both
    /// times.
    pub fn verdict(&self) -> &'static str {
        let base = self.baseline.clone().unwrap_or_default();
        let matches_sdpa = base.ours_err.is_some_and(|e| e <= sdpa::TOLERANCE);
        match (self.ours_ms(), base.triton_ms) {
            (Some(o), Some(t)) if o <= t && matches_sdpa => "PASS",
            (Some(_), Some(_)) => "FAIL",
            _ => "-",
        }
    }
}

/// The rows as a Markdown table.
pub fn markdown(rows: &[Row]) -> String {
    let mut table = Table::new(&[
        "dtype",
        "BxHxTxD",
        "mask",
        "ours ms",
        "ours TFLOP/s",
        "ours config",
        "ours vs SDPA (max abs)",
        "Triton ms",
        "Triton TFLOP/s",
        "Triton config",
        "SDPA ms",
        "SDPA TFLOP/s",
        "ours/Triton",
        "ours/SDPA",
        "target",
        "verdict",
    ]);
    for row in rows {
        let c = &row.case;
        let base = row.baseline.clone().unwrap_or_default();
        let fmt = |ms: Option<f64>| match ms {
            Some(ms) => (format!("{ms:.4}"), format!("{:.0}", c.flops() / ms / 1e9)),
            None => ("-".into(), "-".into()),
        };
        let ours_ms = row.ours_ms();
        let ours_cfg = match &row.ours {
            Ok((_, cfg)) => cfg.name(),
            Err(e) => format!("FAILED: {e}"),
        };
        let ratio = |other: Option<f64>| match (ours_ms, other) {
            (Some(o), Some(b)) => format!("{:.3}", b / o),
            _ => "-".into(),
        };
        let (o_ms, o_tf) = fmt(ours_ms);
        let (t_ms, t_tf) = fmt(base.triton_ms);
        let (s_ms, s_tf) = fmt(base.sdpa_ms);
        let triton_config = if base.ok {
            base.config.clone()
        } else {
            format!("{} (check failed)", base.config)
        };
        table.push([
            "f16".to_string(),
            c.size(),
            c.mask().to_string(),
            o_ms,
            o_tf,
            ours_cfg,
            base.ours_err.map_or("-".into(), |e| format!("{e:.1e}")),
            t_ms,
            t_tf,
            triton_config,
            s_ms,
            s_tf,
            ratio(base.triton_ms),
            ratio(base.sdpa_ms),
            format!(">= 1.00, err <= {:.1e}", sdpa::TOLERANCE),
            row.verdict().to_string(),
        ]);
    }
    table.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::ScriptRun;

    #[test]
    fn results_rows_and_verdicts() {
        let mut run = ScriptRun::<Baseline>::default();
        run.read(r#"{"protocol": 1, "kind": "result", "dtype": "f16", "size": "4x32x4096x64", "mask": "causal", "triton_ms": 1.5, "sdpa_ms": 1.2, "max_err": 0.001, "ok": true, "config": "128x64/w4/s3", "ours_err": 0.00025}"#)
            .unwrap();
        run.read(r#"{"protocol": 1, "kind": "result", "dtype": "f16", "size": "4x32x4096x64", "mask": "full", "triton_ms": null, "sdpa_ms": null, "max_err": null, "ok": false, "config": null, "ours_err": null}"#)
            .unwrap();
        let all = super::super::cases(false);
        let causal = all.iter().find(|c| c.d == 64 && c.causal).unwrap();
        let full = all.iter().find(|c| c.d == 64 && !c.causal).unwrap();
        let b = find(&run.results, causal).unwrap();
        assert_eq!((b.triton_ms, b.sdpa_ms, b.ok), (Some(1.5), Some(1.2), true));
        assert_eq!(
            (b.config.as_str(), b.ours_err),
            ("128x64/w4/s3", Some(2.5e-4))
        );
        let config = super::super::configs()[1];
        let row = |ms: f64, baseline: Option<Baseline>| Row {
            case: *causal,
            ours: Ok((ms, config)),
            baseline,
        };
        assert_eq!(row(1.4, Some(b.clone())).verdict(), "PASS");
        assert_eq!(row(1.6, Some(b.clone())).verdict(), "FAIL");
        let far = Baseline {
            ours_err: Some(0.1),
            ..b.clone()
        };
        assert_eq!(row(1.4, Some(far)).verdict(), "FAIL");
        assert_eq!(row(1.4, None).verdict(), "-");
        let failed = Row {
            case: *full,
            ours: Err("no configuration ran and checked".into()),
            baseline: find(&run.results, full),
        };
        let table = markdown(&[row(1.4, Some(b)), failed]);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4);
        assert!(
            lines[2].starts_with("| f16 | 4x32x4096x64 | causal | 1.4000 | "),
            "{table}"
        );
        assert!(
            lines[2].contains("| 128x64/w4/s3 | 2.5e-4 | 1.5000 |"),
            "{table}"
        );
        assert!(
            lines[2].ends_with("| 1.071 | 0.857 | >= 1.00, err <= 2.0e-3 | PASS |"),
            "{table}"
        );
        assert!(
            lines[3].contains("| - | - | FAILED: no configuration ran and checked | - | - | - | - (check failed) |"),
            "{table}"
        );
    }
}
