//! `tile-tools attention-bench`: our flash-attention forward
//! (`tile_examples::flash_attention`) against a Triton 3.6 flash-attention
//! forward (block pointers, online softmax, autotuned) and torch SDPA, in
//! one run on one GPU, at B = 4, H = 32, T = 4096, D = 64 and 128, causal
//! and not.
//!
//! Ours is tried in each configuration of [`configs`] (blocks, warps,
//! stages), compiled specialized on its arguments, checked on sampled rows
//! (output and log-sum-exp) against an f64 reference, and timed as
//! `tile-tools matmul-bench` times (warm-up, then the median of launches
//! each after zeroing 256 MiB); the fastest is reported, and its whole
//! output compared with torch SDPA in f32 on the same inputs ([`sdpa`]).
//! Inputs: q and k within [-2, 2), v within [-1, 1) (as the GPU check's).
//! The baselines are `bench/triton_attention.py`. Throughput counts
//! `4 B H T^2 D` flops, half of it when causal (as Triton's tutorial
//! counts). The table comes last: ours, its largest difference from SDPA,
//! Triton and SDPA in TFLOP/s, ours/Triton and ours/SDPA (throughput),
//! and the verdict (ours at least Triton's throughput, and within
//! [`sdpa::TOLERANCE`] of SDPA).
//!
//! Modules: [`cli`] (the command line), `ours` (our side of a case, its
//! inputs and check in `inputs`), [`sdpa`] (ours' output for the
//! comparison with SDPA), [`table`] (the script's results, the rows and
//! their verdicts).

pub mod cli;
mod inputs;
mod ours;
pub mod sdpa;
pub mod table;

pub use cli::{Cli, Mask};

use crate::markdown;
use crate::protocol::run_or_skip;
use crate::protocol::script::timing_args;
use crate::timing::{config_text, parse_config_text, time_cases};
use std::path::Path;
use table::{Baseline, Row};

/// One benchmark case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Case {
    /// Batch.
    pub b: usize,
    /// Heads.
    pub h: usize,
    /// Sequence length.
    pub t: usize,
    /// Head dimension.
    pub d: usize,
    /// Causal or not.
    pub causal: bool,
}

impl Case {
    /// `BxHxTxD`.
    pub fn size(&self) -> String {
        format!("{}x{}x{}x{}", self.b, self.h, self.t, self.d)
    }

    /// `causal` or `full`.
    pub fn mask(&self) -> &'static str {
        if self.causal { "causal" } else { "full" }
    }

    /// Floating-point operations of one forward pass.
    pub fn flops(&self) -> f64 {
        let full = 4.0 * (self.b * self.h * self.t * self.t * self.d) as f64;
        if self.causal { full / 2.0 } else { full }
    }
}

/// The cases (`quick`: B = 1, H = 4, T = 1024).
pub fn cases(quick: bool) -> Vec<Case> {
    let (b, h, t) = if quick { (1, 4, 1024) } else { (4, 32, 4096) };
    [64, 128]
        .into_iter()
        .flat_map(|d| [false, true].map(|causal| Case { b, h, t, d, causal }))
        .collect()
}

/// One configuration of ours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Query rows per program.
    pub block_m: i64,
    /// Keys per iteration.
    pub block_n: i64,
    /// Warps per program.
    pub warps: u32,
    /// Pipeline stages.
    pub stages: u32,
}

impl Config {
    /// Reads `BMxBN/wW/sS`.
    pub fn parse(text: &str) -> Option<Config> {
        let ([block_m, block_n], warps, stages) = parse_config_text(text)?;
        Some(Config {
            block_m,
            block_n,
            warps,
            stages,
        })
    }

    /// `BMxBN/wW/sS`.
    pub fn name(&self) -> String {
        config_text(&[self.block_m, self.block_n], self.warps, self.stages)
    }
}

