//! A kernel that picks its compiled variant per launch.
//!
//! A [`Launcher`] takes its code from a [`VariantSource`]: the JIT
//! compiler (`tile::jit`) or code compiled ahead of time
//! ([`Precompiled`](crate::Precompiled)). Each launch computes the facts of
//! its arguments ([`Specialization::of`]: 16-byte aligned pointers,
//! integers divisible by 16 or equal to 1) and runs the variant for them,
//! getting it first if the kernel has none yet: from the
//! [`KernelCache`], else from the source. Each new variant is reported as a
//! [`CompileEvent`] that says why it was needed.
//!
//! The launch of a kernel that already has the variant does no more than
//! compute the facts, find the variant under a read lock, check the
//! arguments and call `cuLaunchKernel`.
//!
//! On the CPU interpreter ([`Device::interpreter`]) a launch makes no
//! variant: it checks the arguments and the grid, and runs the source's
//! [`HostKernel`] (made once per launcher) on the device's host memory.
//!
//! ```no_run
//! use tile_runtime::{Arg, Device, Launcher, Precompiled};
//!
//! # fn run(variants: &[&[u8]]) -> Result<(), tile_runtime::RuntimeError> {
//! // Variants compiled ahead of time (`tile::aot::write_variants`), run with
//! // the runtime alone; `tile::jit` gives a Launcher over the compiler.
//! let add = Launcher::new(Precompiled::from_bytes(variants)?);
//! let device = Device::new(0)?;
//! let (x, out) = (device.upload(&[1.0f32; 1000])?, device.alloc::<f32>(1000)?);
//! add.launch(&device, 1u32, &[(&x).into(), (&x).into(), (&out).into(), Arg::I32(1000)])?;
//! for event in add.events() {
//!     println!("{event}"); // where the variant came from, and why
//! }
//! # Ok(())
//! # }
//! ```

mod variant_source;

use crate::artifact::Artifact;
use crate::device::Device;
use crate::error::{Result, RuntimeError};
use crate::events::{CompileEvent, Origin, VariantReason, changes};
use crate::host::HostKernel;
use crate::kernel::{Arg, KernelSpec};
use crate::kernel_cache::{Fetched, KernelCache};
use crate::launch::{Grid, LoadedKernel};
use crate::specialization::Specialization;
use std::sync::{Arc, Mutex, OnceLock, PoisonError, RwLock};
use std::time::Instant;

pub use variant_source::VariantSource;

/// A loaded variant: which device context, which facts.
struct Loaded {
    context: usize,
    specialization: Specialization,
    kernel: LoadedKernel,
}

/// The code of one variant made: for a specialization, and for a chip
/// when it was made for a GPU (`None`: by [`Launcher::prepare`], for no
/// device in particular).
type Made = (Specialization, Option<String>, Arc<Artifact>);

/// A kernel with a variant per set of argument facts, loaded per device.
/// `Send` and `Sync`: threads may launch (and compile) through one
/// launcher at once.
pub struct Launcher<S: VariantSource> {
    source: S,
    signature: KernelSpec,
    cache: Arc<KernelCache>,
    artifacts: Mutex<Vec<Made>>,
    loaded: RwLock<Vec<Loaded>>,
    events: Mutex<Vec<CompileEvent>>,
    /// The element type of each pointer parameter (the source's
    /// [`VariantSource::pointee_types`]).
    pointee: Vec<Option<String>>,
    /// The kernel for the interpreter, once asked for.
    host: OnceLock<Arc<dyn HostKernel>>,
    /// Held while the host kernel is made, so that it is made once.
    making_host: Mutex<()>,
}

impl<S: VariantSource> Launcher<S> {
    /// A launcher over `source` using the process's cache
    /// ([`KernelCache::global`]).
    pub fn new(source: S) -> Launcher<S> {
        Self::with_cache(source, KernelCache::global())
    }

    /// A launcher over `source` using `cache`.
    pub fn with_cache(source: S, cache: Arc<KernelCache>) -> Launcher<S> {
        let signature = KernelSpec {
            name: source.name().to_string(),
            params: source.params().to_vec(),
            num_warps: 1,
            shared_mem_bytes: 0,
            i32_offset_elem_bytes: vec![],
            specialization: Specialization::none(),
        };
        Launcher {
            pointee: source.pointee_types(),
            source,
            signature,
            cache,
            artifacts: Mutex::new(Vec::new()),
            loaded: RwLock::new(Vec::new()),
            events: Mutex::new(Vec::new()),
            host: OnceLock::new(),
            making_host: Mutex::new(()),
        }
    }

