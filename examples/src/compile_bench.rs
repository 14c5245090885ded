//! The compile-latency benchmark behind `tile-compile-bench`: how long a
//! cold compilation (tile IR to PTX, no cache) of the vector add and the
//! row sum takes, on this machine, against a target of
//! [`TARGET_MS`] each.
//!
//! Three measurements per kernel, each `reps` times:
//!
//! - **first in a fresh process**: the benchmark runs itself as a child
//!   process that creates the context, builds the kernel and compiles it
//!   once, timing that from the start of `main`; the parent also reports
//!   the child's whole life (`exec`, loading and relocating the binary,
//!   exit), which no library can shorten.
//! - **fresh context**: a new context (timed apart), the kernel built in it,
//!   compiled once.
//! - **reused context**: one context for all repetitions, the kernel built
//!   anew and compiled each time.
//!
//! A compilation is timed around [`tile::compile`] (the kernel's IR is
//! built before the clock starts), with [`Options::default`] minus dumps:
//! `-O3`, nothing specialized. Each measurement reports its median and
//! maximum; the per-stage medians come from [`tile::Compiled::timings`]
//! and [`tile::Compiled::ptx_steps`]. The verdict compares the median with
//! the target; the maximum is shown beside it.

use std::fmt::Write as _;
use std::process::Command;
use std::time::{Duration, Instant};
use tile::Options;

/// The target for one cold compilation, in milliseconds.
pub const TARGET_MS: f64 = 25.0;

/// The kernels measured (names in [`crate::ALL`]).
pub const KERNELS: [&str; 2] = ["safe_kernel", "row_sum"];

/// The argument that makes the benchmark a child measuring one first
/// compilation (followed by the kernel's name).
pub const CHILD_ARG: &str = "--first-compile-child";

/// The usage line.
pub const USAGE: &str = "usage: tile-compile-bench [--reps N] [--out FILE] [--check-upstream]\n\
    \n  --reps N          repetitions of each measurement (default 20)\n  \
    --out FILE        also write the results as Markdown to FILE\n  \
    --check-upstream  first check that the PTX of every example (default and\n                    \
    specialized for aligned arguments, -O0 to -O3) is byte-identical to\n                    \
    upstream gpu-module-to-binary's, and with our passes staged or fused";

/// The command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cli {
    /// Repetitions of each measurement.
    pub reps: usize,
    /// Where to write the Markdown report, if anywhere.
    pub out: Option<String>,
    /// Check the native `ptx` stage against upstream first.
    pub check_upstream: bool,
}

impl Cli {
    /// Parses the arguments after the program name.
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Cli, String> {
        let mut cli = Cli {
            reps: 20,
            out: None,
            check_upstream: false,
        };
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--reps" => {
                    let n = args.next().ok_or("--reps needs a number")?;
                    cli.reps = n
                        .parse()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or(format!("--reps: not a positive number: {n}"))?;
                }
                "--out" => cli.out = Some(args.next().ok_or("--out needs a file")?),
                "--check-upstream" => cli.check_upstream = true,
                other => return Err(format!("unknown argument '{other}'")),
            }
        }
        Ok(cli)
    }
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
    /// The times (ms).
    pub summary: Summary,
    /// Whether the verdict applies (context creation alone, or the child
    /// process's whole life, are shown for information).
    pub judged: bool,
}

