//! Kernels on a host device that loads PTX ([`Device::host_with_loader`]):
//! the load checks what a GPU's would, then hands the PTX to the device's
//! loader; a launch checks what a GPU's would, then runs the loader's
//! [`HostKernel`] on the device's host memory.

use super::shape::check_shape;
use super::{Code, Grid, LoadedKernel};
use crate::device::{Device, LoadPtxFn};
use crate::error::{Result, RuntimeError};
use crate::host::HostKernel;
use crate::kernel::{Arg, KernelSpec};
use crate::ptx;

impl LoadedKernel {
    /// Loads `ptx` as `spec` on the host `device` through `load`, after
    /// the checks of a GPU load that need no driver: the block and shared
    /// memory against the device's limits, and the entry's parameters
    /// against the spec.
    pub(crate) fn load_on_host(
        device: &Device,
        load: &LoadPtxFn,
        ptx: &str,
        spec: &KernelSpec,
    ) -> Result<LoadedKernel> {
        check_shape(spec, &device.limits(), None)?;
        let limit = u64::from(device.limits().max_shared_mem_per_block);
        let static_shared = ptx::static_shared_bytes(ptx);
        if static_shared + u64::from(spec.shared_mem_bytes) > limit {
            return Err(RuntimeError::TooMuchSharedMemory {
                kernel: spec.name.clone(),
                bytes: static_shared + u64::from(spec.shared_mem_bytes),
                limit,
                what: "shared memory (static and dynamic) on this device".into(),
            });
        }
        ptx::check_spec(ptx, spec)?;
        let kernel = load(ptx, spec)?;
        Ok(LoadedKernel::of(device, spec, Code::Host(kernel)))
    }

    /// Runs `kernel` (this one's host code) on `device`, which must be the
    /// kernel's, on `grid`, after checking the arguments and the grid as a
    /// GPU launch does.
    pub(super) fn run_on_host(
        &self,
        kernel: &dyn HostKernel,
        device: &Device,
        grid: Grid,
        args: &[Arg],
    ) -> Result<()> {
        let own = &self.inner.device;
        if !device.same_as(own) {
            return Err(RuntimeError::WrongDevice {
                during: "launching a loaded kernel",
                owner: own.id(),
                used_with: device.id(),
            });
        }
        let spec = &self.inner.spec;
        spec.check_args(args)?;
        own.check_arg_owners(&spec.name, args)?;
        grid.check(&spec.name, own.limits().max_grid)?;
        own.with_host_memory(|memory| kernel.run(memory, grid.dims(), args))?
    }
}

#[cfg(test)]
mod tests;
