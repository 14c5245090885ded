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

mod inputs;
pub mod sdpa;

use crate::bench::ours::median_ms;
use crate::bench::{FLUSH_BYTES, RunArgs, Timing};
use inputs::Inputs;
use std::path::Path;
use std::process::{Command, Stdio};
use tile::{Arg, Device, LoadedKernel, Options};
use tile_dialect::DType;
use tile_examples::flash_attention::{self, AttentionConfig};
use tile_runtime::Specialization;

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
        let (blocks, rest) = text.split_once("/w")?;
        let (warps, stages) = rest.split_once("/s")?;
        let (m, n) = blocks.split_once('x')?;
        Some(Config {
            block_m: m.parse().ok()?,
            block_n: n.parse().ok()?,
            warps: warps.parse().ok()?,
            stages: stages.parse().ok()?,
        })
    }

    /// `BMxBN/wW/sS`.
    pub fn name(&self) -> String {
        format!(
            "{}x{}/w{}/s{}",
            self.block_m, self.block_n, self.warps, self.stages
        )
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

/// Compiles ours in `config` for `case`, specialized on `args`, and loads
/// it; returns it with its grid.
fn load(
    device: &Device,
    context: &melior::Context,
    case: &Case,
    config: Config,
    args: &[Arg],
) -> Result<(LoadedKernel, (u32, u32)), String> {
    let cfg = AttentionConfig::new(case.d as i64)
        .causal(case.causal)
        .blocks(config.block_m, config.block_n);
    let kernel = flash_attention::attention_fwd(context, cfg, DType::F16).map_err(err)?;
    let options = Options {
        num_stages: config.stages,
        ..Options::with_warps(config.warps)
    }
    .specialized(Specialization::of(args));
    let compiled = tile::compile(&kernel, &options).map_err(err)?;
    let loaded = device.load(&compiled.ptx, &compiled.spec).map_err(err)?;
    let grid = (
        case.t.div_ceil(config.block_m as usize) as u32,
        (case.b * case.h) as u32,
    );
    Ok((loaded, grid))
}

/// Ours on `case`: the fastest checked configuration and its time. With
/// `dump`, the fastest runs once more and its inputs and output are
/// written there for the comparison with SDPA ([`sdpa`]).
fn ours(
    device: &Device,
    case: &Case,
    configs: &[Config],
    timing: Timing,
    flush: &mut tile::Buffer<u8>,
    dump: Option<&Path>,
) -> Result<(f64, Config), String> {
    let context = tile::context().map_err(err)?;
    let inputs = Inputs::new(device, case)?;
    let args = inputs.args(case);
    let mut best: Option<(f64, Config)> = None;
    for &config in configs {
        let attempt = |flush: &mut tile::Buffer<u8>| -> Result<f64, String> {
            let (loaded, grid) = load(device, &context, case, config, &args)?;
            loaded.launch(grid, &args).map_err(err)?;
            device.synchronize().map_err(err)?;
            inputs.check(device, case)?;
            median_ms(device, timing, flush, || loaded.launch_async(grid, &args))
        };
        match attempt(flush) {
            Ok(ms) => {
                println!(
                    "  ours {} {} {}: {ms:.4} ms",
                    case.size(),
                    case.mask(),
                    config.name()
                );
                if best.is_none_or(|(b, _)| ms < b) {
                    best = Some((ms, config));
                }
            }
            Err(e) => println!(
                "  ours {} {} {}: {e}",
                case.size(),
                case.mask(),
                config.name()
            ),
        }
    }
    let best = best.ok_or("no configuration ran and checked")?;
    if let Some(dir) = dump {
        let (loaded, grid) = load(device, &context, case, best.1, &args)?;
        sdpa::dump(device, dir, case, &inputs, &loaded, grid)?;
    }
    Ok(best)
}

/// What the script measured for one case.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Baseline {
    /// Triton's median, ms.
    pub triton_ms: Option<f64>,
    /// SDPA's median, ms.
    pub sdpa_ms: Option<f64>,
    /// Whether Triton's output matched SDPA's.
    pub ok: bool,
    /// Triton's chosen configuration.
    pub config: String,
    /// The largest difference between ours and SDPA (in f32) on ours'
    /// inputs ([`sdpa`]).
    pub ours_err: Option<f64>,
}

