//! The typing rules of tile IR, one function per op.
//!
//! Each function takes the operand types (and the attributes that shape the
//! result) and returns the result type or the [`Rule`] broken. The kernel
//! builder calls them before creating an op, so invalid IR never reaches
//! MLIR; the verifier calls them on parsed IR, so `tile-opt` rejects what the
//! builder would.

use crate::DType;
use crate::error::Rule;
use crate::ops::{AtomicKind, CacheModifier, InputPrecision, Padding, ReduceKind};
use crate::types::{Elem, TileType};

type R<T> = Result<T, Rule>;

mod debug;
mod hint;
mod shape;
pub use debug::{assert, print};
pub use hint::{MAX_HINT, hint};
pub use shape::{cat, join, permute, reshape, split};

/// True for a positive power of two.
pub fn is_pow2(d: i64) -> bool {
    d > 0 && (d & (d - 1)) == 0
}

/// The numpy-style broadcast of two shapes (aligned at the last axis), or
/// `None` when some axis pair differs with neither equal to 1.
pub fn broadcast_shapes(a: &[i64], b: &[i64]) -> Option<Vec<i64>> {
    let rank = a.len().max(b.len());
    let pad = |s: &[i64], i: usize| {
        let lead = rank - s.len();
        if i < lead { 1 } else { s[i - lead] }
    };
    (0..rank)
        .map(|i| match (pad(a, i), pad(b, i)) {
            (x, y) if x == y => Some(x),
            (1, y) => Some(y),
            (x, 1) => Some(x),
            _ => None,
        })
        .collect()
}

/// True when `from` broadcasts to exactly `to`.
pub fn broadcasts_to(from: &[i64], to: &[i64]) -> bool {
    from.len() <= to.len() && broadcast_shapes(from, to).as_deref() == Some(to)
}

fn check_axes(what: &'static str, axes: &[i64], rank: usize) -> R<()> {
    for (i, &a) in axes.iter().enumerate() {
        if a < 0 || a as usize >= rank {
            return Err(Rule::AxisOutOfRange {
                what,
                axis: a,
                rank,
            });
        }
        if axes[..i].contains(&a) {
            return Err(Rule::DuplicateAxis { what, axis: a });
        }
    }
    Ok(())
}

fn check_pow2(what: &'static str, dims: &[i64]) -> R<()> {
    if dims.iter().all(|&d| is_pow2(d)) {
        Ok(())
    } else {
        Err(Rule::NotPowerOfTwo {
            what,
            dims: dims.to_vec(),
        })
    }
}

fn tensor_operand(what: &'static str, t: &TileType) -> R<(Vec<i64>, Elem)> {
    match t {
        TileType::Tensor { shape, elem } if !shape.is_empty() => Ok((shape.clone(), *elem)),
        _ => Err(Rule::WrongOperand {
            what,
            expected: "a tensor",
            found: t.to_string(),
        }),
    }
}

/// `tile.program_id` / `tile.num_programs`: axis 0, 1 or 2; an i32 result.
pub fn program_id(axis: i64) -> R<TileType> {
    check_axes("grid", &[axis], 3)?;
    Ok(TileType::scalar(DType::I32))
}

/// `tile.arange`: a non-empty power-of-two range within i32.
pub fn arange(start: i64, end: i64) -> R<TileType> {
    let fits = |v: i64| i32::try_from(v).is_ok();
    if !(fits(start) && fits(end) && end > start && is_pow2(end - start)) {
        return Err(Rule::BadRange { start, end });
    }
    crate::limits::check_tile(&[end - start])?;
    Ok(TileType::tensor(&[end - start], Elem::Num(DType::I32)))
}

/// The shape of a tensor created from nothing (`full`, `zeros`).
pub fn tensor_shape(what: &'static str, shape: &[i64]) -> R<()> {
    if shape.is_empty() {
        return Err(Rule::NotPowerOfTwo { what, dims: vec![] });
    }
    check_pow2(what, shape)?;
    crate::limits::check_tile(shape)
}

