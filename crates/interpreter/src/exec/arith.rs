//! The elementwise instructions: integer and float arithmetic, unary
//! float math, casts, comparisons and `arith.select`, on whole tensors.

use super::Launch;
use crate::float;
use crate::program::{CastOp, FloatOp, Inst, IntOp, Predicate, UnaryOp};
use crate::value::{Elems, Tensor, at, signed, unflatten, unsigned};
use std::cmp::Ordering;
use tile_dialect::DType;
use tile_runtime::{InterpretFault, Result};

impl Launch<'_> {
    /// A binary integer op, element by element; integer division by zero
    /// is a fault at the element.
    pub(super) fn int_binary(&self, inst: &Inst, op: IntOp) -> Result<Tensor> {
        let (a, d) = self.ints(inst, 0)?;
        let (b, _) = self.ints(inst, 1)?;
        let shape = self.tensor(inst, 0)?.shape.clone();
        let mut out = Vec::with_capacity(a.len());
        for (i, (&x, &y)) in a.iter().zip(b).enumerate() {
            let (sx, sy) = (signed(x, d), signed(y, d));
            let (ux, uy) = (unsigned(x, d), unsigned(y, d));
            let divides = matches!(
                op,
                IntOp::DivS
                    | IntOp::DivU
                    | IntOp::RemS
                    | IntOp::RemU
                    | IntOp::CeilDivS
                    | IntOp::FloorDivS
            );
            if divides && uy == 0 {
                return Err(self.fault(
                    inst,
                    InterpretFault::DivisionByZero {
                        index: unflatten(i, &shape),
                    },
                ));
            }
            let bits = d.bits() as u64;
            out.push(match op {
                IntOp::Add => x.wrapping_add(y),
                IntOp::Sub => x.wrapping_sub(y),
                IntOp::Mul => x.wrapping_mul(y),
                IntOp::DivS => sx.wrapping_div(sy),
                IntOp::DivU => (ux / uy) as i64,
                IntOp::RemS => sx.wrapping_rem(sy),
                IntOp::RemU => (ux % uy) as i64,
                IntOp::CeilDivS => {
                    let q = sx.wrapping_div(sy);
                    if q.wrapping_mul(sy) != sx && ((sx < 0) == (sy < 0)) {
                        q + 1
                    } else {
                        q
                    }
                }
                IntOp::FloorDivS => {
                    let q = sx.wrapping_div(sy);
                    if q.wrapping_mul(sy) != sx && ((sx < 0) != (sy < 0)) {
                        q - 1
                    } else {
                        q
                    }
                }
                IntOp::And => x & y,
                IntOp::Or => x | y,
                IntOp::Xor => x ^ y,
                IntOp::MaxS => sx.max(sy),
                IntOp::MinS => sx.min(sy),
                IntOp::MaxU => ux.max(uy) as i64,
                IntOp::MinU => ux.min(uy) as i64,
                // A shift by the width or more is poison in LLVM; the
                // interpreter gives 0 (or the sign, shifting right).
                IntOp::Shl if uy >= bits => 0,
                IntOp::Shl => x << uy,
                IntOp::ShrS if uy >= bits => {
                    if sx < 0 {
                        -1
                    } else {
                        0
                    }
                }
                IntOp::ShrS => sx >> uy,
                IntOp::ShrU if uy >= bits => 0,
                IntOp::ShrU => (ux >> uy) as i64,
            });
        }
        Ok(Tensor::ints(shape, d, out))
    }

    /// A unary float op, element by element.
    pub(super) fn unary(&self, inst: &Inst, op: UnaryOp) -> Result<Tensor> {
        let (x, d) = self.floats(inst, 0)?;
        let f = unary_fn(op);
        let shape = self.tensor(inst, 0)?.shape.clone();
        Ok(Tensor::floats(shape, d, x.iter().map(|&v| f(v)).collect()))
    }

    /// `math.absi`: wrapping, as the GPU's `abs` (the minimum stays).
    pub(super) fn abs_int(&self, inst: &Inst) -> Result<Tensor> {
        let (x, d) = self.ints(inst, 0)?;
        let shape = self.tensor(inst, 0)?.shape.clone();
        Ok(Tensor::ints(
            shape,
            d,
            x.iter().map(|&v| v.wrapping_abs()).collect(),
        ))
    }

    /// A binary float op, element by element.
    pub(super) fn float_binary(&self, inst: &Inst, op: FloatOp) -> Result<Tensor> {
        let (a, d) = self.floats(inst, 0)?;
        let (b, _) = self.floats(inst, 1)?;
        let shape = self.tensor(inst, 0)?.shape.clone();
        let f = |x: f64, y: f64| match op {
            FloatOp::Add => x + y,
            FloatOp::Sub => x - y,
            FloatOp::Mul => x * y,
            FloatOp::Div => x / y,
            FloatOp::Maximum => maximum(x, y),
            FloatOp::Minimum => -maximum(-x, -y),
            FloatOp::MaxNum => maxnum(x, y),
            FloatOp::MinNum => -maxnum(-x, -y),
        };
        Ok(Tensor::floats(
            shape,
            d,
            a.iter().zip(b).map(|(&x, &y)| f(x, y)).collect(),
        ))
    }

    /// `math.fma`: `a * b + c` rounded once to the element type.
    pub(super) fn fma(&self, inst: &Inst) -> Result<Tensor> {
        let (a, d) = self.floats(inst, 0)?;
        let (b, _) = self.floats(inst, 1)?;
        let (c, _) = self.floats(inst, 2)?;
        let shape = self.tensor(inst, 0)?.shape.clone();
        let out = a
            .iter()
            .zip(b)
            .zip(c)
            .map(|((&x, &y), &z)| fused(x, y, z, d))
            .collect();
        Ok(Tensor::floats(shape, d, out))
    }

    /// A conversion to the result type.
    pub(super) fn cast(&self, inst: &Inst, op: CastOp) -> Result<Tensor> {
        let (shape, to) = self.result(inst)?;
        let src = self.tensor(inst, 0)?;
        let from = src.dtype;
        let out = match (op, &src.elems) {
            (CastOp::Float, Elems::Float(v)) => Tensor::floats(shape, to, v.clone()),
            (CastOp::ExtS, Elems::Int(v)) => {
                Tensor::ints(shape, to, v.iter().map(|&x| signed(x, from)).collect())
            }
            (CastOp::ExtU, Elems::Int(v)) => Tensor::ints(
                shape,
                to,
                v.iter().map(|&x| unsigned(x, from) as i64).collect(),
            ),
            (CastOp::Trunc, Elems::Int(v)) => Tensor::ints(shape, to, v.clone()),
            (CastOp::SIToFP, Elems::Int(v)) => Tensor::floats(
                shape,
                to,
                v.iter()
                    .map(|&x| int_to_float(signed(x, from) as i128, to))
                    .collect(),
            ),
            (CastOp::UIToFP, Elems::Int(v)) => Tensor::floats(
                shape,
                to,
                v.iter()
                    .map(|&x| int_to_float(unsigned(x, from) as i128, to))
                    .collect(),
            ),
            (CastOp::FPToSI, Elems::Float(v)) => {
                let (lo, hi) = match to.bits() {
                    1 => (-1i128, 0),
                    b => (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1),
                };
                Tensor::ints(
                    shape,
                    to,
                    v.iter().map(|&x| float_to_int(x, lo, hi)).collect(),
                )
            }
            (CastOp::FPToUI, Elems::Float(v)) => {
                let hi = (1i128 << to.bits()) - 1;
                Tensor::ints(
                    shape,
                    to,
                    v.iter().map(|&x| float_to_int(x, 0, hi)).collect(),
                )
            }
            _ => return Err(self.malformed(inst, "cast of the wrong kind of operand")),
        };
        Ok(out)
    }

    /// `arith.cmpi`: `i1` where the predicate holds.
    pub(super) fn cmpi(&self, inst: &Inst, p: Predicate) -> Result<Tensor> {
        let (a, d) = self.ints(inst, 0)?;
        let (b, _) = self.ints(inst, 1)?;
        let shape = self.tensor(inst, 0)?.shape.clone();
        let out = a
            .iter()
            .zip(b)
            .map(|(&x, &y)| {
                let o = if p.unsigned_or_unordered {
                    unsigned(x, d).cmp(&unsigned(y, d))
                } else {
                    signed(x, d).cmp(&signed(y, d))
                };
                holds(p, o) as i64
            })
            .collect();
        Ok(Tensor::ints(shape, DType::I1, out))
    }

    /// `arith.cmpf`: `i1` where the predicate holds.
    pub(super) fn cmpf(&self, inst: &Inst, p: Predicate) -> Result<Tensor> {
        let (a, _) = self.floats(inst, 0)?;
        let (b, _) = self.floats(inst, 1)?;
        let shape = self.tensor(inst, 0)?.shape.clone();
        let out = a
            .iter()
            .zip(b)
            .map(|(&x, &y)| match x.partial_cmp(&y) {
                None => p.unsigned_or_unordered as i64,
                Some(o) => holds(p, o) as i64,
            })
            .collect();
        Ok(Tensor::ints(shape, DType::I1, out))
    }

    /// `arith.select`: operand 1 where the condition is on, else operand 2.
    pub(super) fn select(&self, inst: &Inst) -> Result<Tensor> {
        let (shape, _) = self.result(inst)?;
        let (c, _) = self.ints(inst, 0)?;
        let a = self.tensor(inst, 1)?;
        let b = self.tensor(inst, 2)?;
        let n = shape.iter().product::<usize>();
        let pick = |i: usize| (c[at(c.len(), i)] & 1) != 0;
        let elems = match (&a.elems, &b.elems) {
            (Elems::Int(x), Elems::Int(y)) => Elems::Int(choose(n, pick, x, y)),
            (Elems::Float(x), Elems::Float(y)) => Elems::Float(choose(n, pick, x, y)),
            (Elems::Ptr(x), Elems::Ptr(y)) => Elems::Ptr(choose(n, pick, x, y)),
            _ => return Err(self.malformed(inst, "select between different kinds")),
        };
        Ok(Tensor {
            shape,
            dtype: a.dtype,
            elems,
        })
    }
}

