//! Our kernels under the benchmark: inputs, compilation specialized on the
//! launch arguments, one checked run against a CPU reference, ready for
//! the timing ([`crate::timing::Timer`]).

use super::cases::{Case, KernelKind};
use crate::gpu_check::cross_entropy::{self as launch, Buffers};
use crate::gpu_check::layer_norm::Inputs as NormInputs;
use crate::gpu_check::reductions::compare_close;
use crate::gpu_check::{compare, inputs, poisoned};
use crate::reference;
use crate::timing::compile_and_load;
use tile::{Arg, Buffer, Device, LoadedKernel, Options};
use tile_dialect::{DType, Kernel};
use tile_examples::{
    cross_entropy, layer_norm, layer_norm_bwd, row_sum, softmax, vector_add, weighted_sum,
};
use tile_runtime::Specialization;

/// The relative tolerance of sums against their f64 reference (see
/// [`compare_close`]).
pub const TOLERANCE: f64 = 1e-4;

/// A kernel compiled, loaded and checked, ready to be timed: its launch
/// and the buffers its arguments point into (kept alive with it).
pub struct Prepared {
    loaded: LoadedKernel,
    grid: u32,
    args: Vec<Arg>,
    buffers: Vec<Buffer<f32>>,
    /// Integer buffers the arguments point into, kept alive.
    ints: Vec<Buffer<i32>>,
}

impl Prepared {
    /// Queues one launch without waiting.
    pub fn launch_async(&self) -> tile_runtime::Result<()> {
        self.loaded.launch_async(self.grid, &self.args)
    }

