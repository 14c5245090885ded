//! Device memory: raw addresses ([`DevicePtr`]), the element types that may
//! live on the device ([`DeviceCopy`]) and owned allocations ([`Buffer`]).
//!
//! ```
//! use tile_runtime::{Arg, Device, RuntimeError};
//!
//! let device = Device::interpreter();
//! let x = device.upload(&[1.0f32, 2.0, 3.0])?;
//! // An argument from element 1 on knows it reaches 2 elements (8 bytes).
//! let Arg::Ptr { extent_bytes, .. } = x.arg_at(1)? else { unreachable!() };
//! assert_eq!(extent_bytes, Some(8));
//! assert_eq!(x.ptr_at(4), Err(RuntimeError::OutOfBounds { offset: 4, len: 3 }));
//! # Ok::<(), RuntimeError>(())
//! ```

use crate::device::Device;
use crate::error::{Result, RuntimeError};
use crate::kernel::Arg;
use std::fmt;
use std::marker::PhantomData;

/// A raw device address, as a kernel's pointer parameter receives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DevicePtr(pub u64);

impl fmt::Display for DevicePtr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#x}", self.0)
    }
}

mod sealed {
    pub trait Sealed {}
}

/// Plain element types that can be copied to and from the device byte for
/// byte, and for which all-zero bytes are a valid value.
///
/// Sealed: implemented for [`half::f16`], [`half::bf16`], `f32`, `f64`,
/// `i8`, `i16`, `i32`, `i64`, `u8`, `u16`, `u32` and `u64`: the element
/// types cudarc's `DeviceRepr` covers too, so a [`Buffer`] converts to and
/// from a `cudarc` `CudaSlice` of the same type.
///
/// ```
/// use tile_runtime::half::f16;
///
/// let device = tile_runtime::Device::interpreter();
/// let x = device.upload(&[f16::from_f32(0.5), f16::ONE])?;
/// assert_eq!(device.download(&x)?, vec![f16::from_f32(0.5), f16::ONE]);
/// # Ok::<(), tile_runtime::RuntimeError>(())
/// ```
pub trait DeviceCopy:
    Copy
    + Send
    + Sync
    + 'static
    + sealed::Sealed
    + cudarc::driver::DeviceRepr
    + cudarc::driver::ValidAsZeroBits
{
    /// Which type it is: a pointer argument made from a buffer carries
    /// it, and a launch refuses it for a kernel pointer to another element
    /// type.
    const ELEM: ElemType;
}

/// The element types of [`Buffer`]s ([`DeviceCopy`]'s types), named as
/// Rust names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemType {
    /// `half::f16`.
    F16,
    /// `half::bf16`.
    BF16,
    /// `f32`.
    F32,
    /// `f64`.
    F64,
    /// `i8`.
    I8,
    /// `i16`.
    I16,
    /// `i32`.
    I32,
    /// `i64`.
    I64,
    /// `u8`.
    U8,
    /// `u16`.
    U16,
    /// `u32`.
    U32,
    /// `u64`.
    U64,
}

impl ElemType {
    /// The Rust name: `"f32"`, `"u8"`, `"bf16"`.
    pub fn name(self) -> &'static str {
        match self {
            ElemType::F16 => "f16",
            ElemType::BF16 => "bf16",
            ElemType::F32 => "f32",
            ElemType::F64 => "f64",
            ElemType::I8 => "i8",
            ElemType::I16 => "i16",
            ElemType::I32 => "i32",
            ElemType::I64 => "i64",
            ElemType::U8 => "u8",
            ElemType::U16 => "u16",
            ElemType::U32 => "u32",
            ElemType::U64 => "u64",
        }
    }
}

macro_rules! device_copy {
    ($($t:ty => $elem:ident),*) => {$(
        impl sealed::Sealed for $t {}
        impl DeviceCopy for $t {
            const ELEM: ElemType = ElemType::$elem;
        }
    )*};
}
device_copy!(
    half::f16 => F16,
    half::bf16 => BF16,
    f32 => F32,
    f64 => F64,
    i8 => I8,
    i16 => I16,
    i32 => I32,
    i64 => I64,
    u8 => U8,
    u16 => U16,
    u32 => U32,
    u64 => U64
);

