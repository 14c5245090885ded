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

mod kernels;
mod machine;
pub mod scaling;
mod upstream;

use kernels::options;
pub use kernels::{KERNELS, Measured};

pub use machine::machine_line;
pub use upstream::check_upstream;

use std::fmt::Write as _;
use std::process::Command;
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
        let report = format!(
            "# Compile latency\n\n- Machine: {}\n- Command: `{command_line}` ({} repetitions \
             each; targets for a cold compile: {})\n\n{table}{stages}",
            machine_line(),
            cli.reps,
            targets.join(", ")
        );
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

/// The median and the maximum of some times, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// The median (the mean of the middle two for an even count).
    pub median: f64,
    /// The largest.
    pub max: f64,
}

impl Summary {
    /// The summary of `values` (milliseconds; not empty).
    pub fn of(values: &[f64]) -> Summary {
        let mut v = values.to_vec();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let median = if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        };
        Summary {
            median,
            max: v[n - 1],
        }
    }
}

/// One measurement of one kernel.
#[derive(Clone, Debug)]
pub struct Row {
    /// The kernel.
    pub kernel: &'static str,
    /// What was measured.
    pub what: &'static str,
    /// The times (ms), or why the kernel could not be measured.
    pub summary: Result<Summary, String>,
    /// The kernel's target (ms).
    pub target_ms: f64,
    /// Whether the verdict applies (context creation alone, or the child
    /// process's whole life, are shown for information).
    pub judged: bool,
}

impl Row {
    /// `PASS` when the median is within the target, else `FAIL` (also when
    /// the kernel could not be measured); `-` for rows shown for
    /// information.
    pub fn verdict(&self) -> &'static str {
        match (self.judged, &self.summary) {
            (false, _) => "-",
            (true, Ok(s)) if s.median <= self.target_ms => "PASS",
            (true, _) => "FAIL",
        }
    }
}

