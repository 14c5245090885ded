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
//! each after zeroing 256 MiB); the fastest is reported. The baselines are
//! `bench/triton_attention.py`. Throughput counts `4 B H T^2 D` flops,
//! half of it when causal (as Triton's tutorial counts). The table comes
//! last: ours, Triton and SDPA in TFLOP/s, ours/Triton and ours/SDPA
//! (throughput), and the verdict (ours at least Triton's throughput).

use crate::bench::ours::median_ms;
use crate::bench::{FLUSH_BYTES, Timing, positive_count};
use crate::gpu_check::inputs;
use std::process::{Command, Stdio};
use tile::{Arg, Device, Options};
use tile_dialect::DType;
use tile_examples::flash_attention::{self, AttentionConfig};
use tile_runtime::Specialization;

/// The usage of `tile-tools attention-bench`.
pub const USAGE: &str = "usage: tile-tools attention-bench [--quick] [--warmup N] [--reps N] \
                         [--config BMxBN/wW/sS]... [--head-dim 64|128] [--mask causal|full] \
                         [--python PATH] [--script PATH] [--out PATH] [--ours-only]";

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

/// The inputs of one case on the device, and their values.
struct Inputs {
    q: Vec<f32>,
    k: Vec<f32>,
    v: Vec<f32>,
    buffers: [tile::Buffer<u16>; 4],
    lse: tile::Buffer<f32>,
    cu: tile::Buffer<i32>,
}

impl Inputs {
    fn new(device: &Device, c: &Case) -> Result<Inputs, String> {
        let len = c.b * c.t * c.h * c.d;
        let make = |seed: u64| -> (Vec<f32>, Vec<u16>) {
            let bits: Vec<u16> = inputs(len, seed)
                .iter()
                .map(|&x| half::f16::from_f32(x / 8.0).to_bits())
                .collect();
            let values = bits.iter().map(|&b| half::f16::from_bits(b).to_f32());
            (values.collect(), bits)
        };
        let (q, qb) = make(3);
        let (k, kb) = make(5);
        let (v, vb) = make(7);
        let up = |bits: &[u16]| device.upload(bits).map_err(err);
        Ok(Inputs {
            buffers: [up(&qb)?, up(&kb)?, up(&vb)?, up(&vec![0u16; len])?],
            lse: device.alloc(c.b * c.t * c.h).map_err(err)?,
            cu: device.upload(&vec![0i32; c.b + 1]).map_err(err)?,
            q,
            k,
            v,
        })
    }

    fn args(&self, c: &Case) -> Vec<Arg> {
        let mut args: Vec<Arg> = self.buffers.iter().map(Arg::from).collect();
        args.push(Arg::from(&self.lse));
        args.push(Arg::from(&self.cu));
        args.push(Arg::from(c.t as i32));
        args.push(Arg::from(c.h as i32));
        args.push(Arg::from(1.0 / (c.d as f32).sqrt()));
        args
    }

    /// Checks 48 sampled rows (the first and last of each sequence, and
    /// rows at block edges) against the f64 reference.
    fn check(&self, device: &Device, c: &Case) -> Result<(), String> {
        let o: Vec<u16> = device.download(&self.buffers[3]).map_err(err)?;
        let lse: Vec<f32> = device.download(&self.lse).map_err(err)?;
        let scale = 1.0 / (c.d as f64).sqrt();
        let at = |b: usize, t: usize, h: usize| ((b * c.t + t) * c.h + h) * c.d;
        for s in 0..48usize {
            let (b, h) = (s % c.b, (s * 7) % c.h);
            let t = match s % 4 {
                0 => 0,
                1 => c.t - 1,
                2 => (s * 131) % c.t,
                _ => ((s * 64) + 63) % c.t,
            };
            let keys = if c.causal { t + 1 } else { c.t };
            let q = &self.q[at(b, t, h)..at(b, t, h) + c.d];
            let scores: Vec<f64> = (0..keys)
                .map(|j| {
                    let k = &self.k[at(b, j, h)..at(b, j, h) + c.d];
                    q.iter()
                        .zip(k)
                        .map(|(&x, &y)| f64::from(x) * f64::from(y))
                        .sum::<f64>()
                        * scale
                })
                .collect();
            let m = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let l: f64 = scores.iter().map(|s| (s - m).exp()).sum();
            let want_lse = m + l.ln();
            let got_lse = f64::from(lse[(b * c.t + t) * c.h + h]);
            if (got_lse - want_lse).abs() > 2e-4 || got_lse.is_nan() {
                return Err(format!("lse[{b},{t},{h}] = {got_lse}, want {want_lse}"));
            }
            for dd in 0..c.d {
                let want: f64 = scores
                    .iter()
                    .enumerate()
                    .map(|(j, s)| (s - m).exp() / l * f64::from(self.v[at(b, j, h) + dd]))
                    .sum();
                let got = f64::from(half::f16::from_bits(o[at(b, t, h) + dd]).to_f32());
                if (got - want).abs() > 4.0 * 2f64.powi(-11) || got.is_nan() {
                    return Err(format!("o[{b},{t},{h},{dd}] = {got}, want {want}"));
                }
            }
        }
        Ok(())
    }
}

