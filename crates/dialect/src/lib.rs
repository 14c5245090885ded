//! The `tile` dialect: tile-level GPU kernels as MLIR.
//!
//! - [`context`]: contexts with the dialect loaded from its IRDL definition.
//! - [`builder`]: the kernel-builder API ([`Kernel::build`]).
//! - [`rules`]: the typing rules every op obeys, shared by the builder and
//!   the [`verify`] pass over parsed IR.
//! - [`types`], [`DType`]: the Rust view of tile IR's types.
//! - [`view`]: typed views of ops, types and attributes, which the
//!   verifier, the passes, the lowering and the interpreter read IR through.

pub mod builder;
pub mod context;
pub mod diagnostics;
mod dtype;
pub mod error;
pub mod float_math;
pub mod fp8;
pub mod limits;
pub mod ops;
pub mod rules;
pub mod types;
pub mod verify;
pub mod view;

pub use builder::{
    Atomic, IntoOperand, Kernel, KernelBuilder, Load, MakeBlockPtr, Operand, Param, Store, Tile,
};
pub use context::{context_of, new_context, register_dialects};
pub use dtype::DType;
pub use error::{BuildError, Diagnostic, Error, Result, Rule, SourceLoc};
pub use ops::{
    AtomicKind, CacheModifier, EvictionPolicy, InputPrecision, MemScope, MemSem, Padding,
    ReduceKind, ScanKind,
};
pub use types::{Elem, TileType};
