//! The benchmark, `tile-tools bench`: our kernels against Triton 3.6 and
//! PyTorch on the same GPU, in the same run.
//!
//! The cases (kernels, sizes, block sizes, warps) are defined once, in
//! [`cases`]; `bench/triton_kernels.py` gets them on its command line and
//! runs the same kernels written in Triton, and their PyTorch equivalents.
//! Every kernel is checked before it is timed: ours against a CPU
//! reference, Triton's against PyTorch.
//!
//! Both sides time alike, as `triton.testing.do_bench` does: `warmup`
//! untimed launches, then `reps` repetitions of (zero a 256 MiB buffer to
//! flush the L2 cache, record a start event, launch once, record an end
//! event) queued back to back, one wait, and the median of the elapsed
//! times. Bandwidth is the bytes a kernel must move over that median, set
//! against a device-to-device copy timed the same way.
//!
//! Modules: [`cases`] (the cases and their byte counts), [`ours`] (our
//! kernels: check and timing), [`triton`] (the script's command line and
//! output), [`table`] (the result table), [`plot`] (the picture).

pub mod cases;
pub mod ours;
pub mod plot;
pub mod table;
pub mod triton;

use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};
use tile::{Buffer, Device};

/// The size of the buffer zeroed before each timed launch, to flush the
/// L2 cache: 256 MiB, as `triton.testing.do_bench`.
pub const FLUSH_BYTES: usize = 256 << 20;

/// How many launches to time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Untimed launches first.
    pub warmup: usize,
    /// Timed launches; the median is reported.
    pub reps: usize,
}

impl Timing {
    /// 10 warm-up launches and 100 timed ones; 2 and 5 for a smoke run.
    pub fn default_for(quick: bool) -> Timing {
        if quick {
            Timing { warmup: 2, reps: 5 }
        } else {
            Timing {
                warmup: 10,
                reps: 100,
            }
        }
    }
}

/// A positive count (`--warmup N`, `--reps N`), as clap reads it.
pub fn positive_count(value: &str) -> Result<usize, String> {
    value
        .parse::<usize>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("want a positive count, got {value:?}"))
}

/// The options every benchmark takes: the size of the run and how many
/// launches to time.
#[derive(clap::Args, Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunArgs {
    /// Small sizes and few repetitions, for a smoke run.
    #[arg(long)]
    pub quick: bool,
    /// Untimed launches before the timed ones [default: 10, 2 with --quick].
    #[arg(long, value_name = "N", value_parser = positive_count)]
    pub warmup: Option<usize>,
    /// Timed launches; the median is reported [default: 100, 5 with --quick].
    #[arg(long, value_name = "N", value_parser = positive_count)]
    pub reps: Option<usize>,
}

impl RunArgs {
    /// The launches to time: those given, else the defaults for the size.
    pub fn timing(&self) -> Timing {
        let default = Timing::default_for(self.quick);
        Timing {
            warmup: self.warmup.unwrap_or(default.warmup),
            reps: self.reps.unwrap_or(default.reps),
        }
    }
}

/// Writes a benchmark's Markdown `report` to `path` and says so; false
/// (after a `FAIL` line) when it cannot.
pub fn write_report(path: &std::path::Path, report: &str) -> bool {
    match std::fs::write(path, report) {
        Ok(()) => {
            println!("wrote {}", path.display());
            true
        }
        Err(e) => {
            println!("FAIL: cannot write {}: {e}", path.display());
            false
        }
    }
}

/// The median of `times` (the mean of the two middle values for an even
/// count, as Python's `statistics.median`); `None` when empty.
pub fn median(times: &[f32]) -> Option<f64> {
    let mut sorted: Vec<f64> = times.iter().map(|&t| f64::from(t)).collect();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

/// The command line of `tile-tools bench`: our kernels against Triton
/// 3.6 and PyTorch, checked, then timed.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct Cli {
    /// The run's size and timing.
    #[command(flatten)]
    pub run: RunArgs,
    /// Compile our kernels without specializing them on their arguments:
    /// the unvectorized baseline.
    #[arg(long)]
    pub no_specialize: bool,
    /// The Triton and PyTorch baselines.
    #[arg(long, value_name = "PATH", default_value = "bench/triton_kernels.py")]
    pub triton_script: PathBuf,
    /// The Python interpreter that runs them.
    #[arg(long, value_name = "PATH", default_value = "python3")]
    pub python: String,
    /// Where to write the table, the device and the command line (and,
    /// beside it, the numbers as JSON and the picture as PNG).
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
}

