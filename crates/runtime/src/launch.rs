//! Kernels loaded on a GPU and their launch: the checks of a launch
//! against the kernel and the device, and `cuLaunchKernel`.
//!
//! A [`LoadedKernel`] keeps the CUDA backend of its device and launches
//! through it directly: no dynamic dispatch, and no heap allocation or
//! formatting on the way to the driver for up to 16 arguments. On a CPU
//! device that loads PTX ([`Device::host_with_loader`]) it holds the
//! [`HostKernel`](crate::HostKernel) the loader made instead, and a launch
//! runs it on the device's host memory.
//!
//! Modules: `grid` holds [`Grid`]; `shape` checks the block and
//! shared memory; `jit` loads PTX through the driver; `host` loads and
//! runs it on a host device; `raw` times bare launches for the benchmark.
//!
//! ```
//! use tile_runtime::Grid;
//!
//! // Grids come from a count, a pair or a triple of program counts.
//! assert_eq!(Grid::from(7u32).dims(), [7, 1, 1]);
//! assert_eq!(Grid::from((4u32, 2u32)).dims(), [4, 2, 1]);
//! // A grid past the device's limits is refused before any launch.
//! assert!(Grid::new(0, 1, 1).check("k", [65535; 3]).is_err());
//! ```

mod grid;
mod host;
mod jit;
mod raw;
mod resources;
mod shape;

use crate::backend::CudaBackend;
use crate::device::{DEFAULT_SHARED_MEM_LIMIT, Device};
use crate::error::{Result, RuntimeError, call, catch, driver_error};
use crate::kernel::{Arg, KernelSpec};
use crate::ptx;
use cudarc::driver::result;
use cudarc::driver::sys::{self, CUfunction_attribute};
use jit::load_module;
use shape::{FunctionLimits, check_shape};
use std::ffi::{CString, c_void};
use std::fmt;
use std::panic::catch_unwind;
use std::sync::Arc;

pub use grid::Grid;
#[doc(hidden)]
pub use raw::{RawStream, raw_launch_host_us};
pub use resources::Resources;

/// A kernel loaded on a device, ready to launch. Cheap to clone; the module
/// is unloaded when the last clone is dropped.
#[derive(Clone)]
pub struct LoadedKernel {
    inner: Arc<Inner>,
}

struct Inner {
    spec: KernelSpec,
    device: Device,
    /// The loaded code.
    code: Code,
}

/// What a launch runs.
enum Code {
    /// A module loaded on a GPU.
    Cuda(CudaCode),
    /// A kernel a host device's loader made (see [`Device::host_with_loader`]).
    Host(Box<dyn crate::host::HostKernel>),
}

/// A module loaded on a GPU, and the function launched.
struct CudaCode {
    /// `spec.name`, shared with the device's launch history.
    name: Arc<str>,
    /// The device's backend, called directly on the launch path.
    cuda: CudaBackend,
    module: sys::CUmodule,
    function: sys::CUfunction,
    /// Threads per block, `spec.num_warps * 32`, checked at load.
    threads: u32,
    /// What the function uses, as the driver reports it.
    resources: Resources,
}

// SAFETY: the module and function handles are plain driver handles, valid
// on any thread once the context is current, which every use makes sure
// of (`CudaBackend::bind`). The function is only used while the module is
// loaded: both live and die together in `CudaCode`.
unsafe impl Send for CudaCode {}
// SAFETY: as above; launching the same function from several threads at
// once is allowed by the driver.
unsafe impl Sync for CudaCode {}

impl Drop for CudaCode {
    fn drop(&mut self) {
        if self.cuda.bind("unloading a module").is_ok() {
            // SAFETY: the module was loaded by `LoadedKernel::load` and is
            // unloaded once, here.
            let _ = catch_unwind(|| unsafe { result::module::unload(self.module) });
        }
    }
}

