//! `tile-tools shapes-bench`: memory-bound kernels at several tile shapes
//! ([`tile_examples::tile_shapes`]: softmax and LayerNorm of `BM` rows a
//! program, a 2-D scale-bias with broadcasts, tiled transposes, column
//! sums, bias + tanh-GELU accurate and fast), ours beside Triton 3.6
//! compiling the same source (`bench/triton_shapes.py`) with the same
//! tiles, warps and stages, in one run on one GPU.
//!
//! For each case (kernel, type, size) and each of its configurations
//! ([`cases::configs_for`], or `--config`): ours is compiled specialized
//! on its arguments (through `tile::jit`, as Triton specializes), run on
//! poisoned, guarded outputs and checked against a CPU reference on
//! sampled outputs ([`check`]), then timed as every benchmark here times
//! ([`crate::timing`]: warm-up launches, the median of launches each
//! after a 256 MiB L2 flush, CUDA events); a device-to-device copy of the
//! case's `[M, N]` tensor is timed the same way. The script checks
//! Triton's output against PyTorch's and times it the same way.
//!
//! Verdict of a row: PASS when ours takes at most 1.05x Triton's time;
//! transposes also at most 1.10x the copy's; the fast GELU (PTX
//! `tanh.approx.f32` on both sides, relative error at most 2^-10.987) at
//! most 1.00x Triton's fast one.
//!
//! Modules: [`cases`] (cases, configurations, bytes, targets, `--case`),
//! [`mod@ours`] (our side), [`check`] (the references and bounds),
//! [`baselines`] (the script's command line and results), [`table`].

pub mod baselines;
pub mod cases;
pub mod check;
pub mod ours;
pub mod table;

use crate::markdown;
use crate::protocol::{ScriptRun, run_or_skip};
use crate::timing::{RunArgs, Timer, Timing};
use baselines::Baseline;
use cases::{Case, CaseFilter, Config, configs_for};
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};
use table::Row;
use tile::Device;
use tile_examples::tile_shapes::Cover;

/// Reads `BMxBN/wW/sS` (a value parser of clap).
fn parse_config(text: &str) -> Result<Config, String> {
    Config::parse(text).ok_or_else(|| format!("want BMxBN/wW/sS (64x64/w4/s3), got {text:?}"))
}

/// The command line of `tile-tools shapes-bench`.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct Cli {
    /// The run's size and timing.
    #[command(flatten)]
    pub run: RunArgs,
    /// Only the default cases of this kernel, or of this kernel and type,
    /// or exactly this case (any size) [default: every case].
    #[arg(long = "case", value_name = "KERNEL[:DTYPE[:MxN]]", value_parser = CaseFilter::parse)]
    pub cases: Vec<CaseFilter>,
    /// Only these configurations, for every case selected (softmax and the
    /// LayerNorms take those whose BN, their BLOCK_N, is at least N)
    /// [default: each case's own].
    #[arg(long = "config", value_name = "BMxBN/wW/sS", value_parser = parse_config)]
    pub configs: Vec<Config>,
    /// No Triton run (for profiling ours alone).
    #[arg(long)]
    pub ours_only: bool,
    /// Ours compiled with the programs started in the order launched
    /// (`Options::launch_order` off: no `tile-launch-order`), to compare
    /// with the default in the same session.
    #[arg(long)]
    pub keep_launch_order: bool,
    /// The Triton script.
    #[arg(long, value_name = "PATH", default_value = "bench/triton_shapes.py")]
    pub script: PathBuf,
    /// The Python that runs it.
    #[arg(long, value_name = "PATH", default_value = "python3")]
    pub python: String,
    /// Where the Markdown report goes.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Compile only, without a GPU: write each selected case's PTX in each
    /// configuration, specialized as the GPU's JIT compiles it, into this
    /// folder (`KERNEL-DTYPE-MxN-BMxBN-wW-sS.ptx`), one path a line.
    #[arg(long, value_name = "DIR")]
    pub ptx_only: Option<PathBuf>,
}

impl Cli {
    /// The configurations `case` runs in: `--config`'s (for a row kernel,
    /// those whose `BLOCK_N` covers a row), else its own.
    pub fn configs(&self, case: &Case) -> Vec<Config> {
        if self.configs.is_empty() {
            return configs_for(case);
        }
        let rows = case.kernel.cover() == Cover::Rows;
        self.configs
            .iter()
            .copied()
            .filter(|c| !rows || c.tiles.bn as usize >= case.n)
            .collect()
    }
}

