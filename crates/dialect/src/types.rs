//! The Rust-side view of the types tile IR uses.
//!
//! A [`TileType`] prints as the MLIR type it stands for and parses back from
//! MLIR's printed form, so the builder and the verifier share one model of
//! scalars, tensors, pointers and block pointers.
//!
//! ```
//! use tile_dialect::{DType, Elem, TileType};
//!
//! let t = TileType::tensor(&[64, 32], Elem::Num(DType::F16));
//! assert_eq!(t.to_string(), "tensor<64x32xf16>");
//! assert_eq!(TileType::parse("tensor<64x32xf16>"), Some(t.clone()));
//! assert_eq!(t.with_shape(&[64]).shape(), &[64]);
//! assert!(TileType::scalar(DType::I32).is_scalar());
//! ```

use crate::DType;
use std::fmt;

/// What a scalar or a tensor element is: a number or a pointer to one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Elem {
    /// A number of the given type.
    Num(DType),
    /// A global pointer to elements of the given type (`!tile.ptr<f32>`).
    Ptr(DType),
}

impl Elem {
    /// The number type, if this is a number.
    pub fn num(self) -> Option<DType> {
        match self {
            Elem::Num(d) => Some(d),
            Elem::Ptr(_) => None,
        }
    }

    /// The pointee type, if this is a pointer.
    pub fn pointee(self) -> Option<DType> {
        match self {
            Elem::Ptr(d) => Some(d),
            Elem::Num(_) => None,
        }
    }
}

impl fmt::Display for Elem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Elem::Num(d) => write!(f, "{d}"),
            Elem::Ptr(d) => write!(f, "!tile.ptr<{d}>"),
        }
    }
}

/// The type of a value in tile IR.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TileType {
    /// A scalar (empty `shape`) or a ranked tensor of numbers or pointers.
    Tensor {
        /// Static dimensions; empty for a scalar.
        shape: Vec<i64>,
        /// Element type.
        elem: Elem,
    },
    /// A block pointer to a block of `shape` elements of `dtype`.
    BlockPtr {
        /// The block shape.
        shape: Vec<i64>,
        /// The element type of the block.
        dtype: DType,
    },
}

impl TileType {
    /// A scalar number.
    pub fn scalar(d: DType) -> Self {
        TileType::Tensor {
            shape: vec![],
            elem: Elem::Num(d),
        }
    }

    /// A scalar pointer.
    pub fn ptr(d: DType) -> Self {
        TileType::Tensor {
            shape: vec![],
            elem: Elem::Ptr(d),
        }
    }

    /// A tensor (or, with an empty shape, a scalar) of `elem`.
    pub fn tensor(shape: &[i64], elem: Elem) -> Self {
        TileType::Tensor {
            shape: shape.to_vec(),
            elem,
        }
    }

    /// The shape: a tensor's dimensions, a block pointer's block, or empty.
    pub fn shape(&self) -> &[i64] {
        match self {
            TileType::Tensor { shape, .. } | TileType::BlockPtr { shape, .. } => shape,
        }
    }

    /// The element of a scalar or tensor; `None` for a block pointer.
    pub fn elem(&self) -> Option<Elem> {
        match self {
            TileType::Tensor { elem, .. } => Some(*elem),
            TileType::BlockPtr { .. } => None,
        }
    }

    /// The number type of a numeric scalar or tensor.
    pub fn num(&self) -> Option<DType> {
        self.elem().and_then(Elem::num)
    }

    /// True for a scalar number or scalar pointer.
    pub fn is_scalar(&self) -> bool {
        matches!(self, TileType::Tensor { shape, .. } if shape.is_empty())
    }

    /// True for a block pointer.
    pub fn is_block_ptr(&self) -> bool {
        matches!(self, TileType::BlockPtr { .. })
    }

    /// The same kind of value with another shape.
    pub fn with_shape(&self, shape: &[i64]) -> Self {
        match self {
            TileType::Tensor { elem, .. } => TileType::tensor(shape, *elem),
            TileType::BlockPtr { dtype, .. } => TileType::BlockPtr {
                shape: shape.to_vec(),
                dtype: *dtype,
            },
        }
    }

    /// The same shape with another element.
    pub fn with_elem(&self, elem: Elem) -> Self {
        TileType::tensor(self.shape(), elem)
    }

