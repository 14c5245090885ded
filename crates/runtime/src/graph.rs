//! CUDA graphs: the launches a program queues on a device's stream,
//! recorded once ([`Device::capture`]) and replayed with one driver call
//! each time ([`Graph::replay`]), as torch's `CUDAGraph` and burn users
//! ask for: a sequence of small kernels then costs one launch, not one
//! per kernel.
//!
//! ```no_run
//! use tile_runtime::{Arg, Device, Graph, LoadedKernel, Result};
//!
//! /// A hundred launches of `kernel` over `args`, recorded once. The
//! /// device must have a stream of its own (`Device::from_cuda_context`),
//! /// and the kernel must have been launched once before (compiled and
//! /// loaded outside the capture).
//! fn hundred(device: &Device, kernel: &LoadedKernel, args: &[Arg]) -> Result<Graph> {
//!     device.capture(|d| {
//!         for _ in 0..100 {
//!             kernel.launch_async_on(d, 4, args)?;
//!         }
//!         Ok(())
//!     })
//! }
//!
//! fn replay(graph: &Graph) -> Result<()> {
//!     graph.replay()?; // the 100 launches, queued with one call
//!     graph.device().synchronize()
//! }
//! ```

use crate::device::Device;
use crate::error::{Result, RuntimeError, call};
use cudarc::driver::{CudaGraph, sys};

/// Launches recorded on a device's stream, ready to be replayed there.
///
/// The graph holds the arguments as they were when captured: addresses,
/// not buffers. Keep every buffer a captured launch used alive (and of
/// the same size) for as long as the graph is replayed: a replay after one
/// is freed writes memory the program no longer owns, as with any CUDA
/// graph.
pub struct Graph {
    graph: CudaGraph,
    device: Device,
}

impl Device {
    /// Records what `record` queues on this device's stream (launches
    /// through [`LoadedKernel::launch_async_on`](crate::LoadedKernel::launch_async_on),
    /// a [`Launcher`](crate::Launcher)'s `launch_async`, copies) into a
    /// [`Graph`], without running it.
    ///
    /// Launch each kernel once before capturing: compiling and loading
    /// code, allocating memory and waiting for the stream cannot be
    /// recorded, and the driver refuses them while the stream captures
    /// (the capture then fails with the driver's error, and nothing is
    /// recorded). The device must have a stream of its own
    /// ([`Device::from_cuda_context`], [`Device::from_cuda_stream`]): the
    /// legacy default stream cannot be captured. The interpreter has no
    /// stream ([`RuntimeError::NotInterpretable`]).
    pub fn capture(&self, record: impl FnOnce(&Device) -> Result<()>) -> Result<Graph> {
        let during = "capturing a CUDA graph";
        let stream = self
            .cuda_stream()
            .ok_or_else(|| RuntimeError::NotInterpretable {
                kernel: None,
                message: format!("{during}: the CPU interpreter has no CUDA stream"),
            })?;
        if stream.cu_stream().is_null() {
            return Err(RuntimeError::BadLaunch {
                kernel: String::new(),
                message: format!(
                    "{during}: this device issues work on the legacy default stream, which \
                     cannot be captured: use a device with a stream of its own \
                     (Device::from_cuda_context)"
                ),
            });
        }
        call(None, "cuStreamBeginCapture", || {
            stream.begin_capture(sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)
        })?;
        let recorded = record(self);
        // Ended whatever `record` did, so that the stream stops capturing.
        let ended = call(None, "cuStreamEndCapture", || {
            stream.end_capture(sys::CUgraphInstantiate_flags(0))
        });
        recorded?;
        match ended? {
            Some(graph) => Ok(Graph {
                graph,
                device: self.clone(),
            }),
            None => Err(RuntimeError::BadLaunch {
                kernel: String::new(),
                message: format!("{during}: nothing was recorded"),
            }),
        }
    }
}

impl Graph {
    /// Queues the recorded work on the device's stream again (one driver
    /// call); it runs after what the stream already holds. Wait with
    /// [`Device::synchronize`] (a fault inside surfaces there).
    pub fn replay(&self) -> Result<()> {
        call(None, "cuGraphLaunch", || self.graph.launch())
    }

    /// The device whose stream the graph replays on.
    pub fn device(&self) -> &Device {
        &self.device
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interpreter_has_no_stream_to_capture() {
        let device = Device::interpreter();
        let mut ran = false;
        let e = device
            .capture(|_| {
                ran = true;
                Ok(())
            })
            .err()
            .expect("the interpreter cannot capture");
        assert!(matches!(e, RuntimeError::NotInterpretable { .. }), "{e}");
        assert!(!ran, "nothing is recorded, so nothing runs");
    }
}
