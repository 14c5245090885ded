//! The rules of compiler hints: `multiple_of`, `max_contiguous` and
//! `max_constancy` on the value an op computes (Triton's hints of the
//! same names), recorded as attributes of that op.

use super::R;
use crate::error::Rule;
use crate::ops::Hint;
use crate::types::{Elem, TileType};

/// The largest value a hint may state.
pub const MAX_HINT: i64 = 1 << 30;

/// A hint on a value of type `ty`: the value is an integer or a pointer
/// (scalar or tensor), and `values` holds one entry per axis (one for a
/// scalar), each from 1 to [`MAX_HINT`]; a contiguity or constancy no
/// longer than its axis.
pub fn hint(hint: Hint, ty: &TileType, values: &[i64]) -> R<()> {
    let integral = match ty.elem() {
        Some(Elem::Num(d)) => !d.is_float() && d.bits() > 1,
        Some(Elem::Ptr(_)) => true,
        None => false,
    };
    if !integral {
        return Err(Rule::HintType {
            hint: hint.name(),
            ty: ty.to_string(),
        });
    }
    let shape = ty.shape();
    let bad = || Rule::HintValues {
        hint: hint.name(),
        values: values.to_vec(),
        shape: shape.to_vec(),
    };
    if values.len() != shape.len().max(1) || values.iter().any(|&v| !(1..=MAX_HINT).contains(&v)) {
        return Err(bad());
    }
    if hint != Hint::MultipleOf && values.iter().zip(shape).any(|(&v, &extent)| v > extent) {
        return Err(bad());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DType;

    #[test]
    fn hints_take_integers_and_pointers_one_value_an_axis() {
        let offs = TileType::tensor(&[64, 32], Elem::Num(DType::I32));
        assert!(hint(Hint::MultipleOf, &offs, &[16, 1]).is_ok());
        assert!(hint(Hint::MaxContiguous, &offs, &[1, 32]).is_ok());
        assert!(
            hint(Hint::MaxContiguous, &offs, &[1, 64]).is_err(),
            "longer than the axis"
        );
        assert!(
            hint(Hint::MultipleOf, &offs, &[16]).is_err(),
            "one value for two axes"
        );
        assert!(hint(Hint::MultipleOf, &offs, &[0, 1]).is_err());
        assert!(hint(Hint::MultipleOf, &offs, &[1 << 31, 1]).is_err());
        let stride = TileType::scalar(DType::I64);
        assert!(hint(Hint::MultipleOf, &stride, &[8]).is_ok());
        let ptrs = TileType::tensor(&[128], Elem::Ptr(DType::F16));
        assert!(hint(Hint::MaxConstancy, &ptrs, &[128]).is_ok());
        let floats = TileType::tensor(&[128], Elem::Num(DType::F32));
        assert!(matches!(
            hint(Hint::MultipleOf, &floats, &[16]),
            Err(Rule::HintType { .. })
        ));
        let mask = TileType::tensor(&[128], Elem::Num(DType::I1));
        assert!(hint(Hint::MaxConstancy, &mask, &[16]).is_err());
    }
}
