//! The types of a `#[tile::kernel]` function's parameters and of its
//! typed launcher's arguments: [`Ptr`] for pointers, [`Element`] for what
//! they point at, [`ScalarArg`] for scalars, [`PtrArg`] for what a
//! launch passes as a pointer.
//!
//! The launcher is checked by the Rust compiler. For the kernel
//! `fill(x: Ptr<f32>, n: i32, #[constexpr] block: i32)`, this launch
//! compiles and runs:
//!
//! ```
//! # use tile::prelude::*;
//! # #[tile::kernel]
//! # fn fill(x: Ptr<f32>, n: i32, #[constexpr] block: i32) {
//! #     let offs = arange(0, block);
//! #     store(x + offs, 1.0).mask(offs.lt(n)).build();
//! # }
//! # fn main() -> tile::Result<()> {
//! # let device = Device::interpreter();
//! let mut x = device.alloc::<f32>(100)?;
//! fill::launch(&device, 1, &mut x, 100, 128)?;
//! assert_eq!(device.download(&x)?, vec![1.0; 100]);
//! # Ok(())
//! # }
//! ```
//!
//! and each of these, the same but for one argument, does not: a buffer
//! of `f64` for the `f32` pointer,
//!
//! ```compile_fail
//! # use tile::prelude::*;
//! # #[tile::kernel]
//! # fn fill(x: Ptr<f32>, n: i32, #[constexpr] block: i32) {
//! #     let offs = arange(0, block);
//! #     store(x + offs, 1.0).mask(offs.lt(n)).build();
//! # }
//! # fn main() -> tile::Result<()> {
//! # let device = Device::interpreter();
//! let mut x = device.alloc::<f64>(100)?;
//! fill::launch(&device, 1, &mut x, 100, 128)?;
//! # Ok(())
//! # }
//! ```
//!
//! the constexpr left out,
//!
//! ```compile_fail
//! # use tile::prelude::*;
//! # #[tile::kernel]
//! # fn fill(x: Ptr<f32>, n: i32, #[constexpr] block: i32) {
//! #     let offs = arange(0, block);
//! #     store(x + offs, 1.0).mask(offs.lt(n)).build();
//! # }
//! # fn main() -> tile::Result<()> {
//! # let device = Device::interpreter();
//! let mut x = device.alloc::<f32>(100)?;
//! fill::launch(&device, 1, &mut x, 100)?;
//! # Ok(())
//! # }
//! ```
//!
//! an `i64` for the `i32` scalar,
//!
//! ```compile_fail
//! # use tile::prelude::*;
//! # #[tile::kernel]
//! # fn fill(x: Ptr<f32>, n: i32, #[constexpr] block: i32) {
//! #     let offs = arange(0, block);
//! #     store(x + offs, 1.0).mask(offs.lt(n)).build();
//! # }
//! # fn main() -> tile::Result<()> {
//! # let device = Device::interpreter();
//! let mut x = device.alloc::<f32>(100)?;
//! fill::launch(&device, 1, &mut x, 100i64, 128)?;
//! # Ok(())
//! # }
//! ```
//!
//! and a constexpr of another type.
//!
//! ```compile_fail
//! # use tile::prelude::*;
//! # #[tile::kernel]
//! # fn fill(x: Ptr<f32>, n: i32, #[constexpr] block: i32) {
//! #     let offs = arange(0, block);
//! #     store(x + offs, 1.0).mask(offs.lt(n)).build();
//! # }
//! # fn main() -> tile::Result<()> {
//! # let device = Device::interpreter();
//! let mut x = device.alloc::<f32>(100)?;
//! fill::launch(&device, 1, &mut x, 100, 128u32)?;
//! # Ok(())
//! # }
//! ```
//!
//! A launch through an [`Arg`] array (a [`crate::Jit`]'s) is checked when
//! it runs: a pointer made from a buffer of other elements is
//! [`RuntimeError::BadPointee`](crate::RuntimeError::BadPointee).

use crate::{Arg, Buffer, DType};
use std::marker::PhantomData;
use tile_runtime::DeviceCopy;

/// A pointer parameter of a `#[tile::kernel]` function: `x: Ptr<f32>`.
/// In the body it is a pointer tile (`x + offs` is a tile of pointers);
/// the launcher takes a [`PtrArg<T>`] for it (`&Buffer<T>`).
pub struct Ptr<T: Element>(PhantomData<T>);

/// A Rust type a kernel's memory holds, and the tile dtype it is loaded
/// as. Unsigned integers load as the signless integers of their width
/// (the kernel's arithmetic on them is signed, as in Triton's `tl.int*`).
pub trait Element: DeviceCopy {
    /// The element's tile dtype.
    const DTYPE: DType;
}

macro_rules! element {
    ($($t:ty => $d:ident),* $(,)?) => {$(
        impl Element for $t {
            const DTYPE: DType = DType::$d;
        }
    )*};
}

element!(
    f32 => F32, f64 => F64, crate::half::f16 => F16, crate::half::bf16 => BF16,
    i8 => I8, i16 => I16, i32 => I32, i64 => I64,
    u8 => I8, u16 => I16, u32 => I32, u64 => I64,
);

/// A scalar parameter's Rust type (`n: i32`, `eps: f32`): its dtype in
/// the kernel and its launch argument.
pub trait ScalarArg: Copy {
    /// The parameter's tile dtype.
    const DTYPE: DType;
    /// The value as a launch argument.
    fn arg(self) -> Arg;
}

macro_rules! scalar_arg {
    ($($t:ty => $d:ident),* $(,)?) => {$(
        impl ScalarArg for $t {
            const DTYPE: DType = DType::$d;
            fn arg(self) -> Arg {
                Arg::from(self)
            }
        }
    )*};
}

scalar_arg!(i32 => I32, i64 => I64, f32 => F32, crate::half::f16 => F16, crate::half::bf16 => BF16);

/// What a typed launch accepts for a `Ptr<T>` parameter: a buffer of `T`
/// (`&buffer`, `&mut buffer`), or a buffer and the element to start at
/// (`(&buffer, 128)`). A buffer of another element type does not
/// compile.
pub trait PtrArg<T: Element> {
    /// The launch argument (with the buffer's extent and device, so the
    /// launch checks them).
    fn arg(self) -> crate::Result<Arg>;
}

impl<T: Element> PtrArg<T> for &Buffer<T> {
    fn arg(self) -> crate::Result<Arg> {
        Ok(Arg::from(self))
    }
}

impl<T: Element> PtrArg<T> for &mut Buffer<T> {
    fn arg(self) -> crate::Result<Arg> {
        Ok(Arg::from(&*self))
    }
}

impl<T: Element> PtrArg<T> for (&Buffer<T>, usize) {
    fn arg(self) -> crate::Result<Arg> {
        Ok(self.0.arg_at(self.1)?)
    }
}
