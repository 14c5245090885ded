//! A CUDA device: its context and stream, its limits, and the memory
//! operations on it.

use crate::buffer::{Buffer, DeviceCopy};
use crate::error::{Result, RuntimeError, call, code_message, code_name, panic_text};
use crate::kernel::KernelSpec;
use crate::launch::LoadedKernel;
use cudarc::driver::sys::{self, CUdevice_attribute};
use cudarc::driver::{CudaContext, CudaStream, result};
use std::fmt;
use std::marker::PhantomData;
use std::panic::catch_unwind;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// What the runtime says when the driver library cannot be opened.
const NO_LIBRARY: &str = "the CUDA driver library (libcuda.so.1 or libcuda.so) could not be \
                          loaded: install the NVIDIA driver, or add the directory that holds \
                          it to LD_LIBRARY_PATH";

/// One CUDA device: its primary context and the stream all work goes to.
///
/// Cheap to clone (an `Arc` inside), `Send` and `Sync`: every operation
/// makes the context current on the calling thread first. Work is issued
/// on the context's default (legacy NULL) stream, so uploads, launches and
/// downloads run in the order they were issued.
#[derive(Clone)]
pub struct Device {
    inner: Arc<Inner>,
}

struct Inner {
    ordinal: usize,
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    limits: DeviceLimits,
    /// Kernels launched since the last successful wait, oldest first (at
    /// most [`LAUNCH_HISTORY`]; repeats of the last one are not added): a
    /// fault found by a wait names them.
    launched: Mutex<Vec<Arc<str>>>,
}

/// How many launched kernels a fault report can name.
const LAUNCH_HISTORY: usize = 16;

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

impl Device {
    /// The number of CUDA devices; 0 when the driver library is missing or
    /// fails to initialise. Never panics.
    pub fn count() -> usize {
        visible_devices().unwrap_or(0)
    }

    /// Opens device `ordinal` (retains its primary context) and reads its
    /// limits.
    pub fn new(ordinal: usize) -> Result<Device> {
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
                ctx,
                stream,
                limits,
                launched: Mutex::new(Vec::new()),
            }),
        })
    }

    /// The device's ordinal.
    pub fn ordinal(&self) -> usize {
        self.inner.ordinal
    }

    /// The limits read when the device was opened.
    pub fn limits(&self) -> DeviceLimits {
        self.inner.limits
    }

    /// The device's name (`"NVIDIA H100 80GB HBM3"`).
    pub fn name(&self) -> Result<String> {
        let dev = self.inner.ctx.cu_device();
        call(None, "reading the device name", || {
            result::device::get_name(dev)
        })
    }

    /// The compute capability as `(major, minor)`: `(9, 0)` on an H100.
    pub fn compute_capability(&self) -> Result<(i32, i32)> {
        call(None, "reading the compute capability", || {
            self.inner.ctx.compute_capability()
        })
    }

    /// Copies `data` to a new buffer.
    pub fn upload<T: DeviceCopy>(&self, data: &[T]) -> Result<Buffer<T>> {
        let buf = self.alloc_uninit::<T>(data.len())?;
        if !data.is_empty() {
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
        if len > 0 {
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
        if buf.len > 0 {
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
    pub fn load(&self, ptx: &str, spec: &KernelSpec) -> Result<LoadedKernel> {
        LoadedKernel::load(self, ptx, spec)
    }

    /// Waits for all work issued on this device, and reports the first
    /// error of any of it.
    /// A kernel fault comes back as [`RuntimeError::KernelFault`], naming
    /// the kernels launched since the last wait.
    pub fn synchronize(&self) -> Result<()> {
        self.bind("Device::synchronize")?;
        self.waited(call(
            None,
            "waiting for the device",
            result::ctx::synchronize,
        ))
    }

    /// Free and total device memory, in bytes (`cuMemGetInfo`).
    pub fn memory_info(&self) -> Result<(u64, u64)> {
        self.bind("Device::memory_info")?;
        let (free, total) = call(None, "reading the free memory", result::mem_get_info)?;
        Ok((free as u64, total as u64))
    }

    /// Times `f`, which issues work on this device's stream (launches,
    /// copies), with CUDA events recorded before and after it: returns the
    /// device time in milliseconds. `f` is called once; warm up and repeat
    /// inside it as needed.
    pub fn time_ms(&self, mut f: impl FnMut() -> Result<()>) -> Result<f32> {
        let ctx = &self.inner.ctx;
        let stream = &self.inner.stream;
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
    pub fn time_each_ms(
        &self,
        reps: usize,
        mut before: impl FnMut() -> Result<()>,
        mut timed: impl FnMut() -> Result<()>,
    ) -> Result<Vec<f32>> {
        let ctx = &self.inner.ctx;
        let stream = &self.inner.stream;
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
    /// it.
    pub(crate) fn context_id(&self) -> usize {
        self.inner.ctx.cu_ctx() as usize
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

    /// Makes the context current on this thread.
    pub(crate) fn bind(&self, during: &str) -> Result<()> {
        call(None, during, || self.inner.ctx.bind_to_thread())
    }

    /// The raw stream work is issued on.
    pub(crate) fn cu_stream(&self) -> sys::CUstream {
        self.inner.stream.cu_stream()
    }

    /// True when `other` is a handle to the same device context.
    pub(crate) fn same_as(&self, other: &Device) -> bool {
        Arc::ptr_eq(&self.inner.ctx, &other.inner.ctx)
            || self.inner.ctx.cu_ctx() == other.inner.ctx.cu_ctx()
    }

    /// Frees an allocation; errors are dropped (there is no one to report
    /// them to, and they only happen once the context is already lost).
    pub(crate) fn free(&self, addr: u64) {
        if self.inner.ctx.bind_to_thread().is_ok() {
            // SAFETY: `addr` came from `cuMemAlloc` in this context and is
            // freed once, by the buffer's drop.
            let _ = catch_unwind(|| unsafe { result::free_sync(addr) });
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
        f.debug_struct("Device")
            .field("ordinal", &self.inner.ordinal)
            .field("limits", &self.inner.limits)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

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
}
