//! CUDA graphs (`tile-tools gpu-check graph-bench`): launches captured into
//! a graph replay what they computed (checked), and a window of 200 small
//! launches costs less replayed than launched one by one (timed, as
//! `bench/triton_graph.py` times Triton's launches and torch's
//! `CUDAGraph` replay of them).

use super::{add_args, err, vector_add_jit};
use crate::markdown::Table;
use crate::timing::Spread;
use std::time::Instant;
use tile::{Arg, DType, Device, Kernel, Options};
use tile_runtime::pattern_f32;

/// Launches a window holds.
const WINDOW: usize = 200;

/// A device on GPU 0's context with a stream of its own (the legacy
/// default stream cannot be captured).
fn capturing_device(device: &Device) -> Result<Device, String> {
    let stream = device
        .cuda_stream()
        .ok_or("CUDA graphs need a GPU (this is the interpreter)")?;
    Device::from_cuda_context(stream.context()).map_err(err)
}

/// Ten launches of `acc += x` captured, the graph replayed five times:
/// `acc` holds `x` times 51 (one warm-up launch, then 5 x 10), exactly.
pub fn graph_replay_case(device: &Device) -> Result<(), String> {
    let device = capturing_device(device)?;
    let context = tile::context().map_err(err)?;
    let kernel = Kernel::build(&context, "accumulate", |k| {
        let (acc, x) = (k.arg_ptr("acc", DType::F32), k.arg_ptr("x", DType::F32));
        let n = k.arg("n", DType::I32);
        let offs = k.program_id(0) * 1024 + k.arange(0, 1024);
        let m = offs.lt(n);
        let sum = k.load(acc + offs).mask(m).build() + k.load(x + offs).mask(m).build();
        k.store(acc + offs, sum).mask(m).build();
    })
    .map_err(err)?;
    let jit = tile::jit(&kernel, Options::default()).map_err(err)?;
    let n = 100_003;
    let x: Vec<f32> = (0..n).map(|i| (i % 97) as f32).collect();
    let xd = device.upload(&x).map_err(err)?;
    let acc = device.upload(&vec![0.0f32; n]).map_err(err)?;
    let args = [Arg::from(&acc), Arg::from(&xd), Arg::I32(n as i32)];
    let grid = (n as u32).div_ceil(1024);
    jit.launch(&device, grid, &args).map_err(err)?;
    let graph = device
        .capture(|d| {
            for _ in 0..10 {
                jit.launch_async(d, grid, &args)?;
            }
            Ok(())
        })
        .map_err(err)?;
    // Captured, not run.
    let before = device.download(&acc).map_err(err)?;
    if before != x {
        return Err("capturing ran the launches".into());
    }
    for _ in 0..5 {
        graph.replay().map_err(err)?;
    }
    device.synchronize().map_err(err)?;
    let got = device.download(&acc).map_err(err)?;
    match (0..n).find(|&i| got[i] != x[i] * 51.0) {
        None => Ok(()),
        Some(i) => Err(format!("acc[{i}] = {} for {}", got[i], x[i] * 51.0)),
    }
}

/// Time per kernel of windows of 200 launches of the 4-program
/// vector add: launched one by one through the JIT, and replayed from a
/// graph of the same launches; end to end (queued and run: the stream
/// drained after each window) and the host's part (queueing only). Returns
/// the Markdown table.
pub fn graph_bench(device: &Device, windows: usize) -> Result<Table, String> {
    let device = capturing_device(device)?;
    let add = vector_add_jit(1024)?;
    let n = 4096;
    let x = device.upload(&pattern_f32(n, 1)).map_err(err)?;
    let out = device.upload(&vec![0.0f32; n]).map_err(err)?;
    let args = add_args(&x, &x, &out, n);
    add.launch(&device, 4, &args).map_err(err)?;
    let graph = device
        .capture(|d| {
            for _ in 0..WINDOW {
                add.launch_async(d, 4, &args)?;
            }
            Ok(())
        })
        .map_err(err)?;
    let time = |queue: &dyn Fn() -> Result<(), String>| -> Result<(Spread, Spread), String> {
        let (mut total, mut host) = (Vec::new(), Vec::new());
        for w in 0..windows + 5 {
            device.synchronize().map_err(err)?;
            let started = Instant::now();
            queue()?;
            let queued = started.elapsed();
            device.synchronize().map_err(err)?;
            let ran = started.elapsed();
            if w >= 5 {
                host.push(queued.as_secs_f64() * 1e6 / WINDOW as f64);
                total.push(ran.as_secs_f64() * 1e6 / WINDOW as f64);
            }
        }
        Ok((Spread::of(total), Spread::of(host)))
    };
    let launches = time(&|| {
        for _ in 0..WINDOW {
            add.launch_async(&device, 4, &args).map_err(err)?;
        }
        Ok(())
    })?;
    let replays = time(&|| graph.replay().map_err(err))?;
    let mut table = Table::new(&[
        "path",
        "windows",
        "end to end, us a kernel (median)",
        "p99",
        "host, us a kernel (median)",
    ]);
    for (what, (total, host)) in [
        ("`Jit::launch_async` x 200", launches),
        ("`Graph::replay` of the 200", replays),
    ] {
        table.push([
            what.to_string(),
            windows.to_string(),
            format!("{:.2}", total.median),
            format!("{:.2}", total.p99),
            format!("{:.3}", host.median),
        ]);
    }
    Ok(table)
}
