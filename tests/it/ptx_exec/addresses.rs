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
