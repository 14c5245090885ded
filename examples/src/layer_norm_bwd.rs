//! LayerNorm backward with the weight and bias gradients accumulated by
//! atomic adds: a fixed number of programs each take every `programs`-th
//! row, write its `DX`, sum `DY * x_hat` and `DY` over its rows in
//! registers, and add the two partial sums into `DW` and `DB` with one
//! `atomic_add` per column at the end.
//!
//! ```python
//! @triton.jit
//! def layer_norm_bwd(X, DY, DX, W, Mean, Rstd, DW, DB, stride, M, N,
//!                    BLOCK_N: tl.constexpr):
//!     pid = tl.program_id(0); programs = tl.num_programs(0)
//!     cols = tl.arange(0, BLOCK_N); mask = cols < N
//!     w = tl.load(W + cols, mask=mask, other=0.0)
//!     dw = tl.zeros((BLOCK_N,), tl.float32); db = tl.zeros((BLOCK_N,), tl.float32)
//!     for row in range(pid, M, programs):
//!         x = tl.load(X + row * stride + cols, mask=mask, other=0.0)
//!         dy = tl.load(DY + row * stride + cols, mask=mask, other=0.0)
//!         mean = tl.load(Mean + row); rstd = tl.load(Rstd + row)
//!         xhat = tl.where(mask, (x - mean) * rstd, 0.0)
//!         wdy = w * dy
//!         c1 = tl.sum(xhat * wdy, 0) / N; c2 = tl.sum(wdy, 0) / N
//!         tl.store(DX + row * stride + cols, (wdy - (xhat * c1 + c2)) * rstd, mask=mask)
//!         dw += dy * xhat; db += dy
//!     tl.atomic_add(DW + cols, dw, mask=mask, sem="relaxed")
//!     tl.atomic_add(DB + cols, db, mask=mask, sem="relaxed")
//! ```
//!
//! `DW` and `DB` must be zero before the launch. Their sums group rows by
//! program, and programs in the order their atomics arrive: they agree with
//! a sequential sum within rounding, not bit for bit.

use tile_dialect::{DType, Kernel, MemSem, Result};

/// `BLOCK_N` for rows of 8192 fp32.
pub const BLOCK_N: i32 = 8192;

/// Warps for `BLOCK_N`.
pub const NUM_WARPS: u32 = 8;

/// Programs the benchmark and the checks launch.
pub const PROGRAMS: usize = 264;

/// The gradients of `Y = (X - Mean) * Rstd * W + B` (see the module
/// docs), over `M` rows of `N` columns, `N <= block_n`.
///
/// Arguments: `X`, `DY`, `DX`, `W`, `Mean`, `Rstd`, `DW`, `DB` (`f32`
/// pointers), `stride` (`i32`, the row stride of `X`, `DY` and `DX`), `M`,
/// `N` (`i32`). `block_n` must be a power of two.
pub fn layer_norm_bwd<'c>(context: &'c melior::Context, block_n: i32) -> Result<Kernel<'c>> {
    Kernel::build(context, "layer_norm_bwd", |k| {
        let x_ptr = k.arg_ptr("X", DType::F32);
        let dy_ptr = k.arg_ptr("DY", DType::F32);
        let dx_ptr = k.arg_ptr("DX", DType::F32);
        let w_ptr = k.arg_ptr("W", DType::F32);
        let mean_ptr = k.arg_ptr("Mean", DType::F32);
        let rstd_ptr = k.arg_ptr("Rstd", DType::F32);
        let dw_ptr = k.arg_ptr("DW", DType::F32);
        let db_ptr = k.arg_ptr("DB", DType::F32);
        let stride = k.arg("stride", DType::I32);
        let m = k.arg("M", DType::I32);
        let n = k.arg("N", DType::I32);

        let pid = k.program_id(0);
        let programs = k.num_programs(0);
        let cols = k.arange(0, block_n);
        let mask = cols.lt(n);
        let w = k.load(w_ptr + cols).mask(mask).other(0.0).build();
        let nf = n.to(DType::F32);
        let dw = k.zeros(&[i64::from(block_n)], DType::F32);
        let db = k.zeros(&[i64::from(block_n)], DType::F32);
        let [dw, db] = k.for_range(pid, m, programs, [dw, db], |row, [dw, db]| {
            let at = row * stride + cols;
            let x = k.load(x_ptr + at).mask(mask).other(0.0).build();
            let dy = k.load(dy_ptr + at).mask(mask).other(0.0).build();
            let mean = k.load(mean_ptr + row).build();
            let rstd = k.load(rstd_ptr + row).build();
            let xhat = k.where_(mask, (x - mean) * rstd, 0.0);
            let wdy = w * dy;
            let c1 = (xhat * wdy).sum(0) / nf;
            let c2 = wdy.sum(0) / nf;
            let dx = (wdy - (xhat * c1 + c2)) * rstd;
            k.store(dx_ptr + at, dx).mask(mask).build();
            [dw + dy * xhat, db + dy]
        });
        let _ = k
            .atomic_add(dw_ptr + cols, dw)
            .mask(mask)
            .sem(MemSem::Relaxed)
            .build();
        let _ = k
            .atomic_add(db_ptr + cols, db)
            .mask(mask)
            .sem(MemSem::Relaxed)
            .build();
    })
}

/// The gradients in `f64`: `(dx, dw, db)` for `rows x n` (dense) inputs.
pub fn reference(
    x: &[f32],
    dy: &[f32],
    w: &[f32],
    mean: &[f32],
    rstd: &[f32],
    (rows, n): (usize, usize),
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let mut dx = vec![0.0; rows * n];
    let mut dw = vec![0.0; n];
    let mut db = vec![0.0; n];
    for r in 0..rows {
        let (mu, rs) = (f64::from(mean[r]), f64::from(rstd[r]));
        let xhat: Vec<f64> = (0..n)
            .map(|c| (f64::from(x[r * n + c]) - mu) * rs)
            .collect();
        let wdy: Vec<f64> = (0..n)
            .map(|c| f64::from(w[c]) * f64::from(dy[r * n + c]))
            .collect();
        let c1 = xhat.iter().zip(&wdy).map(|(a, b)| a * b).sum::<f64>() / n as f64;
        let c2 = wdy.iter().sum::<f64>() / n as f64;
        for c in 0..n {
            dx[r * n + c] = (wdy[c] - (xhat[c] * c1 + c2)) * rs;
            dw[c] += f64::from(dy[r * n + c]) * xhat[c];
            db[c] += f64::from(dy[r * n + c]);
        }
    }
    (dx, dw, db)
}
