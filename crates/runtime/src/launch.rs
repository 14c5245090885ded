//! Loaded kernels and their launch: the grid, the checks of a launch
//! against the kernel and the device, and `cuLaunchKernel`.

use crate::device::{DEFAULT_SHARED_MEM_LIMIT, Device, DeviceLimits};
use crate::error::{Result, RuntimeError, call, catch, code_message, code_name, driver_error};
use crate::kernel::{Arg, KernelSpec};
use crate::ptx;
use cudarc::driver::result;
use cudarc::driver::sys::{self, CUfunction_attribute, CUjit_option};
use std::ffi::{CString, c_void};
use std::fmt;
use std::panic::catch_unwind;
use std::sync::Arc;

/// A launch grid: the number of blocks along x, y and z.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grid([u32; 3]);

impl Grid {
    /// A grid of `x * y * z` blocks. Zero sizes are accepted here and
    /// refused at launch.
    pub fn new(x: u32, y: u32, z: u32) -> Grid {
        Grid([x, y, z])
    }

    /// The sizes along x, y and z.
    pub fn dims(self) -> [u32; 3] {
        self.0
    }

    /// Checks the grid against the device's largest grid; zero sizes are
    /// refused too.
    pub fn check(self, kernel: &str, max: [u32; 3]) -> Result<()> {
        for ((axis, &n), &limit) in ["x", "y", "z"].iter().zip(&self.0).zip(&max) {
            let message = if n == 0 {
                format!(
                    "grid {axis} = 0 (grid {}); every grid dimension must be at least 1",
                    self
                )
            } else if n > limit {
                format!("grid {axis} = {n} exceeds the device limit {limit} (grid {self})")
            } else {
                continue;
            };
            return Err(RuntimeError::BadLaunch {
                kernel: kernel.to_string(),
                message,
            });
        }
        Ok(())
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.0;
        write!(f, "({x}, {y}, {z})")
    }
}

impl From<u32> for Grid {
    fn from(x: u32) -> Self {
        Grid([x, 1, 1])
    }
}

impl From<(u32, u32)> for Grid {
    fn from((x, y): (u32, u32)) -> Self {
        Grid([x, y, 1])
    }
}

impl From<(u32, u32, u32)> for Grid {
    fn from((x, y, z): (u32, u32, u32)) -> Self {
        Grid([x, y, z])
    }
}

impl From<[u32; 3]> for Grid {
    fn from(dims: [u32; 3]) -> Self {
        Grid(dims)
    }
}

/// A kernel loaded on a device, ready to launch. Cheap to clone; the module
/// is unloaded when the last clone is dropped.
#[derive(Clone)]
pub struct LoadedKernel {
    inner: Arc<Inner>,
}

struct Inner {
    spec: KernelSpec,
    /// `spec.name`, shared with the device's launch history.
    name: Arc<str>,
    device: Device,
    module: sys::CUmodule,
    function: sys::CUfunction,
    /// Threads per block, `spec.num_warps * 32`, checked at load.
    threads: u32,
}

// SAFETY: the module and function handles are plain driver handles, valid
// on any thread once the context is current, which every use makes sure of
// (`Device::bind`). The function is only used while the module is loaded:
// both live and die together in `Inner`.
unsafe impl Send for Inner {}
// SAFETY: as above; launching the same function from several threads at
// once is allowed by the driver.
unsafe impl Sync for Inner {}

impl Drop for Inner {
    fn drop(&mut self) {
        if self.device.bind("unloading a module").is_ok() {
            // SAFETY: the module was loaded by `LoadedKernel::load` and is
            // unloaded once, here.
            let _ = catch_unwind(|| unsafe { result::module::unload(self.module) });
        }
    }
}

/// Size of the JIT error-log buffer handed to the driver.
const JIT_LOG_BYTES: usize = 16 * 1024;

/// What a kernel needs from the device, checked before its launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FunctionLimits {
    /// `CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK`: at most this many threads,
    /// given the function's registers.
    pub max_threads_per_block: u32,
    /// Registers per thread.
    pub num_regs: u32,
    /// Static shared memory, in bytes.
    pub static_shared_bytes: u32,
}