/// Ours on every case, timed by one [`Timer`] whose flush buffer is freed
/// before this returns (the script runs next); an error when the flush
/// buffer cannot be had.
fn run_ours(
    device: &Device,
    cli: &Cli,
    cases: &[Case],
    timing: Timing,
) -> Result<Vec<ours::Measured>, String> {
    let mut timer = Timer::new(device, timing)?;
    Ok(cases
        .iter()
        .map(|case| {
            println!("{}", case.label());
            ours::ours(
                device,
                case,
                &cli.configs(case),
                &mut timer,
                !cli.keep_launch_order,
            )
        })
        .collect())
}

/// The rows: each case's configurations, ours beside the script's.
fn rows(
    cli: &Cli,
    cases: &[Case],
    ours: Vec<ours::Measured>,
    script: &ScriptRun<Baseline>,
) -> Vec<Row> {
    let mut rows = Vec::new();
    for (case, measured) in cases.iter().zip(ours) {
        let copy_ms = measured.copy_ms.ok();
        for (config, time) in cli.configs(case).into_iter().zip(measured.times) {
            rows.push(Row {
                case: *case,
                config,
                ours: time,
                copy_ms,
                baseline: baselines::find(&script.results, case, &config),
            });
        }
    }
    rows
}

/// The facts of the report: device, date, command, timing, what each side
/// is, the script's command and `info` lines.
fn facts(
    device: &str,
    command_line: &str,
    timing: Timing,
    script: &ScriptRun<Baseline>,
) -> Vec<String> {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut facts = vec![
        format!("device: {device}"),
        format!("date: unix time {seconds}"),
        format!("command: `{command_line}`"),
        format!("timing: {}", timing.describe()),
        "ours: compiled specialized on its arguments (tile::jit), checked on sampled outputs \
         against an f64 reference (every output element written, guards untouched), then timed"
            .into(),
        "copy: a device-to-device copy of each case's [M, N] tensor, timed the same way; \
         GB/s count every input read once and every output written once"
            .into(),
        "gelu: accurate tanh (ours: polynomial and ex2.approx, within 4 ulp; Triton: libdevice \
         tanh); gelu_fast: tanh.approx.f32 on both sides (max relative error 2^-10.987, PTX ISA)"
            .into(),
        format!("baselines: `{}`", script.command),
    ];
    facts.extend(script.info.iter().cloned());
    facts
}

/// `tile-tools shapes-bench`; returns the exit status (1 when one of our
/// configurations failed its check or could not run, or the report could
/// not be written). Without a GPU it prints `skipped: no CUDA device` and
/// returns 0.
pub fn main(command_line: &str, cli: &Cli) -> i32 {
    if let Some(dir) = &cli.ptx_only {
        return write_ptx(cli, dir);
    }
    let Some(device) = tile::device_or_skip("tile-tools shapes-bench") else {
        return 0;
    };
    let name = device.name().unwrap_or_else(|e| e.to_string());
    println!("device: {name}");
    let mut cases = cases::select(&cli.cases, cli.run.quick);
    cases.retain(|c| {
        let any = !cli.configs(c).is_empty();
        if !any {
            println!(
                "{}: no --config covers its rows (BLOCK_N < N): left out",
                c.label()
            );
        }
        any
    });
    let timing = cli.run.timing();
    let ours = match run_ours(&device, cli, &cases, timing) {
        Ok(ours) => ours,
        Err(e) => {
            println!("FAIL: {e}");
            return 1;
        }
    };
    let python = (!cli.ours_only).then_some((cli.python.as_str(), cli.script.as_path()));
    let args = baselines::script_args(&cases, timing, |c| cli.configs(c));
    let script = run_or_skip::<Baseline>(python, &args);
    let rows = rows(cli, &cases, ours, &script);
    let fastest = table::fastest(&rows);
    for f in &fastest {
        println!("{}", f.line());
    }
    let table = table::markdown(&rows);
    // The report: both tables; the output: the main one, last.
    let body = format!(
        "The fastest configuration of each side, per case:\n\n{}\nEvery configuration:\n\n{table}",
        table::fastest_markdown(&fastest)
    );
    let facts = facts(&name, command_line, timing, &script);
    let title = "tile-tools shapes-bench";
    let written = cli
        .out
        .as_deref()
        .is_none_or(|path| markdown::write_report(path, &markdown::report(title, &facts, &body)));
    println!("\n{table}");
    i32::from(rows.iter().any(|r| r.ours.is_err()) || !written)
}

