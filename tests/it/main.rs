//! Integration tests of the tile compiler, in one test binary (every binary
//! links LLVM and MLIR, so there is only one).

mod attention;
mod builder;
mod codegen;
mod debug;
mod dot;
mod examples;
mod fuzz;
mod interpreter;
mod jit;
mod kernel_fn;
#[rustfmt::skip]
mod limits;
mod memory_order;
mod ops;
mod ptx_exec;
mod tile_shapes;
// Each offending builder call shares its line with the `line!()` it is
// compared with; formatting would split them.
#[rustfmt::skip]
mod errors;
