//! The arithmetic of register values: bits held in a `u64`, read through
//! an instruction's type.
//!
//! Floats: `f32`/`f64` operations round to nearest even as IEEE 754 says
//! (`.rn`, the only mode the decoder accepts for them); `f16` and `bf16`
//! are computed exactly in `f64` and rounded once to their type (exact:
//! `f64` has more than twice their precision plus two bits). `.ftz`
//! flushes `f32` subnormal inputs and results to zero of the same sign.
//! NaN results are PTX's canonical NaN (`0x7fffffff` for `f32`).
//!
//! The `.approx` instructions are computed as the exact function in `f64`
//! rounded to nearest `f32` (`ex2`, `lg2`, `tanh`, `sin`, `cos`, `rsqrt`,
//! `rcp.approx`). The GPU's results differ from these references by its
//! documented error (PTX ISA 8.x): `ex2.approx.f32` at most 2 ulp,
//! `lg2.approx.f32` 2^-22.6 absolute in [0.5, 2] else 4 ulp relative,
//! `rsqrt.approx`/`rcp.approx` 1 ulp, `tanh.approx.f32` 2^-10.987
//! relative, `sin`/`cos.approx` 2^-20.5 absolute in [-pi, pi]. Tests
//! comparing against a GPU must allow those bounds; tests comparing against
//! the tile interpreter (which rounds `exp` etc. correctly from `f64`)
//! must allow the error of the compiler's expansion (`exp(x)` as
//! `ex2(x * log2 e)` rounds the product first: a relative error up to
//! `|x| * 2^-23`, a few ulp at the sizes the tests use).

use crate::decode::{Kind, Ty};

/// The canonical `f32` NaN.
pub const NAN32: u32 = 0x7fff_ffff;

/// The low `bits` bits of `v`.
pub fn mask(v: u64, bits: u32) -> u64 {
    if bits >= 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    }
}

/// `v`'s low `bits` bits, sign-extended.
pub fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
}

/// A float value of type `ty` from its bits, as `f64` (exact).
pub fn to_f64(v: u64, ty: Ty) -> f64 {
    match (ty.kind, ty.bits) {
        (Kind::BFloat, _) => half::bf16::from_bits(v as u16).to_f64(),
        (_, 16) => half::f16::from_bits(v as u16).to_f64(),
        (_, 32) => f64::from(f32::from_bits(v as u32)),
        _ => f64::from_bits(v),
    }
}

/// `x` rounded to nearest even in type `ty`, as bits (canonical NaN).
pub fn from_f64(x: f64, ty: Ty) -> u64 {
    match (ty.kind, ty.bits) {
        (Kind::BFloat, _) => {
            if x.is_nan() {
                0x7fff
            } else {
                u64::from(half::bf16::from_f64(x).to_bits())
            }
        }
        (_, 16) => {
            if x.is_nan() {
                0x7fff
            } else {
                u64::from(half::f16::from_f64(x).to_bits())
            }
        }
        (_, 32) => {
            if x.is_nan() {
                u64::from(NAN32)
            } else {
                u64::from((x as f32).to_bits())
            }
        }
        _ => {
            if x.is_nan() {
                0x7fff_ffff_ffff_ffff
            } else {
                x.to_bits()
            }
        }
    }
}

/// Flushes an `f32` subnormal (as bits) to zero of its sign, when `ftz`.
pub fn flush(v: u64, ty: Ty, ftz: bool) -> u64 {
    if ftz && ty.kind == Kind::Float && ty.bits == 32 {
        let b = v as u32;
        if b & 0x7f80_0000 == 0 {
            return u64::from(b & 0x8000_0000);
        }
    }
    v
}

/// Reads a value of type `ty` from register bits as an `i128` (integers,
/// signed or not per the kind) for exact integer arithmetic.
pub fn int(v: u64, ty: Ty) -> i128 {
    match ty.kind {
        Kind::Signed => i128::from(sext(v, ty.bits)),
        _ => i128::from(mask(v, ty.bits)),
    }
}

/// `f64` `min`/`max` as PTX computes them: a NaN operand yields the other
/// (both NaN: NaN) unless `nan` (`.NaN`: NaN wins); `-0` is below `+0`.
pub fn min_max(a: f64, b: f64, max: bool, nan: bool) -> f64 {
    if a.is_nan() || b.is_nan() {
        return if nan || (a.is_nan() && b.is_nan()) {
            f64::NAN
        } else if a.is_nan() {
            b
        } else {
            a
        };
    }
    if a == b {
        // Equal, or +0 against -0.
        let pick_neg = !max;
        return if a.is_sign_negative() == pick_neg {
            a
        } else {
            b
        };
    }
    if (a < b) == max { b } else { a }
}

/// `f32` fused multiply-add, rounded once.
pub fn fma32(a: f32, b: f32, c: f32) -> f32 {
    a.mul_add(b, c)
}
