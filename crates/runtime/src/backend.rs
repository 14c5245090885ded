//! What a [`Device`] runs on: one trait, [`Backend`], and its two
//! implementations, a CUDA GPU ([`CudaBackend`]) and the CPU interpreter's
//! host memory ([`HostBackend`]).
//!
//! A device holds one backend and delegates to it; code that must know
//! which one it has asks [`Backend::is_interpreter`]. The methods take raw
//! addresses and bytes, so the trait is object-safe (a device holds a
//! `dyn Backend`): typed buffers and the checks of owner and length stay
//! in [`Device`]. Launches do not go through the trait: a
//! [`LoadedKernel`] holds its [`CudaBackend`] and calls it directly, and a
//! [`Launcher`](crate::Launcher) runs host kernels on the
//! [`HostMemory`] it gets from [`Backend::host_memory`].

pub(crate) mod cuda;
pub(crate) mod host;

use crate::device::Device;
use crate::error::Result;
use crate::host::HostMemory;
use crate::kernel::KernelSpec;
use crate::launch::LoadedKernel;
use std::mem::MaybeUninit;
use std::sync::MutexGuard;

pub(crate) use cuda::CudaBackend;
pub(crate) use host::HostBackend;

/// The operations a [`Device`] delegates: identity, memory, loading, and
/// waiting and timing. Every error is the [`RuntimeError`](crate::RuntimeError)
/// the device's method documents.
///
/// `during` names the [`Device`] method that asked (`"Device::upload"`),
/// for the errors that say what was being done.
pub(crate) trait Backend: Send + Sync {
    /// True for the CPU interpreter, false for a GPU.
    fn is_interpreter(&self) -> bool;

    /// What the device is, in words, for `Debug` (`"CUDA"`).
    fn kind(&self) -> &'static str;

    /// An identity of the device's context, the same for every handle to
    /// it and distinct from every other context's: a CUDA context's
    /// address (aligned, so even), or an interpreter's odd number.
    fn context_id(&self) -> usize;

    /// The device's name.
    fn name(&self) -> Result<String>;

    /// The compute capability as `(major, minor)`.
    fn compute_capability(&self) -> Result<(i32, i32)>;

    /// Free and total memory, in bytes.
    fn memory_info(&self) -> Result<(u64, u64)>;

    /// The host memory the buffers live in, locked; an error on a GPU.
    fn host_memory(&self) -> Result<MutexGuard<'_, HostMemory>>;

    /// Allocates `bytes` (not 0) bytes with unset contents.
    fn alloc(&self, bytes: usize) -> Result<u64>;

    /// Allocates `bytes` (not 0) bytes, all zero.
    fn alloc_zeroed(&self, bytes: usize) -> Result<u64>;

    /// Frees the allocation at `addr`; errors are dropped (there is no one
    /// to report them to, and on a GPU they only happen once the context
    /// is already lost).
    fn free(&self, addr: u64);

    /// Copies `data` (not empty) from the host to `addr`.
    fn write(&self, during: &'static str, addr: u64, data: &[u8]) -> Result<()>;

    /// Copies `out.len()` (not 0) bytes at `addr` to the host, into `out`,
    /// after the work issued before; initialises all of `out` when it
    /// succeeds.
    fn read(&self, during: &'static str, addr: u64, out: &mut [MaybeUninit<u8>]) -> Result<()>;

    /// Queues the zeroing of the `bytes` (not 0) bytes at `addr`.
    fn zero_async(&self, during: &'static str, addr: u64, bytes: usize) -> Result<()>;

    /// Queues the copy of the `bytes` (not 0) bytes at `src` to `dst`.
    fn copy_async(&self, during: &'static str, src: u64, dst: u64, bytes: usize) -> Result<()>;

    /// Loads `ptx` as the kernel `spec` on `device` (this backend's).
    fn load(&self, device: &Device, ptx: &str, spec: &KernelSpec) -> Result<LoadedKernel>;

    /// Waits for all work issued, and reports the first error of any.
    fn synchronize(&self) -> Result<()>;

    /// The CUDA backend, when this is one.
    fn as_cuda(&self) -> Option<&CudaBackend> {
        None
    }

    /// The time of the work `f` issues, in milliseconds.
    fn time_ms(&self, f: &mut dyn FnMut() -> Result<()>) -> Result<f32>;

    /// The time of each of `reps` calls of `timed`, each after an untimed
    /// call of `before`, in milliseconds.
    fn time_each_ms(
        &self,
        reps: usize,
        before: &mut dyn FnMut() -> Result<()>,
        timed: &mut dyn FnMut() -> Result<()>,
    ) -> Result<Vec<f32>>;
}
