//! `tile-tools matmul-bench --styles`: the matmul written the ways users
//! write it ([`tile_examples::matmul_styles`]), ours beside Triton 3.6
//! compiling the same source (`bench/triton_matmul_styles.py`) with the
//! same configurations, and cuBLAS, in one run on one GPU.
//!
//! Each case (style, type, size) runs every configuration of its size
//! class ([`configs_for`]) on both sides; the fastest is reported, as an
//! autotuner would choose. Ours is compiled specialized on its arguments
//! (as Triton specializes), checked on sampled outputs against an f64
//! reference and timed like `tile-tools matmul-bench` (warm-up launches,
//! the median of launches each after a 256 MiB L2 flush).
//!
//! The verdict of a row: ours at least 0.95 of Triton's throughput (1.00
//! for the block-pointer form, our first example), and at 4096^3 and
//! 8192^3 in f16 and bf16 at least 0.90 of cuBLAS's.

use super::Baseline;
use crate::bench::ours::median_ms;
use crate::bench::{FLUSH_BYTES, Timing};
use crate::gpu_check::inputs;
use std::fmt::Write as _;
use std::process::{Command, Stdio};
use tile::{Arg, Buffer, Device, Options};
use tile_dialect::DType;
use tile_examples::matmul_styles::{self, Style, StyleConfig, output_type};
use tile_runtime::Specialization;

/// Products of a batched case.
pub const BATCH: usize = 4;
/// Slices of K of a split-K case.
pub const SPLITS: u32 = 4;

/// One case: a style, an input type and a size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StyleCase {
    /// How the kernel is written.
    pub style: Style,
    /// f16, bf16, f32 (as TF32) or i8.
    pub dtype: DType,
    /// Rows of A and C.
    pub m: usize,
    /// Columns of B and C.
    pub n: usize,
    /// The reduced dimension.
    pub k: usize,
}

impl StyleCase {
    /// `MxNxK`.
    pub fn size(&self) -> String {
        format!("{}x{}x{}", self.m, self.n, self.k)
    }

    /// The type as the script takes it.
    pub fn dtype_name(&self) -> &'static str {
        match self.dtype {
            DType::BF16 => "bf16",
            DType::F32 => "tf32",
            DType::I8 => "i8",
            _ => "f16",
        }
    }

    /// Operations: `2 M N K` (times the batch).
    pub fn flops(&self) -> f64 {
        let batch = if self.style == Style::Batched {
            BATCH as f64
        } else {
            1.0
        };
        2.0 * batch * self.m as f64 * self.n as f64 * self.k as f64
    }

    /// The least ours/Triton throughput that passes.
    pub fn triton_target(&self) -> f64 {
        if self.style == Style::BlockPointers {
            1.00
        } else {
            0.95
        }
    }

    /// The least ours/cuBLAS throughput that passes, where one applies
    /// (f16 and bf16 at 4096^3 and 8192^3).
    pub fn cublas_target(&self) -> Option<f64> {
        let square = self.m == self.n && self.n == self.k && self.m >= 4096;
        (square && matches!(self.dtype, DType::F16 | DType::BF16)).then_some(0.90)
    }
}

/// One configuration: tiles, warps and stages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StyleRun {
    /// Tiles.
    pub tiles: StyleConfig,
    /// Warps per program.
    pub warps: u32,
    /// Pipeline stages.
    pub stages: u32,
}

impl StyleRun {
    /// `BMxBNxBK/wW/sS`.
    pub fn name(&self) -> String {
        let t = &self.tiles;
        format!(
            "{}x{}x{}/w{}/s{}",
            t.block_m, t.block_n, t.block_k, self.warps, self.stages
        )
    }
}

