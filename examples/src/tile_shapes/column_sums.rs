//! Column sums: the sum over the rows of a `BN`-wide strip, `BM` rows a
//! step, each step's tile summed along axis 0 or added into a `[BM, BN]`
//! accumulator summed after the loop; that loop plain or asking for
//! stages, through pointer tensors recomputed or carried, or through a
//! block pointer advanced by `BM` rows (the Triton twins are in
//! `bench/triton_shapes.py`).

use super::{STREAM_STAGES, Sizes, offsets, zero_padded};
use tile_dialect::{DType, KernelBuilder, Tile};

/// Column sums of a `BN`-wide strip, `BM` rows a step: each step's tile
/// summed along axis 0 into a `[BN]` accumulator (`per_step`), or added
/// into a `[BM, BN]` one summed once after the loop.
pub(super) fn col_sum<'k>(
    k: &'k KernelBuilder<'k>,
    s: Sizes<'k>,
    p: &[Tile<'k>],
    per_step: bool,
    stages: Option<u32>,
) {
    let stride_x = k.arg("stride_x", DType::I32);
    let (bm, bn) = s.bm_bn();
    let cols = k.program_id(0) * bn + k.arange(0, bn);
    let col_mask = cols.lt(s.n);
    let shape: &[i64] = if per_step {
        &[s.tiles.bn]
    } else {
        &[s.tiles.bm, s.tiles.bn]
    };
    let acc = k.zeros(shape, DType::F32);
    let body = |off: Tile<'k>, [acc]: [Tile<'k>; 1]| {
        let rows = off + k.arange(0, bm);
        let mask = rows.expand_dims(1).lt(s.m) & col_mask.expand_dims(0);
        let x = k
            .load(p[0] + offsets(rows, stride_x, cols))
            .mask(mask)
            .other(0.0)
            .build()
            .to(DType::F32);
        [if per_step { acc + x.sum(0) } else { acc + x }]
    };
    let [acc] = match stages {
        Some(stages) => k.for_range_staged(stages, 0, s.m, bm, [acc], body),
        None => k.for_range(0, s.m, bm, [acc], body),
    };
    let sums = if per_step { acc } else { acc.sum(0) };
    k.store(p[1] + cols, sums).mask(col_mask).build();
}

/// [`col_sum`] into a `[BM, BN]` accumulator through a tensor of pointers
/// the loop carries, stepped by `BM` rows each iteration.
pub(super) fn col_sum_ptrs<'k>(k: &'k KernelBuilder<'k>, s: Sizes<'k>, p: &[Tile<'k>]) {
    let stride_x = k.arg("stride_x", DType::I32);
    let (bm, bn) = s.bm_bn();
    let cols = k.program_id(0) * bn + k.arange(0, bn);
    let col_mask = cols.lt(s.n);
    let acc = k.zeros(&[s.tiles.bm, s.tiles.bn], DType::F32);
    let ptrs = p[0] + offsets(k.arange(0, bm), stride_x, cols);
    let [acc, _] = k.for_range_staged(
        STREAM_STAGES,
        0,
        s.m,
        bm,
        [acc, ptrs],
        |off, [acc, ptrs]| {
            let rows = off + k.arange(0, bm);
            let mask = rows.expand_dims(1).lt(s.m) & col_mask.expand_dims(0);
            let x = k.load(ptrs).mask(mask).other(0.0).build().to(DType::F32);
            [acc + x, ptrs + stride_x * bm]
        },
    );
    k.store(p[1] + cols, acc.sum(0)).mask(col_mask).build();
}

/// [`col_sum`] into a `[BM, BN]` accumulator through a block pointer over
/// `[M, N]`, advanced by `BM` rows each iteration, both axes checked.
pub(super) fn col_sum_block<'k>(k: &'k KernelBuilder<'k>, s: Sizes<'k>, p: &[Tile<'k>]) {
    let stride_x = k.arg("stride_x", DType::I32);
    let (bm, bn) = s.bm_bn();
    let start = k.program_id(0) * bn;
    let block = k
        .make_block_ptr(p[0])
        .shape([s.m, s.n])
        .strides([stride_x, k.i32(1)])
        .offsets([k.i32(0), start])
        .block_shape([s.tiles.bm, s.tiles.bn])
        .order([1, 0])
        .build();
    let acc = k.zeros(&[s.tiles.bm, s.tiles.bn], DType::F32);
    let [acc, _] = k.for_range_staged(
        STREAM_STAGES,
        0,
        s.m,
        bm,
        [acc, block],
        |_, [acc, block]| {
            let x = zero_padded(k, block);
            [acc + x, block.advance([bm, 0])]
        },
    );
    let cols = start + k.arange(0, bn);
    k.store(p[1] + cols, acc.sum(0)).mask(cols.lt(s.n)).build();
}
