//! Float formats: rounding an `f64` to the precision of a narrower type,
//! and the bit patterns of each type in memory.
//!
//! The interpreter holds every float as an `f64` whose value is exactly
//! representable in the value's own type, and rounds after each operation.
//! For `+ - * /` and `sqrt` of `f32` (and narrower) operands this gives the
//! correctly rounded result: `f64` carries more than twice the bits plus
//! two, so the double rounding is innocuous.

use tile_dialect::DType;

/// The largest finite `f16`.
const F16_MAX: f64 = 65504.0;
/// The largest finite `bf16`.
const BF16_MAX: f64 = 3.389_531_389_251_535_5e38;

/// Rounds `x` to the nearest value of float type `d` (ties to even),
/// overflowing to infinity as IEEE 754 says. Integer types are not floats:
/// `x` is returned as it is.
pub fn round(x: f64, d: DType) -> f64 {
    match d {
        DType::F64 => x,
        DType::F32 => x as f32 as f64,
        DType::F16 => round_narrow(x, 10, -14, F16_MAX),
        DType::BF16 => round_narrow(x, 7, -126, BF16_MAX),
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
        DType::I1 | DType::I8 => 1,
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
        DType::BF16 => {
            let bits = u16::from_le_bytes(bytes.try_into().expect("2 bytes"));
            f32::from_bits((bits as u32) << 16) as f64
        }
        DType::F16 => f16_to_f64(u16::from_le_bytes(bytes.try_into().expect("2 bytes"))),
        _ => unreachable!("{d} is not a float"),
    }
}

/// Writes `x` (exactly representable in `d`) as a float of type `d`.
pub fn float_to_bytes(d: DType, x: f64, out: &mut [u8]) {
    match d {
        DType::F64 => out.copy_from_slice(&x.to_le_bytes()),
        DType::F32 => out.copy_from_slice(&(x as f32).to_le_bytes()),
        DType::BF16 => {
            let bits = if x.is_nan() {
                0x7fc0
            } else {
                ((x as f32).to_bits() >> 16) as u16
            };
            out.copy_from_slice(&bits.to_le_bytes());
        }
        DType::F16 => out.copy_from_slice(&f64_to_f16(x).to_le_bytes()),
        _ => unreachable!("{d} is not a float"),
    }
}

/// The value of the `f16` with bits `h`.
pub fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = ((h >> 10) & 0x1f) as i32;
    let fraction = (h & 0x3ff) as f64;
    sign * match exponent {
        0 => fraction * 2f64.powi(-24),
        31 if fraction == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1.0 + fraction / 1024.0) * 2f64.powi(e - 15),
    }
}

/// The bits of the `f16` equal to `x`, which must be representable (a NaN
/// becomes the quiet NaN `0x7e00`).
pub fn f64_to_f16(x: f64) -> u16 {
    let sign: u16 = if x.is_sign_negative() { 0x8000 } else { 0 };
    let a = x.abs();
    if x.is_nan() {
        return 0x7e00;
    }
    if a.is_infinite() {
        return sign | 0x7c00;
    }
    if a < 2f64.powi(-14) {
        return sign | (a / 2f64.powi(-24)) as u16;
    }
    let exponent = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let fraction = ((a / 2f64.powi(exponent) - 1.0) * 1024.0) as u16;
    sign | (((exponent + 15) as u16) << 10) | fraction
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
        assert_eq!(round(0.1, DType::F16), f16_to_f64(0x2e66));
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
        // Every f16 bit pattern that is not a NaN survives the round trip.
        for h in 0u16..=0xffff {
            let v = f16_to_f64(h);
            if !v.is_nan() {
                assert_eq!(f64_to_f16(v), h, "{h:#x}");
            }
        }
    }
}
