//! The messages of [`RuntimeError`]: what failed, about which kernel,
//! and what to do about it.

use super::RuntimeError;
use std::fmt;

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuntimeError::NoDevice { ordinal, reason } => {
                write!(f, "no CUDA device {ordinal}: {reason}")
            }
            RuntimeError::Driver {
                kernel,
                during,
                code,
                message,
            } => {
                if let Some(kernel) = kernel {
                    write!(f, "kernel `{kernel}`: ")?;
                }
                write!(f, "{during} failed: {code} ({message})")?;
                if self.is_context_lost() {
                    write!(
                        f,
                        "; the CUDA context is now unusable and every later call on this \
                         device will fail: fix the kernel (run it under compute-sanitizer to \
                         find the faulting access) and start a new process"
                    )?;
                }
                Ok(())
            }
            RuntimeError::Jit {
                kernel,
                code,
                message,
                log,
            } => {
                write!(
                    f,
                    "kernel `{kernel}`: the driver could not compile its PTX: {code} ({message})"
                )?;
                if log.trim().is_empty() {
                    write!(f, "; the driver gave no log")
                } else {
                    write!(f, "\nPTX JIT log:\n{}", log.trim_end())
                }
            }
            RuntimeError::BadPtx { kernel, message } => write!(f, "kernel `{kernel}`: {message}"),
            RuntimeError::ArgCount {
                kernel,
                params,
                given,
            } => write!(
                f,
                "kernel `{kernel}` takes {} argument{} ({}), given {given}",
                params.len(),
                if params.len() == 1 { "" } else { "s" },
                params.join(", ")
            ),
            RuntimeError::BadArgument {
                kernel,
                index,
                name,
                expected,
                given,
            } => write!(
                f,
                "kernel `{kernel}`: argument {index} (`{name}`) must be {}, given {}",
                expected.describe(),
                given.describe()
            ),
            RuntimeError::BadPointee {
                kernel,
                index,
                name,
                expected,
                given,
            } => write!(
                f,
                "kernel `{kernel}`: argument {index} (`{name}`) points at {} elements, \
                 but the kernel reads {expected} through it",
                given.name()
            ),
            RuntimeError::OffsetOverflow {
                kernel,
                index,
                name,
                elements,
                elem_bytes,
                limit,
            } => write!(
                f,
                "kernel `{kernel}`: argument {index} (`{name}`) points at {elements} elements \
                 of {elem_bytes} byte{}, but the kernel addresses it with 32-bit (i32) offsets, \
                 which reach at most {limit} elements; compute the offsets in i64 (cast them \
                 with `.to(DType::I64)` before adding them to the pointer) or use a block \
                 pointer (`make_block_ptr`), then recompile",
                if *elem_bytes == 1 { "" } else { "s" }
            ),
            RuntimeError::Unspecialized {
                kernel,
                index,
                name,
                assumed,
                given,
            } => {
                let value = match given {
                    crate::Arg::Ptr { ptr, .. } => format!("address {ptr}"),
                    crate::Arg::I32(v) => v.to_string(),
                    crate::Arg::I64(v) => v.to_string(),
                    other => format!("{other:?}"),
                };
                write!(
                    f,
                    "kernel `{kernel}`: argument {index} (`{name}`) was compiled as {assumed}, \
                     but the launch gives {value}; compile a variant for these arguments \
                     (`Specialization::of(&args)`) or one that assumes nothing"
                )
            }
            RuntimeError::BadLaunch { kernel, message } => {
                write!(f, "kernel `{kernel}`: cannot launch: {message}")
            }
            RuntimeError::TooManyThreads {
                kernel,
                threads,
                limit,
                why,
            } => write!(
                f,
                "kernel `{kernel}`: cannot launch: a block of {threads} threads, but {why} \
                 allows at most {limit}; compile it with fewer warps"
            ),
            RuntimeError::TooMuchSharedMemory {
                kernel,
                bytes,
                limit,
                what,
            } => write!(
                f,
                "kernel `{kernel}`: cannot launch: it needs {bytes} bytes of {what} per block, at \
                 most {limit} are allowed; use smaller tiles"
            ),
            RuntimeError::OutOfMemory {
                requested,
                free,
                total,
            } => write!(
                f,
                "out of device memory: asked for {requested} bytes ({}), {free} bytes ({}) of \
                 {total} ({}) are free",
                human(*requested),
                human(*free),
                human(*total)
            ),
            RuntimeError::HostOutOfMemory {
                requested,
                allocated,
            } => write!(
                f,
                "the CPU interpreter could not allocate {requested} bytes ({}) of host memory \
                 (its buffers hold {allocated} bytes, {})",
                human(*requested),
                human(*allocated)
            ),
            RuntimeError::KernelFault {
                kernels,
                code,
                message,
            } => {
                let kernels = if kernels.is_empty() {
                    "none recorded".to_string()
                } else {
                    kernels
                        .iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                // An assertion's message, file and line are on the
                // process's output (CUDA prints them); a fault has none.
                let fix = if code == "CUDA_ERROR_ASSERT" {
                    "a device_assert failed: its message, file and line are on the process's \
                     output"
                } else {
                    "fix the kernel (run it under compute-sanitizer to find the faulting access)"
                };
                write!(
                    f,
                    "a kernel faulted: {code} ({message}); launched since the last wait: \
                     {kernels}; the CUDA context is now unusable and every later call on this \
                     device will fail: {fix} and start a new process"
                )
            }
            RuntimeError::Compile { kernel, message } => {
                write!(f, "kernel `{kernel}`: compilation failed: {message}")
            }
            RuntimeError::BadArtifact { kernel, message } => {
                write!(f, "kernel `{kernel}`: unusable compiled code: {message}")
            }
            RuntimeError::NoVariant { kernel, message } => {
                write!(f, "kernel `{kernel}`: {message}")
            }
            RuntimeError::Interpreter(e) => write!(f, "{e}"),
            RuntimeError::NotInterpretable {
                kernel: Some(kernel),
                message,
            } => write!(f, "kernel `{kernel}`: {message}"),
            RuntimeError::NotInterpretable {
                kernel: None,
                message,
            } => f.write_str(message),
            RuntimeError::OutOfBounds { offset, len } => write!(
                f,
                "element offset {offset} is past the end of a buffer of {len} element{}",
                if *len == 1 { "" } else { "s" }
            ),
            RuntimeError::LengthMismatch {
                during,
                expected,
                given,
            } => write!(
                f,
                "{during}: the buffer holds {expected} elements but the host data has {given}"
            ),
            RuntimeError::WrongDevice {
                during,
                owner,
                used_with,
            } => write!(
                f,
                "{during}: the buffer lives on {owner} but was used with {used_with}"
            ),
            RuntimeError::ArgOnWrongDevice {
                kernel,
                index,
                owner,
                used_with,
            } => write!(
                f,
                "kernel `{kernel}`: argument {index} is a buffer of {owner}, but the kernel was \
                 launched on {used_with}"
            ),
        }
    }
}

