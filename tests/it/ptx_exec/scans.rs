//! Prefix sums of 16-bit floats widened to f32 before the scan (the
//! row and chunked prefix sums of `shapes-bench`, which scan
//! `x.to(f32)`): the lowering scans each element twice, the second time
//! from the narrow value once the prefixes of the lanes and warps before
//! it are known. Small integers keep every sum exact in either order, so
//! the PTX and the interpreter agree bit for bit.

use super::{In, run_compiled, same_bits, sm_80, small_ints};
use tile::{Arg, DType};
use tile_examples::tile_shapes::{self, ShapeKernel, Tiles};

/// `v` as 16-bit floats (exact: small integers).
fn narrow(d: DType, v: &[f32]) -> In {
    In::Buf(
        v.iter()
            .flat_map(|&x| match d {
                DType::BF16 => half::bf16::from_f32(x).to_le_bytes(),
                _ => half::f16::from_f32(x).to_le_bytes(),
            })
            .collect(),
    )
}

#[test]
fn narrow_prefix_sums_scanned_twice_agree_bit_for_bit() {
    let context = tile::context().unwrap();
    let (m, n) = (37usize, 200usize);
    let cases = [
        // Rows: several runs a thread, two and four warps along a row.
        (ShapeKernel::RowCumsum, 4, 256, 2),
        (ShapeKernel::RowCumsum, 16, 256, 4),
        (ShapeKernel::RowCumsum, 2, 256, 4),
        // Chunks of rows, scanned from each chunk's end.
        (ShapeKernel::ChunkCumsumRev, 64, 16, 2),
        (ShapeKernel::ChunkCumsumRev, 16, 64, 4),
        (ShapeKernel::ChunkCumsumPtrs, 32, 32, 4),
    ];
    for (kernel, bm, bn, warps) in cases {
        for dtype in [DType::BF16, DType::F16] {
            let tiles = Tiles { bm, bn };
            let built = tile_shapes::kernel(&context, kernel, tiles, dtype).unwrap();
            let x = small_ints(m * n, 5);
            let inputs = [
                narrow(dtype, &x),
                In::Buf(vec![0; m * n * 2]),
                In::Scalar(Arg::from(m as i32)),
                In::Scalar(Arg::from(n as i32)),
                In::Scalar(Arg::from(n as i32)),
                In::Scalar(Arg::from(n as i32)),
            ];
            let (gx, gy) = tile_shapes::grid(kernel, tiles, (m, n));
            let outputs = run_compiled(&built, sm_80(warps, 3), true, [gx, gy, 1], &inputs);
            same_bits(
                &format!("{} {dtype} {bm}x{bn}/w{warps}", kernel.name()),
                &outputs,
            );
        }
    }
}
