//! Addresses made of index tensors whose registers come from different
//! ranges, executed. The lowering shares one base address among the
//! registers of an offset that is one value plus constants (`x + off +
//! arange(..)`); an offset whose registers are sums of different values
//! (here two ranges, each from its own start, concatenated in registers)
//! must not share one.

use super::{In, i32s, run_both, same_bits};
use tile::{Arg, DType, Kernel};

/// `y[i] = x[idx[i]]` for `idx = cat(p * 128 + arange(0, 64), s +
/// arange(0, 64))`: one warp, each half two registers of each thread
/// (its start plus 0 and plus 32), the concatenation four.
fn gather_two_ranges(context: &melior::Context) -> Kernel<'_> {
    Kernel::build(context, "gather_two_ranges", |k| {
        let x = k.arg_ptr("x", DType::I32);
        let y = k.arg_ptr("y", DType::I32);
        let s = k.arg("s", DType::I32);
        let first = k.program_id(0) * 128 + k.arange(0, 64);
        let second = s + k.arange(0, 64);
        let idx = first.cat(second, 0);
        let v = k.load(x + idx).build();
        k.store(y + k.program_id(0) * 128 + k.arange(0, 128), v)
            .build();
    })
    .unwrap()
}

#[test]
fn an_offset_of_two_ranges_reads_each_from_its_own_start() {
    let context = tile::context().unwrap();
    let kernel = gather_two_ranges(&context);
    let x: Vec<i32> = (0..512).map(|i| i * 7 + 1).collect();
    for start in [100, 333] {
        let inputs = [i32s(&x), i32s(&[0; 256]), In::Scalar(Arg::from(start))];
        let outputs = run_both(&kernel, 1, [2, 1, 1], &inputs);
        same_bits(&format!("two ranges, second from {start}"), &outputs);
        // The interpreter's own answer: the halves from their own starts.
        let y: Vec<i32> = outputs.interpreted[1]
            .chunks(4)
            .map(|b| i32::from_le_bytes(b.try_into().unwrap()))
            .collect();
        for p in 0..2usize {
            for i in 0..64usize {
                assert_eq!(y[p * 128 + i], x[p * 128 + i]);
                assert_eq!(y[p * 128 + 64 + i], x[start as usize + i]);
            }
        }
    }
}

/// `y[r, c] = 2 x[r, c] + r` over `BM` rows a program held in each
/// thread's registers (one warp, 128 columns a step: 4 a thread), the
/// columns walked by a loop: each address is a row's uniform base plus the
/// thread's column (`tile_passes` `simt/uniform.rs`).
fn rows_in_registers(context: &melior::Context, bm: i32) -> Kernel<'_> {
    Kernel::build(context, "rows_in_registers", |k| {
        let x = k.arg_ptr("x", DType::I32);
        let y = k.arg_ptr("y", DType::I32);
        let m = k.arg("m", DType::I32);
        let n = k.arg("n", DType::I32);
        let stride = k.arg("stride", DType::I32);
        let rows = k.program_id(0) * bm + k.arange(0, bm);
        let row_mask = rows.lt(m).expand_dims(1);
        k.for_range(0, n, 128, [], |off, []| {
            let cols = off + k.arange(0, 128);
            let offs = (rows * stride).expand_dims(1) + cols.expand_dims(0);
            let mask = row_mask & cols.lt(n).expand_dims(0);
            let v = k.load(x + offs).mask(mask).build();
            let out = v * 2 + rows.expand_dims(1);
            k.store(y + offs, out).mask(mask).build();
            []
        });
    })
    .unwrap()
}

#[test]
fn rows_in_registers_address_through_uniform_row_bases() {
    let context = tile::context().unwrap();
    let (m, n, stride) = (37usize, 200usize, 203usize);
    let x: Vec<i32> = (0..m * stride)
        .map(|i| (i as i32 * 13) % 1001 - 500)
        .collect();
    for bm in [2, 4, 8] {
        let kernel = rows_in_registers(&context, bm);
        let inputs = [
            i32s(&x),
            i32s(&vec![-7; m * stride]),
            In::Scalar(Arg::from(m as i32)),
            In::Scalar(Arg::from(n as i32)),
            In::Scalar(Arg::from(stride as i32)),
        ];
        let programs = m.div_ceil(bm as usize) as u32;
        let outputs = run_both(&kernel, 1, [programs, 1, 1], &inputs);
        same_bits(&format!("rows in registers, {bm} a program"), &outputs);
        // The interpreter's own answer: written in bounds, untouched past
        // each row's `n` columns.
        let y: Vec<i32> = outputs.interpreted[1]
            .chunks(4)
            .map(|b| i32::from_le_bytes(b.try_into().unwrap()))
            .collect();
        for r in 0..m {
            for c in 0..stride {
                let want = if c < n {
                    2 * x[r * stride + c] + r as i32
                } else {
                    -7
                };
                assert_eq!(y[r * stride + c], want, "row {r} column {c}");
            }
        }
    }
}