/// `tile.splat`: a scalar number or pointer to a tensor of `shape`.
pub fn splat(src: &TileType, shape: &[i64]) -> R<TileType> {
    match src {
        TileType::Tensor { shape: s, elem } if s.is_empty() => {
            tensor_shape("splat shape", shape)?;
            Ok(TileType::tensor(shape, *elem))
        }
        _ => Err(Rule::WrongOperand {
            what: "splat source",
            expected: "a scalar",
            found: src.to_string(),
        }),
    }
}

/// `tile.broadcast`: same rank; each axis equal or growing from 1.
pub fn broadcast(src: &TileType, shape: &[i64]) -> R<TileType> {
    let (from, elem) = tensor_operand("broadcast source", src)?;
    if from.len() != shape.len() || !broadcasts_to(&from, shape) {
        return Err(Rule::ImpossibleBroadcast {
            from,
            to: shape.to_vec(),
        });
    }
    Ok(TileType::tensor(shape, elem))
}

/// `tile.expand_dims`: insert an axis of size 1 at `axis` (0..=rank).
pub fn expand_dims(src: &TileType, axis: i64) -> R<TileType> {
    let (mut shape, elem) = tensor_operand("expand_dims source", src)?;
    check_axes("expand_dims", &[axis], shape.len() + 1)?;
    shape.insert(axis as usize, 1);
    Ok(TileType::tensor(&shape, elem))
}

/// `tile.addptr`: pointers plus i32/i64 offsets of the same shape.
pub fn addptr(ptr: &TileType, offset: &TileType) -> R<TileType> {
    if !matches!(ptr.elem(), Some(Elem::Ptr(_))) {
        return Err(Rule::WrongOperand {
            what: "addptr base",
            expected: "a pointer or a tensor of pointers",
            found: ptr.to_string(),
        });
    }
    if !matches!(offset.num(), Some(DType::I32 | DType::I64)) {
        return Err(Rule::WrongOperand {
            what: "addptr offset",
            expected: "i32 or i64 (scalar or tensor)",
            found: offset.to_string(),
        });
    }
    if ptr.shape() != offset.shape() {
        return Err(Rule::ShapeMismatch {
            lhs: ptr.shape().to_vec(),
            rhs: offset.shape().to_vec(),
        });
    }
    Ok(ptr.clone())
}

fn pointee(what: &'static str, ptr: &TileType) -> R<DType> {
    match ptr {
        TileType::Tensor {
            elem: Elem::Ptr(d), ..
        } => Ok(*d),
        TileType::BlockPtr { .. } => Err(Rule::WrongOperand {
            what,
            expected: "a pointer or a tensor of pointers",
            found: ptr.to_string(),
        }),
        _ => Err(Rule::WrongOperand {
            what,
            expected: "a pointer, a tensor of pointers or a block pointer",
            found: ptr.to_string(),
        }),
    }
}

fn check_mask(ptr: &TileType, mask: Option<&TileType>) -> R<()> {
    let Some(mask) = mask else { return Ok(()) };
    if mask.num() != Some(DType::I1) {
        return Err(Rule::WrongOperand {
            what: "mask",
            expected: "i1 (a comparison result)",
            found: mask.to_string(),
        });
    }
    if mask.shape() != ptr.shape() {
        return Err(Rule::MaskNotBroadcastable {
            mask: mask.shape().to_vec(),
            ptr: ptr.shape().to_vec(),
        });
    }
    Ok(())
}