impl LoadedKernel {
    /// JIT-loads `ptx` on `device`, whose backend is `cuda`, and looks up
    /// `spec.name`; see [`Device::load`].
    pub(crate) fn load(
        device: &Device,
        cuda: &CudaBackend,
        ptx: &str,
        spec: &KernelSpec,
    ) -> Result<LoadedKernel> {
        let kernel = spec.name.as_str();
        check_shape(spec, &device.limits(), None)?;
        let static_shared = ptx::static_shared_bytes(ptx);
        if static_shared > u64::from(DEFAULT_SHARED_MEM_LIMIT) {
            return Err(RuntimeError::TooMuchSharedMemory {
                kernel: kernel.to_string(),
                bytes: static_shared,
                limit: u64::from(DEFAULT_SHARED_MEM_LIMIT),
                what: "static shared memory (the PTX's `.shared` arrays)".into(),
            });
        }
        ptx::check_spec(ptx, spec)?;
        let image = CString::new(ptx).map_err(|e| RuntimeError::BadPtx {
            kernel: kernel.to_string(),
            message: format!(
                "the PTX text contains a NUL byte at offset {}",
                e.nul_position()
            ),
        })?;
        cuda.bind("loading a module")?;
        let module = load_module(kernel, &image)?;
        // From here the module is owned by `inner` and unloaded on error.
        let mut inner = CudaCode {
            name: Arc::from(kernel),
            cuda: cuda.clone(),
            module,
            function: std::ptr::null_mut(),
            threads: 0,
            resources: Resources::default(),
        };
        let name = CString::new(kernel).map_err(|_| RuntimeError::BadPtx {
            kernel: kernel.to_string(),
            message: "the kernel name contains a NUL byte".to_string(),
        })?;
        // SAFETY: `module` was just loaded and is still loaded.
        inner.function = match call(Some(kernel), "cuModuleGetFunction", || unsafe {
            result::module::get_function(module, name)
        }) {
            Ok(f) => f,
            Err(RuntimeError::Driver { code, .. }) if code == "CUDA_ERROR_NOT_FOUND" => {
                return Err(RuntimeError::BadPtx {
                    kernel: kernel.to_string(),
                    message: ptx::missing_entry_message(ptx, kernel),
                });
            }
            Err(e) => return Err(e),
        };
        let function = inner.function;
        let attr = |a: CUfunction_attribute| -> Result<u32> {
            // SAFETY: `function` belongs to the loaded module.
            let v = call(Some(kernel), "reading the kernel's attributes", || unsafe {
                result::function::get_function_attribute(function, a)
            })?;
            Ok(u32::try_from(v).unwrap_or(0))
        };
        let limits = FunctionLimits {
            max_threads_per_block: attr(
                CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
            )?,
            num_regs: attr(CUfunction_attribute::CU_FUNC_ATTRIBUTE_NUM_REGS)?,
            static_shared_bytes: attr(CUfunction_attribute::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)?,
        };
        inner.threads = check_shape(spec, &device.limits(), Some(&limits))?;
        if spec.shared_mem_bytes > DEFAULT_SHARED_MEM_LIMIT {
            let bytes = i32::try_from(spec.shared_mem_bytes).unwrap_or(i32::MAX);
            call(
                Some(kernel),
                &format!("opting in to {bytes} bytes of dynamic shared memory"),
                // SAFETY: `function` belongs to the loaded module; the size
                // was checked against the device's opt-in limit.
                || unsafe {
                    result::function::set_function_attribute(
                        function,
                        CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                        bytes,
                    )
                },
            )?;
        }
        let mut blocks: std::ffi::c_int = 0;
        // SAFETY: `function` belongs to the loaded module; `blocks` outlives
        // the call.
        call(Some(kernel), "reading the kernel's occupancy", || unsafe {
            sys::cuOccupancyMaxActiveBlocksPerMultiprocessor(
                &mut blocks,
                function,
                inner.threads as std::ffi::c_int,
                spec.shared_mem_bytes as usize,
            )
            .result()
        })?;
        inner.resources = Resources {
            registers: limits.num_regs,
            local_bytes: attr(CUfunction_attribute::CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)?,
            static_shared_bytes: limits.static_shared_bytes,
            blocks_per_multiprocessor: u32::try_from(blocks).unwrap_or(0),
        };
        Ok(LoadedKernel::of(device, spec, Code::Cuda(inner)))
    }

    /// A kernel of `spec` on `device` running `code`.
    fn of(device: &Device, spec: &KernelSpec, code: Code) -> LoadedKernel {
        LoadedKernel {
            inner: Arc::new(Inner {
                spec: spec.clone(),
                device: device.clone(),
                code,
            }),
        }
    }

    /// The spec the kernel was loaded with.
    pub fn spec(&self) -> &KernelSpec {
        &self.inner.spec
    }

    /// The device the kernel is loaded on.
    pub fn device(&self) -> &Device {
        &self.inner.device
    }

    /// What the kernel uses of the GPU (registers, spills, shared memory,
    /// resident blocks), as the driver reports it for the code it
    /// compiled; `None` on a CPU device.
    pub fn resources(&self) -> Option<Resources> {
        match &self.inner.code {
            Code::Cuda(code) => Some(code.resources),
            Code::Host(_) => None,
        }
    }

    /// Launches the kernel on `grid` blocks of `num_warps * 32` threads
    /// with `shared_mem_bytes` of dynamic shared memory, then waits for it.
    ///
    /// The arguments are checked against the spec first (count and types),
    /// and the grid against the device. Any failure, at launch or while the
    /// kernel runs (an illegal address, say), comes back as an error that
    /// names the kernel.
    pub fn launch(&self, grid: impl Into<Grid>, args: &[Arg]) -> Result<()> {
        self.launch_on(&self.inner.device, grid, args)
    }

    /// Like [`launch`](Self::launch) but returns once the launch is queued:
    /// only launch-time errors are reported here; a fault while the kernel
    /// runs surfaces at the next synchronizing call
    /// ([`Device::synchronize`], [`Device::download`], ...).
    pub fn launch_async(&self, grid: impl Into<Grid>, args: &[Arg]) -> Result<()> {
        self.launch_async_on(&self.inner.device, grid, args)
    }

