//! The runtime's one error type, and the conversion of driver failures into
//! it.

use crate::kernel::ParamType;
use cudarc::driver::result::DriverError;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// A failed runtime operation. Every variant says what was being done and,
/// where a kernel was involved, names it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum RuntimeError {
    /// No usable CUDA device: the driver library is missing, `cuInit`
    /// failed, or the ordinal is past the devices the driver sees.
    NoDevice {
        /// The ordinal that was asked for.
        ordinal: usize,
        /// Why it cannot be used.
        reason: String,
    },
    /// A CUDA driver call failed.
    Driver {
        /// The kernel involved, if any.
        kernel: Option<String>,
        /// What the runtime was doing (`"cuMemAlloc of 4096 bytes"`, ...).
        during: String,
        /// The driver's error name (`"CUDA_ERROR_ILLEGAL_ADDRESS"`).
        code: String,
        /// The driver's description of the error.
        message: String,
    },
    /// The driver could not JIT-compile a kernel's PTX.
    Jit {
        /// The kernel being loaded.
        kernel: String,
        /// The driver's error name (`"CUDA_ERROR_INVALID_PTX"`, ...).
        code: String,
        /// The driver's description of the error.
        message: String,
        /// The PTX assembler's error log (empty if the driver gave none).
        log: String,
    },
    /// The PTX text cannot be handed to the driver, or does not match the
    /// kernel's spec (missing entry, different parameters).
    BadPtx {
        /// The kernel being loaded.
        kernel: String,
        /// What is wrong.
        message: String,
    },
    /// A launch got a different number of arguments than its kernel has
    /// parameters.
    ArgCount {
        /// The kernel launched.
        kernel: String,
        /// The parameters it takes, in order.
        params: Vec<String>,
        /// How many arguments were given.
        given: usize,
    },
    /// A launch argument of the wrong type.
    BadArgument {
        /// The kernel launched.
        kernel: String,
        /// 0-based position of the argument.
        index: usize,
        /// The parameter's name in the kernel spec.
        name: String,
        /// The parameter's type.
        expected: ParamType,
        /// The type of the argument given.
        given: ParamType,
    },
    /// A pointer argument whose buffer holds more elements past the pointer
    /// than the kernel's 32-bit (i32) offsets can reach: the kernel's
    /// offset arithmetic would overflow. See
    /// [`KernelSpec::check_args`](crate::KernelSpec::check_args).
    OffsetOverflow {
        /// The kernel launched.
        kernel: String,
        /// 0-based position of the argument.
        index: usize,
        /// The parameter's name in the kernel spec.
        name: String,
        /// Elements from the pointer to the end of its buffer.
        elements: u64,
        /// The element size the kernel addresses the pointer with, in bytes.
        elem_bytes: u32,
        /// The most elements 32-bit offsets reach (`i32::MAX`).
        limit: u64,
    },
    /// An argument that breaks what the kernel was compiled to assume of
    /// it (see [`Specialization`](crate::Specialization)).
    Unspecialized {
        /// The kernel launched.
        kernel: String,
        /// 0-based position of the argument.
        index: usize,
        /// The parameter's name in the kernel spec.
        name: String,
        /// What the kernel assumes.
        assumed: crate::Fact,
        /// The argument given.
        given: crate::Arg,
    },
    /// A launch configuration the kernel or the device cannot run (block
    /// size, grid size, shared memory).
    BadLaunch {
        /// The kernel launched or loaded.
        kernel: String,
        /// What is out of range, with the numbers.
        message: String,
    },
    /// The block a kernel was compiled for has more threads than the
    /// device, or the compiled code's registers, allow.
    TooManyThreads {
        /// The kernel.
        kernel: String,
        /// Threads per block it needs (`num_warps * 32`).
        threads: u32,
        /// The most the device (or the code's register use) allows.
        limit: u32,
        /// Which limit: the device's, or the registers'.
        why: String,
    },
    /// A kernel needs more shared memory per block than the device has.
    TooMuchSharedMemory {
        /// The kernel.
        kernel: String,
        /// Bytes per block it needs (static and dynamic).
        bytes: u64,
        /// The limit, in bytes.
        limit: u64,
        /// Which memory and whose limit: static shared memory (48 KiB per
        /// block), or all shared memory on this device (with opt-in).
        what: String,
    },
    /// A device allocation larger than the free memory.
    OutOfMemory {
        /// Bytes asked for.
        requested: u64,
        /// Bytes free on the device when it failed.
        free: u64,
        /// The device's memory, in bytes.
        total: u64,
    },
    /// A kernel faulted (an illegal address, a misaligned access, a trap).
    /// The CUDA context is lost: every later call on the device fails.
    KernelFault {
        /// The kernels launched since the last wait, one of which faulted
        /// (oldest first).
        kernels: Vec<String>,
        /// The driver's error name (`"CUDA_ERROR_ILLEGAL_ADDRESS"`).
        code: String,
        /// The driver's description.
        message: String,
    },
    /// The compiler failed to make a variant of a kernel.
    Compile {
        /// The kernel.
        kernel: String,
        /// The compiler's error, with its stage and diagnostics.
        message: String,
    },
    /// Compiled code that does not belong to the kernel it was given for.
    BadArtifact {
        /// The kernel.
        kernel: String,
        /// What is wrong.
        message: String,
    },
    /// Precompiled code with no variant that fits the launch's arguments.
    NoVariant {
        /// The kernel.
        kernel: String,
        /// Which facts the arguments had, and what to do.
        message: String,
    },
    /// A kernel run by the CPU interpreter faulted (an unmasked access out
    /// of bounds, say); names the op and its source line.
    Interpreter(Box<crate::host::InterpretError>),
    /// The operation needs a GPU, and the device is the CPU interpreter
    /// (loading PTX, say), or the kernel has no IR the interpreter can run.
    NotInterpretable {
        /// The kernel involved, if any.
        kernel: Option<String>,
        /// What was asked for, and why it cannot be done.
        message: String,
    },
    /// An element offset past the end of a buffer.
    OutOfBounds {
        /// The offset asked for, in elements.
        offset: usize,
        /// The buffer's length, in elements.
        len: usize,
    },
    /// Host data whose length differs from the buffer's.
    LengthMismatch {
        /// What was being done.
        during: &'static str,
        /// The buffer's length, in elements.
        expected: usize,
        /// The host slice's length, in elements.
        given: usize,
    },
    /// A buffer used with a device other than the one that owns it.
    WrongDevice {
        /// What was being done.
        during: &'static str,
        /// The ordinal of the device that owns the buffer.
        owner: usize,
        /// The ordinal of the device it was used with.
        used_with: usize,
    },
}

