//! A device: a CUDA GPU or the CPU interpreter, its limits, and the
//! memory operations on it. The work is done by the one backend it holds
//! (a `dyn Backend`: the CUDA driver, or the interpreter's host memory),
//! to which every operation is delegated.
//!
//! ```
//! use tile_runtime::Device;
//!
//! // The interpreter has a GPU's limits and no chip to compile for.
//! let device = Device::interpreter();
//! assert!(device.is_interpreter());
//! assert_eq!(device.limits().max_threads_per_block, 1024);
//! assert!(device.chip().is_err());
//! let mut x = device.alloc::<i32>(4)?;
//! device.write(&mut x, &[1, 2, 3, 4])?;
//! assert_eq!(device.download(&x)?, [1, 2, 3, 4]);
//! # Ok::<(), tile_runtime::RuntimeError>(())
//! ```

mod id;
mod interpret_switch;
mod limits;
mod ptx_loader;

use crate::backend::{Backend, CudaBackend, HostBackend};
use crate::buffer::{Buffer, DeviceCopy, DevicePtr};
use crate::error::{Result, RuntimeError};
use crate::host::HostMemory;
use crate::kernel::KernelSpec;
use crate::launch::LoadedKernel;
use std::fmt;
use std::marker::PhantomData;
use std::mem::MaybeUninit;
use std::sync::{Arc, OnceLock};

pub use id::DeviceId;
pub use interpret_switch::INTERPRET_VAR;
pub(crate) use interpret_switch::interpret_requested;
pub(crate) use limits::DEFAULT_SHARED_MEM_LIMIT;
pub use limits::DeviceLimits;
pub use ptx_loader::{HostPtxLoader, LoadPtxFn};

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
    limits: DeviceLimits,
    /// What the device runs on; every operation is delegated to it.
    backend: Box<dyn Backend>,
}

/// The interpreter device that [`Device::new`]`(0)` hands out while
/// [`INTERPRET_VAR`] is on: one per process, as a GPU has one primary
/// context, so that every `Device::new(0)` may use the others' buffers.
fn shared_interpreter() -> Device {
    static SHARED: OnceLock<Device> = OnceLock::new();
    SHARED.get_or_init(Device::interpreter).clone()
}

/// The bytes of `data`.
fn as_bytes<T: DeviceCopy>(data: &[T]) -> &[u8] {
    // SAFETY: `DeviceCopy` types are plain integers and floats: no padding,
    // every byte initialised; `u8` needs no alignment.
    unsafe { std::slice::from_raw_parts(data.as_ptr().cast(), size_of_val(data)) }
}

impl Device {
    /// The number of devices: 1 while [`INTERPRET_VAR`] is on (the
    /// interpreter), else the number of CUDA devices, 0 when the driver
    /// library is missing or fails to initialise. Never panics.
    pub fn count() -> usize {
        if interpret_requested() {
            return 1;
        }
        crate::backend::cuda::visible_devices().unwrap_or(0)
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
        let (backend, limits) = CudaBackend::open(ordinal)?;
        Ok(Device::on(ordinal, limits, Box::new(backend)))
    }

    /// GPU 0 when the CUDA driver has one, else the CPU interpreter
    /// ([`Device::interpreter`]): what an example or a first program wants,
    /// running wherever it is. [`Device::new`] says why no GPU could be
    /// used; this only logs it (`log` target `tile::device`).
    ///
    /// ```
    /// let device = tile_runtime::Device::gpu_or_interpreter();
    /// let x = device.upload(&[1i32, 2])?;
    /// assert_eq!(device.download(&x)?, [1, 2]);
    /// # Ok::<(), tile_runtime::RuntimeError>(())
    /// ```
    pub fn gpu_or_interpreter() -> Device {
        match Device::new(0) {
            Ok(device) => device,
            Err(e) => {
                log::info!(target: "tile::device", "{e}: running on the CPU interpreter");
                Device::interpreter()
            }
        }
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
        Device::on(0, HostBackend::LIMITS, Box::new(HostBackend::new()))
    }

