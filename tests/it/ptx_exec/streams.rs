//! Loops of memory-bound loads that ask for stages (`for_range_staged`),
//! executed. Their tiles are copied `S - 1` iterations ahead into each
//! thread's own slots of shared memory (`cp.async`, read back by the
//! thread that copied them) or, where a copy cannot fill the masked-off
//! lanes (a nonzero `other`), loaded ahead into registers. Column sums over
//! blocks of rows, written three ways (offsets recomputed from the loop
//! index, a pointer tensor the loop carries and steps, a block pointer the
//! loop advances), at trip counts below, at and past the stages (1 to 5
//! iterations), with masks on both axes, at 2 to 4 stages, and in f16. Sums
//! of small integers are exact in any order, so the PTX must agree with
//! the interpreter bit for bit: a tile copied for the wrong iteration, a
//! guard that lets the last iterations read past their rows, a slot read
//! before its copy landed or overwritten before it was read changes some
//! sum.

use super::{In, run_compiled, same_bits, sm_80, small_ints};
use tile::{Arg, DType, Kernel, Padding};

/// How a column sum addresses its tiles.
#[derive(Clone, Copy, Debug)]
enum Form {
    /// Offsets recomputed from the loop index.
    Recomputed,
    /// A pointer tensor the loop carries, stepped by `bm` rows.
    Carried,
    /// A block pointer advanced by `bm` rows, both axes checked.
    Block,
    /// Offsets recomputed from the loop index, the blocks of rows visited
    /// in a rotated order (program `p` starts at block `p`, wrapping): not
    /// affine in the index, so the loop cannot step these addresses and
    /// computes each tile's again, `S - 1` iterations ahead.
    Rotated,
    /// A pointer tensor and the first row's index, both carried and
    /// stepped (the pointers by `bm` rows, the index, which the mask
    /// reads, by `bm`): the loads' address slice carries two values.
    CarriedPair,
    /// As `Rotated`, the block index carried by the loop and wrapped each
    /// iteration: the address slice carries a value the loop cannot step,
    /// and enters the loop with its value at tile `S - 1`.
    RotatedCarried,
}

