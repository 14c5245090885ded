//! Conversions to and from the 8-bit floats (`f8E4M3FN`, `f8E5M2`), whose
//! registers hold their bits as `i8` ([`Emitter::reg_type`]).
//!
//! Two elements convert per instruction (sm_89 and PTX 7.8 or later):
//! - from 8-bit: `cvt.rn.f16x2.e4m3x2` (or `.e5m2x2`) gives two exact
//!   halves, widened from there (`f16` holds every 8-bit float);
//! - to 8-bit: `cvt.rn.satfinite.e4m3x2.f32` rounds two `f32`s to nearest
//!   even and saturates (beyond the largest finite value, infinities
//!   included, becomes it; NaN stays NaN). `f16` and `bf16` widen to `f32`
//!   exactly first; an `f64` is first rounded to `f32` to odd (toward zero,
//!   then the last bit set when inexact), which keeps the one rounding to
//!   8 bits correct, as `f32` carries more than two bits beyond them.
//!
//! ```text
//! cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;   // $2 to the low byte
//! ```

use super::builder::Val;
use super::emit::{Emitter, Lowered};
use super::ptx::{PtxAsm, RegClass};
use crate::pass::{PassError, PassResult};
use melior::dialect::arith::{self, CmpfPredicate};
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value, ValueLike};
use tile_dialect::DType;
use tile_dialect::view::{op_name, tensor_shape};

/// The direction of a conversion `op` makes with an 8-bit float, if any:
/// `(from, to)` for an `arith.extf` from one or an `arith.truncf` to one.
pub fn conversion(
    e: &Emitter<'_, '_>,
    op: &OperationRef,
) -> Result<Option<(DType, DType)>, PassError> {
    let name = op_name(op);
    if name != "arith.extf" && name != "arith.truncf" {
        return Ok(None);
    }
    let from = e.dtype(op.operand(0).map_err(|_| no_operand(op))?, op)?;
    let result: Value = op.result(0).map_err(|_| no_operand(op))?.into();
    let to = e.dtype(result, op)?;
    Ok((from.is_fp8() || to.is_fp8()).then_some((from, to)))
}

fn no_operand(op: &OperationRef) -> PassError {
    PassError::at(op, "is a conversion without its operand or result")
}

/// Lowers `op`, a conversion [`conversion`] found, two registers at a
/// time.
pub fn lower<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    (from, to): (DType, DType),
) -> PassResult {
    if !e.fp8_convert {
        return Err(PassError::at(
            op,
            "converts 8-bit floats, which needs sm_89 or later and PTX 7.8 or later (cvt .e4m3x2/.e5m2x2)",
        ));
    }
    let src = op.operand(0).map_err(|_| no_operand(op))?;
    let result: Value = op.result(0).map_err(|_| no_operand(op))?.into();
    let regs: Vec<Val> = match e.get(src, op)? {
        Lowered::Scalar(s) => vec![s],
        Lowered::Regs(r) => r,
        _ => return Err(PassError::at(op, "expects numbers")),
    };
    let mut out = Vec::with_capacity(regs.len());
    for pair in regs.chunks(2) {
        let (lo, hi) = (pair[0], *pair.last().expect("a chunk is not empty"));
        let two = if from.is_fp8() {
            let halves = to_halves(e, from, lo, hi);
            halves.map(|h| widen_half(e, h, to))
        } else {
            let lo = to_f32(e, lo, from);
            let hi = to_f32(e, hi, from);
            from_f32_pair(e, to, lo, hi)
        };
        out.extend(&two[..pair.len()]);
    }
    if tensor_shape(result.r#type()).is_empty() {
        e.set(result, Lowered::Scalar(out[0]));
    } else {
        e.set(result, Lowered::Regs(out));
    }
    Ok(())
}

/// The PTX name of an 8-bit float type in `cvt` (`e4m3`, `e5m2`).
fn ptx_name(d: DType) -> &'static str {
    match d {
        DType::F8E4M3 => "e4m3",
        _ => "e5m2",
    }
}

