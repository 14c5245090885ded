//! `tile-tools matmul-bench`: our tutorial matmul (`tile_examples::matmul`)
//! on tensor cores against Triton's, autotuned, and cuBLAS
//! (`torch.matmul`), fp16 and bf16, in one run on one GPU.
//!
//! Ours is tried in each configuration of [`configs`], compiled
//! specialized on its arguments (as Triton specializes), checked on
//! sampled outputs against an f64 reference, and timed; the fastest is
//! reported, as an autotuner would choose it. Triton's side is
//! `bench/triton_matmul.py`: the same kernel, written with block pointers,
//! autotuned over its tutorial's configurations. Timing as `tile-tools
//! bench`: warm-up launches, then the median of timed launches each after
//! zeroing 256 MiB (an L2 flush).
//!
//! The table comes last: per type and size, the times and TFLOP/s of ours
//! (and its configuration), Triton (and its) and cuBLAS, ours/Triton, the
//! target (1.00 at 4096^3 and 8192^3, 1.10 at 4096x4096x512 and 1000^3) and
//! the verdict.
//!
//! Modules: [`cli`] (the command line), [`ours`] (our side of a case),
//! [`baselines`] (the script's command line and results), [`table`] (the
//! rows and their verdicts), [`styles`] (`--styles`).

pub mod baselines;
pub mod cli;
pub mod ours;
pub mod styles;
pub mod table;

pub use baselines::Baseline;
pub use cli::Cli;
pub use table::{Row, markdown};

use crate::markdown as md;
use crate::protocol::run_or_skip;
use crate::protocol::script::timing_args;
use crate::timing::{Timing, config_text, parse_config_text, time_cases};
use tile_dialect::DType;
use tile_examples::matmul::{self, MatmulConfig};

/// One size of the benchmark, in one input type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Case {
    /// f16 or bf16 (the output has the same type).
    pub dtype: DType,
    /// Rows of A and C.
    pub m: usize,
    /// Columns of B and C.
    pub n: usize,
    /// The reduced dimension.
    pub k: usize,
}

impl Case {
    /// `MxNxK`.
    pub fn size(&self) -> String {
        format!("{}x{}x{}", self.m, self.n, self.k)
    }

    /// The type as the script takes it.
    pub fn dtype_name(&self) -> &'static str {
        if self.dtype == DType::BF16 {
            "bf16"
        } else {
            "f16"
        }
    }

    /// Floating-point operations: `2 M N K`.
    pub fn flops(&self) -> f64 {
        2.0 * self.m as f64 * self.n as f64 * self.k as f64
    }

    /// The largest ours/Triton time ratio that passes.
    pub fn target(&self) -> f64 {
        if self.m == self.n && self.n == self.k && self.m >= 4096 {
            1.00
        } else {
            1.10
        }
    }
}

/// The cases: f16 and bf16 at 4096^3, 8192^3, 4096x4096x512 and 1000^3
/// (`quick`: 1024^3 only).
pub fn cases(quick: bool) -> Vec<Case> {
    let sizes: &[(usize, usize, usize)] = if quick {
        &[(1024, 1024, 1024)]
    } else {
        &[
            (4096, 4096, 4096),
            (8192, 8192, 8192),
            (4096, 4096, 512),
            (1000, 1000, 1000),
        ]
    };
    [DType::F16, DType::BF16]
        .into_iter()
        .flat_map(|dtype| sizes.iter().map(move |&(m, n, k)| Case { dtype, m, n, k }))
        .collect()
}

/// One configuration of ours: tiles, warps and pipeline stages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Tiles.
    pub tiles: MatmulConfig,
    /// Warps per program.
    pub warps: u32,
    /// Pipeline stages.
    pub stages: u32,
}

impl Config {
    /// Tiles `[BM, BN, BK]` (the other fields the default's) on `warps`
    /// warps with `stages` stages.
    pub fn new([block_m, block_n, block_k]: [i64; 3], warps: u32, stages: u32) -> Config {
        Config {
            tiles: MatmulConfig {
                block_m,
                block_n,
                block_k,
                ..MatmulConfig::default()
            },
            warps,
            stages,
        }
    }

    /// Reads `BMxBNxBK/wW/sS`.
    pub fn parse(text: &str) -> Option<Config> {
        let (tiles, warps, stages) = parse_config_text(text)?;
        Some(Config::new(tiles, warps, stages))
    }

    /// `BMxBNxBK/wW/sS`.
    pub fn name(&self) -> String {
        let t = &self.tiles;
        config_text(&[t.block_m, t.block_n, t.block_k], self.warps, self.stages)
    }
}

