//! The command line of `tile-tools matmul-bench`.

use super::{Case, Config};
use crate::timing::RunArgs;
use std::path::PathBuf;
use tile_dialect::DType;

/// Reads `MxNxK`, each positive.
fn parse_size(size: &str) -> Option<(usize, usize, usize)> {
    let d: Vec<usize> = size
        .split('x')
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    match d[..] {
        [m, n, k] if m > 0 && n > 0 && k > 0 => Some((m, n, k)),
        _ => None,
    }
}

/// Reads `f16:MxNxK` or `bf16:MxNxK` (a value parser of clap).
fn parse_case(text: &str) -> Result<Case, String> {
    let bad = || format!("want DTYPE:MxNxK (f16:4096x4096x4096), got {text:?}");
    let (dtype, size) = text.split_once(':').ok_or_else(bad)?;
    let dtype = match dtype {
        "f16" => DType::F16,
        "bf16" => DType::BF16,
        _ => return Err(bad()),
    };
    let (m, n, k) = parse_size(size).ok_or_else(bad)?;
    Ok(Case { dtype, m, n, k })
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
    /// Only these configurations of ours [default: the tutorial's; with
    /// --styles, those of each case's size].
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
    /// Instead: the matmul written the ways users write it (pointer
    /// tensors, masks, transposes, batches, split-K, persistent, while
    /// loops), each beside Triton compiling the same source.
    #[arg(long)]
    pub styles: bool,
    /// With --styles: only these cases [default: every style at the
    /// benchmark's sizes].
    #[arg(long = "style-case", value_name = "STYLE:DTYPE:MxNxK", value_parser = parse_style_case, requires = "styles")]
    pub style_cases: Vec<super::styles::StyleCase>,
    /// With --styles: only the default cases of these styles.
    #[arg(long = "style", value_name = "STYLE", requires = "styles")]
    pub style_names: Vec<String>,
    /// With --styles: the Triton script.
    #[arg(
        long,
        value_name = "PATH",
        default_value = "bench/triton_matmul_styles.py"
    )]
    pub styles_script: PathBuf,
}

/// Reads `STYLE:DTYPE:MxNxK` (`pointers:f16:4096x4096x4096`; DTYPE f16,
/// bf16, tf32 or i8).
fn parse_style_case(text: &str) -> Result<super::styles::StyleCase, String> {
    use tile_examples::matmul_styles::Style;
    let bad = || format!("want STYLE:DTYPE:MxNxK (pointers:f16:4096x4096x4096), got {text:?}");
    let mut parts = text.splitn(3, ':');
    let (style, dtype, size) = (
        parts.next().ok_or_else(bad)?,
        parts.next().ok_or_else(bad)?,
        parts.next().ok_or_else(bad)?,
    );
    let style = Style::from_name(style).ok_or_else(bad)?;
    let dtype = match dtype {
        "f16" => DType::F16,
        "bf16" => DType::BF16,
        "tf32" => DType::F32,
        "i8" => DType::I8,
        _ => return Err(bad()),
    };
    let (m, n, k) = parse_size(size).ok_or_else(bad)?;
    Ok(super::styles::StyleCase {
        style,
        dtype,
        m,
        n,
        k,
    })
}
