//! `tile.dot`: the matrix product `acc + a @ b`.
//!
//! Every output element starts from its accumulator and takes the terms
//! `a[m, k] * b[k, n]` in order of `k`:
//!
//! - f16 and bf16 inputs: each product is exact in f32's range of bits and
//!   each addition rounds to f32;
//! - f32 inputs, `tf32`: both inputs are first cut to TF32 (10 mantissa
//!   bits, the low 13 dropped: what tensor cores read of an f32 operand, so
//!   the inputs can go to them as they are stored), then as above;
//! - f32 inputs, `tf32x3`: each input is split into a TF32 high part and the
//!   TF32 rounding of its remainder, both rounded to nearest (ties away from
//!   zero: PTX `cvt.rna.tf32.f32`); the term `hi*hi + hi*lo + lo*hi` is
//!   formed exactly and added with one f32 rounding;
//! - f32 inputs, `ieee`: one fused multiply-add in f32 per term;
//! - i8 inputs: exact products summed in i32, wrapping.
//!
//! Tensor cores add a few products at a time with their own internal
//! precision and order, so float results agree with the GPU within a bound,
//! not bit for bit.
//!
//! ```
//! use tile_interpreter::dot::{tf32, tf32_rounded};
//!
//! // TF32 keeps 10 bits of significand: `tf32` precision drops the rest,
//! // `tf32x3`'s parts round to nearest, ties away.
//! assert_eq!(tf32(1.0 + 2f64.powi(-11)), 1.0);
//! assert_eq!(tf32_rounded(1.0 + 2f64.powi(-11)), 1.0 + 2f64.powi(-10));
//! assert_eq!(tf32_rounded(1.0 + 2f64.powi(-12)), 1.0);
//! ```

use crate::float;
use crate::value::{Elems, Tensor, wrap};
use tile_dialect::{DType, InputPrecision};

/// `acc + a @ b` for `a` [M, K], `b` [K, N] and `acc` [M, N] (shapes
/// checked by the verifier).
pub fn dot(a: &Tensor, b: &Tensor, acc: &Tensor, precision: InputPrecision) -> Tensor {
    let (m, k, n) = (a.shape[0], a.shape[1], b.shape[1]);
    let elems = match (&a.elems, &b.elems, &acc.elems) {
        (Elems::Float(x), Elems::Float(y), Elems::Float(c)) => {
            let term = term_of(a.dtype, precision);
            let mut out = c.clone();
            for (i, row) in out.chunks_mut(n).enumerate() {
                for (j, o) in row.iter_mut().enumerate() {
                    let mut s = *o as f32;
                    for kk in 0..k {
                        s = term(s, x[i * k + kk], y[kk * n + j]);
                    }
                    *o = f64::from(s);
                }
            }
            Elems::Float(out)
        }
        (Elems::Int(x), Elems::Int(y), Elems::Int(c)) => {
            let mut out = c.clone();
            for (i, row) in out.chunks_mut(n).enumerate() {
                for (j, o) in row.iter_mut().enumerate() {
                    let mut s = *o;
                    for kk in 0..k {
                        s = wrap(s.wrapping_add(x[i * k + kk] * y[kk * n + j]), DType::I32);
                    }
                    *o = s;
                }
            }
            Elems::Int(out)
        }
        _ => unreachable!("the verifier checks the operand types of tile.dot"),
    };
    debug_assert_eq!(elems.len(), m * n);
    Tensor {
        shape: acc.shape.clone(),
        dtype: acc.dtype,
        elems,
    }
}

/// How one term joins the running f32 sum, for inputs of type `d`.
fn term_of(d: DType, precision: InputPrecision) -> fn(f32, f64, f64) -> f32 {
    match (d, precision) {
        (DType::F32, InputPrecision::Tf32) => |s, x, y| add(s, tf32(x) * tf32(y)),
        (DType::F32, InputPrecision::Tf32x3) => |s, x, y| {
            let (xh, xl) = split(x);
            let (yh, yl) = split(y);
            // Each product has at most 22 significant bits: the sum of
            // three is exact in f64 unless their exponents are far apart,
            // where the smaller ones fall below f32's precision anyway.
            add(s, xh * yh + (xh * yl + xl * yh))
        },
        (DType::F32, InputPrecision::Ieee) => |s, x, y| (x as f32).mul_add(y as f32, s),
        // f16 and bf16 products are exact in f64, and the sum rounds once.
        _ => |s, x, y| add(s, x * y),
    }
}

/// `s + t` rounded to f32 (`t` exact in f64).
fn add(s: f32, t: f64) -> f32 {
    float::round(f64::from(s) + t, DType::F32) as f32
}

/// `x` (an f32 value) as tensor cores read it as a TF32 operand: the low 13
/// bits of its significand dropped (towards zero). Infinities and NaN stay.
pub fn tf32(x: f64) -> f64 {
    let f = x as f32;
    if !f.is_finite() {
        return x;
    }
    f64::from(f32::from_bits(f.to_bits() & !0x1fff))
}