/// The configurations both sides run for `case`: by input width and by
/// the size of M.
pub fn configs_for(case: &StyleCase) -> Vec<StyleRun> {
    let bytes = i64::from(case.dtype.bits() / 8);
    // K per step: 128 bytes of a row.
    let bk = 128 / bytes;
    let list: &[(i64, i64, u32, u32)] = if case.m <= 64 {
        &[(64, 128, 4, 4), (64, 256, 4, 3), (64, 64, 4, 5)]
    } else if case.m < 4096 {
        &[(128, 128, 4, 4), (128, 256, 8, 3), (64, 128, 4, 4)]
    } else {
        &[(128, 256, 8, 3), (128, 128, 4, 4), (128, 256, 8, 4)]
    };
    list.iter()
        .map(|&(block_m, block_n, warps, stages)| StyleRun {
            tiles: StyleConfig {
                block_m,
                block_n,
                block_k: bk,
                group_m: 8,
            },
            warps,
            stages,
        })
        .collect()
}

/// The cases: every style in f16 and bf16 at 4096^3, 8192^3,
/// 1000x3000x2000 and 32x8192x8192, and in TF32 and i8 at 4096^3
/// (`quick`: f16 at 1024^3).
pub fn cases(quick: bool) -> Vec<StyleCase> {
    let mut out = Vec::new();
    for style in Style::ALL {
        let mut add = |dtype, (m, n, k)| {
            out.push(StyleCase {
                style,
                dtype,
                m,
                n,
                k,
            })
        };
        if quick {
            add(DType::F16, (1024, 1024, 1024));
            continue;
        }
        for dtype in [DType::F16, DType::BF16] {
            for size in [
                (4096, 4096, 4096),
                (8192, 8192, 8192),
                (1000, 3000, 2000),
                (32, 8192, 8192),
            ] {
                add(dtype, size);
            }
        }
        add(DType::F32, (4096, 4096, 4096));
        add(DType::I8, (4096, 4096, 4096));
    }
    out
}

/// A case's inputs on the device and on the host (as the kernel reads
/// them: rounded to the type, TF32-rounded for f32).
struct Operands {
    a: Vec<f32>,
    b: Vec<f32>,
    da: Buffer<u8>,
    db: Buffer<u8>,
    dc: Buffer<u8>,
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The bytes of `values` in `d`, and the values as stored.
fn encode(d: DType, values: &[f32]) -> (Vec<u8>, Vec<f32>) {
    let mut bytes = Vec::with_capacity(values.len() * (d.bits() / 8) as usize);
    let mut seen = Vec::with_capacity(values.len());
    for &x in values {
        match d {
            DType::F16 => {
                let h = half::f16::from_f32(x);
                bytes.extend(h.to_bits().to_le_bytes());
                seen.push(h.to_f32());
            }
            DType::BF16 => {
                let h = half::bf16::from_f32(x);
                bytes.extend(h.to_bits().to_le_bytes());
                seen.push(h.to_f32());
            }
            DType::I8 => {
                let i = (x / 2.0).floor().clamp(-4.0, 3.0) as i8;
                bytes.push(i as u8);
                seen.push(f32::from(i));
            }
            _ => {
                bytes.extend(x.to_le_bytes());
                seen.push(crate::gpu_check::matmul::tf32(x));
            }
        }
    }
    (bytes, seen)
}

impl Operands {
    fn new(device: &Device, case: &StyleCase) -> Result<Operands, String> {
        let batch = if case.style == Style::Batched {
            BATCH
        } else {
            1
        };
        let (m, n, k) = (case.m, case.n, case.k);
        let (a_bytes, a) = encode(case.dtype, &inputs(batch * m * k, 41));
        let (b_bytes, b) = encode(case.dtype, &inputs(batch * k * n, 43));
        let out_bytes = (output_type(case.style, case.dtype).bits() / 8) as usize;
        Ok(Operands {
            da: device.upload(&a_bytes).map_err(err)?,
            db: device.upload(&b_bytes).map_err(err)?,
            dc: device.alloc(batch * m * n * out_bytes).map_err(err)?,
            a,
            b,
        })
    }

