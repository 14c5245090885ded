//! `tile.reduce` in per-thread code: sum, max or min along one axis.
//!
//! The reduction runs in three steps, each only where the layout spreads
//! the axis that far:
//!
//! 1. **In the thread.** Registers that differ only along the axis are
//!    combined as a balanced tree (a short dependency chain).
//! 2. **Across lanes.** A butterfly of `gpu.shuffle xor` over the lane bits
//!    that number the axis; afterwards every lane of the group holds the
//!    group's result.
//! 3. **Across warps.** One lane per group writes its warp's partial to
//!    shared memory at `[warp digit][output element]`; after a barrier
//!    every thread reads the partials of its output elements and combines
//!    them in warp order, so all copies agree bit for bit.
//!
//! Sums of `f16`/`bf16` accumulate in `f32` and round once at the end.
//! Where the layout covers the axis with more threads than it has elements
//! (the index wraps, so threads hold copies), only the first copy counts
//! towards a sum; the others contribute zero. Max and min are `maxnum` /
//! `minnum` on floats (a NaN loses to a number, as in Triton's default)
//! and signed on integers. The result is in the source layout sliced along
//! the axis (or the source layout itself with `keep_dims`); a reduction to
//! a scalar leaves the value in every thread.

use super::builder::Val;
use super::emit::{Emitter, Lowered};
use crate::pass::{PassError, PassResult};
use melior::dialect::arith::{self, CmpiPredicate};
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Type, Value};
use std::collections::BTreeMap;
use tile_coalesce::Distribution;
use tile_dialect::view::Reduce;
use tile_dialect::{DType, ReduceKind};

/// The reduction of one op, with its source's distribution.
struct Reduction<'d, 'c> {
    kind: ReduceKind,
    axis: usize,
    /// Element type of the source and result.
    ty: DType,
    /// Type the partials are combined in.
    acc: DType,
    acc_type: Type<'c>,
    src: &'d Distribution,
}

