//! The element type a pointer argument points at, checked against the
//! element type the kernel reads through it.

use super::{Arg, ParamType};
use crate::ElemType;
use crate::error::{Result, RuntimeError};

/// Whether memory of Rust elements `rust` holds
/// what a kernel pointer to `dtype` (the MLIR spelling, `"f32"`,
/// `"f8E4M3FN"`) reads: the same type, or an integer of the same width
/// either signedness (the kernel's integers are signless), or bytes for
/// fp8 and `i1`.
pub fn holds(rust: ElemType, dtype: &str) -> bool {
    let rust = rust.name();
    let bytes = matches!(rust, "u8" | "i8");
    match dtype {
        "i8" | "i1" | "f8E4M3FN" | "f8E5M2" => bytes,
        "i16" => matches!(rust, "i16" | "u16"),
        "i32" => matches!(rust, "i32" | "u32"),
        "i64" => matches!(rust, "i64" | "u64"),
        other => rust == other,
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
    fn same_types_and_same_width_integers_hold() {
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
            (U8, "f16"),
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
