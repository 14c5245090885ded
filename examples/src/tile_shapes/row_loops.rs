//! Row kernels that loop over their rows' columns, `BN` at a time, `BM`
//! rows a program: the form a row takes when it is wider than one tile
//! (tutorial 05's LayerNorm forward, seed 002's iterative row sum, the
//! online softmax of a vocabulary-wide row).
//!
//! ```python
//! @triton.jit
//! def layer_norm_loop(X, Y, W, B, Mean, Rstd, M, N, stride, eps,
//!                     BM: tl.constexpr, BN: tl.constexpr):
//!     rows = tl.program_id(0) * BM + tl.arange(0, BM)
//!     row_mask = rows < M
//!     acc = tl.zeros([BM, BN], dtype=tl.float32)
//!     for off in range(0, N, BN):
//!         cols = off + tl.arange(0, BN)
//!         mask = row_mask[:, None] & (cols[None, :] < N)
//!         acc += tl.load(X + rows[:, None] * stride + cols[None, :], mask=mask, other=0.).to(tl.float32)
//!     mean = tl.sum(acc, axis=1) / N
//!     acc = tl.zeros([BM, BN], dtype=tl.float32)
//!     for off in range(0, N, BN):
//!         cols = off + tl.arange(0, BN)
//!         mask = row_mask[:, None] & (cols[None, :] < N)
//!         x = tl.load(X + rows[:, None] * stride + cols[None, :], mask=mask, other=0.).to(tl.float32)
//!         d = tl.where(mask, x - mean[:, None], 0.)
//!         acc += d * d
//!     rstd = 1 / tl.sqrt(tl.sum(acc, axis=1) / N + eps)
//!     tl.store(Mean + rows, mean, mask=row_mask)
//!     tl.store(Rstd + rows, rstd, mask=row_mask)
//!     for off in range(0, N, BN):
//!         cols = off + tl.arange(0, BN)
//!         mask = row_mask[:, None] & (cols[None, :] < N)
//!         w = tl.load(W + cols, mask=cols < N).to(tl.float32)
//!         b = tl.load(B + cols, mask=cols < N).to(tl.float32)
//!         x = tl.load(X + rows[:, None] * stride + cols[None, :], mask=mask, other=0.).to(tl.float32)
//!         y = (x - mean[:, None]) * rstd[:, None] * w[None, :] + b[None, :]
//!         tl.store(Y + rows[:, None] * stride + cols[None, :], y.to(Y.dtype.element_ty), mask=mask)
//!
//! @triton.jit
//! def row_sum_loop(x_ptr, out_ptr, M, N, stride_x, BM: tl.constexpr, BN: tl.constexpr):
//!     pid = tl.program_id(0)
//!     block = tl.make_block_ptr(x_ptr, shape=(M, N), strides=(stride_x, 1),
//!                               offsets=(pid * BM, 0), block_shape=(BM, BN), order=(1, 0))
//!     acc = tl.zeros([BM], dtype=tl.float32)
//!     for _ in range(0, N, BN):
//!         x = tl.load(block, boundary_check=(0, 1), padding_option="zero").to(tl.float32)
//!         acc += tl.sum(x, axis=1)
//!         block = tl.advance(block, (0, BN))
//!     rows = pid * BM + tl.arange(0, BM)
//!     tl.store(out_ptr + rows, acc, mask=rows < M)
//!
//! @triton.jit
//! def softmax_online(x_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr, BN: tl.constexpr):
//!     rows = tl.program_id(0) * BM + tl.arange(0, BM)
//!     row_mask = rows < M
//!     m = tl.full([BM], -float("inf"), tl.float32)
//!     s = tl.zeros([BM], dtype=tl.float32)
//!     for off in range(0, N, BN):
//!         cols = off + tl.arange(0, BN)
//!         mask = row_mask[:, None] & (cols[None, :] < N)
//!         x = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :], mask=mask,
//!                     other=-float("inf")).to(tl.float32)
//!         m_new = tl.maximum(m, tl.max(x, axis=1))
//!         s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new[:, None]), axis=1)
//!         m = m_new
//!     for off in range(0, N, BN):
//!         cols = off + tl.arange(0, BN)
//!         mask = row_mask[:, None] & (cols[None, :] < N)
//!         x = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :], mask=mask,
//!                     other=-float("inf")).to(tl.float32)
//!         y = tl.exp(x - m[:, None]) / s[:, None]
//!         tl.store(y_ptr + rows[:, None] * stride_y + cols[None, :], y.to(y_ptr.dtype.element_ty),
//!                  mask=mask)
//! ```

use super::{Sizes, offsets, zero_padded};
use tile_dialect::{DType, KernelBuilder, Tile};

/// This program's `BM` rows and their mask.
fn program_rows<'k>(k: &'k KernelBuilder<'k>, s: Sizes<'k>) -> (Tile<'k>, Tile<'k>) {
    let (bm, _) = s.bm_bn();
    let rows = k.program_id(0) * bm + k.arange(0, bm);
    (rows, rows.lt(s.m))
}

/// The `BN` columns of the step at `off` and the step's `[BM, BN]` mask.
fn step_cols<'k>(
    k: &'k KernelBuilder<'k>,
    s: Sizes<'k>,
    off: Tile<'k>,
    row_mask: Tile<'k>,
) -> (Tile<'k>, Tile<'k>) {
    let (_, bn) = s.bm_bn();
    let cols = off + k.arange(0, bn);
    let mask = row_mask.expand_dims(1) & cols.lt(s.n).expand_dims(0);
    (cols, mask)
}