    fn args(&self, case: &StyleCase) -> Vec<Arg> {
        let (m, n, k) = (case.m, case.n, case.k);
        let mut args = vec![
            Arg::from(&self.da),
            Arg::from(&self.db),
            Arg::from(&self.dc),
        ];
        // B [K, N] row-major, or [N, K] (strides bn, bk) for A @ B^T.
        let (b0, b1) = if case.style == Style::TransposedB {
            (k, 1)
        } else {
            (n, 1)
        };
        args.extend([m, n, k, k, 1, b0, b1, n, 1].map(|x| Arg::from(x as i32)));
        if case.style == Style::Batched {
            args.extend([m * k, k * n, m * n].map(|x| Arg::from(x as i32)));
        }
        args
    }

    /// B's element (kk, j) of product `p`.
    fn b_at(&self, case: &StyleCase, p: usize, kk: usize, j: usize) -> f32 {
        let (n, k) = (case.n, case.k);
        let i = if case.style == Style::TransposedB {
            j * k + kk
        } else {
            kk * n + j
        };
        self.b[p * k * n + i]
    }

    /// Checks 256 sampled outputs (and the corners) of the last product
    /// against the f64 reference: within one rounding of the output type
    /// plus 1e-4 of the sum of the terms' magnitudes; i8 exactly.
    fn check(&self, device: &Device, case: &StyleCase) -> Result<(), String> {
        let raw: Vec<u8> = device.download(&self.dc).map_err(err)?;
        let (m, n, k) = (case.m, case.n, case.k);
        let p = if case.style == Style::Batched {
            BATCH - 1
        } else {
            0
        };
        let out = output_type(case.style, case.dtype);
        let at = |i: usize| -> f64 {
            let e = p * m * n + i;
            match out {
                DType::F16 => f64::from(
                    half::f16::from_bits(u16::from_le_bytes([raw[2 * e], raw[2 * e + 1]])).to_f32(),
                ),
                DType::BF16 => f64::from(
                    half::bf16::from_bits(u16::from_le_bytes([raw[2 * e], raw[2 * e + 1]]))
                        .to_f32(),
                ),
                DType::I32 => f64::from(i32::from_le_bytes(
                    raw[4 * e..4 * e + 4].try_into().expect("4 bytes"),
                )),
                _ => f64::from(f32::from_le_bytes(
                    raw[4 * e..4 * e + 4].try_into().expect("4 bytes"),
                )),
            }
        };
        let rounding = match out {
            DType::F16 => 2f64.powi(-11),
            DType::BF16 => 2f64.powi(-8),
            _ => 0.0,
        };
        let mut points: Vec<(usize, usize)> = vec![(0, 0), (m - 1, n - 1), (0, n - 1), (m - 1, 0)];
        let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..256 {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            points.push(((s >> 33) as usize % m, (s >> 13) as usize % n));
        }
        for (i, j) in points {
            let (mut want, mut magnitude) = (0f64, 0f64);
            for kk in 0..k {
                let t = f64::from(self.a[p * m * k + i * k + kk])
                    * f64::from(self.b_at(case, p, kk, j));
                want += t;
                magnitude += t.abs();
            }
            let got = at(i * n + j);
            let allowed = if out == DType::I32 {
                0.0
            } else {
                want.abs() * rounding + 1e-4 * magnitude
            };
            if !got.is_finite() || (got - want).abs() > allowed {
                return Err(format!("C[{i}, {j}] = {got}, want {want}"));
            }
        }
        Ok(())
    }
}

/// The grid of `case` with `run`'s tiles (`sms` programs for a
/// persistent kernel).
fn grid(case: &StyleCase, run: &StyleRun, sms: u32) -> (u32, u32) {
    let t = &run.tiles;
    let tiles = (case.m.div_ceil(t.block_m as usize) * case.n.div_ceil(t.block_n as usize)) as u32;
    match case.style {
        Style::Batched => (tiles, BATCH as u32),
        Style::SplitK => (tiles, SPLITS),
        Style::Persistent => (tiles.min(sms), 1),
        _ => (tiles, 1),
    }
}

/// Our best time on `case` over `runs`, and the
/// configuration; one that fails to compile, load or check is reported
/// and skipped.
pub fn ours(
    device: &Device,
    case: &StyleCase,
    runs: &[StyleRun],
    timing: Timing,
    flush: &mut Buffer<u8>,
    sms: u32,
) -> Result<(f64, StyleRun), String> {
    let context = tile::context().map_err(err)?;
    let mut operands = Operands::new(device, case)?;
    let args = operands.args(case);
    let mut best: Option<(f64, StyleRun)> = None;
    let mut errors = Vec::new();
    for &run in runs {
        let mut attempt = |operands: &mut Operands| -> Result<f64, String> {
            let kernel =
                matmul_styles::kernel(&context, case.style, run.tiles, case.dtype).map_err(err)?;
            let options = Options {
                num_stages: run.stages,
                ..Options::with_warps(run.warps)
            }
            .specialized(Specialization::of(&args));
            let compiled = tile::compile(&kernel, &options).map_err(err)?;
            let loaded = device.load(&compiled.ptx, &compiled.spec).map_err(err)?;
            let g = grid(case, &run, sms);
            // Split-K adds into C.
            device.zero_async(&mut operands.dc).map_err(err)?;
            loaded.launch(g, &args).map_err(err)?;
            operands.check(device, case)?;
            median_ms(device, timing, flush, || loaded.launch_async(g, &args))
        };
        let label = format!(
            "{} {} {}",
            case.style.name(),
            case.dtype_name(),
            case.size()
        );
        match attempt(&mut operands) {
            Ok(ms) => {
                println!("  ours {label} {}: {ms:.4} ms", run.name());
                if best.is_none_or(|(b, _)| ms < b) {
                    best = Some((ms, run));
                }
            }
            Err(e) => {
                println!("  ours {label} {}: {e}", run.name());
                errors.push(format!("{}: {e}", run.name()));
            }
        }
    }
    best.ok_or_else(|| errors.join("; "))
}

/// Reads `RESULT <style> <dtype> <size> key=value...`.
pub fn parse_result(line: &str) -> Option<ScriptResult> {
    let mut words = line.split_whitespace();
    if words.next() != Some("RESULT") {
        return None;
    }
    let style = words.next()?.to_string();
    let rest: Vec<&str> = words.collect();
    let (dtype, size, baseline) = super::parse_result(&format!("RESULT {}", rest.join(" ")))?;
    Some((style, dtype, size, baseline))
}

/// One row of the table.
#[derive(Clone, Debug)]
pub struct StyleRow {
    /// The case.
    pub case: StyleCase,
    /// Our best median (ms) and configuration.
    pub ours: Result<(f64, StyleRun), String>,
    /// Triton's and cuBLAS's.
    pub baseline: Option<Baseline>,
}

impl StyleRow {
    /// Ours over Triton, in throughput (Triton's time over ours).
    pub fn vs_triton(&self) -> Option<f64> {
        let ours = self.ours.as_ref().ok()?.0;
        Some(self.baseline.as_ref()?.triton_ms? / ours)
    }

