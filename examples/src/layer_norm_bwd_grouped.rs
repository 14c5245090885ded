//! LayerNorm backward as Triton's tutorial 05 writes it: one program per
//! row computes `DX` and adds its row's `DW` and `DB` terms into one of
//! `group` partial sums, under a lock per partial sum (a spin on
//! `atomic_cas`, an `if` on whether the partial sum was written yet, and
//! the lock released by `atomic_xchg`); a second kernel sums the partial
//! sums into the gradients.
//!
//! ```python
//! @triton.jit
//! def layer_norm_bwd_dx_fused(DX, DY, DW, DB, X, W, Mean, Rstd, Lock, stride, N,
//!                             GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
//!     row = tl.program_id(0)
//!     cols = tl.arange(0, BLOCK_SIZE_N); mask = cols < N
//!     ...  # DX as in `layer_norm_bwd`
//!     partial_dw = (dy * xhat).to(w.dtype); partial_db = dy.to(w.dtype)
//!     lock_id = row % GROUP_SIZE_M
//!     Lock += lock_id; Count = Lock + GROUP_SIZE_M
//!     DW = DW + lock_id * N + cols; DB = DB + lock_id * N + cols
//!     while tl.atomic_cas(Lock, 0, 1) == 1:
//!         pass
//!     count = tl.load(Count)
//!     if count == 0:
//!         tl.atomic_xchg(Count, 1)
//!     else:
//!         partial_dw += tl.load(DW, mask=mask)
//!         partial_db += tl.load(DB, mask=mask)
//!     tl.store(DW, partial_dw, mask=mask); tl.store(DB, partial_db, mask=mask)
//!     tl.atomic_xchg(Lock, 0)
//!
//! @triton.jit
//! def layer_norm_bwd_dwdb(DW, DB, FINAL_DW, FINAL_DB, M, N,
//!                         BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
//!     cols = tl.program_id(0) * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
//!     dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32); db = ...
//!     for i in range(0, M, BLOCK_SIZE_M):
//!         rows = i + tl.arange(0, BLOCK_SIZE_M)
//!         mask = (rows[:, None] < M) & (cols[None, :] < N)
//!         offs = rows[:, None] * N + cols[None, :]
//!         dw += tl.load(DW + offs, mask=mask, other=0.); db += ...
//!     tl.store(FINAL_DW + cols, tl.sum(dw, axis=0), mask=cols < N); ...
//! ```
//!
//! `Lock` (`2 * group` i32: the locks, then the counts) must be zero
//! before the first kernel; the partial sums need no initialization.

use tile_dialect::{DType, Kernel, MemSem, Result};

/// Partial sums for rows of up to 8192 columns (the tutorial's choice).
pub const GROUP: i32 = 64;

/// Rows and columns each program of the second kernel sums.
pub const SUM_BLOCK: [i32; 2] = [32, 128];

