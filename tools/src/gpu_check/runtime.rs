//! GPU checks and benchmarks of the runtime (issue 6): recompiles per
//! argument facts, threads launching at once, typed resource errors that
//! leave the device usable, a kernel fault, host time per launch, the
//! autotuner, and the comparison of ahead-of-time code with the JIT.

use super::{compare, poisoned};
use std::sync::Arc;
use std::time::Instant;
use tile::{Arg, Buffer, Config, Device, DevicePtr, Jit, KernelCache, Options, RuntimeError};
use tile_dialect::DType;
use tile_runtime::{CacheKey, DiskCache, Fact, Specialization, pattern_f32};

type Outcome = Result<(), String>;

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The vector add's arguments: `x`, `y`, `out` and `n`.
fn add_args(x: &Buffer<f32>, y: &Buffer<f32>, out: &Buffer<f32>, n: usize) -> [Arg; 4] {
    let n = i32::try_from(n).expect("the check's sizes fit in i32");
    [x.into(), y.into(), out.into(), Arg::I32(n)]
}

/// The vector add with `block` elements per program, as a [`Jit`].
fn vector_add_jit(block: i32) -> Result<Jit, String> {
    let context = tile::context().map_err(err)?;
    let kernel = tile_examples::vector_add::safe_kernel(&context, block).map_err(err)?;
    tile::jit(&kernel, Options::default()).map_err(err)
}

/// 1,000 launches with `n` never 1 nor a multiple of 16 make one variant
/// (compiled, or from the cache); each result is right; `n` a multiple of
/// 16 makes a second variant, whose event names `n`.
pub fn recompile_case(device: &Device) -> Outcome {
    let add = vector_add_jit(256)?;
    let cap = 16 * 999 + 3;
    let (x, y) = (pattern_f32(cap, 1), pattern_f32(cap, 2));
    let (dx, dy) = (
        device.upload(&x).map_err(err)?,
        device.upload(&y).map_err(err)?,
    );
    let out = device.upload(&poisoned(cap)).map_err(err)?;
    for i in 0..1000 {
        let n: usize = 16 * i + 3;
        let args = add_args(&dx, &dy, &out, n);
        add.launch_async(device, n.div_ceil(256) as u32, &args)
            .map_err(err)?;
    }
    let got = device.download(&out).map_err(err)?;
    let want: Vec<f32> = x.iter().zip(&y).map(|(a, b)| a + b).collect();
    compare(&got, &want)?;
    // One variant for the 1000 launches: compiled now, or taken from the
    // cache when an earlier case compiled the same kernel.
    if add.events().len() != 1 || add.compiles() > 1 {
        return Err(format!("variants for 1000 launches: {:?}", add.events()));
    }
    let n = 4096;
    let args = add_args(&dx, &dy, &out, n as usize);
    add.launch(device, 16, &args).map_err(err)?;
    let events = add.events();
    let last = events.last().map(ToString::to_string).unwrap_or_default();
    if events.len() != 2 || !last.contains("argument 3 (`n`) none -> %16") {
        return Err(format!("expected a second compile naming `n`: {events:?}"));
    }
    for e in &events {
        println!("  event: {e}");
    }
    Ok(())
}

