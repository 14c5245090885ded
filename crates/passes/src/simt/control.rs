//! `scf.for` in per-thread code: the loop-carried values flattened into
//! their scalars (a tensor's registers, a block pointer's parts).

use super::builder::Val;
use super::emit::{Emitter, Lowered};
use crate::pass::{PassError, PassResult};
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Type, Value};
use tile_dialect::TileType;
use tile_dialect::view::ForLoop;

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