impl Row {
    /// `PASS` when the median is within the target, else `FAIL`; `-` for
    /// rows shown for information.
    pub fn verdict(&self) -> &'static str {
        match (self.judged, self.summary.median <= TARGET_MS) {
            (false, _) => "-",
            (true, true) => "PASS",
            (true, false) => "FAIL",
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

/// Options of every measured compilation: the defaults, without dumps.
fn options() -> Options {
    Options {
        dump: None,
        ..Options::default()
    }
}

/// Builds `kernel` in `context` and compiles it, timing the compilation.
fn compile_once(
    context: &melior::Context,
    kernel: &str,
) -> Result<(tile::Compiled, Duration), String> {
    let example = crate::find(kernel).ok_or(format!("no example '{kernel}'"))?;
    let built = (example.build)(context).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let compiled = tile::compile(&built, &options()).map_err(|e| e.to_string())?;
    Ok((compiled, started.elapsed()))
}

/// The child's side of the fresh-process measurement: creates a context,
/// builds and compiles `kernel` once, and prints
/// `first <context ms> <compile ms> <total ms>` (total: from `started`,
/// the start of `main`, to the PTX).
pub fn child(kernel: &str, started: Instant) -> Result<(), String> {
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
/// table per kernel, from the reused-context compilations).
pub fn measure(cli: &Cli, log: &mut dyn FnMut(&str)) -> Result<(Vec<Row>, String), String> {
    let mut rows = Vec::new();
    let mut stage_tables = String::new();
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    for kernel in KERNELS {
        log(&format!("{kernel}: {} fresh processes", cli.reps));
        let (mut in_process, mut whole, mut contexts, mut compiles) =
            (vec![], vec![], vec![], vec![]);
        for _ in 0..cli.reps {
            let started = Instant::now();
            let out = Command::new(&exe)
                .args([CHILD_ARG, kernel])
                .env_remove("TILE_DUMP_DIR")
                .env_remove(tile_codegen::TIMINGS_VAR)
                .output()
                .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
            whole.push(ms(started.elapsed()));
            let text = String::from_utf8_lossy(&out.stdout);
            let line = text
                .lines()
                .find(|l| l.starts_with("first "))
                .ok_or_else(|| {
                    format!(
                        "the child measuring {kernel} failed: {}",
                        String::from_utf8_lossy(&out.stderr)
                    )
                })?;
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
        rows.push(Row {
            kernel,
            what: "first compile in a fresh process: context + build + compile",
            summary: Summary::of(&in_process),
            judged: true,
        });
        rows.push(Row {
            kernel,
            what: "  of which the compile",
            summary: Summary::of(&compiles),
            judged: false,
        });
        rows.push(Row {
            kernel,
            what: "  of which the context",
            summary: Summary::of(&contexts),
            judged: false,
        });
        rows.push(Row {
            kernel,
            what: "  the child process, exec to exit (parent's view)",
            summary: Summary::of(&whole),
            judged: false,
        });

        log(&format!("{kernel}: {} fresh contexts", cli.reps));
        let (mut fresh, mut contexts) = (Samples::default(), vec![]);
        for _ in 0..cli.reps {
            let started = Instant::now();
            let context = tile::context().map_err(|e| e.to_string())?;
            contexts.push(ms(started.elapsed()));
            let (compiled, elapsed) = compile_once(&context, kernel)?;
            fresh.add(&compiled, elapsed);
        }
        rows.push(Row {
            kernel,
            what: "cold compile, fresh context each",
            summary: Summary::of(&fresh.totals),
            judged: true,
        });
        rows.push(Row {
            kernel,
            what: "  context creation",
            summary: Summary::of(&contexts),
            judged: false,
        });

        log(&format!("{kernel}: {} compiles in one context", cli.reps));
        let context = tile::context().map_err(|e| e.to_string())?;
        let mut reused = Samples::default();
        for _ in 0..cli.reps {
            let (compiled, elapsed) = compile_once(&context, kernel)?;
            reused.add(&compiled, elapsed);
        }
        rows.push(Row {
            kernel,
            what: "cold compile, reused context",
            summary: Summary::of(&reused.totals),
            judged: true,
        });
        stage_tables.push_str(&stage_table(kernel, &fresh, &reused));
    }
    Ok((rows, stage_tables))
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

/// The result table, as Markdown.
pub fn table(rows: &[Row]) -> String {
    let mut out = format!(
        "| kernel | measurement | median ms | max ms | verdict (median <= {TARGET_MS} ms) |\n| --- | --- | ---: | ---: | --- |\n"
    );
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {:.2} | {:.2} | {} |",
            r.kernel,
            r.what.trim_start(),
            r.summary.median,
            r.summary.max,
            r.verdict()
        );
    }
    out
}

/// Compiles every example with and without aligned-argument
/// specialization at `-O0` to `-O3`: through the native `ptx` stage and
/// through upstream `gpu-module-to-binary`, and with our passes run one by
/// one (as when dumping) and on one mirror (as otherwise). Returns how many
/// kernels compiled the same all four ways, or the first that did not.
pub fn check_upstream() -> Result<usize, String> {
    use tile::{Fact, Specialization};
    use tile_dialect::{Elem, TileType};
    let context = tile::context().map_err(|e| e.to_string())?;
    let dumps = std::env::temp_dir().join(format!("tile-compile-bench-{}", std::process::id()));
    let mut compared = 0;
    for example in crate::ALL {
        let kernel = (example.build)(&context).map_err(|e| e.to_string())?;
        let aligned = Specialization {
            facts: kernel
                .params()
                .iter()
                .map(|p| match p.ty {
                    TileType::Tensor {
                        elem: Elem::Ptr(_), ..
                    } => Fact::DivisibleBy16,
                    TileType::Tensor {
                        elem: Elem::Num(d), ..
                    } if d.is_integer() => Fact::DivisibleBy16,
                    _ => Fact::None,
                })
                .collect(),
        };
        for specialization in [Specialization::none(), aligned] {
            for opt_level in 0..=3 {
                let options = Options {
                    opt_level,
                    ..options()
                }
                .specialized(specialization.clone());
                let (ours, upstream) =
                    tile_codegen::ptx_both_ways(&context, kernel.module(), &options)
                        .map_err(|e| e.to_string())?;
                if ours != upstream {
                    return Err(format!(
                        "{} at -O{opt_level} ({:?}): the native PTX differs from upstream's",
                        example.name, specialization.facts
                    ));
                }
                // Dumping runs our passes one by one instead of on one
                // mirror: the PTX must not change.
                let staged = Options {
                    dump: Some(tile::Dump::to(&dumps)),
                    ..options.clone()
                };
                let staged = tile::compile(&kernel, &staged).map_err(|e| e.to_string())?;
                let fused = tile::compile(&kernel, &options).map_err(|e| e.to_string())?;
                if staged.ptx != fused.ptx || fused.ptx != ours {
                    return Err(format!(
                        "{} at -O{opt_level} ({:?}): staged and fused passes give different PTX",
                        example.name, specialization.facts
                    ));
                }
                compared += 1;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dumps);
    Ok(compared)
}

/// A line on where the benchmark ran: the CPU model (from
/// `/proc/cpuinfo`, where there is one), the cores this process may use,
/// and the date (UTC).
pub fn machine_line() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_date(secs / 86_400);
    format!("{cpu}, {cores} cores; {y:04}-{m:02}-{d:02} (UTC)")
}

/// The (year, month, day) of a count of days since 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
fn civil_date(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + u64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_parsed() {
        let cli =
            Cli::parse(["--reps", "5", "--out", "x.md", "--check-upstream"].map(String::from))
                .unwrap();
        assert_eq!(cli.reps, 5);
        assert_eq!(cli.out.as_deref(), Some("x.md"));
        assert!(cli.check_upstream);
        assert!(Cli::parse(["--reps", "0"].map(String::from)).is_err());
        assert!(Cli::parse(["--nope"].map(String::from)).is_err());
    }

    #[test]
    fn summaries_and_dates() {
        let s = Summary::of(&[3.0, 1.0, 2.0, 10.0]);
        assert_eq!((s.median, s.max), (2.5, 10.0));
        assert_eq!(Summary::of(&[4.0]).median, 4.0);
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(20_414), (2025, 11, 22));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
    }
}
