//! `scf.for`, `scf.if` and `scf.while` in per-thread code: the values
//! they carry or give flattened into their scalars (a tensor's registers,
//! a block pointer's parts).
//!
//! An `if`'s or a `while`'s condition is a scalar, the same in every
//! thread (tile IR's scalars are uniform across a program), so every
//! thread of a program takes the same branch and runs the same iterations,
//! and the barriers of reductions and shared-memory handoffs inside stay
//! safe.

use super::builder::Val;
use super::emit::{Emitter, Lowered};
use crate::pass::{PassError, PassResult};
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Type, Value};
use tile_dialect::TileType;
use tile_dialect::view::{ForLoop, IfOp, WhileLoop};

/// The types of the scalars [`Lowered::parts`] gives for value `v`.
fn part_types<'c>(
    e: &mut Emitter<'_, 'c>,
    v: Value<'c, '_>,
    op: &OperationRef,
) -> Result<Vec<Type<'c>>, PassError> {
    match e.tile_type(v, op)? {
        TileType::BlockPtr { shape, .. } => {
            let r = shape.len();
            let mut t = vec![e.ir.ptr_type(super::builder::GLOBAL)];
            t.extend(std::iter::repeat_n(e.ir.int_type(64), 2 * r));
            t.extend(std::iter::repeat_n(e.ir.int_type(32), r));
            Ok(t)
        }
        t => {
            let elem = t
                .elem()
                .ok_or_else(|| PassError::at(op, "has an untyped value"))?;
            let ty = e.elem_type(elem);
            let n = e.registers(v, op)?.unwrap_or(1);
            Ok(vec![ty; n])
        }
    }
}

/// A value of `v`'s tile type made of the scalars `names` (see
/// [`Lowered::parts`]).
pub(super) fn rebuild(
    e: &Emitter,
    v: Value,
    mut parts: Vec<Val>,
    op: &OperationRef,
) -> Result<Lowered, PassError> {
    Ok(match e.tile_type(v, op)? {
        TileType::BlockPtr { shape, .. } => {
            let r = shape.len();
            let offsets = parts.split_off(1 + 2 * r);
            let strides = parts.split_off(1 + r);
            let shape = parts.split_off(1);
            Lowered::BlockPtr {
                base: parts[0],
                shape,
                strides,
                offsets,
            }
        }
        t if t.is_scalar() => Lowered::Scalar(parts[0]),
        _ => Lowered::Regs(parts),
    })
}

/// Lowers an `scf.for`; a loop `tile-software-pipeline` marked is
/// pipelined (see [`super::pipelined`]).
pub fn for_loop<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    l: &ForLoop<'c, '_>,
) -> PassResult {
    if op.has_attribute(tile_dialect::ops::NUM_STAGES_ATTR) {
        let stages = tile_dialect::view::attr::int(op, tile_dialect::ops::NUM_STAGES_ATTR)
            .map_err(|r| PassError::at(op, r.to_string()))?;
        if stages >= 2 {
            return super::pipelined::for_loop(e, op, l, stages);
        }
    }
    for_loop_with(e, op, l, &[], |_, _| Ok(()), |_| false, |_, _| Ok(vec![]))
}

/// Lowers an `scf.for` that also carries the scalars `extra` (after the
/// loop's own values): `at_start` runs first in the body with their
/// current values, the body ops `skip` names are left to it, and `next`
/// gives their values for the next iteration.
pub fn for_loop_with<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    l: &ForLoop<'c, '_>,
    extra: &[Val],
    mut at_start: impl FnMut(&mut Emitter<'_, 'c>, &[Val]) -> PassResult,
    skip: impl Fn(&OperationRef) -> bool,
    mut next: impl FnMut(&mut Emitter<'_, 'c>, &[Val]) -> Result<Vec<Val>, PassError>,
) -> PassResult {
    let bounds = [
        e.reg(l.lower, 0, op)?,
        e.reg(l.upper, 0, op)?,
        e.reg(l.step, 0, op)?,
    ];
    let iv_ty = e.scalar_type(l.lower, op)?;
    // Flatten loop-carried values into their scalars.
    let mut inits = Vec::new();
    let mut types = vec![iv_ty];
    let mut counts = Vec::new();
    for &v in &l.inits {
        let parts = e.get(v, op)?.parts();
        let tys = part_types(e, v, op)?;
        if parts.len() != tys.len() {
            return Err(PassError::at(
                op,
                "carries a value whose parts do not match its type",
            ));
        }
        counts.push(parts.len());
        inits.extend(parts);
        types.extend(tys);
    }
    inits.extend_from_slice(extra);
    types.extend(extra.iter().map(|v| v.ty()));
    let args = e.ir.open_block(&types);
    if bounds.iter().all(|&b| e.uniform.is_uniform(b)) {
        e.uniform.assume(args[0]);
    }
    e.set(l.induction, Lowered::Scalar(args[0]));
    let mut k = 1;
    for (j, &n) in counts.iter().enumerate() {
        let rebuilt = rebuild(e, l.iter_args[j], args[k..k + n].to_vec(), op)?;
        e.set(l.iter_args[j], rebuilt);
        k += n;
    }
    let state = args[k..].to_vec();
    let scope = e.pin_scope();
    at_start(e, &state)?;
    // The body without its terminator; then the yielded values' parts.
    let body: Vec<OperationRef> = crate::edit::ops_of(&l.body);
    let Some((last, rest)) = body.split_last() else {
        return Err(PassError::at(op, "has an empty body"));
    };
    for inner in rest {
        if !skip(inner) {
            e.lower_op(inner)?;
        }
    }
    e.end_pin_scope(scope);
    e.ir.set_location(last.location());
    // A value still written by a `wgmma` group in flight is waited for
    // before the loop carries it on as it is; the others pending now are
    // not used again.
    if l.yielded
        .iter()
        .any(|&v| e.pending.contains(&crate::edit::key(v)))
    {
        super::dot::in_flight::settle(e, Vec::new(), last)?;
    }
    e.pending.clear();
    let mut yielded = Vec::new();
    for &v in &l.yielded {
        yielded.extend(e.get(v, last)?.parts());
    }
    yielded.extend(next(e, &state)?);
    let region = e.ir.close_block(&yielded);
    e.ir.set_location(op.location());
    let results = e.ir.for_loop(bounds, &inits, region);
    let mut k = 0;
    for (j, &n) in counts.iter().enumerate() {
        let rebuilt = rebuild(e, l.results[j], results[k..k + n].to_vec(), op)?;
        e.set(l.results[j], rebuilt);
        k += n;
    }
    Ok(())
}

