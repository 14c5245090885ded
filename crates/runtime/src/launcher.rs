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

use crate::artifact::Artifact;
use crate::cache_key::CacheKey;
use crate::device::Device;
use crate::error::{Result, RuntimeError};
use crate::events::{CompileEvent, Origin, VariantReason, changes};
use crate::host::HostKernel;
use crate::kernel::{Arg, KernelSpec, ParamType};
use crate::kernel_cache::KernelCache;
use crate::launch::{Grid, LoadedKernel};
use crate::specialization::Specialization;
use std::sync::{Arc, Mutex, OnceLock, PoisonError, RwLock};
use std::time::Instant;

/// Where a [`Launcher`] gets the code of a variant.
pub trait VariantSource: Send + Sync {
    /// The kernel's name.
    fn name(&self) -> &str;

    /// The kernel's parameters, in order; launches are checked against
    /// them before any variant is made.
    fn params(&self) -> &[(String, ParamType)];

    /// The cache key of the variant for `specialization`, or `None` when
    /// the variants must not be cached (code that is already compiled).
    fn cache_key(&self, specialization: &Specialization) -> Option<CacheKey>;

    /// Why the next variant must be compiled afresh even when a cache has
    /// it (IR dumps were asked for, say), or `None`.
    fn fresh_reason(&self) -> Option<String> {
        None
    }

    /// The code of the variant for `specialization`. A source may return
    /// code that assumes less than asked (precompiled code does), never
    /// more.
    fn produce(&self, specialization: &Specialization) -> Result<Artifact>;

    /// The kernel as the CPU interpreter runs it, for launches on
    /// [`Device::interpreter`]. A [`Launcher`] asks once and keeps it (it
    /// asks again after an error).
    ///
    /// By default [`RuntimeError::NotInterpretable`]: code compiled ahead
    /// of time has no IR to interpret.
    fn host_kernel(&self) -> Result<Arc<dyn HostKernel>> {
        Err(RuntimeError::NotInterpretable {
            kernel: Some(self.name().to_string()),
            message: "this kernel's code is compiled (PTX) and has no tile IR for the CPU \
                      interpreter to run; launch it on a GPU, or build it with tile::jit to \
                      interpret it"
                .to_string(),
        })
    }
}

/// A loaded variant: which device context, which facts.
struct Loaded {
    context: usize,
    specialization: Specialization,
    kernel: LoadedKernel,
}

/// A kernel with a variant per set of argument facts, loaded per device.
/// `Send` and `Sync`: threads may launch (and compile) through one
/// launcher at once.
pub struct Launcher<S: VariantSource> {
    source: S,
    signature: KernelSpec,
    cache: Arc<KernelCache>,
    artifacts: Mutex<Vec<(Specialization, Arc<Artifact>)>>,
    loaded: RwLock<Vec<Loaded>>,
    events: Mutex<Vec<CompileEvent>>,
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

    /// The source of the variants.
    pub fn source(&self) -> &S {
        &self.source
    }

    /// The kernel's name.
    pub fn name(&self) -> &str {
        &self.signature.name
    }

    /// The code for launching with `args`, made now if need be; needs no
    /// device. Checks the arguments' count and types first.
    pub fn prepare(&self, args: &[Arg]) -> Result<Arc<Artifact>> {
        self.signature.check_args(args)?;
        self.artifact_for(&Specialization::of(args))
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
        self.with_variant(device, args, |k| k.launch(grid, args))
    }