/// Ours on `case`: the fastest checked configuration and its time.
fn ours(
    device: &Device,
    case: &Case,
    configs: &[Config],
    timing: Timing,
    flush: &mut tile::Buffer<u8>,
) -> Result<(f64, Config), String> {
    let context = tile::context().map_err(err)?;
    let inputs = Inputs::new(device, case)?;
    let args = inputs.args(case);
    let mut best: Option<(f64, Config)> = None;
    for &config in configs {
        let attempt = |flush: &mut tile::Buffer<u8>| -> Result<f64, String> {
            let cfg = AttentionConfig::new(case.d as i64)
                .causal(case.causal)
                .blocks(config.block_m, config.block_n);
            let kernel = flash_attention::attention_fwd(&context, cfg, DType::F16).map_err(err)?;
            let options = Options {
                num_stages: config.stages,
                ..Options::with_warps(config.warps)
            }
            .specialized(Specialization::of(&args));
            let compiled = tile::compile(&kernel, &options).map_err(err)?;
            let loaded = device.load(&compiled.ptx, &compiled.spec).map_err(err)?;
            let grid = (
                case.t.div_ceil(config.block_m as usize) as u32,
                (case.b * case.h) as u32,
            );
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
    best.ok_or_else(|| "no configuration ran and checked".into())
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
            _ => {}
        }
    }
    Some((size.to_string(), mask.to_string(), b))
}

/// The command line.
struct Cli {
    quick: bool,
    ours_only: bool,
    timing: Timing,
    configs: Vec<Config>,
    /// Only the cases of this head dimension (all when `None`).
    head_dim: Option<usize>,
    /// Only causal (`Some(true)`) or full cases.
    causal: Option<bool>,
    python: String,
    script: String,
    out: Option<String>,
}

impl Cli {
    fn parse(args: &[String]) -> Result<Cli, String> {
        let quick = args.iter().any(|a| a == "--quick");
        let ours_only = args.iter().any(|a| a == "--ours-only");
        let mut cli = Cli {
            quick,
            ours_only,
            timing: Timing::default_for(quick),
            configs: Vec::new(),
            head_dim: None,
            causal: None,
            python: "python3".into(),
            script: "bench/triton_attention.py".into(),
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
                "--python" => cli.python = value.clone(),
                "--script" => cli.script = value.clone(),
                "--out" => cli.out = Some(value.clone()),
                "--head-dim" => match value.as_str() {
                    "64" | "128" => cli.head_dim = value.parse().ok(),
                    _ => return Err(format!("--head-dim {value}: want 64 or 128")),
                },
                "--mask" => match value.as_str() {
                    "causal" => cli.causal = Some(true),
                    "full" => cli.causal = Some(false),
                    _ => return Err(format!("--mask {value}: want causal or full")),
                },
                "--config" => cli.configs.push(
                    Config::parse(value)
                        .ok_or_else(|| format!("--config {value}: want BMxBN/wW/sS"))?,
                ),
                other => return Err(format!("unknown argument {other}")),
            }
        }
        Ok(cli)
    }
}

