//! The Triton and PyTorch baselines: the command line of
//! `bench/triton_kernels.py` (the cases and the timing, from here), running
//! it, and reading its `RESULT` lines.
//!
//! The script prints one line per case:
//!
//! ```text
//! RESULT row_sum 65536x1024 triton_ms=0.0981 torch_ms=0.1030 max_err=1.2e-07 ok=1
//! ```
//!
//! `-` stands for a value it could not measure; `ok=1` says Triton's output
//! matched PyTorch's within the script's tolerance. Lines starting with
//! `INFO` name the versions and the device.

use super::Timing;
use super::cases::Case;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

/// The baselines of one case, as the script reported them.
#[derive(Clone, Debug, PartialEq)]
pub struct Baseline {
    /// The kernel's name ([`super::cases::KernelKind::name`]).
    pub kernel: String,
    /// The size ([`Case::size`]).
    pub size: String,
    /// Triton's median time, if measured.
    pub triton_ms: Option<f64>,
    /// PyTorch's median time, if measured.
    pub torch_ms: Option<f64>,
    /// The largest error of Triton's output against PyTorch's, relative
    /// to the largest magnitude of PyTorch's.
    pub max_err: Option<f64>,
    /// Whether Triton's output matched PyTorch's.
    pub ok: bool,
}

/// What one run of the script gave.
#[derive(Clone, Debug, Default)]
pub struct ScriptRun {
    /// The `RESULT` lines, read.
    pub baselines: Vec<Baseline>,
    /// The `INFO` lines, as printed.
    pub info: Vec<String>,
    /// Whether the script exited with status 0.
    pub success: bool,
    /// The command line that ran it.
    pub command: String,
}

impl ScriptRun {
    /// The baseline of `case`, if the script reported one.
    pub fn find(&self, case: &Case) -> Option<&Baseline> {
        let (kernel, size) = (case.kind.name(), case.size());
        self.baselines
            .iter()
            .find(|b| b.kernel == kernel && b.size == size)
    }
}

/// `-` or a number.
fn value(text: &str) -> Result<Option<f64>, String> {
    if text == "-" {
        return Ok(None);
    }
    text.parse::<f64>()
        .map(Some)
        .map_err(|e| format!("`{text}` is not a number: {e}"))
}

/// Reads a `RESULT <kernel> <size> key=value...` line. `None` for any other
/// line; an error for a `RESULT` line that cannot be read. Keys may come in
/// any order and unknown ones are ignored; missing values are `None` and a
/// missing `ok` is false.
pub fn parse_result(line: &str) -> Option<Result<Baseline, String>> {
    let mut words = line.split_whitespace();
    if words.next() != Some("RESULT") {
        return None;
    }
    let (Some(kernel), Some(size)) = (words.next(), words.next()) else {
        return Some(Err(format!("`{line}`: no kernel and size")));
    };
    let mut baseline = Baseline {
        kernel: kernel.to_string(),
        size: size.to_string(),
        triton_ms: None,
        torch_ms: None,
        max_err: None,
        ok: false,
    };
    for word in words {
        let Some((key, text)) = word.split_once('=') else {
            return Some(Err(format!("`{line}`: `{word}` is not key=value")));
        };
        let parsed = match key {
            "triton_ms" => value(text).map(|v| baseline.triton_ms = v),
            "torch_ms" => value(text).map(|v| baseline.torch_ms = v),
            "max_err" => value(text).map(|v| baseline.max_err = v),
            "ok" => {
                baseline.ok = text == "1";
                Ok(())
            }
            _ => Ok(()),
        };
        if let Err(e) = parsed {
            return Some(Err(format!("`{line}`: {key}: {e}")));
        }
    }
    Some(Ok(baseline))
}

/// The script's arguments for `cases`, timed with `timing` and an L2 flush
/// buffer of `flush_bytes`:
/// `--warmup W --reps R --flush-bytes B --case KERNEL SIZE BLOCK WARPS ...`.
pub fn script_args(cases: &[Case], timing: Timing, flush_bytes: usize) -> Vec<String> {
    let mut args = vec![
        "--warmup".to_string(),
        timing.warmup.to_string(),
        "--reps".to_string(),
        timing.reps.to_string(),
        "--flush-bytes".to_string(),
        flush_bytes.to_string(),
    ];
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

/// Runs `python script args...`, echoing its output as it comes (its
/// standard error passes straight through), and reads its `RESULT` and
/// `INFO` lines. An error when the script cannot be started at all.
pub fn run_script(python: &str, script: &Path, args: &[String]) -> Result<ScriptRun, String> {
    if !script.is_file() {
        return Err(format!("{} not found", script.display()));
    }
    let mut child = Command::new(python)
        .arg(script)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot run `{python}`: {e}"))?;
    let mut run = ScriptRun {
        command: format!("{python} {} {}", script.display(), args.join(" ")),
        ..ScriptRun::default()
    };
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout).lines() {
            let line = line.map_err(|e| format!("reading the script's output: {e}"))?;
            println!("  | {line}");
            read_line(&line, &mut run);
        }
    }
    let status = child
        .wait()
        .map_err(|e| format!("waiting for `{python}`: {e}"))?;
    run.success = status.success();
    Ok(run)
}

