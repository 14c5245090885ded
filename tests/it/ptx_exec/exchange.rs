//! Elements that change threads through shared memory (the exchange's
//! swizzled layouts and vector widths), executed: tiled transposes as
//! users write them (pointer tensors, masks on both axes, `trans` before
//! the store) in several tile shapes, warps and element sizes. A
//! transpose only moves bits, so the executed PTX must agree with the
//! interpreter bit for bit; a slot computed wrong (a swizzle that is not
//! a permutation, a run split by it, a vector at the wrong place) moves
//! some element to the wrong place, and the executor's race checks see a
//! slot written twice.

use super::{In, run_compiled, same_bits, sm_80};
use tile::{Arg, DType, Kernel};

/// `y[j, i] = x[i, j]` for `x` of `m` x `n`, one `bm` x `bn` tile a
/// program: the tile is loaded along rows and stored transposed.
fn transpose<'c>(context: &'c melior::Context, d: DType, bm: i32, bn: i32) -> Kernel<'c> {
    Kernel::build(context, "transpose", |k| {
        let x = k.arg_ptr("x", d);
        let y = k.arg_ptr("y", d);
        let m = k.arg("m", DType::I32);
        let n = k.arg("n", DType::I32);
        let rows = k.program_id(0) * bm + k.arange(0, bm);
        let cols = k.program_id(1) * bn + k.arange(0, bn);
        let inside = rows.expand_dims(1).lt(m) & cols.expand_dims(0).lt(n);
        let tile = k
            .load(x + rows.expand_dims(1) * n + cols.expand_dims(0))
            .mask(inside)
            .build();
        let out = y + cols.expand_dims(1) * m + rows.expand_dims(0);
        let inside_t = cols.expand_dims(1).lt(n) & rows.expand_dims(0).lt(m);
        k.store(out, tile.trans()).mask(inside_t).build();
    })
    .unwrap()
}

/// `n` elements of `size` bytes of a fixed pseudo-random sequence, with
/// the second-highest bit of each element clear: no float is a NaN (the
/// interpreter quiets a signalling NaN it copies, the GPU does not).
fn bytes(n: usize, size: usize, seed: u64) -> Vec<u8> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n * size)
        .map(|i| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let b = (s >> 24) as u8;
            if i % size == size - 1 { b & 0xBF } else { b }
        })
        .collect()
}

/// A transpose case: element type, tile rows and columns, warps, and the
/// matrix's rows and columns.
type Case = (DType, i32, i32, u32, (usize, usize));

#[test]
fn transposes_agree_bit_for_bit_at_every_tile_shape() {
    let context = tile::context().unwrap();
    // (type, tile, warps, sizes): square and rectangular tiles, whole and
    // partial tiles, sizes whose specialization gives 16-byte loads and
    // odd ones that give scalars.
    let cases: [Case; 7] = [
        (DType::F32, 64, 64, 4, (96, 80)),
        (DType::F32, 32, 128, 4, (64, 160)),
        (DType::F32, 128, 32, 8, (128, 48)),
        (DType::F32, 32, 32, 2, (45, 37)),
        (DType::F16, 64, 32, 4, (80, 96)),
        (DType::I8, 32, 64, 4, (64, 128)),
        (DType::F64, 16, 32, 2, (48, 32)),
    ];
    for (d, bm, bn, warps, (m, n)) in cases {
        let kernel = transpose(&context, d, bm, bn);
        let size = (d.bits() / 8) as usize;
        let inputs = [
            In::Buf(bytes(m * n, size, 7)),
            In::Buf(vec![0; m * n * size]),
            In::Scalar(Arg::from(m as i32)),
            In::Scalar(Arg::from(n as i32)),
        ];
        let grid = [
            (m as u32).div_ceil(bm as u32),
            (n as u32).div_ceil(bn as u32),
            1,
        ];
        let outputs = run_compiled(&kernel, sm_80(warps, 1), true, grid, &inputs);
        same_bits(
            &format!("transpose {d} {m}x{n}, {bm}x{bn} tiles, {warps} warps"),
            &outputs,
        );
    }
}
