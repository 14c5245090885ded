//! `tile.reduce` in per-thread code: sum, max, min, argmax or argmin along
//! one axis.
//!
//! The reduction runs in three steps, each only where the layout spreads
//! the axis that far:
//!
//! 1. **In the thread.** Registers that differ only along the axis are
//!    combined: float sums in register order, one add after another, so
//!    that a product feeding the sum fuses into each add (a chain of
//!    fused multiply-adds under `fp_fusion`, as Triton's reductions
//!    give); everything else as a balanced tree (a short dependency
//!    chain).
//! 2. **Across lanes.** A butterfly of `gpu.shuffle xor` over the lane bits
//!    that number the axis; afterwards every lane of the group holds the
//!    group's result.
//! 3. **Across warps.** One lane per group writes its warp's partial to
//!    shared memory at `[warp digit][output element]`; after a barrier
//!    every thread reads the partials of its output elements and combines
//!    them in warp order, or, where that would be more than a few values
//!    a thread, lanes combine them and every thread reads the totals
//!    (`warps`); either way all copies agree bit for bit.
//!
//! Sums of `f16`/`bf16` accumulate in `f32` and round once at the end.
//! Where the layout covers the axis with more threads than it has elements
//! (the index wraps, so threads hold copies), only the first copy counts
//! towards a sum; the others contribute zero. Max and min are `maxnum` /
//! `minnum` on floats (a NaN loses to a number, as in Triton's default)
//! and signed on integers. The result is in the source layout sliced along
//! the axis (or the source layout itself with `keep_dims`); a reduction to
//! a scalar leaves the value in every thread.
//!
//! `argmax` and `argmin` carry (value, index) pairs through the same three
//! steps. A pair beats another when its value is strictly better, or equal
//! with a smaller index; on floats a NaN beats every number and two NaNs
//! compare by index (torch's rule). That order is total, so the result does
//! not depend on how the steps group the elements.

use super::builder::{ShuffleMode, Val};
use super::emit::{Emitter, Lowered};
use crate::pass::{PassError, PassResult};
use melior::dialect::arith::{self, CmpfPredicate, CmpiPredicate};
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Type, Value};
use std::collections::BTreeMap;
use tile_coalesce::Distribution;
use tile_dialect::view::Reduce;
use tile_dialect::{DType, ReduceKind};

mod warps;

use warps::across_warps;

/// The reduction of one op, with its source's distribution. A partial is
/// a tuple: the value, then for `argmax`/`argmin` its index.
struct Reduction<'d, 'c> {
    kind: ReduceKind,
    axis: usize,
    /// Element type of the source (and of the result, but for the index
    /// kinds).
    ty: DType,
    /// Type the values are combined in.
    acc: DType,
    acc_type: Type<'c>,
    src: &'d Distribution,
}

/// One partial: the value, and for the index kinds the index.
type Partial = Vec<Val>;