/// Checks the spec's block and shared memory against the device and the
/// compiled function. Returns the threads per block.
pub(crate) fn check_shape(
    spec: &KernelSpec,
    device: &DeviceLimits,
    function: Option<&FunctionLimits>,
) -> Result<u32> {
    let threads = spec.block_threads()?;
    let kernel = || spec.name.clone();
    if threads > device.max_threads_per_block {
        return Err(RuntimeError::TooManyThreads {
            kernel: kernel(),
            threads,
            limit: device.max_threads_per_block,
            why: "the device".into(),
        });
    }
    let static_bytes = function.map_or(0, |f| f.static_shared_bytes);
    let total = u64::from(spec.shared_mem_bytes) + u64::from(static_bytes);
    if total > u64::from(device.max_shared_mem_per_block) {
        return Err(RuntimeError::TooMuchSharedMemory {
            kernel: kernel(),
            bytes: total,
            limit: u64::from(device.max_shared_mem_per_block),
            what: "shared memory (static and dynamic) on this device".into(),
        });
    }
    if let Some(f) = function
        && threads > f.max_threads_per_block
    {
        return Err(RuntimeError::TooManyThreads {
            kernel: kernel(),
            threads,
            limit: f.max_threads_per_block,
            why: format!("the compiled code's {} registers per thread", f.num_regs),
        });
    }
    Ok(threads)
}

