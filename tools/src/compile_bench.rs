//! The compile-latency benchmark, `tile-tools compile-bench`: how long a
//! cold compilation (tile IR to PTX, no cache) of the vector add, the row
//! sum and the LayerNorm takes, on this machine, against each kernel's
//! target ([`KERNELS`]).
//!
//! Three measurements per kernel, each `reps` times:
//!
//! - **first in a fresh process**: the benchmark runs itself as a child
//!   process (`tile-tools compile-bench --first-compile-child KERNEL`) that
//!   creates the context, builds the kernel and compiles it once, timing
//!   that from the start of the subcommand; the parent also reports the
//!   child's whole life (`exec`, loading and relocating the binary, exit),
//!   which no library can shorten.
//! - **fresh context**: a new context (timed apart), the kernel built in it,
//!   compiled once.
//! - **reused context**: one context for all repetitions, the kernel built
//!   anew and compiled each time.
//!
//! A compilation is timed around [`tile::compile`] (the kernel's IR is
//! built before the clock starts), with `Options::default()` minus dumps and
//! the kernel's warps: `-O3`, specialized only where the kernel's entry
//! says. Each measurement reports its median and maximum; the per-stage medians come from
//! [`tile::Compiled::timings`] and [`tile::Compiled::ptx_steps`]. The
//! verdict compares the median with the target; the maximum is shown beside
//! it. A kernel that does not compile is a failed row with the error, and
//! the other kernels are still measured.
//!
//! Modules: [`mod@measure`] (the three measurements), [`mod@table`] (summaries,
//! verdicts and the tables), [`scaling`] (`--scaling`), and the kernels,
//! the machine's description and the upstream comparison.

mod kernels;
mod machine;
pub mod measure;
pub mod scaling;
pub mod table;
mod upstream;

use kernels::options;
pub use kernels::{KERNELS, Measured};

pub use machine::machine_line;
pub use measure::measure;
pub use table::{Row, Summary, table};
pub use upstream::check_upstream;

use crate::markdown;
use std::time::{Duration, Instant};

/// The argument that makes the benchmark a child measuring one first
/// compilation (followed by the kernel's name).
pub const CHILD_ARG: &str = "--first-compile-child";

/// The command line of `tile-tools compile-bench`: cold compile latency
/// (no GPU needed).
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct Cli {
    /// Repetitions of each measurement.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = crate::timing::positive_count)]
    pub reps: usize,
    /// Also write the results as Markdown to FILE.
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// First check that the PTX of every example (default and specialized
    /// for aligned arguments, -O0 to -O3) is byte-identical to upstream
    /// gpu-module-to-binary's, and with our passes staged or fused.
    #[arg(long)]
    pub check_upstream: bool,
    /// Instead: a kernel of 400 stores against one of 4000 (each step's
    /// time may grow at most 11 times).
    #[arg(long, conflicts_with_all = ["reps", "out", "check_upstream"])]
    pub scaling: bool,
    /// Internal: be the child process that measures one first compilation
    /// of KERNEL.
    #[arg(long = "first-compile-child", value_name = "KERNEL", hide = true)]
    pub first_compile_child: Option<String>,
}