/// Reads `RESULT f16 BxHxTxD causal|full triton_ms=.. sdpa_ms=.. max_err=.. ok=.. config=..`.
pub fn parse_result(line: &str) -> Option<(String, String, Baseline)> {
    let mut words = line.strip_prefix("RESULT ")?.split_whitespace();
    let (_dtype, size, mask) = (words.next()?, words.next()?, words.next()?);
    let mut b = Baseline::default();
    for w in words {
        let (key, value) = w.split_once('=')?;
        match key {
            "triton_ms" => b.triton_ms = value.parse().ok(),
            "sdpa_ms" => b.sdpa_ms = value.parse().ok(),
            "ok" => b.ok = value == "1",
            "config" => b.config = value.to_string(),
            "ours_err" => b.ours_err = value.parse().ok(),
            _ => {}
        }
    }
    Some((size.to_string(), mask.to_string(), b))
}

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
    fn causal(&self) -> Option<bool> {
        self.mask.map(|m| m == Mask::Causal)
    }
}

/// Runs the baselines' script; returns its results and `INFO` lines.
fn run_script(
    cli: &Cli,
    cases: &[Case],
    ours_dir: Option<&Path>,
) -> (Vec<(String, String, Baseline)>, Vec<String>) {
    let mut args = vec![
        cli.script.clone(),
        "--warmup".into(),
        cli.run.timing().warmup.to_string(),
        "--reps".into(),
        cli.run.timing().reps.to_string(),
    ];
    if let Some(dir) = ours_dir {
        args.extend(["--ours-dir".into(), dir.display().to_string()]);
    }
    for c in cases {
        args.extend(["--case".into(), c.size(), c.mask().into()]);
    }
    println!("running {} {}", cli.python, args.join(" "));
    let (mut results, mut info) = (Vec::new(), Vec::new());
    match Command::new(&cli.python)
        .args(&args)
        .stderr(Stdio::inherit())
        .output()
    {
        Ok(out) => {
            for line in String::from_utf8_lossy(&out.stdout).lines() {
                println!("  {line}");
                if let Some(r) = parse_result(line) {
                    results.push(r);
                } else if line.starts_with("INFO") || line.starts_with("SKIP") {
                    info.push(line.to_string());
                }
            }
        }
        Err(e) => info.push(format!("cannot run {}: {e}", cli.python)),
    }
    (results, info)
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
    let mut flush = match device.alloc::<u8>(FLUSH_BYTES) {
        Ok(f) => f,
        Err(e) => {
            println!("FAIL: {e}");
            return 1;
        }
    };
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
    let ours: Vec<_> = cases
        .iter()
        .map(|c| {
            ours(
                &device,
                c,
                &configs,
                cli.run.timing(),
                &mut flush,
                dump_path,
            )
        })
        .collect();
    drop(flush);
    let (baselines, info) = if cli.ours_only {
        (Vec::new(), vec!["baselines not run (--ours-only)".into()])
    } else {
        run_script(cli, &cases, dump_path)
    };
    drop(dump);
    let tflops = |c: &Case, ms: f64| c.flops() / ms / 1e9;
    let mut status = 0;
    let mut table = String::from(
        "| dtype | BxHxTxD | mask | ours ms | ours TFLOP/s | ours config | ours vs SDPA (max abs) | Triton ms | Triton TFLOP/s | Triton config | SDPA ms | SDPA TFLOP/s | ours/Triton | ours/SDPA | target | verdict |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for (c, ours) in cases.iter().zip(&ours) {
        let base = baselines
            .iter()
            .find(|(s, m, _)| *s == c.size() && m == c.mask())
            .map(|(_, _, b)| b.clone())
            .unwrap_or_default();
        let fmt = |ms: Option<f64>| match ms {
            Some(ms) => (format!("{ms:.4}"), format!("{:.0}", tflops(c, ms))),
            None => ("-".into(), "-".into()),
        };
        let (ours_ms, ours_tf, ours_cfg) = match ours {
            Ok((ms, cfg)) => (Some(*ms), fmt(Some(*ms)).1, cfg.name()),
            Err(e) => (None, "-".into(), format!("FAILED: {e}")),
        };
        let ratio = |other: Option<f64>| match (ours_ms, other) {
            (Some(o), Some(b)) => format!("{:.3}", b / o),
            _ => "-".into(),
        };
        // At least Triton's throughput, and ours matching SDPA.
        let matches_sdpa = base.ours_err.is_some_and(|e| e <= sdpa::TOLERANCE);
        let verdict = match (ours_ms, base.triton_ms) {
            (Some(o), Some(t)) if o <= t && matches_sdpa => "PASS",
            (Some(_), Some(_)) => "FAIL",
            _ => "-",
        };
        let ours_err = base.ours_err.map_or("-".into(), |e| format!("{e:.1e}"));
        if verdict != "PASS" {
            status = 1;
        }
        let (t_ms, t_tf) = fmt(base.triton_ms);
        let (s_ms, s_tf) = fmt(base.sdpa_ms);
        table.push_str(&format!(
            "| f16 | {} | {} | {} | {ours_tf} | {ours_cfg} | {ours_err} | {t_ms} | {t_tf} | {} | {s_ms} | {s_tf} | {} | {} | >= 1.00, err <= {:.1e} | {verdict} |\n",
            c.size(),
            c.mask(),
            fmt(ours_ms).0,
            if base.ok { base.config.clone() } else { format!("{} (check failed)", base.config) },
            ratio(base.triton_ms),
            ratio(base.sdpa_ms),
            sdpa::TOLERANCE,
        ));
    }
    if let Some(path) = &cli.out {
        let report = format!(
            "# attention-bench\n\n- command: `{command_line}`\n- timing: {} warm-up launches, median of {} (each after zeroing 256 MiB), CUDA events\n- ours: the fastest of {} configurations, each checked first; ratios are throughput (ours over theirs)\n{}\n\n{table}",
            cli.run.timing().warmup,
            cli.run.timing().reps,
            configs.len(),
            info.iter()
                .map(|l| format!("- {l}"))
                .collect::<Vec<_>>()
                .join("\n"),
        );
        if !crate::bench::write_report(std::path::Path::new(path), &report) {
            status = 1;
        }
    }
    println!("\n{table}");
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_configs_and_cases_are_read() {
        let (size, mask, b) = parse_result(
            "RESULT f16 4x32x4096x64 causal triton_ms=1.5 sdpa_ms=1.2 max_err=1e-3 ok=1 config=128x64/w4/s3 ours_err=2.5e-4",
        )
        .unwrap();
        assert_eq!((size.as_str(), mask.as_str()), ("4x32x4096x64", "causal"));
        assert_eq!((b.triton_ms, b.sdpa_ms, b.ok), (Some(1.5), Some(1.2), true));
        assert_eq!(b.config, "128x64/w4/s3");
        assert_eq!(b.ours_err, Some(2.5e-4));
        assert!(parse_result("INFO x").is_none());
        let c = Config::parse("128x64/w8/s3").unwrap();
        assert_eq!((c.block_m, c.block_n, c.warps, c.stages), (128, 64, 8, 3));
        assert_eq!(c.name(), "128x64/w8/s3");
        assert!(Config::parse("128/w8/s3").is_none());
        let all = cases(false);
        assert_eq!(all.len(), 4);
        assert_eq!(all[0].flops(), 4.0 * 4.0 * 32.0 * 4096.0 * 4096.0 * 64.0);
        assert_eq!(all[1].flops() * 2.0, all[0].flops());
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