/// Adds one line of the script's output to `run`.
fn read_line(line: &str, run: &mut ScriptRun) {
    if line.starts_with("INFO ") {
        run.info.push(line.to_string());
    }
    match parse_result(line) {
        Some(Ok(baseline)) => run.baselines.push(baseline),
        Some(Err(e)) => println!("  unreadable RESULT line: {e}"),
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::cases::cases;

    #[test]
    fn result_lines_are_read() {
        let line = "RESULT row_sum 65536x1024 triton_ms=0.0981 torch_ms=0.103 max_err=1.5e-07 ok=1";
        let b = parse_result(line).unwrap().unwrap();
        assert_eq!(
            (b.kernel.as_str(), b.size.as_str()),
            ("row_sum", "65536x1024")
        );
        assert_eq!(b.triton_ms, Some(0.0981));
        assert_eq!(b.torch_ms, Some(0.103));
        assert_eq!(b.max_err, Some(1.5e-7));
        assert!(b.ok);
    }

    #[test]
    fn dashes_are_missing_values_and_order_does_not_matter() {
        let b = parse_result("RESULT softmax 4096x4096 ok=0 torch_ms=0.2 triton_ms=- extra=7")
            .unwrap()
            .unwrap();
        assert_eq!(
            (b.triton_ms, b.torch_ms, b.max_err, b.ok),
            (None, Some(0.2), None, false)
        );
    }

    #[test]
    fn other_lines_are_skipped_and_bad_results_are_errors() {
        assert!(parse_result("INFO triton=3.6.0").is_none());
        assert!(parse_result("").is_none());
        assert!(parse_result("RESULTS x y").is_none());
        assert!(parse_result("RESULT row_sum").unwrap().is_err());
        assert!(
            parse_result("RESULT row_sum 8x8 triton_ms=fast")
                .unwrap()
                .is_err()
        );
        assert!(parse_result("RESULT row_sum 8x8 0.5").unwrap().is_err());
    }

    #[test]
    fn script_run_finds_the_case() {
        let mut run = ScriptRun::default();
        read_line("INFO triton=3.6.0 torch=2.11.0", &mut run);
        read_line(
            "RESULT vector_add 1048576 triton_ms=0.01 torch_ms=0.02 max_err=0 ok=1",
            &mut run,
        );
        read_line(
            "RESULT row_sum 4096x1024 triton_ms=0.03 torch_ms=- max_err=- ok=0",
            &mut run,
        );
        assert_eq!(run.info, vec!["INFO triton=3.6.0 torch=2.11.0".to_string()]);
        let quick = cases(true);
        assert_eq!(run.find(&quick[0]).unwrap().triton_ms, Some(0.01));
        assert_eq!(run.find(&quick[1]).unwrap().torch_ms, None);
        assert!(run.find(&quick[2]).is_none());
        // The full-size vector add is another case.
        assert!(run.find(&cases(false)[0]).is_none());
    }

    /// A stand-in for the script, run by `sh`: prints its arguments on an
    /// INFO line, one result, and exits with status 1.
    #[test]
    fn the_script_is_run_and_its_output_read() {
        let dir = std::env::temp_dir().join(format!("tile-bench-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let script = dir.join("fake.sh");
        std::fs::write(
            &script,
            "echo \"INFO args=$*\"\necho noise\n\
             echo 'RESULT softmax 8x8 triton_ms=0.5 torch_ms=0.25 max_err=0 ok=1'\nexit 1\n",
        )
        .unwrap();
        let args = vec!["--reps".to_string(), "3".to_string()];
        let run = run_script("sh", &script, &args).unwrap();
        assert!(!run.success);
        assert!(run.command.starts_with("sh ") && run.command.ends_with("fake.sh --reps 3"));
        assert_eq!(run.info, vec!["INFO args=--reps 3".to_string()]);
        assert_eq!(run.baselines.len(), 1);
        assert_eq!(run.baselines[0].torch_ms, Some(0.25));
        // No interpreter, or no script: an error saying which.
        let e = run_script("/nonexistent/python3", &script, &args).unwrap_err();
        assert!(e.contains("cannot run `/nonexistent/python3`"), "{e}");
        let e = run_script("sh", &dir.join("missing.py"), &args).unwrap_err();
        assert!(e.contains("missing.py not found"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
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
