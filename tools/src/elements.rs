//! Elements of the 16-bit float types and of kernel outputs as the host
//! sees them: rounding to f16 or bf16 and back, reading one stored
//! element, and the error one rounding to a type makes.

use tile_dialect::DType;

/// The bits of `x` rounded to `d` (bf16, else f16).
pub fn to_bits(d: DType, x: f32) -> u16 {
    if d == DType::BF16 {
        half::bf16::from_f32(x).to_bits()
    } else {
        half::f16::from_f32(x).to_bits()
    }
}

/// The value of bits `b` of type `d` (bf16, else f16).
pub fn from_bits(d: DType, b: u16) -> f32 {
    if d == DType::BF16 {
        half::bf16::from_bits(b).to_f32()
    } else {
        half::f16::from_bits(b).to_f32()
    }
}

/// The value of one element of `d` stored little-endian at the start of
/// `bytes`: f16, bf16, i32, and anything else as f32.
pub fn decode(d: DType, bytes: &[u8]) -> f64 {
    match d {
        DType::F16 | DType::BF16 => {
            f64::from(from_bits(d, u16::from_le_bytes([bytes[0], bytes[1]])))
        }
        DType::I32 => f64::from(i32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])),
        _ => f64::from(f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])),
    }
}

/// The largest relative error of one rounding to `d`: half a unit in the
/// last place of f16 (2^-11) and bf16 (2^-8); 0 for the other types (their
/// outputs are compared otherwise).
pub fn rounding(d: DType) -> f64 {
    match d {
        DType::F16 => 2f64.powi(-11),
        DType::BF16 => 2f64.powi(-8),
        _ => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_round_trip_and_decode() {
        assert_eq!(from_bits(DType::F16, to_bits(DType::F16, 1.5)), 1.5);
        assert_eq!(to_bits(DType::BF16, 1.0), 0x3F80);
        assert_eq!(decode(DType::F16, &0x3E00u16.to_le_bytes()), 1.5);
        assert_eq!(decode(DType::BF16, &0xC0A0u16.to_le_bytes()), -5.0);
        assert_eq!(decode(DType::I32, &(-7i32).to_le_bytes()), -7.0);
        assert_eq!(decode(DType::F32, &2.5f32.to_le_bytes()), 2.5);
        assert_eq!(rounding(DType::BF16), 1.0 / 256.0);
        assert_eq!(rounding(DType::I32), 0.0);
    }
}