    /// Launches on `grid` without waiting (see
    /// [`LoadedKernel::launch_async`]). On the interpreter it is
    /// [`launch`](Self::launch): the kernel has run when it returns.
    pub fn launch_async(&self, device: &Device, grid: impl Into<Grid>, args: &[Arg]) -> Result<()> {
        let grid = grid.into();
        if device.is_interpreter() {
            return self.interpret(device, grid, args);
        }
        self.with_variant(device, args, |k| k.launch_async(grid, args))
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
        self.signature.check_args(args)?;
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
        self.signature.check_args(args)?;
        let artifact = self.artifact_for(&specialization)?;
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

    /// The code of the variant for `specialization`, made (and reported)
    /// if this launcher has none yet. Variants are made one at a time per
    /// launcher.
    fn artifact_for(&self, specialization: &Specialization) -> Result<Arc<Artifact>> {
        let mut artifacts = self
            .artifacts
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some((_, a)) = artifacts.iter().find(|(s, _)| s == specialization) {
            return Ok(a.clone());
        }
        let names: Vec<String> = self.signature.params.iter().map(|p| p.0.clone()).collect();
        let reason = match artifacts
            .iter()
            .rev()
            .map(|(s, _)| changes(s, specialization, &names))
            .min_by_key(Vec::len)
        {
            None => VariantReason::First,
            Some(changes) => VariantReason::Specialization(changes),
        };
        let started = Instant::now();
        let key = self.source.cache_key(specialization);
        let (artifact, origin) = match &key {
            Some(key) => self
                .cache
                .get_or_compile(key, self.source.fresh_reason(), || {
                    self.source.produce(specialization)
                })?,
            None => (
                Arc::new(self.source.produce(specialization)?),
                Origin::Precompiled,
            ),
        };
        self.check_produced(&artifact, specialization)?;
        let event = CompileEvent {
            kernel: self.signature.name.clone(),
            specialization: specialization.clone(),
            reason,
            origin,
            key,
            elapsed: started.elapsed(),
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
        artifacts.push((specialization.clone(), artifact.clone()));
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
mod tests {
    use super::*;
    use crate::host::{HostMemory, InterpretError, InterpretFault};
    use crate::precompiled::Precompiled;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Writes `x + 100 * y + 10000 * z` of each program to element
    /// `x + gx * (y + gy * z)` of `out`, `n` elements long.
    struct ProgramIds {
        runs: Arc<AtomicUsize>,
    }

    impl HostKernel for ProgramIds {
        fn name(&self) -> &str {
            "program_ids"
        }

        fn run(&self, memory: &mut HostMemory, grid: [u32; 3], args: &[Arg]) -> Result<()> {
            self.runs.fetch_add(1, Ordering::SeqCst);
            let [Arg::Ptr { ptr, .. }, Arg::I32(n)] = args else {
                panic!("the launcher checked the arguments: {args:?}");
            };
            let [gx, gy, gz] = grid;
            for index in 0..gx * gy * gz {
                if i64::from(index) >= i64::from(*n) {
                    continue;
                }
                let program = [index % gx, index / gx % gy, index / (gx * gy)];
                let [x, y, z] = program;
                let value = (x + 100 * y + 10_000 * z) as i32;
                store(memory, ptr.0, u64::from(index), value, program)?;
            }
            Ok(())
        }
    }

    /// Stores `value` at element `index` of the i32s at `base`, or faults
    /// as the interpreter does.
    fn store(
        memory: &mut HostMemory,
        base: u64,
        index: u64,
        value: i32,
        program: [u32; 3],
    ) -> Result<()> {
        let address = base + 4 * index;
        let allocation = memory.allocation(base);
        let Some(to) = memory.range_mut(address, 4) else {
            let error = InterpretError {
                kernel: "program_ids".into(),
                op: "tile.store".into(),
                location: "test".into(),
                program,
                fault: InterpretFault::OutOfBounds {
                    write: true,
                    index: vec![0],
                    address,
                    bytes: 4,
                    pointer: "out".into(),
                    allocation,
                },
            };
            return Err(RuntimeError::Interpreter(Box::new(error)));
        };
        to.copy_from_slice(&value.to_ne_bytes());
        Ok(())
    }

    /// A source of [`ProgramIds`] that counts the host kernels it makes,
    /// failing the first ask when told to.
    struct Source {
        asked: AtomicUsize,
        fail_first: bool,
        runs: Arc<AtomicUsize>,
    }

    impl Source {
        fn new(fail_first: bool) -> Source {
            Source {
                asked: AtomicUsize::new(0),
                fail_first,
                runs: Arc::new(AtomicUsize::new(0)),
            }
        }

        fn asked(&self) -> usize {
            self.asked.load(Ordering::SeqCst)
        }

        fn runs(&self) -> usize {
            self.runs.load(Ordering::SeqCst)
        }
    }

    impl VariantSource for Source {
        fn name(&self) -> &str {
            "program_ids"
        }

        fn params(&self) -> &[(String, ParamType)] {
            static PARAMS: OnceLock<Vec<(String, ParamType)>> = OnceLock::new();
            PARAMS
                .get_or_init(|| vec![("out".into(), ParamType::Ptr), ("n".into(), ParamType::I32)])
        }

        fn cache_key(&self, _: &Specialization) -> Option<CacheKey> {
            None
        }

        fn produce(&self, _: &Specialization) -> Result<Artifact> {
            panic!("an interpreter launch asked for PTX");
        }

        fn host_kernel(&self) -> Result<Arc<dyn HostKernel>> {
            if self.asked.fetch_add(1, Ordering::SeqCst) == 0 && self.fail_first {
                return Err(RuntimeError::NotInterpretable {
                    kernel: Some("program_ids".into()),
                    message: "not this time".into(),
                });
            }
            Ok(Arc::new(ProgramIds {
                runs: self.runs.clone(),
            }))
        }
    }

    fn launcher(fail_first: bool) -> Launcher<Source> {
        Launcher::with_cache(Source::new(fail_first), Arc::new(KernelCache::new(None)))
    }

    #[test]
    fn launches_on_the_interpreter_run_the_host_kernel() {
        let device = Device::interpreter();
        let launcher = launcher(false);
        let out = device.alloc::<i32>(12).unwrap();
        launcher
            .launch(&device, (3, 2, 2), &[Arg::from(&out), Arg::I32(12)])
            .unwrap();
        assert_eq!(
            device.download(&out).unwrap(),
            vec![
                0, 1, 2, 100, 101, 102, 10_000, 10_001, 10_002, 10_100, 10_101, 10_102
            ]
        );
        // `launch_async` has run the kernel when it returns.
        let out = device.alloc::<i32>(4).unwrap();
        launcher
            .launch_async(&device, 4, &[Arg::from(&out), Arg::I32(3)])
            .unwrap();
        assert_eq!(launcher.source().runs(), 2);
        assert_eq!(device.download(&out).unwrap(), vec![0, 1, 2, 0]);
        // The host kernel was made once, and no PTX variant at all.
        assert_eq!(launcher.source().asked(), 1);
        assert!(launcher.events().is_empty());
        assert_eq!(launcher.compiles(), 0);
        assert!(matches!(
            launcher.variant(&device, &[Arg::from(&out), Arg::I32(3)]),
            Err(RuntimeError::NotInterpretable { kernel: Some(k), .. }) if k == "program_ids"
        ));
    }

    #[test]
    fn interpreter_launches_are_checked_before_they_run() {
        let device = Device::interpreter();
        let launcher = launcher(false);
        let out = device.alloc::<i32>(4).unwrap();
        assert!(matches!(
            launcher.launch(&device, 1, &[Arg::from(&out)]),
            Err(RuntimeError::ArgCount { given: 1, .. })
        ));
        assert!(matches!(
            launcher.launch(&device, 1, &[Arg::from(&out), Arg::F32(4.0)]),
            Err(RuntimeError::BadArgument {
                index: 1,
                expected: ParamType::I32,
                given: ParamType::F32,
                ..
            })
        ));
        let args = [Arg::from(&out), Arg::I32(4)];
        for grid in [
            Grid::from(0),
            Grid::from((1, 70_000)),
            Grid::from((1, 1, 0)),
        ] {
            assert!(
                matches!(
                    launcher.launch_async(&device, grid, &args),
                    Err(RuntimeError::BadLaunch { .. })
                ),
                "{grid}"
            );
        }
        assert_eq!(launcher.source().asked(), 0);
        assert_eq!(launcher.source().runs(), 0);
        // A fault of the kernel comes back as it made it.
        let err = launcher
            .launch(&device, 8, &[Arg::from(&out), Arg::I32(8)])
            .unwrap_err();
        match err {
            RuntimeError::Interpreter(e) => {
                assert_eq!(e.program, [4, 0, 0]);
                assert_eq!(e.kernel, "program_ids");
            }
            other => panic!("expected an interpreter fault, got {other:?}"),
        }
        assert_eq!(device.download(&out).unwrap(), vec![0, 1, 2, 3]);
    }

    #[test]
    fn a_host_kernel_that_could_not_be_made_is_asked_for_again() {
        let device = Device::interpreter();
        let launcher = launcher(true);
        let out = device.alloc::<i32>(2).unwrap();
        let args = [Arg::from(&out), Arg::I32(2)];
        assert!(matches!(
            launcher.launch(&device, 2, &args),
            Err(RuntimeError::NotInterpretable { .. })
        ));
        launcher.launch(&device, 2, &args).unwrap();
        launcher.launch(&device, 2, &args).unwrap();
        assert_eq!(launcher.source().asked(), 2);
        assert_eq!(launcher.source().runs(), 2);
        assert_eq!(device.download(&out).unwrap(), vec![0, 1]);
    }

    #[test]
    fn precompiled_code_is_not_interpretable() {
        let artifact = Artifact {
            spec: KernelSpec {
                name: "k".into(),
                params: vec![("x".into(), ParamType::Ptr)],
                num_warps: 4,
                shared_mem_bytes: 0,
                i32_offset_elem_bytes: vec![],
                specialization: Specialization::none(),
            },
            ptx: String::new(),
        };
        let launcher = Launcher::with_cache(
            Precompiled::new(vec![artifact]).unwrap(),
            Arc::new(KernelCache::new(None)),
        );
        let device = Device::interpreter();
        let x = device.alloc::<f32>(1).unwrap();
        match launcher.launch(&device, 1, &[Arg::from(&x)]) {
            Err(RuntimeError::NotInterpretable {
                kernel: Some(kernel),
                message,
            }) => {
                assert_eq!(kernel, "k");
                assert!(message.contains("tile::jit"), "{message}");
            }
            other => panic!("expected NotInterpretable, got {other:?}"),
        }
    }

    #[test]
    fn the_autotuner_runs_the_first_configuration_untimed() {
        use crate::autotune::{Autotuner, Config};
        let device = Device::interpreter();
        let tuner = Autotuner::with_cache(
            "ids",
            vec![
                (Config::new(4).with("BLOCK", 1), Source::new(false)),
                (Config::new(4).with("BLOCK", 2), Source::new(false)),
            ],
            Arc::new(KernelCache::new(None)),
        )
        .unwrap();
        let out = device.alloc::<i32>(3).unwrap();
        let args = [Arg::from(&out), Arg::I32(3)];
        let grid = |c: &Config| Grid::from(3 / c.get("BLOCK").unwrap() as u32);
        assert_eq!(tuner.choose(&device, "n=3", grid, &args).unwrap(), 0);
        tuner.launch(&device, "n=3", grid, &args).unwrap();
        assert_eq!(device.download(&out).unwrap(), vec![0, 1, 2]);
        assert_eq!(tuner.launcher(0).source().runs(), 1);
        assert_eq!(tuner.launcher(1).source().runs(), 0);
        assert!(tuner.tunings().is_empty());
    }
}
