//! Loading and launching compiled kernels through the CUDA driver, or
//! running them on the CPU interpreter.
//!
//! The runtime takes PTX text and a [`KernelSpec`] (entry name, parameters,
//! warps, shared memory), JIT-loads it on a [`Device`] and launches it with
//! [`Arg`]s checked against the spec. It depends on no compiler crate, so
//! PTX compiled ahead of time can be run with it alone.
//!
//! ```no_run
//! use tile_runtime::{Arg, Device, KernelSpec, ParamType};
//!
//! # fn main() -> Result<(), tile_runtime::RuntimeError> {
//! # let ptx = "";
//! let device = Device::new(0)?;
//! let spec = KernelSpec {
//!     name: "add_one".into(),
//!     params: vec![("x".into(), ParamType::Ptr), ("n".into(), ParamType::I32)],
//!     num_warps: 4,
//!     shared_mem_bytes: 0,
//!     // The kernel indexes `x` with i32 offsets: refuse buffers of more
//!     // than `i32::MAX` f32s past the pointer.
//!     i32_offset_elem_bytes: vec![Some(4), None],
//!     specialization: Default::default(),
//! };
//! let kernel = device.load(ptx, &spec)?;
//! let x = device.upload(&[1.0f32; 1000])?;
//! kernel.launch(1000u32.div_ceil(128), &[Arg::from(&x), Arg::from(1000)])?;
//! assert_eq!(device.download(&x)?, vec![2.0f32; 1000]);
//! # Ok(())
//! # }
//! ```
//!
//! A [`Device`] is a CUDA GPU or the CPU interpreter
//! ([`Device::interpreter`]; or [`Device::new`]`(0)` when the environment
//! variable `TILE_INTERPRET` ([`INTERPRET_VAR`]) is `1`). The interpreter
//! keeps its buffers in [`HostMemory`] at device-like addresses, so
//! buffers, pointers and arguments work unchanged; a [`Launcher`] runs a
//! kernel on it as the [`HostKernel`] its [`VariantSource`] gives
//! (`tile::jit` kernels interpret their tile IR). It cannot load PTX, so
//! code compiled ahead of time ([`Precompiled`]) runs on GPUs only.
//!
//! Modules: [`device`] holds [`Device`] (its limits and memory
//! operations), which delegates its work to a backend (the private
//! `backend` module: one trait, implemented by a CUDA GPU's context and
//! stream and by the interpreter's host memory); [`buffer`] holds
//! [`Buffer`], [`DevicePtr`] and [`DeviceCopy`]; [`kernel`] holds
//! [`KernelSpec`], [`ParamType`], [`Arg`] and their check (types, and
//! buffers past the reach of 32-bit offsets: [`MAX_I32_OFFSET_ELEMS`]);
//! [`launch`] holds [`LoadedKernel`] and [`Grid`]; [`launcher`] holds
//! [`Launcher`] and [`VariantSource`]; [`host`] holds [`HostMemory`] and
//! [`HostKernel`], what the interpreter runs against; [`error`] holds
//! [`RuntimeError`].
//!
//! The driver library (`libcuda.so.1`) is opened at run time: without it
//! (and without `TILE_INTERPRET`) [`Device::count`] is 0 and
//! [`Device::new`] returns [`RuntimeError::NoDevice`]. Tests that need a
//! GPU start with [`device_or_skip`], which hands out the interpreter when
//! `TILE_INTERPRET` is on.

pub mod artifact;
pub mod autotune;
mod backend;
pub mod buffer;
pub mod cache_key;
pub mod cuda;
pub mod device;
pub mod disk_cache;
pub mod error;
pub mod events;
pub mod graph;
pub mod host;
pub mod kernel;
pub mod kernel_cache;
pub mod launch;
pub mod launcher;
pub mod precompiled;
mod ptx;
pub mod specialization;
mod testing;

pub use artifact::{Artifact, ArtifactError};
pub use autotune::{Autotuner, Config, Tuning};
pub use buffer::{Buffer, DeviceCopy, DevicePtr, ElemType};
pub use cache_key::{CacheKey, KeyBuilder};
pub use cuda::{CudaArg, CudaArgs, Launch};
/// The cudarc this crate is built with (its `driver` and `f16` parts):
/// use it for the contexts, streams and slices given to [`cuda`]'s
/// functions, so that the types match.
pub use cudarc;
pub use device::{Device, DeviceId, DeviceLimits, HostPtxLoader, INTERPRET_VAR, LoadPtxFn};
pub use disk_cache::{CACHE_DIR_VAR, DiskCache, Lookup, NO_CACHE_VAR};
pub use error::{Result, RuntimeError};
pub use events::{ArgChange, CompileCause, CompileEvent, Origin, VariantReason};
pub use graph::Graph;
/// The `f16` and `bf16` types of buffers and arguments.
pub use half;
pub use host::{Allocation, HostKernel, HostMemory, InterpretError, InterpretFault};
pub use kernel::{Arg, KernelSpec, MAX_I32_OFFSET_ELEMS, ParamType};
pub use kernel_cache::{Fetched, KernelCache};
pub use launch::{Grid, LoadedKernel, Resources};
pub use launcher::{Launcher, VariantSource};
pub use precompiled::Precompiled;
pub use specialization::{Fact, Specialization};
pub use testing::{REQUIRE_GPU_VAR, device_or_skip, pattern_f32};