/// Threads launch through shared JIT kernels (and compile their variants)
/// at once, each on buffers of its own; every result is right and each
/// variant is compiled once.
pub fn threads_case(device: &Device) -> Outcome {
    let kernels: Vec<Jit> = [128, 512]
        .iter()
        .map(|&b| vector_add_jit(b))
        .collect::<Result<_, _>>()?;
    let kernels = Arc::new(kernels);
    let results: Vec<Outcome> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|t| {
                let kernels = kernels.clone();
                s.spawn(move || -> Outcome {
                    for round in 0..20 {
                        // Odd threads use lengths divisible by 16 (another
                        // variant), even ones not.
                        let n = if t % 2 == 1 { 4096 + 16 * t } else { 4093 + t };
                        let (x, y) = (pattern_f32(n, t as u32), pattern_f32(n, round));
                        let dx = device.upload(&x).map_err(err)?;
                        let dy = device.upload(&y).map_err(err)?;
                        let out = device.upload(&poisoned(n)).map_err(err)?;
                        let (k, block) = if (t + round as usize).is_multiple_of(2) {
                            (&kernels[0], 128)
                        } else {
                            (&kernels[1], 512)
                        };
                        let args = add_args(&dx, &dy, &out, n);
                        k.launch(device, n.div_ceil(block) as u32, &args)
                            .map_err(err)?;
                        let want: Vec<f32> = x.iter().zip(&y).map(|(a, b)| a + b).collect();
                        compare(&device.download(&out).map_err(err)?, &want)?;
                    }
                    Ok(())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    results.into_iter().collect::<Result<(), _>>()?;
    for k in kernels.iter() {
        if k.compiles() > 2 {
            return Err(format!("{} compiles of {}", k.compiles(), k.name()));
        }
    }
    Ok(())
}

/// Out of memory, too many threads and too much shared memory are typed
/// errors with the numbers; the device keeps working after each.
pub fn resource_errors_case(device: &Device) -> Outcome {
    let check_still_works = |what: &str| -> Outcome {
        let add = vector_add_jit(128)?;
        let x = device.upload(&[1.0f32, 2.0, 3.0]).map_err(err)?;
        let out = device.upload(&poisoned(3)).map_err(err)?;
        add.launch(device, 1, &add_args(&x, &x, &out, 3))
            .map_err(|e| format!("after {what}: {e}"))?;
        compare(&device.download(&out).map_err(err)?, &[2.0, 4.0, 6.0])
    };
    // 4 TiB.
    match device.alloc::<f32>(1 << 40) {
        Err(e @ RuntimeError::OutOfMemory { .. }) => println!("  {e}"),
        other => {
            return Err(format!(
                "4 TiB allocation: expected OutOfMemory, got {other:?}"
            ));
        }
    }
    check_still_works("out of memory")?;
    // The vector add's PTX with a block of 64 warps.
    let context = tile::context().map_err(err)?;
    let kernel = tile_examples::vector_add::safe_kernel(&context, 128).map_err(err)?;
    let compiled = tile::compile(&kernel, &Options::default()).map_err(err)?;
    let mut wide = compiled.spec.clone();
    wide.num_warps = 64;
    match device.load(&compiled.ptx, &wide) {
        Err(e @ RuntimeError::TooManyThreads { .. }) => println!("  {e}"),
        other => return Err(format!("64 warps: expected TooManyThreads, got {other:?}")),
    }
    check_still_works("too many threads")?;
    // A transposing block-pointer load of a 128x128 f32 tile goes through
    // 66 KiB of shared memory (rows padded by 16 bytes): more than the 48
    // KiB a kernel may declare statically, so it is dynamic, and loads.
    let kernel =
        tile_examples::attention_tiles::k_tile_load_transposed(&context, 128, 128).map_err(err)?;
    let compiled = tile::compile(&kernel, &Options::default()).map_err(err)?;
    if compiled.spec.shared_mem_bytes <= 48 << 10 {
        return Err(format!(
            "a 128x128 f32 transpose takes only {} bytes of shared memory",
            compiled.spec.shared_mem_bytes
        ));
    }
    device
        .load(&compiled.ptx, &compiled.spec)
        .map_err(|e| format!("a 66 KiB transpose (dynamic shared memory): {e}"))?;
    // A 256x256 one would take 264 KiB, more than a block may have.
    let kernel =
        tile_examples::attention_tiles::k_tile_load_transposed(&context, 256, 256).map_err(err)?;
    let compiled = tile::compile(&kernel, &Options::with_warps(16)).map_err(err)?;
    match device.load(&compiled.ptx, &compiled.spec) {
        Err(e @ RuntimeError::TooMuchSharedMemory { .. }) => println!("  {e}"),
        other => {
            return Err(format!(
                "a 264 KiB transpose: expected TooMuchSharedMemory, got {other:?}"
            ));
        }
    }
    check_still_works("too much shared memory")
}

/// Launches the vector add on an address nothing is mapped at and waits:
/// the fault must come back as [`RuntimeError::KernelFault`] naming the
/// kernel. The context is lost afterwards, so this runs on its own
/// (`tile-tools gpu-check fault`) and last.
pub fn fault_case(device: &Device) -> Outcome {
    let add = vector_add_jit(1024)?;
    let bogus = Arg::from(DevicePtr(0x10));
    let n = 1 << 20;
    add.launch_async(device, 1024, &[bogus, bogus, bogus, Arg::I32(n)])
        .map_err(err)?;
    match device.synchronize() {
        Err(e @ RuntimeError::KernelFault { .. }) => {
            println!("  {e}");
            if e.kernel() != Some("safe_kernel") {
                return Err(format!("the fault names {:?}", e.kernel()));
            }
            let next = device.upload(&[1.0f32]).map(|_| ());
            println!("  the next call: {next:?}");
            Ok(())
        }
        other => Err(format!("expected KernelFault, got {other:?}")),
    }
}

/// Host time per launch, in microseconds: `(median, p99, mean)` of
/// `samples` launches timed one by one; the device is drained every 200
/// launches (untimed) so that the driver's queue never fills.
fn host_times(
    samples: usize,
    mut launch: impl FnMut() -> Result<(), RuntimeError>,
    device: &Device,
) -> Result<(f64, f64, f64), String> {
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
    Ok(stats(times))
}

/// Host time per launch, in microseconds, from windows of 200 launches
/// timed as a whole (two clock reads per window, so the clock's own cost
/// does not count): `(median, p99, mean)` of the windows' means.
fn windowed_host_times(
    samples: usize,
    mut launch: impl FnMut() -> Result<(), RuntimeError>,
    device: &Device,
) -> Result<(f64, f64, f64), String> {
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
    Ok(stats(means))
}

/// `(median, p99, mean)` of `times`.
fn stats(mut times: Vec<f64>) -> (f64, f64, f64) {
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99), mean)
}

/// The cost of one clock read, in microseconds (median of 10,000).
fn clock_read_us() -> f64 {
    let mut t: Vec<f64> = (0..10_000)
        .map(|_| {
            let a = Instant::now();
            let b = Instant::now();
            (b - a).as_secs_f64() * 1e6
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

/// The launch benchmark: host time per launch of the cached 4-argument
/// vector add (4096 elements, 4 programs) through the JIT kernel (facts of
/// the arguments, variant lookup, argument checks, `cuLaunchKernel`) and
/// through the loaded variant directly. Returns Markdown table rows.
pub fn launch_bench(device: &Device, samples: usize) -> Result<Vec<String>, String> {
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
    let raw = |stream| -> Result<(f64, f64, f64), String> {
        let mut t =
            tile_runtime::launch::raw_launch_host_us(&variant, 4u32.into(), &args, samples, stream)
                .map_err(err)?;
        let mean = t.iter().sum::<f64>() / t.len() as f64;
        t.sort_by(f64::total_cmp);
        let at = |q: f64| t[((t.len() - 1) as f64 * q).round() as usize];
        Ok((at(0.5), at(0.99), mean))
    };
    use tile_runtime::launch::RawStream;
    let raw_null = raw(RawStream::Null)?;
    let raw_blocking = raw(RawStream::Blocking)?;
    let raw_non_blocking = raw(RawStream::NonBlocking)?;
    let target = 3.0;
    let row = |what: &str, (median, p99, mean): (f64, f64, f64)| {
        format!(
            "| {what} | {samples} | {median:.2} | {p99:.2} | {mean:.2} | {} |",
            if median <= target { "PASS" } else { "FAIL" }
        )
    };
    Ok(vec![
        row("`Jit::launch_async` (variant choice + launch)", jit),
        row(
            "`Jit::launch_async`, windows of 200 (mean per launch)",
            jit_windows,
        ),
        row(
            "`LoadedKernel::launch_async`, windows of 200 (mean per launch)",
            direct_windows,
        ),
        row("`LoadedKernel::launch_async` (launch only)", direct),
        row("bare `cuLaunchKernel`, NULL stream", raw_null),
        row("bare `cuLaunchKernel`, created stream", raw_blocking),
        row(
            "bare `cuLaunchKernel`, created non-blocking stream",
            raw_non_blocking,
        ),
        format!("| one clock read (`Instant::now`) | 10000 | {clock:.3} | | | |"),
    ])
}

/// The autotuner over row-sum configurations on a 2048x32768 f32 matrix
/// (few, long rows: the configurations' speeds differ widely):
/// tunes (every configuration timed), then re-times every configuration
/// independently with more repetitions and in interleaved rounds, and says
/// whether the choice is the fastest. A second tuner over the same cache
/// directory reads the choice from disk. Returns Markdown lines.
pub fn autotune_demo(device: &Device, cache_dir: &std::path::Path) -> Result<Vec<String>, String> {
    let (m, n) = (2048usize, 32768usize);
    let configs = vec![
        Config::new(1).with("BLOCK_N", 128),
        Config::new(2).with("BLOCK_N", 512),
        Config::new(4).with("BLOCK_N", 1024),
        Config::new(8).with("BLOCK_N", 2048),
        Config::new(8).with("BLOCK_N", 4096),
    ];
    let cache = Arc::new(KernelCache::new(Some(DiskCache::at(cache_dir))));
    let make = || {
        tile::jit::autotuner_with_cache(
            "row_sum",
            configs.clone(),
            Options::default(),
            cache.clone(),
            row_sum_config,
        )
        .map_err(err)
    };
    let tuner = make()?;
    let a = device.upload(&pattern_f32(m * n, 3)).map_err(err)?;
    let out = device.upload(&poisoned(m)).map_err(err)?;
    let args = [
        (&a).into(),
        (&out).into(),
        Arg::I32(m as i32),
        Arg::I32(n as i32),
        Arg::I64(n as i64),
        Arg::I64(1),
    ];
    let grid = |_: &Config| tile::Grid::from(m as u32);
    let key = format!("{m}x{n}");
    tuner.launch(device, &key, grid, &args).map_err(err)?;
    device.synchronize().map_err(err)?;
    // The chosen configuration computed the right sums.
    let host = pattern_f32(m * n, 3);
    let want: Vec<f32> = host.chunks(n).map(|r| r.iter().sum()).collect();
    let got = device.download(&out).map_err(err)?;
    let bad = got
        .iter()
        .zip(&want)
        .filter(|(g, w)| (*g - *w).abs() > 1e-3 * (1.0 + w.abs()))
        .count();
    if bad != 0 {
        return Err(format!("{bad} wrong row sums from the tuned kernel"));
    }
    let tuning = tuner.tunings().pop().ok_or("no tuning recorded")?;
    // Re-time: 10 interleaved rounds of 50 launches per configuration.
    let kernels: Vec<_> = (0..configs.len())
        .map(|i| tuner.launcher(i).variant(device, &args).map_err(err))
        .collect::<Result<_, _>>()?;
    let mut samples: Vec<Vec<f32>> = vec![Vec::new(); configs.len()];
    for _ in 0..10 {
        for (i, k) in kernels.iter().enumerate() {
            let times = device
                .time_each_ms(50, || Ok(()), || k.launch_async(m as u32, &args))
                .map_err(err)?;
            samples[i].extend(times);
        }
    }
    let medians: Vec<f64> = samples
        .iter_mut()
        .map(|s| {
            s.sort_by(f32::total_cmp);
            f64::from(s[s.len() / 2])
        })
        .collect();
    let fastest = (0..medians.len())
        .min_by(|&a, &b| medians[a].total_cmp(&medians[b]))
        .unwrap_or(0);
    let mut lines = vec![
        format!(
            "row sum {m}x{n} f32, key {key:?}; tuning: 3 warm-up + 25 timed launches per configuration; re-timing: 10 interleaved rounds of 50"
        ),
        String::new(),
        "| configuration | tuning median (ms) | re-timed median (ms) | vs fastest | chosen |"
            .into(),
        "|---|---|---|---|---|".into(),
    ];
    for (i, c) in configs.iter().enumerate() {
        lines.push(format!(
            "| {c} | {:.4} | {:.4} | {:.3} | {} |",
            tuning.times_ms.get(i).copied().unwrap_or(f64::NAN),
            medians[i],
            medians[i] / medians[fastest],
            if i == tuning.chosen { "yes" } else { "" }
        ));
    }
    lines.push(String::new());
    lines.push(format!(
        "chosen: {} ; fastest when re-timed: {} ; {}",
        configs[tuning.chosen],
        configs[fastest],
        if tuning.chosen == fastest {
            "PASS: the choice is the fastest".to_string()
        } else if medians[tuning.chosen] <= medians[fastest] * 1.01 {
            format!(
                "PASS: the choice is within 1% of the fastest ({:.2}% slower, within the \
                 re-timing's noise)",
                (medians[tuning.chosen] / medians[fastest] - 1.0) * 100.0
            )
        } else {
            format!(
                "FAIL: the choice is {:.1}% slower than the fastest",
                (medians[tuning.chosen] / medians[fastest] - 1.0) * 100.0
            )
        }
    ));
    // A second tuner (a new process would do the same) reads the choice.
    let again = make()?;
    let chosen = again.choose(device, &key, grid, &args).map_err(err)?;
    let from_disk = again.tunings().pop().is_some_and(|t| t.from_disk);
    lines.push(format!(
        "a second tuner over the same cache directory: {} ({})",
        configs[chosen],
        if from_disk {
            "read from disk, nothing timed"
        } else {
            "timed again"
        }
    ));
    Ok(lines)
}

/// The f32 row sum of a configuration (its `BLOCK_N`).
fn row_sum_config<'c>(
    context: &'c melior::Context,
    config: &Config,
) -> tile_dialect::Result<tile_dialect::Kernel<'c>> {
    tile_examples::row_sum::row_sum(context, config.get("BLOCK_N").unwrap_or(1024), DType::F32)
}

/// The vector add through the JIT on the inputs `tile-aot-example` uses;
/// compares the results with the bytes that program wrote, and prints the
/// SHA-256 of the JIT's PTX for the two variants the program embeds.
pub fn aot_compare(device: &Device, aot_output: &std::path::Path) -> Outcome {
    let context = tile::context().map_err(err)?;
    let kernel = tile_examples::vector_add::safe_kernel(&context, tile_examples::vector_add::BLOCK)
        .map_err(err)?;
    let options = Options {
        dump: None,
        ..Options::default()
    };
    let compiler = tile::TileCompiler::new(&kernel, options.clone()).map_err(err)?;
    for facts in [vec![], vec![Fact::DivisibleBy16; 4]] {
        let a = compiler
            .compile(&Specialization {
                facts: facts.clone(),
            })
            .map_err(err)?;
        println!(
            "  jit ptx for facts {facts:?}: sha256 {}",
            CacheKey::digest(a.ptx.as_bytes())
        );
    }
    let add = tile::jit(&kernel, options).map_err(err)?;
    let mut bytes = Vec::new();
    for n in [1_000_003usize, 1 << 20] {
        let (x, y) = (pattern_f32(n, 1), pattern_f32(n, 2));
        let (dx, dy) = (
            device.upload(&x).map_err(err)?,
            device.upload(&y).map_err(err)?,
        );
        let out = device.upload(&vec![f32::NAN; n]).map_err(err)?;
        let args = add_args(&dx, &dy, &out, n);
        add.launch(device, n.div_ceil(1024) as u32, &args)
            .map_err(err)?;
        bytes.extend(
            device
                .download(&out)
                .map_err(err)?
                .iter()
                .flat_map(|v| v.to_le_bytes()),
        );
    }
    for e in add.events() {
        println!("  {e}");
    }
    let aot = std::fs::read(aot_output).map_err(|e| format!("{}: {e}", aot_output.display()))?;
    if aot.len() != bytes.len() {
        return Err(format!(
            "{} bytes from the AOT program, {} from the JIT",
            aot.len(),
            bytes.len()
        ));
    }
    match aot.iter().zip(&bytes).position(|(a, b)| a != b) {
        None => {
            println!("  {} result bytes: AOT and JIT bit-identical", bytes.len());
            Ok(())
        }
        Some(i) => Err(format!("first differing byte at {i}")),
    }
}
