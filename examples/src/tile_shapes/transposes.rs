//! Transposes: `y = x^T` for a row-major `[M, N]` `x` into an `[N, M]`
//! `y`, three ways. Two load a `[BM, BN]` tile and store it `.trans()`ed
//! (through pointer tensors and masks, through block pointers); the third
//! has no `trans` at all: it reads `x^T` through a block pointer over
//! `x` with `order` (0, 1) (the virtual transpose of a `k` tile in
//! attention) and stores the `[BN, BM]` block as it comes.
//!
//! ```python
//! @triton.jit
//! def transpose_order(x_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr, BN: tl.constexpr):
//!     pm, pn = tl.program_id(0), tl.program_id(1)
//!     xt = tl.make_block_ptr(x_ptr, (N, M), (1, stride_x), (pn * BN, pm * BM), (BN, BM), (0, 1))
//!     yb = tl.make_block_ptr(y_ptr, (N, M), (stride_y, 1), (pn * BN, pm * BM), (BN, BM), (1, 0))
//!     tl.store(yb, tl.load(xt, boundary_check=(0, 1)), boundary_check=(0, 1))
//! ```

use super::{Sizes, mask_2d, offsets, rows_cols};
use tile_dialect::{DType, KernelBuilder, Tile};

pub(super) fn transpose<'k>(k: &'k KernelBuilder<'k>, s: Sizes<'k>, p: &[Tile<'k>]) {
    let (stride_x, stride_y) = (k.arg("stride_x", DType::I32), k.arg("stride_y", DType::I32));
    let (rows, cols) = rows_cols(k, s, true);
    let mask = mask_2d(rows, s.m, cols, s.n);
    let tile = k
        .load(p[0] + offsets(rows, stride_x, cols))
        .mask(mask)
        .build();
    let mask_t = mask_2d(cols, s.n, rows, s.m);
    k.store(p[1] + offsets(cols, stride_y, rows), tile.trans())
        .mask(mask_t)
        .build();
}

/// ```python
/// @triton.jit
/// def transpose_block(x_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr, BN: tl.constexpr):
///     pm, pn = tl.program_id(0), tl.program_id(1)
///     xb = tl.make_block_ptr(x_ptr, (M, N), (stride_x, 1), (pm * BM, pn * BN), (BM, BN), (1, 0))
///     yb = tl.make_block_ptr(y_ptr, (N, M), (stride_y, 1), (pn * BN, pm * BM), (BN, BM), (1, 0))
///     tile = tl.load(xb, boundary_check=(0, 1))
///     tl.store(yb, tile.trans(), boundary_check=(0, 1))
/// ```
pub(super) fn transpose_block<'k>(k: &'k KernelBuilder<'k>, s: Sizes<'k>, p: &[Tile<'k>]) {
    let (stride_x, stride_y) = (k.arg("stride_x", DType::I32), k.arg("stride_y", DType::I32));
    let (bm, bn) = s.bm_bn();
    let (pm, pn) = (k.program_id(0), k.program_id(1));
    let x = k
        .make_block_ptr(p[0])
        .shape([s.m, s.n])
        .strides([stride_x, k.i32(1)])
        .offsets([pm * bm, pn * bn])
        .block_shape([s.tiles.bm, s.tiles.bn])
        .order([1, 0])
        .build();
    let y = y_block(k, s, p[1], stride_y);
    let tile = k.load(x).boundary_check(&[0, 1]).build();
    k.store(y, tile.trans()).boundary_check(&[0, 1]).build();
}

/// `y = x^T` through a block pointer reading `x^T` (`shape (N, M)`,
/// `strides (1, stride_x)`, `order (0, 1)`) and one over `y`, both axes
/// checked; no `trans`.
pub(super) fn transpose_order<'k>(k: &'k KernelBuilder<'k>, s: Sizes<'k>, p: &[Tile<'k>]) {
    let (stride_x, stride_y) = (k.arg("stride_x", DType::I32), k.arg("stride_y", DType::I32));
    let (bm, bn) = s.bm_bn();
    let (pm, pn) = (k.program_id(0), k.program_id(1));
    let xt = k
        .make_block_ptr(p[0])
        .shape([s.n, s.m])
        .strides([k.i32(1), stride_x])
        .offsets([pn * bn, pm * bm])
        .block_shape([s.tiles.bn, s.tiles.bm])
        .order([0, 1])
        .build();
    let y = y_block(k, s, p[1], stride_y);
    let tile = k.load(xt).boundary_check(&[0, 1]).build();
    k.store(y, tile).boundary_check(&[0, 1]).build();
}

/// The `[BN, BM]` block of the `[N, M]` `y` this program stores
/// (`order` (1, 0)): rows from `program_id(1) * BN`, columns from
/// `program_id(0) * BM`.
fn y_block<'k>(
    k: &'k KernelBuilder<'k>,
    s: Sizes<'k>,
    y: Tile<'k>,
    stride_y: Tile<'k>,
) -> Tile<'k> {
    let (bm, bn) = s.bm_bn();
    let (pm, pn) = (k.program_id(0), k.program_id(1));
    k.make_block_ptr(y)
        .shape([s.n, s.m])
        .strides([stride_y, k.i32(1)])
        .offsets([pn * bn, pm * bm])
        .block_shape([s.tiles.bn, s.tiles.bm])
        .order([1, 0])
        .build()
}
