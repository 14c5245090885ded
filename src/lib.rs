//! `tile`: a compiler for tile-level GPU kernels, in the spirit of Triton,
//! built on MLIR.
//!
//! Kernels are written with the builder ([`Kernel::build`]) and become tile
//! IR: the `tile` dialect (defined in IRDL, verified by MLIR and by the
//! tile rules) plus upstream `arith`, `math` and `scf` on ranked tensors.
//!
//! ```
//! use tile::{DType, Kernel};
//!
//! let context = tile::context().unwrap();
//! let kernel = Kernel::build(&context, "add_one", |k| {
//!     let x = k.arg_ptr("x_ptr", DType::F32);
//!     let n = k.arg("n", DType::I32);
//!     let offs = k.program_id(0) * 128 + k.arange(0, 128);
//!     let m = offs.lt(n);
//!     let v = k.load(x + offs).mask(m).other(0.0).build();
//!     k.store(x + offs, v + 1.0).mask(m).build();
//! })
//! .unwrap();
//! assert!(kernel.to_string().contains("tile.store"));
//! ```

pub mod aot;
mod error;
pub mod jit;
#[doc(hidden)]
pub mod macro_support;
mod typed;

#[doc(hidden)]
pub use macro_support as __macro_support;

pub use error::{Error, Result};

/// A tile kernel written as a Rust function.
///
/// ```
/// use tile::prelude::*;
///
/// #[tile::kernel]
/// fn add(x: Ptr<f32>, y: Ptr<f32>, out: Ptr<f32>, n: i32, #[constexpr] block: i32) {
///     let offs = program_id(0) * block + arange(0, block);
///     let m = offs.lt(n);
///     let a = load(x + offs).mask(m).other(0.0).build();
///     let b = load(y + offs).mask(m).other(0.0).build();
///     store(out + offs, a + b).mask(m).build();
/// }
///
/// # fn main() -> tile::Result<()> {
/// let device = Device::interpreter(); // or Device::new(0)? on a GPU
/// let x = device.upload(&[1.0f32; 1000])?;
/// let y = device.upload(&[2.0f32; 1000])?;
/// let mut out = device.alloc::<f32>(1000)?;
/// add::launch(&device, 1000u32.div_ceil(256), &x, &y, &mut out, 1000, 256)?;
/// assert_eq!(device.download(&out)?, vec![3.0; 1000]);
/// # Ok(())
/// # }
/// ```
///
/// The function becomes a module of the same name holding:
/// - `launch(device, grid, args...)` and `launch_async`: the arguments as
///   the function declares them, checked by the Rust compiler (a
///   `&Buffer<f64>` for a `Ptr<f32>` does not compile, nor does a missing
///   argument); `Ptr<T>` takes any [`PtrArg<T>`], a scalar its Rust type,
///   a constexpr its value;
/// - `jit(constexprs...)`: the [`Jit`] for those constexpr values, made
///   once per value in the process and compiled per device and argument
///   facts (through the kernel cache, as any [`Jit`]);
/// - `build(context, constexprs...)`: the [`Kernel`], as the builder makes
///   it (for [`compile`], dumps, `tile-opt`);
/// - `options()` and `NAME`.
///
/// Parameters: `x: Ptr<T>` for a pointer to [`Element`]s `T` (`f32`,
/// `f16`, `bf16`, `i32`, `u8`, ...); `n: i32` (or `i64`, `f32`, `f16`,
/// `bf16`) for a scalar; `#[constexpr] block: i32` (any `Clone + Hash +
/// Eq` type) for a value the kernel is built for, as Triton's
/// `tl.constexpr`: the body sees a Rust value, each value is a kernel of
/// its own.
///
/// The body is the builder's vocabulary ([`KernelBuilder`], [`Tile`])
/// without the builder: the builder's methods are called as functions
/// (`program_id`, `arange`, `load`, `store`, `zeros`, `full`, `dot`,
/// `where_`, `make_block_ptr`, `atomic_add`, ...; `builder()` is the
/// builder itself), and tiles are Rust values with operators and methods
/// (`x + y`, `x.lt(n)`, `x.sum(0)`, `x.trans()`). Control flow:
/// - `for i in range(start, end, step) { ... }` (also `range(end)`,
///   `range(start, end)`, and `.num_stages(s)` on the range) is a loop in
///   the kernel (`scf.for`). The variables it assigns that were declared
///   before it (`acc += dot(a, b)`, `p = p.advance([0, 32])`) are carried
///   through it, as in Triton. Any other `for` (`for i in 0..4`) and
///   `while` run as the kernel is built: unrolled, as `tl.static_range`.
/// - `if c { ... } else { ... }` on a scalar tile is a branch in the
///   kernel (`scf.if`) whose results are the variables either side
///   assigns (and its value, where it is used); on a `bool` (a constexpr
///   test) only one side is built.
/// - `break`, `continue` and `return` inside a kernel loop or branch are
///   compile errors.
///
/// Every op keeps the line it was written on: a broken rule (a shape
/// mismatch, a block that is no power of two) is an [`Error`] naming the
/// line in the kernel function, and the PTX's line table points there.
/// Attribute options: `#[tile::kernel(num_warps = 8, num_stages = 3)]`.
/// The function must be an item of a module (not inside a function): the
/// module it becomes uses its parent's names (`use super::*`).
pub use tile_macros::kernel;

