//! MLIR types to [`TileType`] and [`Layout`] and back.

use crate::DType;
use crate::types::{Elem, TileType};
use melior::Context;
use melior::ir::attribute::AttributeLike;
use melior::ir::r#type::TypeLike;
use melior::ir::{Attribute, Type};
use mlir_sys::{MlirAttribute, MlirType};
use std::cell::RefCell;
use std::collections::HashMap;
use tile_coalesce::{Layout, LayoutError};

/// The number type of a builtin scalar type (`f32`, `i1`, ...), if it is one.
pub fn dtype_of(ty: Type) -> Option<DType> {
    let raw = ty.to_raw();
    // SAFETY: `raw` is a live type; these only inspect it.
    unsafe {
        if mlir_sys::mlirTypeIsAInteger(raw) {
            if !mlir_sys::mlirIntegerTypeIsSignless(raw) {
                return None;
            }
            return match mlir_sys::mlirIntegerTypeGetWidth(raw) {
                1 => Some(DType::I1),
                8 => Some(DType::I8),
                16 => Some(DType::I16),
                32 => Some(DType::I32),
                64 => Some(DType::I64),
                _ => None,
            };
        }
        if mlir_sys::mlirTypeIsAF32(raw) {
            Some(DType::F32)
        } else if mlir_sys::mlirTypeIsAF16(raw) {
            Some(DType::F16)
        } else if mlir_sys::mlirTypeIsABF16(raw) {
            Some(DType::BF16)
        } else if mlir_sys::mlirTypeIsAF64(raw) {
            Some(DType::F64)
        } else if mlir_sys::mlirTypeIsAFloat8E4M3FN(raw) {
            Some(DType::F8E4M3)
        } else if mlir_sys::mlirTypeIsAFloat8E5M2(raw) {
            Some(DType::F8E5M2)
        } else {
            None
        }
    }
}

/// The static shape of a ranked tensor type; empty for anything else.
pub fn tensor_shape(ty: Type) -> Vec<i64> {
    let raw = ty.to_raw();
    // SAFETY: `raw` is a live type; the shape queries only apply to
    // ranked tensors, which is checked first.
    unsafe {
        if !mlir_sys::mlirTypeIsARankedTensor(raw) {
            return Vec::new();
        }
        let rank = mlir_sys::mlirShapedTypeGetRank(raw);
        (0..rank)
            .map(|i| mlir_sys::mlirShapedTypeGetDimSize(raw, i as isize))
            .collect()
    }
}

/// The element type of a ranked tensor type, or the type itself.
pub fn element_type(ty: Type) -> Type {
    let raw = ty.to_raw();
    // SAFETY: `raw` is a live type; the element query applies to shaped
    // types, which is checked first.
    unsafe {
        if mlir_sys::mlirTypeIsARankedTensor(raw) {
            Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(raw))
        } else {
            ty
        }
    }
}

/// True for types of the tile dialect (defined in IRDL).
fn is_tile_dialect(ty: Type) -> bool {
    // SAFETY: `ty` is live; the dialect and its namespace are owned by the
    // context.
    let ns = unsafe {
        let dialect = mlir_sys::mlirTypeGetDialect(ty.to_raw());
        if dialect.ptr.is_null() {
            return false;
        }
        mlir_sys::mlirDialectGetNamespace(dialect)
    };
    ns.length == 4
        && !ns.data.is_null()
        // SAFETY: `length` bytes are readable at `data`.
        && unsafe { std::slice::from_raw_parts(ns.data as *const u8, 4) } == b"tile"
}

/// Reads a type of tile IR without a cache (see [`TypeTable::tile_type`]).
/// Types outside tile IR's model (index, memref, unranked or dynamic
/// tensors, other dialects' types) give `None`; a tensor's layout encoding
/// is not part of the [`TileType`] (see [`TypeTable::layout`]).
pub fn decode_type(ty: Type) -> Option<TileType> {
    let raw = ty.to_raw();
    // SAFETY: `raw` is a live type.
    if unsafe { mlir_sys::mlirTypeIsARankedTensor(raw) } {
        let shape = tensor_shape(ty);
        if shape.is_empty() || shape.iter().any(|&d| d <= 0) {
            return None;
        }
        let elem = decode_elem(element_type(ty))?;
        return Some(TileType::Tensor { shape, elem });
    }
    if is_tile_dialect(ty) {
        // `!tile.ptr<..>` or `!tile.block_ptr<..>`: IRDL parameters are
        // only readable from the printed form.
        return TileType::parse(&ty.to_string());
    }
    dtype_of(ty).map(TileType::scalar)
}