    /// A new CPU device that runs compiled code: its buffers live in a
    /// [`HostMemory`] of its own, as the interpreter's do, but it is no
    /// interpreter ([`is_interpreter`](Self::is_interpreter) is false):
    /// it reports `loader`'s compute capability, so a
    /// [`Launcher`](crate::Launcher) (`tile::jit`) compiles each kernel
    /// to PTX for that chip, and [`load`](Self::load) hands the PTX to
    /// `loader`, whose [`HostKernel`](crate::HostKernel) then runs each
    /// launch of the [`LoadedKernel`] on the device's memory, at once.
    ///
    /// The hook through which `tile_ptx_exec::device()` runs the PTX the
    /// compiler ships on the CPU (the runtime cannot depend on it).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tile_runtime::{Device, HostPtxLoader, RuntimeError};
    ///
    /// let device = Device::host_with_loader(HostPtxLoader {
    ///     name: "no-op PTX loader".into(),
    ///     compute_capability: (8, 0),
    ///     limits: Device::interpreter().limits(),
    ///     load: Arc::new(|_, spec| {
    ///         Err(RuntimeError::BadPtx {
    ///             kernel: spec.name.clone(),
    ///             message: "this loader loads nothing".into(),
    ///         })
    ///     }),
    /// });
    /// assert!(!device.is_interpreter());
    /// assert_eq!(device.chip()?, "sm_80");
    /// let buf = device.upload(&[1u32, 2])?;
    /// assert_eq!(device.download(&buf)?, [1, 2]);
    /// # Ok::<(), RuntimeError>(())
    /// ```
    pub fn host_with_loader(loader: HostPtxLoader) -> Device {
        let limits = loader.limits;
        Device::on(0, limits, Box::new(HostBackend::with_loader(Some(loader))))
    }

    /// The device `ordinal` with `limits`, run by `backend`.
    pub(crate) fn on(ordinal: usize, limits: DeviceLimits, backend: Box<dyn Backend>) -> Device {
        Device {
            inner: Arc::new(Inner {
                ordinal,
                limits,
                backend,
            }),
        }
    }

    /// What the device runs on.
    fn backend(&self) -> &dyn Backend {
        &*self.inner.backend
    }

    /// The CUDA backend, unless this is the interpreter.
    pub(crate) fn cuda_backend(&self) -> Option<&CudaBackend> {
        self.backend().as_cuda()
    }

    /// True when this device is the CPU interpreter, not a GPU.
    pub fn is_interpreter(&self) -> bool {
        self.backend().is_interpreter()
    }

    /// Runs `f` on the host memory of the interpreter (or of a device of
    /// [`host_with_loader`](Self::host_with_loader)), where its buffers
    /// live (a [`HostKernel`](crate::HostKernel) runs so). `f` holds the
    /// memory locked: it must not use this device (that would deadlock).
    /// On a CUDA device it is [`RuntimeError::NotInterpretable`].
    pub fn with_host_memory<R>(&self, f: impl FnOnce(&mut HostMemory) -> R) -> Result<R> {
        let mut memory = self.backend().host_memory()?;
        Ok(f(&mut memory))
    }

    /// The device's ordinal.
    pub fn ordinal(&self) -> usize {
        self.inner.ordinal
    }

    /// The device's identity: what a buffer's launch arguments carry, and
    /// what a launch compares them with.
    pub fn id(&self) -> DeviceId {
        DeviceId {
            interpreter: self.is_interpreter(),
            ordinal: self.inner.ordinal,
            context: self.context_id(),
        }
    }

    /// Refuses, before `kernel` runs here, a pointer argument made from a
    /// buffer of another device (its address would name other memory, or
    /// none).
    pub(crate) fn check_arg_owners(&self, kernel: &str, args: &[crate::kernel::Arg]) -> Result<()> {
        let here = self.id();
        for (index, arg) in args.iter().enumerate() {
            if let crate::kernel::Arg::Ptr {
                owner: Some(owner), ..
            } = *arg
                && owner != here
            {
                return Err(RuntimeError::ArgOnWrongDevice {
                    kernel: kernel.to_string(),
                    index,
                    owner,
                    used_with: here,
                });
            }
        }
        Ok(())
    }

