//! The runtime's one error type: what failed, and about which kernel.
//!
//! Its messages are in the `message` module; the conversion of driver
//! failures into it in `driver_call`.
//!
//! ```
//! use tile_runtime::{Device, RuntimeError};
//!
//! let device = Device::interpreter();
//! let x = device.upload(&[1u8, 2, 3])?;
//! let other = Device::interpreter(); // another interpreter: other memory
//! match other.download(&x) {
//!     Err(e @ RuntimeError::WrongDevice { .. }) => {
//!         assert!(!e.is_context_lost());
//!         assert!(e.to_string().contains("interpreter"), "{e}");
//!     }
//!     other => panic!("{other:?}"),
//! }
//! # Ok::<(), RuntimeError>(())
//! ```

mod driver_call;
mod message;

use crate::device::DeviceId;
use crate::kernel::ParamType;

pub(crate) use driver_call::{call, catch, code_message, code_name, driver_error, panic_text};

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
    /// A pointer argument made from a buffer of elements the kernel's
    /// pointer does not read (a `Buffer<f64>` for an `f32` pointer).
    BadPointee {
        /// The kernel launched.
        kernel: String,
        /// 0-based position of the argument.
        index: usize,
        /// The parameter's name.
        name: String,
        /// The element type the kernel reads (`"f32"`, `"f8E4M3FN"`).
        expected: String,
        /// The Rust element type of the buffer given.
        given: crate::ElemType,
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
    /// The CPU interpreter could not allocate a buffer in host memory.
    HostOutOfMemory {
        /// Bytes asked for.
        requested: u64,
        /// Bytes the interpreter's buffers held already.
        allocated: u64,
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
        /// The device that owns the buffer.
        owner: DeviceId,
        /// The device it was used with.
        used_with: DeviceId,
    },
    /// A launch argument made from a buffer of another device.
    ArgOnWrongDevice {
        /// The kernel.
        kernel: String,
        /// The argument's position (from 0).
        index: usize,
        /// The device that owns the buffer.
        owner: DeviceId,
        /// The device the kernel was launched on.
        used_with: DeviceId,
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
            | RuntimeError::BadPointee { kernel, .. }
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
            | RuntimeError::HostOutOfMemory { .. }
            | RuntimeError::NoDevice { .. }
            | RuntimeError::OutOfBounds { .. }
            | RuntimeError::LengthMismatch { .. }
            | RuntimeError::WrongDevice { .. } => None,
            RuntimeError::ArgOnWrongDevice { kernel, .. } => Some(kernel),
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
