//! The code we ship, executed on the CPU: each kernel is compiled to PTX
//! for sm_80 (tensor cores through `mma.sync`, pipelined loops through
//! `cp.async`) or sm_90 (`wgmma`: `hopper.rs`, `carried.rs`, the op sweeps
//! whose lowering depends on the chip), run by `tile-ptx-exec` and by the
//! tile-IR interpreter on the same inputs in two `HostMemory`s holding
//! the same buffers at the same addresses, and every output buffer is
//! compared: bit for bit where the kernel's arithmetic is exact (copies,
//! integer math, sums of small integers in any order), within a stated
//! number of ulps where the GPU's approximations (`ex2.approx` for `exp`)
//! or a sum's order differ from the interpreter's correctly rounded
//! results. Products and sums are compiled without fusion (`fp_fusion:
//! false`), as the interpreter rounds them.
//!
//! A lowering bug (a bound off by one, a wrong layout or vector width)
//! changes what the PTX computes but not what the interpreter does, so
//! these tests fail where the interpreter's suites pass.

use tile::{Arg, DType, DevicePtr, Interpreter, Kernel, Options, Specialization};
use tile_examples::{attention_tiles, cumsum, histogram, layer_norm, masked_tile_2d, row_sum};
use tile_examples::{softmax, vector_add};
use tile_ptx_exec::PtxKernel;
use tile_runtime::{HostKernel, HostMemory};

mod addresses;
mod attention;
mod carried;
mod device;
mod dot;
mod exchange;
mod hopper;
mod launch_order;
mod matmul;
mod memory_order;
mod ops;
mod padding;
mod reductions;
mod scans;
mod streams;

/// A kernel argument: a buffer (its bytes) or a scalar.
enum In {
    Buf(Vec<u8>),
    Scalar(Arg),
}

fn f32s(v: &[f32]) -> In {
    In::Buf(v.iter().flat_map(|x| x.to_le_bytes()).collect())
}

fn i32s(v: &[i32]) -> In {
    In::Buf(v.iter().flat_map(|x| x.to_le_bytes()).collect())
}

fn zeros(n: usize) -> In {
    In::Buf(vec![0; n * 4])
}

/// Deterministic values in [-1, 1): the GPU check's inputs (in [-8, 8))
/// scaled by 1/8, exactly.
fn randoms(n: usize, seed: u64) -> Vec<f32> {
    tile_tools::gpu_check::inputs(n, seed)
        .into_iter()
        .map(|x| x / 8.0)
        .collect()
}

/// Small integers as floats: every sum of them is exact in any order.
fn small_ints(n: usize, seed: u64) -> Vec<f32> {
    randoms(n, seed)
        .iter()
        .map(|x| (x * 16.0).floor())
        .collect()
}

/// Allocates the buffers in order (the same addresses in every fresh
/// memory) and returns the launch arguments and the buffers' addresses.
fn set_up(memory: &mut HostMemory, inputs: &[In]) -> (Vec<Arg>, Vec<(u64, usize)>) {
    let mut args = Vec::new();
    let mut bufs = Vec::new();
    for input in inputs {
        match input {
            In::Buf(bytes) => {
                let a = memory.alloc(bytes.len());
                memory
                    .range_mut(a, bytes.len())
                    .unwrap()
                    .copy_from_slice(bytes);
                args.push(Arg::from(DevicePtr(a)));
                bufs.push((a, bytes.len()));
            }
            In::Scalar(arg) => args.push(*arg),
        }
    }
    (args, bufs)
}

/// Every buffer after the launch, from the interpreter and from the PTX.
struct Outputs {
    interpreted: Vec<Vec<u8>>,
    executed: Vec<Vec<u8>>,
}

/// Compiles `kernel` for sm_80 with `num_warps` warps and runs it both ways.
fn run_both(kernel: &Kernel, num_warps: u32, grid: [u32; 3], inputs: &[In]) -> Outputs {
    run_compiled(kernel, sm_80(num_warps, 3), false, grid, inputs)
}

/// The options of these tests: sm_80, no fusion, `num_warps` warps and
/// `num_stages` pipeline stages.
fn sm_80(num_warps: u32, num_stages: u32) -> Options {
    Options {
        chip: "sm_80".into(),
        num_warps,
        num_stages,
        fp_fusion: false,
        ..Options::default()
    }
}