/// `--ptx-only DIR`: each selected case's PTX in each configuration into
/// `dir`; 1 when one did not compile or could not be written.
fn write_ptx(cli: &Cli, dir: &std::path::Path) -> i32 {
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("{}: {e}", dir.display());
        return 1;
    }
    let mut status = 0;
    for case in cases::select(&cli.cases, cli.run.quick) {
        for config in cli.configs(&case) {
            let name = format!("{} {}", case.label(), config.name());
            let file: String = name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '_' {
                        c
                    } else {
                        '-'
                    }
                })
                .collect();
            let path = dir.join(format!("{file}.ptx"));
            let written = ours::ptx(&case, &config, !cli.keep_launch_order)
                .and_then(|ptx| std::fs::write(&path, ptx).map_err(|e| e.to_string()));
            match written {
                Ok(()) => println!("{}", path.display()),
                Err(e) => {
                    eprintln!("{name}: {e}");
                    status = 1;
                }
            }
        }
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;
    use tile_examples::tile_shapes::ShapeKernel;

    fn parse(args: &str) -> Result<Cli, String> {
        match crate::parse(&format!("shapes-bench {args}")) {
            Ok(crate::Command::ShapesBench(cli)) => Ok(cli),
            Ok(_) => Err("another subcommand".into()),
            Err(e) => Err(e.to_string()),
        }
    }

    #[test]
    fn the_command_line() {
        let cli = parse("").unwrap();
        assert_eq!(cli.script, PathBuf::from("bench/triton_shapes.py"));
        assert!(cli.cases.is_empty() && cli.configs.is_empty() && !cli.ours_only);
        assert!(!cli.keep_launch_order);
        assert!(parse("--keep-launch-order").unwrap().keep_launch_order);
        let cli = parse("--quick --case transpose --case softmax:f16 --config 64x64/w4/s3 --ours-only --out s.md")
            .unwrap();
        assert_eq!(cli.cases.len(), 2);
        assert_eq!(cli.cases[0].kernel, ShapeKernel::Transpose);
        let selected = cases::select(&cli.cases, true);
        assert_eq!(selected.len(), 4);
        let transpose = selected
            .iter()
            .find(|c| c.kernel == ShapeKernel::Transpose)
            .unwrap();
        assert_eq!(cli.configs(transpose), vec![Config::new(64, 64, 4)]);
        // A row kernel takes only the configurations that cover its rows.
        let cli = parse("--case softmax --config 64x64/w4/s3 --config 4x1024/w8/s3").unwrap();
        let softmax = cases::select(&cli.cases, false);
        assert_eq!(cli.configs(&softmax[0]), vec![Config::new(4, 1024, 8)]);
        assert!(cli.configs(&softmax[1]).is_empty());
        assert!(parse("--case nope").is_err());
        assert!(parse("--config 64x64").is_err());
    }

    #[test]
    fn without_a_gpu_it_is_skipped() {
        if Device::count() > 0 {
            return;
        }
        let cli = parse("--quick").unwrap();
        assert_eq!(main("tile-tools shapes-bench --quick", &cli), 0);
    }

    #[test]
    fn the_report_states_device_date_command_and_baselines() {
        let script = ScriptRun {
            info: vec!["INFO triton=3.6.0".into()],
            command: "python3 bench/triton_shapes.py".into(),
            ..ScriptRun::default()
        };
        let f = facts(
            "H100",
            "tile-tools shapes-bench",
            Timing { warmup: 1, reps: 2 },
            &script,
        );
        assert_eq!(f[0], "device: H100");
        assert!(f[1].starts_with("date: unix time "));
        assert_eq!(f[2], "command: `tile-tools shapes-bench`");
        assert!(f.iter().any(|l| l.contains("2^-10.987")));
        assert_eq!(f.last().unwrap(), "INFO triton=3.6.0");
    }
}
