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

/// A layout conversion through shared memory: every thread writes its
/// registers at their row-major place, then reads its new ones. Runs of
/// registers holding consecutive elements of a row move as one access of
/// up to 16 bytes; rows of a multiple of 128 bytes are padded by 16, so
/// that the threads of a warp writing one column each (as `#tile.mma`
/// fragments do) reach distinct banks.
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
    let elem_bytes = d.bits().div_ceil(8) as i64;
    let whole_bytes = i64::from(d.bits()) == elem_bytes * 8;
    let rank = dst.shape.len();
    let row = dst.shape[rank - 1];
    let pitch = if rank > 1 && whole_bytes && (row * elem_bytes) % 128 == 0 {
        row + 16 / elem_bytes
    } else {
        row
    };
    let total: i64 = dst.shape[..rank - 1].iter().product::<i64>() * pitch;
    e.reserve_shared((total * elem_bytes) as usize);
    let aligned = e.scratch().is_multiple_of(16) && whole_bytes;
    let base = e.shared_base();
    // Earlier users of the buffer must be done before it is rewritten.
    e.ir.barrier();
    let width = |d: &Distribution| match d.contiguous_registers() {
        Some((axis, n)) if aligned && axis == rank - 1 => {
            (n.min(16 / elem_bytes).max(1) as usize).min(d.registers())
        }
        _ => 1,
    };
    let w = width(src);
    for r in (0..regs.len()).step_by(w) {
        let at = e.padded_linear(src, r, pitch);
        let p = e.ir.gep(base, at, ty);
        let align = (w as i64 * elem_bytes) as u64;
        if w == 1 {
            e.ir.store_for_others(regs[r], p, align);
        } else {
            let vector_ty = e.ir.vector_type(w as u64, ty);
            let mut v = e.ir.poison(vector_ty);
            for (i, &x) in regs[r..r + w].iter().enumerate() {
                let at = e.i32(i as i64);
                v = e.ir.insert_element(v, x, at);
            }
            e.ir.store_for_others(v, p, align);
        }
    }
    e.ir.barrier();
    let w = width(dst);
    let mut out = Vec::with_capacity(dst.registers());
    for r in (0..dst.registers()).step_by(w) {
        let at = e.padded_linear(dst, r, pitch);
        let p = e.ir.gep(base, at, ty);
        let align = (w as i64 * elem_bytes) as u64;
        if w == 1 {
            out.push(e.ir.load(p, ty, align));
        } else {
            let vector_ty = e.ir.vector_type(w as u64, ty);
            let v = e.ir.load(p, vector_ty, align);
            for i in 0..w {
                let at = e.i32(i as i64);
                out.push(e.ir.extract_element(v, at, ty));
            }
        }
    }
    e.set(result, Lowered::Regs(out));
    Ok(())
}
