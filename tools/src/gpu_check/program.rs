//! `tile-tools gpu-check`: compiles kernels with `tile`, runs them on the
//! GPU on irregular sizes, and compares every element with a CPU reference.
//! Outputs are poisoned (NaN) before each run and followed by a guard
//! region that must stay untouched. Prints one line a case and a summary
//! table last; exits 1 if any case fails. Without a GPU it prints
//! "skipped: no CUDA device" and exits 0.
//!
//! `tile-tools gpu-check [--quick]`: `--quick` drops the largest sizes (for
//! runs under compute-sanitizer): 2^24-element vectors, 65536-row
//! reductions and the cases over more than 2^31 elements. The command line
//! is [`Cli`] (clap; `tile-tools gpu-check --help`).
//!
//! The runtime's own checks and benchmarks are subcommands:
//!
//! - `tile-tools gpu-check launch-bench [--samples N]`: host time per launch of a
//!   cached 4-argument kernel (median, p99, mean), as a table.
//! - `tile-tools gpu-check graph-bench [--windows N]`: launches captured
//!   into a CUDA graph replay what they computed; windows of 200 small
//!   launches, replayed against launched one by one (beside
//!   `bench/triton_graph.py`'s Triton and torch `CUDAGraph` figures).
//! - `tile-tools gpu-check autotune [--cache-dir DIR]`: the autotuner over row-sum
//!   configurations, its choice re-timed against every configuration.
//! - `tile-tools gpu-check aot-compare FILE`: the vector add through the JIT,
//!   compared bit for bit with what `tile-aot-example --out FILE` wrote.
//! - `tile-tools gpu-check fault`: a kernel that faults must come back as a
//!   `KernelFault` naming it (the context is lost afterwards).
//! - `tile-tools gpu-check core [--quick]`: the cases no other subcommand
//!   runs (the seeds' kernels on irregular sizes, memory order, padding, the
//!   runtime's recompilation, threads and resource errors), with the summary
//!   table. Every case is `core` and the families below (`bash bench/gpu.sh
//!   check matmul` runs them in two calls of under ten minutes).
//! - `tile-tools gpu-check matmul [--quick]`: only the matmul cases.
//! - `tile-tools gpu-check attention [--quick]`: only the attention cases.
//! - `tile-tools gpu-check interop`: only the cudarc, `half` and
//!   every-GPU cases.
//! - `tile-tools gpu-check kernel-fns`: the seed kernels written with
//!   `#[tile::kernel]`, launched through their typed launchers.
//! - `tile-tools gpu-check math-accuracy`: the largest error of tanh, erf
//!   and sigmoid over 2^22 inputs, and the GELU kernels.
//!
//! With `TILE_PTX_EXEC=1` ([`PTX_EXEC_VAR`]) the cases run on the CPU, on
//! the PTX executor (`tile_ptx_exec::device()`: `tile::jit` compiles each
//! kernel for sm_80 and `tile-ptx-exec` runs the PTX, each launch also
//! cross-checked against the interpreter), instead of a GPU: the code we
//! ship, checked without one. Use `--quick` and one family at a time: the
//! executor runs a thread at a time (the full sizes take hours, and the
//! cases over 2^31 elements need as many bytes of host memory), the
//! autotuned matmuls time every configuration, and the cases that need
//! CUDA (interop, faults, the launch benchmark) fail there.

//!
//! Modules: [`cli`] (the command line), [`sweeps`] (the case lists run
//! group by group), [`report`] (the PASS and FAIL lines and the summary
//! table).

pub mod cli;
pub mod report;
pub mod sweeps;

pub use cli::{Check, Cli};

use super::Outcome;
use report::Report;
use std::time::Instant;
use tile::{Device, device_or_skip};

/// The environment variable that runs the GPU check on the PTX executor
/// (see the module's doc): any value but empty or `0`.
pub const PTX_EXEC_VAR: &str = "TILE_PTX_EXEC";

