//! The CPU interpreter as a backend: buffers in a [`HostMemory`], every
//! operation done at once on the calling thread (the `_async` ones too).
//! With a [`HostPtxLoader`] it is a CPU device that loads PTX instead
//! (through the loader) and is no interpreter: it has a chip, so kernels
//! are compiled for it.

use crate::backend::Backend;
use crate::device::{Device, DeviceLimits, HostPtxLoader};
use crate::error::{Result, RuntimeError};
use crate::host::HostMemory;
use crate::kernel::KernelSpec;
use crate::launch::LoadedKernel;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Instant;

/// The state of an interpreter device: its identity and its memory.
pub(crate) struct HostBackend {
    /// Its context identity: odd, so never the address of a CUDA context
    /// (an aligned pointer), and never reused in a process.
    id: usize,
    memory: Mutex<HostMemory>,
    /// What loads PTX, on a device that runs it; `None` on the
    /// interpreter.
    loader: Option<HostPtxLoader>,
}

/// The name of the interpreter device.
const INTERPRETER_NAME: &str = "tile CPU interpreter";

impl HostBackend {
    /// What the interpreter accepts: an H100's limits, so that a launch it
    /// runs would also be launched on one.
    pub(crate) const LIMITS: DeviceLimits = DeviceLimits {
        max_grid: [2_147_483_647, 65_535, 65_535],
        max_threads_per_block: 1024,
        max_shared_mem_per_block: 227 * 1024,
        multiprocessors: 132,
    };

    /// A new interpreter with an empty memory and an identity of its own.
    pub(crate) fn new() -> HostBackend {
        Self::with_loader(None)
    }

    /// A new host device with an empty memory and an identity of its own:
    /// the interpreter without `loader`, a device that loads PTX through
    /// it with one.
    pub(crate) fn with_loader(loader: Option<HostPtxLoader>) -> HostBackend {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        HostBackend {
            id: n.wrapping_mul(2) | 1,
            memory: Mutex::new(HostMemory::new()),
            loader,
        }
    }

    fn lock(&self) -> MutexGuard<'_, HostMemory> {
        self.memory.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The `len` bytes at `addr` in `memory`, or the error of a buffer whose
/// bytes are missing.
fn range<'m>(memory: &'m HostMemory, during: &str, addr: u64, len: usize) -> Result<&'m [u8]> {
    memory
        .range(addr, len)
        .ok_or_else(|| unallocated(during, addr, len))
}

/// The `len` bytes at `addr` in `memory` to write, or the error of a
/// buffer whose bytes are missing.
fn range_mut<'m>(
    memory: &'m mut HostMemory,
    during: &str,
    addr: u64,
    len: usize,
) -> Result<&'m mut [u8]> {
    memory
        .range_mut(addr, len)
        .ok_or_else(|| unallocated(during, addr, len))
}

/// The error of a buffer whose bytes are missing from the interpreter's
/// memory (freed behind its back through [`Device::with_host_memory`]).
fn unallocated(during: &str, addr: u64, bytes: usize) -> RuntimeError {
    RuntimeError::Driver {
        kernel: None,
        during: during.to_string(),
        code: "TILE_INTERPRETER_MEMORY".to_string(),
        message: format!(
            "the {bytes} bytes at {addr:#x} are not allocated in the interpreter's host memory \
             (was the buffer freed through Device::with_host_memory?)"
        ),
    }
}

/// Milliseconds that `f` takes, by the wall clock.
fn wall_clock_ms(f: &mut dyn FnMut() -> Result<()>) -> Result<f32> {
    let started = Instant::now();
    f()?;
    Ok(started.elapsed().as_secs_f32() * 1e3)
}

impl Backend for HostBackend {
    fn is_interpreter(&self) -> bool {
        self.loader.is_none()
    }

