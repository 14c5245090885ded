//! The limits every kernel is held to, checked when it is built and when
//! tile IR is parsed, so that no program makes compilation run out of
//! memory, time or stack, and no literal silently changes value.
//!
//! - Tiles hold at most [`MAX_TILE_ELEMENTS`] elements (2^20, as Triton).
//! - Regions nest at most [`MAX_NESTING_DEPTH`] deep (the kernel body is
//!   depth 1, a loop in it depth 2); parsed text at most 256 brackets of
//!   every kind together, and [`MAX_SOURCE_BYTES`] long.
//! - The tile limit holds for every type: results, block arguments (a
//!   kernel's arguments, a loop's) and function signatures.
//! - A literal must be a value of its element type: integers within the
//!   width, floats finite after rounding (infinities and NaN stay allowed).
//!
//! ```
//! use tile_dialect::{DType, limits};
//!
//! assert!(limits::check_tile(&[1024, 1024]).is_ok()); // 2^20 elements
//! assert!(limits::check_tile(&[2048, 1024]).is_err());
//! assert!(limits::check_literal(65504.0, DType::F16).is_ok());
//! assert!(limits::check_literal(1e10, DType::F16).is_err()); // rounds to inf
//! assert!(!limits::int_fits(300, DType::I8));
//! ```

use crate::DType;
use crate::error::Rule;

/// The most elements one tile may hold: 2^20, as Triton.
pub const MAX_TILE_ELEMENTS: u64 = 1 << 20;

/// The most pipeline stages a loop may ask for (`for_range_staged`, the
/// loop attribute `tile.loop_stages`), as the module option allows.
pub const MAX_NUM_STAGES: u32 = 8;

/// The most bytes of MLIR text parsed at once (`tile-opt`'s input,
/// `parse_module`): 8 MiB, over a hundred times the largest kernel's
/// tile IR, and parsed in seconds (MLIR took 117 s over 50 MB).
pub const MAX_SOURCE_BYTES: usize = 8 << 20;

/// How deep regions may nest: the kernel body is depth 1, a loop in it
/// depth 2. Compilation runs on a stack sized for this depth.
pub const MAX_NESTING_DEPTH: usize = 64;

/// The number of elements of `shape`, or `None` when a dimension is
/// negative or the product overflows `u64`.
pub fn elements(shape: &[i64]) -> Option<u64> {
    shape.iter().try_fold(1u64, |n, &d| {
        u64::try_from(d).ok().and_then(|d| n.checked_mul(d))
    })
}

/// Checks that a tile of `shape` is within [`MAX_TILE_ELEMENTS`].
pub fn check_tile(shape: &[i64]) -> Result<(), Rule> {
    match elements(shape) {
        Some(n) if n <= MAX_TILE_ELEMENTS => Ok(()),
        _ => Err(Rule::TileTooLarge {
            shape: shape.to_vec(),
        }),
    }
}

/// Checks that regions nested `depth` deep are within [`MAX_NESTING_DEPTH`].
pub fn check_depth(depth: usize) -> Result<(), Rule> {
    if depth <= MAX_NESTING_DEPTH {
        Ok(())
    } else {
        Err(Rule::TooDeep { depth })
    }
}

/// True when the integer literal `v` is a value of `d`: for an integer
/// type, signed or unsigned within the width (-1, 0 or 1 for i1, as MLIR's
/// parser accepts it); for a float type, finite after rounding.
pub fn int_fits(v: i64, d: DType) -> bool {
    if d.is_float() {
        return float_fits(v as f64, d);
    }
    let bits = d.bits();
    if bits >= 64 {
        return true;
    }
    let low = -(1i128 << (bits - 1));
    (low..(1i128 << bits)).contains(&i128::from(v))
}

/// True when the float literal `v` is a value of the float type `d`:
/// infinities and NaN always are, a finite `v` when it stays finite after
/// rounding to `d` (1e10 is not an f16: it would become infinity).
pub fn float_fits(v: f64, d: DType) -> bool {
    if !v.is_finite() {
        // f8E4M3FN has a NaN but no infinities.
        return d.is_float() && (d != DType::F8E4M3 || v.is_nan());
    }
    match d {
        DType::F8E4M3 => v.abs() <= 448.0,
        DType::F8E5M2 => v.abs() <= 57344.0,
        DType::F16 => half::f16::from_f64(v).is_finite(),
        DType::BF16 => half::bf16::from_f64(v).is_finite(),
        DType::F32 => (v as f32).is_finite(),
        DType::F64 => true,
        _ => {
            v.fract() == 0.0 && v >= i64::MIN as f64 && v < i64::MAX as f64 && int_fits(v as i64, d)
        }
    }
}

/// Checks a literal of `d` given as an `f64` (a padding value, a float
/// constant): see [`float_fits`].
pub fn check_literal(v: f64, d: DType) -> Result<(), Rule> {
    if float_fits(v, d) {
        Ok(())
    } else {
        Err(Rule::LiteralOutOfRange {
            value: v.to_string(),
            dtype: d,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_counts_saturate_instead_of_overflowing() {
        assert_eq!(elements(&[1 << 10, 1 << 10]), Some(1 << 20));
        assert_eq!(elements(&[1 << 40, 1 << 40]), None);
        assert_eq!(elements(&[-1]), None);
        assert!(check_tile(&[1 << 20]).is_ok());
        assert!(check_tile(&[1 << 62]).is_err());
        assert!(check_tile(&[2, 1 << 20]).is_err());
    }

    #[test]
    fn literals_must_survive_rounding_to_their_type() {
        assert!(float_fits(65504.0, DType::F16));
        assert!(float_fits(65519.0, DType::F16), "rounds down to 65504");
        assert!(!float_fits(65520.0, DType::F16), "rounds up to infinity");
        assert!(!float_fits(1e10, DType::F16));
        assert!(float_fits(1e10, DType::BF16));
        assert!(!float_fits(1e300, DType::F32));
        assert!(float_fits(f64::INFINITY, DType::F16));
        assert!(float_fits(f64::NAN, DType::BF16));
        assert!(!float_fits(f64::NAN, DType::I32));
        assert!(float_fits(127.0, DType::I8) && float_fits(255.0, DType::I8));
        assert!(!float_fits(256.0, DType::I8) && !float_fits(0.5, DType::I8));
        assert!(int_fits(-1, DType::I1) && !int_fits(2, DType::I1));
        assert!(!int_fits(100_000, DType::F16) && int_fits(60_000, DType::F16));
    }
}
