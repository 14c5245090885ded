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

use super::emit::{Emitter, Lowered};
use crate::mirror::Op;
use crate::rewrite::PassError;
use std::collections::BTreeMap;
use tile_coalesce::Distribution;

/// What a reduction computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Sum,
    Max,
    Min,
}

impl Kind {
    fn parse(op: &Op) -> Result<Kind, PassError> {
        match op.str_attr("kind").as_deref() {
            Some("sum") => Ok(Kind::Sum),
            Some("max") => Ok(Kind::Max),
            Some("min") => Ok(Kind::Min),
            other => Err(PassError::at(
                op,
                format!("has reduction kind {other:?}; expected sum, max or min"),
            )),
        }
    }

    /// The arith op combining two partials of type `ty`.
    fn combiner(self, ty: &str) -> &'static str {
        let float = is_float(ty);
        match (self, float) {
            (Kind::Sum, true) => "arith.addf",
            (Kind::Sum, false) => "arith.addi",
            (Kind::Max, true) => "llvm.intr.maxnum",
            (Kind::Max, false) => "arith.maxsi",
            (Kind::Min, true) => "llvm.intr.minnum",
            (Kind::Min, false) => "arith.minsi",
        }
    }
}

fn is_float(ty: &str) -> bool {
    matches!(ty, "f16" | "bf16" | "f32" | "f64")
}

fn bits(ty: &str) -> u32 {
    match ty {
        "i8" => 8,
        "i16" | "f16" | "bf16" => 16,
        "i64" | "f64" => 64,
        _ => 32,
    }
}

/// The reduction of one op, with its source's distribution.
struct Reduction<'a> {
    kind: Kind,
    axis: usize,
    /// Element type of the source and result.
    ty: String,
    /// Type the partials are combined in.
    acc: String,
    src: &'a Distribution,
    loc: &'a str,
}

impl Reduction<'_> {
    fn combine(&self, e: &mut Emitter, a: &str, b: &str) -> String {
        let acc = &self.acc;
        let op = self.kind.combiner(acc);
        let text = if op.starts_with("llvm.intr.") {
            format!("{op}({a}, {b}) : ({acc}, {acc}) -> {acc}")
        } else {
            format!("{op} {a}, {b} : {acc}")
        };
        e.value(&text, self.loc)
    }

    /// Combines `values` as a balanced tree.
    fn tree(&self, e: &mut Emitter, mut values: Vec<String>) -> String {
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

    /// Register `r`'s value in the accumulator type; for a sum over a
    /// wrapped axis, zero unless this is the element's first copy.
    fn input(&self, e: &mut Emitter, value: &str, r: usize) -> String {
        let (ty, acc, loc) = (&self.ty, &self.acc, self.loc);
        let mut v = value.to_string();
        if ty != acc {
            v = e.value(&format!("arith.extf {v} : {ty} to {acc}"), loc);
        }
        if self.kind == Kind::Sum && self.src.wraps(self.axis) {
            let unwrapped = e.unwrapped_index(self.src, r, self.axis, loc);
            let extent = e.i32(self.src.shape[self.axis]);
            let first = e.value(&format!("arith.cmpi ult, {unwrapped}, {extent} : i32"), loc);
            let zero = e.constant(if is_float(acc) { "0.0" } else { "0" }, acc);
            v = e.value(&format!("arith.select {first}, {v}, {zero} : {acc}"), loc);
        }
        v
    }

    /// `value` from the lane `mask` away (xor), for any element width.
    fn shuffle(&self, e: &mut Emitter, value: &str, mask: i64) -> String {
        let (acc, loc) = (&self.acc, self.loc);
        let offset = e.i32(mask);
        let width = e.i32(32);
        let narrow = bits(acc) < 32;
        let mut v = value.to_string();
        if narrow {
            let int = format!("i{}", bits(acc));
            if is_float(acc) {
                v = e.value(&format!("arith.bitcast {v} : {acc} to {int}"), loc);
            }
            v = e.value(&format!("arith.extui {v} : {int} to i32"), loc);
        }
        let carried = if narrow { "i32" } else { acc.as_str() };
        let name = e.fresh();
        e.line(
            &format!("{name}:2 = gpu.shuffle xor {v}, {offset}, {width} : {carried}"),
            loc,
        );
        let mut out = format!("{name}#0");
        if narrow {
            let int = format!("i{}", bits(acc));
            out = e.value(&format!("arith.trunci {out} : i32 to {int}"), loc);
            if is_float(acc) {
                out = e.value(&format!("arith.bitcast {out} : {int} to {acc}"), loc);
            }
        }
        out
    }
}

