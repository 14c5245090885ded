//! Prefix sums. Within chunks of rows, as flash-linear-attention's
//! `chunk_local_cumsum` writes them: each program scans a `[BM, BN]` tile
//! along its rows (`tl.cumsum(axis=0)`), so row `i` of a chunk holds the
//! sum of the chunk's rows up to `i` (from `i` to the chunk's end when
//! reversed), in f32, stored in the input's type. And along whole rows,
//! `BM` rows a program (`tl.cumsum(axis=1)` of a `[BM, BLOCK_N]` tile).
//!
//! ```python
//! @triton.jit
//! def chunk_cumsum(x_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr, BN: tl.constexpr):
//!     i_s, i_t = tl.program_id(0), tl.program_id(1)
//!     p_x = tl.make_block_ptr(x_ptr, (M, N), (stride_x, 1), (i_t * BM, i_s * BN), (BM, BN), (1, 0))
//!     p_y = tl.make_block_ptr(y_ptr, (M, N), (stride_y, 1), (i_t * BM, i_s * BN), (BM, BN), (1, 0))
//!     b = tl.load(p_x, boundary_check=(0, 1)).to(tl.float32)
//!     tl.store(p_y, tl.cumsum(b, axis=0).to(p_y.dtype.element_ty), boundary_check=(0, 1))
//!
//! @triton.jit
//! def chunk_cumsum_ptrs(x_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr,
//!                       BN: tl.constexpr, REVERSE: tl.constexpr):
//!     rows = tl.program_id(0) * BM + tl.arange(0, BM)
//!     cols = tl.program_id(1) * BN + tl.arange(0, BN)
//!     mask = (rows[:, None] < M) & (cols[None, :] < N)
//!     x = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :], mask=mask, other=0).to(tl.float32)
//!     y = tl.cumsum(x, axis=0, reverse=REVERSE)
//!     tl.store(y_ptr + rows[:, None] * stride_y + cols[None, :], y.to(y_ptr.dtype.element_ty), mask=mask)
//!
//! @triton.jit
//! def row_cumsum(x_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr, BN: tl.constexpr):
//!     rows = tl.program_id(0) * BM + tl.arange(0, BM)
//!     cols = tl.arange(0, BN)
//!     mask = (rows[:, None] < M) & (cols[None, :] < N)
//!     x = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :], mask=mask, other=0).to(tl.float32)
//!     y = tl.cumsum(x, axis=1)
//!     tl.store(y_ptr + rows[:, None] * stride_y + cols[None, :], y.to(y_ptr.dtype.element_ty), mask=mask)
//! ```
//!
//! The block-pointer form keeps flash-linear-attention's grid, column
//! blocks on axis 0 ([`super::Cover::TilesByColumns`]); the pointer forms
//! put row blocks on axis 0 as the other 2-D kernels do.

use super::{Sizes, mask_2d, offsets, rows_cols};
use tile_dialect::{DType, KernelBuilder, ScanKind, Tile};

/// The block-pointer form: a `[BM, BN]` block of `x` at row chunk
/// `program_id(1)` and column block `program_id(0)`, both axes checked.
pub(super) fn chunk_cumsum_block<'k>(k: &'k KernelBuilder<'k>, s: Sizes<'k>, p: &[Tile<'k>]) {
    let (stride_x, stride_y) = (k.arg("stride_x", DType::I32), k.arg("stride_y", DType::I32));
    let (bm, bn) = s.bm_bn();
    let (i_s, i_t) = (k.program_id(0), k.program_id(1));
    let block = |base: Tile<'k>, stride: Tile<'k>| {
        k.make_block_ptr(base)
            .shape([s.m, s.n])
            .strides([stride, k.i32(1)])
            .offsets([i_t * bm, i_s * bn])
            .block_shape([s.tiles.bm, s.tiles.bn])
            .order([1, 0])
            .build()
    };
    let (x, y) = (block(p[0], stride_x), block(p[1], stride_y));
    let b = k.load(x).boundary_check(&[0, 1]).build().to(DType::F32);
    k.store(y, b.cumsum(0).to(s.dtype))
        .boundary_check(&[0, 1])
        .build();
}

/// The pointer-tensor form, masks on both axes, `other = 0`, scanning
/// forwards or (`reverse`) from each chunk's last row.
pub(super) fn chunk_cumsum_ptrs<'k>(
    k: &'k KernelBuilder<'k>,
    s: Sizes<'k>,
    p: &[Tile<'k>],
    reverse: bool,
) {
    scanned_tile(k, s, p, true, 0, reverse);
}

