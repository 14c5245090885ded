//! A CUDA GPU as a backend: its context, the stream all work goes to, and
//! the kernels launched since the last wait.
//!
//! Every operation makes the context current on the calling thread first.
//! Every copy, memset and launch is issued on the backend's stream (the
//! context's legacy default stream for [`Device::new`], or the caller's
//! cudarc stream), and the synchronous ones wait for that stream alone, so
//! uploads, launches and downloads run in the order they were issued.

mod driver;
mod launch_history;
mod timing;

use crate::backend::Backend;
use crate::device::{Device, DeviceLimits, INTERPRET_VAR};
use crate::error::{Result, RuntimeError, call};
use crate::host::HostMemory;
use crate::kernel::KernelSpec;
use crate::launch::LoadedKernel;
use cudarc::driver::sys::{self, CUdevice_attribute};
use cudarc::driver::{CudaContext, CudaStream, result};
use launch_history::LaunchHistory;
use std::mem::MaybeUninit;
use std::panic::catch_unwind;
use std::sync::{Arc, MutexGuard};

#[cfg(test)]
pub(crate) use driver::driver_library_present;
pub(crate) use driver::visible_devices;

/// One GPU's context and stream. Cheap to clone (`Arc`s inside): a
/// [`LoadedKernel`] keeps a clone, so that its launches call the driver
/// without going through the [`Device`]'s `dyn Backend`.
#[derive(Clone)]
pub(crate) struct CudaBackend {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    launched: Arc<LaunchHistory>,
}

impl CudaBackend {
    /// Opens device `ordinal` (retains its primary context) and reads its
    /// limits; [`RuntimeError::NoDevice`] when the driver does not see it.
    pub(crate) fn open(ordinal: usize) -> Result<(CudaBackend, DeviceLimits)> {
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
        Self::on_stream(ctx.default_stream())
    }

    /// A backend that issues its work on `stream` (a cudarc stream of any
    /// context), with its context's limits.
    pub(crate) fn on_stream(stream: Arc<CudaStream>) -> Result<(CudaBackend, DeviceLimits)> {
        let ctx = stream.context().clone();
        let during = format!("opening CUDA device {}", ctx.ordinal());
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
            multiprocessors: attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
        };
        let backend = CudaBackend {
            ctx,
            stream,
            launched: Arc::default(),
        };
        Ok((backend, limits))
    }

    /// Makes the context current on this thread.
    pub(crate) fn bind(&self, during: &str) -> Result<()> {
        call(None, during, || self.ctx.bind_to_thread())
    }

    /// The raw stream work is issued on.
    pub(crate) fn stream(&self) -> sys::CUstream {
        self.stream.cu_stream()
    }

    /// The cudarc stream work is issued on.
    pub(crate) fn cuda_stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// Waits for the work issued on the stream, reporting a kernel fault
    /// as [`RuntimeError::KernelFault`].
    fn wait_stream(&self, during: &str) -> Result<()> {
        let stream = self.stream();
        self.waited(call(
            None,
            during,
            // SAFETY: the stream belongs to the context, current on this
            // thread (every caller binds it first).
            || unsafe { result::stream::synchronize(stream) },
        ))
    }

    /// Notes a launch of `kernel`, for fault reports.
    pub(crate) fn note_launch(&self, kernel: &Arc<str>) {
        self.launched.note(kernel);
    }

    /// The outcome of a wait: on success the launch history is cleared; a
    /// kernel fault becomes [`RuntimeError::KernelFault`], naming the
    /// kernels launched since the last wait.
    pub(crate) fn waited(&self, outcome: Result<()>) -> Result<()> {
        self.launched.waited(outcome)
    }

    /// A copy from the device to the host of `out.len()` bytes at `addr`:
    /// it waits for the work issued before, so a kernel's fault surfaces
    /// here as [`RuntimeError::KernelFault`].
    fn copy_to_host(&self, addr: u64, out: &mut [MaybeUninit<u8>]) -> Result<()> {
        let bytes = out.len();
        let stream = self.stream();
        call(
            None,
            &format!("copying {bytes} bytes from the device"),
            // SAFETY: `out` has room for `bytes` bytes and stays borrowed
            // until the wait below; the driver checks that the device range
            // is allocated.
            || unsafe {
                sys::cuMemcpyDtoHAsync_v2(out.as_mut_ptr().cast(), addr, bytes, stream).result()
            },
        )
        .map_err(|e| self.launched.fault(e))?;
        self.wait_stream("waiting for a copy from the device")
    }
}

impl Backend for CudaBackend {
    fn is_interpreter(&self) -> bool {
        false
    }