/// Runs the baselines' script; returns its results and `INFO` lines.
fn run_script(cli: &Cli, cases: &[Case]) -> (Vec<(String, String, Baseline)>, Vec<String>) {
    let mut args = vec![
        cli.script.clone(),
        "--warmup".into(),
        cli.timing.warmup.to_string(),
        "--reps".into(),
        cli.timing.reps.to_string(),
    ];
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
pub fn main(command_line: &str, args: &[String]) -> i32 {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return 0;
    }
    let cli = match Cli::parse(args) {
        Ok(cli) => cli,
        Err(e) => {
            eprintln!("tile-tools attention-bench: {e}\n{USAGE}");
            return 2;
        }
    };
    let Some(device) = tile::device_or_skip("tile-tools attention-bench") else {
        return 0;
    };
    println!(
        "device: {}",
        device.name().unwrap_or_else(|e| e.to_string())
    );
    let cases: Vec<Case> = cases(cli.quick)
        .into_iter()
        .filter(|c| cli.head_dim.is_none_or(|d| d == c.d))
        .filter(|c| cli.causal.is_none_or(|causal| causal == c.causal))
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
    let ours: Vec<_> = cases
        .iter()
        .map(|c| ours(&device, c, &configs, cli.timing, &mut flush))
        .collect();
    drop(flush);
    let (baselines, info) = if cli.ours_only {
        (Vec::new(), vec!["baselines not run (--ours-only)".into()])
    } else {
        run_script(&cli, &cases)
    };
    let tflops = |c: &Case, ms: f64| c.flops() / ms / 1e9;
    let mut status = 0;
    let mut table = String::from(
        "| dtype | BxHxTxD | mask | ours ms | ours TFLOP/s | ours config | Triton ms | Triton TFLOP/s | Triton config | SDPA ms | SDPA TFLOP/s | ours/Triton | ours/SDPA | target | verdict |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
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
        let verdict = match (ours_ms, base.triton_ms) {
            (Some(o), Some(t)) if o <= t => "PASS",
            (Some(_), Some(_)) => "FAIL",
            _ => "-",
        };
        if verdict != "PASS" {
            status = 1;
        }
        let (t_ms, t_tf) = fmt(base.triton_ms);
        let (s_ms, s_tf) = fmt(base.sdpa_ms);
        table.push_str(&format!(
            "| f16 | {} | {} | {} | {ours_tf} | {ours_cfg} | {t_ms} | {t_tf} | {} | {s_ms} | {s_tf} | {} | {} | >= 1.00 | {verdict} |\n",
            c.size(),
            c.mask(),
            fmt(ours_ms).0,
            if base.ok { base.config.clone() } else { format!("{} (check failed)", base.config) },
            ratio(base.triton_ms),
            ratio(base.sdpa_ms),
        ));
    }
    if let Some(path) = &cli.out {
        let report = format!(
            "# attention-bench\n\n- command: `{command_line}`\n- timing: {} warm-up launches, median of {} (each after zeroing 256 MiB), CUDA events\n- ours: the fastest of {} configurations, each checked first; ratios are throughput (ours over theirs)\n{}\n\n{table}",
            cli.timing.warmup,
            cli.timing.reps,
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
            "RESULT f16 4x32x4096x64 causal triton_ms=1.5 sdpa_ms=1.2 max_err=1e-3 ok=1 config=128x64/w4/s3",
        )
        .unwrap();
        assert_eq!((size.as_str(), mask.as_str()), ("4x32x4096x64", "causal"));
        assert_eq!((b.triton_ms, b.sdpa_ms, b.ok), (Some(1.5), Some(1.2), true));
        assert_eq!(b.config, "128x64/w4/s3");
        assert!(parse_result("INFO x").is_none());
        let c = Config::parse("128x64/w8/s3").unwrap();
        assert_eq!((c.block_m, c.block_n, c.warps, c.stages), (128, 64, 8, 3));
        assert_eq!(c.name(), "128x64/w8/s3");
        assert!(Config::parse("128/w8/s3").is_none());
        let all = cases(false);
        assert_eq!(all.len(), 4);
        assert_eq!(all[0].flops(), 4.0 * 4.0 * 32.0 * 4096.0 * 4096.0 * 64.0);
        assert_eq!(all[1].flops() * 2.0, all[0].flops());
        assert!(Cli::parse(&["--config".into(), "x".into()]).is_err());
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let cli = Cli::parse(&args(&["--head-dim", "64", "--mask", "causal"])).unwrap();
        assert_eq!((cli.head_dim, cli.causal), (Some(64), Some(true)));
        assert!(Cli::parse(&args(&["--head-dim", "96"])).is_err());
        assert!(Cli::parse(&args(&["--mask", "sliding"])).is_err());
    }
}
