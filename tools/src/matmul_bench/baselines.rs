//! The Triton and cuBLAS side of `matmul-bench`: the command line of
//! `bench/triton_matmul.py` and its results, one protocol line a case
//! ([`crate::protocol`]):
//!
//! ```text
//! {"protocol": 1, "kind": "result", "dtype": "bf16", "size": "4096x4096x4096", "triton_ms": 0.21, "torch_ms": 0.19, "max_err": 0.001, "ok": true, "config": "128x256x64/w8/s3"}
//! ```
//!
//! `bench/triton_matmul_styles.py` (`--styles`) reports the same fields
//! and the style ([`super::styles::StyleBaseline`]).

use super::Case;
use crate::protocol::{measurement, text_or_dash};

/// What the script measured for one case.
#[derive(Clone, Debug, Default, PartialEq, serde::Deserialize)]
pub struct Baseline {
    /// The input type (`f16`, `bf16`; `tf32`, `i8` with `--styles`).
    #[serde(default)]
    pub dtype: String,
    /// `MxNxK`.
    #[serde(default)]
    pub size: String,
    /// Triton's median, ms.
    #[serde(default, deserialize_with = "measurement")]
    pub triton_ms: Option<f64>,
    /// cuBLAS's median, ms.
    #[serde(default, deserialize_with = "measurement")]
    pub torch_ms: Option<f64>,
    /// Whether Triton's output matched torch's.
    #[serde(default)]
    pub ok: bool,
    /// The configuration Triton's autotuner chose (`-` when none).
    #[serde(default, deserialize_with = "text_or_dash")]
    pub config: String,
}

/// The script's cases: `--case DTYPE MxNxK ...`.
pub fn case_args(cases: &[Case]) -> Vec<String> {
    cases
        .iter()
        .flat_map(|c| ["--case".into(), c.dtype_name().into(), c.size()])
        .collect()
}

/// The baseline of `case` among `results`.
pub fn find(results: &[Baseline], case: &Case) -> Option<Baseline> {
    results
        .iter()
        .find(|b| b.dtype == case.dtype_name() && b.size == case.size())
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::ScriptRun;
    use crate::protocol::script::timing_args;
    use crate::timing::Timing;
    use tile_dialect::DType;

    #[test]
    fn results_are_read_and_found() {
        let mut run = ScriptRun::<Baseline>::default();
        for line in [
            r#"{"protocol": 1, "kind": "result", "dtype": "bf16", "size": "4096x4096x4096", "triton_ms": 0.21, "torch_ms": 0.19, "max_err": 0.001, "ok": true, "config": "128x256x64/w8/s3"}"#,
            r#"{"protocol": 1, "kind": "result", "dtype": "f16", "size": "1x1x1", "triton_ms": null, "torch_ms": null, "max_err": null, "ok": false, "config": null}"#,
        ] {
            run.read(line).unwrap();
        }
        let case = |dtype, m| Case {
            dtype,
            m,
            n: m,
            k: m,
        };
        let b = find(&run.results, &case(DType::BF16, 4096)).unwrap();
        assert_eq!(
            (b.triton_ms, b.torch_ms, b.ok),
            (Some(0.21), Some(0.19), true)
        );
        assert_eq!(b.config, "128x256x64/w8/s3");
        let b = find(&run.results, &case(DType::F16, 1)).unwrap();
        assert_eq!((b.triton_ms, b.ok, b.config.as_str()), (None, false, "-"));
        assert!(find(&run.results, &case(DType::F16, 4096)).is_none());
        let args = [
            timing_args(Timing { warmup: 1, reps: 2 }),
            case_args(&[case(DType::BF16, 8)]),
        ]
        .concat();
        assert_eq!(args.join(" "), "--warmup 1 --reps 2 --case bf16 8x8x8");
    }
}
