//! Float math without libdevice, once per register: LLVM intrinsic calls
//! and PTX approximations, as [`tile_dialect::float_math`] decides.

use super::builder::Val;
use super::emit::Emitter;
use super::ptx::{PtxAsm, RegClass};
use crate::pass::{PassError, PassResult};
use melior::dialect::arith;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value};
use tile_dialect::DType;
use tile_dialect::float_math::{NativeMath, WHY_NOT, is_float_math, native_math};
use tile_dialect::view::op_name;

/// True for the ops [`lower`] emits or refuses.
pub fn handles(name: &str) -> bool {
    is_float_math(name)
}

/// `math.absi` as `llvm.abs` (`abs.s32`; the absolute value of the most
/// negative integer is itself, as in two's complement, not poison).
/// `convert-gpu-to-nvvm` would call libdevice's `__nv_abs`.
pub fn integer_abs<'c>(e: &mut Emitter<'_, 'c>, op: &OperationRef<'c, '_>) -> PassResult {
    let i1 = e.types.dtype(DType::I1);
    let not_poison = e.int(i1, 0);
    per_register(e, op, |to, _| overloaded("llvm.abs", &[to]), &[not_poison])
}

/// `arith.fptosi` as `llvm.fptosi.sat`: towards zero, saturating at the
/// integer's range, NaN to 0 — the interpreter's semantics. (A plain
/// `fptosi` out of range is poison to LLVM: to i8 the NVPTX backend
/// converts to 16 bits and truncates, so 1e30 became -1.)
pub fn saturating_fptosi<'c>(e: &mut Emitter<'_, 'c>, op: &OperationRef<'c, '_>) -> PassResult {
    per_register(
        e,
        op,
        |to, from| overloaded("llvm.fptosi.sat", &[to, from]),
        &[],
    )
}

/// The one-operand op `op` as a call of the intrinsic `name(result type,
/// operand type)` once per register, with `extra` operands after it.
fn per_register<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    name: impl Fn(DType, DType) -> String,
    extra: &[Val],
) -> PassResult {
    let result: Value = op
        .result(0)
        .map_err(|_| PassError::at(op, "has no result"))?
        .into();
    let src = op
        .operand(0)
        .map_err(|_| PassError::at(op, "has no operand"))?;
    let (to, from) = (e.dtype(result, op)?, e.dtype(src, op)?);
    let (ty, name) = (e.types.dtype(to), name(to, from));
    let n = e.registers(result, op)?;
    let mut out = Vec::with_capacity(n.unwrap_or(1));
    for r in 0..n.unwrap_or(1) {
        let mut args = vec![e.reg(src, r, op)?];
        args.extend_from_slice(extra);
        out.push(e.ir.intrinsic(&name, &args, ty));
    }
    e.set_like(result, out);
    Ok(())
}

/// The name of an overloaded LLVM intrinsic for element types `types`
/// (`llvm.sqrt` on f32: `llvm.sqrt.f32`).
pub fn overloaded(base: &str, types: &[DType]) -> String {
    let mut name = base.to_string();
    for d in types {
        name.push('.');
        name.push_str(d.mlir_name());
    }
    name
}

/// Emits float math op `op` once per register.
pub fn lower<'c>(e: &mut Emitter<'_, 'c>, op: &OperationRef<'c, '_>) -> PassResult {
    let name = op_name(op);
    let result: Value = op
        .result(0)
        .map_err(|_| PassError::at(op, "has no result"))?
        .into();
    let d = e.dtype(result, op)?;
    let how = native_math(name, d).ok_or_else(|| PassError::at(op, format!("on {d} {WHY_NOT}")))?;
    let ty = e.types.dtype(d);
    let f32 = e.types.dtype(DType::F32);
    let operands: Vec<Value> = op.operands().collect();
    let n = e.registers(result, op)?;
    let mut out = Vec::with_capacity(n.unwrap_or(1));
    for r in 0..n.unwrap_or(1) {
        let args: Vec<Val> = operands
            .iter()
            .map(|&v| e.reg(v, r, op))
            .collect::<Result<_, _>>()?;
        out.push(match how {
            NativeMath::Intrinsic(base) => e.ir.intrinsic(&overloaded(base, &[d]), &args, ty),
            NativeMath::Approx { ptx, scale, post } => {
                let mut x = args[0];
                if d != DType::F32 {
                    x = e.ir.cast(arith::extf, x, f32);
                }
                if let Some(s) = scale {
                    let c = e.float(f32, f64::from(s));
                    x = e.ir.binary(arith::mulf, x, c);
                }
                let mut asm = PtxAsm::new();
                let dst = asm.output(RegClass::F32, f32);
                let src = asm.input(RegClass::F32, x);
                asm.unary(ptx, dst, src);
                let mut y = asm.emit(&e.ir, false)[0];
                if let Some(s) = post {
                    let c = e.float(f32, f64::from(s));
                    y = e.ir.binary(arith::mulf, y, c);
                }
                if d != DType::F32 {
                    y = e.ir.cast(arith::truncf, y, ty);
                }
                y
            }
        });
    }
    e.set_like(result, out);
    Ok(())
}