/// Compiles `kernel` with `options` (and, with `specialize`, for the facts
/// of the launch's arguments as the JIT would: 16-byte aligned pointers,
/// integers divisible by 16 or equal to 1) and runs it both ways.
fn run_compiled(
    kernel: &Kernel,
    options: Options,
    specialize: bool,
    grid: [u32; 3],
    inputs: &[In],
) -> Outputs {
    try_run_compiled(kernel, options, specialize, grid, inputs)
        .unwrap_or_else(|e| panic!("{} (PTX): {e}", kernel.name()))
}

/// [`run_compiled`], with the PTX executor's fault as `Err`.
fn try_run_compiled(
    kernel: &Kernel,
    options: Options,
    specialize: bool,
    grid: [u32; 3],
    inputs: &[In],
) -> Result<Outputs, String> {
    let options = if specialize {
        let (args, _) = set_up(&mut HostMemory::new(), inputs);
        options.specialized(Specialization::of(&args))
    } else {
        options
    };
    let compiled = tile::compile(kernel, &options).expect("compiles");
    // For debugging a disagreement: the PTX of each kernel into a folder.
    if let Ok(dir) = std::env::var("TILE_PTX_EXEC_DUMP") {
        std::fs::write(format!("{dir}/{}.ptx", kernel.name()), &compiled.ptx).unwrap();
    }
    let ptx = PtxKernel::new(
        &compiled.ptx,
        &compiled.spec.name,
        compiled.spec.num_warps,
        compiled.spec.shared_mem_bytes,
    )
    .unwrap_or_else(|e| panic!("{}: {e}", kernel.name()));
    let interpreter = Interpreter::from_module(kernel.module()).expect("interpretable");
    let mut outputs = Outputs {
        interpreted: Vec::new(),
        executed: Vec::new(),
    };
    for (runner, out) in [
        (&interpreter as &dyn HostKernel, &mut outputs.interpreted),
        (&ptx as &dyn HostKernel, &mut outputs.executed),
    ] {
        let mut memory = HostMemory::new();
        let (args, bufs) = set_up(&mut memory, inputs);
        let ran = runner.run(&mut memory, grid, &args);
        if std::ptr::eq(runner, &ptx as &dyn HostKernel) {
            ran.map_err(|e| e.to_string())?;
        } else {
            ran.unwrap_or_else(|e| panic!("{} (interpreter): {e}", kernel.name()));
        }
        *out = bufs
            .iter()
            .map(|&(a, n)| memory.range(a, n).unwrap().to_vec())
            .collect();
    }
    Ok(outputs)
}

/// Bit-for-bit agreement of every buffer.
fn same_bits(case: &str, o: &Outputs) {
    for (k, (a, b)) in o.interpreted.iter().zip(&o.executed).enumerate() {
        if a != b {
            let i = a.iter().zip(b).position(|(x, y)| x != y).unwrap();
            let e = i / 4 * 4;
            panic!(
                "{case}: buffer {k} differs first at byte {i} (word {}): interpreter {:?}, PTX {:?}",
                i / 4,
                &a[e..(e + 4).min(a.len())],
                &b[e..(e + 4).min(b.len())]
            );
        }
    }
}

/// `f32` buffers within `ulps` of each other (NaN matching NaN).
fn close_f32(case: &str, o: &Outputs, ulps: u32) {
    for (k, (a, b)) in o.interpreted.iter().zip(&o.executed).enumerate() {
        for (i, (x, y)) in a.chunks(4).zip(b.chunks(4)).enumerate() {
            let x = f32::from_le_bytes(x.try_into().unwrap());
            let y = f32::from_le_bytes(y.try_into().unwrap());
            let ordered = |v: f32| {
                let b = v.to_bits() as i32;
                if b < 0 { i32::MIN - b } else { b }
            };
            let d = (i64::from(ordered(x)) - i64::from(ordered(y))).unsigned_abs();
            let ok = (x.is_nan() && y.is_nan()) || d <= u64::from(ulps);
            assert!(
                ok,
                "{case}: buffer {k}[{i}]: interpreter {x:e}, PTX {y:e} ({d} ulps)"
            );
        }
    }
}

