//! `arith` and `math` ops and constants, once per register.

use super::builder::Val;
use super::emit::{Emitter, Lowered};
use crate::pass::{PassError, PassResult};
use melior::ir::operation::OperationLike;
use melior::ir::{Attribute, Identifier, OperationRef, Type, Value, ValueLike};
use tile_dialect::view::{Constant, ConstantValue, op_name, tensor_shape};

/// Lowers `arith.constant`: one hoisted scalar constant, shared by every
/// register of a tensor (only splats are tile IR).
pub fn constant<'c>(e: &mut Emitter<'_, 'c>, op: &OperationRef<'c, '_>) -> PassResult {
    let c = Constant::read(op)
        .map_err(|r| PassError::at(op, r.to_string()))?
        .expect("an arith.constant");
    let result: Value = op.result(0).expect("a constant's result").into();
    let d = e.dtype(result, op)?;
    let v = match c.value {
        ConstantValue::Float(f) => e.number(d, f),
        ConstantValue::Int(i) => {
            let ty = e.reg_type(d);
            e.int(ty, i)
        }
        ConstantValue::Bool(b) => e.number(d, f64::from(u8::from(b))),
    };
    match e.registers(result, op)? {
        None => e.set(result, Lowered::Scalar(v)),
        Some(n) => e.set(result, Lowered::Regs(vec![v; n])),
    }
    Ok(())
}

/// The float ops LLVM may fuse into a multiply-add when marked `contract`.
const FUSABLE: [&str; 3] = ["arith.mulf", "arith.addf", "arith.subf"];

/// Marks an op's fast-math flags `contract` (where it has none or only
/// `none`), keeping any other flags it has.
fn contract<'c>(e: &Emitter<'_, 'c>, attrs: &mut Vec<(Identifier<'c>, Attribute<'c>)>) {
    let context = e.types.context();
    let flag = Attribute::parse(context, "#arith.fastmath<contract>")
        .expect("#arith.fastmath<contract> parses");
    match attrs
        .iter_mut()
        .find(|(n, _)| n.as_string_ref().as_str() == Ok("fastmath"))
    {
        Some((_, a)) if a.to_string() == "#arith.fastmath<none>" => *a = flag,
        Some(_) => {}
        None => attrs.push((Identifier::new(context, "fastmath"), flag)),
    }
}

/// `a + b` on float registers, marked `contract` under `fp_fusion` like
/// the elementwise sums, so that a product feeding it fuses (the adds of
/// a reduction's sum).
pub fn float_sum<'c>(e: &mut Emitter<'_, 'c>, a: Val, b: Val) -> Val {
    let mut attrs = Vec::new();
    if e.fp_fusion {
        contract(e, &mut attrs);
    }
    let ty = a.ty();
    e.ir.generic("arith.addf", &[a, b], &[ty], &attrs)[0]
}

