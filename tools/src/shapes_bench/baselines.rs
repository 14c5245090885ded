//! The Triton side of `shapes-bench`: the command line of
//! `bench/triton_shapes.py` (the cases, their configurations and the
//! timing, from here) and its results, one protocol line a case and
//! configuration ([`crate::protocol`]):
//!
//! ```text
//! {"protocol": 1, "kind": "result", "kernel": "transpose", "dtype": "f32", "size": "8192x8192", "config": "64x64/w4/s3", "triton_ms": 0.2301, "max_err": 0.0, "ok": true}
//! ```
//!
//! `null` stands for what it could not measure; `ok` says Triton's output
//! matched PyTorch's within the script's tolerance.

use super::cases::{Case, Config};
use crate::protocol::script::timing_args;
use crate::protocol::{measurement, text_or_dash};
use crate::timing::{FLUSH_BYTES, Timing};

/// What the script measured for one case in one configuration.
#[derive(Clone, Debug, Default, PartialEq, serde::Deserialize)]
pub struct Baseline {
    /// The kernel's name (`tile_shapes::ShapeKernel::name`).
    #[serde(default)]
    pub kernel: String,
    /// `f32`, `f16`, `bf16`.
    #[serde(default)]
    pub dtype: String,
    /// `MxN`.
    #[serde(default)]
    pub size: String,
    /// `BMxBN/wW/sS`.
    #[serde(default, deserialize_with = "text_or_dash")]
    pub config: String,
    /// Triton's median, ms.
    #[serde(default, deserialize_with = "measurement")]
    pub triton_ms: Option<f64>,
    /// The largest difference from PyTorch's output over its largest
    /// magnitude.
    #[serde(default, deserialize_with = "measurement")]
    pub max_err: Option<f64>,
    /// Whether Triton's output matched PyTorch's.
    #[serde(default)]
    pub ok: bool,
}

/// The script's arguments: `--warmup W --reps R --flush-bytes B`, then
/// `--case KERNEL DTYPE MxN CONFIGS` per case, `CONFIGS` the
/// comma-separated configurations `configs` gives it (a case without any
/// left out).
pub fn script_args(
    cases: &[Case],
    timing: Timing,
    configs: impl Fn(&Case) -> Vec<Config>,
) -> Vec<String> {
    let mut args = timing_args(timing);
    args.extend(["--flush-bytes".to_string(), FLUSH_BYTES.to_string()]);
    for case in cases {
        let names: Vec<String> = configs(case).iter().map(Config::name).collect();
        if names.is_empty() {
            continue;
        }
        args.extend([
            "--case".to_string(),
            case.kernel.name().to_string(),
            case.dtype_name().to_string(),
            case.size(),
            names.join(","),
        ]);
    }
    args
}

/// The baseline of `case` in `config` among `results`.
pub fn find(results: &[Baseline], case: &Case, config: &Config) -> Option<Baseline> {
    let (kernel, dtype, size, name) = (
        case.kernel.name(),
        case.dtype_name(),
        case.size(),
        config.name(),
    );
    results
        .iter()
        .find(|b| b.kernel == kernel && b.dtype == dtype && b.size == size && b.config == name)
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::ScriptRun;
    use crate::shapes_bench::cases::{cases, configs_for};
    use tile_examples::tile_shapes::ShapeKernel;

    #[test]
    fn results_are_found_by_case_and_configuration() {
        let mut run = ScriptRun::<Baseline>::default();
        for line in [
            r#"{"protocol": 1, "kind": "result", "kernel": "transpose", "dtype": "f32", "size": "8192x8192", "config": "64x64/w4/s3", "triton_ms": 0.2301, "max_err": 0.0, "ok": true}"#,
            r#"{"protocol": 1, "kind": "result", "kernel": "transpose", "dtype": "f32", "size": "8192x8192", "config": "32x32/w4/s3", "triton_ms": null, "max_err": null, "ok": false}"#,
        ] {
            run.read(line).unwrap();
        }
        let case = cases(false)
            .into_iter()
            .find(|c| c.kernel == ShapeKernel::Transpose)
            .unwrap();
        let configs = configs_for(&case);
        let b = find(&run.results, &case, &configs[1]).unwrap();
        assert_eq!(
            (b.triton_ms, b.max_err, b.ok),
            (Some(0.2301), Some(0.0), true)
        );
        let b = find(&run.results, &case, &configs[0]).unwrap();
        assert_eq!((b.triton_ms, b.ok), (None, false));
        assert!(find(&run.results, &case, &configs[2]).is_none());
        let args = script_args(&[case], Timing { warmup: 1, reps: 2 }, |_| {
            configs[..2].to_vec()
        });
        assert_eq!(
            args.join(" "),
            "--warmup 1 --reps 2 --flush-bytes 268435456 --case transpose f32 8192x8192 32x32/w4/s3,64x64/w4/s3"
        );
    }
}
