//! Working with cudarc: devices on the caller's context and stream, cudarc
//! slices as launch arguments, and buffers converted to and from slices.
//!
//! A program that already uses cudarc (as candle does) keeps its context,
//! its streams and its memory:
//!
//! - [`Device::from_cuda_stream`] is a device whose every copy and launch
//!   is issued on the caller's [`CudaStream`]; [`Device::from_cuda_context`]
//!   one on a new stream of the caller's context.
//! - [`CudaArgs`] collects a launch's arguments from [`CudaSlice`]s,
//!   [`CudaView`]s and [`CudaViewMut`]s (and [`Buffer`]s and scalars). Each
//!   slice argument has its extent checked like a buffer's, and takes part
//!   in cudarc's stream ordering: the launch waits for the slice's pending
//!   writes (and, for a slice passed `&mut`, its pending reads), and
//!   records its own read or write for later users on other streams.
//! - [`Buffer::into_cuda_slice`] and [`Buffer::from_cuda_slice`] hand an
//!   allocation over without a copy.
//!
//! ```no_run
//! use tile_runtime::cuda::CudaArgs;
//! use tile_runtime::cudarc::driver::CudaContext;
//! use tile_runtime::{Device, LoadedKernel};
//!
//! # fn run(kernel: &LoadedKernel) -> Result<(), Box<dyn std::error::Error>> {
//! let ctx = CudaContext::new(0)?;
//! let stream = ctx.new_stream()?;
//! let x = stream.clone_htod(&[1.0f32; 1000])?;
//! let mut y = stream.alloc_zeros::<f32>(1000)?;
//! let device = Device::from_cuda_stream(stream.clone())?;
//! CudaArgs::new(&device)?
//!     .arg(&x)
//!     .arg(&mut y)
//!     .arg(1000i32)
//!     .launch(kernel, 8u32)?;
//! let y = stream.clone_dtoh(&y)?;
//! # Ok(())
//! # }
//! ```

use crate::buffer::{Buffer, DeviceCopy};
use crate::device::{Device, DeviceId};
use crate::error::{Result, RuntimeError, call};
use crate::kernel::Arg;
use crate::launch::{Grid, LoadedKernel};
use crate::launcher::{Launcher, VariantSource};
use cudarc::driver::{
    CudaContext, CudaSlice, CudaStream, CudaView, CudaViewMut, DevicePtr, DevicePtrMut, SyncOnDrop,
};
use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::sync::Arc;

impl Device {
    /// A device whose copies and launches are all issued on `stream`, a
    /// cudarc stream of any context: its work is ordered with the other
    /// work on that stream, and with other streams' work through events
    /// (`stream.wait(&event)`, `stream.join(&other)`, or cudarc's own
    /// tracking of the slices passed through [`CudaArgs`]).
    ///
    /// The device shares the stream's context, so buffers and loaded
    /// kernels of any other device on that context (such as
    /// [`Device::new`] of the same ordinal, on the context's default
    /// stream) may be used with it; the ordering between the two streams
    /// is then the caller's to make.
    pub fn from_cuda_stream(stream: Arc<CudaStream>) -> Result<Device> {
        let ordinal = stream.context().ordinal();
        let (backend, limits) = crate::backend::CudaBackend::on_stream(stream)?;
        Ok(Device::on(ordinal, limits, Box::new(backend)))
    }

    /// A device on `context` with a new stream of its own (a non-blocking
    /// one: it does not wait for the legacy default stream).
    pub fn from_cuda_context(context: &Arc<CudaContext>) -> Result<Device> {
        let stream = call(None, "creating a stream", || context.new_stream())?;
        Device::from_cuda_stream(stream)
    }

    /// The cudarc stream this device issues its work on; `None` on the
    /// interpreter.
    pub fn cuda_stream(&self) -> Option<&Arc<CudaStream>> {
        self.cuda_backend().map(|cuda| cuda.cuda_stream())
    }

    /// The stream, or the error that says the interpreter has none.
    fn stream_for(&self, during: &str) -> Result<&Arc<CudaStream>> {
        self.cuda_stream()
            .ok_or_else(|| RuntimeError::NotInterpretable {
                kernel: None,
                message: format!(
                    "{during}: this device is the CPU interpreter, which has no CUDA stream \
                     and cannot reach cudarc memory"
                ),
            })
    }
}

/// The identity of the device context `ctx`, as [`Device::id`] gives it.
fn id_of(ctx: &CudaContext) -> DeviceId {
    DeviceId {
        interpreter: false,
        ordinal: ctx.ordinal(),
        context: ctx.cu_ctx() as usize,
    }
}

