//! The benchmark, `tile-tools bench`: our kernels against Triton 3.6 and
//! PyTorch on the same GPU, in the same run.
//!
//! The cases (kernels, sizes, block sizes, warps) are defined once, in
//! [`cases`]; `bench/triton_kernels.py` gets them on its command line and
//! runs the same kernels written in Triton, and their PyTorch equivalents.
//! Every kernel is checked before it is timed: ours against a CPU
//! reference, Triton's against PyTorch.
//!
//! Both sides time alike, as `triton.testing.do_bench` does
//! ([`crate::timing`]). Bandwidth is the bytes a kernel must move over the
//! median time, set against a device-to-device copy timed the same way.
//!
//! Modules: [`cases`] (the cases and their byte counts), [`ours`] (our
//! kernels: check and timing), [`triton`] (the script's command line and
//! results, read through [`crate::protocol`]), [`table`] (the result
//! table), [`plot`] (the picture).

pub mod cases;
pub mod ours;
pub mod plot;
pub mod table;
pub mod triton;

use crate::markdown;
use crate::protocol::ScriptRun;
use crate::timing::{FLUSH_BYTES, RunArgs, Timer};
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};
use tile::Device;

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
        .map(|(case, ours)| table::Row::new(case, ours, triton::find(&script, case).cloned()))
        .collect();
    let table = table::markdown(&rows, copy_gbps);
    let report = report(&name, command_line, cli, &script, copy_gbps, &table);
    let mut status = i32::from(rows.iter().any(|r| r.ours.is_err()));
    if let Some(path) = &cli.out {
        if !markdown::write_report(path, &report) {
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
    let mut timer = Timer::new(device, cli.run.timing())?;
    let elems = cases::copy_elems(cli.run.quick);
    let copy = timer.copy_ms(elems);
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
            let outcome =
                ours::prepare(device, case).and_then(|run| timer.median_ms(|| run.launch_async()));
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
fn run_baselines(cli: &Cli, cases: &[cases::Case]) -> ScriptRun<triton::Baseline> {
    let args = triton::script_args(cases, cli.run.timing(), FLUSH_BYTES);
    let command = crate::protocol::script::command_line(&cli.python, &cli.triton_script, &args);
    println!("running {command}");
    match crate::protocol::run_script(&cli.python, &cli.triton_script, &args) {
        Ok(run) => {
            if !run.success {
                println!("WARNING: the Triton/PyTorch script failed (see above)");
            }
            if run.results.is_empty() {
                println!("WARNING: no Triton/PyTorch results: their columns are '-'");
            }
            run
        }
        Err(e) => {
            println!("WARNING: no Triton/PyTorch baselines ({e}): their columns are '-'");
            ScriptRun {
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
    script: &ScriptRun<triton::Baseline>,
    copy_gbps: Option<f64>,
    table: &str,
) -> String {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let copy = copy_gbps.map_or_else(|| "-".to_string(), |g| format!("{g:.0} GB/s"));
    let mut facts = vec![
        format!("device: {device}"),
        format!("date: unix time {seconds}"),
        format!("command: `{command_line}`"),
        format!("timing: {}", cli.run.timing().describe()),
        format!("device-to-device copy: {copy} (read + write)"),
        format!("baselines: `{}`", script.command),
    ];
    facts.extend(script.info.iter().cloned());
    markdown::report("tile-tools bench", &facts, table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timing::Timing;
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
        let script = ScriptRun {
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