/// `tile.load` through a pointer or tensor of pointers: `mask` (i1) and
/// `other` (the pointee type) exactly of the pointer's shape.
pub fn load(
    ptr: &TileType,
    mask: Option<&TileType>,
    other: Option<&TileType>,
    cache: CacheModifier,
) -> R<TileType> {
    let d = pointee("load pointer", ptr)?;
    check_mask(ptr, mask)?;
    let result = ptr.with_elem(Elem::Num(d));
    if let Some(other) = other {
        if mask.is_none() {
            return Err(Rule::OtherWithoutMask);
        }
        if other.shape() != ptr.shape() {
            return Err(Rule::OtherNotBroadcastable {
                other: other.shape().to_vec(),
                ptr: ptr.shape().to_vec(),
            });
        }
        if other != &result {
            return Err(Rule::DTypeMismatch {
                expected: d.to_string(),
                found: other
                    .elem()
                    .map_or_else(|| other.to_string(), |e| e.to_string()),
            });
        }
    }
    if !cache.valid_for_load() {
        return Err(Rule::BadAttribute {
            name: "cache_modifier",
            expected: "\"\", \"ca\" or \"cg\" on a load",
        });
    }
    Ok(result)
}

/// `tile.store` through a pointer or tensor of pointers.
pub fn store(
    ptr: &TileType,
    value: &TileType,
    mask: Option<&TileType>,
    cache: CacheModifier,
) -> R<()> {
    let d = pointee("store pointer", ptr)?;
    value_operand(ptr, value, d)?;
    check_mask(ptr, mask)?;
    if !cache.valid_for_store() {
        return Err(Rule::BadAttribute {
            name: "cache_modifier",
            expected: "\"\", \"wb\", \"cg\", \"cs\" or \"wt\" on a store",
        });
    }
    Ok(())
}

/// `tile.atomic_rmw`: `val` of the pointers' shape and pointee type, which
/// `kind` must support (see [`AtomicKind::supports`]); the result is the
/// old values, of `val`'s type.
pub fn atomic_rmw(
    ptr: &TileType,
    val: &TileType,
    mask: Option<&TileType>,
    kind: AtomicKind,
) -> R<TileType> {
    let d = pointee("atomic pointer", ptr)?;
    value_operand(ptr, val, d)?;
    check_mask(ptr, mask)?;
    if !kind.supports(d) {
        return Err(Rule::UnsupportedDType {
            what: match kind {
                AtomicKind::Add => "atomic add",
                AtomicKind::Max => "atomic max",
                AtomicKind::Min => "atomic min",
                AtomicKind::And => "atomic and",
                AtomicKind::Or => "atomic or",
                AtomicKind::Xor => "atomic xor",
                AtomicKind::Xchg => "atomic xchg",
            },
            dtype: d,
        });
    }
    Ok(val.clone())
}

/// `tile.atomic_cas`: `cmp` and `val` of the pointers' shape and pointee
/// type, a 32- or 64-bit one; the result is the old values.
pub fn atomic_cas(ptr: &TileType, cmp: &TileType, val: &TileType) -> R<TileType> {
    let d = pointee("atomic pointer", ptr)?;
    value_operand(ptr, cmp, d)?;
    value_operand(ptr, val, d)?;
    if !matches!(d, DType::I32 | DType::I64 | DType::F32 | DType::F64) {
        return Err(Rule::UnsupportedDType {
            what: "atomic cas",
            dtype: d,
        });
    }
    Ok(val.clone())
}

/// A value stored or combined through `ptr`: the pointers' shape, their
/// pointee type.
fn value_operand(ptr: &TileType, value: &TileType, d: DType) -> R<()> {
    if value.shape() != ptr.shape() {
        return Err(Rule::StoreShapeMismatch {
            value: value.shape().to_vec(),
            ptr: ptr.shape().to_vec(),
        });
    }
    if value.elem() != Some(Elem::Num(d)) {
        return Err(Rule::DTypeMismatch {
            expected: d.to_string(),
            found: value
                .elem()
                .map_or_else(|| value.to_string(), |e| e.to_string()),
        });
    }
    Ok(())
}