/// The device to check: the PTX executor when [`PTX_EXEC_VAR`] asks for
/// it, else the GPU (or the interpreter, with `TILE_INTERPRET`); `None`
/// without one.
fn device_to_check() -> Option<Device> {
    let exec = std::env::var(PTX_EXEC_VAR).is_ok_and(|v| !matches!(v.trim(), "" | "0"));
    if exec {
        return Some(tile_ptx_exec::device());
    }
    device_or_skip("tile-tools gpu-check")
}

/// Runs one check.
fn check(check: &Check, device: &Device) -> Result<(), String> {
    use super::runtime;
    match check {
        Check::LaunchBench { samples } => runtime::launch_bench(device, *samples).map(|table| {
            println!("\nhost time per launch, microseconds (target: median <= 3 us)\n");
            print!("{table}");
        }),
        Check::GraphBench { windows } => {
            runtime::graph_replay_case(device)?;
            println!("PASS graph replay: 10 launches captured, replayed 5 times, exact");
            runtime::graph_bench(device, *windows).map(|table| {
                println!("\ntime per kernel, windows of 200 launches of a 4-program vector add\n");
                print!("{table}");
            })
        }
        Check::Autotune { cache_dir } => {
            let dir = cache_dir
                .clone()
                .unwrap_or_else(|| std::env::temp_dir().join("tile-autotune-demo"));
            runtime::autotune_demo(device, &dir)
                .and_then(|mut lines| {
                    lines.extend(runtime::oversized_configs(device)?);
                    Ok(lines)
                })
                .map(|lines| {
                    println!();
                    for l in lines {
                        println!("{l}");
                    }
                })
        }
        Check::AotCompare { file } => runtime::aot_compare(device, file),
        Check::Fault => runtime::fault_case(device),
        Check::Matmul { quick } => family("matmul", super::matmul::cases(!quick), |c| {
            (c.name(), c.run(device))
        }),
        Check::MatmulStyles { quick } => {
            family("matmul_styles", super::matmul_styles::cases(!quick), |c| {
                (c.name(), c.run(device))
            })
        }
        Check::Attention { quick } => family("attention", super::attention::cases(!quick), |c| {
            (c.name(), c.run(device))
        }),
        Check::MathAccuracy => family("math", super::math_accuracy::cases(device), |(c, o)| {
            (c.clone(), o.clone())
        }),
        Check::Ops { group } => family(
            "ops",
            super::ops::ops_of(device, super::ops::Accuracy::Approximate, group.as_deref()),
            |(group, case, outcome)| (format!("{group} {case}"), outcome.clone()),
        ),
        Check::OpKernels { quick } => family(
            "op_kernels",
            super::op_kernels::cases(device, !quick),
            |(case, outcome)| (case.clone(), outcome.clone()),
        ),
        Check::GeluDump { dir } => super::math_accuracy::gelu_dump(device, dir),
        Check::Debug => {
            let exe = std::env::current_exe().map_err(|e| e.to_string())?;
            let cases = super::debug::cases(|case| {
                let mut c = std::process::Command::new(&exe);
                c.args(["gpu-check", "debug-child", case]);
                c
            });
            family("debug", cases, |(case, outcome)| {
                (case.clone(), outcome.clone())
            })
        }
        Check::DebugChild { case } => super::debug::child(device, case),
        Check::Core { quick } => {
            let started = Instant::now();
            let mut report = Report::default();
            core(device, *quick, &mut report);
            let name = device.name().unwrap_or_else(|e| e.to_string());
            if report.summarize(&name, started, device) {
                Ok(())
            } else {
                Err("a core case failed (the table above)".into())
            }
        }
        Check::KernelFns => family(
            "kernel_fns",
            tile_examples::kernel_fn_checks::cases(device, true),
            |(case, outcome)| (case.to_string(), outcome.clone()),
        ),
        Check::Interop => {
            let mut cases = super::interop::cases(device);
            let (name, outcome) = super::interop::every_device();
            cases.push(("every_gpu", name, outcome));
            family("interop", cases, |(group, case, outcome)| {
                (format!("{group} {case}"), outcome.clone())
            })
        }
    }
}