    fn kind(&self) -> &'static str {
        match self.loader {
            None => "CPU interpreter",
            Some(_) => "CPU PTX loader",
        }
    }

    fn context_id(&self) -> usize {
        self.id
    }

    fn name(&self) -> Result<String> {
        Ok(match &self.loader {
            None => INTERPRETER_NAME.to_string(),
            Some(loader) => loader.name.clone(),
        })
    }

    /// The loader's; the interpreter has none.
    fn compute_capability(&self) -> Result<(i32, i32)> {
        if let Some(loader) = &self.loader {
            return Ok(loader.compute_capability);
        }
        Err(RuntimeError::NotInterpretable {
            kernel: None,
            message: "a compute capability needs a CUDA GPU, and this device is the CPU \
                      interpreter"
                .to_string(),
        })
    }

    /// No limit of its own (its allocations are the host's, and fail only
    /// when the host's do): the total is `u64::MAX`, and free is that less
    /// the bytes its buffers hold.
    fn memory_info(&self) -> Result<(u64, u64)> {
        let used = self.lock().allocated_bytes();
        Ok((u64::MAX - used, u64::MAX))
    }

    fn host_memory(&self) -> Result<MutexGuard<'_, HostMemory>> {
        Ok(self.lock())
    }

    /// Host allocations start zeroed.
    fn alloc(&self, bytes: usize) -> Result<u64> {
        let mut memory = self.lock();
        memory
            .try_alloc(bytes)
            .ok_or_else(|| RuntimeError::HostOutOfMemory {
                requested: bytes as u64,
                allocated: memory.allocated_bytes(),
            })
    }

    fn alloc_zeroed(&self, bytes: usize) -> Result<u64> {
        self.alloc(bytes)
    }

    fn free(&self, addr: u64) {
        self.lock().free(addr);
    }

    fn write(&self, during: &'static str, addr: u64, data: &[u8]) -> Result<()> {
        range_mut(&mut self.lock(), during, addr, data.len())?.copy_from_slice(data);
        Ok(())
    }

    fn read(&self, during: &'static str, addr: u64, out: &mut [MaybeUninit<u8>]) -> Result<()> {
        out.write_copy_of_slice(range(&self.lock(), during, addr, out.len())?);
        Ok(())
    }

    fn zero_async(&self, during: &'static str, addr: u64, bytes: usize) -> Result<()> {
        range_mut(&mut self.lock(), during, addr, bytes)?.fill(0);
        Ok(())
    }

    fn copy_async(&self, during: &'static str, src: u64, dst: u64, bytes: usize) -> Result<()> {
        let mut memory = self.lock();
        let data = range(&memory, during, src, bytes)?.to_vec();
        range_mut(&mut memory, during, dst, bytes)?.copy_from_slice(&data);
        Ok(())
    }

    /// Through the loader; the interpreter cannot load PTX.
    fn load(&self, device: &Device, ptx: &str, spec: &KernelSpec) -> Result<LoadedKernel> {
        if let Some(loader) = &self.loader {
            return LoadedKernel::load_on_host(device, &*loader.load, ptx, spec);
        }
        Err(RuntimeError::NotInterpretable {
            kernel: Some(spec.name.clone()),
            message: "the CPU interpreter runs tile IR, not PTX: launch through tile::jit \
                      (a Launcher), whose kernels keep their IR"
                .to_string(),
        })
    }

    /// All work is done when issued: nothing to wait for.
    fn synchronize(&self) -> Result<()> {
        Ok(())
    }

    /// `f` does its work before it returns: its wall-clock time.
    fn time_ms(&self, f: &mut dyn FnMut() -> Result<()>) -> Result<f32> {
        wall_clock_ms(f)
    }

    /// The wall-clock time of each call of `timed`.
    fn time_each_ms(
        &self,
        reps: usize,
        before: &mut dyn FnMut() -> Result<()>,
        timed: &mut dyn FnMut() -> Result<()>,
    ) -> Result<Vec<f32>> {
        let mut times = Vec::with_capacity(reps);
        for _ in 0..reps {
            before()?;
            times.push(wall_clock_ms(timed)?);
        }
        Ok(times)
    }
}
