//! The CUDA-event timing of a launch after an L2 flush, as
//! `triton.testing.do_bench` times (see [`super`]).

use super::{FLUSH_BYTES, Timing, median};
use tile::{Buffer, Device};

/// Times launches on one device: holds the [`FLUSH_BYTES`] buffer zeroed
/// before each timed launch.
pub struct Timer<'d> {
    device: &'d Device,
    timing: Timing,
    flush: Buffer<u8>,
}

impl<'d> Timer<'d> {
    /// A timer of `timing` on `device`; an error when the flush buffer
    /// cannot be had.
    pub fn new(device: &'d Device, timing: Timing) -> Result<Timer<'d>, String> {
        let flush = device
            .alloc(FLUSH_BYTES)
            .map_err(|e| format!("allocating the L2 flush buffer: {e}"))?;
        Ok(Timer {
            device,
            timing,
            flush,
        })
    }

    /// The launches it times.
    pub fn timing(&self) -> Timing {
        self.timing
    }

    /// The median device time of `timed` in ms: `warmup` untimed calls
    /// and a wait, then `reps` repetitions of (zero the flush buffer,
    /// start event, `timed`, end event) queued back to back, one wait, and
    /// the median of the elapsed times (see [`Device::time_each_ms`]).
    pub fn median_ms(
        &mut self,
        mut timed: impl FnMut() -> tile_runtime::Result<()>,
    ) -> Result<f64, String> {
        let device = self.device;
        let err = |e: tile_runtime::RuntimeError| e.to_string();
        for _ in 0..self.timing.warmup {
            timed().map_err(err)?;
        }
        device.synchronize().map_err(err)?;
        let flush = &mut self.flush;
        let times = device
            .time_each_ms(self.timing.reps, || device.zero_async(flush), timed)
            .map_err(err)?;
        let times: Vec<f64> = times.into_iter().map(f64::from).collect();
        median(&times).ok_or_else(|| "no repetitions to time".to_string())
    }

    /// The median time of a device-to-device copy of `elems` fp32, timed
    /// like the kernels.
    pub fn copy_ms(&mut self, elems: usize) -> Result<f64, String> {
        let device = self.device;
        let src = device.alloc::<f32>(elems).map_err(|e| e.to_string())?;
        let mut dst = device.alloc::<f32>(elems).map_err(|e| e.to_string())?;
        self.median_ms(|| device.copy_async(&src, &mut dst))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On the interpreter (no GPU here) the timer runs its warm-up and
    /// timed calls, zeroing the flush buffer before each timed one.
    #[test]
    fn the_timer_calls_warmup_then_timed_repetitions() {
        let device = Device::interpreter();
        let mut timer = Timer::new(&device, Timing { warmup: 2, reps: 3 }).unwrap();
        let mut calls = 0;
        let ms = timer
            .median_ms(|| {
                calls += 1;
                Ok(())
            })
            .unwrap();
        assert_eq!(calls, 5);
        assert!(ms >= 0.0);
        assert!(timer.copy_ms(1024).unwrap() >= 0.0);
        let failing = timer.median_ms(|| {
            Err(tile_runtime::RuntimeError::NoDevice {
                ordinal: 0,
                reason: "a test".into(),
            })
        });
        assert!(failing.is_err());
    }
}
