//! What a kernel takes: its spec (entry name, parameters, warps, shared
//! memory), the launch arguments, and the check of one against the other.

use crate::buffer::{Buffer, DeviceCopy, DevicePtr};
use crate::error::{Result, RuntimeError};
use std::ffi::c_void;
use std::fmt;

/// The type of one kernel parameter, as the PTX entry declares it.
///
/// | type | PTX parameter |
/// | --- | --- |
/// | `Ptr` | `.u64` (a global address) |
/// | `I32` | `.u32` / `.s32` |
/// | `I64` | `.u64` / `.s64` |
/// | `F32` | `.f32` |
/// | `F16`, `BF16` | `.b16` |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamType {
    /// A device pointer.
    Ptr,
    /// A 32-bit integer.
    I32,
    /// A 64-bit integer.
    I64,
    /// An IEEE single-precision float.
    F32,
    /// An IEEE half-precision float.
    F16,
    /// A bfloat16.
    BF16,
}

impl ParamType {
    /// Size of the parameter in bytes, as the kernel reads it.
    pub fn size_bytes(self) -> usize {
        match self {
            ParamType::Ptr | ParamType::I64 => 8,
            ParamType::I32 | ParamType::F32 => 4,
            ParamType::F16 | ParamType::BF16 => 2,
        }
    }

    /// The type with an article, for messages (`"a pointer"`, `"an i32"`).
    pub fn describe(self) -> &'static str {
        match self {
            ParamType::Ptr => "a pointer",
            ParamType::I32 => "an i32",
            ParamType::I64 => "an i64",
            ParamType::F32 => "an f32",
            ParamType::F16 => "an f16",
            ParamType::BF16 => "a bf16",
        }
    }
}

impl fmt::Display for ParamType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ParamType::Ptr => "ptr",
            ParamType::I32 => "i32",
            ParamType::I64 => "i64",
            ParamType::F32 => "f32",
            ParamType::F16 => "f16",
            ParamType::BF16 => "bf16",
        })
    }
}

/// What the runtime needs to launch a compiled kernel: the PTX entry name,
/// its parameters in order, and the launch shape the code was compiled for.
///
/// It depends on nothing from the compiler, so a spec can be written by hand
/// or stored beside ahead-of-time compiled PTX.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KernelSpec {
    /// The `.entry` name in the PTX.
    pub name: String,
    /// Parameter names and types, in the order of the PTX entry.
    pub params: Vec<(String, ParamType)>,
    /// Warps per block: blocks are `num_warps * 32` threads in x.
    pub num_warps: u32,
    /// Dynamic shared memory per block, in bytes.
    pub shared_mem_bytes: u32,
}

impl KernelSpec {
    /// Checks launch arguments against the parameters: their count, then
    /// each one's type. Errors name the kernel and the parameter.
    pub fn check_args(&self, args: &[Arg]) -> Result<()> {
        if args.len() != self.params.len() {
            return Err(RuntimeError::ArgCount {
                kernel: self.name.clone(),
                params: self
                    .params
                    .iter()
                    .map(|(name, ty)| format!("{name}: {ty}"))
                    .collect(),
                given: args.len(),
            });
        }
        for (index, ((name, expected), arg)) in self.params.iter().zip(args).enumerate() {
            let given = arg.param_type();
            if given != *expected {
                return Err(RuntimeError::BadArgument {
                    kernel: self.name.clone(),
                    index,
                    name: name.clone(),
                    expected: *expected,
                    given,
                });
            }
        }
        Ok(())
    }

    /// Threads per block (`num_warps * 32`), or [`RuntimeError::BadLaunch`]
    /// when `num_warps` is 0 or the block would exceed CUDA's 1024 threads.
    pub fn block_threads(&self) -> Result<u32> {
        const MAX_THREADS: u32 = 1024;
        match self.num_warps.checked_mul(32) {
            Some(threads) if threads > 0 && threads <= MAX_THREADS => Ok(threads),
            _ => Err(RuntimeError::BadLaunch {
                kernel: self.name.clone(),
                message: format!(
                    "num_warps = {} gives {} threads per block; a block needs 1 to {} warps \
                     (at most {MAX_THREADS} threads)",
                    self.num_warps,
                    u64::from(self.num_warps) * 32,
                    MAX_THREADS / 32
                ),
            }),
        }
    }
}

