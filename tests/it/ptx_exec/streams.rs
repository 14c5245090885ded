//! Loops of memory-bound loads that ask for stages (`for_range_staged`)
//! and so load their tiles several iterations ahead into registers
//! (`tile.prefetch = d`), executed: column sums over
//! blocks of rows, written with offsets recomputed from the loop index and
//! with a pointer tensor the loop carries and steps, at trip counts below,
//! at and past the distance (1 to 5 iterations), with masks on both axes,
//! at 2 to 4 stages, and in f16 (two elements a register). Sums of small
//! integers are exact in any order, so the PTX must agree with the
//! interpreter bit for bit: a tile issued for the wrong iteration, a guard
//! that lets the last iterations load past their rows, or a rotation of
//! the carried tiles that skips one changes some sum.

use super::{In, run_compiled, same_bits, sm_80, small_ints};
use tile::{Arg, DType, Kernel};

/// `out[j] = sum_i x[i, j]` over `m` rows of an `m` x `n` matrix, one
/// block of `bn` columns a program, `bm` rows an iteration, the loop
/// asking for `stages`; `carried` steps a pointer tensor the loop carries
/// instead of recomputing the offsets from the loop index.
fn column_sum<'c>(
    context: &'c melior::Context,
    d: DType,
    (bm, bn): (i32, i32),
    stages: u32,
    carried: bool,
) -> Kernel<'c> {
    Kernel::build(context, "column_sum", |k| {
        let x = k.arg_ptr("x", d);
        let out = k.arg_ptr("out", DType::F32);
        let m = k.arg("m", DType::I32);
        let n = k.arg("n", DType::I32);
        let cols = k.program_id(0) * bn + k.arange(0, bn);
        let col_mask = cols.lt(n);
        let acc = k.zeros(&[i64::from(bm), i64::from(bn)], DType::F32);
        let acc = if carried {
            let ptrs = x + k.arange(0, bm).expand_dims(1) * n + cols.expand_dims(0);
            let [acc, _] = k.for_range_staged(stages, 0, m, bm, [acc, ptrs], |off, [acc, ptrs]| {
                let rows = off + k.arange(0, bm);
                let mask = rows.expand_dims(1).lt(m) & col_mask.expand_dims(0);
                let tile = k.load(ptrs).mask(mask).other(0.0).build().to(DType::F32);
                [acc + tile, ptrs + n * bm]
            });
            acc
        } else {
            let [acc] = k.for_range_staged(stages, 0, m, bm, [acc], |off, [acc]| {
                let rows = off + k.arange(0, bm);
                let mask = rows.expand_dims(1).lt(m) & col_mask.expand_dims(0);
                let at = x + rows.expand_dims(1) * n + cols.expand_dims(0);
                let tile = k.load(at).mask(mask).other(0.0).build().to(DType::F32);
                [acc + tile]
            });
            acc
        };
        k.store(out + cols, acc.sum(0)).mask(col_mask).build();
    })
    .unwrap()
}

/// A case: element type, tile rows and columns, warps, stages, whether
/// the loop carries its pointers, and the matrix's rows and columns.
type Case = (DType, i32, i32, u32, u32, bool, (usize, usize));

#[test]
fn column_sums_loaded_ahead_agree_bit_for_bit() {
    let context = tile::context().unwrap();
    let cases: [Case; 9] = [
        // One iteration (nothing ahead is loaded), two, three and five.
        (DType::F32, 16, 64, 4, 3, false, (16, 64)),
        (DType::F32, 16, 64, 4, 3, false, (32, 64)),
        (DType::F32, 16, 64, 4, 3, false, (40, 80)),
        (DType::F32, 16, 64, 4, 3, true, (80, 64)),
        // Four stages: three tiles ahead; two stages: one.
        (DType::F32, 8, 32, 2, 4, false, (56, 48)),
        (DType::F32, 8, 32, 2, 4, true, (24, 32)),
        (DType::F32, 16, 32, 2, 2, true, (48, 32)),
        // Two f16 a register, and rows the tile does not divide.
        (DType::F16, 16, 64, 4, 3, false, (72, 64)),
        (DType::F16, 32, 64, 4, 3, true, (100, 128)),
    ];
    for (d, bm, bn, warps, stages, carried, (m, n)) in cases {
        let kernel = column_sum(&context, d, (bm, bn), stages, carried);
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
        // The tiles really are loaded ahead: the body's loads, those of the
        // `stages - 1` tiles before the loop and those in it. The module
        // asks for one stage: the loop's own count is what matters.
        let global_loads = |stages| {
            let kernel = column_sum(&context, d, (bm, bn), stages, carried);
            let options = sm_80(warps, 1).specialized(tile::Specialization::of(&[
                Arg::from(tile::DevicePtr(1 << 20)),
                Arg::from(tile::DevicePtr(1 << 21)),
                Arg::from(m as i32),
                Arg::from(n as i32),
            ]));
            let ptx = tile::compile(&kernel, &options).expect("compiles").ptx;
            ptx.matches("ld.global").count()
        };
        assert_eq!(
            global_loads(stages),
            stages as usize * global_loads(1),
            "{d} {bm}x{bn}, {stages} stages: loaded {} tiles ahead",
            stages - 1
        );
        let outputs = run_compiled(&kernel, sm_80(warps, 1), true, grid, &inputs);
        same_bits(
            &format!(
                "column sum {d} {m}x{n}, {bm}x{bn} tiles, {warps} warps, {stages} stages, carried {carried}"
            ),
            &outputs,
        );
    }
}
