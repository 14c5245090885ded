//! `arith` and `math` ops and constants, once per register.

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
            let ty = e.types.dtype(d);
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

/// Any other `arith`/`math` op: the same op once per register, on the
/// registers' scalars, with the op's attributes.
pub fn lower<'c>(e: &mut Emitter<'_, 'c>, op: &OperationRef<'c, '_>) -> PassResult {
    if op.region_count() > 0 {
        return Err(super::unsupported(op));
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
    let result_types: Vec<Type> = results
        .iter()
        .map(|&v| e.scalar_type(v, op))
        .collect::<Result<_, _>>()?;
    let attrs: Vec<(Identifier, Attribute)> = op.attributes().collect();
    let name = op_name(op);
    let mut outs: Vec<Vec<_>> = vec![Vec::new(); results.len()];
    for r in 0..n.unwrap_or(1) {
        let args = operands
            .iter()
            .map(|&v| e.reg(v, r, op))
            .collect::<Result<Vec<_>, _>>()?;
        let values = e.ir.generic(name, &args, &result_types, &attrs);
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
