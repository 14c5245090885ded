//! The command line of `tile-tools matmul-bench`.

use super::{Case, Config};
use crate::bench::RunArgs;
use std::path::PathBuf;
use tile_dialect::DType;

/// Reads `f16:MxNxK` or `bf16:MxNxK` (a value parser of clap).
fn parse_case(text: &str) -> Result<Case, String> {
    let bad = || format!("want DTYPE:MxNxK (f16:4096x4096x4096), got {text:?}");
    let (dtype, size) = text.split_once(':').ok_or_else(bad)?;
    let dtype = match dtype {
        "f16" => DType::F16,
        "bf16" => DType::BF16,
        _ => return Err(bad()),
    };
    let d: Vec<usize> = size
        .split('x')
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    match d[..] {
        [m, n, k] if m > 0 && n > 0 && k > 0 => Ok(Case { dtype, m, n, k }),
        _ => Err(bad()),
    }
}

/// Reads `BMxBNxBK/wW/sS` (a value parser of clap).
fn parse_config(text: &str) -> Result<Config, String> {
    Config::parse(text).ok_or_else(|| format!("want BMxBNxBK/wW/sS, got {text:?}"))
}

/// The command line of `tile-tools matmul-bench`: the matmul against
/// Triton (autotuned) and cuBLAS, fp16 and bf16.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct Cli {
    /// The run's size and timing.
    #[command(flatten)]
    pub run: RunArgs,
    /// Only these cases [default: the benchmark's own].
    #[arg(long = "case", value_name = "DTYPE:MxNxK", value_parser = parse_case)]
    pub cases: Vec<Case>,
    /// Only these configurations of ours [default: the tutorial's].
    #[arg(long = "config", value_name = "BMxBNxBK/wW/sS", value_parser = parse_config)]
    pub configs: Vec<Config>,
    /// No Triton or cuBLAS run (for profiling ours alone).
    #[arg(long)]
    pub ours_only: bool,
    /// The Triton and cuBLAS script.
    #[arg(long, value_name = "PATH", default_value = "bench/triton_matmul.py")]
    pub script: PathBuf,
    /// The Python that runs it.
    #[arg(long, value_name = "PATH", default_value = "python3")]
    pub python: String,
    /// Where the Markdown report goes.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
}
