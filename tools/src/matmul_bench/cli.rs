//! The command line of `tile-tools matmul-bench`.

use super::{Case, Config};
use crate::bench::{Timing, positive_count};
use std::path::PathBuf;
use tile_dialect::DType;

/// Reads `f16:MxNxK` or `bf16:MxNxK`.
fn parse_case(text: &str) -> Option<Case> {
    let (dtype, size) = text.split_once(':')?;
    let dtype = match dtype {
        "f16" => DType::F16,
        "bf16" => DType::BF16,
        _ => return None,
    };
    let d: Vec<usize> = size
        .split('x')
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    match d[..] {
        [m, n, k] if m > 0 && n > 0 && k > 0 => Some(Case { dtype, m, n, k }),
        _ => None,
    }
}

/// The command line of `tile-tools matmul-bench`.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Cli {
    /// `--quick`: the smaller cases and timing.
    pub(super) quick: bool,
    /// Only these cases (`--case`); else [`super::cases`].
    pub(super) cases: Vec<Case>,
    /// Only these configurations of ours (`--config`); else [`super::configs`].
    pub(super) configs: Vec<Config>,
    /// No Triton or cuBLAS run (for profiling ours alone).
    pub(super) ours_only: bool,
    /// Warm-up and timed launches.
    pub(super) timing: Timing,
    /// The Triton and cuBLAS script.
    pub(super) script: PathBuf,
    /// The Python that runs it.
    pub(super) python: String,
    /// Where the Markdown report goes.
    pub(super) out: Option<PathBuf>,
}

impl Cli {
    pub(super) fn parse(args: &[String]) -> Result<Cli, String> {
        let quick = args.iter().any(|a| a == "--quick");
        let ours_only = args.iter().any(|a| a == "--ours-only");
        let mut cli = Cli {
            quick,
            cases: Vec::new(),
            configs: Vec::new(),
            ours_only,
            timing: Timing::default_for(quick),
            script: PathBuf::from("bench/triton_matmul.py"),
            python: "python3".into(),
            out: None,
        };
        let mut it = args
            .iter()
            .filter(|a| *a != "--quick" && *a != "--ours-only");
        while let Some(flag) = it.next() {
            let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
            match flag.as_str() {
                "--warmup" => cli.timing.warmup = positive_count(flag, value)?,
                "--reps" => cli.timing.reps = positive_count(flag, value)?,
                "--script" => cli.script = PathBuf::from(value),
                "--python" => cli.python = value.clone(),
                "--out" => cli.out = Some(PathBuf::from(value)),
                "--case" => cli.cases.push(
                    parse_case(value).ok_or_else(|| format!("--case {value}: want DTYPE:MxNxK"))?,
                ),
                "--config" => cli.configs.push(
                    Config::parse(value)
                        .ok_or_else(|| format!("--config {value}: want BMxBNxBK/wW/sS"))?,
                ),
                other => return Err(format!("unknown argument {other}")),
            }
        }
        Ok(cli)
    }
}