/// Runs the benchmark and prints the table last; returns the exit status:
/// 0, or 1 when one of our kernels failed its check or could not run, or
/// the output file could not be written. Without a GPU it prints
/// `skipped: no CUDA device` and returns 0.
pub fn run(cli: &Cli, command_line: &str) -> i32 {
    let Some(device) = tile::device_or_skip("tile-tools bench") else {
        return 0;
    };
    let name = device.name().unwrap_or_else(|e| e.to_string());
    println!("device: {name}");
    let mut cases = cases::cases(cli.run.quick);
    for case in &mut cases {
        case.specialize = !cli.no_specialize;
    }
    let Ours { times, copy_gbps } = match run_ours(&device, cli, &cases) {
        Ok(ours) => ours,
        Err(e) => {
            println!("FAIL: {e}");
            return 1;
        }
    };
    let script = run_baselines(cli, &cases);
    let rows: Vec<table::Row> = cases
        .iter()
        .zip(times)
        .map(|(case, ours)| table::Row::new(case, ours, script.find(case).cloned()))
        .collect();
    let table = table::markdown(&rows, copy_gbps);
    let report = report(&name, command_line, cli, &script, copy_gbps, &table);
    let mut status = i32::from(rows.iter().any(|r| r.ours.is_err()));
    if let Some(path) = &cli.out {
        if !write_report(path, &report) {
            status = 1;
        }
        let picture = table::picture(&format!("{name}: {command_line}"), &rows, copy_gbps);
        let json = path.with_extension("json");
        match plot::write(&picture, &json) {
            Ok(None) => println!(
                "wrote {} and {}",
                json.display(),
                json.with_extension("png").display()
            ),
            Ok(Some(why)) => println!(
                "wrote {}; no picture here ({why}): `tile-tools plot {}` draws it elsewhere",
                json.display(),
                json.display()
            ),
            Err(e) => {
                println!("FAIL: {e}");
                status = 1;
            }
        }
    }
    println!("\n{table}");
    status
}

/// What our side measured.
struct Ours {
    /// Our median time per case in ms, or why there is none.
    times: Vec<Result<f64, String>>,
    /// The device-to-device copy bandwidth in GB/s, if measured.
    copy_gbps: Option<f64>,
}

/// Measures the copy bandwidth, then checks and times each of our kernels
/// (one line printed per case). An error only when the flush buffer cannot
/// be had.
fn run_ours(device: &Device, cli: &Cli, cases: &[cases::Case]) -> Result<Ours, String> {
    let mut flush: Buffer<u8> = device
        .alloc(FLUSH_BYTES)
        .map_err(|e| format!("allocating the L2 flush buffer: {e}"))?;
    let elems = cases::copy_elems(cli.run.quick);
    let copy = ours::copy_ms(device, elems, cli.run.timing(), &mut flush);
    let copy_gbps = match &copy {
        Ok(ms) => {
            let gbps = table::gbps(cases::copy_bytes(elems), *ms);
            println!("copy {elems} fp32: {ms:.4} ms, {gbps:.0} GB/s (read + write)");
            Some(gbps)
        }
        Err(e) => {
            println!("copy {elems} fp32: FAIL {e}");
            None
        }
    };
    let times = cases
        .iter()
        .map(|case| {
            let outcome = ours::prepare(device, case).and_then(|run| {
                ours::median_ms(device, cli.run.timing(), &mut flush, || run.launch_async())
            });
            match &outcome {
                Ok(ms) => println!(
                    "ours {} {}: checked, {ms:.4} ms",
                    case.kind.name(),
                    case.size()
                ),
                Err(e) => println!("ours {} {}: FAIL {e}", case.kind.name(), case.size()),
            }
            outcome
        })
        .collect();
    Ok(Ours { times, copy_gbps })
}