impl<'c> Reduction<'_, 'c> {
    /// The element types of a partial's components.
    fn components(&self) -> Vec<DType> {
        if self.kind.is_arg() {
            vec![self.acc, DType::I32]
        } else {
            vec![self.acc]
        }
    }

    fn combine(&self, e: &mut Emitter<'_, 'c>, a: &[Val], b: &[Val]) -> Partial {
        let float = self.acc.is_float();
        let (x, y) = (a[0], b[0]);
        let v = match (self.kind, float) {
            (ReduceKind::Sum, true) => super::elementwise::float_sum(e, x, y),
            (ReduceKind::Sum, false) => e.ir.binary(arith::addi, x, y),
            (ReduceKind::Max, false) => e.ir.binary(arith::maxsi, x, y),
            (ReduceKind::Min, false) => e.ir.binary(arith::minsi, x, y),
            (ReduceKind::Max | ReduceKind::Min, true) => {
                let base = if self.kind == ReduceKind::Max {
                    "llvm.maxnum"
                } else {
                    "llvm.minnum"
                };
                let name = super::math::overloaded(base, &[self.acc]);
                e.ir.intrinsic(&name, &[x, y], self.acc_type)
            }
            (ReduceKind::ArgMax | ReduceKind::ArgMin, _) => {
                let wins = self.beats(e, b, a);
                let v = e.ir.select(wins, y, x);
                let i = e.ir.select(wins, b[1], a[1]);
                return vec![v, i];
            }
        };
        vec![v]
    }

    /// For the index kinds: true where pair `b` beats pair `a` (strictly
    /// better, or as good with a smaller index; a NaN is best).
    fn beats(&self, e: &mut Emitter<'_, 'c>, b: &[Val], a: &[Val]) -> Val {
        let max = self.kind == ReduceKind::ArgMax;
        let earlier = e.ir.cmpi(CmpiPredicate::Slt, b[1], a[1]);
        if !self.acc.is_float() {
            let pred = if max {
                CmpiPredicate::Sgt
            } else {
                CmpiPredicate::Slt
            };
            let strict = e.ir.cmpi(pred, b[0], a[0]);
            let equal = e.ir.cmpi(CmpiPredicate::Eq, b[0], a[0]);
            let tie = e.ir.binary(arith::andi, equal, earlier);
            return e.ir.binary(arith::ori, strict, tie);
        }
        let pred = if max {
            CmpfPredicate::Ogt
        } else {
            CmpfPredicate::Olt
        };
        let strict = e.ir.cmpf(pred, b[0], a[0]);
        let equal = e.ir.cmpf(CmpfPredicate::Oeq, b[0], a[0]);
        let b_nan = e.ir.cmpf(CmpfPredicate::Uno, b[0], b[0]);
        let a_nan = e.ir.cmpf(CmpfPredicate::Uno, a[0], a[0]);
        let a_num = e.ir.cmpf(CmpfPredicate::Ord, a[0], a[0]);
        let both_nan = e.ir.binary(arith::andi, a_nan, b_nan);
        let same = e.ir.binary(arith::ori, equal, both_nan);
        let tie = e.ir.binary(arith::andi, same, earlier);
        let nan_wins = e.ir.binary(arith::andi, b_nan, a_num);
        let better = e.ir.binary(arith::ori, strict, nan_wins);
        e.ir.binary(arith::ori, better, tie)
    }

    /// Combines `values` in order, each into the running partial.
    fn chain(&self, e: &mut Emitter<'_, 'c>, values: Vec<Partial>) -> Partial {
        let mut values = values.into_iter();
        let first = values.next().expect("a reduction group is never empty");
        values.fold(first, |acc, v| self.combine(e, &acc, &v))
    }

    /// Combines `values` as a balanced tree.
    fn tree(&self, e: &mut Emitter<'_, 'c>, mut values: Vec<Partial>) -> Partial {
        while values.len() > 1 {
            let mut next = Vec::with_capacity(values.len().div_ceil(2));
            for pair in values.chunks(2) {
                next.push(match pair {
                    [a, b] => self.combine(e, a, b),
                    [a] => a.clone(),
                    _ => unreachable!("chunks of two"),
                });
            }
            values = next;
        }
        values.pop().expect("a reduction group is never empty")
    }

    /// Register `r`'s partial: its value in the accumulator type (for a
    /// sum over a wrapped axis, zero unless this is the element's first
    /// copy), and for the index kinds its index along the axis.
    fn input(&self, e: &mut Emitter<'_, 'c>, value: Val, r: usize) -> Partial {
        let mut v = value;
        if self.ty != self.acc {
            v = e.ir.cast(arith::extf, v, self.acc_type);
        }
        if self.kind == ReduceKind::Sum && self.src.wraps(self.axis) {
            let unwrapped = e.unwrapped_index(self.src, r, self.axis);
            let extent = e.i32(self.src.shape[self.axis]);
            let first = e.ir.cmpi(CmpiPredicate::Ult, unwrapped, extent);
            let zero = e.number(self.acc, 0.0);
            v = e.ir.select(first, v, zero);
        }
        if self.kind.is_arg() {
            let index = e.index(self.src, r, self.axis);
            return vec![v, index];
        }
        vec![v]
    }

    /// `partial` from the lane `mask` away (xor), component by component.
    fn shuffle(&self, e: &mut Emitter<'_, 'c>, partial: &[Val], mask: i64) -> Partial {
        partial
            .iter()
            .zip(self.components())
            .map(|(&v, d)| shuffle_xor(e, v, d, mask))
            .collect()
    }
}

/// `value` (of type `d`) from the lane `mask` away (xor), for any element
/// width.
fn shuffle_xor<'c>(e: &mut Emitter<'_, 'c>, value: Val, d: DType, mask: i64) -> Val {
    let offset = e.i32(mask);
    shuffle(e, ShuffleMode::Xor, value, d, offset)
}

/// `value` (of type `d`, any width) from another lane: `offset` away
/// (xor, up, down) or lane `offset` (idx).
pub(super) fn shuffle<'c>(
    e: &mut Emitter<'_, 'c>,
    mode: ShuffleMode,
    value: Val,
    d: DType,
    offset: Val,
) -> Val {
    let width = e.i32(32);
    let bits = d.bits();
    if bits >= 32 {
        return e.ir.shuffle(mode, value, offset, width);
    }
    let int = e.ir.int_type(bits);
    let i32_ty = e.ir.int_type(32);
    let mut v = value;
    if d.is_float() {
        v = e.ir.cast(arith::bitcast, v, int);
    }
    v = e.ir.cast(arith::extui, v, i32_ty);
    let mut out = e.ir.shuffle(mode, v, offset, width);
    out = e.ir.cast(arith::trunci, out, int);
    if d.is_float() {
        let ty = e.reg_type(d);
        out = e.ir.cast(arith::bitcast, out, ty);
    }
    out
}