    /// Ours over cuBLAS, in throughput.
    pub fn vs_cublas(&self) -> Option<f64> {
        let ours = self.ours.as_ref().ok()?.0;
        Some(self.baseline.as_ref()?.torch_ms? / ours)
    }

    /// `PASS` when every target that applies is met, `FAIL` otherwise or
    /// when ours failed, `-` without a Triton time.
    pub fn verdict(&self) -> &'static str {
        if self.ours.is_err() {
            return "FAIL (ours failed)";
        }
        let Some(t) = self.vs_triton() else {
            return "-";
        };
        let cublas_ok = match (self.case.cublas_target(), self.vs_cublas()) {
            (Some(target), Some(r)) => r >= target,
            _ => true,
        };
        if t >= self.case.triton_target() && cublas_ok {
            "PASS"
        } else {
            "FAIL"
        }
    }
}

/// The rows as a Markdown table.
pub fn markdown(rows: &[StyleRow]) -> String {
    let mut out = String::from(
        "| style | dtype | MxNxK | ours TFLOP/s | ours config | Triton TFLOP/s | Triton config | cuBLAS TFLOP/s | ours/Triton | ours/cuBLAS | targets | verdict |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        let c = &r.case;
        let tf = |ms: Option<f64>| {
            ms.map_or("-".to_string(), |x| {
                format!("{:.0}", c.flops() / (x * 1e-3) / 1e12)
            })
        };
        let (ours_tf, config) = match &r.ours {
            Ok((ms, run)) => (tf(Some(*ms)), run.name()),
            Err(_) => ("-".into(), "-".into()),
        };
        let b = r.baseline.clone().unwrap_or_default();
        let ratio = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.3}"));
        let targets = match c.cublas_target() {
            Some(t) => format!(">= {:.2} / >= {t:.2}", c.triton_target()),
            None => format!(">= {:.2}", c.triton_target()),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {ours_tf} | {config} | {} | {} | {} | {} | {} | {targets} | {} |",
            c.style.name(),
            c.dtype_name(),
            c.size(),
            tf(b.triton_ms),
            if b.config.is_empty() { "-" } else { &b.config },
            tf(b.torch_ms),
            ratio(r.vs_triton()),
            ratio(r.vs_cublas()),
            r.verdict(),
        );
    }
    out
}

