//! The types of kernel parameters.

use std::fmt;

/// The type of one kernel parameter, as the PTX entry declares it.
///
/// | type | PTX parameter |
/// | --- | --- |
/// | `Ptr` | `.u64` (a global address) |
/// | `I32` | `.u32` / `.s32` |
/// | `I64` | `.u64` / `.s64` |
/// | `F32` | `.f32` |
/// | `F16`, `BF16` | `.b16` |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ParamType {
    /// A device pointer.
    Ptr,
    /// A 32-bit integer.
    I32,
    /// A 64-bit integer.
    I64,
    /// An IEEE single-precision float.
    F32,
    /// An IEEE half-precision float.
    F16,
    /// A bfloat16.
    BF16,
}

impl ParamType {
    /// Size of the parameter in bytes, as the kernel reads it.
    pub fn size_bytes(self) -> usize {
        match self {
            ParamType::Ptr | ParamType::I64 => 8,
            ParamType::I32 | ParamType::F32 => 4,
            ParamType::F16 | ParamType::BF16 => 2,
        }
    }

    /// The type named as [`Display`](fmt::Display) writes it (`"ptr"`,
    /// `"i32"`, ...).
    pub fn from_name(name: &str) -> Option<ParamType> {
        Some(match name {
            "ptr" => ParamType::Ptr,
            "i32" => ParamType::I32,
            "i64" => ParamType::I64,
            "f32" => ParamType::F32,
            "f16" => ParamType::F16,
            "bf16" => ParamType::BF16,
            _ => return None,
        })
    }

    /// The type with an article, for messages (`"a pointer"`, `"an i32"`).
    pub fn describe(self) -> &'static str {
        match self {
            ParamType::Ptr => "a pointer",
            ParamType::I32 => "an i32",
            ParamType::I64 => "an i64",
            ParamType::F32 => "an f32",
            ParamType::F16 => "an f16",
            ParamType::BF16 => "a bf16",
        }
    }
}

impl fmt::Display for ParamType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ParamType::Ptr => "ptr",
            ParamType::I32 => "i32",
            ParamType::I64 => "i64",
            ParamType::F32 => "f32",
            ParamType::F16 => "f16",
            ParamType::BF16 => "bf16",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn param_sizes() {
        assert_eq!(ParamType::Ptr.size_bytes(), 8);
        assert_eq!(ParamType::I32.size_bytes(), 4);
        assert_eq!(ParamType::BF16.size_bytes(), 2);
    }
}
