//! Products whose result the pipelined loop carries on *and* reads in the
//! same iteration, executed. On sm_90 a product whose only use is the
//! loop's `scf.yield` commits its `wgmma` group and leaves it running into
//! the next iteration; one the body also reads (a running row sum of the
//! accumulator, a second product of it: chunked linear attention's state
//! `h = h + k^T v` and `o = q @ h`) must be waited for before that read.
//! A product left running is waited for in the next iteration before the
//! first op that reads its registers other than as an accumulator (a
//! scaling of the carried value before the next product: attention's
//! `acc * alpha`). The executor reports a register read while its `wgmma`
//! group still writes it; the sums are of small integers, exact in any order, so the
//! PTX agrees with the interpreter bit for bit.

use super::matmul::operand;
use super::{Options, run_compiled, same_bits, sm_80};
use tile::{DType, Kernel};

/// `acc = sum_i A_i @ B_i` over `iters` blocks (A_i 64x16, B_i 16x64,
/// f16), and `tot = sum_i rowsum(acc after block i)`: `acc` is carried by
/// the loop and read by the row sum in the same iteration.
fn running_sum(context: &melior::Context) -> Kernel<'_> {
    Kernel::build(context, "running_sum", |k| {
        let a = k.arg_ptr("a", DType::F16);
        let b = k.arg_ptr("b", DType::F16);
        let c = k.arg_ptr("c", DType::F32);
        let s = k.arg_ptr("s", DType::F32);
        let iters = k.arg("iters", DType::I32);
        let rows = k.arange(0, 64);
        let ks = k.arange(0, 16);
        let cols = k.arange(0, 64);
        let acc = k.zeros(&[64, 64], DType::F32);
        let tot = k.zeros(&[64], DType::F32);
        let [acc, tot] = k.for_range(0, iters, 1, [acc, tot], |i, [acc, tot]| {
            let x = k
                .load(a + i * 1024 + rows.expand_dims(1) * 16 + ks.expand_dims(0))
                .build();
            let y = k
                .load(b + i * 1024 + ks.expand_dims(1) * 64 + cols.expand_dims(0))
                .build();
            let acc = k.dot(x, y).acc(acc).build();
            [acc, tot + acc.sum(1)]
        });
        k.store(c + rows.expand_dims(1) * 64 + cols.expand_dims(0), acc)
            .build();
        k.store(s + rows, tot).build();
    })
    .unwrap()
}

/// `acc = f(acc) + A_i @ B_i` over `iters` blocks: the product's one use
/// is the loop's yield, so its group runs on into the next iteration,
/// whose first op reads `acc` before the next product: `f` doubles it, or
/// with `select` zeroes its first `16 i` rows (`acc` as the select's third
/// operand, the place a product's accumulator takes).
fn doubled_sum(context: &melior::Context, select: bool) -> Kernel<'_> {
    Kernel::build(context, "doubled_sum", |k| {
        let a = k.arg_ptr("a", DType::F16);
        let b = k.arg_ptr("b", DType::F16);
        let c = k.arg_ptr("c", DType::F32);
        let iters = k.arg("iters", DType::I32);
        let rows = k.arange(0, 64);
        let ks = k.arange(0, 16);
        let cols = k.arange(0, 64);
        let acc = k.zeros(&[64, 64], DType::F32);
        let [acc] = k.for_range(0, iters, 1, [acc], |i, [acc]| {
            let doubled = if select {
                k.where_(rows.expand_dims(1).lt(i * 16), 0.0, acc)
            } else {
                acc + acc
            };
            let x = k
                .load(a + i * 1024 + rows.expand_dims(1) * 16 + ks.expand_dims(0))
                .build();
            let y = k
                .load(b + i * 1024 + ks.expand_dims(1) * 64 + cols.expand_dims(0))
                .build();
            [k.dot(x, y).acc(doubled).build()]
        });
        k.store(c + rows.expand_dims(1) * 64 + cols.expand_dims(0), acc)
            .build();
    })
    .unwrap()
}

/// The sm_90 options of these tests (no fusion, as the others).
fn sm_90(num_warps: u32, num_stages: u32) -> Options {
    Options {
        chip: "sm_90".into(),
        ..sm_80(num_warps, num_stages)
    }
}

#[test]
fn product_read_in_its_own_iteration_agrees_bit_for_bit() {
    let context = tile::context().unwrap();
    let kernel = running_sum(&context);
    let iters = 3usize;
    let inputs = [
        operand(DType::F16, iters * 1024, 1),
        operand(DType::F16, iters * 1024, 2),
        super::zeros(64 * 64),
        super::zeros(64),
        super::In::Scalar(tile::Arg::from(iters as i32)),
    ];
    for options in [sm_90(4, 2), sm_90(4, 3), sm_80(4, 2)] {
        let case = format!("running sum {} stages={}", options.chip, options.num_stages);
        same_bits(
            &case,
            &run_compiled(&kernel, options, true, [1, 1, 1], &inputs),
        );
    }
}

#[test]
fn product_left_running_is_waited_for_before_the_next_read() {
    let context = tile::context().unwrap();
    let iters = 3usize;
    let inputs = [
        operand(DType::F16, iters * 1024, 3),
        operand(DType::F16, iters * 1024, 4),
        super::zeros(64 * 64),
        super::In::Scalar(tile::Arg::from(iters as i32)),
    ];
    for select in [false, true] {
        let kernel = doubled_sum(&context, select);
        for options in [sm_90(4, 2), sm_90(4, 3), sm_80(4, 2)] {
            let case = format!(
                "doubled sum (select {select}) {} stages={}",
                options.chip, options.num_stages
            );
            same_bits(
                &case,
                &run_compiled(&kernel, options, true, [1, 1, 1], &inputs),
            );
        }
    }
}
