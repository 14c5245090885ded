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
pub mod jit;

pub use jit::{COMPILER_VERSION, Jit, TileCompiler, autotuner, jit};
pub use melior;
pub use tile_codegen::{CompileError, Compiled, Dump, Fact, Options, STAGES, Specialization};
pub use tile_dialect::{
    AtomicKind, BuildError, CacheModifier, DType, Diagnostic, Elem, Error, EvictionPolicy,
    IntoOperand, Kernel, KernelBuilder, MemScope, MemSem, Padding, Param, ReduceKind, Result, Rule,
    ScanKind, SourceLoc, Tile, TileType,
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