/// The step at `off` of `BM` rows of `x` (row stride `stride`): its
/// columns, its mask and its values in f32, `other` where masked.
struct Rows<'k> {
    rows: Tile<'k>,
    row_mask: Tile<'k>,
    stride: Tile<'k>,
    other: f64,
}

impl<'k> Rows<'k> {
    fn step(
        &self,
        k: &'k KernelBuilder<'k>,
        s: Sizes<'k>,
        x: Tile<'k>,
        off: Tile<'k>,
    ) -> (Tile<'k>, Tile<'k>, Tile<'k>) {
        let (cols, mask) = step_cols(k, s, off, self.row_mask);
        let x = k
            .load(x + offsets(self.rows, self.stride, cols))
            .mask(mask)
            .other(self.other)
            .build()
            .to(DType::F32);
        (cols, mask, x)
    }
}

/// LayerNorm forward of `BM` rows in three loops over the columns (the
/// mean, the biased variance of the centred values, then `Y`), `Mean` and
/// `Rstd` stored between the second and the third.
pub(super) fn layer_norm_loop<'k>(k: &'k KernelBuilder<'k>, s: Sizes<'k>, p: &[Tile<'k>]) {
    let stride = k.arg("stride", DType::I32);
    let eps = k.arg("eps", DType::F32);
    let (_, bn) = s.bm_bn();
    let (rows, row_mask) = program_rows(k, s);
    let x_rows = Rows {
        rows,
        row_mask,
        stride,
        other: 0.0,
    };
    let load_x = |off| x_rows.step(k, s, p[0], off);
    let zeros = k.zeros(&[s.tiles.bm, s.tiles.bn], DType::F32);
    let [acc] = k.for_range(0, s.n, bn, [zeros], |off, [acc]| {
        let (_, _, x) = load_x(off);
        [acc + x]
    });
    let n = s.n.to(DType::F32);
    let mean = acc.sum(1) / n;
    let [acc] = k.for_range(0, s.n, bn, [zeros], |off, [acc]| {
        let (_, mask, x) = load_x(off);
        let d = k.where_(mask, x - mean.expand_dims(1), 0.0);
        [acc + d * d]
    });
    let rstd = 1.0f32 / (acc.sum(1) / n + eps).sqrt();
    k.store(p[4] + rows, mean).mask(row_mask).build();
    k.store(p[5] + rows, rstd).mask(row_mask).build();
    k.for_range(0, s.n, bn, [], |off, []| {
        let (cols, mask, x) = load_x(off);
        let col_mask = cols.lt(s.n);
        let w = k.load(p[2] + cols).mask(col_mask).build().to(DType::F32);
        let b = k.load(p[3] + cols).mask(col_mask).build().to(DType::F32);
        let y =
            (x - mean.expand_dims(1)) * rstd.expand_dims(1) * w.expand_dims(0) + b.expand_dims(0);
        k.store(p[1] + offsets(rows, stride, cols), y.to(s.dtype))
            .mask(mask)
            .build();
        []
    });
}

/// Sums of `BM` rows through a `[BM, BN]` block pointer advanced by `BN`
/// columns a step, both axes checked, zero padding (seed 002's kernel on
/// `BM` rows).
pub(super) fn row_sum_loop<'k>(k: &'k KernelBuilder<'k>, s: Sizes<'k>, p: &[Tile<'k>]) {
    let stride_x = k.arg("stride_x", DType::I32);
    let (bm, bn) = s.bm_bn();
    let pid = k.program_id(0);
    let block = k
        .make_block_ptr(p[0])
        .shape([s.m, s.n])
        .strides([stride_x, k.i32(1)])
        .offsets([pid * bm, k.i32(0)])
        .block_shape([s.tiles.bm, s.tiles.bn])
        .order([1, 0])
        .build();
    let acc = k.zeros(&[s.tiles.bm], DType::F32);
    let [acc, _] = k.for_range(0, s.n, bn, [acc, block], |_, [acc, block]| {
        let x = zero_padded(k, block);
        [acc + x.sum(1), block.advance([0, bn])]
    });
    let (rows, row_mask) = program_rows(k, s);
    k.store(p[1] + rows, acc).mask(row_mask).build();
}

/// Softmax of `BM` rows in two loops over the columns: the running max
/// and the sum of exponentials rescaled to it, then `exp(x - max) / sum`.
pub(super) fn softmax_online<'k>(k: &'k KernelBuilder<'k>, s: Sizes<'k>, p: &[Tile<'k>]) {
    let (stride_x, stride_y) = (k.arg("stride_x", DType::I32), k.arg("stride_y", DType::I32));
    let (_, bn) = s.bm_bn();
    let (rows, row_mask) = program_rows(k, s);
    let x_rows = Rows {
        rows,
        row_mask,
        stride: stride_x,
        other: f64::NEG_INFINITY,
    };
    let load_x = |off| x_rows.step(k, s, p[0], off);
    let m = k.full(&[s.tiles.bm], f64::NEG_INFINITY, DType::F32);
    let sum = k.zeros(&[s.tiles.bm], DType::F32);
    let [m, sum] = k.for_range(0, s.n, bn, [m, sum], |off, [m, sum]| {
        let (_, _, x) = load_x(off);
        let m_new = m.maximum(x.max(1));
        let sum = sum * (m - m_new).exp() + (x - m_new.expand_dims(1)).exp().sum(1);
        [m_new, sum]
    });
    k.for_range(0, s.n, bn, [], |off, []| {
        let (cols, mask, x) = load_x(off);
        let y = (x - m.expand_dims(1)).exp() / sum.expand_dims(1);
        k.store(p[1] + offsets(rows, stride_y, cols), y.to(s.dtype))
            .mask(mask)
            .build();
        []
    });
}
