//! Step 3 of a reduction: the warps' partials combined through shared
//! memory, in one of two forms.
//!
//! One lane of each shuffle group writes its warp's partial of each output
//! element to `[warp digit][element]`; after a barrier:
//!
//! - **Each thread reads** the partials of its own output elements and
//!   combines them in warp order (one barrier). A thread reads `keys x
//!   warps` values, all issued together by `ptxas`: cheap for a row a
//!   thread, but a `[4, 2048]` tile over 8 warps along its rows (4 rows a
//!   thread) reads 32 and holds them at once (74 registers against 48).
//! - **Lanes combine** (more than [`LANE_COMBINE_ABOVE`] values a thread):
//!   thread `t` reads the one partial `[t % warps][t / warps]`, a butterfly
//!   over the `warps` lanes that read one element combines them, the first
//!   lane of each group writes the total to a second array, and after a
//!   second barrier each thread reads its elements' totals: one read a key.
//!   Where there are more partials than threads, each thread takes several
//!   in turn.
//!
//! Either way every copy of an element gets the same bits: the first
//! form combines in the same order in every thread, the second computes
//! each total once.

use super::super::builder::Val;
use super::super::emit::Emitter;
use super::super::share;
use super::{Partial, Reduction};
use crate::pass::{PassError, PassResult};
use melior::dialect::arith::{self, CmpiPredicate};
use melior::ir::{OperationRef, Type};
use std::collections::BTreeMap;
use tile_coalesce::Distribution;

/// A thread that would read more partials than this (its output elements
/// times the warps along the axis) leaves the combining to lanes.
pub(super) const LANE_COMBINE_ABOVE: usize = 16;

/// Partials a thread takes in turn, at most, in the lane form (more
/// partials than four per thread stay with the per-thread form).
const MAX_TURNS: i64 = 4;

/// Exchanges the warps' partials through shared memory (see the module
/// docs): on return each of `partials` holds the total over all warps.
pub(super) fn across_warps<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    red: &Reduction<'_, 'c>,
    out: Option<&Distribution>,
    key_of_out: &dyn Fn(&[i64]) -> Vec<i64>,
    partials: &mut BTreeMap<Vec<i64>, Partial>,
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
    let threads = i64::from(src.root.num_warps()) * 32;
    let by_lanes = partials.len() * terms.warps as usize > LANE_COMBINE_ABOVE
        && terms.warps * elements <= threads * MAX_TURNS;
    // One array of [warp][element] per component, each aligned to its
    // element size, and in the lane form one of [element] for the totals.
    let components = red.components();
    let mut bytes = 0usize;
    let mut place = |e: &mut Emitter<'_, 'c>, count: i64| -> Vec<(usize, usize, Type<'c>)> {
        components
            .iter()
            .map(|&d| {
                let size = d.bits() as usize / 8;
                bytes = bytes.next_multiple_of(size);
                let at = bytes;
                bytes += count as usize * size;
                (at, size, e.reg_type(d))
            })
            .collect()
    };
    let arrays = place(e, terms.warps * elements);
    let totals = if by_lanes {
        place(e, elements)
    } else {
        Vec::new()
    };
    e.reserve_shared(bytes);
    let shared = e.shared_base();
    let i8 = e.ir.int_type(8);
    let at_base = |list: Vec<(usize, usize, Type<'c>)>| -> Vec<(Val, u64, Type<'c>)> {
        list.into_iter()
            .map(|(at, size, ty)| (e.ir.gep_const(shared, at as i64, i8), size as u64, ty))
            .collect()
    };
    let arrays = at_base(arrays);
    let totals = at_base(totals);
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
    let (tid, lane, warp) = e.thread();
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
    // (The barrier before the writes is at the start of the reduction.)
    for (key, v) in partials.iter() {
        let at = *slot.get(key).ok_or_else(misaligned)?;
        let at = e.ir.binary(arith::addi, row, at);
        for ((&x, &(base, _, ty)), &d) in v.iter().zip(&arrays).zip(&components) {
            let p = e.ir.gep(base, at, ty);
            share::store_shared(e, writer, x, p, d);
        }
    }
    e.ir.barrier();
    if by_lanes {
        combine_by_lanes(
            e,
            red,
            &arrays,
            &totals,
            tid,
            terms.warps,
            elements,
            threads,
        );
        e.ir.barrier();
        for (key, v) in partials.iter_mut() {
            let at = *slot.get(key).ok_or_else(misaligned)?;
            *v = load(e, &totals, at);
        }
        return Ok(());
    }
    for (key, v) in partials.iter_mut() {
        let at = *slot.get(key).ok_or_else(misaligned)?;
        let mut values: Vec<Partial> = Vec::with_capacity(terms.warps as usize);
        for w in 0..terms.warps {
            let off = e.i32(w * elements);
            let at = e.ir.binary(arith::addi, at, off);
            values.push(load(e, &arrays, at));
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

/// The lane form's middle (see the module docs): thread `t`, in turn
/// `t + k * threads`, combines the `warps` partials of element `t /
/// warps` with a butterfly over as many lanes and the first of them
/// writes the total to `totals`. `warps`, `elements` and `threads` are
/// powers of two; where there are fewer partials than threads, the
/// threads past them read a partial again (in bounds) and write nothing.
#[allow(clippy::too_many_arguments)]
fn combine_by_lanes<'c>(
    e: &mut Emitter<'_, 'c>,
    red: &Reduction<'_, 'c>,
    arrays: &[(Val, u64, Type<'c>)],
    totals: &[(Val, u64, Type<'c>)],
    tid: Val,
    warps: i64,
    elements: i64,
    threads: i64,
) {
    let count = warps * elements;
    let warp_bits = i64::from(warps.trailing_zeros());
    let warp_mask = e.i32(warps - 1);
    let bits = e.i32(warp_bits);
    let stride = e.i32(elements);
    let zero = e.i32(0);
    for turn in 0..(count / threads).max(1) {
        // The partial this thread reads: index `w + warps * element`.
        let (index, inside) = if count < threads {
            let last = e.i32(count - 1);
            let index = e.ir.binary(arith::andi, tid, last);
            let limit = e.i32(count);
            (index, Some(e.ir.cmpi(CmpiPredicate::Ult, tid, limit)))
        } else {
            let off = e.i32(turn * threads);
            (e.ir.binary(arith::addi, tid, off), None)
        };
        let w = e.ir.binary(arith::andi, index, warp_mask);
        let element = e.ir.binary(arith::shrui, index, bits);
        let row = e.ir.binary(arith::muli, w, stride);
        let at = e.ir.binary(arith::addi, row, element);
        let mut v = load(e, arrays, at);
        for bit in 0..warp_bits {
            let other = red.shuffle(e, &v, 1 << bit);
            v = red.combine(e, &v, &other);
        }
        // The first lane of each group writes.
        let mut guard = e.ir.cmpi(CmpiPredicate::Eq, w, zero);
        if let Some(inside) = inside {
            guard = e.ir.binary(arith::andi, guard, inside);
        }
        for ((&x, &(base, _, ty)), &d) in v.iter().zip(totals).zip(&red.components()) {
            let p = e.ir.gep(base, element, ty);
            share::store_shared(e, Some(guard), x, p, d);
        }
    }
}

/// One partial (a value a component) read from the shared arrays `list`
/// at element index `at`.
fn load<'c>(e: &mut Emitter<'_, 'c>, list: &[(Val, u64, Type<'c>)], at: Val) -> Partial {
    list.iter()
        .map(|&(base, size, ty)| {
            let p = e.ir.gep(base, at, ty);
            e.ir.load(p, ty, size)
        })
        .collect()
}
