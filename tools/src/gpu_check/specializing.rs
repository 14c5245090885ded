//! A kernel compiled for the facts of each launch's arguments, through the
//! product's JIT path ([`tile::jit()`]: a variant per
//! [`Specialization`](tile::Specialization), the kernel cache, compile
//! events).

use tile::{Arg, Device, Grid, Jit, Options};
use tile_dialect::Kernel;

/// A kernel on one device that is compiled on the first launch with each
/// set of argument facts (16-byte aligned pointers, integers divisible by
/// 16 or equal to 1), the way Triton specializes. The GPU check runs its
/// kernels through it so that the vectorized code runs wherever the
/// arguments allow it, and the scalar code wherever they do not.
pub struct Specializing<'a> {
    device: &'a Device,
    jit: Result<Jit, String>,
}

impl<'a> Specializing<'a> {
    /// No variant compiled yet; [`Options::default`] (4 warps).
    pub fn new(device: &'a Device, kernel: &Kernel<'_>) -> Self {
        Self::with_options(device, kernel, Options::default())
    }

    /// No variant compiled yet; each will be compiled with `options` (and
    /// the facts of its arguments).
    pub fn with_options(device: &'a Device, kernel: &Kernel<'_>, options: Options) -> Self {
        Specializing {
            device,
            jit: tile::jit(kernel, options).map_err(|e| e.to_string()),
        }
    }

    /// Launches on `grid` with `args` and waits, compiling and loading the
    /// variant for their facts first if need be.
    ///
    /// On a GPU, the launch is also run on the CPU interpreter over the
    /// same inputs and the memories compared ([`super::cross_check`]);
    /// a disagreement fails the launch.
    pub fn launch(&self, grid: impl Into<Grid>, args: &[Arg]) -> Result<(), String> {
        let jit = self.jit.as_ref().map_err(Clone::clone)?;
        let grid = grid.into();
        let before = match !self.device.is_interpreter() && super::cross_check::enabled() {
            true => super::cross_check::before(self.device, jit, args)?,
            false => None,
        };
        jit.launch(self.device, grid, args)
            .map_err(|e| e.to_string())?;
        match before {
            Some(before) => super::cross_check::compare(self.device, jit, grid, args, before),
            None => Ok(()),
        }
    }

    /// The JIT kernel.
    pub fn jit(&self) -> Result<&Jit, String> {
        self.jit.as_ref().map_err(Clone::clone)
    }
}
