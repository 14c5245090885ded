//! Ops that only place elements: `tile.arange`, and broadcasts,
//! `expand_dims` and layout conversions, which renumber registers within
//! one root layout and go through shared memory otherwise.

use super::builder::Val;
use super::emit::{Emitter, Lowered};
use super::exchange::{Held, Placement, Side, exchange};
use crate::pass::{PassError, PassResult};
use melior::dialect::arith;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value, ValueLike};
use tile_coalesce::Distribution;
use tile_dialect::view::{TileOp, op_name};

/// `tile.arange`: each register holds its index along the axis, plus
/// `start`.
pub fn arange<'c>(e: &mut Emitter<'_, 'c>, op: &OperationRef<'c, '_>, start: i64) -> PassResult {
    let result: Value = op.result(0).expect("an arange's result").into();
    let dist = e.dist(result, op)?;
    let d = &dist.0;
    let mut regs = Vec::with_capacity(d.registers());
    for r in 0..d.registers() {
        let mut x = e.index(d, r, 0);
        if start != 0 {
            let c = e.i32(start);
            let root = e.affine(x);
            x = e.ir.binary(arith::addi, x, c);
            if let Some((root, k)) = root {
                e.set_affine(x, root, k + start);
            }
        }
        regs.push(x);
    }
    e.set(result, Lowered::Regs(regs));
    Ok(())
}

/// Broadcast, `expand_dims` (inserting `expanded`) and conversions within
/// one root layout, or between layouts that keep every element in its
/// thread, only renumber registers; other conversions go through shared
/// memory.
pub fn renumber<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    src: Value<'c, '_>,
    expanded: Option<usize>,
) -> PassResult {
    let result: Value = op.result(0).expect("a result").into();
    if let shared @ Lowered::Shared { .. } = e.get(src, op)? {
        // A tile in shared memory has no registers to move: a conversion
        // only relabels it.
        if op_name(op) == tile_dialect::ops::CONVERT_LAYOUT {
            e.set(result, shared);
            return Ok(());
        }
    }
    let src_dist = e.dist(src, op)?;
    let dst_dist = e.dist(result, op)?;
    let (s, dst) = (&src_dist.0, &dst_dist.0);
    let Lowered::Regs(regs) = e.get(src, op)? else {
        return Err(PassError::at(op, "expects a tensor operand"));
    };
    let broadcast = matches!(
        TileOp::read(op, |v| e.types.tile_type(v.r#type())),
        Ok(Some(TileOp::Broadcast(_)))
    );
    let conversion = op_name(op) == tile_dialect::ops::CONVERT_LAYOUT;
    let same_root = s.root == dst.root;
    if conversion && !same_root {
        // Layouts of different roots that place every element in the same
        // thread only renumber registers.
        if let Some(map) = s.same_thread_registers(dst) {
            let out = map.iter().map(|&k| regs[k]).collect();
            e.set(result, Lowered::Regs(out));
            return Ok(());
        }
    }
    let mut out = Vec::with_capacity(dst.registers());
    for r in 0..dst.registers() {
        let o = &dst.offsets[r];
        let want: Option<Vec<i64>> = if broadcast {
            Some(
                o.iter()
                    .zip(&s.shape)
                    .map(|(&x, &n)| if n == 1 { 0 } else { x })
                    .collect(),
            )
        } else if let Some(axis) = expanded {
            let mut w = o.clone();
            w.remove(axis);
            Some(w)
        } else if same_root && s.axes == dst.axes {
            Some(o.clone())
        } else {
            None
        };
        match want.filter(|_| same_root).and_then(|w| s.register_at(&w)) {
            Some(k) => out.push(regs[k]),
            None if conversion => return through_shared(e, op, result, s, dst, &regs),
            None => {
                return Err(PassError::at(
                    op,
                    "has operand and result layouts that do not line up (a tile.convert_layout is missing)",
                ));
            }
        }
    }
    e.set(result, Lowered::Regs(out));
    Ok(())
}

/// A layout conversion through shared memory: every element at its
/// row-major place, laid out by [`super::exchange`] (vectors on both
/// sides where the registers allow, a swizzle or padding that keeps
/// both sides free of bank conflicts).
fn through_shared<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    result: Value<'c, '_>,
    src: &Distribution,
    dst: &Distribution,
    regs: &[Val],
) -> PassResult {
    let d = e.dtype(result, op)?;
    let ty = e.reg_type(d);
    let elem_bytes = i64::from(d.bits().div_ceil(8));
    let whole_bytes = d.bits().is_multiple_of(8);
    let place = Placement::row_major(&dst.shape, 1, 0);
    let elements = dst.shape.iter().product();
    let writers = [Held {
        side: Side::new(src, &place),
        regs,
    }];
    let readers = [Side::new(dst, &place)];
    let mut moved = exchange(e, &writers, &readers, elements, ty, elem_bytes, whole_bytes)?;
    e.set(result, Lowered::Regs(moved.remove(0)));
    Ok(())
}
