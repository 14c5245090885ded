//! Seed 000: a 2-D tile addressed through explicit strides and masked on
//! both axes.
//!
//! ```python
//! offs_m = pid_m * BM + tl.arange(0, BM)                  # (BM,)
//! offs_k = pid_k * BK + tl.arange(0, BK)                  # (BK,)
//! addrs  = x_ptr + offs_m[:, None] * stride_M \
//!               + offs_k[None, :] * stride_K              # (BM, BK)
//! mask   = (offs_m[:, None] < M) & (offs_k[None, :] < K)
//! x_tile = tl.load(addrs, mask=mask, other=0.0)           # (BM, BK)
//! tl.store(out_ptr + offs_m[:, None] * stride_om
//!                  + offs_k[None, :] * stride_ok, x_tile, mask=mask)
//! ```
//!
//! The kernel copies an `(M, K)` matrix with arbitrary strides (a view, a
//! transpose, a slice) into another: the seed's load, written out so the
//! kernel is complete. Launch it on a `(cdiv(M, BM), cdiv(K, BK))` grid.

use tile_dialect::{DType, Kernel, Result};

/// The default tile height `BM`.
pub const BM: i32 = 16;
/// The default tile width `BK`.
pub const BK: i32 = 64;

/// Copies `x` (shape `(m, k)`, strides `stride_xm`, `stride_xk`) into
/// `out` (strides `stride_om`, `stride_ok`), one `(bm, bk)` tile per
/// program.
///
/// Arguments: `x_ptr`, `out_ptr` (`f32` pointers), `m`, `k` (`i32`),
/// `stride_xm`, `stride_xk`, `stride_om`, `stride_ok` (`i32`, in elements).
/// Program `(pid_m, pid_k)` handles rows `pid_m * bm ..` and columns
/// `pid_k * bk ..`; lanes outside `(m, k)` are masked off. `bm` and `bk`
/// must be powers of two.
pub fn masked_tile_2d<'c>(context: &'c melior::Context, bm: i32, bk: i32) -> Result<Kernel<'c>> {
    Kernel::build(context, "masked_tile_2d", |k| {
        let x_ptr = k.arg_ptr("x_ptr", DType::F32);
        let out_ptr = k.arg_ptr("out_ptr", DType::F32);
        let m = k.arg("m", DType::I32);
        let k_size = k.arg("k", DType::I32);
        let stride_xm = k.arg("stride_xm", DType::I32);
        let stride_xk = k.arg("stride_xk", DType::I32);
        let stride_om = k.arg("stride_om", DType::I32);
        let stride_ok = k.arg("stride_ok", DType::I32);

        let pid_m = k.program_id(0);
        let pid_k = k.program_id(1);
        let offs_m = pid_m * bm + k.arange(0, bm); // (BM,)
        let offs_k = pid_k * bk + k.arange(0, bk); // (BK,)
        let rows = offs_m.expand_dims(1); // (BM, 1)
        let cols = offs_k.expand_dims(0); // (1, BK)

        let addrs = x_ptr + rows * stride_xm + cols * stride_xk; // (BM, BK)
        let mask = rows.lt(m) & cols.lt(k_size); // (BM, BK)
        let x_tile = k.load(addrs).mask(mask).other(0.0).build();

        let out_addrs = out_ptr + rows * stride_om + cols * stride_ok;
        k.store(out_addrs, x_tile).mask(mask).build();
    })
}