/// Any other `arith`/`math` op: the same op once per register, on the
/// registers' scalars, with the op's attributes.
pub fn lower<'c>(e: &mut Emitter<'_, 'c>, op: &OperationRef<'c, '_>) -> PassResult {
    if op.region_count() > 0 {
        return Err(super::unsupported(op));
    }
    if super::math::is_approximate_division(op) {
        return super::math::approximate_division(e, op);
    }
    if let Some(direction) = super::fp8::conversion(e, op)? {
        return super::fp8::lower(e, op, direction);
    }
    if !tile_dialect::ops::takes_fp8(op_name(op)) {
        for v in op.operands().chain(op.results().map(Value::from)) {
            if e.tile_type(v, op)?.num().is_some_and(|d| d.is_fp8()) {
                return Err(PassError::at(
                    op,
                    "computes on 8-bit floats, which are only loaded, stored, moved and converted",
                ));
            }
        }
    }
    let operands: Vec<Value> = op.operands().collect();
    let results: Vec<Value> = op.results().map(Value::from).collect();
    let mut n: Option<usize> = None;
    for &v in operands.iter().chain(&results) {
        if let Some(k) = e.registers(v, op)? {
            if n.is_some_and(|n| n != k) {
                return Err(PassError::at(
                    op,
                    "mixes tensors with different register counts",
                ));
            }
            n = Some(k);
        }
    }
    if op_name(op) == "arith.addi"
        && let Some(regs) = uniform_plus_affine(e, &operands)?
    {
        e.set(results[0], Lowered::Regs(regs));
        return Ok(());
    }
    let result_types: Vec<Type> = results
        .iter()
        .map(|&v| e.scalar_type(v, op))
        .collect::<Result<_, _>>()?;
    let name = op_name(op);
    let mut attrs: Vec<(Identifier, Attribute)> = op.attributes().collect();
    if e.fp_fusion && FUSABLE.contains(&name) {
        contract(e, &mut attrs);
    }
    // Where the result is constant over groups of registers (a mask
    // `offsets < n` with `n` a multiple of the group, along any axis),
    // each group's value is computed once and shared, as Triton does: the
    // loads, selects and stores of a masked tile then share one predicate
    // a group, not one an element (the SASS has 7 predicate registers;
    // more live ones are kept in general registers).
    let groups = match results.as_slice() {
        [one] if n.is_some() => e.constant_groups(*one, op)?,
        _ => None,
    };
    let mut outs: Vec<Vec<_>> = vec![Vec::new(); results.len()];
    for r in 0..n.unwrap_or(1) {
        if let Some(k) = groups.as_ref().map(|g| g[r]).filter(|&k| k != r) {
            for out in outs.iter_mut() {
                let first = out[k];
                out.push(first);
            }
            continue;
        }
        let args = operands
            .iter()
            .map(|&v| e.reg(v, r, op))
            .collect::<Result<Vec<_>, _>>()?;
        let values = e.ir.generic(name, &args, &result_types, &attrs);
        if name == "arith.addi"
            && n.is_some()
            && let ([a, b], [sum]) = (args.as_slice(), values.as_slice())
        {
            record_split(e, *sum, *a, *b);
        }
        for (out, v) in outs.iter_mut().zip(values) {
            out.push(v);
        }
    }
    for (&res, regs) in results.iter().zip(outs) {
        if tensor_shape(res.r#type()).is_empty() {
            e.set(res, Lowered::Scalar(regs[0]));
        } else {
            e.set(res, Lowered::Regs(regs));
        }
    }
    Ok(())
}

/// Records `sum = a + b` as uniform plus per-thread where exactly one of
/// the two is uniform (see [`super::uniform`]: an address built from it
/// keeps its uniform part apart).
fn record_split(e: &mut Emitter<'_, '_>, sum: Val, a: Val, b: Val) {
    match (e.uniform.is_uniform(a), e.uniform.is_uniform(b)) {
        (true, false) => e.uniform.set_split(sum, a, b),
        (false, true) => e.uniform.set_split(sum, b, a),
        _ => {}
    }
}

/// `s + (root + c_r)` for one value `s` and registers `root + c_r`: one
/// shared `s + root`, then `+ c_r` a register, each recorded as
/// `(s + root) + c_r` (so that an `addptr` of it is a shared base and
/// constant offsets). `None` when the operands are not of that form.
fn uniform_plus_affine<'c>(
    e: &mut Emitter<'_, 'c>,
    operands: &[Value<'c, '_>],
) -> Result<Option<Vec<Val>>, PassError> {
    let [a, b] = operands else { return Ok(None) };
    // Tensors only: two scalars are one register each, never a run.
    let regs = |e: &Emitter<'_, 'c>, v: Value<'c, '_>| match e.get_unchecked(v) {
        Some(Lowered::Regs(r)) => Some(r),
        _ => None,
    };
    let (Some(ra), Some(rb)) = (regs(e, *a), regs(e, *b)) else {
        return Ok(None);
    };
    for (uniform, varying) in [(&ra, &rb), (&rb, &ra)] {
        if varying.len() < 2 || uniform.iter().any(|&u| u != uniform[0]) {
            continue;
        }
        let Some(forms) = varying
            .iter()
            .map(|&v| e.affine(v))
            .collect::<Option<Vec<(Val, i64)>>>()
        else {
            continue;
        };
        let root = forms[0].0;
        if forms.iter().any(|&(r, _)| r != root) {
            continue;
        }
        let shared = e.ir.binary(melior::dialect::arith::addi, uniform[0], root);
        e.set_affine(shared, shared, 0);
        let mut out = Vec::with_capacity(forms.len());
        for &(_, c) in &forms {
            let v = if c == 0 {
                shared
            } else {
                let k = e.int(shared.ty(), c);
                e.ir.binary(melior::dialect::arith::addi, shared, k)
            };
            e.set_affine(v, shared, c);
            out.push(v);
        }
        return Ok(Some(out));
    }
    Ok(None)
}