/// What a kernel author uses, in one import: `use tile::prelude::*;`.
pub mod prelude {
    pub use crate::half::{bf16, f16};
    pub use crate::{
        Buffer, DType, Device, Grid, InputPrecision, Kernel, Options, Padding, Ptr, ReduceKind,
        ScanKind, Tile,
    };
}
pub use typed::{Element, Ptr, PtrArg, ScalarArg};

pub use jit::{COMPILER_VERSION, Jit, TileCompiler, autotuner, jit};
pub use melior;
pub use tile_codegen::{CompileError, Compiled, Dump, Fact, Options, STAGES, Specialization};
/// The kernel builder's error (a broken rule, IR that did not parse or
/// verify); [`Error::Ir`] holds it.
pub use tile_dialect::Error as IrError;
pub use tile_dialect::builder::Dot;
pub use tile_dialect::{
    Atomic, AtomicKind, BuildError, CacheModifier, DType, Diagnostic, Elem, EvictionPolicy,
    InputPrecision, IntoOperand, Kernel, KernelBuilder, Load, MakeBlockPtr, MemScope, MemSem,
    Operand, Padding, Param, ReduceKind, Rule, ScanKind, SourceLoc, Store, Tile, TileType,
};
pub use tile_interpreter::{self as interpreter, Interpreter};
pub use tile_passes::{parse_module, register_all};
pub use tile_runtime::{
    Arg, Artifact, Autotuner, Buffer, CacheKey, CompileEvent, Config, CudaArg, CudaArgs, Device,
    DevicePtr, DiskCache, Grid, InterpretError, InterpretFault, KernelCache, KernelSpec, Launch,
    Launcher, LoadedKernel, Origin, ParamType, Precompiled, RuntimeError, Tuning, VariantSource,
    device_or_skip,
};
pub use tile_runtime::{cudarc, half};

/// Compiles `kernel` to PTX (the kernel itself is left as built). The
/// stages are dumped when `options.dump` says so (by default, when
/// `TILE_DUMP_DIR` is set).
pub fn compile(kernel: &Kernel, options: &Options) -> std::result::Result<Compiled, CompileError> {
    let context = tile_dialect::context_of(kernel.module().context());
    tile_codegen::compile_copy(context, kernel.module(), options)
}

/// A new MLIR context for building and compiling kernels: every upstream
/// dialect registered (the ones compilation uses loaded), the tile dialect,
/// our passes and the upstream passes the pipeline runs (see
/// [`register_all`]; `tile_passes::register_upstream_passes` adds the
/// rest).
pub fn context() -> Result<melior::Context> {
    let context = melior::Context::new();
    register_all(&context)?;
    Ok(context)
}
