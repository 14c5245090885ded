//! Values handed between threads through shared memory: where several
//! threads hold copies of an element, the value its owner computed; and a
//! scalar thread 0 computed, for every thread. Users are the scans (copies
//! of wrapped axes) and the atomics (old values). Also the store of one
//! element into shared memory by some threads only ([`store_shared`]),
//! which the reductions and scans use for their partials.

use super::builder::Val;
use super::emit::Emitter;
use super::ptx::{PtxAsm, RegClass};
use super::words;
use melior::dialect::arith::CmpiPredicate;
use tile_coalesce::{Distribution, Layout};
use tile_dialect::DType;

/// Stores `value`, an element of `d`, at the shared-memory address `ptr`
/// in the threads where `guard` holds (in every thread without a guard).
///
/// A guarded store is one predicated `st.shared`, not a branch around a
/// store: the code around it stays one basic block, which LLVM (whose
/// fusion of a product into an fma stops at a block's end) and ptxas
/// (which schedules loads within a block) see whole. A reduction in a
/// loop body otherwise cuts the body in three.
pub fn store_shared(e: &mut Emitter, guard: Option<Val>, value: Val, ptr: Val, d: DType) {
    let bytes = u64::from(words::memory_bits(d) / 8);
    let Some(guard) = guard else {
        e.ir.store(value, ptr, bytes);
        return;
    };
    let bits = words::to_bits(e, value, d);
    let mut asm = PtxAsm::new();
    let addr = asm.input(RegClass::B64, ptr);
    let src = asm.input(words::reg_class(d), bits);
    let guard = asm.input(RegClass::Pred, guard);
    asm.shared_store(Some(guard), words::store_type(d), addr, src);
    asm.emit(&e.ir, true);
}

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
    let elem = e.reg_type(ty);
    e.reserve_shared(elements as usize * bytes as usize);
    let base = e.shared_base();
    let owner = e.owner(d, layout);
    let at: Vec<Val> = (0..values.len()).map(|r| e.linear(d, r)).collect();
    // Earlier users of the buffer must be done before it is rewritten.
    e.ir.barrier();
    for (r, &v) in values.iter().enumerate() {
        let p = e.ir.gep(base, at[r], elem);
        store_shared(e, owner, v, p, ty);
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
    let elem = e.reg_type(ty);
    e.reserve_shared(bytes as usize);
    let base = e.shared_base();
    let (tid, _, _) = e.thread();
    let z = e.i32(0);
    let first = e.ir.cmpi(CmpiPredicate::Eq, tid, z);
    e.ir.barrier();
    store_shared(e, Some(first), v, base, ty);
    e.ir.barrier();
    e.ir.load(base, elem, bytes)
}
