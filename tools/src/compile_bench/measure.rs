//! The three measurements of each kernel: the first compilation in a
//! fresh process (this program run as a child), compilations in fresh
//! contexts, and compilations in one reused context, with their per-stage
//! times.

use super::table::{Row, Summary, stage_table};
use super::{CHILD_ARG, Cli, KERNELS, Measured, compile_once, ms};
use std::process::Command;
use std::time::{Duration, Instant};

/// The compilations of one measurement: total times and per-stage times.
#[derive(Default)]
pub(super) struct Samples {
    pub(super) totals: Vec<f64>,
    pub(super) stages: Vec<(&'static str, Vec<f64>)>,
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
