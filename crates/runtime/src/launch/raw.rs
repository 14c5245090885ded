//! Bare `cuLaunchKernel` calls, for the launch benchmark: the driver's own
//! cost, told from the runtime's.

use super::{Code, Grid, LoadedKernel};
use crate::error::{Result, RuntimeError, call};
use crate::kernel::Arg;
use cudarc::driver::result;
use std::ffi::c_void;

/// The stream of a [`raw_launch_host_us`] measurement.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawStream {
    /// The legacy NULL stream (what [`Device`](crate::Device) issues work on).
    Null,
    /// A created stream that synchronizes with the NULL stream.
    Blocking,
    /// A created stream that does not.
    NonBlocking,
}

/// For the launch benchmark only: the host time of `samples` bare
/// `cuLaunchKernel` calls of `kernel` (no checks), in microseconds, each
/// timed on its own, the stream drained every 200 (untimed). Tells the
/// driver's own cost from the runtime's. A kernel on a host device has
/// no driver to call: [`RuntimeError::NotInterpretable`].
#[doc(hidden)]
pub fn raw_launch_host_us(
    kernel: &LoadedKernel,
    grid: Grid,
    args: &[Arg],
    samples: usize,
    stream: RawStream,
) -> Result<Vec<f64>> {
    let Code::Cuda(code) = &kernel.inner.code else {
        return Err(RuntimeError::NotInterpretable {
            kernel: Some(kernel.inner.spec.name.clone()),
            message: "a raw launch calls the CUDA driver, and this kernel runs on the host"
                .to_string(),
        });
    };
    code.cuda.bind("a raw launch")?;
    let name = Some(kernel.inner.spec.name.as_str());
    let stream = match stream {
        RawStream::Null => std::ptr::null_mut(),
        RawStream::Blocking => call(name, "cuStreamCreate", || {
            result::stream::create(result::stream::StreamKind::Default)
        })?,
        RawStream::NonBlocking => call(name, "cuStreamCreate", || {
            result::stream::create(result::stream::StreamKind::NonBlocking)
        })?,
    };
    let mut params: Vec<*mut c_void> = args.iter().map(Arg::as_kernel_param).collect();
    let [x, y, z] = grid.dims();
    let mut times = Vec::with_capacity(samples);
    for i in 0..samples {
        if i % 200 == 0 {
            // SAFETY: the stream is this context's.
            call(name, "cuStreamSynchronize", || unsafe {
                result::stream::synchronize(stream)
            })?;
        }
        let started = std::time::Instant::now();
        // SAFETY: as in `launch_async`: the arguments were checked by a
        // launch of the same kernel with them before this is called.
        call(name, "cuLaunchKernel", || unsafe {
            result::launch_kernel(
                code.function,
                (x, y, z),
                (code.threads, 1, 1),
                kernel.inner.spec.shared_mem_bytes,
                stream,
                &mut params,
            )
        })?;
        times.push(started.elapsed().as_secs_f64() * 1e6);
    }
    // SAFETY: as above; a created stream is destroyed once, here.
    call(name, "cuStreamSynchronize", || unsafe {
        result::stream::synchronize(stream)
    })?;
    if !stream.is_null() {
        let _ = call(name, "cuStreamDestroy", || unsafe {
            result::stream::destroy(stream)
        });
    }
    Ok(times)
}
