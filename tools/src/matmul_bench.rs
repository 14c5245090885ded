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

pub mod cli;
pub mod styles;
mod table;

pub use cli::Cli;

use crate::bench::ours::median_ms;
use crate::bench::{FLUSH_BYTES, Timing};
use crate::gpu_check::{from_bits, inputs, to_bits};
use std::process::{Command, Stdio};
use tile::{Arg, Buffer, Device, Options};
use tile_dialect::DType;
use tile_examples::matmul::{self, Epilogue, MatmulConfig};
use tile_runtime::Specialization;

pub use table::{Row, markdown};

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
    /// Reads `BMxBNxBK/wW/sS`.
    pub fn parse(text: &str) -> Option<Config> {
        let (tiles, rest) = text.split_once("/w")?;
        let (warps, stages) = rest.split_once("/s")?;
        let t: Vec<i64> = tiles
            .split('x')
            .map(|x| x.parse().ok())
            .collect::<Option<_>>()?;
        let [block_m, block_n, block_k] = t[..] else {
            return None;
        };
        Some(Config {
            tiles: MatmulConfig {
                block_m,
                block_n,
                block_k,
                ..MatmulConfig::default()
            },
            warps: warps.parse().ok()?,
            stages: stages.parse().ok()?,
        })
    }

    /// `BMxBNxBK/wW/sS`.
    pub fn name(&self) -> String {
        let t = &self.tiles;
        format!(
            "{}x{}x{}/w{}/s{}",
            t.block_m, t.block_n, t.block_k, self.warps, self.stages
        )
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
    .map(|(block_m, block_n, block_k, warps, stages)| Config {
        tiles: MatmulConfig {
            block_m,
            block_n,
            block_k,
            ..MatmulConfig::default()
        },
        warps,
        stages,
    });
    tuned.chain(more).collect()
}

/// A case's inputs on the device and on the host.
struct Operands {
    a: Vec<f32>,
    b: Vec<f32>,
    da: Buffer<u16>,
    db: Buffer<u16>,
    dc: Buffer<u16>,
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

impl Operands {
    fn new(device: &Device, case: &Case) -> Result<Operands, String> {
        let d = case.dtype;
        let round = |v: Vec<f32>| -> (Vec<f32>, Vec<u16>) {
            let bits: Vec<u16> = v.iter().map(|&x| to_bits(d, x / 8.0)).collect();
            (bits.iter().map(|&b| from_bits(d, b)).collect(), bits)
        };
        let (a, a_bits) = round(inputs(case.m * case.k, 41));
        let (b, b_bits) = round(inputs(case.k * case.n, 43));
        Ok(Operands {
            da: device.upload(&a_bits).map_err(err)?,
            db: device.upload(&b_bits).map_err(err)?,
            dc: device.alloc(case.m * case.n).map_err(err)?,
            a,
            b,
        })
    }

    fn args(&self, case: &Case) -> Vec<Arg> {
        let (m, n, k) = (case.m, case.n, case.k);
        let mut args = vec![
            Arg::from(&self.da),
            Arg::from(&self.db),
            Arg::from(&self.dc),
        ];
        args.extend([m as i32, n as i32, k as i32].map(Arg::from));
        args.extend([k, 1, n, 1, n, 1].map(|s| Arg::from(s as i64)));
        args
    }

