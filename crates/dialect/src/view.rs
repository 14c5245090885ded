//! Typed views of tile IR: every op, type and attribute a pass, the
//! verifier, the axis analysis, the lowering or the interpreter reads is
//! decoded here, once, into Rust values.
//!
//! - [`TypeTable`]: MLIR types to [`TileType`](crate::TileType) and
//!   [`Layout`](tile_coalesce::Layout) and back, cached per distinct
//!   (uniqued) type.
//! - [`TileOp`]: each tile op's operands and attributes ([`Load`],
//!   [`Reduce`], [`MakeBlockPtr`], ...), with one decoder of operand
//!   segments and one enum per concept ([`ReduceKind`](crate::ReduceKind),
//!   [`Padding`](crate::Padding), ...).
//! - [`ForLoop`], [`Constant`], [`KernelFunc`]: the upstream ops tile IR is
//!   made of (`scf.for`, `arith.constant`, the kernel's `func.func`).
//! - [`attr`]: reading and making the attributes themselves.
//!
//! Builtin types and attributes are read through MLIR's C API. The types
//! and attributes the tile dialect defines in IRDL (`!tile.ptr`,
//! `!tile.block_ptr`, `#tile.blocked`, `#tile.slice`) expose no parameters
//! through that API, so their parameters are read from MLIR's printed form
//! of the type, once per distinct type, and they are made by MLIR's parser,
//! once per distinct type: that is the only text that crosses here, and it
//! never holds an op.

pub mod attr;
mod tile_ops;
mod types;
mod upstream;

pub use tile_ops::{
    AccessAttrs, AddPtr, Advance, Arange, Assert, AtomicCas, AtomicRmw, BlockLoad, BlockStore, Dot,
    ExpandDims, GridIndex, Load, MakeBlockPtr, Pair, Permute, Print, Reduce, Scan, Store, TileOp,
    Unary,
};
pub use types::{TypeTable, decode_type, dtype_of, element_type, tensor_shape};
pub use upstream::{Constant, ConstantValue, ForLoop, IfOp, KernelArg, KernelFunc, WhileLoop};

use melior::ir::operation::OperationLike;

/// The full name of an op (`tile.load`, `arith.addf`).
pub fn op_name<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> &'c str {
    let id = op.name();
    // SAFETY: identifiers are uniqued in the context and live as long as
    // it; the bytes are the op name's UTF-8.
    let r = unsafe { mlir_sys::mlirIdentifierStr(id.to_raw()) };
    if r.data.is_null() {
        return "";
    }
    // SAFETY: MLIR guarantees `length` readable bytes at `data`, owned by
    // the context.
    let bytes = unsafe { std::slice::from_raw_parts(r.data as *const u8, r.length) };
    std::str::from_utf8(bytes).unwrap_or("")
}
