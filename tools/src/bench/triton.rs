//! The Triton and PyTorch baselines: the command line of
//! `bench/triton_kernels.py` (the cases and the timing, from here) and
//! its results, one protocol line a case ([`crate::protocol`]):
//!
//! ```text
//! {"protocol": 1, "kind": "result", "kernel": "row_sum", "size": "65536x1024", "triton_ms": 0.0981, "torch_ms": 0.103, "max_err": 1.2e-07, "ok": true}
//! ```
//!
//! `null` stands for a value it could not measure; `ok` says Triton's
//! output matched PyTorch's within the script's tolerance. Its `info`
//! line names the versions and the device.

use super::cases::Case;
use crate::protocol::script::timing_args;
use crate::protocol::{ScriptRun, measurement};
use crate::timing::Timing;

/// The baselines of one case, as the script reported them.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct Baseline {
    /// The kernel's name ([`super::cases::KernelKind::name`]).
    pub kernel: String,
    /// The size ([`Case::size`]).
    pub size: String,
    /// Triton's median time, if measured.
    #[serde(default, deserialize_with = "measurement")]
    pub triton_ms: Option<f64>,
    /// PyTorch's median time, if measured.
    #[serde(default, deserialize_with = "measurement")]
    pub torch_ms: Option<f64>,
    /// The largest error of Triton's output against PyTorch's, relative
    /// to the largest magnitude of PyTorch's.
    #[serde(default, deserialize_with = "measurement")]
    pub max_err: Option<f64>,
    /// Whether Triton's output matched PyTorch's.
    #[serde(default)]
    pub ok: bool,
}

/// The baseline of `case` in `run`, if the script reported one.
pub fn find<'r>(run: &'r ScriptRun<Baseline>, case: &Case) -> Option<&'r Baseline> {
    let (kernel, size) = (case.kind.name(), case.size());
    run.results
        .iter()
        .find(|b| b.kernel == kernel && b.size == size)
}

/// The script's arguments for `cases`, timed with `timing` and an L2 flush
/// buffer of `flush_bytes`:
/// `--warmup W --reps R --flush-bytes B --case KERNEL SIZE BLOCK WARPS ...`.
pub fn script_args(cases: &[Case], timing: Timing, flush_bytes: usize) -> Vec<String> {
    let mut args = timing_args(timing);
    args.extend(["--flush-bytes".to_string(), flush_bytes.to_string()]);
    for case in cases {
        args.extend([
            "--case".to_string(),
            case.kind.name().to_string(),
            case.size(),
            case.block_text(),
            case.num_warps.to_string(),
        ]);
    }
    args
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::cases::cases;

    #[test]
    fn results_are_read_and_found_by_case() {
        let mut run = ScriptRun::default();
        for line in [
            r#"{"protocol": 1, "kind": "info", "text": "triton=3.6.0 torch=2.11.0"}"#,
            r#"{"protocol": 1, "kind": "result", "kernel": "vector_add", "size": "1048576", "triton_ms": 0.01, "torch_ms": 0.02, "max_err": 0.0, "ok": true}"#,
            r#"{"protocol": 1, "kind": "result", "kernel": "row_sum", "size": "4096x1024", "triton_ms": 0.03, "torch_ms": null, "max_err": null, "ok": false}"#,
            r#"{"protocol": 1, "kind": "result", "kernel": "softmax", "size": "8x8", "triton_ms": "fast"}"#,
        ] {
            run.read(line).unwrap();
        }
        assert_eq!(run.info, vec!["INFO triton=3.6.0 torch=2.11.0".to_string()]);
        assert_eq!(run.results.len(), 2);
        let quick = cases(true);
        let add = find(&run, &quick[0]).unwrap();
        assert_eq!(
            (add.triton_ms, add.max_err, add.ok),
            (Some(0.01), Some(0.0), true)
        );
        let sum = find(&run, &quick[1]).unwrap();
        assert_eq!((sum.torch_ms, sum.ok), (None, false));
        assert!(find(&run, &quick[2]).is_none());
        // The full-size vector add is another case.
        assert!(find(&run, &cases(false)[0]).is_none());
    }

    #[test]
    fn the_command_line_carries_every_case() {
        let timing = Timing { warmup: 3, reps: 7 };
        let args = script_args(&cases(false), timing, 1 << 28);
        let text = args.join(" ");
        assert!(text.starts_with("--warmup 3 --reps 7 --flush-bytes 268435456 --case"));
        assert!(text.contains("--case vector_add 268435456 1024 4 "));
        assert!(text.contains("--case weighted_sum_bwd 65536x1024 16x64 4 "));
        assert!(text.contains("--case softmax 4096x4096 4096 8 "));
        assert!(text.contains("--case layer_norm 4096x8192 8192 8 "));
        assert!(text.contains("--case cross_entropy 4096x32768 4096 8 "));
        assert!(text.ends_with("--case layer_norm_bwd 4096x8192 8192 8"));
        assert_eq!(args.iter().filter(|a| *a == "--case").count(), 8);
    }
}
