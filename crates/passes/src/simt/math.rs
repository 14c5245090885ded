//! Float math without libdevice, once per register: LLVM intrinsic calls
//! and PTX approximations, as [`tile_dialect::float_math`] decides.

use super::builder::Val;
use super::emit::Emitter;
use super::ptx::{Arg, PtxAsm, RegClass};
use crate::pass::{PassError, PassResult};
use melior::dialect::arith;
use melior::dialect::arith::CmpfPredicate;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value};
use tile_dialect::DType;
use tile_dialect::float_math::{
    Composite, ERF_BIG, ERF_CENTER, ERF_P, ERF_Q, ERF_SMALL, NativeMath, TANH_CLAMP, TANH_P,
    TANH_SMALL, WHY_NOT, approximate_math, is_float_math, native_math,
};
use tile_dialect::view::op_name;

/// True for the ops [`lower`] emits or refuses.
pub fn handles(name: &str) -> bool {
    is_float_math(name)
}

/// `math.absi` as `llvm.abs` (`abs.s32`; the absolute value of the most
/// negative integer is itself, as in two's complement, not poison).
/// `convert-gpu-to-nvvm` would call libdevice's `__nv_abs`.
pub fn integer_abs<'c>(e: &mut Emitter<'_, 'c>, op: &OperationRef<'c, '_>) -> PassResult {
    let i1 = e.reg_type(DType::I1);
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
    let (ty, name) = (e.reg_type(to), name(to, from));
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

/// True for an op marked `fastmath<afn>` (approximate functions allowed).
fn is_marked_approximate(op: &OperationRef<'_, '_>) -> bool {
    op.attribute("fastmath")
        .is_ok_and(|a| a.to_string().contains("afn"))
}

/// True for an `arith.divf` marked `fastmath<afn>` (`Tile::div_approx`).
pub fn is_approximate_division(op: &OperationRef<'_, '_>) -> bool {
    op_name(op) == "arith.divf" && is_marked_approximate(op)
}

/// `arith.divf` marked `fastmath<afn>` as `div.full.f32` once per
/// register (2 ulp; f16 and bf16 operands widened to f32 and the quotient
/// rounded back). LLVM drops the flag on the way and emits `div.rn`.
pub fn approximate_division<'c>(e: &mut Emitter<'_, 'c>, op: &OperationRef<'c, '_>) -> PassResult {
    let result: Value = op
        .result(0)
        .map_err(|_| PassError::at(op, "has no result"))?
        .into();
    let d = e.dtype(result, op)?;
    if !matches!(d, DType::F16 | DType::BF16 | DType::F32) {
        return Err(PassError::at(
            op,
            format!("approximate division on {d}: only f16, bf16 and f32"),
        ));
    }
    let f32 = e.reg_type(DType::F32);
    let operands: Vec<Value> = op.operands().collect();
    let n = e.registers(result, op)?;
    let mut out = Vec::with_capacity(n.unwrap_or(1));
    for r in 0..n.unwrap_or(1) {
        let args: Vec<Val> = operands
            .iter()
            .map(|&v| e.reg(v, r, op))
            .collect::<Result<_, _>>()?;
        out.push(in_f32(e, d, &args, |e, x| {
            let mut asm = PtxAsm::new();
            let dst = asm.output(RegClass::F32, f32);
            let a = asm.input(RegClass::F32, x[0]);
            let b = asm.input(RegClass::F32, x[1]);
            asm.instruction(
                None,
                "div.full.f32",
                vec![Arg::Reg(dst), Arg::Reg(a), Arg::Reg(b)],
            );
            asm.emit(&e.ir, false)[0]
        }));
    }
    e.set_like(result, out);
    Ok(())
}

/// Emits float math op `op` once per register.
pub fn lower<'c>(e: &mut Emitter<'_, 'c>, op: &OperationRef<'c, '_>) -> PassResult {
    let name = op_name(op);
    let result: Value = op
        .result(0)
        .map_err(|_| PassError::at(op, "has no result"))?
        .into();
    let d = e.dtype(result, op)?;
    let marked = is_marked_approximate(op);
    let how = marked
        .then(|| approximate_math(name, d))
        .flatten()
        .or_else(|| native_math(name, d))
        .ok_or_else(|| PassError::at(op, format!("on {d} {WHY_NOT}")))?;
    let ty = e.reg_type(d);
    let f32 = e.reg_type(DType::F32);
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
            NativeMath::Composite(kind) => in_f32(e, d, &args, |e, x| match kind {
                Composite::Tanh => tanh(e, x[0]),
                Composite::Erf => erf(e, x[0]),
            }),
            NativeMath::Approx { ptx, scale, post } => in_f32(e, d, &args, |e, x| {
                let mut x = x[0];
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
                y
            }),
        });
    }
    e.set_like(result, out);
    Ok(())
}

/// `compute` on `args` (of float type `d`) in f32: f16 and bf16 operands
/// widened first and the result rounded back to `d`.
fn in_f32<'c>(
    e: &mut Emitter<'_, 'c>,
    d: DType,
    args: &[Val],
    compute: impl FnOnce(&mut Emitter<'_, 'c>, &[Val]) -> Val,
) -> Val {
    if d == DType::F32 {
        return compute(e, args);
    }
    let (f32, ty) = (e.reg_type(DType::F32), e.reg_type(d));
    let wide: Vec<Val> = args
        .iter()
        .map(|&x| e.ir.cast(arith::extf, x, f32))
        .collect();
    let y = compute(e, &wide);
    e.ir.cast(arith::truncf, y, ty)
}

/// `f32` helpers for the composite functions: constants, fused
/// multiply-adds and `ex2.approx`.
struct F32Ops<'e, 'a, 'c> {
    e: &'e mut Emitter<'a, 'c>,
}