    /// [`launch`](Self::launch) on the stream of `device`, a handle to the
    /// same context as the kernel's (one made with
    /// [`Device::from_cuda_stream`], say), then waits for that stream.
    pub fn launch_on(&self, device: &Device, grid: impl Into<Grid>, args: &[Arg]) -> Result<()> {
        let code = match &self.inner.code {
            Code::Cuda(code) => code,
            Code::Host(kernel) => return self.run_on_host(&**kernel, device, grid.into(), args),
        };
        self.launch_async_on(device, grid, args)?;
        let kernel = self.spec().name.as_str();
        let cuda = self.stream_of(code, device)?;
        let stream = cuda.stream();
        cuda.waited(call(
            Some(kernel),
            "running the kernel (synchronize after launch)",
            // SAFETY: the stream belongs to the device's context, which the
            // launch made current.
            || unsafe { result::stream::synchronize(stream) },
        ))
    }

    /// [`launch_async`](Self::launch_async) on the stream of `device`, a
    /// handle to the same context as the kernel's: the launch is ordered
    /// after the work issued on that stream, and before the work issued
    /// on it next. A device of another context is
    /// [`RuntimeError::WrongDevice`]. On a host device the kernel has run
    /// when it returns.
    pub fn launch_async_on(
        &self,
        device: &Device,
        grid: impl Into<Grid>,
        args: &[Arg],
    ) -> Result<()> {
        let code = match &self.inner.code {
            Code::Cuda(code) => code,
            Code::Host(kernel) => return self.run_on_host(&**kernel, device, grid.into(), args),
        };
        let cuda = self.stream_of(code, device)?;
        self.launch_with(code, cuda, grid.into(), args)
    }

    /// The CUDA backend of `device`, which must share the context of the
    /// kernel's `code`.
    fn stream_of<'d>(&'d self, code: &'d CudaCode, device: &'d Device) -> Result<&'d CudaBackend> {
        if std::ptr::eq(device, &self.inner.device) {
            return Ok(&code.cuda);
        }
        match device.cuda_backend() {
            Some(cuda) if device.same_as(&self.inner.device) => Ok(cuda),
            _ => Err(RuntimeError::WrongDevice {
                during: "launching a loaded kernel",
                owner: self.inner.device.id(),
                used_with: device.id(),
            }),
        }
    }

    /// Checks and queues the launch on `cuda`'s stream.
    fn launch_with(
        &self,
        code: &CudaCode,
        cuda: &CudaBackend,
        grid: Grid,
        args: &[Arg],
    ) -> Result<()> {
        let spec = &self.inner.spec;
        let kernel = spec.name.as_str();
        spec.check_args(args)?;
        self.inner.device.check_arg_owners(kernel, args)?;
        grid.check(kernel, self.inner.device.limits().max_grid)?;
        cuda.bind("making the context current for a launch")?;
        // Up to INLINE_PARAMS pointers live on the stack: no allocation on
        // the launch path of an ordinary kernel.
        let mut inline = [std::ptr::null_mut::<c_void>(); INLINE_PARAMS];
        let mut spilled = Vec::new();
        let params: &mut [*mut c_void] = if args.len() <= INLINE_PARAMS {
            for (slot, arg) in inline.iter_mut().zip(args) {
                *slot = arg.as_kernel_param();
            }
            &mut inline[..args.len()]
        } else {
            spilled.extend(args.iter().map(Arg::as_kernel_param));
            &mut spilled
        };
        let [x, y, z] = grid.dims();
        let stream = cuda.stream();
        let function = code.function;
        let threads = code.threads;
        cuda.note_launch(&code.name);
        // The description is only formatted when the launch fails.
        let outcome = catch(Some(kernel), "cuLaunchKernel", || {
            // SAFETY: the function's module is loaded (owned by `inner`);
            // `params` holds one pointer per parameter, each to a value of
            // the parameter's size (checked against the spec, and the spec
            // against the PTX at load), alive until the call returns, which
            // is when the driver has copied them.
            unsafe {
                result::launch_kernel(
                    function,
                    (x, y, z),
                    (threads, 1, 1),
                    spec.shared_mem_bytes,
                    stream,
                    params,
                )
            }
        })?;
        outcome.map_err(|e| {
            driver_error(
                Some(kernel),
                &format!(
                    "launching grid {grid} x block ({threads}, 1, 1) with {} bytes of dynamic \
                     shared memory",
                    spec.shared_mem_bytes
                ),
                e,
            )
        })
    }
}

/// Kernel parameters passed without a heap allocation.
const INLINE_PARAMS: usize = 16;

impl fmt::Debug for LoadedKernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LoadedKernel")
            .field("spec", &self.inner.spec)
            .field("device", &self.inner.device.ordinal())
            .finish()
    }
}
