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
//! group still writes it; the sums are of small integers, exact in any
//! order, so the PTX agrees with the interpreter bit for bit.

use super::matmul::operand;
use super::{Options, run_compiled, same_bits, sm_80};
use tile::{DType, Kernel};

/// What the loop body does with the accumulator `acc` it carries, besides
/// `acc = g(acc) + A_i @ B_i` (A_i 64x16, B_i 16x64, f16).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Form {
    /// `g` is the identity, and the body sums the product's rows into a
    /// second carried value: the product is read in its own iteration.
    RowSums,
    /// `g` doubles `acc`: the product's one use is the loop's yield, so its
    /// group runs on into the next iteration, whose first op reads it.
    Doubled,
    /// `g` zeroes the first `16 i` rows of `acc` with a select (`acc` as
    /// its third operand, the place a product's accumulator takes).
    Selected,
}

/// The kernel of `form` over `iters` blocks: `c` gets `acc`, `s` the row
/// sums (zeros but for [`Form::RowSums`]).
fn carried_sum(context: &melior::Context, form: Form) -> Kernel<'_> {
    Kernel::build(context, "carried_sum", |k| {
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
            let before = match form {
                Form::RowSums => acc,
                Form::Doubled => acc + acc,
                Form::Selected => k.where_(rows.expand_dims(1).lt(i * 16), 0.0, acc),
            };
            let x = k
                .load(a + i * 1024 + rows.expand_dims(1) * 16 + ks.expand_dims(0))
                .build();
            let y = k
                .load(b + i * 1024 + ks.expand_dims(1) * 64 + cols.expand_dims(0))
                .build();
            let acc = k.dot(x, y).acc(before).build();
            match form {
                Form::RowSums => [acc, tot + acc.sum(1)],
                _ => [acc, tot],
            }
        });
        k.store(c + rows.expand_dims(1) * 64 + cols.expand_dims(0), acc)
            .build();
        k.store(s + rows, tot).build();
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

/// Each form, on sm_90 at 2 and 3 stages and on sm_80, agrees with the
/// interpreter bit for bit (sums of small integers).
#[test]
fn carried_products_agree_bit_for_bit() {
    let context = tile::context().unwrap();
    let iters = 3usize;
    let inputs = [
        operand(DType::F16, iters * 1024, 1),
        operand(DType::F16, iters * 1024, 2),
        super::zeros(64 * 64),
        super::zeros(64),
        super::In::Scalar(tile::Arg::from(iters as i32)),
    ];
    for form in [Form::RowSums, Form::Doubled, Form::Selected] {
        let kernel = carried_sum(&context, form);
        for options in [sm_90(4, 2), sm_90(4, 3), sm_80(4, 2)] {
            let case = format!("{form:?} {} stages={}", options.chip, options.num_stages);
            same_bits(
                &case,
                &run_compiled(&kernel, options, true, [1, 1, 1], &inputs),
            );
        }
    }
}