/// Runs the Triton/PyTorch script on `cases`; says so visibly when it
/// cannot run or fails (its columns are then `-`).
fn run_baselines(cli: &Cli, cases: &[cases::Case]) -> triton::ScriptRun {
    let args = triton::script_args(cases, cli.run.timing(), FLUSH_BYTES);
    let command = format!(
        "{} {} {}",
        cli.python,
        cli.triton_script.display(),
        args.join(" ")
    );
    println!("running {command}");
    match triton::run_script(&cli.python, &cli.triton_script, &args) {
        Ok(run) => {
            if !run.success {
                println!("WARNING: the Triton/PyTorch script failed (see above)");
            }
            if run.baselines.is_empty() {
                println!("WARNING: no Triton/PyTorch results: their columns are '-'");
            }
            run
        }
        Err(e) => {
            println!("WARNING: no Triton/PyTorch baselines ({e}): their columns are '-'");
            triton::ScriptRun {
                command: format!("{command} (did not run: {e})"),
                ..Default::default()
            }
        }
    }
}

/// The report written by `--out`: device, date, command, versions, copy
/// bandwidth and the table.
fn report(
    device: &str,
    command_line: &str,
    cli: &Cli,
    script: &triton::ScriptRun,
    copy_gbps: Option<f64>,
    table: &str,
) -> String {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let copy = copy_gbps.map_or_else(|| "-".to_string(), |g| format!("{g:.0} GB/s"));
    let mut lines = vec![
        "# tile-tools bench".to_string(),
        String::new(),
        format!("- device: {device}"),
        format!("- date: unix time {seconds}"),
        format!("- command: `{command_line}`"),
        format!(
            "- timing: {} warm-up launches, median of {} (each after zeroing {} MiB), CUDA events",
            cli.run.timing().warmup,
            cli.run.timing().reps,
            FLUSH_BYTES >> 20
        ),
        format!("- device-to-device copy: {copy} (read + write)"),
        format!("- baselines: `{}`", script.command),
    ];
    lines.extend(script.info.iter().map(|i| format!("- {i}")));
    lines.extend([String::new(), table.to_string()]);
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Command, parse};

    /// `tile-tools bench ARGS` as parsed.
    fn bench(args: &str) -> Result<Cli, String> {
        match parse(&format!("bench {args}")) {
            Ok(Command::Bench(cli)) => Ok(cli),
            Ok(_) => Err("another subcommand".into()),
            Err(e) => Err(e.to_string()),
        }
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[0.5]), Some(0.5));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn command_line() {
        let cli = bench("").unwrap();
        assert_eq!(cli.run.timing(), Timing::default_for(false));
        assert_eq!(cli.triton_script, PathBuf::from("bench/triton_kernels.py"));
        assert_eq!((cli.python.as_str(), cli.out.clone()), ("python3", None));
        let cli =
            bench("--reps 9 --quick --triton-script /x/t.py --out /tmp/b.md --python py").unwrap();
        assert!(cli.run.quick);
        assert_eq!(cli.run.timing(), Timing { warmup: 2, reps: 9 });
        assert_eq!(cli.triton_script, PathBuf::from("/x/t.py"));
        assert_eq!(cli.out, Some(PathBuf::from("/tmp/b.md")));
        assert_eq!(cli.python, "py");
        assert!(!cli.no_specialize);
        assert!(bench("--no-specialize").unwrap().no_specialize);
        assert!(bench("--reps").is_err());
        let zero = bench("--reps 0").unwrap_err();
        assert!(zero.contains("want a positive count"), "{zero}");
        assert!(bench("--warmup x").is_err());
        let unknown = bench("--fast 3").unwrap_err();
        assert!(
            unknown.contains("unexpected argument '--fast'"),
            "{unknown}"
        );
    }

    #[test]
    fn report_names_the_device_and_command() {
        let cli = bench("--quick").unwrap();
        let script = triton::ScriptRun {
            info: vec!["INFO triton=3.6.0".into()],
            command: "python3 t.py --reps 5".into(),
            ..Default::default()
        };
        let text = report(
            "H100",
            "tile-tools bench --quick",
            &cli,
            &script,
            Some(2999.6),
            "| t |",
        );
        assert!(text.contains("- device: H100\n"));
        assert!(text.contains("- command: `tile-tools bench --quick`\n"));
        assert!(text.contains("median of 5 (each after zeroing 256 MiB)"));
        assert!(text.contains("copy: 3000 GB/s"));
        assert!(text.contains("- INFO triton=3.6.0\n"));
        assert!(text.contains("- baselines: `python3 t.py --reps 5`\n"));
        assert!(text.ends_with("| t |"));
    }
}