impl<T: DeviceCopy> Buffer<T> {
    /// The buffer as a cudarc slice on its device's stream, without a
    /// copy: the slice owns the memory from now on (and frees it when
    /// dropped). The interpreter's buffers are host memory:
    /// [`RuntimeError::NotInterpretable`].
    pub fn into_cuda_slice(self) -> Result<CudaSlice<T>> {
        let stream = self.device.stream_for("Buffer::into_cuda_slice")?.clone();
        if self.addr == 0 {
            // An empty buffer owns no allocation; cudarc makes its own
            // empty slice.
            return call(None, "making an empty slice", || stream.alloc_zeros::<T>(0));
        }
        let me = ManuallyDrop::new(self);
        // SAFETY: the buffer is not dropped (ManuallyDrop); its device
        // handle is moved out once, and its allocation handed over below.
        let _device = unsafe { std::ptr::read(&me.device) };
        // SAFETY: `addr` is a live allocation of `len` elements of `T`
        // (every bit pattern of a `DeviceCopy` type is valid), in the
        // stream's context, owned by nobody else from here on.
        Ok(unsafe { stream.upgrade_device_ptr(me.addr, me.len) })
    }

    /// A buffer on `device` that takes over `slice`'s memory without a
    /// copy. `device`'s stream is first made to wait for the slice's
    /// pending work (on the slice's stream). A slice of another context is
    /// [`RuntimeError::WrongDevice`].
    pub fn from_cuda_slice(device: &Device, slice: CudaSlice<T>) -> Result<Buffer<T>> {
        let stream = device.stream_for("Buffer::from_cuda_slice")?.clone();
        let owner = id_of(slice.context());
        if owner != device.id() {
            return Err(RuntimeError::WrongDevice {
                during: "Buffer::from_cuda_slice",
                owner,
                used_with: device.id(),
            });
        }
        let len = slice.len();
        let slice_stream = slice.stream().clone();
        // `leak` makes the slice's stream wait for the slice's pending
        // reads and writes; the join orders the device's stream after them.
        let addr = slice.leak();
        call(
            None,
            "ordering the device's stream after the slice's",
            || stream.join(&slice_stream),
        )?;
        Ok(Buffer {
            device: device.clone(),
            addr,
            len,
            marker: PhantomData,
        })
    }
}

/// A launch argument that [`CudaArgs`] takes: a scalar, a [`Buffer`], an
/// [`Arg`], or a cudarc slice or view (shared for a read, `&mut` for a
/// write).
pub trait CudaArg<'a> {
    /// Appends the argument to `args`, on `device`'s `stream`.
    fn push(self, args: &mut CudaArgs<'a>) -> Result<()>;
}

/// The arguments of one launch on a CUDA device, in order, with the
/// cudarc stream-ordering of the slices among them.
///
/// Each slice or view is checked to be in the device's context and has
/// its extent (the elements from its start to its end) recorded like a
/// [`Buffer`]'s, so a launch that could reach past the kernel's 32-bit
/// offsets is refused. Adding a slice makes the device's stream wait for
/// the slice's pending writes (and its reads, when added `&mut`); the
/// launch's own read or write of it is recorded when the `CudaArgs` is
/// dropped, which [`launch`](Self::launch) does right after queueing the
/// kernel.
///
/// The first error (a slice of another context, an interpreter device)
/// is returned by [`launch`](Self::launch) or [`args`](Self::args).
pub struct CudaArgs<'a> {
    device: &'a Device,
    stream: &'a Arc<CudaStream>,
    args: Vec<Arg>,
    /// The slices' records of this launch, made when dropped.
    records: Vec<SyncOnDrop<'a>>,
    error: Option<RuntimeError>,
}