/// The whole-row form: `BM` rows of `BLOCK_N` (at least `N`) a program,
/// masks on both axes, `other = 0`, scanned along axis 1.
pub(super) fn row_cumsum<'k>(k: &'k KernelBuilder<'k>, s: Sizes<'k>, p: &[Tile<'k>]) {
    scanned_tile(k, s, p, false, 1, false);
}

/// A `[BM, BN]` tile of `x` (a column block on grid axis 1 when
/// `column_blocks`, else columns from 0) loaded through pointer tensors,
/// masked on both axes with `other = 0`, summed along `axis` in f32 and
/// stored into `y` in the input's type.
fn scanned_tile<'k>(
    k: &'k KernelBuilder<'k>,
    s: Sizes<'k>,
    p: &[Tile<'k>],
    column_blocks: bool,
    axis: i64,
    reverse: bool,
) {
    let (stride_x, stride_y) = (k.arg("stride_x", DType::I32), k.arg("stride_y", DType::I32));
    let (rows, cols) = rows_cols(k, s, column_blocks);
    let mask = mask_2d(rows, s.m, cols, s.n);
    let x = k
        .load(p[0] + offsets(rows, stride_x, cols))
        .mask(mask)
        .other(0)
        .build()
        .to(DType::F32);
    let y = x.scan(ScanKind::Sum, axis, reverse);
    k.store(p[1] + offsets(rows, stride_y, cols), y.to(s.dtype))
        .mask(mask)
        .build();
}

/// The reference of row `i`, column `j` of the row-major `[m, n]` values
/// `x` summed along each row: the f64 sum of `x[i][..=j]` and the sum of
/// its terms' magnitudes.
pub fn row_cumsum_reference(x: &[f32], n: usize, (i, j): (usize, usize)) -> (f64, f64) {
    x[i * n..=i * n + j]
        .iter()
        .map(|&v| f64::from(v))
        .fold((0.0, 0.0), |(s, a), v| (s + v, a + v.abs()))
}

/// The reference of row `i`, column `j` of a chunked prefix sum of the
/// row-major `[m, n]` values `x` in chunks of `bm` rows: the f64 sum and
/// the sum of its terms' magnitudes.
pub fn chunk_cumsum_reference(
    x: &[f32],
    (m, n): (usize, usize),
    bm: usize,
    reverse: bool,
    (i, j): (usize, usize),
) -> (f64, f64) {
    let start = i / bm * bm;
    let rows = if reverse {
        i..(start + bm).min(m)
    } else {
        start..i + 1
    };
    rows.map(|r| f64::from(x[r * n + j]))
        .fold((0.0, 0.0), |(s, a), v| (s + v, a + v.abs()))
}

#[cfg(test)]
mod tests {
    use super::{chunk_cumsum_reference, row_cumsum_reference};

    #[test]
    fn the_reference_sums_within_chunks_in_either_direction() {
        // 5 x 2, chunks of 2 rows: rows 0-1, 2-3, 4.
        let x: Vec<f32> = (0..10).map(|v| v as f32 - 3.0).collect();
        let at = |i, j, rev| chunk_cumsum_reference(&x, (5, 2), 2, rev, (i, j));
        assert_eq!(at(0, 0, false), (-3.0, 3.0));
        assert_eq!(at(1, 0, false), (-4.0, 4.0)); // -3 + -1
        assert_eq!(at(3, 1, false), (6.0, 6.0)); // 2 + 4 (rows 2, 3 of column 1)
        assert_eq!(at(2, 1, true), (6.0, 6.0));
        assert_eq!(at(3, 1, true), (4.0, 4.0));
        assert_eq!(at(4, 0, true), (5.0, 5.0)); // the last chunk's one row
        assert_eq!(at(0, 1, true), (-2.0 + 0.0, 2.0));
        // Along row 1 (2, 3): 2, then 5.
        assert_eq!(row_cumsum_reference(&x, 2, (1, 0)), (-1.0, 1.0));
        assert_eq!(row_cumsum_reference(&x, 2, (1, 1)), (-1.0, 1.0));
        assert_eq!(row_cumsum_reference(&x, 2, (4, 1)), (11.0, 11.0));
    }
}