/// The first kernel: `DX`, and the row's terms added into partial sum
/// `row % group` under its lock.
///
/// Arguments: `X`, `DY`, `DX`, `W`, `Mean`, `Rstd`, `DW`, `DB` (`f32`
/// pointers; `DW` and `DB` hold `group x N`), `Lock` (`i32` pointer),
/// `stride`, `N` (`i32`). One program per row; `N <= block_n`, a power of
/// two.
pub fn dx_fused<'c>(context: &'c melior::Context, block_n: i32, group: i32) -> Result<Kernel<'c>> {
    Kernel::build(context, "layer_norm_bwd_dx_fused", |k| {
        let x_ptr = k.arg_ptr("X", DType::F32);
        let dy_ptr = k.arg_ptr("DY", DType::F32);
        let dx_ptr = k.arg_ptr("DX", DType::F32);
        let w_ptr = k.arg_ptr("W", DType::F32);
        let mean_ptr = k.arg_ptr("Mean", DType::F32);
        let rstd_ptr = k.arg_ptr("Rstd", DType::F32);
        let dw_ptr = k.arg_ptr("DW", DType::F32);
        let db_ptr = k.arg_ptr("DB", DType::F32);
        let lock_ptr = k.arg_ptr("Lock", DType::I32);
        let stride = k.arg("stride", DType::I32);
        let n = k.arg("N", DType::I32);

        let row = k.program_id(0);
        let cols = k.arange(0, block_n);
        let mask = cols.lt(n);
        let at = row * stride + cols;
        let x = k.load(x_ptr + at).mask(mask).other(0.0).build();
        let dy = k.load(dy_ptr + at).mask(mask).other(0.0).build();
        let w = k.load(w_ptr + cols).mask(mask).other(0.0).build();
        let mean = k.load(mean_ptr + row).build();
        let rstd = k.load(rstd_ptr + row).build();
        let xhat = k.where_(mask, (x - mean) * rstd, 0.0);
        let wdy = w * dy;
        let nf = n.to(DType::F32);
        let c1 = (xhat * wdy).sum(0) / nf;
        let c2 = wdy.sum(0) / nf;
        k.store(dx_ptr + at, (wdy - (xhat * c1 + c2)) * rstd)
            .mask(mask)
            .build();

        let lock_id = row % group;
        let lock = lock_ptr + lock_id;
        let count = lock + group;
        let partial = lock_id * n + cols;
        // Spin until the lock is ours (`old` starts at 1: one try at least).
        let [_] = k.while_loop(
            [k.i32(1)],
            |[old]| old.eq(1),
            |[_]| [k.atomic_cas(lock, 0, 1).sem(MemSem::Acquire).build()],
        );
        let first = k.load(count).build().eq(0);
        let [dw, db] = k.if_else(
            first,
            || {
                let _ = k.atomic_xchg(count, 1).build();
                [dy * xhat, dy]
            },
            || {
                let dw = k.load(dw_ptr + partial).mask(mask).build();
                let db = k.load(db_ptr + partial).mask(mask).build();
                [dy * xhat + dw, dy + db]
            },
        );
        k.store(dw_ptr + partial, dw).mask(mask).build();
        k.store(db_ptr + partial, db).mask(mask).build();
        // Release: every thread's stores above are ordered before it.
        let _ = k.atomic_xchg(lock, 0).sem(MemSem::Release).build();
    })
}

/// The second kernel: `FINAL_DW` and `FINAL_DB` (`N` each) as the sums of
/// the `M` partial sums.
///
/// Arguments: `DW`, `DB` (`f32`, `M x N`), `FINAL_DW`, `FINAL_DB` (`f32`),
/// `M`, `N` (`i32`). `cdiv(N, block[1])` programs.
pub fn dwdb<'c>(context: &'c melior::Context, block: [i32; 2]) -> Result<Kernel<'c>> {
    Kernel::build(context, "layer_norm_bwd_dwdb", |k| {
        let dw_ptr = k.arg_ptr("DW", DType::F32);
        let db_ptr = k.arg_ptr("DB", DType::F32);
        let final_dw = k.arg_ptr("FINAL_DW", DType::F32);
        let final_db = k.arg_ptr("FINAL_DB", DType::F32);
        let m = k.arg("M", DType::I32);
        let n = k.arg("N", DType::I32);
        let [bm, bn] = block;
        let cols = k.program_id(0) * bn + k.arange(0, bn);
        let shape = [i64::from(bm), i64::from(bn)];
        let zeros = k.zeros(&shape, DType::F32);
        let [dw, db] = k.for_range(0, m, bm, [zeros, zeros], |i, [dw, db]| {
            let rows = (k.arange(0, bm) + i).expand_dims(1);
            let mask = rows.lt(m) & cols.expand_dims(0).lt(n);
            let offs = rows * n + cols.expand_dims(0);
            let dw_part = k.load(dw_ptr + offs).mask(mask).other(0.0).build();
            let db_part = k.load(db_ptr + offs).mask(mask).other(0.0).build();
            [dw + dw_part, db + db_part]
        });
        let in_row = cols.lt(n);
        k.store(final_dw + cols, dw.sum(0)).mask(in_row).build();
        k.store(final_db + cols, db.sum(0)).mask(in_row).build();
    })
}
