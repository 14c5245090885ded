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
}

impl DType {
    /// Every element type, in a fixed order.
    pub const ALL: [DType; 9] = [
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

    /// True for f16, bf16, f32 and f64.
    pub fn is_float(self) -> bool {
        matches!(self, DType::F16 | DType::BF16 | DType::F32 | DType::F64)
    }

    /// True for the signless integer types, i1 included.
    pub fn is_integer(self) -> bool {
        !self.is_float()
    }

    /// Width in bits.
    pub fn bits(self) -> u32 {
        match self {
            DType::I1 => 1,
            DType::I8 => 8,
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
    }
}