    /// Checks `args` against the kernel's parameters: count, kinds, extents
    /// (see [`KernelSpec::check_args`]) and the element types of pointers
    /// made from buffers ([`crate::kernel::check_pointees`]).
    fn check_args(&self, args: &[Arg]) -> Result<()> {
        self.signature.check_args(args)?;
        crate::kernel::check_pointees(
            &self.signature.name,
            &self.signature.params,
            &self.pointee,
            args,
        )
    }

    /// The source of the variants.
    pub fn source(&self) -> &S {
        &self.source
    }

    /// The kernel's name.
    pub fn name(&self) -> &str {
        &self.signature.name
    }

    /// The code for launching with `args`, made now if need be; needs no
    /// device (the source's own target: `Options::chip` for `tile::jit`).
    /// Checks the arguments' count and types first.
    pub fn prepare(&self, args: &[Arg]) -> Result<Arc<Artifact>> {
        self.check_args(args)?;
        self.artifact_for(&Specialization::of(args), None)
    }

    /// Launches on `grid` and waits for the kernel to finish.
    ///
    /// On the interpreter, runs the source's [`HostKernel`] (see
    /// [`VariantSource::host_kernel`]) after checking the arguments' count
    /// and types and the grid; a fault comes back as
    /// [`RuntimeError::Interpreter`].
    pub fn launch(&self, device: &Device, grid: impl Into<Grid>, args: &[Arg]) -> Result<()> {
        let grid = grid.into();
        if device.is_interpreter() {
            return self.interpret(device, grid, args);
        }
        self.with_variant(device, args, |k| k.launch_on(device, grid, args))
    }

    /// Launches on `grid` without waiting (see
    /// [`LoadedKernel::launch_async`]). On the interpreter it is
    /// [`launch`](Self::launch): the kernel has run when it returns.
    pub fn launch_async(&self, device: &Device, grid: impl Into<Grid>, args: &[Arg]) -> Result<()> {
        let grid = grid.into();
        if device.is_interpreter() {
            return self.interpret(device, grid, args);
        }
        self.with_variant(device, args, |k| k.launch_async_on(device, grid, args))
    }

    /// The loaded variant for `args` on `device` (loading it if need be).
    /// The interpreter has none: [`RuntimeError::NotInterpretable`].
    pub fn variant(&self, device: &Device, args: &[Arg]) -> Result<LoadedKernel> {
        if device.is_interpreter() {
            return Err(RuntimeError::NotInterpretable {
                kernel: Some(self.signature.name.clone()),
                message: "the CPU interpreter loads no compiled variants: launch the kernel \
                          through its Launcher, which runs its IR"
                    .to_string(),
            });
        }
        self.with_variant(device, args, |k| Ok(k.clone()))
    }