/// Element `i` of `x` where `pick(i)`, else of `y` (either may be a
/// scalar, standing for all `n`).
fn choose<T: Copy>(n: usize, pick: impl Fn(usize) -> bool, x: &[T], y: &[T]) -> Vec<T> {
    (0..n)
        .map(|i| {
            if pick(i) {
                x[at(x.len(), i)]
            } else {
                y[at(y.len(), i)]
            }
        })
        .collect()
}

/// True when predicate `p` holds for ordering `o`.
fn holds(p: Predicate, o: Ordering) -> bool {
    match o {
        Ordering::Less => p.lt,
        Ordering::Equal => p.eq,
        Ordering::Greater => p.gt,
    }
}

/// IEEE 754 `maximum`: a NaN operand gives NaN, and +0 is above -0.
pub fn maximum(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else if x == y {
        if x.is_sign_negative() { y } else { x }
    } else {
        x.max(y)
    }
}

/// `maxnum`: a NaN operand loses to a number.
pub fn maxnum(x: f64, y: f64) -> f64 {
    if x.is_nan() {
        y
    } else if y.is_nan() {
        x
    } else {
        maximum(x, y)
    }
}

fn unary_fn(op: UnaryOp) -> fn(f64) -> f64 {
    match op {
        UnaryOp::Neg => |x| -x,
        UnaryOp::Abs => f64::abs,
        UnaryOp::Exp => |x| flush_below_normal(x.exp()),
        UnaryOp::Exp2 => |x| flush_below_normal(x.exp2()),
        UnaryOp::Log => f64::ln,
        UnaryOp::Log2 => f64::log2,
        UnaryOp::Sqrt => f64::sqrt,
        UnaryOp::Rsqrt => |x| 1.0 / x.sqrt(),
        UnaryOp::Sin => f64::sin,
        UnaryOp::Cos => f64::cos,
        UnaryOp::Tanh => f64::tanh,
        UnaryOp::Erf => libm::erf,
        UnaryOp::Floor => f64::floor,
        UnaryOp::Ceil => f64::ceil,
    }
}