/// Lowers one `tile.reduce`.
pub fn reduce<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    view: &Reduce<'c, '_>,
) -> PassResult {
    let result: Value = op.result(0).expect("a reduction's result").into();
    let axis = view.axis as usize;
    let src_dist = e.dist(view.src, op)?;
    let src = &src_dist.0;
    if axis >= src.shape.len() {
        return Err(PassError::at(op, "reduces along an axis the tensor lacks"));
    }
    let Lowered::Regs(regs) = e.get(view.src, op)? else {
        return Err(PassError::at(op, "expects a tensor operand"));
    };
    let ty = e.dtype(view.src, op)?;
    let acc = match (view.kind, ty) {
        (ReduceKind::Sum, DType::F16 | DType::BF16) => DType::F32,
        _ => ty,
    };
    let red = Reduction {
        kind: view.kind,
        axis,
        ty,
        acc,
        acc_type: e.reg_type(acc),
        src,
    };

    // The result's registers, keyed by their offsets without the axis.
    let out = match e.registers(result, op)? {
        None => None,
        Some(_) => Some(e.dist(result, op)?),
    };
    let keep_dims = view.keep_dims;
    let key_of_out = |o: &[i64]| -> Vec<i64> {
        let mut k = o.to_vec();
        if keep_dims {
            k.remove(axis);
        }
        k
    };

    // Earlier users of the shared buffer step 3 writes (the previous
    // reduction, or this one in the previous iteration of a loop) must be
    // done before it is rewritten. The barrier comes before the reduction's
    // own work, as in Triton: the memory reads of the ops before it (a loop
    // body's row loads) cannot move across a barrier, so all of them issue
    // before it, instead of ptxas spreading them over the arithmetic that
    // feeds the sum, a memory round trip at a time.
    let terms = src.base_terms(src.axes[axis]);
    if terms.warps > 1 {
        e.ir.barrier();
    }

    // 1. In the thread.
    let mut groups: BTreeMap<Vec<i64>, Vec<usize>> = BTreeMap::new();
    for (r, o) in src.offsets.iter().enumerate() {
        let mut key = o.clone();
        key.remove(axis);
        groups.entry(key).or_default().push(r);
    }
    let mut partials: BTreeMap<Vec<i64>, Partial> = BTreeMap::new();
    for (key, members) in &groups {
        let inputs = members.iter().map(|&r| red.input(e, regs[r], r)).collect();
        let v = if red.kind == ReduceKind::Sum && red.acc.is_float() {
            red.chain(e, inputs)
        } else {
            red.tree(e, inputs)
        };
        partials.insert(key.clone(), v);
    }

    // 2. Across lanes.
    for bit in 0..terms.threads.trailing_zeros() {
        let mask = 1i64 << (terms.lane_shift + bit);
        for v in partials.values_mut() {
            let other = red.shuffle(e, v, mask);
            *v = red.combine(e, v, &other);
        }
    }

    // 3. Across warps.
    if terms.warps > 1 {
        let out_dist = out.as_ref().map(|d| &d.0);
        across_warps(e, op, &red, out_dist, &key_of_out, &mut partials)?;
    }

    // The result, in the result's register order.
    let finish = |e: &mut Emitter<'_, 'c>, v: &Partial| -> Val {
        if red.kind.is_arg() {
            return v[1];
        }
        let v = v[0];
        if red.acc != red.ty {
            let ty = e.reg_type(red.ty);
            e.ir.cast(arith::truncf, v, ty)
        } else {
            v
        }
    };
    match &out {
        None => {
            let v = partials
                .values()
                .next()
                .ok_or_else(|| PassError::at(op, "reduces an empty tensor"))?;
            let v = finish(e, v);
            e.set(result, Lowered::Scalar(v));
        }
        Some(d) => {
            let mut regs = Vec::with_capacity(d.0.registers());
            for o in &d.0.offsets {
                let v = partials.get(&key_of_out(o)).ok_or_else(|| {
                    PassError::at(
                        op,
                        "has a result layout that does not line up with its source (expected the source layout sliced along the axis)",
                    )
                })?;
                regs.push(finish(e, v));
            }
            e.set(result, Lowered::Regs(regs));
        }
    }
    Ok(())
}
