//! Operands a loop's products share across iterations, staged once: a
//! tile defined before the loop (attention's q) is written to shared
//! memory before the loop starts instead of in every iteration, so its
//! registers and the addresses of its stores do not live through the loop
//! and no iteration pays for the copy.
//!
//! The loop lowering calls [`stage`] before it lowers the body; at that
//! point the only values with a lowered form are those defined outside the
//! loop. Each operand in registers of a product in the body (f16, bf16 or
//! i8: stored as it is) gets its own K-major tile at the start of the
//! scratch part of the shared buffer, which then begins after it; the
//! products read it as they read a ring buffer
//! ([`super::stage_operands`] looks it up by value and K axis). The copy
//! stays pinned there until the block holding the loop ends
//! ([`Emitter::end_pin_scope`](super::super::emit::Emitter::end_pin_scope)),
//! so a later loop of that block multiplying the same tile (attention's
//! unmasked and masked loops) reads it without staging it again.

use super::super::builder::Val;
use super::super::emit::{Emitter, Lowered};
use super::{Convert, Staged, align, shape2, write};
use crate::pass::PassError;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, ValueLike};
use mlir_sys::MlirValue;
use tile_coalesce::SharedTile;
use tile_dialect::DType;
use tile_dialect::view::ForLoop;

/// What identifies a staged operand: the value, and its K axis (1 for
/// `a`, 0 for `b`).
pub type Key = (usize, usize);

/// Stages the loop-invariant operands of the products of loop `l` that
/// no earlier loop of the block staged, at the start of the scratch part
/// of the shared buffer (which then begins after them), with a barrier
/// before (earlier users of the buffer) and after (made visible to the
/// async proxy first when `async_readers`).
pub fn stage<'c>(
    e: &mut Emitter<'_, 'c>,
    l: &ForLoop<'c, '_>,
    async_readers: bool,
) -> Result<(), PassError> {
    let mut wanted: Vec<(Key, MlirValue, Vec<Val>, usize, OperationRef<'c, '_>, i64)> = Vec::new();
    for op in crate::edit::ops_of(&l.body) {
        if tile_dialect::view::op_name(&op) != tile_dialect::ops::DOT {
            continue;
        }
        let (Ok(a), Ok(b)) = (op.operand(0), op.operand(1)) else {
            continue;
        };
        let k = shape2(a, &op)?[1];
        for (v, k_axis) in [(a, 1usize), (b, 0usize)] {
            let key = (crate::edit::key(v), k_axis);
            if wanted.iter().any(|(w, ..)| *w == key) || e.invariant_operands.contains_key(&key) {
                continue;
            }
            let Some(Lowered::Regs(regs)) = e.get_unchecked(v) else {
                continue;
            };
            let dtype = e.dtype(v, &op)?;
            if !matches!(dtype, DType::F16 | DType::BF16 | DType::I8) {
                continue;
            }
            wanted.push((key, v.to_raw(), regs, k_axis, op, k));
        }
    }
    if wanted.is_empty() {
        return Ok(());
    }
    e.ir.barrier();
    let mut next = e.scratch() as i64;
    for (key, raw, regs, k_axis, op, k) in wanted {
        // SAFETY: the value is an operand of a live op of the loop's body.
        let v = unsafe { melior::ir::Value::from_raw(raw) };
        let dist = e.dist(v, &op)?;
        let [r0, r1] = shape2(v, &op)?;
        let rows = if k_axis == 1 { r0 } else { r1 };
        let elem_bytes = i64::from(e.dtype(v, &op)?.bits()) / 8;
        let tile = SharedTile::new(rows, k, elem_bytes);
        let offset = align(next);
        next = offset + tile.bytes();
        let staged = Staged {
            tile,
            at: e.i32(offset),
            k_major: true,
        };
        write(
            e,
            &dist.0,
            &regs,
            [1 - k_axis, k_axis],
            staged,
            Convert::None,
            k,
        );
        e.pin(key, staged);
    }
    e.set_scratch(next as usize);
    if async_readers {
        super::proxy_fence(e);
    }
    e.ir.barrier();
    Ok(())
}