    /// The limits read when the device was opened (the interpreter's: see
    /// [`Device::interpreter`]).
    pub fn limits(&self) -> DeviceLimits {
        self.inner.limits
    }

    /// The device's name (`"NVIDIA H100 80GB HBM3"`; `"tile CPU
    /// interpreter"` for the interpreter).
    pub fn name(&self) -> Result<String> {
        self.backend().name()
    }

    /// The compute capability as `(major, minor)`: `(9, 0)` on an H100.
    /// The interpreter has none: [`RuntimeError::NotInterpretable`].
    pub fn compute_capability(&self) -> Result<(i32, i32)> {
        self.backend().compute_capability()
    }

    /// The chip code is compiled for on this GPU: `sm_` and the compute
    /// capability (`"sm_90"` on an H100, `"sm_80"` on an A100). The
    /// interpreter has none: [`RuntimeError::NotInterpretable`].
    pub fn chip(&self) -> Result<String> {
        let (major, minor) = self.compute_capability()?;
        Ok(format!("sm_{major}{minor}"))
    }

    /// Copies `data` to a new buffer.
    pub fn upload<T: DeviceCopy>(&self, data: &[T]) -> Result<Buffer<T>> {
        // Not zeroed: every byte is written next.
        let buf = self.new_buffer::<T>(data.len(), false)?;
        if !data.is_empty() {
            self.backend()
                .write("Device::upload", buf.addr, as_bytes(data))?;
        }
        Ok(buf)
    }

    /// A buffer of `len` elements, all bytes zero.
    pub fn alloc<T: DeviceCopy>(&self, len: usize) -> Result<Buffer<T>> {
        self.new_buffer(len, true)
    }

    /// Copies a buffer back to the host. Waits for the work issued before
    /// it, so a kernel's fault surfaces here if it was launched with
    /// [`LoadedKernel::launch_async`].
    pub fn download<T: DeviceCopy>(&self, buf: &Buffer<T>) -> Result<Vec<T>> {
        self.check_owner(buf, "Device::download")?;
        self.read_vec("Device::download", buf.addr, buf.len)
    }