fn decode_elem(ty: Type) -> Option<Elem> {
    if let Some(d) = dtype_of(ty) {
        return Some(Elem::Num(d));
    }
    if is_tile_dialect(ty) {
        return match TileType::parse(&ty.to_string())? {
            TileType::Tensor { shape, elem } if shape.is_empty() => Some(elem),
            _ => None,
        };
    }
    None
}

/// Decodes and makes the types of tile IR for one pass or reader,
/// remembering each distinct type (MLIR uniques types and attributes, so a
/// type's handle identifies it within its context).
pub struct TypeTable<'c> {
    context: &'c Context,
    decoded: RefCell<HashMap<usize, Option<TileType>>>,
    layouts: RefCell<HashMap<usize, Result<Layout, LayoutError>>>,
    made: RefCell<HashMap<(TileType, Option<Layout>), MlirType>>,
    layout_attrs: RefCell<HashMap<Layout, MlirAttribute>>,
}

impl<'c> TypeTable<'c> {
    /// An empty table for types of `context`.
    pub fn new(context: &'c Context) -> Self {
        TypeTable {
            context,
            decoded: RefCell::default(),
            layouts: RefCell::default(),
            made: RefCell::default(),
            layout_attrs: RefCell::default(),
        }
    }

    /// The context the types belong to.
    pub fn context(&self) -> &'c Context {
        self.context
    }

    /// The tile type of `ty` (see [`decode_type`]), decoded once per
    /// distinct type.
    pub fn tile_type(&self, ty: Type<'c>) -> Option<TileType> {
        let key = ty.to_raw().ptr as usize;
        if let Some(t) = self.decoded.borrow().get(&key) {
            return t.clone();
        }
        let t = decode_type(ty);
        self.decoded.borrow_mut().insert(key, t.clone());
        t
    }

    /// The layout in `ty`'s encoding: `None` for a tensor without one and
    /// for anything that is not a tensor; an error for an encoding that is
    /// not a valid layout.
    pub fn layout(&self, ty: Type<'c>) -> Result<Option<Layout>, LayoutError> {
        // SAFETY: `ty` is live; the encoding query applies to ranked
        // tensors, which is checked first.
        let encoding = unsafe {
            if !mlir_sys::mlirTypeIsARankedTensor(ty.to_raw()) {
                return Ok(None);
            }
            mlir_sys::mlirRankedTensorTypeGetEncoding(ty.to_raw())
        };
        if encoding.ptr.is_null() {
            return Ok(None);
        }
        let key = encoding.ptr as usize;
        if let Some(l) = self.layouts.borrow().get(&key) {
            return l.clone().map(Some);
        }
        // SAFETY: a non-null encoding is a live attribute of the context.
        let attr = unsafe { Attribute::from_raw(encoding) };
        let layout = Layout::parse(&attr.to_string());
        self.layouts.borrow_mut().insert(key, layout.clone());
        layout.map(Some)
    }

    /// The MLIR type of a number.
    pub fn dtype(&self, d: DType) -> Type<'c> {
        let c = self.context.to_raw();
        // SAFETY: the context is live; these make builtin types in it.
        unsafe {
            Type::from_raw(match d {
                DType::I1 => mlir_sys::mlirIntegerTypeGet(c, 1),
                DType::I8 => mlir_sys::mlirIntegerTypeGet(c, 8),
                DType::I16 => mlir_sys::mlirIntegerTypeGet(c, 16),
                DType::I32 => mlir_sys::mlirIntegerTypeGet(c, 32),
                DType::I64 => mlir_sys::mlirIntegerTypeGet(c, 64),
                DType::F16 => mlir_sys::mlirF16TypeGet(c),
                DType::BF16 => mlir_sys::mlirBF16TypeGet(c),
                DType::F32 => mlir_sys::mlirF32TypeGet(c),
                DType::F64 => mlir_sys::mlirF64TypeGet(c),
                DType::F8E4M3 => mlir_sys::mlirFloat8E4M3FNTypeGet(c),
                DType::F8E5M2 => mlir_sys::mlirFloat8E5M2TypeGet(c),
            })
        }
    }

    /// The MLIR type of `t`, with `layout` as its encoding when it is a
    /// tensor. Builtin types are made through MLIR's C API; the tile
    /// dialect's own (pointers, block pointers) through its parser, once.
    pub fn make(&self, t: &TileType, layout: Option<&Layout>) -> Type<'c> {
        let key = (t.clone(), layout.cloned());
        if let Some(raw) = self.made.borrow().get(&key) {
            // SAFETY: types live as long as their context.
            return unsafe { Type::from_raw(*raw) };
        }
        let ty = match t {
            TileType::Tensor { shape, elem } if shape.is_empty() => self.elem(*elem),
            TileType::Tensor { shape, elem } => {
                let elem = self.elem(*elem);
                self.tensor(shape, elem, layout)
            }
            TileType::BlockPtr { .. } => self.parse_type(&t.to_string()),
        };
        self.made.borrow_mut().insert(key, ty.to_raw());
        ty
    }

    /// `ty` (a ranked tensor) with `layout` as its encoding instead of its
    /// own; other types are returned as they are.
    pub fn with_layout(&self, ty: Type<'c>, layout: Option<&Layout>) -> Type<'c> {
        let shape = tensor_shape(ty);
        if shape.is_empty() {
            return ty;
        }
        self.tensor(&shape, element_type(ty), layout)
    }

    /// The attribute of a layout (`#tile.blocked<...>`, `#tile.slice<...>`).
    pub fn layout_attr(&self, layout: &Layout) -> Attribute<'c> {
        if let Some(raw) = self.layout_attrs.borrow().get(layout) {
            // SAFETY: attributes live as long as their context.
            return unsafe { Attribute::from_raw(*raw) };
        }
        let attr = Attribute::parse(self.context, &layout.to_string())
            .expect("every valid Layout prints as an attribute the loaded tile dialect parses");
        self.layout_attrs
            .borrow_mut()
            .insert(layout.clone(), attr.to_raw());
        attr
    }

    fn tensor(&self, shape: &[i64], elem: Type<'c>, layout: Option<&Layout>) -> Type<'c> {
        let encoding = layout.map_or(
            // SAFETY: the null attribute means "no encoding".
            unsafe { mlir_sys::mlirAttributeGetNull() },
            |l| self.layout_attr(l).to_raw(),
        );
        // SAFETY: the shape outlives the call; element and encoding are
        // live in the context.
        unsafe {
            Type::from_raw(mlir_sys::mlirRankedTensorTypeGet(
                shape.len() as isize,
                shape.as_ptr(),
                elem.to_raw(),
                encoding,
            ))
        }
    }

    fn elem(&self, e: Elem) -> Type<'c> {
        match e {
            Elem::Num(d) => self.dtype(d),
            Elem::Ptr(_) => self.parse_type(&e.to_string()),
        }
    }

    fn parse_type(&self, text: &str) -> Type<'c> {
        Type::parse(self.context, text)
            .expect("every TileType prints as a type the loaded tile dialect parses")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tile_coalesce::Blocked;

    #[test]
    fn types_round_trip_through_mlir() {
        let context = crate::new_context().unwrap();
        let table = TypeTable::new(&context);
        let layout = Layout::Blocked(Blocked::default_for(&[16, 64], 4).unwrap());
        let cases = [
            TileType::scalar(DType::I1),
            TileType::scalar(DType::BF16),
            TileType::ptr(DType::F64),
            TileType::tensor(&[128], Elem::Num(DType::I32)),
            TileType::tensor(&[16, 64], Elem::Ptr(DType::F32)),
            TileType::BlockPtr {
                shape: vec![1, 1024],
                dtype: DType::F16,
            },
        ];
        for t in cases {
            let ty = table.make(&t, None);
            assert_eq!(ty.to_string(), t.to_string());
            assert_eq!(table.tile_type(ty), Some(t.clone()));
            assert_eq!(table.layout(ty).unwrap(), None);
        }
        let t = TileType::tensor(&[16, 64], Elem::Ptr(DType::F32));
        let ty = table.make(&t, Some(&layout));
        assert_eq!(table.tile_type(ty), Some(t));
        assert_eq!(table.layout(ty).unwrap(), Some(layout.clone()));
        let sliced = layout.slice(1);
        let s = table.with_layout(
            table.make(&TileType::tensor(&[16], Elem::Num(DType::F32)), None),
            Some(&sliced),
        );
        assert_eq!(table.layout(s).unwrap(), Some(sliced));
        assert_eq!(tensor_shape(s), vec![16]);
        assert_eq!(table.with_layout(s, None).to_string(), "tensor<16xf32>");
    }

    #[test]
    fn types_outside_tile_ir_are_none() {
        let context = crate::new_context().unwrap();
        let table = TypeTable::new(&context);
        for text in [
            "index",
            "tensor<?xf32>",
            "memref<4xf32>",
            "ui32",
            "!llvm.ptr<1>",
        ] {
            let ty = Type::parse(&context, text).unwrap();
            assert_eq!(table.tile_type(ty), None, "{text}");
        }
    }
}