/// `tile.make_block_ptr`: all parts of one rank, `order` a permutation,
/// block dimensions powers of two.
pub fn make_block_ptr(
    base: &TileType,
    shape: usize,
    strides: usize,
    offsets: usize,
    block_shape: &[i64],
    order: &[i64],
) -> R<TileType> {
    let dtype = match base {
        TileType::Tensor {
            shape: s,
            elem: Elem::Ptr(d),
        } if s.is_empty() => *d,
        _ => {
            return Err(Rule::WrongOperand {
                what: "block pointer base",
                expected: "a scalar pointer",
                found: base.to_string(),
            });
        }
    };
    let rank = block_shape.len();
    if rank == 0
        || [shape, strides, offsets, order.len()]
            .iter()
            .any(|&n| n != rank)
    {
        return Err(Rule::RankMismatch {
            shape,
            strides,
            offsets,
            block_shape: rank,
            order: order.len(),
        });
    }
    let mut sorted = order.to_vec();
    sorted.sort_unstable();
    if sorted.iter().enumerate().any(|(i, &a)| a != i as i64) {
        return Err(Rule::OrderNotPermutation {
            order: order.to_vec(),
        });
    }
    check_pow2("block_shape", block_shape)?;
    crate::limits::check_tile(block_shape)?;
    Ok(TileType::BlockPtr {
        shape: block_shape.to_vec(),
        dtype,
    })
}

fn block_ptr_operand(what: &'static str, t: &TileType) -> R<(Vec<i64>, DType)> {
    match t {
        TileType::BlockPtr { shape, dtype } => Ok((shape.clone(), *dtype)),
        _ => Err(Rule::WrongOperand {
            what,
            expected: "a block pointer",
            found: t.to_string(),
        }),
    }
}

/// `tile.advance`: one i32 offset per axis.
pub fn advance(ptr: &TileType, offsets: usize) -> R<TileType> {
    let (shape, _) = block_ptr_operand("advance pointer", ptr)?;
    if offsets != shape.len() {
        return Err(Rule::AdvanceRank {
            rank: shape.len(),
            offsets,
        });
    }
    Ok(ptr.clone())
}

fn check_padding(padding: Padding, dtype: DType) -> R<()> {
    match padding {
        Padding::Nan if !dtype.is_float() => Err(Rule::BadPadding {
            reason: format!("nan padding needs a floating-point element type, not {dtype}"),
        }),
        Padding::Value(v) if !crate::limits::float_fits(v, dtype) => Err(Rule::BadPadding {
            reason: format!("{v} is not a value of element type {dtype}"),
        }),
        _ => Ok(()),
    }
}

/// `tile.block_load`: `boundary_check` lists distinct axes in range.
pub fn block_load(
    ptr: &TileType,
    boundary_check: &[i64],
    padding: Padding,
    cache: CacheModifier,
) -> R<TileType> {
    let (shape, dtype) = block_ptr_operand("block load pointer", ptr)?;
    check_axes("boundary_check", boundary_check, shape.len())?;
    check_padding(padding, dtype)?;
    if !cache.valid_for_load() {
        return Err(Rule::BadAttribute {
            name: "cache_modifier",
            expected: "\"\", \"ca\" or \"cg\" on a load",
        });
    }
    Ok(TileType::tensor(&shape, Elem::Num(dtype)))
}

/// `tile.block_store`: the value is exactly the block's tensor type.
pub fn block_store(
    ptr: &TileType,
    value: &TileType,
    boundary_check: &[i64],
    cache: CacheModifier,
) -> R<()> {
    let (shape, dtype) = block_ptr_operand("block store pointer", ptr)?;
    if value.shape() != shape.as_slice() {
        return Err(Rule::StoreShapeMismatch {
            value: value.shape().to_vec(),
            ptr: shape,
        });
    }
    if value.elem() != Some(Elem::Num(dtype)) {
        return Err(Rule::DTypeMismatch {
            expected: dtype.to_string(),
            found: value
                .elem()
                .map_or_else(|| value.to_string(), |e| e.to_string()),
        });
    }
    check_axes("boundary_check", boundary_check, shape.len())?;
    if !cache.valid_for_store() {
        return Err(Rule::BadAttribute {
            name: "cache_modifier",
            expected: "\"\", \"wb\", \"cg\", \"cs\" or \"wt\" on a store",
        });
    }
    Ok(())
}

