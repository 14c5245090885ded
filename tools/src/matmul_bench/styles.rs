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
//!
//! Modules: [`mod@ours`] (our side of a case), [`table`] (the rows and their
//! verdicts); the script's results are read as [`StyleBaseline`].

pub mod ours;
pub mod table;

pub use ours::ours;
pub use table::{StyleRow, markdown};

use super::{Baseline, Cli};
use crate::markdown;
use crate::protocol::run_or_skip;
use crate::protocol::script::timing_args;
use crate::timing::{Timing, config_text, time_cases};
use tile::Device;
use tile_dialect::DType;
use tile_examples::matmul_styles::{Style, StyleConfig};

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

    /// Products: [`BATCH`] for a batched case, else 1.
    pub fn batch(&self) -> usize {
        if self.style == Style::Batched {
            BATCH
        } else {
            1
        }
    }

    /// Operations: `2 M N K` (times the batch).
    pub fn flops(&self) -> f64 {
        2.0 * self.batch() as f64 * self.m as f64 * self.n as f64 * self.k as f64
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
        config_text(&[t.block_m, t.block_n, t.block_k], self.warps, self.stages)
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

/// One result of the script: the style and the matmul's fields.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct StyleBaseline {
    /// The style's name ([`Style::name`]).
    pub style: String,
    /// Type, size and what the script measured.
    #[serde(flatten)]
    pub baseline: Baseline,
}

/// The script's cases: `--case STYLE DTYPE MxNxK CONFIGS ...`, each with
/// the configurations of [`configs_for`].
pub fn case_args(cases: &[StyleCase]) -> Vec<String> {
    let mut args = Vec::new();
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
    args
}

/// The baseline of `case` among `results`.
fn find(results: &[StyleBaseline], case: &StyleCase) -> Option<Baseline> {
    results
        .iter()
        .find(|r| {
            r.style == case.style.name()
                && r.baseline.dtype == case.dtype_name()
                && r.baseline.size == case.size()
        })
        .map(|r| r.baseline.clone())
}

/// The whole benchmark on `device` over `cases`: ours, then the script
/// (`python` and the script, or none with `--ours-only`); returns the
/// rows, the script's `INFO` lines and its command line.
pub fn run(
    device: &Device,
    cases: &[StyleCase],
    timing: Timing,
    only: &[StyleRun],
    python: Option<(&str, &std::path::Path)>,
) -> Result<(Vec<StyleRow>, Vec<String>, String), String> {
    let sms = device.limits().multiprocessors;
    let ours = time_cases(device, timing, cases, |c, timer| {
        let runs = if only.is_empty() {
            configs_for(c)
        } else {
            only.to_vec()
        };
        ours(device, c, &runs, timer, sms)
    })?;
    let args = [timing_args(timing), case_args(cases)].concat();
    let script = run_or_skip::<StyleBaseline>(python, &args);
    let rows = cases
        .iter()
        .zip(ours)
        .map(|(case, ours)| StyleRow {
            case: *case,
            ours,
            baseline: find(&script.results, case),
        })
        .collect();
    Ok((rows, script.info, script.command))
}

/// `tile-tools matmul-bench --styles` on `device` (named `name`).
pub fn main(command_line: &str, cli: &Cli, device: &Device, name: &str) -> i32 {
    let cases: Vec<StyleCase> = if cli.style_cases.is_empty() {
        cases(cli.run.quick)
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
    let only: Vec<StyleRun> = cli
        .configs
        .iter()
        .map(|c| StyleRun {
            tiles: StyleConfig {
                block_m: c.tiles.block_m,
                block_n: c.tiles.block_n,
                block_k: c.tiles.block_k,
                group_m: c.tiles.group_m,
            },
            warps: c.warps,
            stages: c.stages,
        })
        .collect();
    let (rows, info, command) = match run(device, &cases, timing, &only, python) {
        Ok(r) => r,
        Err(e) => {
            println!("FAIL: {e}");
            return 1;
        }
    };
    let table = markdown(&rows);
    let ours_are = "both sides: the fastest of the same configurations (`styles::configs_for`), each checked first";
    let facts = super::report_facts(name, command_line, timing, ours_are.into(), &command, info);
    let title = "tile-tools matmul-bench --styles";
    let written = markdown::publish(cli.out.as_deref(), title, &facts, &table);
    i32::from(rows.iter().any(|r| r.ours.is_err()) || !written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::ScriptRun;

    #[test]
    fn results_are_found_by_style_type_and_size() {
        let mut run = ScriptRun::<StyleBaseline>::default();
        run.read(r#"{"protocol": 1, "kind": "result", "style": "b_transposed", "dtype": "bf16", "size": "4096x4096x4096", "triton_ms": 0.2, "torch_ms": 0.18, "ok": true, "config": "128x256x64/w8/s3"}"#)
            .unwrap();
        run.read(r#"{"protocol": 1, "kind": "log", "text": "b_transposed bf16 4096x4096x4096 128x256x64/w8/s3: 0.2000 ms"}"#)
            .unwrap();
        assert!(run.info.is_empty());
        let case = StyleCase {
            style: Style::TransposedB,
            dtype: DType::BF16,
            m: 4096,
            n: 4096,
            k: 4096,
        };
        let b = find(&run.results, &case).unwrap();
        assert_eq!(
            (b.triton_ms, b.torch_ms, b.ok),
            (Some(0.2), Some(0.18), true)
        );
        assert_eq!(b.config, "128x256x64/w8/s3");
        assert!(
            find(
                &run.results,
                &StyleCase {
                    style: Style::Pointers,
                    ..case
                }
            )
            .is_none()
        );
        let args = case_args(&[case]).join(" ");
        assert_eq!(
            args,
            "--case b_transposed bf16 4096x4096x4096 128x256x64/w8/s3,128x128x64/w4/s4,128x256x64/w8/s4"
        );
    }

    #[test]
    fn cases_and_configurations() {
        let case = StyleCase {
            style: Style::Pointers,
            dtype: DType::F16,
            m: 4096,
            n: 4096,
            k: 4096,
        };
        assert_eq!(case.flops(), 2.0 * 4096f64.powi(3));
        assert_eq!(
            StyleCase {
                style: Style::Batched,
                ..case
            }
            .flops(),
            8.0 * 4096f64.powi(3)
        );
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