    /// Parses MLIR's printed form of a type (`tensor<16x!tile.ptr<f32>>`,
    /// `!tile.block_ptr<tensor<16x64xf32>>`, `i32`, ...). A tensor's layout
    /// encoding, if any, is ignored. Types outside tile
    /// IR's model (index, memref, dynamic or rank-0 tensors) give `None`.
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim();
        if let Some(inner) = strip(text, "!tile.block_ptr<", ">") {
            let TileType::Tensor {
                shape,
                elem: Elem::Num(dtype),
            } = TileType::parse(inner)?
            else {
                return None;
            };
            return (!shape.is_empty()).then_some(TileType::BlockPtr { shape, dtype });
        }
        if let Some(inner) = strip(text, "tensor<", ">") {
            // A laid-out tensor carries its layout as the encoding after a
            // comma; the tile rules are about shapes and elements only.
            let inner = inner.split_once(',').map_or(inner, |(t, _)| t).trim();
            let mut shape = Vec::new();
            let mut rest = inner;
            while let Some((dim, tail)) = rest.split_once('x') {
                if dim.starts_with('!') || dim.parse::<i64>().is_err() {
                    break;
                }
                shape.push(dim.parse().ok()?);
                rest = tail;
            }
            if shape.is_empty() || shape.iter().any(|&d| d <= 0) {
                return None;
            }
            let elem = parse_elem(rest)?;
            return Some(TileType::Tensor { shape, elem });
        }
        Some(TileType::Tensor {
            shape: vec![],
            elem: parse_elem(text)?,
        })
    }
}

fn strip<'a>(text: &'a str, prefix: &str, suffix: &str) -> Option<&'a str> {
    text.strip_prefix(prefix)?.strip_suffix(suffix)
}

fn parse_elem(text: &str) -> Option<Elem> {
    if let Some(inner) = strip(text, "!tile.ptr<", ">") {
        return inner.parse().ok().map(Elem::Ptr);
    }
    text.parse().ok().map(Elem::Num)
}

/// Formats a shape as `[16, 64]` (`[]` for a scalar), as errors show it.
pub fn shape_str(shape: &[i64]) -> String {
    format!("{shape:?}")
}

impl fmt::Display for TileType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TileType::Tensor { shape, elem } if shape.is_empty() => write!(f, "{elem}"),
            TileType::Tensor { shape, elem } => {
                f.write_str("tensor<")?;
                for d in shape {
                    write!(f, "{d}x")?;
                }
                write!(f, "{elem}>")
            }
            TileType::BlockPtr { shape, dtype } => {
                write!(
                    f,
                    "!tile.block_ptr<{}>",
                    TileType::tensor(shape, Elem::Num(*dtype))
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_mlir_syntax() {
        assert_eq!(TileType::scalar(DType::F32).to_string(), "f32");
        assert_eq!(TileType::ptr(DType::BF16).to_string(), "!tile.ptr<bf16>");
        assert_eq!(
            TileType::tensor(&[16, 64], Elem::Ptr(DType::F16)).to_string(),
            "tensor<16x64x!tile.ptr<f16>>"
        );
        let bp = TileType::BlockPtr {
            shape: vec![16, 64],
            dtype: DType::F32,
        };
        assert_eq!(bp.to_string(), "!tile.block_ptr<tensor<16x64xf32>>");
    }

    #[test]
    fn parses_what_it_prints() {
        let cases = [
            TileType::scalar(DType::I1),
            TileType::ptr(DType::F64),
            TileType::tensor(&[128], Elem::Num(DType::I32)),
            TileType::tensor(&[1, 64], Elem::Ptr(DType::F32)),
            TileType::BlockPtr {
                shape: vec![1, 1024],
                dtype: DType::BF16,
            },
        ];
        for t in cases {
            assert_eq!(TileType::parse(&t.to_string()), Some(t));
        }
    }

    #[test]
    fn rejects_types_outside_the_model() {
        for text in [
            "index",
            "tensor<?xf32>",
            "tensor<f32>",
            "memref<4xf32>",
            "tensor<4xindex>",
            "!tile.block_ptr<tensor<4x!tile.ptr<f32>>>",
        ] {
            assert_eq!(TileType::parse(text), None, "{text}");
        }
    }
}
