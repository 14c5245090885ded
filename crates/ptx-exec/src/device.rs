//! The executor as a [`Device`]: a CPU device with host memory, as the
//! interpreter's, on which `tile::jit` compiles each kernel to PTX for
//! sm_80 ([`device`]) or sm_90 ([`sm_90_device`]) and this crate runs it
//! ([`Device::host_with_loader`]). Every suite that launches through a
//! `Device` then checks the code we ship.

use crate::PtxKernel;
use std::sync::Arc;
use tile_runtime::{
    Device, DeviceLimits, HostKernel, HostPtxLoader, KernelSpec, Result, RuntimeError,
};

/// The name of the executor device ([`Device::name`]).
pub const DEVICE_NAME: &str = "tile PTX executor (CPU, sm_80)";

/// The compute capability the device reports: sm_80, whose instructions
/// (`mma.sync`, `ldmatrix`, `cp.async`) the executor runs; kernels are
/// compiled for it.
pub const COMPUTE_CAPABILITY: (i32, i32) = (8, 0);

/// An A100's limits, the sm_80 part: grids up to 2^31-1 x 65535 x 65535,
/// blocks of up to 1024 threads and 163 KiB of shared memory, 108
/// multiprocessors.
pub const LIMITS: DeviceLimits = DeviceLimits {
    max_grid: [2_147_483_647, 65_535, 65_535],
    max_threads_per_block: 1024,
    max_shared_mem_per_block: 163 * 1024,
    multiprocessors: 108,
};

/// A new executor device, with a host memory of its own: not an
/// interpreter ([`Device::is_interpreter`] is false), its chip is sm_80,
/// and [`Device::load`] reads the PTX into a [`PtxKernel`] (an opcode
/// outside the executor's subset is [`RuntimeError::BadPtx`] naming it)
/// that each launch runs on the device's memory.
///
/// ```
/// let device = tile_ptx_exec::device();
/// assert!(!device.is_interpreter());
/// assert_eq!(device.chip()?, "sm_80");
/// # Ok::<(), tile_runtime::RuntimeError>(())
/// ```
pub fn device() -> Device {
    executor(DEVICE_NAME, COMPUTE_CAPABILITY, LIMITS)
}

/// The name of the sm_90 executor device ([`sm_90_device`]).
pub const SM_90_DEVICE_NAME: &str = "tile PTX executor (CPU, sm_90)";

/// An H100's limits: as [`LIMITS`], with 227 KiB of shared memory a block
/// and 132 multiprocessors.
pub const SM_90_LIMITS: DeviceLimits = DeviceLimits {
    max_shared_mem_per_block: 227 * 1024,
    multiprocessors: 132,
    ..LIMITS
};

/// As [`device`], reporting sm_90: `tile::jit` compiles for it as for an
/// H100 or H200 (`wgmma`, packed 16-bit integer arithmetic, vector
/// atomics), and the executor runs that PTX. Every suite that launches
/// through a `Device` can then check the sm_90 code as well.
///
/// ```
/// let device = tile_ptx_exec::sm_90_device();
/// assert_eq!(device.chip()?, "sm_90");
/// # Ok::<(), tile_runtime::RuntimeError>(())
/// ```
pub fn sm_90_device() -> Device {
    executor(SM_90_DEVICE_NAME, (9, 0), SM_90_LIMITS)
}

/// An executor device reporting `name`, `compute_capability` and `limits`.
fn executor(name: &str, compute_capability: (i32, i32), limits: DeviceLimits) -> Device {
    Device::host_with_loader(HostPtxLoader {
        name: name.to_string(),
        compute_capability,
        limits,
        load: Arc::new(load),
    })
}

/// Reads `ptx` as the kernel of `spec`.
fn load(ptx: &str, spec: &KernelSpec) -> Result<Box<dyn HostKernel>> {
    let kernel =
        PtxKernel::new(ptx, &spec.name, spec.num_warps, spec.shared_mem_bytes).map_err(|e| {
            RuntimeError::BadPtx {
                kernel: spec.name.clone(),
                message: format!("the PTX executor cannot run it: {e}"),
            }
        })?;
    Ok(Box::new(kernel))
}
