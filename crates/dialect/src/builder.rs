//! The kernel-builder API: the main way to write tile kernels in Rust.
//!
//! ```
//! use tile_dialect::{new_context, DType, Kernel};
//!
//! const BLOCK: i32 = 256;
//! let context = new_context().unwrap();
//! let kernel = Kernel::build(&context, "safe_kernel", |k| {
//!     let x = k.arg_ptr("x_ptr", DType::F32);
//!     let y = k.arg_ptr("y_ptr", DType::F32);
//!     let out = k.arg_ptr("out_ptr", DType::F32);
//!     let n = k.arg("n", DType::I32);
//!     let offs = k.program_id(0) * BLOCK + k.arange(0, BLOCK);
//!     let m = offs.lt(n);
//!     let a = k.load(x + offs).mask(m).other(0.0).build();
//!     let b = k.load(y + offs).mask(m).other(0.0).build();
//!     k.store(out + offs, a + b).mask(m).build();
//! })
//! .unwrap();
//! assert!(kernel.to_string().contains("tile.load"));
//! ```
//!
//! Every call records its caller's `file:line:col` as the op's MLIR location.
//! The first broken rule is kept with that location and the op's name;
//! later calls do nothing, and [`Kernel::build`] returns the error.

mod arith;
mod atomic;
mod block_ptr;
mod branch;
mod control;
mod debug;
mod dot;
mod fused;
mod hints;
mod kernel;
mod memory;
mod rearrange;
mod shape;
mod tile;
mod values;

pub use atomic::Atomic;
pub use block_ptr::MakeBlockPtr;
pub use dot::Dot;
pub use kernel::{Kernel, KernelBuilder, Param};
pub use memory::{Load, Store};
pub use tile::{IntoOperand, Operand, Tile};
