//! The values an interpreted program computes: scalars and tensors of
//! numbers or pointers (a scalar is a tensor of shape `[]`), and block
//! pointers.
//!
//! ```
//! use tile_dialect::DType;
//! use tile_interpreter::value::Tensor;
//!
//! // Integers wrap at their width; floats are rounded to their type.
//! let i = Tensor::ints(vec![2], DType::I8, vec![127, 128]);
//! assert_eq!(i.as_ints(), Some(&[127, -128][..]));
//! let h = Tensor::floats(vec![1], DType::F16, vec![65520.0]);
//! assert_eq!(h.as_floats(), Some(&[f64::INFINITY][..]));
//! ```

use crate::float;
use tile_dialect::DType;

/// An address and the kernel parameter it was derived from (its
/// provenance): an access is checked against that parameter's allocation,
/// so it cannot stray into a neighbouring buffer unnoticed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pointer {
    /// The byte address.
    pub addr: u64,
    /// The index of the pointer parameter it came from.
    pub param: u32,
}

/// The elements of a tensor, in row-major order.
#[derive(Clone, Debug, PartialEq)]
pub enum Elems {
    /// Integers of the tensor's type, kept sign-extended to 64 bits (an
    /// `i1` is 0 or 1).
    Int(Vec<i64>),
    /// Floats, each exactly representable in the tensor's type.
    Float(Vec<f64>),
    /// Pointers to elements of the tensor's pointee type.
    Ptr(Vec<Pointer>),
}

impl Elems {
    /// The number of elements.
    pub fn len(&self) -> usize {
        match self {
            Elems::Int(v) => v.len(),
            Elems::Float(v) => v.len(),
            Elems::Ptr(v) => v.len(),
        }
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The elements at `picks`, in that order.
    pub fn gather(&self, picks: impl Iterator<Item = usize>) -> Elems {
        match self {
            Elems::Int(v) => Elems::Int(picks.map(|i| v[i]).collect()),
            Elems::Float(v) => Elems::Float(picks.map(|i| v[i]).collect()),
            Elems::Ptr(v) => Elems::Ptr(picks.map(|i| v[i]).collect()),
        }
    }
}

/// A scalar or tensor: shape, element type and elements.
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    /// Dimensions; empty for a scalar.
    pub shape: Vec<usize>,
    /// The number type, or for pointers the pointee type.
    pub dtype: DType,
    /// The elements (`shape.iter().product()` of them).
    pub elems: Elems,
}

impl Tensor {
    /// An integer tensor of type `d`; each value is wrapped to `d`'s width.
    pub fn ints(shape: Vec<usize>, d: DType, values: Vec<i64>) -> Tensor {
        Tensor {
            shape,
            dtype: d,
            elems: Elems::Int(values.into_iter().map(|v| wrap(v, d)).collect()),
        }
    }

    /// A float tensor of type `d`; each value is rounded to `d`.
    pub fn floats(shape: Vec<usize>, d: DType, values: Vec<f64>) -> Tensor {
        Tensor {
            shape,
            dtype: d,
            elems: Elems::Float(values.into_iter().map(|v| float::round(v, d)).collect()),
        }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.elems.len()
    }

    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.elems.is_empty()
    }

    /// The integers, if these are integers.
    pub fn as_ints(&self) -> Option<&[i64]> {
        match &self.elems {
            Elems::Int(v) => Some(v),
            _ => None,
        }
    }

    /// The floats, if these are floats.
    pub fn as_floats(&self) -> Option<&[f64]> {
        match &self.elems {
            Elems::Float(v) => Some(v),
            _ => None,
        }
    }

    /// The pointers, if these are pointers.
    pub fn as_ptrs(&self) -> Option<&[Pointer]> {
        match &self.elems {
            Elems::Ptr(v) => Some(v),
            _ => None,
        }
    }

    /// The same elements under another shape.
    pub fn reshaped(mut self, shape: Vec<usize>) -> Tensor {
        self.shape = shape;
        self
    }
}

/// A block pointer: a block of `block` elements at `offsets` in an N-d
/// view (`shape`, `strides` in elements) of the memory at `base`.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockPtr {
    /// The start of the viewed tensor.
    pub base: Pointer,
    /// The element type.
    pub dtype: DType,
    /// The viewed tensor's shape.
    pub shape: Vec<i64>,
    /// Its strides, in elements.
    pub strides: Vec<i64>,
    /// Where the block starts, per axis (i32 values, as the IR has them).
    pub offsets: Vec<i64>,
    /// The block's shape.
    pub block: Vec<usize>,
}

/// A value of the program.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A scalar or a tensor.
    Tensor(Tensor),
    /// A block pointer.
    BlockPtr(BlockPtr),
}

/// `v` wrapped to the width of integer type `d` and sign-extended (an
/// `i1` keeps only its low bit, as 0 or 1).
pub fn wrap(v: i64, d: DType) -> i64 {
    match d.bits() {
        1 => v & 1,
        64 => v,
        bits => (v << (64 - bits)) >> (64 - bits),
    }
}

/// The signed value of the stored integer `v` of type `d` (an `i1` true is
/// -1, as `arith.extsi` and `arith.sitofp` read it).
pub fn signed(v: i64, d: DType) -> i64 {
    if d == DType::I1 { -(v & 1) } else { v }
}

/// The unsigned value of the stored integer `v` of type `d`.
pub fn unsigned(v: i64, d: DType) -> u64 {
    match d.bits() {
        64 => v as u64,
        bits => (v as u64) & ((1u64 << bits) - 1),
    }
}

/// The index into an operand of `len` elements that stands for element `i`
/// of the result: a scalar (one element) stands for every element.
pub fn at(len: usize, i: usize) -> usize {
    if len == 1 { 0 } else { i }
}

/// Row-major strides of `shape`, in elements.
pub fn row_major_strides(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * shape[i + 1];
    }
    strides
}

/// The multi-dimensional index of row-major position `flat` in `shape`.
pub fn unflatten(mut flat: usize, shape: &[usize]) -> Vec<i64> {
    let mut index = vec![0; shape.len()];
    for axis in (0..shape.len()).rev() {
        index[axis] = (flat % shape[axis]) as i64;
        flat /= shape[axis];
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_wrap_to_their_width() {
        assert_eq!(wrap(i32::MAX as i64 + 1, DType::I32), i32::MIN as i64);
        assert_eq!(wrap(255, DType::I8), -1);
        assert_eq!(wrap(3, DType::I1), 1);
        assert_eq!(signed(1, DType::I1), -1);
        assert_eq!(unsigned(-1, DType::I16), 0xffff);
        assert_eq!(unsigned(-1, DType::I64), u64::MAX);
    }

    #[test]
    fn indices_are_row_major() {
        assert_eq!(row_major_strides(&[2, 3, 4]), vec![12, 4, 1]);
        assert_eq!(unflatten(17, &[2, 3, 4]), vec![1, 1, 1]);
        assert_eq!(unflatten(0, &[]), Vec::<i64>::new());
    }
}