/// Lowers one `tile.reduce`.
pub fn reduce(e: &mut Emitter, op: &Op) -> Result<(), PassError> {
    let kind = Kind::parse(op)?;
    let axis = op
        .int_attr("axis")
        .ok_or_else(|| PassError::at(op, "has no axis"))? as usize;
    let keep_dims = op.attr("keep_dims") == Some("true");
    let (src, _) = e.dist(op.operands[0], op)?;
    if axis >= src.shape.len() {
        return Err(PassError::at(op, "reduces along an axis the tensor lacks"));
    }
    let Lowered::Regs(regs) = e.get(op.operands[0], op)? else {
        return Err(PassError::at(op, "expects a tensor operand"));
    };
    let ty = e.scalar_type(op.operands[0], op)?;
    let acc = match (kind, ty.as_str()) {
        (Kind::Sum, "f16" | "bf16") => "f32".to_string(),
        _ => ty.clone(),
    };
    let red = Reduction {
        kind,
        axis,
        ty: ty.clone(),
        acc,
        src: &src,
        loc: &op.loc,
    };

    // The result's registers, keyed by their offsets without the axis.
    let out = match e.registers(op.results[0], op)? {
        None => None,
        Some(_) => Some(e.dist(op.results[0], op)?.0),
    };
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
    let mut partials: BTreeMap<Vec<i64>, String> = BTreeMap::new();
    for (key, members) in &groups {
        let inputs = members.iter().map(|&r| red.input(e, &regs[r], r)).collect();
        partials.insert(key.clone(), red.tree(e, inputs));
    }

    // 2. Across lanes.
    let root_axis = src.axes[axis];
    let terms = src.base_terms(root_axis);
    for bit in 0..terms.threads.trailing_zeros() {
        let mask = 1i64 << (terms.lane_shift + bit);
        for v in partials.values_mut() {
            let other = red.shuffle(e, v, mask);
            *v = red.combine(e, v, &other);
        }
    }

    // 3. Across warps.
    if terms.warps > 1 {
        across_warps(e, op, &red, out.as_ref(), &key_of_out, &mut partials)?;
    }

    // The result, in the result's register order.
    let finish = |e: &mut Emitter, v: &String| -> String {
        if red.acc != red.ty {
            e.value(
                &format!("arith.truncf {v} : {} to {}", red.acc, red.ty),
                red.loc,
            )
        } else {
            v.clone()
        }
    };
    match &out {
        None => {
            let v = partials
                .values()
                .next()
                .ok_or_else(|| PassError::at(op, "reduces an empty tensor"))?
                .clone();
            let v = finish(e, &v);
            e.set(op.results[0], Lowered::Scalar(v));
        }
        Some(d) => {
            let mut regs = Vec::with_capacity(d.registers());
            for o in &d.offsets {
                let v = partials.get(&key_of_out(o)).ok_or_else(|| {
                    PassError::at(
                        op,
                        "has a result layout that does not line up with its source (expected the source layout sliced along the axis)",
                    )
                })?;
                regs.push(finish(e, v));
            }
            e.set(op.results[0], Lowered::Regs(regs));
        }
    }
    Ok(())
}

/// Step 3: exchange the warps' partials through shared memory.
fn across_warps(
    e: &mut Emitter,
    op: &Op,
    red: &Reduction,
    out: Option<&Distribution>,
    key_of_out: &dyn Fn(&[i64]) -> Vec<i64>,
    partials: &mut BTreeMap<Vec<i64>, String>,
) -> Result<(), PassError> {
    let (acc, loc) = (red.acc.clone(), red.loc);
    let misaligned = || {
        PassError::at(
            op,
            "has a result layout that does not line up with its source",
        )
    };
    let src = red.src;
    let terms = src.base_terms(src.axes[red.axis]);
    let elements: i64 = out.map_or(1, |d| d.shape.iter().product());
    e.reserve_shared((terms.warps * elements) as usize * (bits(&acc) as usize / 8));
    let base = e.shared_base();
    // Each output element's slot, from any register that holds it.
    let mut slot: BTreeMap<Vec<i64>, String> = BTreeMap::new();
    match out {
        None => {
            slot.insert(Vec::new(), e.i32(0));
        }
        Some(d) => {
            for r in 0..d.registers() {
                let key = key_of_out(&d.offsets[r]);
                if let std::collections::btree_map::Entry::Vacant(v) = slot.entry(key) {
                    v.insert(e.linear(d, r, loc));
                }
            }
        }
    }
    let (_, lane, warp) = e.thread();
    let warp_digit = e.digit(&warp, terms.warp_shift, terms.warps);
    let stride = e.i32(elements);
    let row = e.value(&format!("arith.muli {warp_digit}, {stride} : i32"), loc);
    // One lane of each shuffle group writes.
    let writer = if terms.threads > 1 {
        let lane_digit = e.digit(&lane, terms.lane_shift, terms.threads);
        let zero = e.i32(0);
        Some(e.value(&format!("arith.cmpi eq, {lane_digit}, {zero} : i32"), loc))
    } else {
        None
    };
    // Earlier users of the buffer must be done before it is rewritten.
    e.line("gpu.barrier", loc);
    if let Some(w) = &writer {
        e.open(&format!("scf.if {w} {{"));
    }
    for (key, v) in partials.iter() {
        let at = slot.get(key).ok_or_else(misaligned)?;
        let at = e.value(&format!("arith.addi {row}, {at} : i32"), loc);
        let p = e.value(
            &format!(
                "llvm.getelementptr {base}[{at}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, {acc}"
            ),
            loc,
        );
        e.line(&format!("llvm.store {v}, {p} : {acc}, !llvm.ptr<3>"), loc);
    }
    if writer.is_some() {
        e.close(loc);
    }
    e.line("gpu.barrier", loc);
    for (key, v) in partials.iter_mut() {
        let at = slot.get(key).ok_or_else(misaligned)?;
        let mut values = Vec::with_capacity(terms.warps as usize);
        for w in 0..terms.warps {
            let off = e.i32(w * elements);
            let at = e.value(&format!("arith.addi {at}, {off} : i32"), loc);
            let p = e.value(
                &format!(
                    "llvm.getelementptr {base}[{at}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, {acc}"
                ),
                loc,
            );
            values.push(e.value(&format!("llvm.load {p} : !llvm.ptr<3> -> {acc}"), loc));
        }
        // In warp order (not a tree) so every thread rounds alike.
        let mut total = values[0].clone();
        for x in &values[1..] {
            total = red.combine(e, &total, x);
        }
        *v = total;
    }
    Ok(())
}