    /// Checks 1024 sampled outputs (and the corners) against the f64
    /// reference: within one unit of the output type's last place, plus
    /// 1e-4 of the sum of the terms' magnitudes (the f32 accumulation).
    fn check(&self, device: &Device, case: &Case) -> Result<(), String> {
        let c: Vec<u16> = device.download(&self.dc).map_err(err)?;
        let (m, n, k) = (case.m, case.n, case.k);
        let ulp = if case.dtype == DType::BF16 {
            2f64.powi(-7)
        } else {
            2f64.powi(-10)
        };
        let mut points: Vec<(usize, usize)> = vec![(0, 0), (m - 1, n - 1), (0, n - 1), (m - 1, 0)];
        let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..1024 {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            points.push(((s >> 33) as usize % m, (s >> 13) as usize % n));
        }
        for (i, j) in points {
            let (mut want, mut magnitude) = (0f64, 0f64);
            for kk in 0..k {
                let t = f64::from(self.a[i * k + kk]) * f64::from(self.b[kk * n + j]);
                want += t;
                magnitude += t.abs();
            }
            let got = f64::from(from_bits(case.dtype, c[i * n + j]));
            if !got.is_finite() || (got - want).abs() > want.abs() * ulp + 1e-4 * magnitude {
                return Err(format!("C[{i}, {j}] = {got}, want {want}"));
            }
        }
        Ok(())
    }
}

/// Our best time on `case` over `configs`, and its configuration; a
/// configuration that fails to compile, load or check is skipped, and the
/// errors are returned when none ran.
fn ours(
    device: &Device,
    case: &Case,
    configs: &[Config],
    timing: Timing,
    flush: &mut Buffer<u8>,
) -> Result<(f64, Config), String> {
    let context = tile::context().map_err(err)?;
    let operands = Operands::new(device, case)?;
    let args = operands.args(case);
    let mut best: Option<(f64, Config)> = None;
    let mut errors = Vec::new();
    for &config in configs {
        let mut attempt = || -> Result<f64, String> {
            let kernel = matmul::matmul(
                &context,
                config.tiles,
                case.dtype,
                case.dtype,
                None,
                Epilogue::None,
            )
            .map_err(err)?;
            let options = Options {
                num_stages: config.stages,
                ..Options::with_warps(config.warps)
            }
            .specialized(Specialization::of(&args));
            let compiled = tile::compile(&kernel, &options).map_err(err)?;
            let loaded = device.load(&compiled.ptx, &compiled.spec).map_err(err)?;
            let t = &config.tiles;
            let grid =
                (case.m.div_ceil(t.block_m as usize) * case.n.div_ceil(t.block_n as usize)) as u32;
            loaded.launch(grid, &args).map_err(err)?;
            operands.check(device, case)?;
            median_ms(device, timing, flush, || loaded.launch_async(grid, &args))
        };
        match attempt() {
            Ok(ms) => {
                println!(
                    "  ours {} {} {}: {ms:.4} ms",
                    case.dtype_name(),
                    case.size(),
                    config.name()
                );
                if best.is_none_or(|(b, _)| ms < b) {
                    best = Some((ms, config));
                }
            }
            Err(e) => {
                println!(
                    "  ours {} {} {}: {e}",
                    case.dtype_name(),
                    case.size(),
                    config.name()
                );
                errors.push(format!("{}: {e}", config.name()));
            }
        }
    }
    best.ok_or_else(|| errors.join("; "))
}

/// What the script measured for one case.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Baseline {
    /// Triton's median, ms.
    pub triton_ms: Option<f64>,
    /// cuBLAS's median, ms.
    pub torch_ms: Option<f64>,
    /// Whether Triton's output matched torch's.
    pub ok: bool,
    /// The configuration Triton's autotuner chose.
    pub config: String,
}

/// Reads `RESULT <dtype> <size> key=value...`: the dtype, the size and the
/// baseline; `None` for other lines.
pub fn parse_result(line: &str) -> Option<(String, String, Baseline)> {
    let mut words = line.split_whitespace();
    if words.next() != Some("RESULT") {
        return None;
    }
    let (dtype, size) = (words.next()?.to_string(), words.next()?.to_string());
    let mut b = Baseline::default();
    for w in words {
        let Some((key, value)) = w.split_once('=') else {
            continue;
        };
        let number = value.parse::<f64>().ok();
        match key {
            "triton_ms" => b.triton_ms = number,
            "torch_ms" => b.torch_ms = number,
            "ok" => b.ok = value == "1",
            "config" => b.config = value.to_string(),
            _ => {}
        }
    }
    Some((dtype, size, b))
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
        return styles_main(command_line, cli, &device, &name);
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
    let mut flush = match device.alloc::<u8>(FLUSH_BYTES) {
        Ok(f) => f,
        Err(e) => {
            println!("FAIL: {e}");
            return 1;
        }
    };
    let ours: Vec<Result<(f64, Config), String>> = cases
        .iter()
        .map(|case| ours(&device, case, &configs, cli.run.timing(), &mut flush))
        .collect();
    drop(flush);
    let (baselines, info, command) = if cli.ours_only {
        (
            Vec::new(),
            vec!["baselines not run (--ours-only)".into()],
            String::from("-"),
        )
    } else {
        run_script(cli, &cases)
    };
    let rows: Vec<Row> = cases
        .iter()
        .zip(ours)
        .map(|(case, ours)| {
            let baseline = baselines
                .iter()
                .find(|(d, s, _)| d == case.dtype_name() && *s == case.size())
                .map(|(_, _, b)| b.clone());
            Row::new(*case, ours, baseline)
        })
        .collect();
    let table = markdown(&rows);
    let mut status = i32::from(rows.iter().any(|r| r.ours.is_err()));
    if let Some(path) = &cli.out {
        let report = format!(
            "# tile-tools matmul-bench\n\n- device: {name}\n- command: `{command_line}`\n\
             - timing: {} warm-up launches, median of {} (each after zeroing 256 MiB), CUDA events\n\
             - ours: the fastest of {} configurations, each checked first\n\
             - baselines: `{command}`\n{}\n\n{table}",
            cli.run.timing().warmup,
            cli.run.timing().reps,
            configs.len(),
            info.iter()
                .map(|l| format!("- {l}"))
                .collect::<Vec<_>>()
                .join("\n"),
        );
        if !crate::bench::write_report(path, &report) {
            status = 1;
        }
    }
    println!("\n{table}");
    status
}

