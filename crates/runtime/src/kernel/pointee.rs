//! The element type a pointer argument points at, checked against the
//! element type the kernel reads through it.

use super::{Arg, ParamType};
use crate::ElemType;
use crate::error::{Result, RuntimeError};

/// Whether memory of Rust elements `rust` holds what a kernel pointer to
/// `dtype` (the MLIR spelling, `"f32"`, `"f8E4M3FN"`) reads: the same
/// type; for an integer dtype, an integer of its width of either
/// signedness (the kernel's integers are signless); for a float dtype, the
/// unsigned integer of its width, as raw bits (`u16` for `f16` and `bf16`,
/// as frameworks without a half type store them); for fp8 and `i1`, bytes;
/// and a buffer of `u8` for any type: raw bytes, as an allocator or a
/// framework's untyped storage hands them out. So a `Buffer<f64>` for an
/// `f32` pointer, or a `Buffer<i32>` of numbers for one, is refused.
pub fn holds(rust: ElemType, dtype: &str) -> bool {
    use ElemType::*;
    if rust == U8 {
        return true;
    }
    match dtype {
        "i1" | "i8" | "f8E4M3FN" | "f8E5M2" => matches!(rust, I8 | U8),
        "i16" => matches!(rust, I16 | U16),
        "i32" => matches!(rust, I32 | U32),
        "i64" => matches!(rust, I64 | U64),
        "f16" => matches!(rust, F16 | U16),
        "bf16" => matches!(rust, BF16 | U16),
        "f32" => matches!(rust, F32 | U32),
        "f64" => matches!(rust, F64 | U64),
        _ => false,
    }
}

/// Refuses a pointer argument whose known element type the kernel's
/// pointer cannot read ([`holds`]); `pointee` has one entry per parameter
/// (the kernel's element type for pointers, `None` otherwise) or none at
/// all (nothing known, nothing checked). Arguments are already checked
/// for count and kind.
pub fn check_pointees(
    kernel: &str,
    params: &[(String, ParamType)],
    pointee: &[Option<String>],
    args: &[Arg],
) -> Result<()> {
    for (index, ((name, _), (arg, dtype))) in
        params.iter().zip(args.iter().zip(pointee)).enumerate()
    {
        if let (
            Arg::Ptr {
                elem: Some(rust), ..
            },
            Some(dtype),
        ) = (arg, dtype)
            && !holds(*rust, dtype)
        {
            return Err(RuntimeError::BadPointee {
                kernel: kernel.to_string(),
                index,
                name: name.clone(),
                expected: dtype.clone(),
                given: *rust,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DevicePtr;
    use ElemType::*;

    #[test]
    fn same_types_same_width_integers_and_raw_float_bits_hold() {
        for (rust, dtype) in [
            (F32, "f32"),
            (F16, "f16"),
            (BF16, "bf16"),
            (F64, "f64"),
            (U8, "i8"),
            (I8, "f8E4M3FN"),
            (U8, "f8E5M2"),
            (U8, "i1"),
            (U16, "i16"),
            (U32, "i32"),
            (I64, "i64"),
            (U64, "i64"),
            (U16, "f16"),
            (U16, "bf16"),
            (U32, "f32"),
            (U64, "f64"),
            (U8, "f16"),
            (U8, "f32"),
            (U8, "i64"),
        ] {
            assert!(holds(rust, dtype), "{rust:?} for {dtype}");
        }
        for (rust, dtype) in [
            (F64, "f32"),
            (F32, "f16"),
            (F16, "bf16"),
            (I32, "f32"),
            (F32, "i32"),
            (U16, "i8"),
            (I32, "i64"),
            (I8, "f16"),
            (I16, "f16"),
            (I32, "f32"),
            (I64, "f64"),
            (BF16, "f16"),
            (F32, "f8E4M3FN"),
        ] {
            assert!(!holds(rust, dtype), "{rust:?} for {dtype}");
        }
    }

    #[test]
    fn a_buffer_of_another_type_is_refused_by_name() {
        let params = [
            ("x".to_string(), ParamType::Ptr),
            ("n".into(), ParamType::I32),
        ];
        let pointee = [Some("f32".to_string()), None];
        let ptr = |elem| Arg::Ptr {
            ptr: DevicePtr(256),
            extent_bytes: None,
            owner: None,
            elem,
        };
        let ok = [ptr(Some(F32)), Arg::I32(1)];
        check_pointees("k", &params, &pointee, &ok).unwrap();
        // Unknown element types (bare addresses) and unknown pointees pass.
        check_pointees("k", &params, &pointee, &[ptr(None), Arg::I32(1)]).unwrap();
        check_pointees("k", &params, &[], &[ptr(Some(F64)), Arg::I32(1)]).unwrap();
        let e = check_pointees("k", &params, &pointee, &[ptr(Some(F64)), Arg::I32(1)]).unwrap_err();
        assert_eq!(
            e,
            RuntimeError::BadPointee {
                kernel: "k".into(),
                index: 0,
                name: "x".into(),
                expected: "f32".into(),
                given: F64,
            }
        );
        assert_eq!(
            e.to_string(),
            "kernel `k`: argument 0 (`x`) points at f64 elements, but the kernel reads f32 through it"
        );
    }
}
