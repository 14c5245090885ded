//! A device: a CUDA GPU (its context and stream, its limits, and the
//! memory operations on it), or the CPU interpreter, which keeps its
//! buffers in [`HostMemory`] and runs [`HostKernel`](crate::HostKernel)s.

use crate::buffer::{Buffer, DeviceCopy, DevicePtr};
use crate::error::{Result, RuntimeError, call, code_message, code_name, panic_text};
use crate::host::HostMemory;
use crate::kernel::KernelSpec;
use crate::launch::LoadedKernel;
use cudarc::driver::sys::{self, CUdevice_attribute};
use cudarc::driver::{CudaContext, CudaStream, result};
use std::fmt;
use std::marker::PhantomData;
use std::panic::catch_unwind;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Instant;

/// Environment variable that makes [`Device::new`]`(0)` the CPU interpreter
/// and [`Device::count`] 1, whatever GPUs there are: set it to `1` (or
/// `true`, `yes`, `on`, in any case) to run kernels on the host. Unset,
/// empty, `0`, `false`, `no` or `off` leave it off; any other value is
/// ignored with a warning. Read afresh by every call.
pub const INTERPRET_VAR: &str = "TILE_INTERPRET";

/// What the runtime says when the driver library cannot be opened.
const NO_LIBRARY: &str = "the CUDA driver library (libcuda.so.1 or libcuda.so) could not be \
                          loaded: install the NVIDIA driver, or add the directory that holds \
                          it to LD_LIBRARY_PATH";

/// One device: a CUDA GPU, or the CPU interpreter.
///
/// A CUDA device is its primary context and the stream all work goes to.
/// Every operation makes the context current on the calling thread first.
/// Work is issued on the context's default (legacy NULL) stream, so
/// uploads, launches and downloads run in the order they were issued.
///
/// The CPU interpreter ([`Device::interpreter`], or [`Device::new`]`(0)`
/// with [`INTERPRET_VAR`] set) keeps its buffers in a [`HostMemory`] at
/// device-like addresses, so [`Buffer`]s, pointers and arguments behave as
/// on a GPU; a [`Launcher`](crate::Launcher) runs the kernel's IR on it.
/// Every operation runs at once on the calling thread: the `_async` ones
/// too.
///
/// Either way cheap to clone (an `Arc` inside), `Send` and `Sync`.
#[derive(Clone)]
pub struct Device {
    inner: Arc<Inner>,
}

struct Inner {
    ordinal: usize,
    backend: Backend,
    limits: DeviceLimits,
    /// Kernels launched since the last successful wait, oldest first (at
    /// most [`LAUNCH_HISTORY`]; repeats of the last one are not added): a
    /// fault found by a wait names them.
    launched: Mutex<Vec<Arc<str>>>,
}

/// What a [`Device`] runs on.
enum Backend {
    /// A GPU, through the CUDA driver.
    Cuda {
        ctx: Arc<CudaContext>,
        stream: Arc<CudaStream>,
    },
    /// The CPU interpreter.
    Host(Host),
}

/// The state of an interpreter device.
struct Host {
    /// Its [`Device::context_id`]: odd, so never the address of a CUDA
    /// context (an aligned pointer), and never reused in a process.
    id: usize,
    memory: Mutex<HostMemory>,
}

/// How many launched kernels a fault report can name.
const LAUNCH_HISTORY: usize = 16;

/// The name of the interpreter device.
const INTERPRETER_NAME: &str = "tile CPU interpreter";

/// What the interpreter accepts: an H100's limits, so that a launch it
/// runs would also be launched on one.
const INTERPRETER_LIMITS: DeviceLimits = DeviceLimits {
    max_grid: [2_147_483_647, 65_535, 65_535],
    max_threads_per_block: 1024,
    max_shared_mem_per_block: 227 * 1024,
};

/// The device limits a launch is checked against, read once when the
/// [`Device`] is opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceLimits {
    /// Largest grid, in blocks, along x, y and z.
    pub max_grid: [u32; 3],
    /// Most threads in one block.
    pub max_threads_per_block: u32,
    /// Most shared memory one block can opt in to, in bytes (static and
    /// dynamic together).
    pub max_shared_mem_per_block: u32,
}

/// Driver errors that mean a kernel faulted (and the context is lost).
const FAULTS: &[&str] = &[
    "CUDA_ERROR_ILLEGAL_ADDRESS",
    "CUDA_ERROR_MISALIGNED_ADDRESS",
    "CUDA_ERROR_ILLEGAL_INSTRUCTION",
    "CUDA_ERROR_INVALID_ADDRESS_SPACE",
    "CUDA_ERROR_INVALID_PC",
    "CUDA_ERROR_HARDWARE_STACK_ERROR",
    "CUDA_ERROR_LAUNCH_FAILED",
    "CUDA_ERROR_ASSERT",
];

/// Shared memory a block may use without opting in, in bytes.
pub(crate) const DEFAULT_SHARED_MEM_LIMIT: u32 = 48 * 1024;

/// Whether the driver library can be opened (asked once per process).
fn driver_library_present() -> bool {
    static PRESENT: OnceLock<bool> = OnceLock::new();
    *PRESENT.get_or_init(|| {
        // SAFETY: opening the library runs its initialisers, which is what
        // every later driver call would do anyway.
        catch_unwind(|| unsafe { sys::is_culib_present() }).unwrap_or(false)
    })
}

/// The number of devices the driver sees, or why there are none.
fn visible_devices() -> std::result::Result<usize, String> {
    if !driver_library_present() {
        return Err(NO_LIBRARY.to_string());
    }
    match catch_unwind(CudaContext::device_count) {
        Ok(Ok(n)) => Ok(usize::try_from(n).unwrap_or(0)),
        Ok(Err(e)) => Err(format!(
            "the CUDA driver failed to initialise: {} ({})",
            code_name(&e),
            code_message(&e)
        )),
        Err(panic) => Err(format!(
            "the CUDA driver library could not be used: {}",
            panic_text(panic.as_ref())
        )),
    }
}