/// `tile-tools compile-bench`: the benchmark (or, with [`CHILD_ARG`],
/// the child measuring one first compilation). Prints the per-stage tables
/// and the result table, writes the report with `--out`; returns the exit
/// status: 1 when a kernel failed or missed its target. `command_line` is
/// recorded in the report; `started` is when the subcommand began.
pub fn main(command_line: &str, cli: &Cli, started: Instant) -> i32 {
    if let Some(kernel) = &cli.first_compile_child {
        return match child(kernel, started) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("tile-tools compile-bench: {e}");
                1
            }
        };
    }
    if cli.scaling {
        return scaling::run(3);
    }
    if cli.check_upstream {
        match check_upstream() {
            Ok(n) => {
                println!("{n} kernels: the same PTX natively and upstream, staged and fused\n")
            }
            Err(e) => {
                eprintln!("tile-tools compile-bench: {e}");
                return 1;
            }
        }
    }
    let (rows, stages) = match measure(cli, &mut |line| eprintln!("{line}")) {
        Ok(result) => result,
        Err(e) => {
            eprintln!("tile-tools compile-bench: {e}");
            return 1;
        }
    };
    let table = table(&rows);
    println!("{stages}\n{table}");
    if let Some(path) = &cli.out {
        let targets: Vec<String> = KERNELS
            .iter()
            .map(|k| format!("{} {} ms", k.name, k.target_ms))
            .collect();
        let facts = [
            format!("Machine: {}", machine_line()),
            format!(
                "Command: `{command_line}` ({} repetitions each; targets for a cold compile: {})",
                cli.reps,
                targets.join(", ")
            ),
        ];
        let report = markdown::report("Compile latency", &facts, &format!("{table}{stages}"));
        if let Err(e) = std::fs::write(path, report) {
            eprintln!("tile-tools compile-bench: cannot write {path}: {e}");
            return 1;
        }
    }
    i32::from(rows.iter().any(|r| r.verdict() == "FAIL"))
}

/// Milliseconds.
fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The measured kernel called `name`.
fn find(name: &str) -> Result<&'static Measured, String> {
    KERNELS
        .iter()
        .find(|k| k.name == name)
        .ok_or(format!("no measured kernel '{name}'"))
}

/// Builds `kernel` in `context` and compiles it, timing the compilation.
fn compile_once(
    context: &melior::Context,
    kernel: &Measured,
) -> Result<(tile::Compiled, Duration), String> {
    let built = (kernel.build)(context).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let compiled = tile::compile(&built, &options(kernel, &built)).map_err(|e| e.to_string())?;
    Ok((compiled, started.elapsed()))
}

/// The child's side of the fresh-process measurement: creates a context,
/// builds and compiles `kernel` once, and prints
/// `first <context ms> <compile ms> <total ms>` (total: from `started`,
/// the start of the subcommand, to the PTX).
pub fn child(kernel: &str, started: Instant) -> Result<(), String> {
    let kernel = find(kernel)?;
    let context_started = Instant::now();
    let context = tile::context().map_err(|e| e.to_string())?;
    let context_ms = ms(context_started.elapsed());
    let (_, compile) = compile_once(&context, kernel)?;
    println!(
        "first {context_ms:.4} {:.4} {:.4}",
        ms(compile),
        ms(started.elapsed())
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_parsed() {
        let parse = |args: &str| match crate::parse(&format!("compile-bench {args}")) {
            Ok(crate::Command::CompileBench(cli)) => Ok(cli),
            Ok(_) => Err("another subcommand".to_string()),
            Err(e) => Err(e.to_string()),
        };
        let cli = parse("--reps 5 --out x.md --check-upstream").unwrap();
        assert_eq!(cli.reps, 5);
        assert_eq!(cli.out.as_deref(), Some("x.md"));
        assert!(cli.check_upstream);
        assert_eq!(parse("").unwrap().reps, 20);
        assert!(parse("--reps 0").is_err());
        assert!(parse("--nope").is_err());
        assert!(parse("--scaling").unwrap().scaling);
        assert!(parse("--scaling --reps 3").is_err());
        let child = parse(&format!("{CHILD_ARG} row_sum")).unwrap();
        assert_eq!(child.first_compile_child.as_deref(), Some("row_sum"));
    }

    #[test]
    fn the_layer_norm_is_measured_with_the_tutorials_configuration_for_8192() {
        let norm = find("layer_norm_fwd").unwrap();
        assert_eq!(tile_examples::layer_norm::block_size(8192, 4), 8192);
        assert_eq!(norm.num_warps, tile_examples::layer_norm::num_warps(8192));
        assert_eq!(norm.target_ms, 40.0);
        let context = tile::context().unwrap();
        let kernel = (norm.build)(&context).unwrap();
        assert!(kernel.to_string().contains("tensor<8192xf32>"));
        assert!(find("nope").is_err());
    }
}
