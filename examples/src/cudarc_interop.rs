//! A tile kernel inside a cudarc program: cudarc's context, streams and
//! memory, no raw pointer.
//!
//! The program owns a [`CudaContext`] and two streams. The *producer*
//! stream fills the inputs (after a long copy that keeps it busy, so that
//! a launch that did not wait would read them unfilled); the *consumer*
//! stream waits for an event recorded on the producer and then runs the
//! seed vector add ([`safe_kernel`](crate::vector_add::safe_kernel),
//! through `tile::jit`) on the cudarc slices, writing into a third slice
//! that is read back on the consumer stream.
//!
//! [`Ordering::Event`] orders the streams by that event alone (cudarc's
//! own tracking of the slices' reads and writes is turned off for the
//! run, so the test is the event's); [`Ordering::Tracking`] records no
//! event and leaves the ordering to cudarc's tracking, which
//! [`CudaArgs`] takes part in. [`run`] returns what it saw;
//! `tile-kernels cudarc-interop` and the GPU check (`tile-tools
//! gpu-check`) call it.
//!
//! ```no_run
//! use tile_examples::cudarc_interop::{Ordering, run};
//!
//! let report = run(0, 1_000_003, Ordering::Event).unwrap();
//! assert_eq!(report.wrong, 0);
//! ```

use crate::vector_add;
use tile::Options;
use tile::cudarc::driver::{CudaContext, CudaSlice};
use tile_runtime::CudaArgs;

/// How the consumer stream is ordered after the producer's writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ordering {
    /// An event recorded on the producer, waited for by the consumer;
    /// cudarc's tracking off.
    Event,
    /// cudarc's tracking of each slice's reads and writes, through
    /// [`CudaArgs`]; no event of the program's own.
    Tracking,
}

/// What [`run`] saw.
#[derive(Clone, Debug)]
pub struct Report {
    /// The device's name.
    pub device: String,
    /// Elements added.
    pub len: usize,
    /// Elements of the output that differ from the host's `x + y`.
    pub wrong: usize,
    /// True when the consumer stream was neither the legacy default stream
    /// nor the per-thread one.
    pub non_default_stream: bool,
}

/// Adds two vectors of `len` elements (made on the host with
/// [`tile_runtime::pattern_f32`]) on CUDA device `ordinal`, as the module
/// says, and counts the wrong elements of the result.
pub fn run(
    ordinal: usize,
    len: usize,
    ordering: Ordering,
) -> Result<Report, Box<dyn std::error::Error>> {
    let n = i32::try_from(len)?;
    let ctx = CudaContext::new(ordinal)?;
    let producer = ctx.new_stream()?;
    let consumer = ctx.new_stream()?;
    if ordering == Ordering::Event {
        // SAFETY: every slice below is used on one stream at a time,
        // ordered by the event recorded after the producer's writes, and
        // read back on the consumer, which issued the only launch that
        // touches them; the ballast is dropped after the consumer's wait.
        unsafe { ctx.disable_event_tracking() };
    }

    // The kernel is compiled and loaded first (a launch on a scratch slice),
    // so that the launch below is queued while the producer is still busy.
    let context = tile::context()?;
    let add = tile::jit(
        &vector_add::safe_kernel(&context, vector_add::BLOCK)?,
        Options::default(),
    )?;
    let device = tile::Device::from_cuda_stream(consumer.clone())?;
    let grid = len.div_ceil(vector_add::BLOCK as usize) as u32;
    let scratch: CudaSlice<f32> = consumer.alloc_zeros(len)?;
    let mut scratch_out: CudaSlice<f32> = consumer.alloc_zeros(len)?;
    CudaArgs::new(&device)?
        .arg(&scratch)
        .arg(&scratch)
        .arg(&mut scratch_out)
        .arg(n)
        .launch(&add, grid)?;
    consumer.synchronize()?;

    let x_host = tile_runtime::pattern_f32(len, 1);
    let y_host = tile_runtime::pattern_f32(len, 2);
    // Keep the producer busy first: 1 GiB copied eight times (a few ms).
    let ballast: CudaSlice<u8> = producer.alloc_zeros(1 << 30)?;
    let mut ballast_copy: CudaSlice<u8> = producer.alloc_zeros(1 << 30)?;
    for _ in 0..8 {
        producer.memcpy_dtod(&ballast, &mut ballast_copy)?;
    }
    let x = producer.clone_htod(&x_host)?;
    let y = producer.clone_htod(&y_host)?;

    let mut out: CudaSlice<f32> = consumer.alloc_zeros(len)?;
    if ordering == Ordering::Event {
        let filled = producer.record_event(None)?;
        consumer.wait(&filled)?;
    }
    CudaArgs::new(&device)?
        .arg(&x)
        .arg(&y)
        .arg(&mut out)
        .arg(n)
        .launch(&add, grid)?;
    let got = consumer.clone_dtoh(&out)?;
    consumer.synchronize()?;
    producer.synchronize()?;
    drop((ballast, ballast_copy));

    let wrong = (0..len)
        .filter(|&i| got[i] != x_host[i] + y_host[i])
        .count();
    Ok(Report {
        device: device.name()?,
        len,
        wrong,
        non_default_stream: !consumer.cu_stream().is_null()
            && consumer.cu_stream() != ctx.per_thread_stream().cu_stream(),
    })
}