impl std::error::Error for RuntimeError {}

/// Bytes in binary units, for messages (`"4.0 GiB"`).
fn human(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::DeviceId;
    use crate::kernel::ParamType;

    fn illegal_address() -> RuntimeError {
        RuntimeError::Driver {
            kernel: Some("add_one".into()),
            during: "running the kernel (synchronize after launch)".into(),
            code: "CUDA_ERROR_ILLEGAL_ADDRESS".into(),
            message: "an illegal memory access was encountered".into(),
        }
    }

    #[test]
    fn driver_error_names_kernel_step_and_code() {
        let text = illegal_address().to_string();
        assert!(text.starts_with(
            "kernel `add_one`: running the kernel (synchronize after launch) failed: \
             CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)"
        ));
        assert!(text.contains("context is now unusable"), "{text}");
        assert!(illegal_address().is_context_lost());
        assert_eq!(illegal_address().kernel(), Some("add_one"));
    }

    #[test]
    fn a_failed_assertion_points_at_the_output_not_at_compute_sanitizer() {
        let fault = |code: &str| RuntimeError::KernelFault {
            kernels: vec!["k".into()],
            code: code.into(),
            message: "m".into(),
        };
        let assert = fault("CUDA_ERROR_ASSERT").to_string();
        assert!(assert.contains("a device_assert failed"), "{assert}");
        assert!(!assert.contains("compute-sanitizer"), "{assert}");
        let illegal = fault("CUDA_ERROR_ILLEGAL_ADDRESS").to_string();
        assert!(illegal.contains("compute-sanitizer"), "{illegal}");
    }

    #[test]
    fn non_sticky_driver_error_has_no_context_hint() {
        let e = RuntimeError::Driver {
            kernel: None,
            during: "cuMemAlloc of 4096 bytes".into(),
            code: "CUDA_ERROR_OUT_OF_MEMORY".into(),
            message: "out of memory".into(),
        };
        assert_eq!(
            e.to_string(),
            "cuMemAlloc of 4096 bytes failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)"
        );
        assert!(!e.is_context_lost());
        assert_eq!(e.kernel(), None);
    }

    #[test]
    fn argument_errors_name_kernel_parameter_and_types() {
        let e = RuntimeError::BadArgument {
            kernel: "safe_kernel".into(),
            index: 3,
            name: "n".into(),
            expected: ParamType::I32,
            given: ParamType::F32,
        };
        assert_eq!(
            e.to_string(),
            "kernel `safe_kernel`: argument 3 (`n`) must be an i32, given an f32"
        );
        let e = RuntimeError::ArgCount {
            kernel: "safe_kernel".into(),
            params: vec!["x_ptr".into(), "n".into()],
            given: 1,
        };
        assert_eq!(
            e.to_string(),
            "kernel `safe_kernel` takes 2 arguments (x_ptr, n), given 1"
        );
    }

    #[test]
    fn jit_error_shows_the_log() {
        let e = RuntimeError::Jit {
            kernel: "k".into(),
            code: "CUDA_ERROR_INVALID_PTX".into(),
            message: "a PTX JIT compilation failed".into(),
            log: "ptxas application ptx input, line 9; error   : Unknown symbol 'x'\n".into(),
        };
        assert_eq!(
            e.to_string(),
            "kernel `k`: the driver could not compile its PTX: CUDA_ERROR_INVALID_PTX \
             (a PTX JIT compilation failed)\nPTX JIT log:\nptxas application ptx input, \
             line 9; error   : Unknown symbol 'x'"
        );
        let e = RuntimeError::Jit {
            kernel: "k".into(),
            code: "CUDA_ERROR_INVALID_PTX".into(),
            message: "a PTX JIT compilation failed".into(),
            log: " \n".into(),
        };
        assert!(e.to_string().ends_with("; the driver gave no log"));
    }

    #[test]
    fn buffer_errors_read_well() {
        assert_eq!(
            RuntimeError::OutOfBounds { offset: 9, len: 8 }.to_string(),
            "element offset 9 is past the end of a buffer of 8 elements"
        );
        assert_eq!(
            RuntimeError::LengthMismatch {
                during: "Device::write",
                expected: 4,
                given: 3
            }
            .to_string(),
            "Device::write: the buffer holds 4 elements but the host data has 3"
        );
        assert_eq!(
            RuntimeError::WrongDevice {
                during: "Device::download",
                owner: DeviceId {
                    interpreter: false,
                    ordinal: 1,
                    context: 7
                },
                used_with: DeviceId {
                    interpreter: true,
                    ordinal: 0,
                    context: 2
                },
            }
            .to_string(),
            "Device::download: the buffer lives on CUDA device 1 but was used with CPU \
             interpreter #2"
        );
        assert_eq!(
            RuntimeError::ArgOnWrongDevice {
                kernel: "k".into(),
                index: 2,
                owner: DeviceId {
                    interpreter: true,
                    ordinal: 0,
                    context: 1
                },
                used_with: DeviceId {
                    interpreter: true,
                    ordinal: 0,
                    context: 4
                },
            }
            .to_string(),
            "kernel `k`: argument 2 is a buffer of CPU interpreter #1, but the kernel was \
             launched on CPU interpreter #4"
        );
        assert_eq!(
            RuntimeError::NoDevice {
                ordinal: 0,
                reason: "the CUDA driver library (libcuda.so) is not installed".into()
            }
            .to_string(),
            "no CUDA device 0: the CUDA driver library (libcuda.so) is not installed"
        );
    }
}