/// `x` (an f32 value) rounded to TF32: to nearest, ties away from zero,
/// as `cvt.rna.tf32.f32`. Infinities and NaN stay.
pub fn tf32_rounded(x: f64) -> f64 {
    let f = x as f32;
    if !f.is_finite() {
        return x;
    }
    let bits = (f.to_bits() + 0x1000) & !0x1fff;
    f64::from(f32::from_bits(bits))
}

/// `x` as a TF32 high part and the TF32 rounding of what remains.
fn split(x: f64) -> (f64, f64) {
    let hi = tf32_rounded(x);
    if !hi.is_finite() {
        return (hi, 0.0);
    }
    (hi, tf32_rounded(x - hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn floats(shape: &[usize], d: DType, v: Vec<f64>) -> Tensor {
        Tensor::floats(shape.to_vec(), d, v)
    }

    #[test]
    fn tf32_drops_and_tf32x3_rounds_to_ten_bits_ties_away() {
        assert_eq!(tf32(1.0), 1.0);
        // The low 13 bits go, whatever they hold, towards zero.
        let below_two = 2.0 - 2f64.powi(-23);
        assert_eq!(tf32(below_two), 2.0 - 2f64.powi(-10));
        assert_eq!(tf32(-below_two), -(2.0 - 2f64.powi(-10)));
        assert_eq!(tf32_rounded(below_two), 2.0);
        // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: away from zero.
        assert_eq!(tf32_rounded(1.0 + 2f64.powi(-11)), 1.0 + 2f64.powi(-10));
        assert_eq!(
            tf32_rounded(-(1.0 + 2f64.powi(-11))),
            -(1.0 + 2f64.powi(-10))
        );
        assert_eq!(tf32_rounded(1.0 + 2f64.powi(-12)), 1.0);
        for f in [tf32, tf32_rounded] {
            assert!(f(f64::NAN).is_nan());
            assert_eq!(f(f64::INFINITY), f64::INFINITY);
        }
        let (hi, lo) = split(1.0 + 2f64.powi(-11) + 2f64.powi(-20));
        assert_eq!(hi, 1.0 + 2f64.powi(-10));
        assert_eq!(hi + lo, 1.0 + 2f64.powi(-11) + 2f64.powi(-20));
    }

    #[test]
    fn products_accumulate_in_order_of_k() {
        // [1 2; 3 4] @ [5 6; 7 8] + 1 = [20 23; 44 51].
        let a = floats(&[2, 2], DType::F16, vec![1.0, 2.0, 3.0, 4.0]);
        let b = floats(&[2, 2], DType::F16, vec![5.0, 6.0, 7.0, 8.0]);
        let c = floats(&[2, 2], DType::F32, vec![1.0; 4]);
        let r = dot(&a, &b, &c, InputPrecision::Ieee);
        assert_eq!(r.elems, Elems::Float(vec![20.0, 23.0, 44.0, 51.0]));
        // In f32, 2^24 + 1 - 2^24 loses the 1 when the terms come in order.
        let a = floats(&[1, 3], DType::F32, vec![16777216.0, 1.0, -16777216.0]);
        let b = floats(&[3, 1], DType::F32, vec![1.0; 3]);
        let c = floats(&[1, 1], DType::F32, vec![0.0]);
        let r = dot(&a, &b, &c, InputPrecision::Ieee);
        assert_eq!(r.elems, Elems::Float(vec![0.0]));
    }

    #[test]
    fn tf32_loses_what_tf32x3_keeps() {
        let x = 1.0 + 2f64.powi(-20);
        let a = floats(&[1, 1], DType::F32, vec![x]);
        let b = floats(&[1, 1], DType::F32, vec![1.0]);
        let c = floats(&[1, 1], DType::F32, vec![0.0]);
        let coarse = dot(&a, &b, &c, InputPrecision::Tf32);
        assert_eq!(coarse.elems, Elems::Float(vec![1.0]));
        let fine = dot(&a, &b, &c, InputPrecision::Tf32x3);
        assert_eq!(fine.elems, Elems::Float(vec![x]));
    }

    #[test]
    fn int8_products_wrap_in_i32() {
        let a = Tensor::ints(vec![1, 2], DType::I8, vec![-128, 127]);
        let b = Tensor::ints(vec![2, 1], DType::I8, vec![-128, 127]);
        let c = Tensor::ints(vec![1, 1], DType::I32, vec![i64::from(i32::MAX)]);
        let r = dot(&a, &b, &c, InputPrecision::Ieee);
        let want = wrap(i64::from(i32::MAX) + 128 * 128 + 127 * 127, DType::I32);
        assert_eq!(r.elems, Elems::Int(vec![want]));
    }
}