/// The crate's result type.
pub type Result<T, E = RuntimeError> = std::result::Result<T, E>;

/// Driver errors after which the CUDA context is unusable: every later call
/// in it fails with the same error.
const STICKY: &[&str] = &[
    "CUDA_ERROR_ILLEGAL_ADDRESS",
    "CUDA_ERROR_LAUNCH_FAILED",
    "CUDA_ERROR_MISALIGNED_ADDRESS",
    "CUDA_ERROR_ILLEGAL_INSTRUCTION",
    "CUDA_ERROR_INVALID_ADDRESS_SPACE",
    "CUDA_ERROR_INVALID_PC",
    "CUDA_ERROR_HARDWARE_STACK_ERROR",
    "CUDA_ERROR_ASSERT",
    "CUDA_ERROR_LAUNCH_TIMEOUT",
    "CUDA_ERROR_ECC_UNCORRECTABLE",
    "CUDA_ERROR_CONTEXT_IS_DESTROYED",
];

impl RuntimeError {
    /// The kernel this error is about, if any.
    pub fn kernel(&self) -> Option<&str> {
        match self {
            RuntimeError::Driver { kernel, .. } => kernel.as_deref(),
            RuntimeError::Jit { kernel, .. }
            | RuntimeError::BadPtx { kernel, .. }
            | RuntimeError::ArgCount { kernel, .. }
            | RuntimeError::BadArgument { kernel, .. }
            | RuntimeError::OffsetOverflow { kernel, .. }
            | RuntimeError::Unspecialized { kernel, .. }
            | RuntimeError::BadLaunch { kernel, .. }
            | RuntimeError::TooManyThreads { kernel, .. }
            | RuntimeError::TooMuchSharedMemory { kernel, .. }
            | RuntimeError::Compile { kernel, .. }
            | RuntimeError::BadArtifact { kernel, .. }
            | RuntimeError::NoVariant { kernel, .. } => Some(kernel),
            RuntimeError::KernelFault { kernels, .. } => kernels.last().map(String::as_str),
            RuntimeError::Interpreter(e) => Some(&e.kernel),
            RuntimeError::NotInterpretable { kernel, .. } => kernel.as_deref(),
            RuntimeError::OutOfMemory { .. }
            | RuntimeError::NoDevice { .. }
            | RuntimeError::OutOfBounds { .. }
            | RuntimeError::LengthMismatch { .. }
            | RuntimeError::WrongDevice { .. } => None,
        }
    }