    fn kind(&self) -> &'static str {
        "CUDA"
    }

    fn context_id(&self) -> usize {
        self.ctx.cu_ctx() as usize
    }

    fn name(&self) -> Result<String> {
        let dev = self.ctx.cu_device();
        call(None, "reading the device name", || {
            result::device::get_name(dev)
        })
    }

    fn compute_capability(&self) -> Result<(i32, i32)> {
        call(None, "reading the compute capability", || {
            self.ctx.compute_capability()
        })
    }

    fn memory_info(&self) -> Result<(u64, u64)> {
        self.bind("Device::memory_info")?;
        let (free, total) = call(None, "reading the free memory", result::mem_get_info)?;
        Ok((free as u64, total as u64))
    }

    fn host_memory(&self) -> Result<MutexGuard<'_, HostMemory>> {
        Err(RuntimeError::NotInterpretable {
            kernel: None,
            message: format!(
                "Device::with_host_memory: this device is a CUDA GPU, whose memory is not \
                 host memory; use Device::interpreter(), or set {INTERPRET_VAR}=1"
            ),
        })
    }

    fn alloc(&self, bytes: usize) -> Result<u64> {
        self.bind("allocating device memory")?;
        call(
            None,
            &format!("cuMemAlloc of {bytes} bytes"),
            // SAFETY: the memory is set (or copied to) before any read, and
            // every bit pattern of a buffer's elements is valid anyway.
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
        })
    }

    fn alloc_zeroed(&self, bytes: usize) -> Result<u64> {
        let addr = self.alloc(bytes)?;
        let zeroed = self
            .zero_async("Device::alloc", addr, bytes)
            .and_then(|()| self.wait_stream("zeroing device memory"));
        if let Err(e) = zeroed {
            self.free(addr);
            return Err(e);
        }
        Ok(addr)
    }

    fn free(&self, addr: u64) {
        if self.ctx.bind_to_thread().is_ok() {
            // SAFETY: `addr` came from `cuMemAlloc` in this context and is
            // freed once, by its buffer's drop (or by `alloc_zeroed`, whose
            // buffer was never made).
            let _ = catch_unwind(|| unsafe { result::free_sync(addr) });
        }
    }

    fn write(&self, during: &'static str, addr: u64, data: &[u8]) -> Result<()> {
        self.bind(during)?;
        let stream = self.stream();
        call(
            None,
            &format!("copying {} bytes to the device", data.len()),
            // SAFETY: the allocation at `addr` holds at least `data.len()`
            // bytes (a whole buffer of the data's length); `data` stays
            // borrowed until the wait below.
            || unsafe { result::memcpy_htod_async(addr, data, stream) },
        )?;
        self.wait_stream("waiting for a copy to the device")
    }

    fn read(&self, during: &'static str, addr: u64, out: &mut [MaybeUninit<u8>]) -> Result<()> {
        self.bind(during)?;
        self.copy_to_host(addr, out)
    }

    fn zero_async(&self, during: &'static str, addr: u64, bytes: usize) -> Result<()> {
        self.bind(during)?;
        let stream = self.stream();
        call(
            None,
            &format!("queueing a memset of {bytes} bytes"),
            // SAFETY: the range is the whole of a buffer's allocation, which
            // the caller's `&mut` keeps alive and unshared until the call
            // returns; the driver orders the memset before any later use of
            // it on the stream.
            || unsafe { result::memset_d8_async(addr, 0, bytes, stream) },
        )
    }

    fn copy_async(&self, during: &'static str, src: u64, dst: u64, bytes: usize) -> Result<()> {
        self.bind(during)?;
        let stream = self.stream();
        call(
            None,
            &format!("queueing a device copy of {bytes} bytes"),
            // SAFETY: both allocations hold `bytes` bytes and are distinct
            // (the caller borrows `dst`'s buffer mutably, `src`'s shared).
            || unsafe { result::memcpy_dtod_async(dst, src, bytes, stream) },
        )
    }

    fn load(&self, device: &Device, ptx: &str, spec: &KernelSpec) -> Result<LoadedKernel> {
        LoadedKernel::load(device, self, ptx, spec)
    }

    fn synchronize(&self) -> Result<()> {
        self.bind("Device::synchronize")?;
        self.wait_stream("waiting for the device")
    }

    fn as_cuda(&self) -> Option<&CudaBackend> {
        Some(self)
    }

    fn time_ms(&self, f: &mut dyn FnMut() -> Result<()>) -> Result<f32> {
        timing::time_ms(self, f)
    }

    fn time_each_ms(
        &self,
        reps: usize,
        before: &mut dyn FnMut() -> Result<()>,
        timed: &mut dyn FnMut() -> Result<()>,
    ) -> Result<Vec<f32>> {
        timing::time_each_ms(self, reps, before, timed)
    }
}