/// One `RESULT` line of the script: style, type, size and what it
/// measured.
pub type ScriptResult = (String, String, String, Baseline);

/// Runs the Triton script on `cases`; returns its results, its `INFO`
/// lines and the command line.
pub fn run_script(
    python: &str,
    script: &std::path::Path,
    timing: Timing,
    cases: &[StyleCase],
) -> (Vec<ScriptResult>, Vec<String>, String) {
    let mut args: Vec<String> = vec![
        script.display().to_string(),
        "--warmup".into(),
        timing.warmup.to_string(),
        "--reps".into(),
        timing.reps.to_string(),
    ];
    for c in cases {
        let configs: Vec<String> = configs_for(c).iter().map(StyleRun::name).collect();
        args.extend([
            "--case".into(),
            c.style.name().into(),
            c.dtype_name().into(),
            c.size(),
            configs.join(","),
        ]);
    }
    let command = format!("{python} {}", args.join(" "));
    println!("running {command}");
    let output = Command::new(python)
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
                } else if line.starts_with("INFO triton") || line.starts_with("SKIP") {
                    info.push(line.to_string());
                }
            }
        }
        Err(e) => info.push(format!("cannot run {python}: {e}")),
    }
    (results, info, command)
}

/// The whole benchmark on `device` over `cases`: ours, then the script;
/// returns the rows, the script's `INFO` lines and its command line.
pub fn run(
    device: &Device,
    cases: &[StyleCase],
    timing: Timing,
    only: &[StyleRun],
    python: Option<(&str, &std::path::Path)>,
) -> Result<(Vec<StyleRow>, Vec<String>, String), String> {
    let sms = device.limits().multiprocessors;
    let mut flush = device.alloc::<u8>(FLUSH_BYTES).map_err(err)?;
    let ours: Vec<_> = cases
        .iter()
        .map(|c| {
            let runs = if only.is_empty() {
                configs_for(c)
            } else {
                only.to_vec()
            };
            ours(device, c, &runs, timing, &mut flush, sms)
        })
        .collect();
    drop(flush);
    let (baselines, info, command) = match python {
        Some((python, script)) => run_script(python, script, timing, cases),
        None => (
            Vec::new(),
            vec!["baselines not run (--ours-only)".into()],
            "-".into(),
        ),
    };
    let rows = cases
        .iter()
        .zip(ours)
        .map(|(case, ours)| StyleRow {
            case: *case,
            ours,
            baseline: baselines
                .iter()
                .find(|(s, d, z, _)| {
                    s == case.style.name() && d == case.dtype_name() && *z == case.size()
                })
                .map(|(_, _, _, b)| b.clone()),
        })
        .collect();
    Ok((rows, info, command))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_rows_and_verdicts() {
        let (style, dtype, size, b) = parse_result(
            "RESULT b_transposed bf16 4096x4096x4096 triton_ms=0.2000 torch_ms=0.1800 ok=1 config=128x256x64/w8/s3",
        )
        .unwrap();
        assert_eq!(
            (style.as_str(), dtype.as_str(), size.as_str()),
            ("b_transposed", "bf16", "4096x4096x4096")
        );
        assert_eq!(
            (b.triton_ms, b.torch_ms, b.ok),
            (Some(0.2), Some(0.18), true)
        );
        assert!(parse_result("INFO triton=3.6.0").is_none());
        let case = StyleCase {
            style: Style::Pointers,
            dtype: DType::F16,
            m: 4096,
            n: 4096,
            k: 4096,
        };
        let run = configs_for(&case)[0];
        let row = |ours_ms: f64, triton_ms: f64, torch_ms: f64| StyleRow {
            case,
            ours: Ok((ours_ms, run)),
            baseline: Some(Baseline {
                triton_ms: Some(triton_ms),
                torch_ms: Some(torch_ms),
                ok: true,
                config: String::new(),
            }),
        };
        // 0.95 of Triton's throughput and 0.90 of cuBLAS's pass; less fails.
        assert_eq!(row(0.20, 0.191, 0.181).verdict(), "PASS");
        assert_eq!(row(0.21, 0.19, 0.18).verdict(), "FAIL");
        assert_eq!(row(0.20, 0.20, 0.17).verdict(), "FAIL");
        // The block-pointer form must match Triton.
        let block = StyleRow {
            case: StyleCase {
                style: Style::BlockPointers,
                ..case
            },
            ..row(0.20, 0.195, 0.19)
        };
        assert_eq!(block.verdict(), "FAIL");
        // No cuBLAS target off the square sizes.
        let odd = StyleRow {
            case: StyleCase {
                m: 1000,
                n: 3000,
                k: 2000,
                ..case
            },
            ..row(0.10, 0.10, 0.02)
        };
        assert_eq!(odd.verdict(), "PASS");
        assert_eq!(case.flops(), 2.0 * 4096f64.powi(3));
        // The default list: every style, f16 and bf16 at four sizes, TF32
        // and i8 at one.
        assert_eq!(cases(false).len(), Style::ALL.len() * 10);
        assert_eq!(
            configs_for(&StyleCase { m: 32, ..case })[0].tiles.block_m,
            64
        );
        assert_eq!(
            configs_for(&StyleCase {
                dtype: DType::I8,
                ..case
            })[0]
                .tiles
                .block_k,
            128
        );
    }

    #[test]
    fn style_cases_parse() {
        let parse = |args: &str| match crate::parse(&format!("matmul-bench {args}")) {
            Ok(crate::Command::MatmulBench(cli)) => Ok(cli),
            Ok(_) => Err("another subcommand".to_string()),
            Err(e) => Err(e.to_string()),
        };
        let cli = parse("--styles --style-case pointers:tf32:1000x3000x2000").unwrap();
        assert!(cli.styles);
        assert_eq!(cli.style_cases[0].style, Style::Pointers);
        assert_eq!(cli.style_cases[0].dtype, DType::F32);
        assert_eq!(cli.style_cases[0].size(), "1000x3000x2000");
        assert!(parse("--styles --style-case tutorial:f16:1x1x1").is_err());
        assert!(parse("--style-case pointers:f16:1x1x1").is_err());
    }
}