/// Whether [`INTERPRET_VAR`] asks for the interpreter now.
pub(crate) fn interpret_requested() -> bool {
    let Some(value) = std::env::var_os(INTERPRET_VAR) else {
        return false;
    };
    let text = value.to_string_lossy();
    switch_value(&text).unwrap_or_else(|| {
        log::warn!(
            target: "tile::runtime",
            "{INTERPRET_VAR}={text:?} is neither on (1, true, yes, on) nor off (0, false, no, \
             off, empty): the interpreter stays off"
        );
        false
    })
}

/// The value of an on/off environment variable, or `None` when it is
/// neither.
fn switch_value(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "" | "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// The interpreter device that [`Device::new`]`(0)` hands out while
/// [`INTERPRET_VAR`] is on: one per process, as a GPU has one primary
/// context, so that every `Device::new(0)` may use the others' buffers.
fn shared_interpreter() -> Device {
    static SHARED: OnceLock<Device> = OnceLock::new();
    SHARED.get_or_init(Device::interpreter).clone()
}

/// The error of an operation that needs a GPU, on the interpreter.
fn needs_gpu(kernel: Option<&str>, what: &str) -> RuntimeError {
    RuntimeError::NotInterpretable {
        kernel: kernel.map(str::to_string),
        message: format!("{what} needs a CUDA GPU, and this device is the CPU interpreter"),
    }
}

/// The error of a buffer whose bytes are missing from the interpreter's
/// memory (freed behind its back through [`Device::with_host_memory`]).
fn unallocated(during: &str, addr: u64, bytes: usize) -> RuntimeError {
    RuntimeError::Driver {
        kernel: None,
        during: during.to_string(),
        code: "TILE_INTERPRETER_MEMORY".to_string(),
        message: format!(
            "the {bytes} bytes at {addr:#x} are not allocated in the interpreter's host memory \
             (was the buffer freed through Device::with_host_memory?)"
        ),
    }
}

/// The bytes of `data`.
fn as_bytes<T: DeviceCopy>(data: &[T]) -> &[u8] {
    // SAFETY: `DeviceCopy` types are plain integers and floats: no padding,
    // every byte initialised; `u8` needs no alignment.
    unsafe { std::slice::from_raw_parts(data.as_ptr().cast(), size_of_val(data)) }
}

impl Host {
    fn lock(&self) -> MutexGuard<'_, HostMemory> {
        self.memory.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Copies `data` to `addr`.
    fn write(&self, during: &str, addr: u64, data: &[u8]) -> Result<()> {
        let mut memory = self.lock();
        let to = memory
            .range_mut(addr, data.len())
            .ok_or_else(|| unallocated(during, addr, data.len()))?;
        to.copy_from_slice(data);
        Ok(())
    }
}

impl Device {
    /// The number of devices: 1 while [`INTERPRET_VAR`] is on (the
    /// interpreter), else the number of CUDA devices, 0 when the driver
    /// library is missing or fails to initialise. Never panics.
    pub fn count() -> usize {
        if interpret_requested() {
            return 1;
        }
        visible_devices().unwrap_or(0)
    }

    /// Opens device `ordinal` (retains its primary context) and reads its
    /// limits.
    ///
    /// While [`INTERPRET_VAR`] is on, ordinal 0 is the CPU interpreter
    /// instead (every call hands out the same one, as every call on a GPU
    /// gets the same context), and any other ordinal is
    /// [`RuntimeError::NoDevice`].
    pub fn new(ordinal: usize) -> Result<Device> {
        if interpret_requested() {
            if ordinal != 0 {
                return Err(RuntimeError::NoDevice {
                    ordinal,
                    reason: format!(
                        "{INTERPRET_VAR} is on, and the CPU interpreter has only ordinal 0"
                    ),
                });
            }
            return Ok(shared_interpreter());
        }
        let count =
            visible_devices().map_err(|reason| RuntimeError::NoDevice { ordinal, reason })?;
        if ordinal >= count {
            return Err(RuntimeError::NoDevice {
                ordinal,
                reason: match count {
                    0 => "the driver sees no CUDA device".to_string(),
                    1 => "the driver sees 1 CUDA device (ordinal 0)".to_string(),
                    n => format!("the driver sees {n} CUDA devices (ordinals 0 to {})", n - 1),
                },
            });
        }
        let during = format!("opening CUDA device {ordinal}");
        let ctx = call(None, &during, || CudaContext::new(ordinal))?;
        let stream = ctx.default_stream();
        let attr = |a: CUdevice_attribute| -> Result<u32> {
            let v = call(None, &during, || ctx.attribute(a))?;
            Ok(u32::try_from(v).unwrap_or(0))
        };
        let limits = DeviceLimits {
            max_grid: [
                attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)?,
                attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)?,
                attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)?,
            ],
            max_threads_per_block: attr(
                CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
            )?,
            max_shared_mem_per_block: attr(
                CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
            )?,
        };
        Ok(Device {
            inner: Arc::new(Inner {
                ordinal,
                backend: Backend::Cuda { ctx, stream },
                limits,
                launched: Mutex::new(Vec::new()),
            }),
        })
    }

    /// A new CPU interpreter device, with a host memory of its own (its
    /// buffers cannot be used with another interpreter device). Ordinal 0;
    /// the limits of an H100 (grids up to 2^31-1 x 65535 x 65535, blocks
    /// of up to 1024 threads and 227 KiB of shared memory), so that what
    /// the interpreter launches a GPU would launch too.
    ///
    /// Kernels run on it through a [`Launcher`](crate::Launcher) whose
    /// source gives a [`HostKernel`](crate::HostKernel) (`tile::jit`'s
    /// does: it runs the kernel's tile IR); PTX cannot be loaded on it.
    ///
    /// ```
    /// let device = tile_runtime::Device::interpreter();
    /// let buf = device.upload(&[1.0f32, 2.0])?;
    /// assert_eq!(device.download(&buf)?, vec![1.0, 2.0]);
    /// # Ok::<(), tile_runtime::RuntimeError>(())
    /// ```
    pub fn interpreter() -> Device {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        Device {
            inner: Arc::new(Inner {
                ordinal: 0,
                backend: Backend::Host(Host {
                    id: n.wrapping_mul(2) | 1,
                    memory: Mutex::new(HostMemory::new()),
                }),
                limits: INTERPRETER_LIMITS,
                launched: Mutex::new(Vec::new()),
            }),
        }
    }

    /// True when this device is the CPU interpreter, not a GPU.
    pub fn is_interpreter(&self) -> bool {
        matches!(self.inner.backend, Backend::Host(_))
    }

    /// Runs `f` on the interpreter's host memory, where its buffers live
    /// (a [`HostKernel`](crate::HostKernel) runs so). `f` holds the memory
    /// locked: it must not use this device (that would deadlock). On a
    /// CUDA device it is [`RuntimeError::NotInterpretable`].
    pub fn with_host_memory<R>(&self, f: impl FnOnce(&mut HostMemory) -> R) -> Result<R> {
        match &self.inner.backend {
            Backend::Host(host) => Ok(f(&mut host.lock())),
            Backend::Cuda { .. } => Err(RuntimeError::NotInterpretable {
                kernel: None,
                message: format!(
                    "Device::with_host_memory: this device is a CUDA GPU, whose memory is not \
                     host memory; use Device::interpreter(), or set {INTERPRET_VAR}=1"
                ),
            }),
        }
    }

    /// The device's ordinal.
    pub fn ordinal(&self) -> usize {
        self.inner.ordinal
    }

    /// The limits read when the device was opened (the interpreter's: see
    /// [`Device::interpreter`]).
    pub fn limits(&self) -> DeviceLimits {
        self.inner.limits
    }

    /// The device's name (`"NVIDIA H100 80GB HBM3"`; `"tile CPU
    /// interpreter"` for the interpreter).
    pub fn name(&self) -> Result<String> {
        let Backend::Cuda { ctx, .. } = &self.inner.backend else {
            return Ok(INTERPRETER_NAME.to_string());
        };
        let dev = ctx.cu_device();
        call(None, "reading the device name", || {
            result::device::get_name(dev)
        })
    }

    /// The compute capability as `(major, minor)`: `(9, 0)` on an H100.
    /// The interpreter has none: [`RuntimeError::NotInterpretable`].
    pub fn compute_capability(&self) -> Result<(i32, i32)> {
        let Backend::Cuda { ctx, .. } = &self.inner.backend else {
            return Err(needs_gpu(None, "a compute capability"));
        };
        call(None, "reading the compute capability", || {
            ctx.compute_capability()
        })
    }

    /// Copies `data` to a new buffer.
    pub fn upload<T: DeviceCopy>(&self, data: &[T]) -> Result<Buffer<T>> {
        let buf = self.alloc_uninit::<T>(data.len())?;
        if !data.is_empty() {
            if let Backend::Host(host) = &self.inner.backend {
                host.write("Device::upload", buf.addr, as_bytes(data))?;
                return Ok(buf);
            }
            self.bind("Device::upload")?;
            call(
                None,
                &format!("copying {} bytes to the device", buf.size_bytes()),
                // SAFETY: `buf` holds exactly `data.len()` elements of `T`.
                || unsafe { result::memcpy_htod_sync(buf.addr, data) },
            )?;
        }
        Ok(buf)
    }

    /// A buffer of `len` elements, all bytes zero.
    pub fn alloc<T: DeviceCopy>(&self, len: usize) -> Result<Buffer<T>> {
        let buf = self.alloc_uninit::<T>(len)?;
        // The interpreter's allocations start zeroed.
        if len > 0 && !self.is_interpreter() {
            self.bind("Device::alloc")?;
            call(
                None,
                &format!("zeroing {} bytes of device memory", buf.size_bytes()),
                // SAFETY: the range is the whole of `buf`'s allocation.
                || unsafe { result::memset_d8_sync(buf.addr, 0, buf.size_bytes()) },
            )?;
        }
        Ok(buf)
    }

    /// Copies a buffer back to the host. Waits for the work issued before
    /// it, so a kernel's fault surfaces here if it was launched with
    /// [`LoadedKernel::launch_async`].
    pub fn download<T: DeviceCopy>(&self, buf: &Buffer<T>) -> Result<Vec<T>> {
        self.check_owner(buf, "Device::download")?;
        let mut out: Vec<T> = Vec::with_capacity(buf.len);
        if let Backend::Host(host) = &self.inner.backend {
            let bytes = buf.size_bytes();
            let memory = host.lock();
            let from = memory
                .range(buf.addr, bytes)
                .ok_or_else(|| unallocated("Device::download", buf.addr, bytes))?;
            // SAFETY: `out` has room for `buf.len` elements, `bytes` in
            // all, and `from` holds that many bytes; the two do not
            // overlap.
            unsafe {
                std::ptr::copy_nonoverlapping(from.as_ptr(), out.as_mut_ptr().cast(), bytes);
            }
            // SAFETY: the copy initialised all `buf.len` elements, and every
            // bit pattern is a valid `T` (plain integers and floats).
            unsafe { out.set_len(buf.len) };
        } else if buf.len > 0 {
            self.bind("Device::download")?;
            let bytes = buf.size_bytes();
            call(
                None,
                &format!("copying {bytes} bytes from the device"),
                // SAFETY: `out` has room for `buf.len` elements, `bytes`
                // in all, and `buf` holds that many.
                || unsafe {
                    sys::cuMemcpyDtoH_v2(out.as_mut_ptr().cast(), buf.addr, bytes).result()
                },
            )
            .map_err(|e| self.fault(e))?;
            // SAFETY: the copy initialised all `buf.len` elements, and every
            // bit pattern is a valid `T` (plain integers and floats).
            unsafe { out.set_len(buf.len) };
        }
        Ok(out)
    }

    /// Copies the `len` bytes at `ptr` to the host: a window of memory that
    /// need not be a whole [`Buffer`] (the bytes a launch argument can
    /// reach, say). On the interpreter the window must lie in one
    /// allocation.
    pub fn read_bytes(&self, ptr: DevicePtr, len: usize) -> Result<Vec<u8>> {
        let mut out = vec![0u8; len];
        if len == 0 {
            return Ok(out);
        }
        if let Backend::Host(host) = &self.inner.backend {
            let memory = host.lock();
            let from = memory
                .range(ptr.0, len)
                .ok_or_else(|| unallocated("Device::read_bytes", ptr.0, len))?;
            out.copy_from_slice(from);
        } else {
            self.bind("Device::read_bytes")?;
            call(
                None,
                &format!("copying {len} bytes from the device"),
                // SAFETY: `out` has room for `len` bytes; the driver checks
                // that the device range is allocated.
                || unsafe { sys::cuMemcpyDtoH_v2(out.as_mut_ptr().cast(), ptr.0, len).result() },
            )
            .map_err(|e| self.fault(e))?;
        }
        Ok(out)
    }

    /// Overwrites the whole buffer with `data`, which must have the
    /// buffer's length.
    pub fn write<T: DeviceCopy>(&self, buf: &mut Buffer<T>, data: &[T]) -> Result<()> {
        self.check_owner(buf, "Device::write")?;
        if data.len() != buf.len {
            return Err(RuntimeError::LengthMismatch {
                during: "Device::write",
                expected: buf.len,
                given: data.len(),
            });
        }
        if data.is_empty() {
            return Ok(());
        }
        if let Backend::Host(host) = &self.inner.backend {
            return host.write("Device::write", buf.addr, as_bytes(data));
        }
        self.bind("Device::write")?;
        call(
            None,
            &format!("copying {} bytes to the device", buf.size_bytes()),
            // SAFETY: `buf` holds exactly `data.len()` elements of `T`.
            || unsafe { result::memcpy_htod_sync(buf.addr, data) },
        )
    }

    /// Loads a kernel: JIT-compiles `ptx` for this device
    /// (`cuModuleLoadDataEx`) and looks up the entry `spec.name`.
    ///
    /// Checks first that the spec's block size and shared memory fit the
    /// device, and, where the PTX can be read, that it has the entry with
    /// parameters of the spec's sizes. A JIT failure comes back as
    /// [`RuntimeError::Jit`] with the assembler's log.
    ///
    /// The interpreter cannot run PTX: there it is
    /// [`RuntimeError::NotInterpretable`].
    pub fn load(&self, ptx: &str, spec: &KernelSpec) -> Result<LoadedKernel> {
        if self.is_interpreter() {
            return Err(RuntimeError::NotInterpretable {
                kernel: Some(spec.name.clone()),
                message: "the CPU interpreter runs tile IR, not PTX: launch through tile::jit \
                          (a Launcher), whose kernels keep their IR"
                    .to_string(),
            });
        }
        LoadedKernel::load(self, ptx, spec)
    }

    /// Waits for all work issued on this device, and reports the first
    /// error of any of it.
    /// A kernel fault comes back as [`RuntimeError::KernelFault`], naming
    /// the kernels launched since the last wait.
    ///
    /// On the interpreter all work is done when issued: nothing to wait
    /// for.
    pub fn synchronize(&self) -> Result<()> {
        if self.is_interpreter() {
            return Ok(());
        }
        self.bind("Device::synchronize")?;
        self.waited(call(
            None,
            "waiting for the device",
            result::ctx::synchronize,
        ))
    }

    /// Free and total device memory, in bytes (`cuMemGetInfo`).
    ///
    /// The interpreter sets no limit of its own (its allocations are the
    /// host's, and fail only when the host's do): its total is
    /// `u64::MAX`, and free is that less the bytes its buffers hold.
    pub fn memory_info(&self) -> Result<(u64, u64)> {
        if let Backend::Host(host) = &self.inner.backend {
            let used = host.lock().allocated_bytes();
            return Ok((u64::MAX - used, u64::MAX));
        }
        self.bind("Device::memory_info")?;
        let (free, total) = call(None, "reading the free memory", result::mem_get_info)?;
        Ok((free as u64, total as u64))
    }

    /// Times `f`, which issues work on this device's stream (launches,
    /// copies), with CUDA events recorded before and after it: returns the
    /// device time in milliseconds. `f` is called once; warm up and repeat
    /// inside it as needed.
    ///
    /// On the interpreter, where `f` does its work before it returns, it
    /// is the wall-clock time of `f`.
    pub fn time_ms(&self, mut f: impl FnMut() -> Result<()>) -> Result<f32> {
        let Backend::Cuda { ctx, stream } = &self.inner.backend else {
            let started = Instant::now();
            f()?;
            return Ok(elapsed_ms(started));
        };
        let new_event = || {
            call(None, "creating a timing event", || {
                ctx.new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))
            })
        };
        let start = new_event()?;
        let end = new_event()?;
        call(None, "recording the start event", || start.record(stream))?;
        f()?;
        call(None, "recording the end event", || end.record(stream))?;
        call(None, "waiting for the timed work", || end.synchronize())?;
        call(None, "reading the elapsed time", || start.elapsed_ms(&end))
    }

    /// Queues a memset of every byte of `buf` to zero on this device's
    /// stream and returns without waiting (`cuMemsetD8Async`): it runs
    /// after the work issued before it, and before the work issued after.
    pub fn zero_async<T: DeviceCopy>(&self, buf: &mut Buffer<T>) -> Result<()> {
        self.check_owner(buf, "Device::zero_async")?;
        if buf.len == 0 {
            return Ok(());
        }
        if let Backend::Host(host) = &self.inner.backend {
            let bytes = buf.size_bytes();
            let mut memory = host.lock();
            let to = memory
                .range_mut(buf.addr, bytes)
                .ok_or_else(|| unallocated("Device::zero_async", buf.addr, bytes))?;
            to.fill(0);
            return Ok(());
        }
        self.bind("Device::zero_async")?;
        let stream = self.cu_stream();
        call(
            None,
            &format!("queueing a memset of {} bytes", buf.size_bytes()),
            // SAFETY: the range is the whole of `buf`'s allocation, which
            // `&mut` keeps alive and unshared until the call returns; the
            // driver orders the memset before any later use of it on the
            // stream.
            || unsafe { result::memset_d8_async(buf.addr, 0, buf.size_bytes(), stream) },
        )
    }

    /// Queues a device-to-device copy of `src` into `dst` (of the same
    /// length) on this device's stream and returns without waiting
    /// (`cuMemcpyDtoDAsync`).
    pub fn copy_async<T: DeviceCopy>(&self, src: &Buffer<T>, dst: &mut Buffer<T>) -> Result<()> {
        self.check_owner(src, "Device::copy_async")?;
        self.check_owner(dst, "Device::copy_async")?;
        if src.len != dst.len {
            return Err(RuntimeError::LengthMismatch {
                during: "Device::copy_async",
                expected: dst.len,
                given: src.len,
            });
        }
        if src.len == 0 {
            return Ok(());
        }
        if let Backend::Host(host) = &self.inner.backend {
            let bytes = src.size_bytes();
            let during = "Device::copy_async";
            let mut memory = host.lock();
            let data = memory
                .range(src.addr, bytes)
                .ok_or_else(|| unallocated(during, src.addr, bytes))?
                .to_vec();
            let to = memory
                .range_mut(dst.addr, bytes)
                .ok_or_else(|| unallocated(during, dst.addr, bytes))?;
            to.copy_from_slice(&data);
            return Ok(());
        }
        self.bind("Device::copy_async")?;
        let stream = self.cu_stream();
        call(
            None,
            &format!("queueing a device copy of {} bytes", src.size_bytes()),
            // SAFETY: both allocations hold `size_bytes` bytes and are
            // distinct (`dst` is borrowed mutably, `src` shared).
            || unsafe { result::memcpy_dtod_async(dst.addr, src.addr, src.size_bytes(), stream) },
        )
    }

    /// Times `reps` repetitions of `timed` with CUDA events, the way
    /// `triton.testing.do_bench` does: for each repetition it calls
    /// `before` (untimed: flushing the L2 cache, say), records a start
    /// event, calls `timed`, and records an end event, all without waiting;
    /// after the last repetition it waits once and returns each
    /// repetition's device time in milliseconds, in order. Both closures
    /// should only queue work on this device's stream (`launch_async`,
    /// [`zero_async`](Self::zero_async), [`copy_async`](Self::copy_async)).
    ///
    /// On the interpreter, where the closures do their work before they
    /// return, each time is the wall-clock time of one call of `timed`.
    pub fn time_each_ms(
        &self,
        reps: usize,
        mut before: impl FnMut() -> Result<()>,
        mut timed: impl FnMut() -> Result<()>,
    ) -> Result<Vec<f32>> {
        let Backend::Cuda { ctx, stream } = &self.inner.backend else {
            let mut times = Vec::with_capacity(reps);
            for _ in 0..reps {
                before()?;
                let started = Instant::now();
                timed()?;
                times.push(elapsed_ms(started));
            }
            return Ok(times);
        };
        let new_event = || {
            call(None, "creating a timing event", || {
                ctx.new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))
            })
        };
        let events = (0..reps)
            .map(|_| Ok((new_event()?, new_event()?)))
            .collect::<Result<Vec<_>>>()?;
        for (start, end) in &events {
            before()?;
            call(None, "recording the start event", || start.record(stream))?;
            timed()?;
            call(None, "recording the end event", || end.record(stream))?;
        }
        self.synchronize()?;
        events
            .iter()
            .map(|(start, end)| call(None, "reading the elapsed time", || start.elapsed_ms(end)))
            .collect()
    }

    // ---- for the other modules of the crate ----

    /// An identity of the device's context, the same for every handle to
    /// it (for the interpreter, an odd number of its own).
    pub(crate) fn context_id(&self) -> usize {
        match &self.inner.backend {
            Backend::Cuda { ctx, .. } => ctx.cu_ctx() as usize,
            Backend::Host(host) => host.id,
        }
    }

    /// Notes a launch of `kernel`, for fault reports.
    pub(crate) fn note_launch(&self, kernel: &Arc<str>) {
        let mut launched = self
            .inner
            .launched
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if launched.last().is_some_and(|k| Arc::ptr_eq(k, kernel)) {
            return;
        }
        if launched.len() == LAUNCH_HISTORY {
            launched.remove(0);
        }
        launched.push(kernel.clone());
    }

    /// The outcome of a wait: on success the launch history is cleared; a
    /// kernel fault becomes [`RuntimeError::KernelFault`].
    pub(crate) fn waited(&self, outcome: Result<()>) -> Result<()> {
        match outcome {
            Ok(()) => {
                self.inner
                    .launched
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .clear();
                Ok(())
            }
            Err(e) => Err(self.fault(e)),
        }
    }

    /// `e`, or a [`RuntimeError::KernelFault`] naming the kernels launched
    /// since the last wait when `e` is a fault that loses the context.
    pub(crate) fn fault(&self, e: RuntimeError) -> RuntimeError {
        match e {
            RuntimeError::Driver { code, message, .. } if FAULTS.contains(&code.as_str()) => {
                let kernels = self
                    .inner
                    .launched
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .iter()
                    .map(|k| k.to_string())
                    .collect();
                RuntimeError::KernelFault {
                    kernels,
                    code,
                    message,
                }
            }
            other => other,
        }
    }

    /// Makes the context current on this thread (on the interpreter,
    /// [`RuntimeError::NotInterpretable`]: there is no context).
    pub(crate) fn bind(&self, during: &str) -> Result<()> {
        match &self.inner.backend {
            Backend::Cuda { ctx, .. } => call(None, during, || ctx.bind_to_thread()),
            Backend::Host(_) => Err(needs_gpu(None, during)),
        }
    }

    /// The raw stream work is issued on (null, the legacy stream's handle,
    /// on the interpreter, which never issues work on a stream: no
    /// [`LoadedKernel`] is ever made on it).
    pub(crate) fn cu_stream(&self) -> sys::CUstream {
        match &self.inner.backend {
            Backend::Cuda { stream, .. } => stream.cu_stream(),
            Backend::Host(_) => std::ptr::null_mut(),
        }
    }

    /// True when `other` is a handle to the same device context (the same
    /// interpreter).
    pub(crate) fn same_as(&self, other: &Device) -> bool {
        match (&self.inner.backend, &other.inner.backend) {
            (Backend::Cuda { ctx: a, .. }, Backend::Cuda { ctx: b, .. }) => {
                Arc::ptr_eq(a, b) || a.cu_ctx() == b.cu_ctx()
            }
            (Backend::Host(_), Backend::Host(_)) => Arc::ptr_eq(&self.inner, &other.inner),
            _ => false,
        }
    }

    /// Frees an allocation; errors are dropped (there is no one to report
    /// them to, and they only happen once the context is already lost).
    pub(crate) fn free(&self, addr: u64) {
        match &self.inner.backend {
            Backend::Cuda { ctx, .. } => {
                if ctx.bind_to_thread().is_ok() {
                    // SAFETY: `addr` came from `cuMemAlloc` in this context
                    // and is freed once, by the buffer's drop.
                    let _ = catch_unwind(|| unsafe { result::free_sync(addr) });
                }
            }
            Backend::Host(host) => {
                host.lock().free(addr);
            }
        }
    }

    /// A buffer of `len` elements with unset contents (no allocation for 0).
    fn alloc_uninit<T: DeviceCopy>(&self, len: usize) -> Result<Buffer<T>> {
        let addr = if len == 0 {
            0
        } else {
            let bytes = len
                .checked_mul(size_of::<T>())
                .ok_or_else(|| RuntimeError::Driver {
                    kernel: None,
                    during: format!(
                        "allocating {len} elements of {}",
                        std::any::type_name::<T>()
                    ),
                    code: "CUDA_ERROR_OUT_OF_MEMORY".to_string(),
                    message: "the size overflows the address space".to_string(),
                })?;
            if let Backend::Host(host) = &self.inner.backend {
                let mut memory = host.lock();
                memory
                    .try_alloc(bytes)
                    .ok_or_else(|| RuntimeError::OutOfMemory {
                        requested: bytes as u64,
                        free: u64::MAX - memory.allocated_bytes(),
                        total: u64::MAX,
                    })?
            } else {
                self.bind("allocating device memory")?;
                call(
                    None,
                    &format!("cuMemAlloc of {bytes} bytes"),
                    // SAFETY: the memory is set (or copied to) before any read,
                    // and every bit pattern is a valid `T` anyway.
                    || unsafe { result::malloc_sync(bytes) },
                )
                .map_err(|e| match e {
                    RuntimeError::Driver { code, .. } if code == "CUDA_ERROR_OUT_OF_MEMORY" => {
                        let (free, total) = self.memory_info().unwrap_or((0, 0));
                        RuntimeError::OutOfMemory {
                            requested: bytes as u64,
                            free,
                            total,
                        }
                    }
                    other => other,
                })?
            }
        };
        Ok(Buffer {
            device: self.clone(),
            addr,
            len,
            marker: PhantomData,
        })
    }

    fn check_owner<T: DeviceCopy>(&self, buf: &Buffer<T>, during: &'static str) -> Result<()> {
        if self.same_as(&buf.device) {
            Ok(())
        } else {
            Err(RuntimeError::WrongDevice {
                during,
                owner: buf.device.ordinal(),
                used_with: self.ordinal(),
            })
        }
    }
}