/// `f32` buffers within `tol * max(1, |x|)` of each other (NaN matching
/// NaN): for results of cancelling sums, whose ulps mean little.
fn near_f32(case: &str, o: &Outputs, tol: f32) {
    for (k, (a, b)) in o.interpreted.iter().zip(&o.executed).enumerate() {
        for (i, (x, y)) in a.chunks(4).zip(b.chunks(4)).enumerate() {
            let x = f32::from_le_bytes(x.try_into().unwrap());
            let y = f32::from_le_bytes(y.try_into().unwrap());
            let ok = (x.is_nan() && y.is_nan()) || (x - y).abs() <= tol * x.abs().max(1.0);
            assert!(ok, "{case}: buffer {k}[{i}]: interpreter {x:e}, PTX {y:e}");
        }
    }
}

#[test]
fn vector_add_agrees_bit_for_bit_at_irregular_sizes() {
    let context = tile::context().unwrap();
    for (block, n) in [
        (1024, 1),
        (1024, 1025),
        (1024, 3000),
        (128, 129),
        (128, 1000),
    ] {
        let kernel = vector_add::safe_kernel(&context, block).unwrap();
        let grid = [(n as u32).div_ceil(block as u32), 1, 1];
        let inputs = [
            f32s(&randoms(n, 1)),
            f32s(&randoms(n, 2)),
            zeros(n),
            In::Scalar(Arg::from(n as i32)),
        ];
        same_bits(
            &format!("safe_kernel BLOCK={block} n={n}"),
            &run_both(&kernel, 4, grid, &inputs),
        );
    }
}

/// Ranges that start past zero (`arange(s, s + 512)`, four elements a
/// thread), as offsets of a masked copy: each register's index plus the
/// start, also where the program's base is added once and each register
/// keeps its constant offset from it (an unaligned start of 5 and an
/// aligned one of 64).
#[test]
fn shifted_ranges_agree_bit_for_bit() {
    let context = tile::context().unwrap();
    for start in [5, 64] {
        let kernel = Kernel::build(&context, "shifted", |k| {
            let x = k.arg_ptr("x", DType::F32);
            let y = k.arg_ptr("y", DType::F32);
            let n = k.arg("n", DType::I32);
            let offs = k.program_id(0) * 512 + k.arange(start, start + 512);
            let m = offs.lt(n);
            let v = k.load(x + offs).mask(m).other(0.0).build();
            k.store(y + offs, v + v).mask(m).build();
        })
        .unwrap();
        let n = 1200;
        let inputs = [
            f32s(&randoms(n, 3)),
            zeros(n),
            In::Scalar(Arg::from(n as i32)),
        ];
        same_bits(
            &format!("arange({start}, {})", start + 512),
            &run_both(&kernel, 4, [3, 1, 1], &inputs),
        );
    }
}

#[test]
fn masked_tile_2d_agrees_bit_for_bit() {
    let context = tile::context().unwrap();
    let (bm, bk) = (masked_tile_2d::BM, masked_tile_2d::BK);
    let kernel = masked_tile_2d::masked_tile_2d(&context, bm, bk).unwrap();
    for (m, k) in [(17, 33), (40, 70)] {
        let grid = [
            (m as u32).div_ceil(bm as u32),
            (k as u32).div_ceil(bk as u32),
            1,
        ];
        let inputs = [
            f32s(&randoms(m * k, 3)),
            zeros(m * k),
            In::Scalar(Arg::from(m as i32)),
            In::Scalar(Arg::from(k as i32)),
            In::Scalar(Arg::from(k as i32)),
            In::Scalar(Arg::from(1)),
            In::Scalar(Arg::from(k as i32)),
            In::Scalar(Arg::from(1)),
        ];
        same_bits(
            &format!("masked_tile_2d {m}x{k}"),
            &run_both(&kernel, 4, grid, &inputs),
        );
    }
}

