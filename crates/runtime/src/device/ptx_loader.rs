//! The hook that lets a host-memory device load PTX: a function from PTX
//! text to a [`HostKernel`], given by a crate the runtime cannot depend on
//! (`tile-ptx-exec`, a CPU executor of PTX, depends on the runtime).

use super::DeviceLimits;
use crate::error::Result;
use crate::host::HostKernel;
use crate::kernel::KernelSpec;
use std::fmt;
use std::sync::Arc;

/// Makes a [`HostKernel`] from a kernel's PTX and its spec (entry name,
/// warps, dynamic shared memory); errors are the runtime's (a module it
/// cannot run is best [`RuntimeError::BadPtx`](crate::RuntimeError::BadPtx)
/// or [`RuntimeError::NotInterpretable`](crate::RuntimeError::NotInterpretable)).
pub type LoadPtxFn = dyn Fn(&str, &KernelSpec) -> Result<Box<dyn HostKernel>> + Send + Sync;

/// What a device made by [`Device::host_with_loader`](super::Device::host_with_loader)
/// is: a CPU device whose buffers live in a [`HostMemory`](crate::HostMemory),
/// as the interpreter's do, but which loads PTX through `load`, so that
/// `tile::jit` compiles for it (for the chip of `compute_capability`)
/// instead of interpreting the tile IR.
#[derive(Clone)]
pub struct HostPtxLoader {
    /// The device's name ([`Device::name`](super::Device::name)).
    pub name: String,
    /// The compute capability it reports, so the chip code is compiled for
    /// (`(8, 0)`: `sm_80`). Pick one whose instructions `load`'s kernels
    /// run.
    pub compute_capability: (i32, i32),
    /// The limits launches are checked against.
    pub limits: DeviceLimits,
    /// Turns PTX into a kernel that runs on the device's host memory.
    pub load: Arc<LoadPtxFn>,
}

impl fmt::Debug for HostPtxLoader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HostPtxLoader")
            .field("name", &self.name)
            .field("compute_capability", &self.compute_capability)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}
