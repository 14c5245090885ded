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

/// The LLVM type suffix of a float element (`f32`, `bf16`).
fn suffix(d: DType) -> &'static str {
    d.mlir_name()
}

/// Emits float math op `op` once per register.
pub fn lower<'c>(e: &mut Emitter<'_, 'c>, op: &OperationRef<'c, '_>) -> PassResult {
    let name = op_name(op);
    let result: Value = op
        .result(0)
        .map_err(|_| PassError::at(op, "has no result"))?
        .into();
    let d = e.dtype(result, op)?;
    let how = native_math(name, d)
        .ok_or_else(|| PassError::at(op, format!("on {d} cannot be compiled: {WHY_NOT}")))?;
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
            NativeMath::Intrinsic(base) => {
                e.ir.intrinsic(&format!("{base}.{}", suffix(d)), &args, ty)
            }
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