/// Block pointers with `boundary_check` along a row, an `advance` loop
/// and a sum reduction (warp shuffles and shared memory in the PTX).
#[test]
fn row_sum_block_pointers_agree_bit_for_bit() {
    let context = tile::context().unwrap();
    for (m, n, block) in [(3, 1000, 1024), (5, 300, 128), (4, 1500, 512)] {
        let kernel = row_sum::row_sum(&context, block, DType::F32).unwrap();
        let inputs = [
            f32s(&small_ints(m * n, 4)),
            zeros(m),
            In::Scalar(Arg::from(m as i32)),
            In::Scalar(Arg::from(n as i32)),
            In::Scalar(Arg::from(n as i64)),
            In::Scalar(Arg::from(1i64)),
        ];
        let o = run_both(&kernel, 4, [m as u32, 1, 1], &inputs);
        same_bits(&format!("row_sum {m}x{n} BLOCK_N={block}"), &o);
    }
}

/// 2-D block pointers over `[b, t, h, k]` with boundary checks on both
/// axes, straight and virtually transposed.
#[test]
fn attention_tile_copies_agree_bit_for_bit() {
    let context = tile::context().unwrap();
    let (bt, bk) = (attention_tiles::BT, attention_tiles::BK);
    let q = attention_tiles::q_tile_load(&context, bt, bk).unwrap();
    let k = attention_tiles::k_tile_load_transposed(&context, bt, bk).unwrap();
    for (b, t, h, kd) in [(1, 70, 2, 40), (2, 33, 1, 17)] {
        let n = b * t * h * kd;
        let grid = [(t as u32).div_ceil(bt as u32), (b * h) as u32, 1];
        for kernel in [&q, &k] {
            let inputs = [
                f32s(&randoms(n, 5)),
                zeros(n),
                In::Scalar(Arg::from(t as i32)),
                In::Scalar(Arg::from(h as i32)),
                In::Scalar(Arg::from(kd as i32)),
            ];
            let case = format!("{} b={b} t={t} h={h} k={kd}", kernel.name());
            same_bits(&case, &run_both(kernel, 4, grid, &inputs));
        }
    }
}

/// Max and sum reductions and `exp`: the PTX computes `exp` through
/// `ex2.approx` (executed as exact `2^x` rounded) after rounding `x *
/// log2(e)`, the interpreter rounds `exp` correctly, and the row sum's
/// order differs: a few ulps.
#[test]
fn softmax_agrees_within_ulps() {
    let context = tile::context().unwrap();
    let kernel = softmax::softmax(&context, 256).unwrap();
    for (rows, cols) in [(3, 200), (2, 256), (4, 17)] {
        let inputs = [
            f32s(
                &randoms(rows * cols, 6)
                    .iter()
                    .map(|x| x * 4.0)
                    .collect::<Vec<_>>(),
            ),
            zeros(rows * cols),
            In::Scalar(Arg::from(cols as i32)),
            In::Scalar(Arg::from(cols as i32)),
            In::Scalar(Arg::from(cols as i32)),
        ];
        let o = run_both(&kernel, 4, [rows as u32, 1, 1], &inputs);
        close_f32(&format!("softmax {rows}x{cols}"), &o, 8);
    }
}

#[test]
fn layer_norm_agrees_within_ulps() {
    let context = tile::context().unwrap();
    let block = 256;
    let kernel = layer_norm::layer_norm_fwd(&context, block).unwrap();
    for (rows, n) in [(3, 200), (2, 700)] {
        let inputs = [
            f32s(&randoms(rows * n, 7)),
            zeros(rows * n),
            f32s(&randoms(n, 8)),
            f32s(&randoms(n, 9)),
            zeros(rows),
            zeros(rows),
            In::Scalar(Arg::from(n as i32)),
            In::Scalar(Arg::from(n as i32)),
            In::Scalar(Arg::from(layer_norm::EPS)),
        ];
        let o = run_both(
            &kernel,
            layer_norm::num_warps(block),
            [rows as u32, 1, 1],
            &inputs,
        );
        // Mean and variance are sums in another order, and `(x - mean)`
        // cancels: compare relative to the values' scale (about 1).
        near_f32(&format!("layer_norm {rows}x{n}"), &o, 4e-6);
    }
}