impl<'c> F32Ops<'_, '_, 'c> {
    fn ty(&self) -> melior::ir::Type<'c> {
        self.e.reg_type(DType::F32)
    }

    fn k(&mut self, v: f32) -> Val {
        let ty = self.ty();
        self.e.float(ty, f64::from(v))
    }

    fn call(&mut self, name: &str, args: &[Val]) -> Val {
        let ty = self.ty();
        self.e.ir.intrinsic(name, args, ty)
    }

    fn mul(&mut self, a: Val, b: Val) -> Val {
        self.e.ir.binary(arith::mulf, a, b)
    }

    fn fma(&mut self, a: Val, b: Val, c: Val) -> Val {
        self.call("llvm.fma.f32", &[a, b, c])
    }

    /// `coefficients[0] + s (coefficients[1] + s (...))`, by fused
    /// multiply-adds.
    fn horner(&mut self, coefficients: &[f32], s: Val) -> Val {
        let (&last, rest) = coefficients
            .split_last()
            .expect("a polynomial has coefficients");
        let mut acc = self.k(last);
        for &c in rest.iter().rev() {
            let c = self.k(c);
            acc = self.fma(acc, s, c);
        }
        acc
    }

    /// `2^x` by `ex2.approx.ftz.f32` (2 ulp).
    fn exp2(&mut self, x: Val) -> Val {
        self.approx("ex2.approx.ftz.f32", x)
    }

    /// `1 / x` within 1 ulp (`rcp.approx.ftz.f32`: one instruction where
    /// the correctly rounded `div.rn` is a sequence with a slow path).
    fn reciprocal(&mut self, x: Val) -> Val {
        self.approx("rcp.approx.ftz.f32", x)
    }

    fn approx(&mut self, instruction: &str, x: Val) -> Val {
        let f32 = self.ty();
        let mut asm = PtxAsm::new();
        let dst = asm.output(RegClass::F32, f32);
        let src = asm.input(RegClass::F32, x);
        asm.unary(instruction, dst, src);
        asm.emit(&self.e.ir, false)[0]
    }

    /// `small` where `|x| < bound`, else `big` with the sign of `x`; `x`
    /// itself where it is NaN (the clamp of `|x|` by `minnum` would make
    /// it a number).
    fn by_size(&mut self, x: Val, abs: Val, bound: f32, small: Val, big: Val) -> Val {
        let bound = self.k(bound);
        let is_small = self.e.ir.cmpf(CmpfPredicate::Olt, abs, bound);
        let big = self.call("llvm.copysign.f32", &[big, x]);
        let y = self.e.ir.select(is_small, small, big);
        let is_nan = self.e.ir.cmpf(CmpfPredicate::Uno, x, x);
        self.e.ir.select(is_nan, x, y)
    }
}

/// `tanh(x)` of an f32 `x`: `x + x^3 P(x^2)` below [`TANH_SMALL`], else
/// `1 - 2 / (2^(2|x| log2 e) + 1)` with the sign of `x` (`|x|` clamped at
/// [`TANH_CLAMP`], so that infinities give 1); NaN stays NaN. The quotient
/// is `2 rcp.approx(d)` (within 1 ulp; `d` lies in [4.4, 2^29], far from
/// subnormal reciprocals): where it is used the result is at least 0.55,
/// so the quotient's error adds under half an ulp of it.
fn tanh(e: &mut Emitter<'_, '_>, x: Val) -> Val {
    let mut f = F32Ops { e };
    let s = f.mul(x, x);
    let p = f.horner(&TANH_P, s);
    let x3 = f.mul(x, s);
    let small = f.fma(x3, p, x);
    let abs = f.call("llvm.fabs.f32", &[x]);
    let clamp = f.k(TANH_CLAMP);
    let a = f.call("llvm.minnum.f32", &[abs, clamp]);
    let scale = f.k(2.0 * std::f32::consts::LOG2_E);
    let y = f.mul(a, scale);
    let e2 = f.exp2(y);
    let one = f.k(1.0);
    let two = f.k(2.0);
    let denominator = f.e.ir.binary(arith::addf, e2, one);
    let reciprocal = f.reciprocal(denominator);
    let quotient = f.mul(two, reciprocal);
    let big = f.e.ir.binary(arith::subf, one, quotient);
    f.by_size(x, abs, TANH_SMALL, small, big)
}

/// `erf(x)` of an f32 `x`: `x P(x^2)` below [`ERF_SMALL`], else
/// `1 - 2^(-x^2 log2 e) Q(|x| - ERF_CENTER)` with the sign of `x` (`|x|`
/// clamped at [`ERF_BIG`], where it is 1). NaN stays NaN.
fn erf(e: &mut Emitter<'_, '_>, x: Val) -> Val {
    let mut f = F32Ops { e };
    let s = f.mul(x, x);
    let p = f.horner(&ERF_P, s);
    let small = f.mul(x, p);
    let abs = f.call("llvm.fabs.f32", &[x]);
    let clamp = f.k(ERF_BIG);
    let a = f.call("llvm.minnum.f32", &[abs, clamp]);
    let center = f.k(ERF_CENTER);
    let t = f.e.ir.binary(arith::subf, a, center);
    let q = f.horner(&ERF_Q, t);
    let a2 = f.mul(a, a);
    let minus_log2_e = f.k(-std::f32::consts::LOG2_E);
    let y = f.mul(a2, minus_log2_e);
    let decay = f.exp2(y);
    let one = f.k(1.0);
    let product = f.mul(decay, q);
    let big = f.e.ir.binary(arith::subf, one, product);
    f.by_size(x, abs, ERF_SMALL, small, big)
}
