//! The two 8-bit float formats ([`DType::F8E4M3`], [`DType::F8E5M2`]):
//! their values, bit patterns, and the saturating round to nearest even
//! that conversions to them use (see [`DType::is_fp8`]).
//!
//! ```
//! use tile_dialect::{DType, fp8};
//!
//! assert_eq!(fp8::decode(DType::F8E4M3, 0x7e), 448.0);
//! assert_eq!(fp8::round(DType::F8E4M3, 1000.0), 448.0);
//! assert_eq!(fp8::encode(DType::F8E5M2, 1.0), 0x3c);
//! ```

use crate::DType;

/// The largest finite value of an 8-bit float type (448 for `f8E4M3FN`,
/// 57344 for `f8E5M2`).
pub fn max(d: DType) -> f64 {
    match d {
        DType::F8E4M3 => 448.0,
        _ => 57344.0,
    }
}

/// Explicit mantissa bits and exponent bias.
fn format(d: DType) -> (u32, i32) {
    match d {
        DType::F8E4M3 => (3, 7),
        _ => (2, 15),
    }
}

/// The value of the 8-bit float of type `d` with bits `b`.
pub fn decode(d: DType, b: u8) -> f64 {
    let (mantissa, bias) = format(d);
    let sign = if b & 0x80 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((b & 0x7f) >> mantissa);
    let man = f64::from(b & ((1 << mantissa) - 1));
    let top = (1 << (7 - mantissa)) - 1;
    let one = f64::from(1u32 << mantissa);
    match d {
        DType::F8E4M3 if b & 0x7f == 0x7f => f64::NAN,
        DType::F8E5M2 if exp == top && man == 0.0 => sign * f64::INFINITY,
        DType::F8E5M2 if exp == top => f64::NAN,
        _ if exp == 0 => sign * man / one * 2f64.powi(1 - bias),
        _ => sign * (1.0 + man / one) * 2f64.powi(exp - bias),
    }
}

/// `x` rounded to the nearest value of type `d`, ties to even, saturating:
/// beyond the largest finite value (infinities included) becomes that
/// value with `x`'s sign; NaN stays NaN.
pub fn round(d: DType, x: f64) -> f64 {
    if x.is_nan() || x == 0.0 {
        return x;
    }
    let limit = max(d);
    if x.is_infinite() {
        return limit.copysign(x);
    }
    let (mantissa, bias) = format(d);
    let exponent = ((x.abs().to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let quantum = 2f64.powi(exponent.max(1 - bias) - mantissa as i32);
    // Dividing by a power of two is exact, so this rounds exactly once.
    let r = (x / quantum).round_ties_even() * quantum;
    if r.abs() > limit {
        limit.copysign(x)
    } else {
        r
    }
}

/// The bits of `x` rounded to type `d` (see [`round`]); NaN is `0x7f`.
pub fn encode(d: DType, x: f64) -> u8 {
    bits(d, round(d, x))
}

/// The bits of `x`, a value of type `d` (an infinity only for `f8E5M2`).
pub fn bits(d: DType, x: f64) -> u8 {
    if x.is_nan() {
        return 0x7f;
    }
    let sign: u8 = if x.is_sign_negative() { 0x80 } else { 0 };
    let a = x.abs();
    if a.is_infinite() {
        return sign | 0x7c;
    }
    if a == 0.0 {
        return sign;
    }
    let (mantissa, bias) = format(d);
    let one = f64::from(1u32 << mantissa);
    // `a` is a normal f64: its exponent is in its bits.
    let exponent = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    if exponent < 1 - bias {
        return sign | (a / 2f64.powi(1 - bias) * one) as u8;
    }
    let m = ((a / 2f64.powi(exponent) - 1.0) * one) as u8;
    sign | (((exponent + bias) as u8) << mantissa) | m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_round_trips() {
        for d in [DType::F8E4M3, DType::F8E5M2] {
            for b in 0..=255u8 {
                let x = decode(d, b);
                if x.is_nan() {
                    continue;
                }
                assert_eq!(bits(d, x), b, "{d} {b:#04x} = {x}");
                if x.is_finite() {
                    assert_eq!(round(d, x).to_bits(), x.to_bits(), "{d} {x}");
                }
            }
        }
        assert_eq!(decode(DType::F8E4M3, 0x01), 2f64.powi(-9));
        assert_eq!(decode(DType::F8E4M3, 0x38), 1.0);
        assert_eq!(decode(DType::F8E5M2, 0x7b), 57344.0);
        assert_eq!(decode(DType::F8E5M2, 0xfc), f64::NEG_INFINITY);
        assert_eq!(decode(DType::F8E5M2, 0x01), 2f64.powi(-16));
    }

    #[test]
    fn rounding_is_to_nearest_even_and_saturates() {
        let e4 = DType::F8E4M3;
        // 1 + 1/16 is halfway between 1 and 1 + 1/8.
        assert_eq!(round(e4, 1.0625), 1.0);
        assert_eq!(round(e4, 1.0 + 3.0 / 16.0), 1.25);
        assert_eq!(round(e4, 464.0), 448.0);
        assert_eq!(round(e4, 1e9), 448.0);
        assert_eq!(round(e4, f64::NEG_INFINITY), -448.0);
        assert!(round(e4, f64::NAN).is_nan());
        // Half the smallest subnormal ties to zero; 3/2 of it to 2.
        assert_eq!(round(e4, 2f64.powi(-10)), 0.0);
        assert_eq!(round(e4, 3.0 * 2f64.powi(-10)), 2f64.powi(-8));
        let e5 = DType::F8E5M2;
        assert_eq!(round(e5, 61440.0), 57344.0);
        assert_eq!(round(e5, f64::INFINITY), 57344.0);
        assert_eq!(round(e5, 1.125), 1.0);
        assert_eq!(round(e5, 1.375), 1.5);
        assert_eq!(encode(e5, -2.0), 0xc0);
    }
}