/// One launch argument. Its type must match the kernel's parameter exactly
/// (an `I32` is not accepted for an `I64` parameter).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arg {
    /// A device address (for a [`ParamType::Ptr`] parameter).
    Ptr(DevicePtr),
    /// A 32-bit integer.
    I32(i32),
    /// A 64-bit integer.
    I64(i64),
    /// A single-precision float.
    F32(f32),
    /// A half-precision float, as its bits.
    F16(u16),
    /// A bfloat16, as its bits.
    BF16(u16),
}

impl Arg {
    /// The parameter type this argument fits.
    pub fn param_type(&self) -> ParamType {
        match self {
            Arg::Ptr(_) => ParamType::Ptr,
            Arg::I32(_) => ParamType::I32,
            Arg::I64(_) => ParamType::I64,
            Arg::F32(_) => ParamType::F32,
            Arg::F16(_) => ParamType::F16,
            Arg::BF16(_) => ParamType::BF16,
        }
    }

    /// A pointer to the argument's value, as `cuLaunchKernel` takes it in
    /// its `kernelParams` array. Valid while `self` is borrowed; the driver
    /// only reads through it.
    pub(crate) fn as_kernel_param(&self) -> *mut c_void {
        let p: *const c_void = match self {
            Arg::Ptr(DevicePtr(v)) => (v as *const u64).cast(),
            Arg::I32(v) => (v as *const i32).cast(),
            Arg::I64(v) => (v as *const i64).cast(),
            Arg::F32(v) => (v as *const f32).cast(),
            Arg::F16(v) | Arg::BF16(v) => (v as *const u16).cast(),
        };
        p.cast_mut()
    }
}

impl From<i32> for Arg {
    fn from(v: i32) -> Self {
        Arg::I32(v)
    }
}

impl From<i64> for Arg {
    fn from(v: i64) -> Self {
        Arg::I64(v)
    }
}

impl From<f32> for Arg {
    fn from(v: f32) -> Self {
        Arg::F32(v)
    }
}

impl From<DevicePtr> for Arg {
    fn from(p: DevicePtr) -> Self {
        Arg::Ptr(p)
    }
}

impl<T: DeviceCopy> From<&Buffer<T>> for Arg {
    fn from(buf: &Buffer<T>) -> Self {
        Arg::Ptr(buf.ptr())
    }
}