    /// True when the driver reported an error that leaves the CUDA context
    /// unusable (an illegal address in a kernel, say): every later call on
    /// this device fails too, and only a new process recovers.
    pub fn is_context_lost(&self) -> bool {
        match self {
            RuntimeError::Driver { code, .. } => STICKY.contains(&code.as_str()),
            RuntimeError::KernelFault { .. } => true,
            _ => false,
        }
    }
}

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
            RuntimeError::KernelFault {
                kernels,
                code,
                message,
            } => write!(
                f,
                "a kernel faulted: {code} ({message}); launched since the last wait: {}; the \
                 CUDA context is now unusable and every later call on this device will fail: \
                 fix the kernel (run it under compute-sanitizer to find the faulting access) \
                 and start a new process",
                if kernels.is_empty() {
                    "none recorded".to_string()
                } else {
                    kernels
                        .iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            ),
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
                "{during}: the buffer lives on CUDA device {owner} but was used with device \
                 {used_with}"
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

/// The driver's name for an error code, without calling the driver.
pub(crate) fn code_name(err: &DriverError) -> String {
    format!("{:?}", err.0)
}

/// The driver's description of an error code (`cuGetErrorString`).
pub(crate) fn code_message(err: &DriverError) -> String {
    match catch_unwind(|| err.error_string().map(|s| s.to_string_lossy().into_owned())) {
        Ok(Ok(message)) => message,
        _ => "no description from the driver".to_string(),
    }
}

/// A [`RuntimeError::Driver`] for a failed driver call.
pub(crate) fn driver_error(kernel: Option<&str>, during: &str, err: DriverError) -> RuntimeError {
    RuntimeError::Driver {
        kernel: kernel.map(str::to_string),
        during: during.to_string(),
        code: code_name(&err),
        message: code_message(&err),
    }
}

/// Runs a driver call, turning both its error and a panic inside cudarc (a
/// driver library without a symbol this build expects, say) into
/// [`RuntimeError::Driver`].
pub(crate) fn call<T>(
    kernel: Option<&str>,
    during: &str,
    f: impl FnOnce() -> std::result::Result<T, DriverError>,
) -> Result<T> {
    catch(kernel, during, f)?.map_err(|err| driver_error(kernel, during, err))
}

/// Runs a driver call, turning only a panic inside cudarc into an error and
/// leaving the driver's own error to the caller.
pub(crate) fn catch<T>(
    kernel: Option<&str>,
    during: &str,
    f: impl FnOnce() -> std::result::Result<T, DriverError>,
) -> Result<std::result::Result<T, DriverError>> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|panic| RuntimeError::Driver {
        kernel: kernel.map(str::to_string),
        during: during.to_string(),
        code: "DRIVER_LIBRARY".to_string(),
        message: format!(
            "the CUDA driver library could not serve the call: {}",
            panic_text(panic.as_ref())
        ),
    })
}

/// The message of a caught panic.
pub(crate) fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
                owner: 1,
                used_with: 0
            }
            .to_string(),
            "Device::download: the buffer lives on CUDA device 1 but was used with device 0"
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

    #[test]
    fn a_panic_in_the_driver_layer_becomes_an_error() {
        let r: Result<()> = call(Some("k"), "cuInit", || panic!("Missing symbol cuFoo"));
        match r {
            Err(RuntimeError::Driver {
                code,
                message,
                kernel,
                ..
            }) => {
                assert_eq!(code, "DRIVER_LIBRARY");
                assert!(message.contains("Missing symbol cuFoo"), "{message}");
                assert_eq!(kernel.as_deref(), Some("k"));
            }
            other => panic!("unexpected {other:?}"),
        }
    }
}