/// The compilations of one measurement: total times and per-stage times.
#[derive(Default)]
struct Samples {
    totals: Vec<f64>,
    stages: Vec<(&'static str, Vec<f64>)>,
}

impl Samples {
    fn add(&mut self, compiled: &tile::Compiled, elapsed: Duration) {
        self.totals.push(ms(elapsed));
        let steps = compiled.timings.iter().map(|(s, d)| (*s, *d));
        let ptx_steps = compiled.ptx_steps.iter().map(|(s, d)| match *s {
            "translate" => ("ptx: translate", *d),
            "optimize" => ("ptx: optimize", *d),
            "codegen" => ("ptx: codegen", *d),
            other => (other, *d),
        });
        for (stage, d) in steps.chain(ptx_steps) {
            match self.stages.iter_mut().find(|(s, _)| *s == stage) {
                Some((_, v)) => v.push(ms(d)),
                None => self.stages.push((stage, vec![ms(d)])),
            }
        }
    }
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

/// Runs the benchmark; returns the rows and the per-stage medians (one
/// table per kernel, from the reused-context compilations). A kernel that
/// cannot be measured (it does not compile) gives one failed row; an error
/// only when this program cannot run itself.
pub fn measure(cli: &Cli, log: &mut dyn FnMut(&str)) -> Result<(Vec<Row>, String), String> {
    let mut rows = Vec::new();
    let mut stage_tables = String::new();
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    for kernel in &KERNELS {
        match measure_kernel(&exe, kernel, cli.reps, log)? {
            Ok((kernel_rows, stages)) => {
                rows.extend(kernel_rows);
                stage_tables.push_str(&stages);
            }
            Err(e) => {
                log(&format!("{}: FAILED: {e}", kernel.name));
                rows.push(Row {
                    kernel: kernel.name,
                    what: "cold compile",
                    summary: Err(e),
                    target_ms: kernel.target_ms,
                    judged: true,
                });
            }
        }
    }
    Ok((rows, stage_tables))
}

/// The three measurements of one kernel: its rows and its per-stage table,
/// or (inside) why the kernel could not be measured.
type Measurement = Result<(Vec<Row>, String), String>;

/// Measures `kernel` `reps` times each way. The outer error: the child
/// process could not be started.
fn measure_kernel(
    exe: &std::path::Path,
    kernel: &Measured,
    reps: usize,
    log: &mut dyn FnMut(&str),
) -> Result<Measurement, String> {
    let name = kernel.name;
    let mut rows = Vec::new();
    let mut row = |what, values: &[f64], judged| {
        rows.push(Row {
            kernel: name,
            what,
            summary: Ok(Summary::of(values)),
            target_ms: kernel.target_ms,
            judged,
        })
    };
    log(&format!("{name}: {reps} fresh processes"));
    let (mut in_process, mut whole, mut contexts, mut compiles) = (vec![], vec![], vec![], vec![]);
    for _ in 0..reps {
        let started = Instant::now();
        let out = Command::new(exe)
            .args(["compile-bench", CHILD_ARG, name])
            .env_remove("TILE_DUMP_DIR")
            .env_remove(tile_codegen::TIMINGS_VAR)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
        whole.push(ms(started.elapsed()));
        let text = String::from_utf8_lossy(&out.stdout);
        let Some(line) = text.lines().find(|l| l.starts_with("first ")) else {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let message = stderr
                .trim()
                .trim_start_matches("tile-tools compile-bench: ");
            return Ok(Err(format!("the child measuring it failed: {message}")));
        };
        let v: Vec<f64> = line
            .split_whitespace()
            .skip(1)
            .map(|x| x.parse().map_err(|_| format!("bad child line: {line}")))
            .collect::<Result<_, _>>()?;
        let [context, compile, total] = v[..] else {
            return Err(format!("bad child line: {line}"));
        };
        contexts.push(context);
        compiles.push(compile);
        in_process.push(total);
    }
    let first = "first compile in a fresh process: context + build + compile";
    row(first, &in_process, true);
    row("  of which the compile", &compiles, false);
    row("  of which the context", &contexts, false);
    row(
        "  the child process, exec to exit (parent's view)",
        &whole,
        false,
    );

    log(&format!("{name}: {reps} fresh contexts"));
    let (mut fresh, mut contexts) = (Samples::default(), vec![]);
    for _ in 0..reps {
        let started = Instant::now();
        let context = tile::context().map_err(|e| e.to_string())?;
        contexts.push(ms(started.elapsed()));
        match compile_once(&context, kernel) {
            Ok((compiled, elapsed)) => fresh.add(&compiled, elapsed),
            Err(e) => return Ok(Err(e)),
        }
    }
    row("cold compile, fresh context each", &fresh.totals, true);
    row("  context creation", &contexts, false);

    log(&format!("{name}: {reps} compiles in one context"));
    let context = tile::context().map_err(|e| e.to_string())?;
    let mut reused = Samples::default();
    for _ in 0..reps {
        match compile_once(&context, kernel) {
            Ok((compiled, elapsed)) => reused.add(&compiled, elapsed),
            Err(e) => return Ok(Err(e)),
        }
    }
    row("cold compile, reused context", &reused.totals, true);
    Ok(Ok((rows, stage_table(name, &fresh, &reused))))
}

/// The per-stage medians of one kernel, fresh and reused contexts side by
/// side, as Markdown.
fn stage_table(kernel: &str, fresh: &Samples, reused: &Samples) -> String {
    let mut out = format!(
        "\n{kernel}: per-stage medians (ms)\n\n| stage | fresh context | reused context |\n| --- | ---: | ---: |\n"
    );
    for (stage, values) in &reused.stages {
        let fresh_median = fresh
            .stages
            .iter()
            .find(|(s, _)| s == stage)
            .map(|(_, v)| format!("{:.2}", Summary::of(v).median))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "| {stage} | {fresh_median} | {:.2} |",
            Summary::of(values).median
        );
    }
    let _ = writeln!(
        out,
        "| **compile** | **{:.2}** | **{:.2}** |",
        Summary::of(&fresh.totals).median,
        Summary::of(&reused.totals).median
    );
    out
}

/// The result table, as Markdown. A kernel that could not be measured
/// shows the first line of its error that says `error:` (else its first
/// line), up to 200 characters.
pub fn table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| kernel | measurement | median ms | max ms | target ms | verdict (median <= target) |\n\
         | --- | --- | ---: | ---: | ---: | --- |\n",
    );
    for r in rows {
        let (what, median, max) = match &r.summary {
            Ok(s) => (
                r.what.trim_start().to_string(),
                format!("{:.2}", s.median),
                format!("{:.2}", s.max),
            ),
            Err(e) => {
                let line = e.lines().find(|l| l.contains("error:"));
                let line = line.or(e.lines().next()).unwrap_or_default();
                let line: String = line.chars().take(200).collect();
                let what = format!("{}: {}", r.what, line.replace('|', "/"));
                (what, "-".into(), "-".into())
            }
        };
        let target = if r.judged {
            r.target_ms.to_string()
        } else {
            "-".into()
        };
        let _ = writeln!(
            out,
            "| {} | {what} | {median} | {max} | {target} | {} |",
            r.kernel,
            r.verdict()
        );
    }
    out
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
    fn verdicts_use_each_kernels_target_and_failures_show_their_error() {
        let row = |median, target_ms, judged| Row {
            kernel: "k",
            what: "cold compile",
            summary: Ok(Summary {
                median,
                max: median,
            }),
            target_ms,
            judged,
        };
        assert_eq!(row(30.0, 40.0, true).verdict(), "PASS");
        assert_eq!(row(30.0, 25.0, true).verdict(), "FAIL");
        assert_eq!(row(30.0, 25.0, false).verdict(), "-");
        let failed = Row {
            summary: Err("stage 'nvvm' failed: a | b\nx.rs:1:2: error: no | way\nnote".into()),
            ..row(0.0, 40.0, true)
        };
        assert_eq!(failed.verdict(), "FAIL");
        let t = table(&[row(30.0, 40.0, true), row(2.0, 40.0, false), failed]);
        assert!(
            t.contains("| k | cold compile | 30.00 | 30.00 | 40 | PASS |"),
            "{t}"
        );
        assert!(
            t.contains("| k | cold compile | 2.00 | 2.00 | - | - |"),
            "{t}"
        );
        assert!(
            t.contains("| k | cold compile: x.rs:1:2: error: no / way | - | - | 40 | FAIL |"),
            "{t}"
        );
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

    #[test]
    fn summaries() {
        let s = Summary::of(&[3.0, 1.0, 2.0, 10.0]);
        assert_eq!((s.median, s.max), (2.5, 10.0));
        assert_eq!(Summary::of(&[4.0]).median, 4.0);
    }
}