    /// Every variant made so far, in order: compiled or taken from a
    /// cache, with the reason.
    pub fn events(&self) -> Vec<CompileEvent> {
        self.events
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// How many variants were compiled (not taken from a cache).
    pub fn compiles(&self) -> usize {
        self.events
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .filter(|e| e.compiled())
            .count()
    }

    /// Runs the kernel on the interpreter `device`.
    fn interpret(&self, device: &Device, grid: Grid, args: &[Arg]) -> Result<()> {
        self.check_args(args)?;
        device.check_arg_owners(&self.signature.name, args)?;
        grid.check(&self.signature.name, device.limits().max_grid)?;
        let kernel = self.host_kernel()?;
        device.with_host_memory(|memory| kernel.run(memory, grid.dims(), args))?
    }

    /// The source's host kernel, made on first use (one at a time: it is
    /// made once; after an error the next launch tries again).
    fn host_kernel(&self) -> Result<&Arc<dyn HostKernel>> {
        if let Some(kernel) = self.host.get() {
            return Ok(kernel);
        }
        let _one_at_a_time = self
            .making_host
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(kernel) = self.host.get() {
            return Ok(kernel);
        }
        let kernel = self.source.host_kernel()?;
        Ok(self.host.get_or_init(|| kernel))
    }

    fn with_variant<T>(
        &self,
        device: &Device,
        args: &[Arg],
        run: impl FnOnce(&LoadedKernel) -> Result<T>,
    ) -> Result<T> {
        let context = device.context_id();
        {
            // The fast path allocates nothing: each variant's facts are
            // compared with the arguments' as they are computed.
            let loaded = self.loaded.read().unwrap_or_else(PoisonError::into_inner);
            if let Some(v) = loaded
                .iter()
                .find(|v| v.context == context && v.specialization.is_of(args))
            {
                return run(&v.kernel);
            }
        }
        let specialization = Specialization::of(args);
        self.check_args(args)?;
        let chip = device.chip()?;
        let artifact = self.artifact_for(&specialization, Some(&chip))?;
        let mut loaded = self.loaded.write().unwrap_or_else(PoisonError::into_inner);
        let index = match loaded
            .iter()
            .position(|v| v.context == context && v.specialization == specialization)
        {
            Some(i) => i,
            None => {
                let kernel = device.load(&artifact.ptx, &artifact.spec)?;
                loaded.push(Loaded {
                    context,
                    specialization,
                    kernel,
                });
                loaded.len() - 1
            }
        };
        let kernel = loaded[index].kernel.clone();
        drop(loaded);
        run(&kernel)
    }

    /// The code of the variant for `specialization` (on `chip`, when for
    /// a GPU), made (and reported) if this launcher has none yet. Variants
    /// are made one at a time per launcher.
    fn artifact_for(
        &self,
        specialization: &Specialization,
        chip: Option<&str>,
    ) -> Result<Arc<Artifact>> {
        let mut artifacts = self
            .artifacts
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some((_, _, a)) = artifacts
            .iter()
            .find(|(s, c, _)| s == specialization && c.as_deref() == chip)
        {
            return Ok(a.clone());
        }
        let names: Vec<String> = self.signature.params.iter().map(|p| p.0.clone()).collect();
        let reason = match artifacts
            .iter()
            .rev()
            .map(|(s, _, _)| changes(s, specialization, &names))
            .min_by_key(Vec::len)
        {
            None => VariantReason::First,
            Some(changes) => VariantReason::Specialization(changes),
        };
        let started = Instant::now();
        let key = match chip {
            Some(chip) => self.source.cache_key_for(specialization, chip),
            None => self.source.cache_key(specialization),
        };
        let produce = || match chip {
            Some(chip) => self.source.produce_for(specialization, chip),
            None => self.source.produce(specialization),
        };
        let Fetched {
            artifact,
            origin,
            cache_warning,
        } = match &key {
            Some(key) => self
                .cache
                .get_or_compile(key, self.source.fresh_reason(), produce)?,
            None => Fetched {
                artifact: Arc::new(produce()?),
                origin: Origin::Precompiled,
                cache_warning: None,
            },
        };
        self.check_produced(&artifact, specialization)?;
        let event = CompileEvent {
            kernel: self.signature.name.clone(),
            specialization: specialization.clone(),
            reason,
            origin,
            key,
            elapsed: started.elapsed(),
            cache_warning,
        };
        if event.compiled() {
            log::info!(target: "tile::compile", "{event}");
        } else {
            log::debug!(target: "tile::compile", "{event}");
        }
        self.events
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(event);
        artifacts.push((
            specialization.clone(),
            chip.map(str::to_string),
            artifact.clone(),
        ));
        Ok(artifact)
    }

    /// Refuses code for another kernel, or code that assumes a fact the
    /// launch's arguments do not have.
    fn check_produced(&self, artifact: &Artifact, wanted: &Specialization) -> Result<()> {
        let spec = &artifact.spec;
        let bad = |message: String| RuntimeError::BadArtifact {
            kernel: self.signature.name.clone(),
            message,
        };
        if spec.name != self.signature.name || spec.params != self.signature.params {
            return Err(bad(format!(
                "the code is for `{}` with parameters {:?}, not for this kernel's {:?}",
                spec.name, spec.params, self.signature.params
            )));
        }
        for (i, fact) in spec.specialization.facts.iter().enumerate() {
            if *fact != crate::Fact::None && *fact != wanted.fact(i) {
                return Err(bad(format!(
                    "the code assumes argument {i} is {fact}, the launch's is {}",
                    wanted.fact(i)
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