impl<'a> CudaArgs<'a> {
    /// No arguments yet, for a launch on `device` (a CUDA device: the
    /// interpreter has no stream, [`RuntimeError::NotInterpretable`]).
    pub fn new(device: &'a Device) -> Result<CudaArgs<'a>> {
        Ok(CudaArgs {
            device,
            stream: device.stream_for("CudaArgs::new")?,
            args: Vec::new(),
            records: Vec::new(),
            error: None,
        })
    }

    /// Appends one argument.
    pub fn arg(mut self, arg: impl CudaArg<'a>) -> CudaArgs<'a> {
        if self.error.is_none()
            && let Err(e) = arg.push(&mut self)
        {
            self.error = Some(e);
        }
        self
    }

    /// The arguments so far, or the first error in adding them. The
    /// launch's reads and writes are recorded when `self` is dropped:
    /// drop it after the launch is queued, not before.
    pub fn args(&self) -> Result<&[Arg]> {
        match &self.error {
            Some(e) => Err(e.clone()),
            None => Ok(&self.args),
        }
    }

    /// Queues `kernel` on the device's stream with these arguments, then
    /// records the slices' reads and writes.
    pub fn launch(self, kernel: &impl Launch, grid: impl Into<Grid>) -> Result<()> {
        let args = self.args()?;
        kernel.launch_async_on(self.device, grid.into(), args)
    }

    /// Refuses memory of a context other than the device's.
    fn check_owner(&self, stream: &CudaStream) -> Result<DeviceId> {
        let owner = id_of(stream.context());
        if owner != self.device.id() {
            return Err(RuntimeError::WrongDevice {
                during: "CudaArgs::arg",
                owner,
                used_with: self.device.id(),
            });
        }
        Ok(owner)
    }

    /// Appends the slice `s`, read by the launch.
    fn read<T: DeviceCopy, S: DevicePtr<T>>(&mut self, s: &'a S) -> Result<()> {
        let owner = self.check_owner(s.stream())?;
        let (ptr, record) = s.device_ptr(self.stream);
        self.records.push(record);
        self.push_pointer::<T>(owner, ptr, s.len());
        Ok(())
    }

    /// Appends the slice `s`, written by the launch.
    fn write<T: DeviceCopy, S: DevicePtrMut<T>>(&mut self, s: &'a mut S) -> Result<()> {
        let owner = self.check_owner(s.stream())?;
        let len = s.len();
        let (ptr, record) = s.device_ptr_mut(self.stream);
        self.records.push(record);
        self.push_pointer::<T>(owner, ptr, len);
        Ok(())
    }

    /// Appends a pointer to `len` elements of `T` at `ptr`, owned by `owner`.
    fn push_pointer<T: DeviceCopy>(&mut self, owner: DeviceId, ptr: u64, len: usize) {
        self.args.push(Arg::Ptr {
            ptr: crate::buffer::DevicePtr(ptr),
            extent_bytes: Some((len * size_of::<T>()) as u64),
            owner: Some(owner),
            elem: Some(T::ELEM),
        });
    }
}

/// What [`CudaArgs::launch`] can launch: a [`LoadedKernel`], or a
/// [`Launcher`] (a `tile::jit` kernel, an autotuned variant, precompiled
/// code).
pub trait Launch {
    /// Queues the launch on `device`'s stream.
    fn launch_async_on(&self, device: &Device, grid: Grid, args: &[Arg]) -> Result<()>;
}

impl Launch for LoadedKernel {
    fn launch_async_on(&self, device: &Device, grid: Grid, args: &[Arg]) -> Result<()> {
        LoadedKernel::launch_async_on(self, device, grid, args)
    }
}

impl<S: VariantSource> Launch for Launcher<S> {
    fn launch_async_on(&self, device: &Device, grid: Grid, args: &[Arg]) -> Result<()> {
        self.launch_async(device, grid, args)
    }
}

impl<'a, T: DeviceCopy> CudaArg<'a> for &'a CudaSlice<T> {
    fn push(self, args: &mut CudaArgs<'a>) -> Result<()> {
        args.read(self)
    }
}

impl<'a, T: DeviceCopy> CudaArg<'a> for &'a mut CudaSlice<T> {
    fn push(self, args: &mut CudaArgs<'a>) -> Result<()> {
        args.write(self)
    }
}

impl<'a, T: DeviceCopy> CudaArg<'a> for &'a CudaView<'_, T> {
    fn push(self, args: &mut CudaArgs<'a>) -> Result<()> {
        args.read(self)
    }
}

impl<'a, T: DeviceCopy> CudaArg<'a> for &'a mut CudaViewMut<'_, T> {
    fn push(self, args: &mut CudaArgs<'a>) -> Result<()> {
        args.write(self)
    }
}

impl<'a, T: DeviceCopy> CudaArg<'a> for &'a Buffer<T> {
    fn push(self, args: &mut CudaArgs<'a>) -> Result<()> {
        args.args.push(Arg::from(self));
        Ok(())
    }
}

impl<'a, T: DeviceCopy> CudaArg<'a> for &'a mut Buffer<T> {
    fn push(self, args: &mut CudaArgs<'a>) -> Result<()> {
        args.args.push(Arg::from(&*self));
        Ok(())
    }
}

macro_rules! scalar_cuda_arg {
    ($($t:ty),*) => {$(
        impl<'a> CudaArg<'a> for $t {
            fn push(self, args: &mut CudaArgs<'a>) -> Result<()> {
                args.args.push(Arg::from(self));
                Ok(())
            }
        }
    )*};
}
scalar_cuda_arg!(i32, i64, f32, half::f16, half::bf16, Arg);