/// `tile-tools matmul-bench --styles` on `device` (named `name`).
fn styles_main(command_line: &str, cli: &Cli, device: &Device, name: &str) -> i32 {
    let cases: Vec<styles::StyleCase> = if cli.style_cases.is_empty() {
        styles::cases(cli.run.quick)
            .into_iter()
            .filter(|c| {
                cli.style_names.is_empty() || cli.style_names.iter().any(|s| s == c.style.name())
            })
            .collect()
    } else {
        cli.style_cases.clone()
    };
    let timing = cli.run.timing();
    let python = (!cli.ours_only).then_some((cli.python.as_str(), cli.styles_script.as_path()));
    let only: Vec<styles::StyleRun> = cli
        .configs
        .iter()
        .map(|c| styles::StyleRun {
            tiles: tile_examples::matmul_styles::StyleConfig {
                block_m: c.tiles.block_m,
                block_n: c.tiles.block_n,
                block_k: c.tiles.block_k,
                group_m: c.tiles.group_m,
            },
            warps: c.warps,
            stages: c.stages,
        })
        .collect();
    let (rows, info, command) = match styles::run(device, &cases, timing, &only, python) {
        Ok(r) => r,
        Err(e) => {
            println!("FAIL: {e}");
            return 1;
        }
    };
    let table = styles::markdown(&rows);
    let mut status = i32::from(rows.iter().any(|r| r.ours.is_err()));
    if let Some(path) = &cli.out {
        let report = format!(
            "# tile-tools matmul-bench --styles\n\n- device: {name}\n- command: `{command_line}`\n\
             - timing: {} warm-up launches, median of {} (each after zeroing 256 MiB), CUDA events\n\
             - both sides: the fastest of the same configurations (`styles::configs_for`), each checked first\n\
             - baselines: `{command}`\n{}\n\n{table}",
            timing.warmup,
            timing.reps,
            info.iter()
                .map(|l| format!("- {l}"))
                .collect::<Vec<_>>()
                .join("\n"),
        );
        if !crate::bench::write_report(path, &report) {
            status = 1;
        }
    }
    println!("\n{table}");
    status
}

/// Runs the Triton script on the cases; returns its results, its `INFO`
/// lines and the command line.
fn run_script(cli: &Cli, cases: &[Case]) -> (Vec<(String, String, Baseline)>, Vec<String>, String) {
    let mut args: Vec<String> = vec![
        cli.script.display().to_string(),
        "--warmup".into(),
        cli.run.timing().warmup.to_string(),
        "--reps".into(),
        cli.run.timing().reps.to_string(),
    ];
    for c in cases {
        args.extend(["--case".into(), c.dtype_name().into(), c.size()]);
    }
    let command = format!("{} {}", cli.python, args.join(" "));
    println!("running {command}");
    let output = Command::new(&cli.python)
        .args(&args)
        .stderr(Stdio::inherit())
        .output();
    let (mut results, mut info) = (Vec::new(), Vec::new());
    match output {
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
    (results, info, command)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_read_and_cases_cover_the_issue() {
        let (d, s, b) = parse_result(
            "RESULT bf16 4096x4096x4096 triton_ms=0.2100 torch_ms=0.1900 max_err=1e-3 ok=1 config=128x256x64/w8/s3",
        )
        .unwrap();
        assert_eq!((d.as_str(), s.as_str()), ("bf16", "4096x4096x4096"));
        assert_eq!(b.triton_ms, Some(0.21));
        assert_eq!(b.torch_ms, Some(0.19));
        assert!(b.ok);
        assert_eq!(b.config, "128x256x64/w8/s3");
        let (_, _, b) = parse_result("RESULT f16 1x1x1 triton_ms=- torch_ms=- ok=0").unwrap();
        assert_eq!((b.triton_ms, b.ok), (None, false));
        assert!(parse_result("INFO triton=3.6.0").is_none());
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
    }
}