/// A block scan (`cumsum`: shuffles up and shared memory) in i32, and the
/// histogram's atomics: exact.
#[test]
fn scan_and_histogram_agree_bit_for_bit() {
    let context = tile::context().unwrap();
    let block = 256;
    let scan = cumsum::block_scan(&context, block, DType::I32).unwrap();
    for n in [1usize, 300, 1000] {
        let xs: Vec<i32> = (0..n).map(|i| (i as i32 * 7919) % 201 - 100).collect();
        let blocks = (n as u32).div_ceil(block as u32);
        let inputs = [
            i32s(&xs),
            zeros(n),
            zeros(blocks as usize),
            In::Scalar(Arg::from(n as i32)),
        ];
        same_bits(
            &format!("block_scan n={n}"),
            &run_both(&scan, 4, [blocks, 1, 1], &inputs),
        );
    }
    let hist = histogram::histogram(&context, block).unwrap();
    for (n, bins) in [(1000usize, 16usize), (77, 5)] {
        let xs: Vec<i32> = (0..n).map(|i| ((i * 2654435761) % bins) as i32).collect();
        let inputs = [
            i32s(&xs),
            zeros(bins),
            In::Scalar(Arg::from(n as i32)),
            In::Scalar(Arg::from(bins as i32)),
        ];
        let grid = [(n as u32).div_ceil(block as u32), 1, 1];
        same_bits(
            &format!("histogram n={n} bins={bins}"),
            &run_both(&hist, 4, grid, &inputs),
        );
    }
}

/// Signed integer max and min reductions over masked rows, broadcast
/// back: an unsigned lowering would take -1 for the largest value.
#[test]
fn integer_max_and_min_reductions_agree_bit_for_bit() {
    let context = tile::context().unwrap();
    let kernel = Kernel::build(&context, "int_extremes", |k| {
        let x = k.arg_ptr("x", DType::I32);
        let hi = k.arg_ptr("hi", DType::I32);
        let lo = k.arg_ptr("lo", DType::I32);
        let n = k.arg("n", DType::I32);
        let offs = k.program_id(0) * 256 + k.arange(0, 256);
        let m = offs.lt(n);
        let v = k.load(x + offs).mask(m).other(0).build();
        k.store(hi + offs, v - v.max(0)).mask(m).build();
        k.store(lo + offs, v - v.min(0)).mask(m).build();
    })
    .unwrap();
    for n in [200usize, 256, 700] {
        let xs: Vec<i32> = (0..n).map(|i| (i as i32 * 7919) % 1001 - 900).collect();
        let inputs = [
            i32s(&xs),
            zeros(n),
            zeros(n),
            In::Scalar(Arg::from(n as i32)),
        ];
        let grid = [(n as u32).div_ceil(256), 1, 1];
        same_bits(
            &format!("int_extremes n={n}"),
            &run_both(&kernel, 4, grid, &inputs),
        );
    }
}

/// Offsets running backwards (`x + (n - arange)`) with `x` 16-byte
/// aligned and `n` divisible by 16, as the JIT specializes them: the axis
/// analysis must not take the offsets for contiguous (a constant minus a
/// contiguous range decreases), or 16-byte vectors read forwards and the
/// reversed copy comes out wrong.
#[test]
fn reversed_offsets_agree_bit_for_bit_when_specialized() {
    let context = tile::context().unwrap();
    let block = 256;
    let kernel = Kernel::build(&context, "reversed", |k| {
        let x = k.arg_ptr("x", DType::I32);
        let y = k.arg_ptr("y", DType::I32);
        let n = k.arg("n", DType::I32);
        let rev = n - k.arange(0, block);
        let v = k.load(x + rev).build();
        k.store(y + k.arange(0, block), v).build();
    })
    .unwrap();
    let n = block as usize;
    // Elements past `n` too, so that reading forwards gives wrong values
    // rather than a fault.
    let xs: Vec<i32> = (0..n as i32 + 16).map(|i| i * 3 - 100).collect();
    let inputs = [i32s(&xs), zeros(n), In::Scalar(Arg::from(n as i32))];
    let o = run_compiled(&kernel, sm_80(4, 3), true, [1, 1, 1], &inputs);
    same_bits("reversed n=256", &o);
    let want: Vec<u8> = (0..n).flat_map(|i| xs[n - i].to_le_bytes()).collect();
    assert_eq!(o.interpreted[1], want, "the interpreter reverses");
}