/// `tile.reduce`: a numeric tensor along an axis in range. Without
/// `keep_dims` the axis disappears; a 1-d tensor reduces to a scalar.
/// `argmax` and `argmin` give `i32` indices.
pub fn reduce(src: &TileType, kind: ReduceKind, axis: i64, keep_dims: bool) -> R<TileType> {
    let (mut shape, elem) = tensor_operand("reduce source", src)?;
    let Elem::Num(d) = elem else {
        return Err(Rule::WrongOperand {
            what: "reduce source",
            expected: "a tensor of numbers",
            found: src.to_string(),
        });
    };
    if d == DType::I1 {
        return Err(Rule::UnsupportedDType {
            what: "reduce",
            dtype: d,
        });
    }
    check_axes("reduce", &[axis], shape.len())?;
    if keep_dims {
        shape[axis as usize] = 1;
    } else {
        shape.remove(axis as usize);
    }
    let elem = if kind.is_arg() {
        Elem::Num(DType::I32)
    } else {
        elem
    };
    Ok(TileType::tensor(&shape, elem))
}

/// `tile.scan`: a numeric tensor (not i1) along an axis in range; the
/// result has the source's type.
pub fn scan(src: &TileType, axis: i64) -> R<TileType> {
    let (shape, elem) = tensor_operand("scan source", src)?;
    match elem {
        Elem::Num(DType::I1) => Err(Rule::UnsupportedDType {
            what: "scan",
            dtype: DType::I1,
        }),
        Elem::Num(_) => {
            check_axes("scan", &[axis], shape.len())?;
            Ok(src.clone())
        }
        _ => Err(Rule::WrongOperand {
            what: "scan source",
            expected: "a tensor of numbers",
            found: src.to_string(),
        }),
    }
}

/// The element type a `tile.dot` on inputs of type `d` accumulates in: f32
/// for f16, bf16 and f32, i32 for i8; `None` for other inputs.
pub fn dot_accumulator(d: DType) -> Option<DType> {
    match d {
        DType::F16 | DType::BF16 | DType::F32 => Some(DType::F32),
        DType::I8 => Some(DType::I32),
        _ => None,
    }
}

