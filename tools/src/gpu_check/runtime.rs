//! GPU checks and benchmarks of the runtime (issue 6): recompiles per
//! argument facts, threads launching at once, typed resource errors that
//! leave the device usable, a kernel fault (here); host time per launch
//! ([`mod@launch_bench`]), the autotuner ([`autotune`]), and the comparison of
//! ahead-of-time code with the JIT ([`aot`]).

pub mod aot;
pub mod autotune;
pub mod graph_bench;
pub mod launch_bench;

pub use aot::aot_compare;
pub use autotune::{autotune_demo, oversized_configs};
pub use graph_bench::{graph_bench, graph_replay_case};
pub use launch_bench::launch_bench;

use super::{compare, poisoned};
use std::sync::Arc;
use tile::{Arg, Buffer, Device, DevicePtr, Jit, Options, RuntimeError};
use tile_runtime::pattern_f32;

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
    // A 256x256 one would take 264 KiB, more than a block may have: the
    // compiler refuses it for the chip (227 KiB on sm_90).
    let big =
        tile_examples::attention_tiles::k_tile_load_transposed(&context, 256, 256).map_err(err)?;
    match tile::compile(&big, &Options::with_warps(16)) {
        Err(e)
            if e.to_string()
                .contains("bytes of shared memory, more than the") =>
        {
            println!("  {e}")
        }
        other => {
            return Err(format!(
                "a 264 KiB transpose: expected the compiler to refuse it, got {:?}",
                other.map(|c| c.spec.shared_mem_bytes)
            ));
        }
    }
    // Code that asks the device for more (PTX from elsewhere, or compiled
    // for another chip) is refused when it is loaded.
    let mut greedy = compiled.spec.clone();
    greedy.shared_mem_bytes = 264 << 10;
    match device.load(&compiled.ptx, &greedy) {
        Err(e @ RuntimeError::TooMuchSharedMemory { .. }) => println!("  {e}"),
        other => {
            return Err(format!(
                "264 KiB asked at load: expected TooMuchSharedMemory, got {other:?}"
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
