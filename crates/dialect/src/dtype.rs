//! Element types of tiles and pointers.

use std::fmt;
use std::str::FromStr;

/// A scalar element type: what a pointer points at and what tensors hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    /// A boolean (masks, comparisons).
    I1,
    /// 8-bit signless integer.
    I8,
    /// 16-bit signless integer.
    I16,
    /// 32-bit signless integer (program ids, offsets).
    I32,
    /// 64-bit signless integer (shapes, strides).
    I64,
    /// IEEE half precision.
    F16,
    /// bfloat16.
    BF16,
    /// IEEE single precision.
    F32,
    /// IEEE double precision.
    F64,
    /// 8-bit float, 4 exponent and 3 mantissa bits, no infinities
    /// (`f8E4M3FN`, Triton's `float8e4nv`): finite to ±448, NaN at
    /// `0x7f`/`0xff`.
    F8E4M3,
    /// 8-bit float, 5 exponent and 2 mantissa bits (`f8E5M2`, Triton's
    /// `float8e5`): finite to ±57344, with infinities and NaNs.
    F8E5M2,
}

impl DType {
    /// Every element type, in a fixed order.
    pub const ALL: [DType; 11] = [
        DType::I1,
        DType::I8,
        DType::I16,
        DType::I32,
        DType::I64,
        DType::F16,
        DType::BF16,
        DType::F32,
        DType::F64,
        DType::F8E4M3,
        DType::F8E5M2,
    ];

    /// The types arithmetic applies to: every type but the 8-bit floats,
    /// which are only stored, loaded, moved and converted (see
    /// [`DType::is_fp8`]).
    pub const ARITHMETIC: [DType; 9] = [
        DType::I1,
        DType::I8,
        DType::I16,
        DType::I32,
        DType::I64,
        DType::F16,
        DType::BF16,
        DType::F32,
        DType::F64,
    ];

    /// True for the float types, the 8-bit ones included.
    pub fn is_float(self) -> bool {
        matches!(
            self,
            DType::F16 | DType::BF16 | DType::F32 | DType::F64 | DType::F8E4M3 | DType::F8E5M2
        )
    }

    /// True for the 8-bit floats. As in Triton, they are a storage format:
    /// loads, stores, `where`, shape ops and conversions (`to`) take them;
    /// arithmetic, comparisons, reductions and atomics do not (convert to
    /// `f16` or `f32` first). Conversions to them round to nearest even
    /// and saturate: a value beyond the largest finite one, infinities
    /// included, becomes that value with its sign; NaN stays NaN.
    pub fn is_fp8(self) -> bool {
        matches!(self, DType::F8E4M3 | DType::F8E5M2)
    }

    /// True for the signless integer types, i1 included.
    pub fn is_integer(self) -> bool {
        !self.is_float()
    }

    /// Width in bits.
    pub fn bits(self) -> u32 {
        match self {
            DType::I1 => 1,
            DType::I8 | DType::F8E4M3 | DType::F8E5M2 => 8,
            DType::I16 | DType::F16 | DType::BF16 => 16,
            DType::I32 | DType::F32 => 32,
            DType::I64 | DType::F64 => 64,
        }
    }

    /// The MLIR spelling (`f32`, `i64`, ...).
    pub fn mlir_name(self) -> &'static str {
        match self {
            DType::I1 => "i1",
            DType::I8 => "i8",
            DType::I16 => "i16",
            DType::I32 => "i32",
            DType::I64 => "i64",
            DType::F16 => "f16",
            DType::BF16 => "bf16",
            DType::F32 => "f32",
            DType::F64 => "f64",
            DType::F8E4M3 => "f8E4M3FN",
            DType::F8E5M2 => "f8E5M2",
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mlir_name())
    }
}

impl FromStr for DType {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DType::ALL
            .into_iter()
            .find(|d| d.mlir_name() == s)
            .ok_or_else(|| format!("`{s}` is not a tile element type"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for d in DType::ALL {
            assert_eq!(d.mlir_name().parse::<DType>(), Ok(d));
        }
        assert!("index".parse::<DType>().is_err());
    }

    #[test]
    fn classes_and_widths() {
        assert!(DType::BF16.is_float() && !DType::BF16.is_integer());
        assert!(DType::I1.is_integer());
        assert_eq!(DType::BF16.bits(), 16);
        assert_eq!(DType::I64.bits(), 64);
        assert!(DType::F8E4M3.is_float() && DType::F8E4M3.is_fp8());
        assert_eq!(DType::F8E5M2.bits(), 8);
        assert!(!DType::ARITHMETIC.iter().any(|d| d.is_fp8()));
    }
}
