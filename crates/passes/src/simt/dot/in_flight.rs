//! `wgmma` groups left running across a loop's back edge.
//!
//! In a pipelined loop, a product whose result only the loop carries on
//! (its one use is the `scf.yield`) commits its `wgmma` group and does not
//! wait for it: the next iteration's registers of that carried value are
//! *pending*, still being written by the tensor cores. They are waited for
//! (`wgmma.wait_group 0`, the registers passed through it as tied
//! operands) as late as possible: at the next product's own wait, or
//! before the first op that reads them, whichever comes first. A product
//! accumulating into a pending value needs no wait: `wgmma` groups of one
//! warpgroup run in order. Attention's `acc = dot(p, v, acc * alpha)`
//! thus runs its second product while the next iteration issues copies
//! and its first product, as Triton's pipeliner arranges it.

use super::super::emit::{Emitter, Lowered};
use super::wgmma;
use crate::edit::key;
use crate::pass::PassError;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value, ValueLike};
use std::collections::HashSet;
use tile_coalesce::Layout;
use tile_dialect::view::{ForLoop, op_name};

/// The products of `l`'s body that leave their group in flight: on
/// `wgmma` (an `#tile.mma` layout of version 3), their only use the
/// body's `scf.yield`.
pub fn products<'c>(e: &Emitter<'_, 'c>, l: &ForLoop<'c, '_>) -> HashSet<usize> {
    let mut out = HashSet::new();
    for &y in &l.yielded {
        let Some(result) = crate::edit::as_result(y) else {
            continue;
        };
        let producer = result.owner();
        if op_name(&producer) != tile_dialect::ops::DOT || !on_wgmma(e, y) {
            continue;
        }
        if single_use(y) {
            out.insert(key(y));
        }
    }
    out
}

/// True when `v`'s layout is a `wgmma` accumulator.
fn on_wgmma(e: &Emitter, v: Value) -> bool {
    matches!(e.types.layout(v.r#type()), Ok(Some(Layout::Mma(m))) if m.version == 3)
}

/// True when `v` has exactly one use.
fn single_use(v: Value) -> bool {
    // SAFETY: `v` is live; its use list is only read.
    unsafe {
        let first = mlir_sys::mlirValueGetFirstUse(v.to_raw());
        !first.ptr.is_null() && mlir_sys::mlirOpOperandGetNextUse(first).ptr.is_null()
    }
}

/// At the start of `l`'s body: the carried values that in-flight
/// products (`products`) yield are pending.
pub fn mark_pending<'c>(e: &mut Emitter<'_, 'c>, l: &ForLoop<'c, '_>, products: &HashSet<usize>) {
    for (j, &y) in l.yielded.iter().enumerate() {
        if products.contains(&key(y)) {
            e.pending.push(key(l.iter_args[j]));
        }
    }
}

/// Waits for the pending values before `op` when it reads one (other than
/// as the accumulator of a `wgmma` product) or holds a region (whose ops
/// may read them).
pub fn settle_before<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
) -> Result<(), PassError> {
    if e.pending.is_empty() {
        return Ok(());
    }
    let chains = op_name(op) == tile_dialect::ops::DOT
        && crate::edit::result_of(op, 0).is_some_and(|r| on_wgmma(e, r.into()));
    let reads = op.regions().next().is_some()
        || op
            .operands()
            .enumerate()
            .any(|(i, v)| e.pending.contains(&key(v)) && !(chains && i == 2));
    if reads {
        settle(e, Vec::new(), op)?;
    }
    Ok(())
}

/// `wgmma.wait_group 0` passing `regs` and every pending value's
/// registers through; the pending values take the waited registers and
/// are pending no more. Returns `regs` as waited.
pub fn settle<'c>(
    e: &mut Emitter<'_, 'c>,
    regs: Vec<super::super::builder::Val>,
    op: &OperationRef,
) -> Result<Vec<super::super::builder::Val>, PassError> {
    let pending = std::mem::take(&mut e.pending);
    let mut all = regs;
    let own = all.len();
    let mut counts = Vec::with_capacity(pending.len());
    for &k in &pending {
        let Some(Lowered::Regs(r)) = e.lowered(k) else {
            return Err(PassError::at(
                op,
                "waits for a value that is not in registers",
            ));
        };
        counts.push(r.len());
        all.extend(r);
    }
    let mut waited = wgmma::wait(e, 0, all).into_iter();
    let own: Vec<_> = waited.by_ref().take(own).collect();
    for (&k, n) in pending.iter().zip(counts) {
        let r = waited.by_ref().take(n).collect();
        e.set_key(k, Lowered::Regs(r));
    }
    Ok(own)
}