/// Two 8-bit floats of type `d` (their `i8` registers) as two `f16`s.
fn to_halves<'c>(e: &mut Emitter<'_, 'c>, d: DType, lo: Val, hi: Val) -> [Val; 2] {
    let i16_ty = e.ir.int_type(16);
    let lo16 = e.convert(arith::extui, lo, i16_ty);
    let hi16 = e.convert(arith::extui, hi, i16_ty);
    let eight = e.int(i16_ty, 8);
    let shifted = e.ir.binary(arith::shli, hi16, eight);
    let packed = e.ir.binary(arith::ori, shifted, lo16);
    let mut asm = PtxAsm::new();
    let i32_ty = e.ir.int_type(32);
    let dst = asm.output(RegClass::B32, i32_ty);
    let src = asm.input(RegClass::B16, packed);
    asm.unary(&format!("cvt.rn.f16x2.{}x2", ptx_name(d)), dst, src);
    let word = asm.emit(&e.ir, false)[0];
    let f16_ty = e.reg_type(DType::F16);
    let low = e.ir.cast(arith::trunci, word, i16_ty);
    let sixteen = e.i32(16);
    let high = e.ir.binary(arith::shrui, word, sixteen);
    let high = e.ir.cast(arith::trunci, high, i16_ty);
    [low, high].map(|h| e.ir.cast(arith::bitcast, h, f16_ty))
}

/// An exact `f16` as a float of type `to` (exact: every 8-bit float is a
/// `bf16` too).
fn widen_half<'c>(e: &mut Emitter<'_, 'c>, h: Val, to: DType) -> Val {
    match to {
        DType::F16 => h,
        DType::BF16 => {
            let f32_ty = e.reg_type(DType::F32);
            let wide = e.ir.cast(arith::extf, h, f32_ty);
            let ty = e.reg_type(DType::BF16);
            e.ir.cast(arith::truncf, wide, ty)
        }
        _ => {
            let ty = e.reg_type(to);
            e.ir.cast(arith::extf, h, ty)
        }
    }
}

/// A float of type `from` as an `f32` that rounds to 8 bits as `from`
/// would: exact for the narrower types, rounded to odd from `f64`.
fn to_f32<'c>(e: &mut Emitter<'_, 'c>, v: Val, from: DType) -> Val {
    let f32_ty = e.reg_type(DType::F32);
    match from {
        DType::F32 => v,
        DType::F64 => {
            let mut asm = PtxAsm::new();
            let dst = asm.output(RegClass::F32, f32_ty);
            let src = asm.input(RegClass::F64, v);
            asm.unary("cvt.rz.f32.f64", dst, src);
            let toward_zero = asm.emit(&e.ir, false)[0];
            let f64_ty = e.reg_type(DType::F64);
            let back = e.ir.cast(arith::extf, toward_zero, f64_ty);
            let inexact = e.ir.cmpf(CmpfPredicate::One, back, v);
            let i32_ty = e.ir.int_type(32);
            let bits = e.ir.cast(arith::bitcast, toward_zero, i32_ty);
            let one = e.i32(1);
            let odd = e.ir.binary(arith::ori, bits, one);
            let bits = e.ir.select(inexact, odd, bits);
            e.ir.cast(arith::bitcast, bits, f32_ty)
        }
        _ => e.ir.cast(arith::extf, v, f32_ty),
    }
}

/// Two `f32`s rounded to the 8-bit float type `to`, as its `i8` bits.
fn from_f32_pair<'c>(e: &mut Emitter<'_, 'c>, to: DType, lo: Val, hi: Val) -> [Val; 2] {
    let i16_ty = e.ir.int_type(16);
    let mut asm = PtxAsm::new();
    let dst = asm.output(RegClass::B16, i16_ty);
    let a = asm.input(RegClass::F32, hi);
    let b = asm.input(RegClass::F32, lo);
    asm.instruction(
        None,
        &format!("cvt.rn.satfinite.{}x2.f32", ptx_name(to)),
        vec![
            super::ptx::Arg::Reg(dst),
            super::ptx::Arg::Reg(a),
            super::ptx::Arg::Reg(b),
        ],
    );
    let packed = asm.emit(&e.ir, false)[0];
    let i8_ty = e.ir.int_type(8);
    let low = e.ir.cast(arith::trunci, packed, i8_ty);
    let eight = e.int(i16_ty, 8);
    let high = e.ir.binary(arith::shrui, packed, eight);
    let high = e.ir.cast(arith::trunci, high, i8_ty);
    [low, high]
}
