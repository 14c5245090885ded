//! Reductions whose warps' partials are combined by lanes (`tile_passes`
//! `simt/reduce/warps.rs`: a thread would read more than 16 partials),
//! executed on the PTX executor against the interpreter, bit for bit, and
//! against a plain Rust reference: several output elements a thread over
//! several warps along the axis, fewer partials than threads (lanes past
//! them read again and write nothing), (value, index) pairs of an
//! `argmax`, and a reduction to one scalar.

use super::{In, f32s, run_compiled, same_bits, set_up, sm_80, small_ints, zeros};
use tile::{DType, Kernel, Specialization};
use tile_runtime::HostMemory;

/// Row sums and column maxima of an `[8, 512]` tile on 8 warps, compiled
/// without the arguments' facts (no vectors): both axes reduced, so lanes
/// and warps stay along the columns; each thread holds the 8 rows, and the
/// row sums combine 8 warps' partials of 8 rows (64 partials, 256
/// threads); the column maxima need no exchange.
fn rows_and_columns(context: &melior::Context) -> Kernel<'_> {
    Kernel::build(context, "rows_and_columns", |k| {
        let x = k.arg_ptr("x", DType::F32);
        let rows_out = k.arg_ptr("rows", DType::F32);
        let cols_out = k.arg_ptr("cols", DType::F32);
        let rows = k.arange(0, 8);
        let cols = k.arange(0, 512);
        let offs = (rows * 512).expand_dims(1) + cols.expand_dims(0);
        let v = k.load(x + offs).build();
        k.store(rows_out + rows, v.sum(1)).build();
        k.store(cols_out + cols, v.max(0)).build();
    })
    .unwrap()
}

/// The column of each row's largest value of an `[8, 512]` tile on 8
/// warps (`argmax`, ties to the smaller column), and its column minima
/// (which keep the warps along the columns), unspecialized as
/// [`rows_and_columns`]: the lane form with (value, index) pairs.
fn row_argmax(context: &melior::Context) -> Kernel<'_> {
    Kernel::build(context, "row_argmax", |k| {
        let x = k.arg_ptr("x", DType::F32);
        let out = k.arg_ptr("out", DType::I32);
        let mins = k.arg_ptr("mins", DType::F32);
        let rows = k.arange(0, 8);
        let cols = k.arange(0, 512);
        let offs = (rows * 512).expand_dims(1) + cols.expand_dims(0);
        let v = k.load(x + offs).build();
        k.store(out + rows, v.argmax(1, false)).build();
        k.store(mins + cols, v.min(0)).build();
    })
    .unwrap()
}

/// The sum of 4096 values as one scalar: a partial a warp, one output
/// element.
fn total(context: &melior::Context) -> Kernel<'_> {
    Kernel::build(context, "total", |k| {
        let x = k.arg_ptr("x", DType::F32);
        let out = k.arg_ptr("out", DType::F32);
        let v = k.load(x + k.arange(0, 4096)).build();
        k.store(out, v.sum(0)).build();
    })
    .unwrap()
}

/// The outputs as f32, from the interpreter's run.
fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

/// Runs `kernel` on one program of `warps` warps both ways (specialized
/// on `inputs` or not, as `run_compiled`), and counts `bar.sync` in its
/// PTX: the lane form has a barrier more than the per-thread form (the
/// test's kernels must take it for the test to mean anything).
fn run(kernel: &Kernel, warps: u32, specialize: bool, inputs: &[In]) -> (super::Outputs, usize) {
    let mut options = sm_80(warps, 3);
    if specialize {
        let (args, _) = set_up(&mut HostMemory::new(), inputs);
        options = options.specialized(Specialization::of(&args));
    }
    let ptx = tile::compile(kernel, &options).unwrap().ptx;
    let outputs = run_compiled(kernel, sm_80(warps, 3), specialize, [1, 1, 1], inputs);
    (outputs, ptx.matches("bar.sync").count())
}

#[test]
fn partials_combined_by_lanes_agree_with_the_interpreter() {
    let context = tile::context().unwrap();
    // Integers in f32: every order of the sums gives the same bits.
    let x = small_ints(8 * 512, 11);
    let kernel = rows_and_columns(&context);
    // The row sums' barrier before the writes, after them, and the lane
    // form's second.
    let (o, bars) = run(&kernel, 8, false, &[f32s(&x), zeros(8), zeros(512)]);
    assert_eq!(bars, 3, "rows_and_columns");
    same_bits("rows_and_columns", &o);
    let sums = floats(&o.interpreted[1]);
    let maxima = floats(&o.interpreted[2]);
    for r in 0..8 {
        let want: f32 = x[r * 512..(r + 1) * 512].iter().sum();
        assert_eq!(sums[r], want, "row {r}");
    }
    for c in 0..512 {
        let want = (0..8).map(|r| x[r * 512 + c]).fold(f32::MIN, f32::max);
        assert_eq!(maxima[c], want, "column {c}");
    }

    // Small integers: many ties, each broken by the smaller column.
    let x = small_ints(8 * 512, 12);
    let kernel = row_argmax(&context);
    let (o, bars) = run(&kernel, 8, false, &[f32s(&x), zeros(8), zeros(512)]);
    assert_eq!(bars, 3, "row_argmax");
    same_bits("row_argmax", &o);
    let got: Vec<i32> = o.interpreted[1]
        .chunks(4)
        .map(|b| i32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    for r in 0..8 {
        let row = &x[r * 512..(r + 1) * 512];
        let best = row.iter().copied().fold(f32::MIN, f32::max);
        let want = row.iter().position(|&v| v == best).unwrap() as i32;
        assert_eq!(got[r], want, "row {r}");
    }

    let x = small_ints(4096, 13);
    let kernel = total(&context);
    // 32 warps: 32 partials, read by 32 of the 1024 threads.
    let (o, bars) = run(&kernel, 32, true, &[f32s(&x), zeros(1)]);
    assert_eq!(bars, 3, "total");
    same_bits("total", &o);
    assert_eq!(floats(&o.interpreted[1])[0], x.iter().sum::<f32>());
}

/// A reduction whose threads read few partials keeps the one-barrier form.
#[test]
fn few_partials_are_read_by_each_thread() {
    let context = tile::context().unwrap();
    let kernel = total(&context);
    let x = small_ints(4096, 14);
    // 16 warps: 16 partials a thread, the most it reads itself.
    let (o, bars) = run(&kernel, 16, true, &[f32s(&x), zeros(1)]);
    assert_eq!(bars, 2);
    same_bits("total on 16 warps", &o);
    assert_eq!(floats(&o.interpreted[1])[0], x.iter().sum::<f32>());
}
