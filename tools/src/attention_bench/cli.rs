//! The command line of `tile-tools attention-bench`.

use super::Config;
use crate::timing::RunArgs;

/// Reads `BMxBN/wW/sS` (a value parser of clap).
fn parse_config(text: &str) -> Result<Config, String> {
    Config::parse(text).ok_or_else(|| format!("want BMxBN/wW/sS, got {text:?}"))
}

/// Reads a head dimension, 64 or 128 (a value parser of clap).
fn head_dim(text: &str) -> Result<usize, String> {
    match text {
        "64" => Ok(64),
        "128" => Ok(128),
        _ => Err(format!("want 64 or 128, got {text:?}")),
    }
}

/// The cases' masks.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mask {
    /// Causal attention.
    Causal,
    /// Full attention.
    Full,
}

/// The command line of `tile-tools attention-bench`: the flash-attention
/// forward against Triton (autotuned) and torch SDPA.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct Cli {
    /// The run's size and timing.
    #[command(flatten)]
    pub run: RunArgs,
    /// No Triton or SDPA run (for profiling ours alone).
    #[arg(long)]
    pub ours_only: bool,
    /// Only these configurations of ours [default: the benchmark's own].
    #[arg(long = "config", value_name = "BMxBN/wW/sS", value_parser = parse_config)]
    pub configs: Vec<Config>,
    /// Only the cases of this head dimension, 64 or 128.
    #[arg(long, value_name = "D", value_parser = head_dim)]
    pub head_dim: Option<usize>,
    /// Only the causal or the full cases.
    #[arg(long, value_enum)]
    pub mask: Option<Mask>,
    /// The Python that runs the script.
    #[arg(long, value_name = "PATH", default_value = "python3")]
    pub python: String,
    /// The Triton and SDPA script.
    #[arg(long, value_name = "PATH", default_value = "bench/triton_attention.py")]
    pub script: String,
    /// Where the Markdown report goes.
    #[arg(long, value_name = "PATH")]
    pub out: Option<String>,
}

impl Cli {
    /// Only causal (`Some(true)`) or full cases, or both.
    pub fn causal(&self) -> Option<bool> {
        self.mask.map(|m| m == Mask::Causal)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_command_line_is_read() {
        let parse = |args: &str| match crate::parse(&format!("attention-bench {args}")) {
            Ok(crate::Command::AttentionBench(cli)) => Ok(cli),
            Ok(_) => Err("another subcommand".to_string()),
            Err(e) => Err(e.to_string()),
        };
        assert!(parse("--config x").is_err());
        let cli = parse("--head-dim 64 --mask causal").unwrap();
        assert_eq!((cli.head_dim, cli.causal()), (Some(64), Some(true)));
        assert_eq!(parse("").unwrap().causal(), None);
        assert!(parse("--head-dim 96").is_err());
        assert!(parse("--mask sliding").is_err());
    }
}
