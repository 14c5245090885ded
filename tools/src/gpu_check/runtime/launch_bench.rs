//! Host time per launch of a cached 4-argument kernel (`tile-tools
//! gpu-check launch-bench`): the JIT kernel and the loaded variant, one by
//! one and in windows of 200, and bare `cuLaunchKernel` on each kind of
//! stream, as median, 99th percentile and mean
//! ([`crate::timing::Spread`], as `bench/triton_launch.py` computes them
//! for Triton's launch).

use super::{add_args, err, vector_add_jit};
use crate::gpu_check::poisoned;
use crate::markdown::Table;
use crate::timing::Spread;
use std::time::Instant;
use tile::{Device, RuntimeError};
use tile_runtime::pattern_f32;

/// Host time per launch, in microseconds: `(median, p99, mean)` of
/// `samples` launches timed one by one; the device is drained every 200
/// launches (untimed) so that the driver's queue never fills.
fn host_times(
    samples: usize,
    mut launch: impl FnMut() -> Result<(), RuntimeError>,
    device: &Device,
) -> Result<Spread, String> {
    let mut times = Vec::with_capacity(samples);
    for i in 0..samples {
        if i % 200 == 0 {
            device.synchronize().map_err(err)?;
        }
        let started = Instant::now();
        launch().map_err(err)?;
        times.push(started.elapsed().as_secs_f64() * 1e6);
    }
    device.synchronize().map_err(err)?;
    Ok(Spread::of(times))
}

/// Host time per launch, in microseconds, from windows of 200 launches
/// timed as a whole (two clock reads per window, so the clock's own cost
/// does not count): `(median, p99, mean)` of the windows' means.
fn windowed_host_times(
    samples: usize,
    mut launch: impl FnMut() -> Result<(), RuntimeError>,
    device: &Device,
) -> Result<Spread, String> {
    const WINDOW: usize = 200;
    let mut means = Vec::with_capacity(samples / WINDOW);
    for _ in 0..samples / WINDOW {
        device.synchronize().map_err(err)?;
        let started = Instant::now();
        for _ in 0..WINDOW {
            launch().map_err(err)?;
        }
        means.push(started.elapsed().as_secs_f64() * 1e6 / WINDOW as f64);
    }
    device.synchronize().map_err(err)?;
    Ok(Spread::of(means))
}

/// The cost of one clock read, in microseconds (median of 10,000).
fn clock_read_us() -> f64 {
    let times: Vec<f64> = (0..10_000)
        .map(|_| {
            let a = Instant::now();
            let b = Instant::now();
            (b - a).as_secs_f64() * 1e6
        })
        .collect();
    Spread::of(times).median
}

/// The launch benchmark: host time per launch of the cached 4-argument
/// vector add (4096 elements, 4 programs) through the JIT kernel (facts of
/// the arguments, variant lookup, argument checks, `cuLaunchKernel`) and
/// through the loaded variant directly. Returns the Markdown table.
pub fn launch_bench(device: &Device, samples: usize) -> Result<Table, String> {
    let add = vector_add_jit(1024)?;
    let n = 4096;
    let x = device.upload(&pattern_f32(n, 1)).map_err(err)?;
    let out = device.upload(&poisoned(n)).map_err(err)?;
    let args = add_args(&x, &x, &out, n);
    add.launch(device, 4, &args).map_err(err)?;
    let variant = add.variant(device, &args).map_err(err)?;
    // Warm up both paths.
    host_times(2000, || add.launch_async(device, 4, &args), device)?;
    let jit = host_times(samples, || add.launch_async(device, 4, &args), device)?;
    let direct = host_times(samples, || variant.launch_async(4u32, &args), device)?;
    let jit_windows = windowed_host_times(samples, || add.launch_async(device, 4, &args), device)?;
    let direct_windows =
        windowed_host_times(samples, || variant.launch_async(4u32, &args), device)?;
    let clock = clock_read_us();
    let raw = |stream| -> Result<Spread, String> {
        tile_runtime::launch::raw_launch_host_us(&variant, 4u32.into(), &args, samples, stream)
            .map(Spread::of)
            .map_err(err)
    };
    use tile_runtime::launch::RawStream;
    let raw_null = raw(RawStream::Null)?;
    let raw_blocking = raw(RawStream::Blocking)?;
    let raw_non_blocking = raw(RawStream::NonBlocking)?;
    let target = 3.0;
    let mut table = Table::new(&["path", "launches", "median", "p99", "mean", "target"]);
    for (what, spread) in [
        ("`Jit::launch_async` (variant choice + launch)", jit),
        (
            "`Jit::launch_async`, windows of 200 (mean per launch)",
            jit_windows,
        ),
        (
            "`LoadedKernel::launch_async`, windows of 200 (mean per launch)",
            direct_windows,
        ),
        ("`LoadedKernel::launch_async` (launch only)", direct),
        ("bare `cuLaunchKernel`, NULL stream", raw_null),
        ("bare `cuLaunchKernel`, created stream", raw_blocking),
        (
            "bare `cuLaunchKernel`, created non-blocking stream",
            raw_non_blocking,
        ),
    ] {
        table.push([
            what.to_string(),
            samples.to_string(),
            format!("{:.2}", spread.median),
            format!("{:.2}", spread.p99),
            format!("{:.2}", spread.mean),
            (if spread.median <= target {
                "PASS"
            } else {
                "FAIL"
            })
            .to_string(),
        ]);
    }
    table.push_line(format!(
        "| one clock read (`Instant::now`) | 10000 | {clock:.3} | | | |"
    ));
    Ok(table)
}