impl<'c> Reduction<'_, 'c> {
    fn combine(&self, e: &mut Emitter<'_, 'c>, a: Val, b: Val) -> Val {
        let float = self.acc.is_float();
        match (self.kind, float) {
            (ReduceKind::Sum, true) => e.ir.binary(arith::addf, a, b),
            (ReduceKind::Sum, false) => e.ir.binary(arith::addi, a, b),
            (ReduceKind::Max, false) => e.ir.binary(arith::maxsi, a, b),
            (ReduceKind::Min, false) => e.ir.binary(arith::minsi, a, b),
            (kind, true) => {
                let base = if kind == ReduceKind::Max {
                    "llvm.maxnum"
                } else {
                    "llvm.minnum"
                };
                let name = super::math::overloaded(base, &[self.acc]);
                e.ir.intrinsic(&name, &[a, b], self.acc_type)
            }
        }
    }

    /// Combines `values` as a balanced tree.
    fn tree(&self, e: &mut Emitter<'_, 'c>, mut values: Vec<Val>) -> Val {
        while values.len() > 1 {
            let mut next = Vec::with_capacity(values.len().div_ceil(2));
            for pair in values.chunks(2) {
                next.push(match pair {
                    [a, b] => self.combine(e, *a, *b),
                    [a] => *a,
                    _ => unreachable!("chunks of two"),
                });
            }
            values = next;
        }
        values.pop().expect("a reduction group is never empty")
    }

    /// Register `r`'s value in the accumulator type; for a sum over a
    /// wrapped axis, zero unless this is the element's first copy.
    fn input(&self, e: &mut Emitter<'_, 'c>, value: Val, r: usize) -> Val {
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
        v
    }

    /// `value` from the lane `mask` away (xor), for any element width.
    fn shuffle(&self, e: &mut Emitter<'_, 'c>, value: Val, mask: i64) -> Val {
        let offset = e.i32(mask);
        let width = e.i32(32);
        let bits = self.acc.bits();
        if bits >= 32 {
            return e.ir.shuffle_xor(value, offset, width);
        }
        let int = e.ir.int_type(bits);
        let i32_ty = e.ir.int_type(32);
        let mut v = value;
        if self.acc.is_float() {
            v = e.ir.cast(arith::bitcast, v, int);
        }
        v = e.ir.cast(arith::extui, v, i32_ty);
        let mut out = e.ir.shuffle_xor(v, offset, width);
        out = e.ir.cast(arith::trunci, out, int);
        if self.acc.is_float() {
            out = e.ir.cast(arith::bitcast, out, self.acc_type);
        }
        out
    }
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
        acc_type: e.types.dtype(acc),
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

    // 1. In the thread.
    let mut groups: BTreeMap<Vec<i64>, Vec<usize>> = BTreeMap::new();
    for (r, o) in src.offsets.iter().enumerate() {
        let mut key = o.clone();
        key.remove(axis);
        groups.entry(key).or_default().push(r);
    }
    let mut partials: BTreeMap<Vec<i64>, Val> = BTreeMap::new();
    for (key, members) in &groups {
        let inputs = members.iter().map(|&r| red.input(e, regs[r], r)).collect();
        let v = red.tree(e, inputs);
        partials.insert(key.clone(), v);
    }

    // 2. Across lanes.
    let terms = src.base_terms(src.axes[axis]);
    for bit in 0..terms.threads.trailing_zeros() {
        let mask = 1i64 << (terms.lane_shift + bit);
        for v in partials.values_mut() {
            let other = red.shuffle(e, *v, mask);
            *v = red.combine(e, *v, other);
        }
    }

    // 3. Across warps.
    if terms.warps > 1 {
        let out_dist = out.as_ref().map(|d| &d.0);
        across_warps(e, op, &red, out_dist, &key_of_out, &mut partials)?;
    }

    // The result, in the result's register order.
    let finish = |e: &mut Emitter<'_, 'c>, v: Val| -> Val {
        if red.acc != red.ty {
            let ty = e.types.dtype(red.ty);
            e.ir.cast(arith::truncf, v, ty)
        } else {
            v
        }
    };
    match &out {
        None => {
            let v = *partials
                .values()
                .next()
                .ok_or_else(|| PassError::at(op, "reduces an empty tensor"))?;
            let v = finish(e, v);
            e.set(result, Lowered::Scalar(v));
        }
        Some(d) => {
            let mut regs = Vec::with_capacity(d.0.registers());
            for o in &d.0.offsets {
                let v = *partials.get(&key_of_out(o)).ok_or_else(|| {
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

/// Step 3: exchange the warps' partials through shared memory.
fn across_warps<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    red: &Reduction<'_, 'c>,
    out: Option<&Distribution>,
    key_of_out: &dyn Fn(&[i64]) -> Vec<i64>,
    partials: &mut BTreeMap<Vec<i64>, Val>,
) -> PassResult {
    let misaligned = || {
        PassError::at(
            op,
            "has a result layout that does not line up with its source",
        )
    };
    let src = red.src;
    let terms = src.base_terms(src.axes[red.axis]);
    let elements: i64 = out.map_or(1, |d| d.shape.iter().product());
    let acc_bytes = red.acc.bits() as usize / 8;
    e.reserve_shared((terms.warps * elements) as usize * acc_bytes);
    let base = e.shared_base();
    // Each output element's slot, from any register that holds it.
    let mut slot: BTreeMap<Vec<i64>, Val> = BTreeMap::new();
    match out {
        None => {
            let zero = e.i32(0);
            slot.insert(Vec::new(), zero);
        }
        Some(d) => {
            for r in 0..d.registers() {
                let key = key_of_out(&d.offsets[r]);
                if let std::collections::btree_map::Entry::Vacant(v) = slot.entry(key) {
                    v.insert(e.linear(d, r));
                }
            }
        }
    }
    let (_, lane, warp) = e.thread();
    let warp_digit = e.digit(warp, terms.warp_shift, terms.warps);
    let stride = e.i32(elements);
    let row = e.ir.binary(arith::muli, warp_digit, stride);
    // One lane of each shuffle group writes.
    let writer = if terms.threads > 1 {
        let lane_digit = e.digit(lane, terms.lane_shift, terms.threads);
        let zero = e.i32(0);
        Some(e.ir.cmpi(CmpiPredicate::Eq, lane_digit, zero))
    } else {
        None
    };
    // Earlier users of the buffer must be done before it is rewritten.
    e.ir.barrier();
    if writer.is_some() {
        e.ir.open_block(&[]);
    }
    for (key, &v) in partials.iter() {
        let at = *slot.get(key).ok_or_else(misaligned)?;
        let at = e.ir.binary(arith::addi, row, at);
        let p = e.ir.gep(base, at, red.acc_type);
        e.ir.store(v, p, acc_bytes as u64);
    }
    if let Some(w) = writer {
        let then = e.ir.close_block(&[]);
        e.ir.if_then(w, then);
    }
    e.ir.barrier();
    for (key, v) in partials.iter_mut() {
        let at = *slot.get(key).ok_or_else(misaligned)?;
        let mut values = Vec::with_capacity(terms.warps as usize);
        for w in 0..terms.warps {
            let off = e.i32(w * elements);
            let at = e.ir.binary(arith::addi, at, off);
            let p = e.ir.gep(base, at, red.acc_type);
            values.push(e.ir.load(p, red.acc_type, acc_bytes as u64));
        }
        // In warp order (not a tree) so every thread rounds alike.
        let mut total = values[0];
        for &x in &values[1..] {
            total = red.combine(e, total, x);
        }
        *v = total;
    }
    Ok(())
}
