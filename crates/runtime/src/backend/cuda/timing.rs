//! Device time, measured with CUDA events recorded on the stream around
//! the work to time.

use super::CudaBackend;
use crate::backend::Backend;
use crate::error::{Result, call};
use cudarc::driver::CudaEvent;
use cudarc::driver::sys;

/// A new event to record on `cuda`'s stream.
fn new_event(cuda: &CudaBackend) -> Result<CudaEvent> {
    call(None, "creating a timing event", || {
        cuda.ctx
            .new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))
    })
}

/// Records `start` on `cuda`'s stream, calls `f`, and records `end`,
/// without waiting.
fn record_around(
    cuda: &CudaBackend,
    start: &CudaEvent,
    end: &CudaEvent,
    f: &mut dyn FnMut() -> Result<()>,
) -> Result<()> {
    call(None, "recording the start event", || {
        start.record(&cuda.stream)
    })?;
    f()?;
    call(None, "recording the end event", || end.record(&cuda.stream))
}

/// The device time of the work `f` issues, in milliseconds: events
/// recorded before and after it, then a wait for the second.
pub(super) fn time_ms(cuda: &CudaBackend, f: &mut dyn FnMut() -> Result<()>) -> Result<f32> {
    let start = new_event(cuda)?;
    let end = new_event(cuda)?;
    record_around(cuda, &start, &end, f)?;
    call(None, "waiting for the timed work", || end.synchronize())?;
    call(None, "reading the elapsed time", || start.elapsed_ms(&end))
}

/// The device time of each of `reps` calls of `timed`, in milliseconds:
/// `before` (untimed), a start event, `timed`, an end event, all queued
/// without waiting; one wait for the device after the last.
pub(super) fn time_each_ms(
    cuda: &CudaBackend,
    reps: usize,
    before: &mut dyn FnMut() -> Result<()>,
    timed: &mut dyn FnMut() -> Result<()>,
) -> Result<Vec<f32>> {
    let events = (0..reps)
        .map(|_| Ok((new_event(cuda)?, new_event(cuda)?)))
        .collect::<Result<Vec<_>>>()?;
    for (start, end) in &events {
        before()?;
        record_around(cuda, start, end, timed)?;
    }
    cuda.synchronize()?;
    events
        .iter()
        .map(|(start, end)| call(None, "reading the elapsed time", || start.elapsed_ms(end)))
        .collect()
}