impl LoadedKernel {
    /// JIT-loads `ptx` on `device` and looks up `spec.name`; see
    /// [`Device::load`].
    pub(crate) fn load(device: &Device, ptx: &str, spec: &KernelSpec) -> Result<LoadedKernel> {
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
        device.bind("loading a module")?;
        let module = load_module(kernel, &image)?;
        // From here the module is owned by `inner` and unloaded on error.
        let mut inner = Inner {
            spec: spec.clone(),
            name: Arc::from(kernel),
            device: device.clone(),
            module,
            function: std::ptr::null_mut(),
            threads: 0,
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
        Ok(LoadedKernel {
            inner: Arc::new(inner),
        })
    }

    /// The spec the kernel was loaded with.
    pub fn spec(&self) -> &KernelSpec {
        &self.inner.spec
    }

    /// The device the kernel is loaded on.
    pub fn device(&self) -> &Device {
        &self.inner.device
    }

    /// Launches the kernel on `grid` blocks of `num_warps * 32` threads
    /// with `shared_mem_bytes` of dynamic shared memory, then waits for it.
    ///
    /// The arguments are checked against the spec first (count and types),
    /// and the grid against the device. Any failure, at launch or while the
    /// kernel runs (an illegal address, say), comes back as an error that
    /// names the kernel.
    pub fn launch(&self, grid: impl Into<Grid>, args: &[Arg]) -> Result<()> {
        self.launch_async(grid, args)?;
        let kernel = self.spec().name.as_str();
        // SAFETY: the stream belongs to the current context.
        let stream = self.inner.device.cu_stream();
        let device = &self.inner.device;
        device.waited(call(
            Some(kernel),
            "running the kernel (synchronize after launch)",
            // SAFETY: the stream belongs to the device's context, which the
            // launch made current.
            || unsafe { result::stream::synchronize(stream) },
        ))
    }

    /// Like [`launch`](Self::launch) but returns once the launch is queued:
    /// only launch-time errors are reported here; a fault while the kernel
    /// runs surfaces at the next synchronizing call
    /// ([`Device::synchronize`], [`Device::download`], ...).
    pub fn launch_async(&self, grid: impl Into<Grid>, args: &[Arg]) -> Result<()> {
        let grid = grid.into();
        let spec = &self.inner.spec;
        let kernel = spec.name.as_str();
        spec.check_args(args)?;
        let device = &self.inner.device;
        grid.check(kernel, device.limits().max_grid)?;
        device.bind("making the context current for a launch")?;
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
        let stream = device.cu_stream();
        let function = self.inner.function;
        let threads = self.inner.threads;
        device.note_launch(&self.inner.name);
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

/// The stream of a [`raw_launch_host_us`] measurement.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawStream {
    /// The legacy NULL stream (what [`Device`] issues work on).
    Null,
    /// A created stream that synchronizes with the NULL stream.
    Blocking,
    /// A created stream that does not.
    NonBlocking,
}

/// For the launch benchmark only: the host time of `samples` bare
/// `cuLaunchKernel` calls of `kernel` (no checks), in microseconds, each
/// timed on its own, the stream drained every 200 (untimed). Tells the
/// driver's own cost from the runtime's.
#[doc(hidden)]
pub fn raw_launch_host_us(
    kernel: &LoadedKernel,
    grid: Grid,
    args: &[Arg],
    samples: usize,
    stream: RawStream,
) -> Result<Vec<f64>> {
    let device = &kernel.inner.device;
    device.bind("a raw launch")?;
    let name = Some(kernel.inner.spec.name.as_str());
    let stream = match stream {
        RawStream::Null => std::ptr::null_mut(),
        RawStream::Blocking => call(name, "cuStreamCreate", || {
            result::stream::create(result::stream::StreamKind::Default)
        })?,
        RawStream::NonBlocking => call(name, "cuStreamCreate", || {
            result::stream::create(result::stream::StreamKind::NonBlocking)
        })?,
    };
    let mut params: Vec<*mut c_void> = args.iter().map(Arg::as_kernel_param).collect();
    let [x, y, z] = grid.dims();
    let mut times = Vec::with_capacity(samples);
    for i in 0..samples {
        if i % 200 == 0 {
            // SAFETY: the stream is this context's.
            call(name, "cuStreamSynchronize", || unsafe {
                result::stream::synchronize(stream)
            })?;
        }
        let started = std::time::Instant::now();
        // SAFETY: as in `launch_async`: the arguments were checked by a
        // launch of the same kernel with them before this is called.
        call(name, "cuLaunchKernel", || unsafe {
            result::launch_kernel(
                kernel.inner.function,
                (x, y, z),
                (kernel.inner.threads, 1, 1),
                kernel.inner.spec.shared_mem_bytes,
                stream,
                &mut params,
            )
        })?;
        times.push(started.elapsed().as_secs_f64() * 1e6);
    }
    // SAFETY: as above; a created stream is destroyed once, here.
    call(name, "cuStreamSynchronize", || unsafe {
        result::stream::synchronize(stream)
    })?;
    if !stream.is_null() {
        let _ = call(name, "cuStreamDestroy", || unsafe {
            result::stream::destroy(stream)
        });
    }
    Ok(times)
}

/// Kernel parameters passed without a heap allocation.
const INLINE_PARAMS: usize = 16;

/// `cuModuleLoadDataEx` with an error-log buffer, so a JIT failure comes
/// back with the assembler's messages.
fn load_module(kernel: &str, image: &CString) -> Result<sys::CUmodule> {
    let mut log = vec![0u8; JIT_LOG_BYTES];
    let mut options = [
        CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
        CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
    ];
    let mut values: [*mut c_void; 2] = [
        log.as_mut_ptr().cast(),
        std::ptr::without_provenance_mut(JIT_LOG_BYTES),
    ];
    let mut module: sys::CUmodule = std::ptr::null_mut();
    // SAFETY: `image` is a NUL-terminated PTX string; the options and their
    // values are two arrays of equal length; the log buffer has the size
    // announced and outlives the call.
    let outcome = catch(Some(kernel), "cuModuleLoadDataEx", || unsafe {
        sys::cuModuleLoadDataEx(
            &mut module,
            image.as_ptr().cast(),
            options.len() as u32,
            options.as_mut_ptr(),
            values.as_mut_ptr(),
        )
        .result()
    })?;
    match outcome {
        Ok(()) => Ok(module),
        Err(e) => {
            let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
            Err(RuntimeError::Jit {
                kernel: kernel.to_string(),
                code: code_name(&e),
                message: code_message(&e),
                log: String::from_utf8_lossy(&log[..end]).into_owned(),
            })
        }
    }
}

impl fmt::Debug for LoadedKernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LoadedKernel")
            .field("spec", &self.inner.spec)
            .field("device", &self.inner.device.ordinal())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::ParamType;

    const H100: DeviceLimits = DeviceLimits {
        max_grid: [2_147_483_647, 65_535, 65_535],
        max_threads_per_block: 1024,
        max_shared_mem_per_block: 232_448,
    };

    fn spec(num_warps: u32, shared_mem_bytes: u32) -> KernelSpec {
        KernelSpec {
            name: "k".into(),
            params: vec![("x".into(), ParamType::Ptr)],
            num_warps,
            shared_mem_bytes,
            i32_offset_elem_bytes: vec![],
            specialization: Default::default(),
        }
    }

    #[test]
    fn grid_conversions() {
        assert_eq!(Grid::from(7).dims(), [7, 1, 1]);
        assert_eq!(Grid::from((7, 3)).dims(), [7, 3, 1]);
        assert_eq!(Grid::from((7, 3, 2)).dims(), [7, 3, 2]);
        assert_eq!(Grid::from([1, 2, 3]), Grid::new(1, 2, 3));
        assert_eq!(Grid::new(4, 5, 6).to_string(), "(4, 5, 6)");
    }

    #[test]
    fn zero_dims_are_refused() {
        for grid in [Grid::from(0), Grid::from((4, 0)), Grid::from((4, 4, 0))] {
            let err = grid.check("k", H100.max_grid).unwrap_err();
            assert!(
                matches!(&err, RuntimeError::BadLaunch { kernel, .. } if kernel == "k"),
                "{err:?}"
            );
        }
        assert_eq!(
            Grid::from((4, 0))
                .check("k", H100.max_grid)
                .unwrap_err()
                .to_string(),
            "kernel `k`: cannot launch: grid y = 0 (grid (4, 0, 1)); every grid dimension must \
             be at least 1"
        );
    }

    #[test]
    fn grids_past_the_device_limit_are_refused() {
        Grid::from((2_147_483_647, 65_535, 65_535))
            .check("k", H100.max_grid)
            .unwrap();
        assert_eq!(
            Grid::from((1, 70_000))
                .check("k", H100.max_grid)
                .unwrap_err()
                .to_string(),
            "kernel `k`: cannot launch: grid y = 70000 exceeds the device limit 65535 (grid (1, \
             70000, 1))"
        );
        assert!(
            Grid::from((1, 1, 65_536))
                .check("k", H100.max_grid)
                .unwrap_err()
                .to_string()
                .contains("grid z = 65536 exceeds the device limit 65535")
        );
    }

    #[test]
    fn shape_checks_against_device_and_function() {
        assert_eq!(check_shape(&spec(4, 0), &H100, None).unwrap(), 128);
        assert_eq!(check_shape(&spec(32, 232_448), &H100, None).unwrap(), 1024);
        let err = check_shape(&spec(4, 232_449), &H100, None).unwrap_err();
        assert_eq!(
            err,
            RuntimeError::TooMuchSharedMemory {
                kernel: "k".into(),
                bytes: 232_449,
                limit: 232_448,
                what: "shared memory (static and dynamic) on this device".into(),
            }
        );
        assert_eq!(
            err.to_string(),
            "kernel `k`: cannot launch: it needs 232449 bytes of shared memory (static and \
             dynamic) on this device per block, at most 232448 are allowed; use smaller tiles"
        );
        let heavy = FunctionLimits {
            max_threads_per_block: 512,
            num_regs: 128,
            static_shared_bytes: 1024,
        };
        assert_eq!(check_shape(&spec(16, 0), &H100, Some(&heavy)).unwrap(), 512);
        assert_eq!(
            check_shape(&spec(32, 0), &H100, Some(&heavy))
                .unwrap_err()
                .to_string(),
            "kernel `k`: cannot launch: a block of 1024 threads, but the compiled code's 128 \
             registers per thread allows at most 512; compile it with fewer warps"
        );
        assert!(matches!(
            check_shape(&spec(4, 232_000), &H100, Some(&heavy)),
            Err(RuntimeError::TooMuchSharedMemory { bytes: 233_024, .. })
        ));
        let small = DeviceLimits {
            max_threads_per_block: 512,
            ..H100
        };
        assert_eq!(
            check_shape(&spec(32, 0), &small, None),
            Err(RuntimeError::TooManyThreads {
                kernel: "k".into(),
                threads: 1024,
                limit: 512,
                why: "the device".into()
            })
        );
        assert!(check_shape(&spec(0, 0), &H100, None).is_err());
    }
}