/// `tile.dot`: `a` [M, K] times `b` [K, N] plus `acc` [M, N] (zeros when
/// absent). M, N and K are powers of two of at least 16; the inputs are two
/// f16, two bf16, two f32 or two i8 tensors; the accumulator, and the
/// result, f32 (i32 for i8). `precision` other than "ieee" needs f32 inputs.
pub fn dot(
    a: &TileType,
    b: &TileType,
    acc: Option<&TileType>,
    precision: InputPrecision,
) -> R<TileType> {
    let (a_shape, a_elem) = tensor_operand("dot operand a", a)?;
    let (b_shape, b_elem) = tensor_operand("dot operand b", b)?;
    if a_shape.len() != 2 || b_shape.len() != 2 || a_shape[1] != b_shape[0] {
        return Err(Rule::DotShapes {
            a: a_shape,
            b: b_shape,
        });
    }
    let (m, k, n) = (a_shape[0], a_shape[1], b_shape[1]);
    if [m, n, k].iter().any(|&d| d < 16 || !is_pow2(d)) {
        return Err(Rule::DotDims { m, n, k });
    }
    let (Elem::Num(da), Elem::Num(db)) = (a_elem, b_elem) else {
        return Err(Rule::WrongOperand {
            what: "dot operands",
            expected: "tensors of numbers",
            found: format!("{a} and {b}"),
        });
    };
    let acc_dtype = match dot_accumulator(da) {
        Some(c) if da == db => c,
        _ => return Err(Rule::DotInputs { a: da, b: db }),
    };
    if precision != InputPrecision::Ieee && da != DType::F32 {
        return Err(Rule::DotPrecision {
            precision,
            dtype: da,
        });
    }
    let result = TileType::tensor(&[m, n], Elem::Num(acc_dtype));
    if let Some(acc) = acc
        && *acc != result
    {
        return Err(Rule::DotAccumulator {
            expected: result.to_string(),
            found: acc.to_string(),
        });
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(shape: &[i64], d: DType) -> TileType {
        TileType::tensor(shape, Elem::Num(d))
    }
    fn p(shape: &[i64], d: DType) -> TileType {
        TileType::tensor(shape, Elem::Ptr(d))
    }

    #[test]
    fn broadcasting_follows_numpy() {
        assert_eq!(broadcast_shapes(&[16, 1], &[1, 64]), Some(vec![16, 64]));
        assert_eq!(broadcast_shapes(&[64], &[16, 64]), Some(vec![16, 64]));
        assert_eq!(broadcast_shapes(&[], &[8]), Some(vec![8]));
        assert_eq!(broadcast_shapes(&[16], &[32]), None);
        assert!(broadcasts_to(&[1, 64], &[16, 64]));
        assert!(!broadcasts_to(&[16, 64], &[1, 64]));
    }

    #[test]
    fn arange_needs_power_of_two_length() {
        assert_eq!(arange(0, 128), Ok(t(&[128], DType::I32)));
        assert_eq!(arange(4, 12), Ok(t(&[8], DType::I32)));
        assert!(arange(0, 100).is_err());
        assert!(arange(5, 5).is_err());
        assert!(arange(0, 1 << 40).is_err());
    }

    #[test]
    fn load_checks_mask_and_other() {
        let ptr = p(&[16, 64], DType::F32);
        let mask = t(&[16, 64], DType::I1);
        let other = t(&[16, 64], DType::F32);
        let c = CacheModifier::Default;
        assert_eq!(load(&ptr, Some(&mask), Some(&other), c), Ok(other.clone()));
        assert!(matches!(
            load(&ptr, Some(&t(&[64], DType::I1)), None, c),
            Err(Rule::MaskNotBroadcastable { .. })
        ));
        assert!(matches!(
            load(&ptr, Some(&mask), Some(&t(&[16, 64], DType::F16)), c),
            Err(Rule::DTypeMismatch { .. })
        ));
        assert_eq!(
            load(&ptr, None, Some(&other), c),
            Err(Rule::OtherWithoutMask)
        );
        assert!(load(&ptr, None, None, CacheModifier::WriteBack).is_err());
    }

    #[test]
    fn block_pointer_rules() {
        let base = TileType::ptr(DType::F32);
        let bp = make_block_ptr(&base, 2, 2, 2, &[16, 64], &[1, 0]).unwrap();
        assert_eq!(bp.to_string(), "!tile.block_ptr<tensor<16x64xf32>>");
        assert!(matches!(
            make_block_ptr(&base, 2, 1, 2, &[16, 64], &[1, 0]),
            Err(Rule::RankMismatch { .. })
        ));
        assert!(matches!(
            make_block_ptr(&base, 2, 2, 2, &[16, 64], &[1, 1]),
            Err(Rule::OrderNotPermutation { .. })
        ));
        assert!(matches!(
            make_block_ptr(&base, 2, 2, 2, &[16, 48], &[1, 0]),
            Err(Rule::NotPowerOfTwo { .. })
        ));
        assert!(matches!(
            block_load(&bp, &[0, 2], Padding::Zero, CacheModifier::Default),
            Err(Rule::AxisOutOfRange { axis: 2, .. })
        ));
        assert!(matches!(
            block_load(&bp, &[1, 1], Padding::Zero, CacheModifier::Default),
            Err(Rule::DuplicateAxis { axis: 1, .. })
        ));
        assert_eq!(advance(&bp, 2), Ok(bp.clone()));
        assert!(advance(&bp, 1).is_err());
    }

    #[test]
    fn padding_must_fit_the_element_type() {
        let ibp = TileType::BlockPtr {
            shape: vec![16],
            dtype: DType::I32,
        };
        let c = CacheModifier::Default;
        assert!(block_load(&ibp, &[0], Padding::Nan, c).is_err());
        assert!(block_load(&ibp, &[0], Padding::Value(f64::NEG_INFINITY), c).is_err());
        assert!(block_load(&ibp, &[0], Padding::Value(-7.0), c).is_ok());
    }

    #[test]
    fn dot_checks_shapes_types_and_precision() {
        let ieee = InputPrecision::Ieee;
        let a = t(&[64, 32], DType::F16);
        let b = t(&[32, 128], DType::F16);
        let c = t(&[64, 128], DType::F32);
        assert_eq!(dot(&a, &b, None, ieee), Ok(c.clone()));
        assert_eq!(dot(&a, &b, Some(&c), ieee), Ok(c.clone()));
        let i8s = (t(&[16, 16], DType::I8), t(&[16, 16], DType::I8));
        assert_eq!(
            dot(&i8s.0, &i8s.1, None, ieee),
            Ok(t(&[16, 16], DType::I32))
        );
        let f32s = (t(&[16, 16], DType::F32), t(&[16, 16], DType::F32));
        for p in [InputPrecision::Tf32, InputPrecision::Tf32x3, ieee] {
            assert_eq!(dot(&f32s.0, &f32s.1, None, p), Ok(t(&[16, 16], DType::F32)));
        }
        assert!(matches!(
            dot(&a, &t(&[64, 128], DType::F16), None, ieee),
            Err(Rule::DotShapes { .. })
        ));
        assert!(matches!(
            dot(&t(&[8, 32], DType::F16), &b, None, ieee),
            Err(Rule::DotDims { m: 8, .. })
        ));
        assert!(matches!(
            dot(
                &t(&[64, 48], DType::F16),
                &t(&[48, 16], DType::F16),
                None,
                ieee
            ),
            Err(Rule::DotDims { k: 48, .. })
        ));
        assert!(matches!(
            dot(&a, &t(&[32, 128], DType::BF16), None, ieee),
            Err(Rule::DotInputs { .. })
        ));
        assert!(matches!(
            dot(
                &t(&[16, 16], DType::I32),
                &t(&[16, 16], DType::I32),
                None,
                ieee
            ),
            Err(Rule::DotInputs { .. })
        ));
        assert!(matches!(
            dot(&a, &b, Some(&t(&[64, 128], DType::F16)), ieee),
            Err(Rule::DotAccumulator { .. })
        ));
        assert!(matches!(
            dot(&a, &b, None, InputPrecision::Tf32),
            Err(Rule::DotPrecision { .. })
        ));
        assert!(dot(&t(&[16, 16, 16], DType::F16), &b, None, ieee).is_err());
    }

    #[test]
    fn reduce_drops_or_keeps_the_axis() {
        let x = t(&[16, 64], DType::F32);
        assert_eq!(
            reduce(&x, ReduceKind::Sum, 1, false),
            Ok(t(&[16], DType::F32))
        );
        assert_eq!(
            reduce(&x, ReduceKind::Max, 0, true),
            Ok(t(&[1, 64], DType::F32))
        );
        assert_eq!(
            reduce(&x, ReduceKind::ArgMax, 1, false),
            Ok(t(&[16], DType::I32))
        );
        assert_eq!(
            reduce(&x, ReduceKind::ArgMin, 0, true),
            Ok(t(&[1, 64], DType::I32))
        );
        assert_eq!(
            reduce(&t(&[64], DType::F32), ReduceKind::Sum, 0, false),
            Ok(TileType::scalar(DType::F32))
        );
        assert!(matches!(
            reduce(&x, ReduceKind::Sum, 2, false),
            Err(Rule::AxisOutOfRange { .. })
        ));
    }

    #[test]
    fn store_shape_and_dtype() {
        let ptr = p(&[128], DType::F32);
        let c = CacheModifier::Default;
        assert!(store(&ptr, &t(&[128], DType::F32), None, c).is_ok());
        assert!(matches!(
            store(&ptr, &t(&[64], DType::F32), None, c),
            Err(Rule::StoreShapeMismatch { .. })
        ));
        assert!(matches!(
            store(&ptr, &t(&[128], DType::F16), None, c),
            Err(Rule::DTypeMismatch { .. })
        ));
    }
}