/// The scalar types of `values`, flattened, and how many each has.
fn flat_types<'c>(
    e: &mut Emitter<'_, 'c>,
    values: &[Value<'c, '_>],
    op: &OperationRef,
) -> Result<(Vec<Type<'c>>, Vec<usize>), PassError> {
    let mut types = Vec::new();
    let mut counts = Vec::with_capacity(values.len());
    for &v in values {
        let t = part_types(e, v, op)?;
        counts.push(t.len());
        types.extend(t);
    }
    Ok((types, counts))
}

/// Gives each of `values` its share of the scalars `flat` (as counted by
/// [`flat_types`]).
fn set_flat<'c>(
    e: &mut Emitter<'_, 'c>,
    values: &[Value<'c, '_>],
    counts: &[usize],
    flat: &[Val],
    op: &OperationRef,
) -> PassResult {
    let mut k = 0;
    for (&v, &n) in values.iter().zip(counts) {
        let rebuilt = rebuild(e, v, flat[k..k + n].to_vec(), op)?;
        e.set(v, rebuilt);
        k += n;
    }
    Ok(())
}

/// The scalars of `values`, flattened, after `block`'s ops; values an
/// in-flight `wgmma` group still writes are waited for first.
fn block_end<'c>(
    e: &mut Emitter<'_, 'c>,
    block: &melior::ir::BlockRef<'c, '_>,
    values: &[Value<'c, '_>],
    op: &OperationRef<'c, '_>,
) -> Result<Vec<Val>, PassError> {
    let scope = e.pin_scope();
    let ops: Vec<OperationRef> = crate::edit::ops_of(block);
    let Some((last, rest)) = ops.split_last() else {
        return Err(PassError::at(op, "has a block without a terminator"));
    };
    for inner in rest {
        e.lower_op(inner)?;
    }
    e.end_pin_scope(scope);
    e.ir.set_location(last.location());
    if values
        .iter()
        .any(|&v| e.pending.contains(&crate::edit::key(v)))
    {
        super::dot::in_flight::settle(e, Vec::new(), last)?;
    }
    e.pending.clear();
    let mut flat = Vec::new();
    for &v in values {
        flat.extend(e.get(v, last)?.parts());
    }
    e.ir.set_location(op.location());
    Ok(flat)
}

/// Lowers an `scf.if`: the condition is one scalar, each branch yields
/// its values' scalars.
pub fn branch<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    b: &IfOp<'c, '_>,
) -> PassResult {
    let condition = e.reg(b.condition, 0, op)?;
    let (types, counts) = flat_types(e, &b.results, op)?;
    e.ir.open_block(&[]);
    let then_values = block_end(e, &b.then_block, &b.then_yielded, op)?;
    let then = e.ir.close_block(&then_values);
    let Some(else_block) = &b.else_block else {
        e.ir.if_then(condition, then);
        return Ok(());
    };
    e.ir.open_block(&[]);
    let else_values = block_end(e, else_block, &b.else_yielded, op)?;
    let otherwise = e.ir.close_block(&else_values);
    let results = e.ir.if_else(condition, then, otherwise, &types);
    set_flat(e, &b.results, &counts, &results, op)
}

/// Lowers an `scf.while`: the condition block forwards its values'
/// scalars, the body yields its values' scalars (the carried and the
/// forwarded values may differ in number and type).
pub fn while_loop<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    w: &WhileLoop<'c, '_>,
) -> PassResult {
    let mut inits = Vec::new();
    for &v in &w.inits {
        inits.extend(e.get(v, op)?.parts());
    }
    let (before_types, before_counts) = flat_types(e, &w.before_args, op)?;
    let (after_types, after_counts) = flat_types(e, &w.after_args, op)?;
    if inits.len() != before_types.len() {
        return Err(PassError::at(
            op,
            "carries a value whose parts do not match its type",
        ));
    }
    let args = e.ir.open_block(&before_types);
    set_flat(e, &w.before_args, &before_counts, &args, op)?;
    let forwarded = block_end(e, &w.before, &w.forwarded, op)?;
    let condition = e.reg(w.condition, 0, op)?;
    let before = e.ir.close_condition_block(condition, &forwarded);
    let args = e.ir.open_block(&after_types);
    set_flat(e, &w.after_args, &after_counts, &args, op)?;
    let yielded = block_end(e, &w.after, &w.yielded, op)?;
    let after = e.ir.close_block(&yielded);
    let results = e.ir.while_loop(&inits, &after_types, before, after);
    set_flat(e, &w.results, &after_counts, &results, op)
}