/// `out[j] = sum_i x[i, j]` over `m` rows of an `m` x `n` matrix, one
/// block of `bn` columns a program, `bm` rows an iteration, the loop
/// asking for `stages`; masked-off lanes read `other`.
fn column_sum<'c>(
    context: &'c melior::Context,
    d: DType,
    (bm, bn): (i32, i32),
    stages: u32,
    form: Form,
    other: f64,
) -> Kernel<'c> {
    Kernel::build(context, "column_sum", |k| {
        let x = k.arg_ptr("x", d);
        let out = k.arg_ptr("out", DType::F32);
        let m = k.arg("m", DType::I32);
        let n = k.arg("n", DType::I32);
        let start = k.program_id(0) * bn;
        let cols = start + k.arange(0, bn);
        let col_mask = cols.lt(n);
        let acc = k.zeros(&[i64::from(bm), i64::from(bn)], DType::F32);
        let acc = match form {
            Form::Recomputed => {
                let [acc] = k.for_range_staged(stages, 0, m, bm, [acc], |off, [acc]| {
                    let rows = off + k.arange(0, bm);
                    let mask = rows.expand_dims(1).lt(m) & col_mask.expand_dims(0);
                    let at = x + rows.expand_dims(1) * n + cols.expand_dims(0);
                    let tile = k.load(at).mask(mask).other(other).build();
                    [acc + tile.to(DType::F32)]
                });
                acc
            }
            Form::Rotated => {
                // Rows rounded up to whole blocks; the tile at `off` reads
                // block `(off / bm + pid) % blocks`.
                let blocks = m.cdiv(bm);
                let first = k.program_id(0);
                let [acc] = k.for_range_staged(stages, 0, m, bm, [acc], |off, [acc]| {
                    let block = (off / bm + first) % blocks;
                    let rows = block * bm + k.arange(0, bm);
                    let mask = rows.expand_dims(1).lt(m) & col_mask.expand_dims(0);
                    let at = x + rows.expand_dims(1) * n + cols.expand_dims(0);
                    let tile = k.load(at).mask(mask).other(other).build();
                    [acc + tile.to(DType::F32)]
                });
                acc
            }
            Form::RotatedCarried => {
                let blocks = m.cdiv(bm);
                let first = k.program_id(0) % blocks;
                let [acc, _] =
                    k.for_range_staged(stages, 0, m, bm, [acc, first], |_, [acc, block]| {
                        let rows = block * bm + k.arange(0, bm);
                        let mask = rows.expand_dims(1).lt(m) & col_mask.expand_dims(0);
                        let at = x + rows.expand_dims(1) * n + cols.expand_dims(0);
                        let tile = k.load(at).mask(mask).other(other).build();
                        [acc + tile.to(DType::F32), (block + 1) % blocks]
                    });
                acc
            }
            Form::Carried => {
                let ptrs = x + k.arange(0, bm).expand_dims(1) * n + cols.expand_dims(0);
                let [acc, _] =
                    k.for_range_staged(stages, 0, m, bm, [acc, ptrs], |off, [acc, ptrs]| {
                        let rows = off + k.arange(0, bm);
                        let mask = rows.expand_dims(1).lt(m) & col_mask.expand_dims(0);
                        let tile = k.load(ptrs).mask(mask).other(other).build();
                        [acc + tile.to(DType::F32), ptrs + n * bm]
                    });
                acc
            }
            Form::CarriedPair => {
                let ptrs = x + k.arange(0, bm).expand_dims(1) * n + cols.expand_dims(0);
                let first = k.i32(0);
                let [acc, _, _] = k.for_range_staged(
                    stages,
                    0,
                    m,
                    bm,
                    [acc, ptrs, first],
                    |_, [acc, ptrs, first]| {
                        let rows = first + k.arange(0, bm);
                        let mask = rows.expand_dims(1).lt(m) & col_mask.expand_dims(0);
                        let tile = k.load(ptrs).mask(mask).other(other).build();
                        [acc + tile.to(DType::F32), ptrs + n * bm, first + bm]
                    },
                );
                acc
            }
            Form::Block => {
                let block = k
                    .make_block_ptr(x)
                    .shape([m, n])
                    .strides([n, k.i32(1)])
                    .offsets([k.i32(0), start])
                    .block_shape([i64::from(bm), i64::from(bn)])
                    .build();
                let [acc, _] =
                    k.for_range_staged(stages, 0, m, bm, [acc, block], |_, [acc, block]| {
                        let tile = k
                            .load(block)
                            .boundary_check(&[0, 1])
                            .padding(Padding::Zero)
                            .build();
                        [acc + tile.to(DType::F32), block.advance([bm, 0])]
                    });
                acc
            }
        };
        k.store(out + cols, acc.sum(0)).mask(col_mask).build();
    })
    .unwrap()
}

/// A case: element type, tile rows and columns, warps, stages, form,
/// `other`, and the matrix's rows and columns.
type Case = (DType, (i32, i32), u32, u32, Form, f64, (usize, usize));