/// `x * y + z` for values of float type `d`, as an f64 that rounds to
/// the correctly rounded result in `d` (what `fma.rn` gives). f64 operands
/// use `mul_add`. Narrower ones multiply exactly in f64 (24-bit
/// significands at most); the sum is rounded to odd (an inexact result
/// keeps an odd last bit), so that rounding it once more to `d`, 29 or
/// more bits narrower, is the single rounding of the exact value.
fn fused(x: f64, y: f64, z: f64, d: DType) -> f64 {
    if d == DType::F64 {
        return x.mul_add(y, z);
    }
    let p = x * y;
    let s = p + z;
    if !s.is_finite() {
        return s;
    }
    // TwoSum: the exact sum is s + err.
    let bp = s - p;
    let err = (p - (s - bp)) + (z - bp);
    if err == 0.0 || s.to_bits() & 1 == 1 {
        return s;
    }
    // The neighbour of `s` towards the exact sum has an odd last bit.
    let toward = if (err > 0.0) == (s > 0.0) { 1i64 } else { -1 };
    if s == 0.0 {
        return err.signum() * f64::from_bits(1);
    }
    f64::from_bits((s.to_bits() as i64 + toward) as u64)
}

/// `y`, or 0 when it is below the smallest normal f32: the GPU computes
/// `exp` and `exp2` with `ex2.approx.ftz.f32`, which flushes subnormal
/// results to zero (as Triton's do).
fn flush_below_normal(y: f64) -> f64 {
    if y < f64::from(f32::MIN_POSITIVE) {
        0.0
    } else {
        y
    }
}

