//! Float formats: rounding an `f64` to the precision of a narrower type,
//! and the bit patterns of each type in memory.
//!
//! The interpreter holds every float as an `f64` whose value is exactly
//! representable in the value's own type, and rounds after each operation.
//! For `+ - * /` and `sqrt` of `f32` (and narrower) operands this gives the
//! correctly rounded result: `f64` carries more than twice the bits plus
//! two, so the double rounding is innocuous.
//!
//! The bit patterns of `f16` and `bf16` are `half`'s; the rounding is ours:
//! `half`'s conversions from `f64` keep only the top 20 bits of the
//! significand before they round, so a value just above a halfway point
//! can round down (see the test `rounding_keeps_the_sticky_bits`).
//!
//! ```
//! use tile_dialect::DType;
//! use tile_interpreter::float::round;
//!
//! assert_eq!(round(65519.0, DType::F16), 65504.0);
//! assert_eq!(round(65520.0, DType::F16), f64::INFINITY);
//! // Ties go to even: 1 + 2^-8 is halfway between two bf16 values.
//! assert_eq!(round(1.0 + 2f64.powi(-8), DType::BF16), 1.0);
//! ```

use half::{bf16, f16};
use tile_dialect::{DType, fp8};

/// The largest finite `f16`.
const F16_MAX: f64 = 65504.0;
/// The largest finite `bf16`.
const BF16_MAX: f64 = 3.389_531_389_251_535_5e38;

/// Rounds `x` to the nearest value of float type `d` (ties to even),
/// overflowing to infinity as IEEE 754 says; the 8-bit floats saturate
/// instead (see [`DType::is_fp8`]: beyond the largest finite value, and
/// infinities, become that value with their sign). Integer types are not
/// floats: `x` is returned as it is.
pub fn round(x: f64, d: DType) -> f64 {
    match d {
        DType::F64 => x,
        DType::F32 => x as f32 as f64,
        DType::F16 => round_narrow(x, 10, -14, F16_MAX),
        DType::BF16 => round_narrow(x, 7, -126, BF16_MAX),
        DType::F8E4M3 | DType::F8E5M2 => fp8::round(d, x),
        _ => x,
    }
}