/// The configurations ours is tried in.
pub fn configs() -> Vec<Config> {
    [
        (128, 128, 4, 3),
        (128, 64, 4, 3),
        (128, 64, 4, 2),
        (128, 128, 8, 3),
        (128, 64, 8, 3),
        (128, 128, 8, 2),
        (128, 64, 8, 2),
        (64, 64, 4, 3),
        (64, 128, 4, 3),
    ]
    .into_iter()
    .map(|(block_m, block_n, warps, stages)| Config {
        block_m,
        block_n,
        warps,
        stages,
    })
    .collect()
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The script's arguments: the timing, where ours' outputs are (if
/// written) and the cases (`--case BxHxTxD causal|full`).
fn script_args(cli: &Cli, cases: &[Case], ours_dir: Option<&Path>) -> Vec<String> {
    let mut args = timing_args(cli.run.timing());
    if let Some(dir) = ours_dir {
        args.extend(["--ours-dir".into(), dir.display().to_string()]);
    }
    for c in cases {
        args.extend(["--case".into(), c.size(), c.mask().into()]);
    }
    args
}

/// `tile-tools attention-bench ARGS`: returns the exit status (1 when
/// ours failed on a case or was slower than Triton).
pub fn main(command_line: &str, cli: &Cli) -> i32 {
    let Some(device) = tile::device_or_skip("tile-tools attention-bench") else {
        return 0;
    };
    println!(
        "device: {}",
        device.name().unwrap_or_else(|e| e.to_string())
    );
    let cases: Vec<Case> = cases(cli.run.quick)
        .into_iter()
        .filter(|c| cli.head_dim.is_none_or(|d| d == c.d))
        .filter(|c| cli.causal().is_none_or(|causal| causal == c.causal))
        .collect();
    let configs = if cli.configs.is_empty() {
        configs()
    } else {
        cli.configs.clone()
    };
    let timing = cli.run.timing();
    // Ours' inputs and outputs for the comparison with SDPA (not without
    // the baselines' script).
    let dump = if cli.ours_only {
        None
    } else {
        match tempfile::Builder::new()
            .prefix("tile-attention-bench")
            .tempdir()
        {
            Ok(dir) => Some(dir),
            Err(e) => {
                println!("FAIL: a directory for the SDPA comparison: {e}");
                return 1;
            }
        }
    };
    let dump_path = dump.as_ref().map(|d| d.path());
    let ours = match time_cases(&device, timing, &cases, |c, timer| {
        ours::ours(&device, c, &configs, timer, dump_path)
    }) {
        Ok(ours) => ours,
        Err(e) => {
            println!("FAIL: {e}");
            return 1;
        }
    };
    let python = (!cli.ours_only).then_some((cli.python.as_str(), Path::new(&cli.script)));
    let script = run_or_skip::<Baseline>(python, &script_args(cli, &cases, dump_path));
    drop(dump);
    let rows: Vec<Row> = cases
        .iter()
        .zip(ours)
        .map(|(case, ours)| Row {
            case: *case,
            ours,
            baseline: table::find(&script.results, case),
        })
        .collect();
    let table = table::markdown(&rows);
    let facts = [
        vec![
            format!("command: `{command_line}`"),
            format!("timing: {}", timing.describe()),
            format!(
                "ours: the fastest of {} configurations, each checked first; ratios are throughput (ours over theirs)",
                configs.len()
            ),
        ],
        script.info,
    ]
    .concat();
    let out = cli.out.as_deref().map(Path::new);
    let written = markdown::publish(out, "attention-bench", &facts, &table);
    i32::from(rows.iter().any(|r| r.verdict() != "PASS") || !written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configs_and_cases() {
        let c = Config::parse("128x64/w8/s3").unwrap();
        assert_eq!((c.block_m, c.block_n, c.warps, c.stages), (128, 64, 8, 3));
        assert_eq!(c.name(), "128x64/w8/s3");
        assert!(Config::parse("128/w8/s3").is_none());
        let all = cases(false);
        assert_eq!(all.len(), 4);
        assert_eq!(all[0].flops(), 4.0 * 4.0 * 32.0 * 4096.0 * 4096.0 * 64.0);
        assert_eq!(all[1].flops() * 2.0, all[0].flops());
    }

    #[test]
    fn the_script_gets_the_timing_the_dump_and_the_cases() {
        let cli = match crate::parse("attention-bench --quick --head-dim 64 --mask full") {
            Ok(crate::Command::AttentionBench(cli)) => cli,
            other => panic!("{other:?}"),
        };
        let args = script_args(&cli, &cases(true)[..1], Some(Path::new("/tmp/d")));
        assert_eq!(
            args.join(" "),
            "--warmup 2 --reps 5 --ours-dir /tmp/d --case 1x4x1024x64 full"
        );
    }
}
