//! Editing ops in place: inserting new ops next to existing ones,
//! replacing uses, changing operands and attributes, erasing.
//!
//! The passes hold ops and values by melior handles; these wrap the few
//! MLIR C calls melior does not expose on borrowed ops.

use melior::ir::block::BlockLike;
use melior::ir::operation::{OperationLike, OperationMutLike, OperationRefMut, OperationResult};
use melior::ir::{Attribute, Operation, OperationRef, Value, ValueLike};

/// `op`'s result `index`, or `None` when it has fewer results. (melior's
/// `result` fails with a message that prints the whole op, which builds an
/// `AsmState` of the module: one failed lookup an op made a walk
/// quadratic in the module's size.)
pub fn result_of<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    index: usize,
) -> Option<OperationResult<'c, 'a>> {
    if index < op.result_count() {
        op.result(index).ok()
    } else {
        None
    }
}

/// `v` as the result of an op, or `None` for a block argument (checked
/// first: melior's conversion error prints the value, and with it the
/// module).
pub fn as_result<'c, 'a>(v: Value<'c, 'a>) -> Option<OperationResult<'c, 'a>> {
    if v.is_operation_result() {
        OperationResult::try_from(v).ok()
    } else {
        None
    }
}

/// A value's identity within its context, for maps keyed by value.
pub fn key<'c>(v: impl ValueLike<'c>) -> usize {
    v.to_raw().ptr as usize
}

/// `op` as a mutable reference (the pass owns the IR it runs on).
pub fn mutable<'c, 'a>(op: &OperationRef<'c, 'a>) -> OperationRefMut<'c, 'a> {
    // SAFETY: `op` is live; passes edit the ops they run on, one at a
    // time, on one thread.
    unsafe { OperationRefMut::from_raw(op.to_raw()) }
}

/// Inserts `new` just before `anchor`, in its block.
pub fn insert_before<'c, 'a>(
    anchor: &OperationRef<'c, 'a>,
    new: Operation<'c>,
) -> OperationRef<'c, 'a> {
    let block = anchor.block().expect("an op in a block");
    block.insert_operation_before(*anchor, new)
}

/// Inserts `new` just after `anchor`, in its block.
pub fn insert_after<'c, 'a>(
    anchor: &OperationRef<'c, 'a>,
    new: Operation<'c>,
) -> OperationRef<'c, 'a> {
    let block = anchor.block().expect("an op in a block");
    block.insert_operation_after(*anchor, new)
}

/// A copy of `op` (its operands, attributes, result types and regions),
/// in no block yet.
pub fn clone_op<'c>(op: &OperationRef<'c, '_>) -> Operation<'c> {
    // SAFETY: `op` is live; the clone is a new op owned by the caller.
    unsafe { Operation::from_raw(mlir_sys::mlirOperationClone(op.to_raw())) }
}

/// Makes every use of `from` use `to` instead.
pub fn replace_all_uses<'c, 'a>(from: Value<'c, 'a>, to: Value<'c, 'a>) {
    // SAFETY: both values are live in the same context.
    unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(from.to_raw(), to.to_raw()) }
}

/// Makes every use of `from` use `to`, except in the op `except` (the one
/// that computes `to` from `from`).
pub fn replace_uses_except<'c, 'a>(
    from: Value<'c, 'a>,
    to: Value<'c, 'a>,
    except: &OperationRef<'c, 'a>,
) {
    let mut excepted = [except.to_raw()];
    // SAFETY: both values and the op are live; the array outlives the call.
    unsafe {
        mlir_sys::mlirValueReplaceAllUsesExcept(
            from.to_raw(),
            to.to_raw(),
            1,
            excepted.as_mut_ptr(),
        )
    }
}

/// Sets `op`'s operands to `values`.
pub fn set_operands<'c, 'a>(op: &OperationRef<'c, 'a>, values: &[Value<'c, 'a>]) {
    mutable(op).set_operands(values);
}

/// Sets (or replaces) an attribute of `op`.
pub fn set_attribute<'c, 'a>(op: &OperationRef<'c, 'a>, name: &str, value: Attribute<'c>) {
    mutable(op).set_attribute(name, value);
}

/// Removes an attribute of `op` when it has it.
pub fn remove_attribute<'c, 'a>(op: &OperationRef<'c, 'a>, name: &str) {
    if op.has_attribute(name) {
        let _ = mutable(op).remove_attribute(name);
    }
}

/// Removes `op` from its block and destroys it. Its results must have no
/// uses left.
pub fn erase(op: OperationRef) {
    // SAFETY: the op is live and in a block; once removed it is owned
    // here and destroyed; nothing uses its results.
    unsafe {
        mlir_sys::mlirOperationRemoveFromParent(op.to_raw());
        mlir_sys::mlirOperationDestroy(op.to_raw());
    }
}

/// True when `v` has at least one use.
pub fn has_uses<'c>(v: impl ValueLike<'c>) -> bool {
    // SAFETY: `v` is live.
    let first = unsafe { mlir_sys::mlirValueGetFirstUse(v.to_raw()) };
    !first.ptr.is_null()
}

/// The number of uses of `v`.
pub fn use_count<'c>(v: impl ValueLike<'c>) -> usize {
    let mut n = 0;
    // SAFETY: `v` is live; the use list is walked without changing it.
    let mut at = unsafe { mlir_sys::mlirValueGetFirstUse(v.to_raw()) };
    while !at.ptr.is_null() {
        n += 1;
        at = unsafe { mlir_sys::mlirOpOperandGetNextUse(at) };
    }
    n
}

/// Each use of `v`: the op using it and the operand's position.
pub fn uses<'c, 'a>(v: impl ValueLike<'c>) -> Vec<(OperationRef<'c, 'a>, usize)> {
    let mut out = Vec::new();
    // SAFETY: `v` is live; the use list is walked without changing it, and
    // each use's owner is a live op.
    let mut at = unsafe { mlir_sys::mlirValueGetFirstUse(v.to_raw()) };
    while !at.ptr.is_null() {
        unsafe {
            let owner = OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(at));
            let index = mlir_sys::mlirOpOperandGetOperandNumber(at) as usize;
            out.push((owner, index));
            at = mlir_sys::mlirOpOperandGetNextUse(at);
        }
    }
    out
}

/// Makes operand `index` of `op` `value`.
pub fn set_operand<'c, 'a>(op: &OperationRef<'c, 'a>, index: usize, value: Value<'c, 'a>) {
    // SAFETY: `op` is live and has that operand; `value` is live in the
    // same context.
    unsafe { mlir_sys::mlirOperationSetOperand(op.to_raw(), index as isize, value.to_raw()) }
}

/// The ops of `block` in order (collected first, so the caller may edit
/// around them).
pub fn ops_of<'c, 'a>(block: &impl BlockLike<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut out = Vec::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        out.push(op);
    }
    out
}