/// Rounds `x` to a binary format with `mantissa` explicit bits, smallest
/// normal exponent `emin` and largest finite value `max`.
fn round_narrow(x: f64, mantissa: i32, emin: i32, max: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let exponent = ((x.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let quantum = 2f64.powi(exponent.max(emin) - mantissa);
    // Dividing by a power of two is exact, so this rounds exactly once.
    let r = (x / quantum).round_ties_even() * quantum;
    if r.abs() > max {
        f64::INFINITY.copysign(x)
    } else {
        r
    }
}

/// The bytes an element of type `d` takes in memory (an `i1` takes one).
pub fn size_of(d: DType) -> u64 {
    match d {
        DType::I1 | DType::I8 | DType::F8E4M3 | DType::F8E5M2 => 1,
        DType::I16 | DType::F16 | DType::BF16 => 2,
        DType::I32 | DType::F32 => 4,
        DType::I64 | DType::F64 => 8,
    }
}

/// The value of the float of type `d` stored as `bytes` (little-endian).
pub fn float_from_bytes(d: DType, bytes: &[u8]) -> f64 {
    match d {
        DType::F64 => f64::from_le_bytes(bytes.try_into().expect("8 bytes")),
        DType::F32 => f32::from_le_bytes(bytes.try_into().expect("4 bytes")) as f64,
        DType::BF16 => bf16::from_le_bytes(bytes.try_into().expect("2 bytes")).to_f64(),
        DType::F16 => f16::from_le_bytes(bytes.try_into().expect("2 bytes")).to_f64(),
        DType::F8E4M3 | DType::F8E5M2 => fp8::decode(d, bytes[0]),
        _ => unreachable!("{d} is not a float"),
    }
}

/// Writes `x` (exactly representable in `d`, so that the conversion does
/// not round) as a float of type `d`.
pub fn float_to_bytes(d: DType, x: f64, out: &mut [u8]) {
    match d {
        DType::F64 => out.copy_from_slice(&x.to_le_bytes()),
        DType::F32 => out.copy_from_slice(&(x as f32).to_le_bytes()),
        DType::BF16 => out.copy_from_slice(&bf16::from_f64(x).to_le_bytes()),
        DType::F16 => out.copy_from_slice(&f16::from_f64(x).to_le_bytes()),
        DType::F8E4M3 | DType::F8E5M2 => out[0] = fp8::bits(d, x),
        _ => unreachable!("{d} is not a float"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f32_rounding_matches_the_hardware_conversion() {
        for x in [0.1f64, 1.0 / 3.0, 1e300, -2.5e-45, 16777217.0] {
            assert_eq!(round(x, DType::F32), x as f32 as f64);
        }
    }

    #[test]
    fn bf16_rounds_to_nearest_even_and_overflows_to_infinity() {
        // 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: ties go to 1.
        assert_eq!(round(1.0 + 2f64.powi(-8), DType::BF16), 1.0);
        // 1 + 3 * 2^-8 lies halfway between 1 + 2^-7 and 1 + 2^-6: to even.
        assert_eq!(
            round(1.0 + 3.0 * 2f64.powi(-8), DType::BF16),
            1.0 + 2f64.powi(-6)
        );
        assert_eq!(
            round(1.0 + 2f64.powi(-8) + 2f64.powi(-20), DType::BF16),
            1.0078125
        );
        assert_eq!(round(f32::MAX as f64, DType::BF16), f64::INFINITY);
        assert_eq!(round(-3.39e38, DType::BF16), -3.3895313892515355e38);
        assert_eq!(round(3.3e38, DType::BF16), 3.2964854295465914e38);
    }

    #[test]
    fn f16_rounds_subnormals_and_overflows_at_65520() {
        assert_eq!(round(65519.0, DType::F16), 65504.0);
        assert_eq!(round(65520.0, DType::F16), f64::INFINITY);
        assert_eq!(round(2f64.powi(-25), DType::F16), 0.0);
        assert_eq!(round(3.0 * 2f64.powi(-25), DType::F16), 2f64.powi(-23));
        assert_eq!(round(0.1, DType::F16), f16::from_bits(0x2e66).to_f64());
    }

    #[test]
    fn memory_round_trips_every_float_type() {
        for d in [DType::F16, DType::BF16, DType::F32, DType::F64] {
            for x in [0.0, -0.0, 1.5, -65504.0, 2f64.powi(-24), f64::INFINITY] {
                let v = round(x, d);
                let mut bytes = vec![0u8; size_of(d) as usize];
                float_to_bytes(d, v, &mut bytes);
                let back = float_from_bytes(d, &bytes);
                assert_eq!(back.to_bits(), v.to_bits(), "{d} {x}");
            }
            let mut bytes = vec![0u8; size_of(d) as usize];
            float_to_bytes(d, f64::NAN, &mut bytes);
            assert!(float_from_bytes(d, &bytes).is_nan());
        }
        // Every f16 and bf16 that is not a NaN survives the round trip.
        for h in 0u16..=0xffff {
            for (d, v) in [
                (DType::F16, f16::from_bits(h).to_f64()),
                (DType::BF16, bf16::from_bits(h).to_f64()),
            ] {
                if !v.is_nan() {
                    let mut bytes = [0u8; 2];
                    float_to_bytes(d, v, &mut bytes);
                    assert_eq!(u16::from_le_bytes(bytes), h, "{d} {h:#x}");
                }
            }
        }
    }

    #[test]
    fn rounding_keeps_the_sticky_bits() {
        // 1 + 2^-8 + 2^-40 lies just above the midpoint of 1 and 1 + 2^-7
        // (bf16), and 1 + 2^-11 + 2^-40 just above that of 1 and 1 + 2^-10
        // (f16): both round up. `half` drops the 2^-40 and rounds to even.
        let bf = 1.0 + 2f64.powi(-8) + 2f64.powi(-40);
        assert_eq!(round(bf, DType::BF16), 1.0 + 2f64.powi(-7));
        assert_eq!(bf16::from_f64(bf).to_f64(), 1.0);
        let h = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
        assert_eq!(round(h, DType::F16), 1.0 + 2f64.powi(-10));
    }
}