/// An integer converted to float type `d`, rounded once.
fn int_to_float(v: i128, d: DType) -> f64 {
    match d {
        DType::F32 => v as f32 as f64,
        _ => float::round(v as f64, d),
    }
}

/// A float converted towards zero to an integer in `[lo, hi]`, saturating;
/// NaN gives 0 (what `cvt.rzi` does on the GPU).
fn float_to_int(x: f64, lo: i128, hi: i128) -> i64 {
    if x.is_nan() {
        return 0;
    }
    let t = x.trunc();
    if t <= lo as f64 {
        lo as i64
    } else if t >= hi as f64 {
        hi as i64
    } else {
        t as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maximum_propagates_nan_and_orders_zeros() {
        assert!(maximum(1.0, f64::NAN).is_nan());
        assert_eq!(maximum(-0.0, 0.0).to_bits(), 0f64.to_bits());
        assert_eq!(maximum(0.0, -0.0).to_bits(), 0f64.to_bits());
        assert_eq!((-maximum(0.0, -0.0)).to_bits(), (-0f64).to_bits());
        assert_eq!(maxnum(f64::NAN, 2.0), 2.0);
        assert!(maxnum(f64::NAN, f64::NAN).is_nan());
    }

    #[test]
    fn fused_multiply_add_rounds_once() {
        // (1 + 2^-23)(1 - 2^-24) + 2^-47 + 2^-70 = 1 + 2^-24 + 2^-70: just
        // above the tie between two f32 neighbours, so it rounds up; rounded
        // to f64 first it would sit on the tie and go to even (1.0).
        let (x, y) = (1.0 + 2f64.powi(-23), 1.0 - 2f64.powi(-24));
        let z = 2f64.powi(-47) + 2f64.powi(-70);
        assert_eq!((x * y + z) as f32, 1.0);
        assert_eq!(fused(x, y, z, DType::F32) as f32, 1.0 + 2f32.powi(-23));
        // Exact results stay exact, cancellation included.
        assert_eq!(fused(3.0, 0.5, 0.25, DType::F32), 1.75);
        assert_eq!(fused(x, x, -1.0, DType::F32) as f32, 2f32.powi(-22));
        assert_eq!(fused(2.0, 3.0, 1.0, DType::F64), 7.0);
        assert!(fused(f64::INFINITY, 0.0, 1.0, DType::F32).is_nan());
    }

    #[test]
    fn float_to_int_saturates_like_cvt_rzi() {
        assert_eq!(
            float_to_int(1e10, i32::MIN as i128, i32::MAX as i128),
            i32::MAX as i64
        );
        assert_eq!(float_to_int(-2.7, i32::MIN as i128, i32::MAX as i128), -2);
        assert_eq!(float_to_int(f64::NAN, 0, 255), 0);
        assert_eq!(float_to_int(-3.0, 0, 255), 0);
    }
}
