//! Values handed between threads through shared memory: where several
//! threads hold copies of an element, the value its owner computed; and a
//! scalar thread 0 computed, for every thread. Users are the scans (copies
//! of wrapped axes) and the atomics (old values).

use super::builder::Val;
use super::emit::Emitter;
use melior::dialect::arith::CmpiPredicate;
use tile_coalesce::{Distribution, Layout};
use tile_dialect::DType;

/// Where threads hold copies of elements, the values the owner of each
/// element (see [`Emitter::owner`]) holds in `values`, read by every
/// copy through shared memory (`values` in `d`'s register order, of
/// element type `ty`).
pub fn owners_values<'c>(
    e: &mut Emitter<'_, 'c>,
    d: &Distribution,
    layout: &Layout,
    values: &[Val],
    ty: DType,
) -> Vec<Val> {
    let elements: i64 = d.shape.iter().product();
    let bytes = u64::from(ty.bits().div_ceil(8));
    let elem = e.types.dtype(ty);
    e.reserve_shared(elements as usize * bytes as usize);
    let base = e.shared_base();
    let owner = e.owner(d, layout);
    let at: Vec<Val> = (0..values.len()).map(|r| e.linear(d, r)).collect();
    // Earlier users of the buffer must be done before it is rewritten.
    e.ir.barrier();
    if owner.is_some() {
        e.ir.open_block(&[]);
    }
    for (r, &v) in values.iter().enumerate() {
        let p = e.ir.gep(base, at[r], elem);
        e.ir.store(v, p, bytes);
    }
    if let Some(o) = owner {
        let then = e.ir.close_block(&[]);
        e.ir.if_then(o, then);
    }
    e.ir.barrier();
    at.iter()
        .map(|&i| {
            let p = e.ir.gep(base, i, elem);
            e.ir.load(p, elem, bytes)
        })
        .collect()
}

/// Thread 0's scalar `v` (of type `ty`), read by every thread through
/// shared memory.
pub fn thread0_value<'c>(e: &mut Emitter<'_, 'c>, v: Val, ty: DType) -> Val {
    let bytes = u64::from(ty.bits().div_ceil(8));
    let elem = e.types.dtype(ty);
    e.reserve_shared(bytes as usize);
    let base = e.shared_base();
    let (tid, _, _) = e.thread();
    let z = e.i32(0);
    let first = e.ir.cmpi(CmpiPredicate::Eq, tid, z);
    e.ir.barrier();
    e.ir.open_block(&[]);
    e.ir.store(v, base, bytes);
    let then = e.ir.close_block(&[]);
    e.ir.if_then(first, then);
    e.ir.barrier();
    e.ir.load(base, elem, bytes)
}
