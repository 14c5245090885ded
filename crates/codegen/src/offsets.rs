//! Which pointer arguments a kernel addresses with 32-bit offsets.
//!
//! `tile.addptr(ptr, offsets)` lowers to a `getelementptr` with the offsets'
//! own width, so i32 offsets reach at most `i32::MAX` elements from the
//! pointer they move. The runtime refuses a launch that hands such a
//! pointer a larger buffer ([`tile_runtime::KernelSpec::check_args`]); this
//! analysis tells it which arguments that applies to.
//!
//! A pointer is traced back from each narrow `tile.addptr` (offsets of i32
//! or a narrower integer type) through the ops
//! that carry pointers unchanged (`tile.splat`, `tile.broadcast`,
//! `tile.expand_dims`, `tile.convert_layout`, `arith.select`), earlier
//! narrow `tile.addptr`s, `scf.for` and `scf.while` (the init operand and
//! the yielded or forwarded value of a loop-carried pointer) and `scf.if`
//! (what either branch yields) to the kernel's arguments. An
//! `addptr` with i64 offsets on the way ends the trace: the pointer was
//! rebased with 64-bit arithmetic (`x_ptr + pid.to(DType::I64) * stride`),
//! and the i32 offsets after it are relative to that base. Block pointers
//! use 64-bit addresses and never count.
//!
//! The reading is conservative where it cannot see the values: a pointer
//! that a loop advances by i32 steps stays flagged (the steps add up in 64
//! bits, but nothing here shows the offsets within each step stay small),
//! and a pointer is flagged when any one of its paths to an argument is
//! free of 64-bit offsets.

use melior::ir::block::{BlockArgument, BlockLike};
use melior::ir::operation::{OperationLike, OperationResult};
use melior::ir::{BlockRef, RegionLike, Value, ValueLike};
use tile_dialect::ops;
use tile_dialect::view::{decode_type, dtype_of, element_type, op_name};

/// For each argument of the kernel whose entry block is `entry`, in order:
/// the pointee size in bytes when some `tile.addptr` with i32 (or
/// narrower) offsets moves a pointer derived from it, `None` otherwise.
/// With several such `addptr`s the smallest pointee counts (it reaches the
/// most elements of a buffer).
pub(crate) fn i32_offset_elem_bytes(entry: BlockRef) -> Vec<Option<u32>> {
    let mut found = vec![None; entry.argument_count()];
    visit(entry, entry, &mut found);
    found
}

/// Records, for every narrow `tile.addptr` in `block` and the regions
/// nested in it, the arguments its pointer derives from.
fn visit(block: BlockRef, entry: BlockRef, found: &mut [Option<u32>]) {
    let mut next = block.first_operation();
    while let Some(op) = next {
        if name(&op) == ops::ADDPTR
            && narrow_offsets(&op)
            && op.result_count() == 1
            && let Some(bytes) = op.result(0).ok().and_then(|r| pointee_bytes(r.into()))
            && let Ok(ptr) = op.operand(0)
        {
            for arg in roots(ptr, entry) {
                if let Some(slot) = found.get_mut(arg) {
                    *slot = Some(slot.map_or(bytes, |b: u32| b.min(bytes)));
                }
            }
        }
        for region in op.regions() {
            let mut inner = region.first_block();
            while let Some(b) = inner {
                visit(b, entry, found);
                inner = b.next_in_region();
            }
        }
        next = op.next_in_block();
    }
}

/// The positions of the kernel arguments (block arguments of `entry`) that
/// the pointer `value` derives from.
fn roots(value: Value, entry: BlockRef) -> Vec<usize> {
    let mut roots = Vec::new();
    let mut seen: Vec<Value> = Vec::new();
    let mut todo = vec![value];
    while let Some(v) = todo.pop() {
        if seen.contains(&v) {
            continue;
        }
        seen.push(v);
        // Each kind checked before converting: melior's conversion error
        // prints the value, and with it the whole module.
        if v.is_block_argument()
            && let Ok(arg) = BlockArgument::try_from(v)
        {
            let n = arg.argument_number();
            // SAFETY: a block argument's owner is the live block holding it.
            let block =
                unsafe { BlockRef::from_raw(mlir_sys::mlirBlockArgumentGetOwner(v.to_raw())) };
            if block == entry {
                roots.push(n);
            } else if let Some(op) = block.parent_operation() {
                match name(&op) {
                    "scf.for" if n >= 1 => {
                        // Region arguments: the induction variable, then one
                        // per carried value; operands: bounds and step, then
                        // the inits.
                        todo.extend(op.operand(2 + n).ok());
                        todo.extend(block.terminator().and_then(|t| t.operand(n - 1).ok()));
                    }
                    "scf.while" => {
                        let before = op.region(0).ok().and_then(|r| r.first_block());
                        todo.extend(if before == Some(block) {
                            carried(&op, n)
                        } else {
                            forwarded(&op, n)
                        });
                    }
                    _ => {}
                }
            }
        } else if v.is_operation_result()
            && let Ok(result) = OperationResult::try_from(v)
        {
            let op = result.owner();
            match name(&op) {
                ops::SPLAT | ops::BROADCAST | ops::EXPAND_DIMS | ops::CONVERT_LAYOUT => {
                    todo.extend(op.operand(0).ok());
                }
                ops::ADDPTR if narrow_offsets(&op) => todo.extend(op.operand(0).ok()),
                "arith.select" => {
                    todo.extend([1, 2].into_iter().filter_map(|i| op.operand(i).ok()))
                }
                "scf.for" => {
                    let r = result.result_number();
                    todo.extend(op.operand(3 + r).ok());
                    let body = op.region(0).ok().and_then(|region| region.first_block());
                    todo.extend(
                        body.and_then(|b| b.terminator())
                            .and_then(|t| t.operand(r).ok()),
                    );
                }
                "scf.if" => {
                    let r = result.result_number();
                    for region in op.regions() {
                        todo.extend(
                            region
                                .first_block()
                                .and_then(|b| b.terminator())
                                .and_then(|t| t.operand(r).ok()),
                        );
                    }
                }
                "scf.while" => todo.extend(forwarded(&op, result.result_number())),
                _ => {}
            }
        }
    }
    roots
}

/// What carried slot `n` of an `scf.while` (its condition block's
/// argument) may hold: its initial value and the value the body yields.
fn carried<'c, 'a>(op: &melior::ir::OperationRef<'c, 'a>, n: usize) -> Vec<Value<'c, 'a>> {
    let mut found: Vec<Value> = op.operand(n).ok().into_iter().collect();
    found.extend(terminator_operand(op, 1, n));
    found
}

/// What forwarded slot `n` of an `scf.while` (its body's argument, its
/// result) may hold: the value `scf.condition` forwards.
fn forwarded<'c, 'a>(op: &melior::ir::OperationRef<'c, 'a>, n: usize) -> Vec<Value<'c, 'a>> {
    terminator_operand(op, 0, n + 1).into_iter().collect()
}

/// Operand `n` of the terminator of region `region` of `op`.
fn terminator_operand<'c, 'a>(
    op: &melior::ir::OperationRef<'c, 'a>,
    region: usize,
    n: usize,
) -> Option<Value<'c, 'a>> {
    op.region(region)
        .ok()
        .and_then(|r| r.first_block())
        .and_then(|b| b.terminator())
        .and_then(|t| t.operand(n).ok())
}