/// Runs each case of one family, printing a PASS or FAIL line for each.
fn family<C>(name: &str, cases: Vec<C>, run: impl Fn(&C) -> (String, Outcome)) -> Outcome {
    let mut failed = 0;
    for case in &cases {
        match run(case) {
            (case, Ok(())) => println!("PASS {name} {case}"),
            (case, Err(e)) => {
                failed += 1;
                println!("FAIL {name} {case}: {e}");
            }
        }
    }
    if failed == 0 {
        Ok(())
    } else {
        Err(format!("{failed} of {} {name} cases failed", cases.len()))
    }
}

/// `tile-tools gpu-check`: one check, or every case; returns the exit
/// status (1 when a case failed). Without a GPU it prints "skipped: no
/// CUDA device" and returns 0.
pub fn main(cli: &Cli) -> i32 {
    let quick = cli.quick;
    let Some(device) = device_to_check() else {
        return 0;
    };
    if let Some(one) = &cli.check {
        let outcome = check(one, &device);
        if let Some(line) = super::cross_check::summary(&device) {
            println!("{line}");
        }
        return match outcome {
            Ok(()) => {
                println!("PASS {}", one.name());
                0
            }
            Err(e) => {
                println!("FAIL {}: {e}", one.name());
                1
            }
        };
    }
    let name = device.name().unwrap_or_else(|e| e.to_string());
    println!("device: {name}");
    let started = Instant::now();
    let mut report = Report::default();

    core(&device, quick, &mut report);
    for case in super::matmul::cases(!quick) {
        report.record("matmul", case.name(), case.run(&device));
    }
    for case in super::matmul_styles::cases(!quick) {
        report.record("matmul_styles", case.name(), case.run(&device));
    }
    for case in super::attention::cases(!quick) {
        report.record("attention", case.name(), case.run(&device));
    }
    for (group, case, outcome) in super::ops::every_op(&device, super::ops::Accuracy::Approximate) {
        report.record(&format!("op_{group}"), case, outcome);
    }
    for (case, outcome) in super::op_kernels::cases(&device, !quick) {
        report.record("op_kernels", case, outcome);
    }
    for (case, outcome) in super::math_accuracy::cases(&device) {
        report.record("math_accuracy", case, outcome);
    }
    for (group, case, outcome) in super::interop::cases(&device) {
        report.record(group, case, outcome);
    }
    {
        let (case, outcome) = super::interop::every_device();
        report.record("every_gpu", case, outcome);
    }

    i32::from(!report.summarize(&name, started, &device))
}

/// The cases no family subcommand runs: the seeds' kernels on irregular
/// sizes (basics, reductions, layer norms), memory order, block-pointer
/// padding and the runtime's recompilation, threads and resource errors.
fn core(device: &Device, quick: bool, report: &mut Report) {
    use super::runtime;
    sweeps::basics(device, quick, report);
    sweeps::reductions(device, quick, report);
    sweeps::layer_norms(device, report);
    for (case, outcome) in super::memory_order::memory_order(device) {
        report.record("memory_order", case, outcome);
    }
    sweeps::paddings(device, report);
    report.record(
        "runtime",
        "1000 launches varying n: 1 compile; n % 16 == 0: a 2nd naming `n`".into(),
        runtime::recompile_case(device),
    );
    report.record(
        "runtime",
        "8 threads x 20 launches through 2 shared JIT kernels".into(),
        runtime::threads_case(device),
    );
    report.record(
        "runtime",
        "OOM, 64 warps, 264 KiB of shared memory: typed errors, device still usable".into(),
        runtime::resource_errors_case(device),
    );
}