#[test]
fn column_sums_loaded_ahead_agree_bit_for_bit() {
    let context = tile::context().unwrap();
    let cases: [Case; 22] = [
        // One iteration (nothing ahead is read), two, three and five.
        (DType::F32, (16, 64), 4, 3, Form::Recomputed, 0.0, (16, 64)),
        (DType::F32, (16, 64), 4, 3, Form::Recomputed, 0.0, (32, 64)),
        (DType::F32, (16, 64), 4, 3, Form::Block, 0.0, (40, 80)),
        (DType::F32, (16, 64), 4, 3, Form::Carried, 0.0, (80, 64)),
        // Four stages: three tiles ahead; two stages: one.
        (DType::F32, (8, 32), 2, 4, Form::Recomputed, 0.0, (56, 48)),
        (DType::F32, (8, 32), 2, 4, Form::Block, 0.0, (56, 48)),
        (DType::F32, (16, 32), 2, 2, Form::Carried, 0.0, (48, 32)),
        // f16, and rows the tile does not divide.
        (DType::F16, (16, 64), 4, 3, Form::Recomputed, 0.0, (72, 64)),
        (DType::F16, (32, 64), 4, 3, Form::Block, 0.0, (100, 128)),
        // Masked-off lanes reading 1 (no copy fills them): registers.
        (DType::F32, (16, 64), 4, 3, Form::Recomputed, 1.0, (40, 80)),
        (DType::F32, (8, 32), 2, 4, Form::Carried, 1.0, (24, 32)),
        (DType::F16, (32, 64), 4, 3, Form::Carried, 1.0, (100, 128)),
        (DType::F32, (16, 64), 4, 3, Form::Recomputed, 1.0, (16, 64)),
        // Two carried values in the address slice: copied and in registers.
        (DType::F32, (16, 64), 4, 3, Form::CarriedPair, 0.0, (72, 64)),
        (DType::F32, (8, 32), 2, 4, Form::CarriedPair, 1.0, (56, 48)),
        // Rotated blocks: copied (zero other) and in registers, 2 to 4
        // stages, rows the tile does not divide.
        (DType::F32, (16, 64), 4, 3, Form::Rotated, 0.0, (72, 192)),
        (DType::F32, (8, 32), 2, 4, Form::Rotated, 0.0, (56, 96)),
        (DType::F16, (16, 64), 4, 2, Form::Rotated, 0.0, (40, 128)),
        (DType::F32, (16, 64), 4, 3, Form::Rotated, 1.0, (72, 192)),
        (
            DType::F32,
            (16, 64),
            4,
            3,
            Form::RotatedCarried,
            0.0,
            (72, 192),
        ),
        (
            DType::F32,
            (8, 32),
            2,
            4,
            Form::RotatedCarried,
            0.0,
            (56, 96),
        ),
        (
            DType::F32,
            (16, 64),
            4,
            3,
            Form::RotatedCarried,
            1.0,
            (72, 192),
        ),
    ];
    for (d, (bm, bn), warps, stages, form, other, (m, n)) in cases {
        let case = format!(
            "column sum {d} {m}x{n}, {bm}x{bn} tiles, {warps} warps, {stages} stages, {form:?}, other {other}"
        );
        let values = small_ints(m * n, 5);
        let x = match d {
            DType::F16 => values
                .iter()
                .flat_map(|&v| half::f16::from_f32(v).to_le_bytes())
                .collect(),
            _ => values.iter().flat_map(|v| v.to_le_bytes()).collect(),
        };
        let inputs = [
            In::Buf(x),
            In::Buf(vec![0; n * 4]),
            In::Scalar(Arg::from(m as i32)),
            In::Scalar(Arg::from(n as i32)),
        ];
        let grid = [(n as u32).div_ceil(bn as u32), 1, 1];
        // The tiles really are read ahead: the body's global reads, those
        // of the `stages - 1` tiles before the loop and those in it
        // (copies with a zero fill, loads with another). The module asks
        // for one stage: the loop's own count is what matters.
        let ptx = |stages| {
            let kernel = column_sum(&context, d, (bm, bn), stages, form, other);
            let options = sm_80(warps, 1).specialized(tile::Specialization::of(&[
                Arg::from(tile::DevicePtr(1 << 20)),
                Arg::from(tile::DevicePtr(1 << 21)),
                Arg::from(m as i32),
                Arg::from(n as i32),
            ]));
            tile::compile(&kernel, &options).expect("compiles").ptx
        };
        let (staged, plain) = (ptx(stages), ptx(1));
        let reads = |p: &str| {
            p.matches("ld.global").count()
                + p.matches("cp.async.cg.").count()
                + p.matches("cp.async.ca.").count()
        };
        assert_eq!(reads(&staged), stages as usize * reads(&plain), "{case}");
        let copies = staged.contains("cp.async.cg.") || staged.contains("cp.async.ca.");
        assert_eq!(copies, other == 0.0, "{case}: copied {copies}");
        let kernel = column_sum(&context, d, (bm, bn), stages, form, other);
        let outputs = run_compiled(&kernel, sm_80(warps, 1), true, grid, &inputs);
        same_bits(&case, &outputs);
    }
}
