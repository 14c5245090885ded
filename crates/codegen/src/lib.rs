//! The compilation pipeline from tile IR to PTX.
//!
//! [`compile`] runs the stages of the design one after another, each a
//! pass or a short upstream pipeline whose output is plain MLIR that
//! `tile-opt` can read:
//!
//! | # | stage | what |
//! |---|---|---|
//! | 00 | `tile` | the kernel as built |
//! | 01 | `simplified` | `canonicalize`, `cse` |
//! | 02 | `layouts` | `tile-assign-layouts` |
//! | 03 | `predicated` | `tile-predicate` |
//! | 04 | `vectorized` | `tile-vectorize` (elements per access) |
//! | 05 | `simt` | `tile-to-simt` (gpu dialect) |
//! | 06 | `nvvm` | target attached, `gpu`/`arith`/`scf` to `nvvm` and `llvm` |
//! | 07 | `llvm` | line-table debug info on the LLVM functions |
//! | 08 | `ptx` | `gpu-module-to-binary{format=isa}` |
//!
//! With [`Options::dump`] (or the variables `TILE_DUMP_DIR` and
//! `TILE_DUMP_FILTER`, see [`Dump::from_env`]) every stage is written to a
//! numbered file.

mod dump;
mod offsets;
mod options;
mod pipeline;
mod spec;
mod specialize;

pub use dump::Dump;
pub use options::Options;
pub use pipeline::{CompileError, Compiled, STAGES, compile, compile_copy, compile_text};
pub use spec::kernel_spec;
pub use specialize::{DIVISIBILITY_ATTR, EQUAL_TO_ONE_ATTR};
pub use tile_runtime::{Fact, Specialization};