    /// Copies the `len` bytes at `ptr` to the host: a window of memory that
    /// need not be a whole [`Buffer`] (the bytes a launch argument can
    /// reach, say). On the interpreter the window must lie in one
    /// allocation.
    pub fn read_bytes(&self, ptr: DevicePtr, len: usize) -> Result<Vec<u8>> {
        self.read_vec("Device::read_bytes", ptr.0, len)
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
        self.backend()
            .write("Device::write", buf.addr, as_bytes(data))
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
    /// [`RuntimeError::NotInterpretable`]. A device of
    /// [`host_with_loader`](Self::host_with_loader) makes the same checks
    /// and hands the PTX to its loader.
    pub fn load(&self, ptx: &str, spec: &KernelSpec) -> Result<LoadedKernel> {
        self.backend().load(self, ptx, spec)
    }

    /// Waits for all work issued on this device, and reports the first
    /// error of any of it.
    /// A kernel fault comes back as [`RuntimeError::KernelFault`], naming
    /// the kernels launched since the last wait.
    ///
    /// On the interpreter all work is done when issued: nothing to wait
    /// for.
    pub fn synchronize(&self) -> Result<()> {
        self.backend().synchronize()
    }

    /// Free and total device memory, in bytes (`cuMemGetInfo`).
    ///
    /// The interpreter sets no limit of its own (its allocations are the
    /// host's, and fail only when the host's do): its total is
    /// `u64::MAX`, and free is that less the bytes its buffers hold.
    pub fn memory_info(&self) -> Result<(u64, u64)> {
        self.backend().memory_info()
    }

    /// Times `f`, which issues work on this device's stream (launches,
    /// copies), with CUDA events recorded before and after it: returns the
    /// device time in milliseconds. `f` is called once; warm up and repeat
    /// inside it as needed.
    ///
    /// On the interpreter, where `f` does its work before it returns, it
    /// is the wall-clock time of `f`.
    pub fn time_ms(&self, mut f: impl FnMut() -> Result<()>) -> Result<f32> {
        self.backend().time_ms(&mut f)
    }

    /// Queues a memset of every byte of `buf` to zero on this device's
    /// stream and returns without waiting (`cuMemsetD8Async`): it runs
    /// after the work issued before it, and before the work issued after.
    pub fn zero_async<T: DeviceCopy>(&self, buf: &mut Buffer<T>) -> Result<()> {
        self.check_owner(buf, "Device::zero_async")?;
        if buf.len == 0 {
            return Ok(());
        }
        self.backend()
            .zero_async("Device::zero_async", buf.addr, buf.size_bytes())
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
        self.backend()
            .copy_async("Device::copy_async", src.addr, dst.addr, src.size_bytes())
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
        self.backend().time_each_ms(reps, &mut before, &mut timed)
    }

    // ---- for the other modules of the crate ----

    /// An identity of the device's context, the same for every handle to
    /// it (for the interpreter, an odd number of its own).
    pub(crate) fn context_id(&self) -> usize {
        self.backend().context_id()
    }

    /// True when `other` is a handle to the same device context (the same
    /// interpreter).
    pub(crate) fn same_as(&self, other: &Device) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner) || self.id() == other.id()
    }

    /// Frees an allocation; errors are dropped (there is no one to report
    /// them to, and they only happen once the context is already lost).
    pub(crate) fn free(&self, addr: u64) {
        self.backend().free(addr);
    }

    /// A buffer of `len` elements (no allocation for 0), zeroed or with
    /// unset contents.
    fn new_buffer<T: DeviceCopy>(&self, len: usize, zeroed: bool) -> Result<Buffer<T>> {
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
            if zeroed {
                self.backend().alloc_zeroed(bytes)?
            } else {
                self.backend().alloc(bytes)?
            }
        };
        Ok(Buffer {
            device: self.clone(),
            addr,
            len,
            marker: PhantomData,
        })
    }

    /// The `len` elements at `addr`, copied to the host.
    fn read_vec<T: DeviceCopy>(
        &self,
        during: &'static str,
        addr: u64,
        len: usize,
    ) -> Result<Vec<T>> {
        let mut out: Vec<T> = Vec::with_capacity(len);
        if len == 0 {
            return Ok(out);
        }
        let spare = &mut out.spare_capacity_mut()[..len];
        // SAFETY: the bytes of `len` elements of spare capacity, viewed as
        // possibly uninitialised bytes: `MaybeUninit<u8>` has no alignment
        // and no invalid values, and `spare` is borrowed mutably here.
        let bytes = unsafe {
            std::slice::from_raw_parts_mut(
                spare.as_mut_ptr().cast::<MaybeUninit<u8>>(),
                size_of_val(spare),
            )
        };
        self.backend().read(during, addr, bytes)?;
        // SAFETY: the read initialised the bytes of all `len` elements, and
        // every bit pattern is a valid `T` (plain integers and floats).
        unsafe { out.set_len(len) };
        Ok(out)
    }

    fn check_owner<T: DeviceCopy>(&self, buf: &Buffer<T>, during: &'static str) -> Result<()> {
        if self.same_as(&buf.device) {
            Ok(())
        } else {
            Err(RuntimeError::WrongDevice {
                during,
                owner: buf.device.id(),
                used_with: self.id(),
            })
        }
    }
}

impl fmt::Debug for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Device")
            .field("backend", &self.backend().kind())
            .field("ordinal", &self.inner.ordinal)
            .field("limits", &self.inner.limits)
            .finish()
    }
}

#[cfg(test)]
mod tests;