    /// Buffer `i`, in the order of the kernel's pointer arguments.
    fn buffer(&self, i: usize) -> &Buffer<f32> {
        &self.buffers[i]
    }
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Compiles `kernel` with the case's warps, specialized on `args` (as
/// Triton specializes on its arguments) unless the case says not to, loads
/// it, and runs it once on `grid`, waiting for it.
fn load_and_run(
    device: &Device,
    kernel: &Kernel,
    case: &Case,
    grid: usize,
    args: Vec<Arg>,
    buffers: Vec<Buffer<f32>>,
) -> Result<Prepared, String> {
    let specialization = if case.specialize {
        Specialization::of(&args)
    } else {
        Specialization::none()
    };
    let options = Options::with_warps(case.num_warps).specialized(specialization);
    let loaded = compile_and_load(device, kernel, &options)?;
    let grid = u32::try_from(grid).map_err(err)?;
    loaded.launch(grid, &args).map_err(err)?;
    Ok(Prepared {
        loaded,
        grid,
        args,
        buffers,
        ints: Vec::new(),
    })
}

/// Builds `case`'s inputs, compiles and runs our kernel once, and checks
/// every output element against the CPU reference. Outputs are poisoned
/// beforehand and followed by a guard region that must stay untouched.
pub fn prepare(device: &Device, case: &Case) -> Result<Prepared, String> {
    match case.kind {
        KernelKind::VectorAdd => prepare_vector_add(device, case),
        KernelKind::RowSum => prepare_row_sum(device, case),
        KernelKind::WeightedSumFwd => prepare_weighted_sum_fwd(device, case),
        KernelKind::WeightedSumBwd => prepare_weighted_sum_bwd(device, case),
        KernelKind::Softmax => prepare_softmax(device, case),
        KernelKind::LayerNorm => prepare_layer_norm(device, case),
        KernelKind::CrossEntropy => prepare_cross_entropy(device, case),
        KernelKind::LayerNormBwd => prepare_layer_norm_bwd(device, case),
    }
}

fn prepare_vector_add(device: &Device, case: &Case) -> Result<Prepared, String> {
    let (_, n) = case.rows_cols();
    let (x, y) = (inputs(n, 1), inputs(n, 2));
    let dx = device.upload(&x).map_err(err)?;
    let dy = device.upload(&y).map_err(err)?;
    let dout = device.upload(&poisoned(n)).map_err(err)?;
    let args = vec![
        Arg::from(&dx),
        Arg::from(&dy),
        Arg::from(&dout),
        Arg::from(n as i32),
    ];
    let context = tile::context().map_err(err)?;
    let kernel = vector_add::safe_kernel(&context, case.block[0] as i32).map_err(err)?;
    let grid = case.programs();
    let run = load_and_run(device, &kernel, case, grid, args, vec![dx, dy, dout])?;
    let want: Vec<f32> = x.iter().zip(&y).map(|(a, b)| a + b).collect();
    compare(&device.download(run.buffer(2)).map_err(err)?, &want)?;
    Ok(run)
}

fn prepare_row_sum(device: &Device, case: &Case) -> Result<Prepared, String> {
    let (m, n) = case.rows_cols();
    let a = inputs(m * n, 3);
    let da = device.upload(&a).map_err(err)?;
    let dout = device.upload(&poisoned(m)).map_err(err)?;
    let args = vec![
        Arg::from(&da),
        Arg::from(&dout),
        Arg::from(m as i32),
        Arg::from(n as i32),
        Arg::from(n as i64),
        Arg::from(1i64),
    ];
    let context = tile::context().map_err(err)?;
    let kernel = row_sum::row_sum(&context, case.block[0], DType::F32).map_err(err)?;
    let run = load_and_run(device, &kernel, case, m, args, vec![da, dout])?;
    let (want, magnitude) = dot_rows(&a, m, n, |_| 1.0);
    let got = device.download(run.buffer(1)).map_err(err)?;
    compare_close(&got, &want, &magnitude, TOLERANCE)?;
    Ok(run)
}

/// For each row `r` of the row-major `m x n` matrix `a`: the f64 sum of
/// `a[r, c] * weight(c)` and the sum of the terms' magnitudes.
fn dot_rows(a: &[f32], m: usize, n: usize, weight: impl Fn(usize) -> f64) -> (Vec<f64>, Vec<f64>) {
    (0..m)
        .map(|r| {
            let row = &a[r * n..(r + 1) * n];
            reference::sum(
                row.iter()
                    .enumerate()
                    .map(|(c, &x)| f64::from(x) * weight(c)),
            )
        })
        .unzip()
}

fn prepare_weighted_sum_fwd(device: &Device, case: &Case) -> Result<Prepared, String> {
    let (rows, d) = case.rows_cols();
    let (x, w) = (inputs(rows * d, 4), inputs(d, 5));
    let dx = device.upload(&x).map_err(err)?;
    let dw = device.upload(&w).map_err(err)?;
    let dout = device.upload(&poisoned(rows)).map_err(err)?;
    let args = vec![
        Arg::from(&dx),
        Arg::from(&dw),
        Arg::from(&dout),
        Arg::from(d as i64),
        Arg::from(1i64),
        Arg::from(1i64),
        Arg::from(1i64),
        Arg::from(rows as i32),
        Arg::from(d as i32),
    ];
    let context = tile::context().map_err(err)?;
    let (rows_tile, d_tile) = (case.block[0], case.block[1]);
    let kernel =
        weighted_sum::weighted_sum_fwd(&context, rows_tile, d_tile, DType::F32).map_err(err)?;
    let grid = case.programs();
    let buffers = vec![dx, dw, dout];
    let run = load_and_run(device, &kernel, case, grid, args, buffers)?;
    let (want, magnitude) = dot_rows(&x, rows, d, |c| f64::from(w[c]));
    let got = device.download(run.buffer(2)).map_err(err)?;
    compare_close(&got, &want, &magnitude, TOLERANCE)?;
    Ok(run)
}

fn prepare_weighted_sum_bwd(device: &Device, case: &Case) -> Result<Prepared, String> {
    let (rows, d) = case.rows_cols();
    let programs = case.programs();
    let (x, w, g) = (inputs(rows * d, 6), inputs(d, 7), inputs(rows, 8));
    let dx = device.upload(&x).map_err(err)?;
    let dw = device.upload(&w).map_err(err)?;
    let dg = device.upload(&g).map_err(err)?;
    let grad_x = device.upload(&poisoned(rows * d)).map_err(err)?;
    let partial = device.upload(&poisoned(programs * d)).map_err(err)?;
    let mut args = vec![
        Arg::from(&dx),
        Arg::from(&dw),
        Arg::from(&dg),
        Arg::from(&grad_x),
        Arg::from(&partial),
    ];
    // stride_xr, stride_xd, stride_wd, stride_gr, stride_gxr, stride_gxd,
    // stride_gwb, stride_gwd.
    args.extend([d, 1, 1, 1, d, 1, d, 1].map(|s| Arg::from(s as i64)));
    args.extend([Arg::from(rows as i32), Arg::from(d as i32)]);
    let context = tile::context().map_err(err)?;
    let (rows_tile, d_tile) = (case.block[0], case.block[1]);
    let kernel =
        weighted_sum::weighted_sum_bwd(&context, rows_tile, d_tile, DType::F32).map_err(err)?;
    let buffers = vec![dx, dw, dg, grad_x, partial];
    let run = load_and_run(device, &kernel, case, programs, args, buffers)?;

    let want_gx: Vec<f32> = g
        .iter()
        .flat_map(|&gr| w.iter().map(move |&wc| gr * wc))
        .collect();
    compare(&device.download(run.buffer(3)).map_err(err)?, &want_gx)
        .map_err(|e| format!("grad_x: {e}"))?;
    let (want, magnitude) = partial_grad_weight(&x, &g, d, rows_tile as usize);
    let got = device.download(run.buffer(4)).map_err(err)?;
    compare_close(&got, &want, &magnitude, TOLERANCE)
        .map_err(|e| format!("partial grad_weight: {e}"))?;
    Ok(run)
}

/// The partial weight gradients of the backward kernel, row `p` holding
/// `sum over the rows r of tile p of x[r, c] * g[r]`, in f64, with the sums
/// of the terms' magnitudes.
fn partial_grad_weight(x: &[f32], g: &[f32], d: usize, rows_tile: usize) -> (Vec<f64>, Vec<f64>) {
    let programs = g.len().div_ceil(rows_tile);
    (0..programs * d)
        .map(|i| {
            let (p, c) = (i / d, i % d);
            let rows = p * rows_tile..g.len().min((p + 1) * rows_tile);
            reference::sum(rows.map(|r| f64::from(x[r * d + c]) * f64::from(g[r])))
        })
        .unzip()
}

fn prepare_softmax(device: &Device, case: &Case) -> Result<Prepared, String> {
    let (rows, cols) = case.rows_cols();
    let x = inputs(rows * cols, 9);
    let dx = device.upload(&x).map_err(err)?;
    let dout = device.upload(&poisoned(rows * cols)).map_err(err)?;
    // x_ptr, out_ptr, stride_xr, stride_outr, n_cols.
    let args = vec![
        Arg::from(&dx),
        Arg::from(&dout),
        Arg::from(cols as i32),
        Arg::from(cols as i32),
        Arg::from(cols as i32),
    ];
    let context = tile::context().map_err(err)?;
    let kernel = softmax::softmax(&context, case.block[0] as i32).map_err(err)?;
    let run = load_and_run(device, &kernel, case, rows, args, vec![dx, dout])?;
    let want: Vec<f64> = x.chunks(cols).flat_map(reference::softmax).collect();
    // Each value against itself: the tolerance is relative per element.
    let magnitude: Vec<f64> = want.iter().map(|w| w.abs()).collect();
    let got = device.download(run.buffer(1)).map_err(err)?;
    compare_close(&got, &want, &magnitude, TOLERANCE)?;
    Ok(run)
}

fn prepare_layer_norm(device: &Device, case: &Case) -> Result<Prepared, String> {
    let (rows, n) = case.rows_cols();
    let input = NormInputs::new(rows, n, n);
    let (buffers, args) = input.upload(device)?;
    let context = tile::context().map_err(err)?;
    let kernel = layer_norm::layer_norm_fwd(&context, case.block[0] as i32).map_err(err)?;
    let run = load_and_run(device, &kernel, case, rows, args, buffers)?;
    input.check_buffers(device, &run.buffers, TOLERANCE)?;
    Ok(run)
}

fn prepare_cross_entropy(device: &Device, case: &Case) -> Result<Prepared, String> {
    let (rows, v) = case.rows_cols();
    let x = inputs(rows * v, 13);
    let targets = launch::targets(rows, v);
    let buffers = Buffers::upload(device, &x, &targets, &poisoned(rows))?;
    let context = tile::context().map_err(err)?;
    let kernel = cross_entropy::cross_entropy_fwd(&context, case.block[0] as i32).map_err(err)?;
    let mut run = load_and_run(device, &kernel, case, rows, buffers.args(v), Vec::new())?;
    let (want_loss, want_pred) = cross_entropy::reference(&x, &targets, v);
    let loss = device.download(&buffers.loss).map_err(err)?;
    let magnitude: Vec<f64> = want_loss.iter().map(|w| w.abs().max(1.0)).collect();
    compare_close(&loss, &want_loss, &magnitude, TOLERANCE)?;
    buffers.check_predictions(device, &want_pred)?;
    run.buffers = vec![buffers.logits, buffers.loss];
    run.ints = vec![buffers.targets, buffers.predictions];
    Ok(run)
}

fn prepare_layer_norm_bwd(device: &Device, case: &Case) -> Result<Prepared, String> {
    let (rows, n) = case.rows_cols();
    // The check is gpu-check's; here it runs on the case's size first.
    crate::gpu_check::layer_norm_bwd::atomic_add_case(device, rows, n)?;
    let x = inputs(rows * n, 41);
    let dy = inputs(rows * n, 43);
    let w = inputs(n, 47);
    let mean = vec![0.25f32; rows];
    let rstd = vec![0.5f32; rows];
    let up = |v: &[f32]| device.upload(v).map_err(err);
    let buffers = vec![
        up(&x)?,
        up(&dy)?,
        up(&poisoned(rows * n))?,
        up(&w)?,
        up(&mean)?,
        up(&rstd)?,
        up(&vec![0.0; n])?,
        up(&vec![0.0; n])?,
    ];
    let mut args: Vec<Arg> = buffers.iter().map(Arg::from).collect();
    args.extend([
        Arg::from(n as i32),
        Arg::from(rows as i32),
        Arg::from(n as i32),
    ]);
    let context = tile::context().map_err(err)?;
    let kernel = layer_norm_bwd::layer_norm_bwd(&context, case.block[0] as i32).map_err(err)?;
    load_and_run(device, &kernel, case, case.programs(), args, buffers)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_grad_weight_sums_each_tile_of_rows() {
        // 5 rows of d = 2, tiles of 2 rows: programs 0, 1 and a ragged 2.
        let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, -10.0];
        let g = [1.0, -1.0, 2.0, 0.5, 3.0];
        let (sums, magnitudes) = partial_grad_weight(&x, &g, 2, 2);
        assert_eq!(sums, vec![-2.0, -2.0, 13.5, 16.0, 27.0, -30.0]);
        assert_eq!(magnitudes, vec![4.0, 6.0, 13.5, 16.0, 27.0, 30.0]);
    }

    #[test]
    fn row_dots() {
        let a = [1.0, -2.0, 3.0, 4.0];
        let (sums, magnitudes) = dot_rows(&a, 2, 2, |c| if c == 0 { 2.0 } else { 1.0 });
        assert_eq!(sums, vec![0.0, 10.0]);
        assert_eq!(magnitudes, vec![4.0, 10.0]);
    }
}
