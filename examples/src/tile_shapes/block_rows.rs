//! Row kernels through block pointers: the form of tutorial 05's
//! LayerNorm that a user of `tl.make_block_ptr` writes, the bounds checked
//! by `boundary_check` instead of masks.
//!
//! ```python
//! @triton.jit
//! def layer_norm_block(X, Y, W, B, M, N, stride, eps, BM: tl.constexpr, BN: tl.constexpr):
//!     row0 = tl.program_id(0) * BM
//!     xb = tl.make_block_ptr(X, (M, N), (stride, 1), (row0, 0), (BM, BN), (1, 0))
//!     x = tl.load(xb, boundary_check=(0, 1), padding_option="zero").to(tl.float32)
//!     cols = tl.arange(0, BN)
//!     mean = tl.sum(x, axis=1) / N
//!     xc = tl.where(cols[None, :] < N, x - mean[:, None], 0.)
//!     var = tl.sum(xc * xc, axis=1) / N
//!     rstd = 1 / tl.sqrt(var + eps)
//!     wb = tl.make_block_ptr(W, (N, ), (1, ), (0, ), (BN, ), (0, ))
//!     bb = tl.make_block_ptr(B, (N, ), (1, ), (0, ), (BN, ), (0, ))
//!     w = tl.load(wb, boundary_check=(0, ), padding_option="zero").to(tl.float32)
//!     b = tl.load(bb, boundary_check=(0, ), padding_option="zero").to(tl.float32)
//!     y = xc * rstd[:, None] * w[None, :] + b[None, :]
//!     yb = tl.make_block_ptr(Y, (M, N), (stride, 1), (row0, 0), (BM, BN), (1, 0))
//!     tl.store(yb, y.to(Y.dtype.element_ty), boundary_check=(0, 1))
//! ```

use super::{Sizes, zero_padded};
use tile_dialect::{DType, KernelBuilder, Padding, Tile};

/// LayerNorm forward of `BM` rows a program through block pointers,
/// `Y` only (see the module docs).
pub(super) fn layer_norm_block<'k>(k: &'k KernelBuilder<'k>, s: Sizes<'k>, p: &[Tile<'k>]) {
    let stride = k.arg("stride", DType::I32);
    let eps = k.arg("eps", DType::F32);
    let (bm, bn) = s.bm_bn();
    let row0 = k.program_id(0) * bm;
    let rows_block = |base: Tile<'k>| {
        k.make_block_ptr(base)
            .shape([s.m, s.n])
            .strides([stride, k.i32(1)])
            .offsets([row0, k.i32(0)])
            .block_shape([s.tiles.bm, s.tiles.bn])
            .order([1, 0])
            .build()
    };
    let x = zero_padded(k, rows_block(p[0]));
    let cols = k.arange(0, bn);
    let n = s.n.to(DType::F32);
    let mean = x.sum(1) / n;
    let xc = k.where_(cols.expand_dims(0).lt(s.n), x - mean.expand_dims(1), 0.0);
    let var = (xc * xc).sum(1) / n;
    let rstd = 1.0f32 / (var + eps).sqrt();
    let vector = |base: Tile<'k>| {
        let block = k
            .make_block_ptr(base)
            .shape([s.n])
            .strides([k.i32(1)])
            .offsets([k.i32(0)])
            .block_shape([s.tiles.bn])
            .order([0])
            .build();
        k.load(block)
            .boundary_check(&[0])
            .padding(Padding::Zero)
            .build()
            .to(DType::F32)
    };
    let (w, b) = (vector(p[2]), vector(p[3]));
    let y = xc * rstd.expand_dims(1) * w.expand_dims(0) + b.expand_dims(0);
    k.store(rows_block(p[1]), y.to(s.dtype))
        .boundary_check(&[0, 1])
        .build();
}