impl fmt::Debug for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let backend = match self.inner.backend {
            Backend::Cuda { .. } => "CUDA",
            Backend::Host(_) => "CPU interpreter",
        };
        f.debug_struct("Device")
            .field("backend", &backend)
            .field("ordinal", &self.inner.ordinal)
            .field("limits", &self.inner.limits)
            .finish()
    }
}

/// Milliseconds since `started`.
fn elapsed_ms(started: Instant) -> f32 {
    started.elapsed().as_secs_f32() * 1e3
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::Allocation;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn read_bytes_copies_a_window_of_one_allocation() {
        let device = Device::interpreter();
        let data: Vec<u8> = (1..=10).collect();
        let buf = device.upload(&data).unwrap();
        let at = DevicePtr(buf.ptr().0 + 3);
        assert_eq!(device.read_bytes(at, 4).unwrap(), vec![4, 5, 6, 7]);
        assert_eq!(device.read_bytes(at, 0).unwrap(), Vec::<u8>::new());
        assert!(
            device.read_bytes(at, 8).is_err(),
            "past the end of the buffer"
        );
    }

    #[test]
    fn handles_are_send_and_sync() {
        assert_send_sync::<Device>();
        assert_send_sync::<Buffer<f32>>();
        assert_send_sync::<LoadedKernel>();
    }

    /// Meaningful on a machine without the driver (CI); on a GPU machine it
    /// only checks that the calls return.
    #[test]
    fn without_a_driver_count_is_zero_and_new_says_why() {
        let _env = crate::testing::env_lock();
        if interpret_requested() {
            eprintln!("{INTERPRET_VAR} is on: device 0 is the interpreter");
            return;
        }
        let n = Device::count();
        if driver_library_present() {
            eprintln!("driver library present: {n} device(s)");
            return;
        }
        assert_eq!(n, 0);
        match Device::new(0) {
            Err(RuntimeError::NoDevice { ordinal: 0, reason }) => {
                assert!(reason.contains("libcuda.so"), "{reason}");
            }
            other => panic!("expected NoDevice, got {other:?}"),
        }
    }

    #[test]
    fn queued_zero_copy_and_timed_repetitions() {
        let _env = crate::testing::env_lock();
        let Some(device) = crate::device_or_skip("queued_zero_copy_and_timed_repetitions") else {
            return;
        };
        let src = device.upload(&[1.5f32, -2.0, 3.0]).unwrap();
        let mut dst = device.upload(&[9.0f32; 3]).unwrap();
        let mut flush = device.upload(&[7u8; 4096]).unwrap();
        let times = device
            .time_each_ms(
                3,
                || device.zero_async(&mut flush),
                || device.copy_async(&src, &mut dst),
            )
            .unwrap();
        assert_eq!(times.len(), 3);
        assert!(
            times.iter().all(|t| t.is_finite() && *t >= 0.0),
            "{times:?}"
        );
        assert_eq!(device.download(&dst).unwrap(), vec![1.5, -2.0, 3.0]);
        assert_eq!(device.download(&flush).unwrap(), vec![0u8; 4096]);
        let mut short = device.alloc::<f32>(2).unwrap();
        assert!(matches!(
            device.copy_async(&src, &mut short),
            Err(RuntimeError::LengthMismatch {
                expected: 2,
                given: 3,
                ..
            })
        ));
    }

    #[test]
    fn an_ordinal_past_the_devices_is_no_device() {
        match Device::new(1_000) {
            Err(RuntimeError::NoDevice { ordinal: 1_000, .. }) => {}
            other => panic!("expected NoDevice, got {other:?}"),
        }
    }

    /// The bytes the interpreter `device` holds now.
    fn held(device: &Device) -> u64 {
        device.with_host_memory(|m| m.allocated_bytes()).unwrap()
    }

    #[test]
    fn the_interpreter_is_a_device_without_a_gpu() {
        let device = Device::interpreter();
        assert!(device.is_interpreter());
        assert_eq!(device.ordinal(), 0);
        assert_eq!(device.name().unwrap(), "tile CPU interpreter");
        assert_eq!(
            device.limits(),
            DeviceLimits {
                max_grid: [2_147_483_647, 65_535, 65_535],
                max_threads_per_block: 1024,
                max_shared_mem_per_block: 232_448,
            }
        );
        assert!(matches!(
            device.compute_capability(),
            Err(RuntimeError::NotInterpretable { kernel: None, .. })
        ));
        assert!(matches!(
            device.bind("a test"),
            Err(RuntimeError::NotInterpretable { .. })
        ));
        device.synchronize().unwrap();
        assert!(format!("{device:?}").contains("CPU interpreter"));
        // Each interpreter is a context of its own; clones share it.
        let other = Device::interpreter();
        assert_eq!(device.context_id() % 2, 1);
        assert_ne!(device.context_id(), other.context_id());
        assert_eq!(device.context_id(), device.clone().context_id());
        assert!(device.same_as(&device.clone()));
        assert!(!device.same_as(&other));
    }

    #[test]
    fn interpreter_memory_round_trips() {
        let device = Device::interpreter();
        let data: Vec<i64> = (0..1000).map(|i| i * 3 - 7).collect();
        let buf = device.upload(&data).unwrap();
        assert_ne!(buf.ptr().0, 0);
        assert_eq!(buf.ptr().0 % 256, 0);
        assert_eq!(device.download(&buf).unwrap(), data);
        // Pointer arithmetic is the GPU's: element 3 is 24 bytes in.
        let third = buf.ptr_at(3).unwrap().0;
        assert_eq!(third, buf.ptr().0 + 24);
        let bytes = device
            .with_host_memory(|m| m.range(third, 8).map(<[u8]>::to_vec))
            .unwrap()
            .unwrap();
        assert_eq!(i64::from_ne_bytes(bytes.try_into().unwrap()), 2);

        let mut zeros = device.alloc::<f32>(513).unwrap();
        assert_eq!(device.download(&zeros).unwrap(), vec![0.0; 513]);
        let ramp: Vec<f32> = (0..513).map(|i| i as f32 * 0.5).collect();
        device.write(&mut zeros, &ramp).unwrap();
        assert_eq!(device.download(&zeros).unwrap(), ramp);
        assert!(matches!(
            device.write(&mut zeros, &ramp[1..]),
            Err(RuntimeError::LengthMismatch {
                expected: 513,
                given: 512,
                ..
            })
        ));

        let src = device.upload(&[1.5f32, -2.0, 3.0]).unwrap();
        let mut dst = device.upload(&[9.0f32; 3]).unwrap();
        device.copy_async(&src, &mut dst).unwrap();
        assert_eq!(device.download(&dst).unwrap(), vec![1.5, -2.0, 3.0]);
        assert_eq!(device.download(&src).unwrap(), vec![1.5, -2.0, 3.0]);
        device.zero_async(&mut dst).unwrap();
        assert_eq!(device.download(&dst).unwrap(), vec![0.0; 3]);
        let mut short = device.alloc::<f32>(2).unwrap();
        assert!(matches!(
            device.copy_async(&src, &mut short),
            Err(RuntimeError::LengthMismatch {
                expected: 2,
                given: 3,
                ..
            })
        ));

        let empty = device.upload::<u8>(&[]).unwrap();
        assert_eq!(empty.ptr().0, 0);
        assert_eq!(device.download(&empty).unwrap(), Vec::<u8>::new());

        let live = 1000 * 8 + 513 * 4 + 3 * 4 + 3 * 4 + 2 * 4;
        assert_eq!(held(&device), live);
        assert_eq!(device.memory_info().unwrap(), (u64::MAX - live, u64::MAX));
    }

    #[test]
    fn interpreter_buffers_free_their_memory_on_drop() {
        let device = Device::interpreter();
        let buf = device.upload(&[1u32, 2, 3]).unwrap();
        let base = buf.ptr().0;
        let at = |addr| device.with_host_memory(|m| m.allocation(addr)).unwrap();
        assert_eq!(at(base + 11), Some(Allocation { base, len: 12 }));
        // A clone of the device keeps the memory alive for the buffer.
        let clone = device.clone();
        let kept = clone.upload(&[7u8; 100]).unwrap();
        drop(buf);
        assert_eq!(at(base), None);
        assert_eq!(held(&device), 100);
        drop(clone);
        drop(kept);
        assert_eq!(held(&device), 0);
    }

    #[test]
    fn interpreter_errors() {
        let device = Device::interpreter();
        let spec = KernelSpec {
            name: "add_one".into(),
            params: vec![],
            num_warps: 4,
            shared_mem_bytes: 0,
            i32_offset_elem_bytes: vec![],
            specialization: Default::default(),
        };
        match device.load(".version 8.0", &spec) {
            Err(RuntimeError::NotInterpretable {
                kernel: Some(kernel),
                message,
            }) => {
                assert_eq!(kernel, "add_one");
                assert!(message.contains("tile::jit"), "{message}");
            }
            other => panic!("expected NotInterpretable, got {other:?}"),
        }
        // A buffer of another interpreter is another device's.
        let other = Device::interpreter();
        let theirs = other.upload(&[1.0f32]).unwrap();
        assert!(matches!(
            device.download(&theirs),
            Err(RuntimeError::WrongDevice { .. })
        ));
        // More than the host could ever give is refused, not an abort.
        let requested = isize::MAX as u64 + 1;
        assert!(matches!(
            device.alloc::<u8>(requested as usize),
            Err(RuntimeError::OutOfMemory { requested: r, total: u64::MAX, .. }) if r == requested
        ));
        // Memory freed behind the buffer's back is reported, not read.
        let buf = device.upload(&[1u16, 2]).unwrap();
        assert!(device.with_host_memory(|m| m.free(buf.ptr().0)).unwrap());
        assert!(matches!(
            device.download(&buf),
            Err(RuntimeError::Driver { code, .. }) if code == "TILE_INTERPRETER_MEMORY"
        ));
    }

    #[test]
    fn interpreter_timing_is_wall_clock() {
        let device = Device::interpreter();
        let (mut before, mut timed) = (0, 0);
        let times = device
            .time_each_ms(
                3,
                || {
                    before += 1;
                    Ok(())
                },
                || {
                    timed += 1;
                    std::thread::sleep(std::time::Duration::from_millis(2));
                    Ok(())
                },
            )
            .unwrap();
        assert_eq!((before, timed), (3, 3));
        assert_eq!(times.len(), 3);
        assert!(
            times.iter().all(|t| *t >= 2.0 && t.is_finite()),
            "{times:?}"
        );
        let t = device
            .time_ms(|| {
                std::thread::sleep(std::time::Duration::from_millis(2));
                Ok(())
            })
            .unwrap();
        assert!(t >= 2.0, "{t}");
    }

    #[test]
    fn on_off_values() {
        for on in ["1", "true", "TRUE", "Yes", "on", " 1 "] {
            assert_eq!(switch_value(on), Some(true), "{on:?}");
        }
        for off in ["", "0", "false", "False", "no", "OFF"] {
            assert_eq!(switch_value(off), Some(false), "{off:?}");
        }
        for neither in ["2", "interpret", "y"] {
            assert_eq!(switch_value(neither), None, "{neither:?}");
        }
    }

    /// Puts [`INTERPRET_VAR`] back as it was when dropped.
    struct RestoreVar(Option<std::ffi::OsString>);

    impl Drop for RestoreVar {
        fn drop(&mut self) {
            set_interpret_var(self.0.as_deref());
        }
    }

    fn set_interpret_var(value: Option<&std::ffi::OsStr>) {
        // SAFETY: `set_var` and `remove_var` race with reads of the
        // environment on other threads. The crate's tests that read this
        // variable hold `env_lock` (as the caller does), and std's readers
        // take std's environment lock. What is left is C code reading the
        // environment on another test thread meanwhile: the only such code
        // here is the CUDA driver's initialisation, which
        // `the_environment_switch` runs (through `Device::count`) before it
        // changes anything.
        unsafe {
            match value {
                Some(v) => std::env::set_var(INTERPRET_VAR, v),
                None => std::env::remove_var(INTERPRET_VAR),
            }
        }
    }

    /// Every assertion that sets [`INTERPRET_VAR`] is here, under the
    /// environment lock, and the variable is restored at the end.
    #[test]
    fn the_environment_switch() {
        let _env = crate::testing::env_lock();
        let gpus = visible_devices().unwrap_or(0);
        let _restore = RestoreVar(std::env::var_os(INTERPRET_VAR));
        for on in ["1", "true", "YES"] {
            set_interpret_var(Some(on.as_ref()));
            assert!(interpret_requested(), "{on:?}");
            assert_eq!(Device::count(), 1, "{on:?}");
        }
        let a = Device::new(0).unwrap();
        assert!(a.is_interpreter());
        assert_eq!(a.ordinal(), 0);
        // Every `Device::new(0)` is the same interpreter, as on a GPU.
        let b = Device::new(0).unwrap();
        assert!(a.same_as(&b));
        let buf = a.upload(&[4i32, 5]).unwrap();
        assert_eq!(b.download(&buf).unwrap(), vec![4, 5]);
        match Device::new(1) {
            Err(RuntimeError::NoDevice { ordinal: 1, reason }) => {
                assert!(reason.contains("only ordinal 0"), "{reason}");
                assert!(reason.contains(INTERPRET_VAR), "{reason}");
            }
            other => panic!("expected NoDevice, got {other:?}"),
        }
        for off in ["0", "", "false", "not-a-switch"] {
            set_interpret_var(Some(off.as_ref()));
            assert!(!interpret_requested(), "{off:?}");
            assert_eq!(Device::count(), gpus, "{off:?}");
            if let Ok(d) = Device::new(0) {
                assert!(!d.is_interpreter(), "{off:?}");
            }
        }
        set_interpret_var(None);
        assert_eq!(Device::count(), gpus);
        assert!(Device::new(0).map_or(true, |d| !d.is_interpreter()));
    }
}