impl<T: DeviceCopy> From<&mut Buffer<T>> for Arg {
    fn from(buf: &mut Buffer<T>) -> Self {
        Arg::Ptr(buf.ptr())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn safe_kernel() -> KernelSpec {
        KernelSpec {
            name: "safe_kernel".into(),
            params: vec![
                ("x_ptr".into(), ParamType::Ptr),
                ("y_ptr".into(), ParamType::Ptr),
                ("out_ptr".into(), ParamType::Ptr),
                ("n".into(), ParamType::I32),
            ],
            num_warps: 4,
            shared_mem_bytes: 0,
        }
    }

    fn ptr(v: u64) -> Arg {
        Arg::from(DevicePtr(v))
    }

    #[test]
    fn matching_args_pass() {
        let spec = safe_kernel();
        let args = [ptr(0x1000), ptr(0x2000), ptr(0x3000), Arg::from(1000)];
        spec.check_args(&args).unwrap();
    }

    #[test]
    fn wrong_count_names_every_parameter() {
        let err = safe_kernel()
            .check_args(&[ptr(1), ptr(2), ptr(3)])
            .unwrap_err();
        assert_eq!(
            err,
            RuntimeError::ArgCount {
                kernel: "safe_kernel".into(),
                params: vec![
                    "x_ptr: ptr".into(),
                    "y_ptr: ptr".into(),
                    "out_ptr: ptr".into(),
                    "n: i32".into()
                ],
                given: 3,
            }
        );
        assert_eq!(
            err.to_string(),
            "kernel `safe_kernel` takes 4 arguments (x_ptr: ptr, y_ptr: ptr, out_ptr: ptr, \
             n: i32), given 3"
        );
    }

    #[test]
    fn wrong_type_names_the_first_bad_parameter() {
        let err = safe_kernel()
            .check_args(&[ptr(1), Arg::I64(2), ptr(3), Arg::I64(4)])
            .unwrap_err();
        assert_eq!(
            err,
            RuntimeError::BadArgument {
                kernel: "safe_kernel".into(),
                index: 1,
                name: "y_ptr".into(),
                expected: ParamType::Ptr,
                given: ParamType::I64,
            }
        );
    }

    #[test]
    fn types_must_match_exactly() {
        let all = [
            (ParamType::Ptr, ptr(8)),
            (ParamType::I32, Arg::I32(1)),
            (ParamType::I64, Arg::I64(1)),
            (ParamType::F32, Arg::F32(1.0)),
            (ParamType::F16, Arg::F16(0x3c00)),
            (ParamType::BF16, Arg::BF16(0x3f80)),
        ];
        for (ty, _) in &all {
            let spec = KernelSpec {
                name: "k".into(),
                params: vec![("p".into(), *ty)],
                num_warps: 1,
                shared_mem_bytes: 0,
            };
            for (arg_ty, arg) in &all {
                assert_eq!(arg.param_type(), *arg_ty);
                let r = spec.check_args(std::slice::from_ref(arg));
                assert_eq!(r.is_ok(), ty == arg_ty, "{ty} given {arg_ty}");
            }
        }
    }

    #[test]
    fn no_params_no_args() {
        let spec = KernelSpec {
            name: "empty".into(),
            params: vec![],
            num_warps: 1,
            shared_mem_bytes: 0,
        };
        spec.check_args(&[]).unwrap();
        assert!(matches!(
            spec.check_args(&[Arg::I32(0)]),
            Err(RuntimeError::ArgCount { given: 1, .. })
        ));
    }

    #[test]
    fn conversions_pick_the_variant() {
        assert_eq!(Arg::from(3i32), Arg::I32(3));
        assert_eq!(Arg::from(3i64), Arg::I64(3));
        assert_eq!(Arg::from(0.5f32), Arg::F32(0.5));
        assert_eq!(Arg::from(DevicePtr(16)), Arg::Ptr(DevicePtr(16)));
    }

    #[test]
    fn kernel_params_point_at_the_values() {
        let args = [
            ptr(0xdead_beef_0000),
            Arg::I32(-7),
            Arg::I64(1 << 40),
            Arg::F32(2.5),
            Arg::F16(0x3c00),
            Arg::BF16(0x3f80),
        ];
        let params: Vec<*mut c_void> = args.iter().map(Arg::as_kernel_param).collect();
        // SAFETY: each pointer points into `args`, alive here, at a value of
        // the type read.
        unsafe {
            assert_eq!(*(params[0] as *const u64), 0xdead_beef_0000);
            assert_eq!(*(params[1] as *const i32), -7);
            assert_eq!(*(params[2] as *const i64), 1 << 40);
            assert_eq!(*(params[3] as *const f32), 2.5);
            assert_eq!(*(params[4] as *const u16), 0x3c00);
            assert_eq!(*(params[5] as *const u16), 0x3f80);
        }
    }

    #[test]
    fn block_threads_bounds() {
        let mut spec = safe_kernel();
        assert_eq!(spec.block_threads().unwrap(), 128);
        spec.num_warps = 32;
        assert_eq!(spec.block_threads().unwrap(), 1024);
        spec.num_warps = 0;
        let err = spec.block_threads().unwrap_err();
        assert_eq!(
            err.to_string(),
            "kernel `safe_kernel`: cannot launch: num_warps = 0 gives 0 threads per block; a \
             block needs 1 to 32 warps (at most 1024 threads)"
        );
        spec.num_warps = 33;
        assert!(
            spec.block_threads()
                .unwrap_err()
                .to_string()
                .contains("num_warps = 33 gives 1056 threads")
        );
        spec.num_warps = u32::MAX;
        assert!(spec.block_threads().is_err());
    }

    #[test]
    fn param_sizes() {
        assert_eq!(ParamType::Ptr.size_bytes(), 8);
        assert_eq!(ParamType::I32.size_bytes(), 4);
        assert_eq!(ParamType::BF16.size_bytes(), 2);
    }
}
