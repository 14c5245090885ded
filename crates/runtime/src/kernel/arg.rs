//! Launch arguments: their values, their types, and their conversion from
//! Rust values and buffers.

use super::ParamType;
use crate::buffer::{Buffer, DeviceCopy, DevicePtr};
use crate::device::DeviceId;
use std::ffi::c_void;

/// One launch argument. Its type must match the kernel's parameter exactly
/// (an `I32` is not accepted for an `I64` parameter).
///
/// A pointer made from a buffer (`Arg::from(&buffer)`,
/// [`Buffer::arg_at`]) knows how many bytes lie from it to the end of the
/// allocation, which lets
/// [`KernelSpec::check_args`](super::KernelSpec::check_args) refuse a
/// buffer too large for the kernel's 32-bit offsets; one made from a bare
/// [`DevicePtr`] does not, and is not checked. A pointer made from a
/// buffer also knows its device, and a launch on another device refuses it
/// ([`crate::RuntimeError::ArgOnWrongDevice`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arg {
    /// A device address (for a [`ParamType::Ptr`] parameter).
    Ptr {
        /// The address.
        ptr: DevicePtr,
        /// Bytes from `ptr` to the end of its allocation, when known.
        extent_bytes: Option<u64>,
        /// The device whose memory `ptr` is in, when known (made from a
        /// buffer): a launch on another device is refused.
        owner: Option<DeviceId>,
        /// The Rust type of the elements it points at, when known (made
        /// from a buffer: [`DeviceCopy::ELEM`]): a launch refuses it for a
        /// kernel pointer to another element type
        /// ([`crate::RuntimeError::BadPointee`]).
        elem: Option<crate::buffer::ElemType>,
    },
    /// A 32-bit integer.
    I32(i32),
    /// A 64-bit integer.
    I64(i64),
    /// A single-precision float.
    F32(f32),
    /// A half-precision float.
    F16(half::f16),
    /// A bfloat16.
    BF16(half::bf16),
}

impl Arg {
    /// The parameter type this argument fits.
    pub fn param_type(&self) -> ParamType {
        match self {
            Arg::Ptr { .. } => ParamType::Ptr,
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
            Arg::Ptr {
                ptr: DevicePtr(v), ..
            } => (v as *const u64).cast(),
            Arg::I32(v) => (v as *const i32).cast(),
            Arg::I64(v) => (v as *const i64).cast(),
            Arg::F32(v) => (v as *const f32).cast(),
            Arg::F16(v) => (v as *const half::f16).cast(),
            Arg::BF16(v) => (v as *const half::bf16).cast(),
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

impl From<half::f16> for Arg {
    fn from(v: half::f16) -> Self {
        Arg::F16(v)
    }
}

impl From<half::bf16> for Arg {
    fn from(v: half::bf16) -> Self {
        Arg::BF16(v)
    }
}

/// A bare address: its extent is unknown, so no offset check applies.
impl From<DevicePtr> for Arg {
    fn from(ptr: DevicePtr) -> Self {
        Arg::Ptr {
            ptr,
            extent_bytes: None,
            owner: None,
            elem: None,
        }
    }
}

/// The buffer's first element, with the whole buffer as its extent.
impl<T: DeviceCopy> From<&Buffer<T>> for Arg {
    fn from(buf: &Buffer<T>) -> Self {
        Arg::Ptr {
            ptr: buf.ptr(),
            extent_bytes: Some(buf.size_bytes() as u64),
            owner: Some(buf.device().id()),
            elem: Some(T::ELEM),
        }
    }
}

/// The buffer's first element, with the whole buffer as its extent.
impl<T: DeviceCopy> From<&mut Buffer<T>> for Arg {
    fn from(buf: &mut Buffer<T>) -> Self {
        Arg::from(&*buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ptr(v: u64) -> Arg {
        Arg::from(DevicePtr(v))
    }

    #[test]
    fn conversions_pick_the_variant() {
        assert_eq!(Arg::from(3i32), Arg::I32(3));
        assert_eq!(Arg::from(3i64), Arg::I64(3));
        assert_eq!(Arg::from(0.5f32), Arg::F32(0.5));
        assert_eq!(Arg::from(half::f16::ONE).param_type(), ParamType::F16);
        assert_eq!(Arg::from(half::bf16::ONE).param_type(), ParamType::BF16);
        assert_eq!(
            Arg::from(DevicePtr(16)),
            Arg::Ptr {
                ptr: DevicePtr(16),
                extent_bytes: None,
                owner: None,
                elem: None
            }
        );
    }

    #[test]
    fn kernel_params_point_at_the_values() {
        let args = [
            ptr(0xdead_beef_0000),
            Arg::I32(-7),
            Arg::I64(1 << 40),
            Arg::F32(2.5),
            Arg::F16(half::f16::ONE),
            Arg::BF16(half::bf16::ONE),
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
}