/// An allocation of `len` elements of `T` on one device, freed on drop.
///
/// Made by [`Device::alloc`] and [`Device::upload`]; read back with
/// [`Device::download`]. Pass it to a kernel as `Arg::from(&buffer)`, or
/// from an element on with [`arg_at`](Self::arg_at): either way the
/// argument knows its extent, so a launch that would overflow the kernel's
/// 32-bit offsets is refused (see [`crate::KernelSpec::check_args`]).
pub struct Buffer<T: DeviceCopy> {
    pub(crate) device: Device,
    /// Base address; 0 for an empty buffer, which owns no allocation.
    pub(crate) addr: u64,
    pub(crate) len: usize,
    pub(crate) marker: PhantomData<T>,
}

impl<T: DeviceCopy> Buffer<T> {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the buffer has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.len * size_of::<T>()
    }

    /// The address of the first element (0 for an empty buffer).
    pub fn ptr(&self) -> DevicePtr {
        DevicePtr(self.addr)
    }

    /// The address of element `elem_offset`; `elem_offset == len()` (one
    /// past the end) is allowed, anything further is
    /// [`RuntimeError::OutOfBounds`].
    pub fn ptr_at(&self, elem_offset: usize) -> Result<DevicePtr> {
        offset_addr::<T>(self.addr, self.len, elem_offset).map(DevicePtr)
    }

    /// The address of element `elem_offset` as a launch argument that knows
    /// its extent: the elements from there to the end of the buffer. Bounds
    /// as in [`ptr_at`](Self::ptr_at). (An [`Arg`] made from the bare
    /// address of `ptr_at` has no extent and escapes the offset check.)
    pub fn arg_at(&self, elem_offset: usize) -> Result<Arg> {
        Ok(Arg::Ptr {
            ptr: self.ptr_at(elem_offset)?,
            extent_bytes: Some(((self.len - elem_offset) * size_of::<T>()) as u64),
            elem: Some(T::ELEM),
            owner: Some(self.device.id()),
        })
    }

    /// The device that owns the memory.
    pub fn device(&self) -> &Device {
        &self.device
    }
}

/// `base + offset * size_of::<T>()`, bounds-checked against `len`.
fn offset_addr<T>(base: u64, len: usize, offset: usize) -> Result<u64> {
    if offset > len {
        return Err(RuntimeError::OutOfBounds { offset, len });
    }
    // Cannot overflow: the buffer's `len` elements fit in device memory.
    Ok(base + (offset * size_of::<T>()) as u64)
}

impl<T: DeviceCopy> Drop for Buffer<T> {
    fn drop(&mut self) {
        if self.addr != 0 {
            self.device.free(self.addr);
        }
    }
}

impl<T: DeviceCopy> fmt::Debug for Buffer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Buffer")
            .field("elem", &std::any::type_name::<T>())
            .field("len", &self.len)
            .field("ptr", &self.ptr())
            .field("device", &self.device.ordinal())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_scale_by_element_size_and_are_bounds_checked() {
        assert_eq!(offset_addr::<f32>(0x1000, 8, 0).unwrap(), 0x1000);
        assert_eq!(offset_addr::<f32>(0x1000, 8, 3).unwrap(), 0x100c);
        assert_eq!(offset_addr::<f64>(0x1000, 8, 8).unwrap(), 0x1040);
        assert_eq!(offset_addr::<u8>(0x1000, 8, 5).unwrap(), 0x1005);
        assert_eq!(
            offset_addr::<f32>(0x1000, 8, 9).unwrap_err(),
            RuntimeError::OutOfBounds { offset: 9, len: 8 }
        );
        assert_eq!(offset_addr::<f32>(0, 0, 0).unwrap(), 0);
    }

    #[test]
    fn device_ptr_prints_in_hex() {
        assert_eq!(DevicePtr(0x7f00_0000_1000).to_string(), "0x7f0000001000");
    }
}
