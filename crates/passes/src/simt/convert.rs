//! Ops that only place elements: `tile.arange`, and broadcasts,
//! `expand_dims` and layout conversions, which renumber registers within
//! one root layout and go through shared memory otherwise.

use super::builder::Val;
use super::emit::{Emitter, Lowered};
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
/// one root layout only renumber registers; other conversions go through
/// shared memory.
pub fn renumber<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    src: Value<'c, '_>,
    expanded: Option<usize>,
) -> PassResult {
    let result: Value = op.result(0).expect("a result").into();
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

/// A layout conversion through shared memory: every thread writes its
/// registers at their row-major index, then reads its new ones.
fn through_shared<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    result: Value<'c, '_>,
    src: &Distribution,
    dst: &Distribution,
    regs: &[Val],
) -> PassResult {
    let d = e.dtype(result, op)?;
    let ty = e.types.dtype(d);
    let elem_bytes = d.bits().div_ceil(8) as usize;
    let total: i64 = dst.shape.iter().product();
    e.reserve_shared(total as usize * elem_bytes);
    let base = e.shared_base();
    // Earlier users of the buffer must be done before it is rewritten.
    e.ir.barrier();
    for (r, &reg) in regs.iter().enumerate() {
        let at = e.linear(src, r);
        let p = e.ir.gep(base, at, ty);
        e.ir.store(reg, p, elem_bytes as u64);
    }
    e.ir.barrier();
    let mut out = Vec::with_capacity(dst.registers());
    for r in 0..dst.registers() {
        let at = e.linear(dst, r);
        let p = e.ir.gep(base, at, ty);
        out.push(e.ir.load(p, ty, elem_bytes as u64));
    }
    e.set(result, Lowered::Regs(out));
    Ok(())
}
