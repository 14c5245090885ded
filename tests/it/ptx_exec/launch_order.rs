//! Programs renumbered by `tile-launch-order`, executed: every pair of
//! program indices must still be taken by exactly one block, whatever the
//! grid's shape, so every tile is written once and the outputs agree bit
//! for bit with the interpreter (which runs the kernel as built, programs
//! in the grid's order). Each kernel is one the pass renumbers: its PTX
//! divides the start order by the grid's size along y.

use super::{In, f32s, randoms, run_compiled, same_bits, sm_80};
use tile::{Arg, DType, Kernel};

/// `y = 2x + 1` over `[bm, bn]` tiles of a row-major `[m, n]` matrix, row
/// blocks on axis 0, column blocks on axis 1, masked at the edges; each
/// tile also adds its program indices, so a tile written by the wrong
/// program or not at all shows. Through block pointers with `block`.
fn scaled_tiles(context: &melior::Context, bm: i32, bn: i32, block: bool) -> Kernel<'_> {
    let name = if block {
        "scaled_blocks"
    } else {
        "scaled_tiles"
    };
    Kernel::build(context, name, |k| {
        let x = k.arg_ptr("x", DType::F32);
        let y = k.arg_ptr("y", DType::F32);
        let m = k.arg("m", DType::I32);
        let n = k.arg("n", DType::I32);
        let (pm, pn) = (k.program_id(0), k.program_id(1));
        let tag = (pm * 1000 + pn).to(DType::F32);
        if block {
            let at = |base| {
                k.make_block_ptr(base)
                    .shape([m, n])
                    .strides([n, k.i32(1)])
                    .offsets([pm * bm, pn * bn])
                    .block_shape([i64::from(bm), i64::from(bn)])
                    .order([1, 0])
                    .build()
            };
            let v = k.load(at(x)).boundary_check(&[0, 1]).build();
            k.store(at(y), v * 2.0f32 + 1.0f32 + tag)
                .boundary_check(&[0, 1])
                .build();
        } else {
            let rows = (pm * bm + k.arange(0, bm)).expand_dims(1);
            let cols = (pn * bn + k.arange(0, bn)).expand_dims(0);
            let mask = rows.lt(m) & cols.lt(n);
            let v = k.load(x + rows * n + cols).mask(mask).build();
            k.store(y + rows * n + cols, v * 2.0f32 + 1.0f32 + tag)
                .mask(mask)
                .build();
        }
    })
    .unwrap()
}

#[test]
fn renumbered_programs_write_every_tile_once() {
    let context = tile::context().unwrap();
    let (bm, bn) = (16, 8);
    for block in [false, true] {
        let kernel = scaled_tiles(&context, bm, bn, block);
        let ptx = tile::compile(&kernel, &sm_80(4, 3)).unwrap().ptx;
        assert!(
            ptx.contains("%nctaid.y") && ptx.contains("div.u32"),
            "{}: not renumbered",
            kernel.name()
        );
        // Grids wider than tall, taller than wide, one row or column of
        // programs, and tiles cut by both edges.
        for (m, n) in [(40, 50), (70, 9), (16, 30), (5, 8)] {
            let grid = [
                (m as u32).div_ceil(bm as u32),
                (n as u32).div_ceil(bn as u32),
                1,
            ];
            let inputs = [
                f32s(&randoms(m * n, 11)),
                f32s(&vec![-7.0; m * n]),
                In::Scalar(Arg::from(m as i32)),
                In::Scalar(Arg::from(n as i32)),
            ];
            let outputs = run_compiled(&kernel, sm_80(4, 3), true, grid, &inputs);
            let case = format!("{} {m}x{n} on {grid:?}", kernel.name());
            same_bits(&case, &outputs);
            // The interpreter's own answer: every element from its tile's
            // program.
            let (x, y) = (&outputs.interpreted[0], &outputs.interpreted[1]);
            let word =
                |b: &[u8], i: usize| f32::from_le_bytes(b[i * 4..i * 4 + 4].try_into().unwrap());
            for r in 0..m {
                for c in 0..n {
                    let tag = ((r / bm as usize) * 1000 + c / bn as usize) as f32;
                    let want = word(x, r * n + c) * 2.0 + 1.0 + tag;
                    assert_eq!(word(y, r * n + c), want, "{case}: ({r}, {c})");
                }
            }
        }
    }
}
