//! A kernel compiled for the facts of each launch's arguments.

use std::cell::RefCell;
use std::collections::HashMap;
use tile::{Arg, Device, Grid, LoadedKernel, Options, Specialization};
use tile_dialect::Kernel;

/// A kernel that is compiled on the first launch with each set of argument
/// facts ([`Specialization::of`]: 16-byte aligned pointers, integers
/// divisible by 16 or equal to 1) and loaded once per set, the way Triton
/// specializes. The GPU check runs its kernels through it so that the
/// vectorized code runs wherever the arguments allow it, and the scalar
/// code wherever they do not.
pub struct Specializing<'a, 'c> {
    device: &'a Device,
    kernel: &'a Kernel<'c>,
    variants: RefCell<HashMap<Specialization, LoadedKernel>>,
}

impl<'a, 'c> Specializing<'a, 'c> {
    /// No variant compiled yet.
    pub fn new(device: &'a Device, kernel: &'a Kernel<'c>) -> Self {
        Specializing {
            device,
            kernel,
            variants: RefCell::new(HashMap::new()),
        }
    }

    /// Launches on `grid` with `args`, compiling and loading the variant
    /// for their facts first if need be.
    pub fn launch(&self, grid: impl Into<Grid>, args: &[Arg]) -> Result<(), String> {
        let specialization = Specialization::of(args);
        let mut variants = self.variants.borrow_mut();
        if !variants.contains_key(&specialization) {
            let options = Options::default().specialized(specialization.clone());
            let compiled = tile::compile(self.kernel, &options).map_err(|e| e.to_string())?;
            let loaded = self
                .device
                .load(&compiled.ptx, &compiled.spec)
                .map_err(|e| e.to_string())?;
            variants.insert(specialization.clone(), loaded);
        }
        variants[&specialization]
            .launch(grid, args)
            .map_err(|e| e.to_string())
    }
}