/// The configurations ours is tried in: those `matmul::autotuner` tunes
/// over (Triton's tutorial list and two more), and three more with other
/// stages or warps.
pub fn configs() -> Vec<Config> {
    let tuned = matmul::tuning_configs().into_iter().map(|c| Config {
        tiles: matmul::tiles_of(&c),
        warps: c.num_warps,
        stages: c.num_stages.unwrap_or(3),
    });
    let more = [
        (128, 256, 64, 8, 4),
        (128, 128, 64, 4, 4),
        (64, 64, 64, 4, 4),
    ]
    .into_iter()
    .map(|(block_m, block_n, block_k, warps, stages)| {
        Config::new([block_m, block_n, block_k], warps, stages)
    });
    tuned.chain(more).collect()
}

/// The facts of a report of `matmul-bench` (its `--styles` too): the
/// device, the command line, the timing, what ours is, the baselines'
/// command and their `info` lines.
fn report_facts(
    device: &str,
    command_line: &str,
    timing: Timing,
    ours: String,
    command: &str,
    info: Vec<String>,
) -> Vec<String> {
    let mut facts = vec![
        format!("device: {device}"),
        format!("command: `{command_line}`"),
        format!("timing: {}", timing.describe()),
        ours,
        format!("baselines: `{command}`"),
    ];
    facts.extend(info);
    facts
}

/// `tile-tools matmul-bench`; returns the exit status (1 when one of our
/// cases could not run). Without a GPU it prints `skipped: no CUDA device`
/// and returns 0.
pub fn main(command_line: &str, cli: &Cli) -> i32 {
    let Some(device) = tile::device_or_skip("tile-tools matmul-bench") else {
        return 0;
    };
    let name = device.name().unwrap_or_else(|e| e.to_string());
    println!("device: {name}");
    if cli.styles {
        return styles::main(command_line, cli, &device, &name);
    }
    let cases = if cli.cases.is_empty() {
        cases(cli.run.quick)
    } else {
        cli.cases.clone()
    };
    let configs = if cli.configs.is_empty() {
        configs()
    } else {
        cli.configs.clone()
    };
    let timing = cli.run.timing();
    let ours = match time_cases(&device, timing, &cases, |case, timer| {
        ours::ours(&device, case, &configs, timer)
    }) {
        Ok(ours) => ours,
        Err(e) => {
            println!("FAIL: {e}");
            return 1;
        }
    };
    let python = (!cli.ours_only).then_some((cli.python.as_str(), cli.script.as_path()));
    let args = [timing_args(timing), baselines::case_args(&cases)].concat();
    let script = run_or_skip::<Baseline>(python, &args);
    let rows: Vec<Row> = cases
        .iter()
        .zip(ours)
        .map(|(case, ours)| Row::new(*case, ours, baselines::find(&script.results, case)))
        .collect();
    let table = markdown(&rows);
    let ours_are = format!(
        "ours: the fastest of {} configurations, each checked first",
        configs.len()
    );
    let facts = report_facts(
        &name,
        command_line,
        timing,
        ours_are,
        &script.command,
        script.info,
    );
    let written = md::publish(
        cli.out.as_deref(),
        "tile-tools matmul-bench",
        &facts,
        &table,
    );
    i32::from(rows.iter().any(|r| r.ours.is_err()) || !written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_configurations_and_the_command_line() {
        let all = cases(false);
        assert_eq!(all.len(), 8);
        assert_eq!(all[0].target(), 1.00);
        assert_eq!(all[2].target(), 1.10);
        assert_eq!(all[3].flops(), 2e9);
        let parse = |args: &str| match crate::parse(&format!("matmul-bench {args}")) {
            Ok(crate::Command::MatmulBench(cli)) => Ok(cli),
            Ok(_) => Err("another subcommand".to_string()),
            Err(e) => Err(e.to_string()),
        };
        assert!(parse("--reps").is_err());
        let cli = parse("--case bf16:1000x17x4097 --config 128x256x64/w8/s3 --ours-only").unwrap();
        assert_eq!(cli.cases[0].size(), "1000x17x4097");
        assert_eq!(cli.cases[0].dtype, DType::BF16);
        assert_eq!(cli.configs[0].name(), "128x256x64/w8/s3");
        assert_eq!(cli.configs[0].tiles.block_n, 256);
        assert!(cli.ours_only);
        assert!(parse("--case f32:1x1x1").is_err());
        assert!(parse("--config 128x64/w4/s3").is_err());
        assert_eq!(
            Config::parse("64x64x32/w4/s3").map(|c| c.name()).as_deref(),
            Some("64x64x32/w4/s3")
        );
        assert!(configs().len() > 3);
    }
}
