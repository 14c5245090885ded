//! LayerNorm forward, written as Triton's tutorial 05 writes
//! `_layer_norm_fwd_fused`: one program per row, three loops over blocks of
//! columns.
//!
//! ```python
//! @triton.jit
//! def layer_norm_fwd(X, Y, W, B, Mean, Rstd, stride, N, eps,
//!                    BLOCK_SIZE: tl.constexpr):
//!     row = tl.program_id(0)
//!     X += row * stride
//!     Y += row * stride
//!     acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
//!     for off in range(0, N, BLOCK_SIZE):
//!         cols = off + tl.arange(0, BLOCK_SIZE)
//!         acc += tl.load(X + cols, mask=cols < N, other=0.)
//!     mean = tl.sum(acc, axis=0) / N
//!     acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
//!     for off in range(0, N, BLOCK_SIZE):
//!         cols = off + tl.arange(0, BLOCK_SIZE)
//!         m = cols < N
//!         x = tl.load(X + cols, mask=m, other=0.)
//!         d = tl.where(m, x - mean, 0.)
//!         acc += d * d
//!     var = tl.sum(acc, axis=0) / N
//!     rstd = 1 / tl.sqrt(var + eps)
//!     tl.store(Mean + row, mean)
//!     tl.store(Rstd + row, rstd)
//!     for off in range(0, N, BLOCK_SIZE):
//!         cols = off + tl.arange(0, BLOCK_SIZE)
//!         mask = cols < N
//!         w = tl.load(W + cols, mask=mask)
//!         b = tl.load(B + cols, mask=mask)
//!         x = tl.load(X + cols, mask=mask, other=0.)
//!         tl.store(Y + cols, (x - mean) * rstd * w + b, mask=mask)
//! ```
//!
//! Launch one program per row: a grid of `(rows,)`, with
//! [`block_size`] and [`num_warps`] (the tutorial's heuristics).

use tile_dialect::{DType, Kernel, Result};

/// The default `BLOCK_SIZE`: what [`block_size`] gives rows of 8192 fp32.
pub const BLOCK_SIZE: i32 = 8192;

/// The `eps` the checks and the benchmark pass (PyTorch's default).
pub const EPS: f32 = 1e-5;

/// The tutorial's `BLOCK_SIZE` for rows of `n` elements of `element_size`
/// bytes: the next power of two of `n`, at most 64 KiB of elements.
pub fn block_size(n: usize, element_size: usize) -> i32 {
    let max_fused = 65536 / element_size;
    max_fused.min(n.next_power_of_two()) as i32
}

/// The tutorial's warps for a `BLOCK_SIZE`: one per 256 elements, 1 to 8.
pub fn num_warps(block_size: i32) -> u32 {
    (block_size / 256).clamp(1, 8) as u32
}

/// `Y[r, :] = (X[r, :] - mean) * rstd * W + B` with `Mean[r] = mean` and
/// `Rstd[r] = 1 / sqrt(var + eps)`, one program per row, `block_size`
/// columns per loop iteration, accumulating in `f32`.
///
/// Arguments: `X`, `Y`, `W`, `B`, `Mean`, `Rstd` (`f32` pointers), `stride`
/// (`i32`, the row stride of `X` and `Y` in elements; columns are
/// contiguous), `N` (`i32` columns), `eps` (`f32`). `block_size` must be a
/// power of two; rows longer than it take several iterations of each loop.
/// Masked lanes read 0 and are kept out of the variance by `where`, as in
/// the tutorial. `rstd` is a square root then a division, not `rsqrt`.
pub fn layer_norm_fwd<'c>(context: &'c melior::Context, block_size: i32) -> Result<Kernel<'c>> {
    Kernel::build(context, "layer_norm_fwd", |k| {
        let x_ptr = k.arg_ptr("X", DType::F32);
        let y_ptr = k.arg_ptr("Y", DType::F32);
        let w_ptr = k.arg_ptr("W", DType::F32);
        let b_ptr = k.arg_ptr("B", DType::F32);
        let mean_ptr = k.arg_ptr("Mean", DType::F32);
        let rstd_ptr = k.arg_ptr("Rstd", DType::F32);
        let stride = k.arg("stride", DType::I32);
        let n = k.arg("N", DType::I32);
        let eps = k.arg("eps", DType::F32);

        let row = k.program_id(0);
        let x_row = x_ptr + row * stride;
        let y_row = y_ptr + row * stride;
        let block = i64::from(block_size);

        let sum = k.zeros(&[block], DType::F32);
        let [sum] = k.for_range(0, n, block_size, [sum], |off, [sum]| {
            let cols = off + k.arange(0, block_size);
            let a = k.load(x_row + cols).mask(cols.lt(n)).other(0.0).build();
            [sum + a]
        });
        let mean = sum.sum(0) / n.to(DType::F32);

        let squares = k.zeros(&[block], DType::F32);
        let [squares] = k.for_range(0, n, block_size, [squares], |off, [squares]| {
            let cols = off + k.arange(0, block_size);
            let m = cols.lt(n);
            let x = k.load(x_row + cols).mask(m).other(0.0).build();
            let d = k.where_(m, x - mean, 0.0);
            [squares + d * d]
        });
        let var = squares.sum(0) / n.to(DType::F32);
        let rstd = 1.0f32 / (var + eps).sqrt();
        k.store(mean_ptr + row, mean).build();
        k.store(rstd_ptr + row, rstd).build();

        k.for_range(0, n, block_size, [], |off, []| {
            let cols = off + k.arange(0, block_size);
            let mask = cols.lt(n);
            let w = k.load(w_ptr + cols).mask(mask).build();
            let b = k.load(b_ptr + cols).mask(mask).build();
            let x = k.load(x_row + cols).mask(mask).other(0.0).build();
            let x_hat = (x - mean) * rstd;
            k.store(y_row + cols, x_hat * w + b).mask(mask).build();
            []
        });
    })
}

