//! The check of a kernel's block and shared memory against the device and
//! the compiled function.

use crate::device::DeviceLimits;
use crate::error::{Result, RuntimeError};
use crate::kernel::KernelSpec;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::ParamType;

    const H100: DeviceLimits = DeviceLimits {
        max_grid: [2_147_483_647, 65_535, 65_535],
        max_threads_per_block: 1024,
        max_shared_mem_per_block: 232_448,
        multiprocessors: 132,
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
