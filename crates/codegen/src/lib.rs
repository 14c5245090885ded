//! The compilation pipeline from tile IR to PTX.
//!
//! [`compile`] runs the stages of the design one after another, each a
//! pass or a short upstream pipeline whose output is plain MLIR that
//! `tile-opt` can read:
//!
//! | # | stage | what |
//! |---|---|---|
//! | 00 | `tile` | the kernel as built |
//! | 01 | `simplified` | `canonicalize`, `cse`, `tile-while-to-for` (counting `while` loops as `scf.for`), `tile-launch-order` (a 2-D grid's programs renumbered so that those started together touch adjacent memory) |
//! | 02 | `layouts` | `tile-assign-layouts` |
//! | 03 | `predicated` | `tile-predicate` |
//! | 04 | `vectorized` | `tile-vectorize` (elements per access) |
//! | 05 | `simt` | `tile-to-simt` (gpu dialect) |
//! | 06 | `nvvm` | target attached, `gpu`/`arith`/`scf` to `nvvm` and `llvm` |
//! | 07 | `llvm` | line-table debug info on the LLVM functions |
//! | 08 | `ptx` | LLVM IR, `-O3`, NVPTX: what `gpu-module-to-binary{format=isa}` does, run natively (below) |
//!
//! With [`Options::dump`] (or the variables `TILE_DUMP_DIR` and
//! `TILE_DUMP_FILTER`, see [`Dump::from_env`]) every stage is written to a
//! numbered file.
//!
//! Every stage edits the module in place (ours through melior, see
//! `tile_passes`), and MLIR verifies it once at the end of the stage; no
//! stage prints or parses the module, except to write a dump.
//!
//! **The `ptx` stage** goes through LLVM's C API instead of the upstream
//! pass, for speed, with byte-identical PTX ([`ptx_both_ways`] checks it):
//! the target machine is made once per thread, and from `-O1` up the
//! addresses are split and CSE'd (`separate-const-offset-from-gep`,
//! `early-cse`) before the NVPTX backend, whose straight-line strength
//! reduction otherwise spends time quadratic in the accesses per thread
//! comparing copies of the same address (3-5 ms of a vector add).
//!
//! **Timings.** [`Compiled::timings`] holds each stage's time,
//! [`Compiled::ptx_steps`] the `ptx` stage's three steps (`translate`,
//! `optimize`, `codegen`) and [`Compiled::total`] the whole compilation;
//! [`Compiled::timing_report`] makes a table of them, which every
//! compilation prints to standard error when `TILE_TIMINGS=1`
//! ([`TIMINGS_VAR`]). Compile latency is measured by `tile-tools compile-bench`
//! (`tools/`).

mod dump;
mod nvptx;
mod offsets;
mod options;
mod pipeline;
mod spec;
mod specialize;
pub mod target;

pub use dump::Dump;
pub use options::{DEBUG_VAR, Options, debug_from_env};
pub use pipeline::{
    CompileError, Compiled, STAGES, TIMINGS_VAR, compile, compile_copy, compile_text, ptx_both_ways,
};
pub use spec::kernel_spec;
pub use specialize::{DIVISIBILITY_ATTR, EQUAL_TO_ONE_ATTR};
pub use tile_runtime::{Fact, Specialization};