/// What the kernel computes, in `f64`: per row, the normalized output, the
/// mean and the reciprocal standard deviation.
#[derive(Clone, Debug, PartialEq)]
pub struct Reference {
    /// `rows x n`, dense (no row padding).
    pub y: Vec<f64>,
    /// One per row.
    pub mean: Vec<f64>,
    /// One per row: `1 / sqrt(var + eps)`, the variance biased (over `n`).
    pub rstd: Vec<f64>,
}

/// The LayerNorm of the `rows x n` view of `x` (row stride `stride`) with
/// weights `w` and biases `b` (`n` each), accumulated in `f64`; a plain
/// Rust reference for the GPU check and the tests.
pub fn reference(
    x: &[f32],
    w: &[f32],
    b: &[f32],
    (rows, n, stride): (usize, usize, usize),
    eps: f32,
) -> Reference {
    let mut out = Reference {
        y: Vec::with_capacity(rows * n),
        mean: Vec::with_capacity(rows),
        rstd: Vec::with_capacity(rows),
    };
    for r in 0..rows {
        let row = &x[r * stride..r * stride + n];
        let mean = row.iter().map(|&v| f64::from(v)).sum::<f64>() / n as f64;
        let var = row
            .iter()
            .map(|&v| (f64::from(v) - mean).powi(2))
            .sum::<f64>()
            / n as f64;
        let rstd = 1.0 / (var + f64::from(eps)).sqrt();
        out.y.extend(
            row.iter()
                .zip(w.iter().zip(b))
                .map(|(&v, (&w, &b))| (f64::from(v) - mean) * rstd * f64::from(w) + f64::from(b)),
        );
        out.mean.push(mean);
        out.rstd.push(rstd);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tutorial_heuristics() {
        assert_eq!(block_size(8192, 4), 8192);
        assert_eq!(block_size(781, 4), 1024);
        assert_eq!(block_size(1, 4), 1);
        // At most 64 KiB of a row at once.
        assert_eq!(block_size(100_000, 4), 16384);
        assert_eq!(block_size(100_000, 2), 32768);
        assert_eq!(num_warps(8192), 8);
        assert_eq!(num_warps(1024), 4);
        assert_eq!(num_warps(256), 1);
        assert_eq!(num_warps(1), 1);
        assert_eq!(num_warps(65536), 8);
    }

    #[test]
    fn the_reference_normalizes_each_row() {
        // Row 0: 1, 2, 3 (mean 2, var 2/3); row 1 is padding-strided.
        let x = [1.0, 2.0, 3.0, 99.0, 4.0, 4.0, 4.0, 99.0];
        let w = [1.0, 2.0, 1.0];
        let b = [0.0, 0.0, 10.0];
        let r = reference(&x, &w, &b, (2, 3, 4), 0.0);
        assert_eq!(r.mean, vec![2.0, 4.0]);
        let rstd = 1.0 / (2.0f64 / 3.0).sqrt();
        assert!((r.rstd[0] - rstd).abs() < 1e-12);
        assert!((r.y[0] + rstd).abs() < 1e-12 && r.y[1] == 0.0);
        assert!((r.y[2] - (rstd + 10.0)).abs() < 1e-12);
        // A constant row: var 0, so rstd is 1 / sqrt(eps) and y is b.
        assert!(r.rstd[1].is_infinite());
        let r = reference(&x, &w, &b, (2, 3, 4), 0.25);
        assert_eq!(r.rstd[1], 2.0);
        assert_eq!(&r.y[3..], &[0.0, 0.0, 10.0]);
    }
}
