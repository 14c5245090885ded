//! Just-in-time kernels: the compiler as a [`VariantSource`], so that a
//! [`Launcher`] compiles each kernel for the facts of its launch
//! arguments, through the kernel cache.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use tile::{Arg, DType, Device, Kernel, Options};
//! let context = tile::context()?;
//! let kernel = Kernel::build(&context, "add_one", |k| {
//!     let x = k.arg_ptr("x", DType::F32);
//!     let n = k.arg("n", DType::I32);
//!     let offs = k.program_id(0) * 256 + k.arange(0, 256);
//!     let m = offs.lt(n);
//!     let v = k.load(x + offs).mask(m).other(0.0).build();
//!     k.store(x + offs, v + 1.0).mask(m).build();
//! })?;
//! let add_one = tile::jit(&kernel, Options::default())?;
//! let device = Device::new(0)?;
//! let x = device.upload(&vec![1.0f32; 1000])?;
//! add_one.launch(&device, 4, &[Arg::from(&x), Arg::I32(1000)])?;
//! // One line per variant: compiled or cached, and why it was needed.
//! for event in add_one.events() {
//!     println!("{event}");
//! }
//! # Ok(())
//! # }
//! ```
//!
//! The kernel's IR is kept as text, so a [`Jit`] is `Send` and `Sync` and
//! compiles on whichever thread launches first, in a context of that
//! thread's own.

use crate::{CompileError, Kernel, Options};
use melior::Context;
use std::cell::RefCell;
use std::sync::{Arc, OnceLock};
use tile_interpreter::Interpreter;
use tile_runtime::{
    Artifact, Autotuner, CacheKey, Config, Fact, HostKernel, KernelCache, KeyBuilder, Launcher,
    ParamType, RuntimeError, Specialization, VariantSource,
};

/// The compiler's identity in cache keys: the crate version, a
/// fingerprint of the compiler's sources and `Cargo.lock` (see the build
/// script), and the LLVM/MLIR major version.
pub const COMPILER_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    "+",
    env!("TILE_COMPILER_FINGERPRINT"),
    " mlir-22"
);

/// A kernel compiled on demand, one variant per set of argument facts.
pub type Jit = Launcher<TileCompiler>;

/// A kernel ready to be compiled: its IR (as text, with source locations)
/// and the options. The [`VariantSource`] of a [`Jit`].
#[derive(Clone, Debug)]
pub struct TileCompiler {
    name: String,
    params: Vec<(String, ParamType)>,
    /// The element type each pointer parameter points at.
    pointee: Vec<Option<String>>,
    ir: String,
    options: Options,
    /// The IR read for the CPU interpreter, on first use.
    interpreter: OnceLock<Arc<Interpreter>>,
}

impl TileCompiler {
    /// Takes the kernel's IR and `options` (whose `specialization` is
    /// ignored: each launch brings its own).
    pub fn new(kernel: &Kernel, options: Options) -> Result<TileCompiler, CompileError> {
        // Refused here, whatever device the kernel later runs on: the
        // interpreter would ignore options the GPU cannot compile with.
        tile_codegen::target::validate(&options).map_err(|message| CompileError {
            kernel: kernel.name().to_string(),
            stage: "options",
            message,
            diagnostics: vec![],
        })?;
        let spec = tile_codegen::kernel_spec(kernel.module(), options.num_warps.max(1)).map_err(
            |message| CompileError {
                kernel: kernel.name().to_string(),
                stage: "tile",
                message,
                diagnostics: vec![],
            },
        )?;
        let pointee = kernel
            .params()
            .iter()
            .map(|p| match p.ty.elem() {
                Some(tile_dialect::Elem::Ptr(d)) if p.ty.is_scalar() => {
                    Some(d.mlir_name().to_string())
                }
                _ => None,
            })
            .collect();
        Ok(TileCompiler {
            name: kernel.name().to_string(),
            params: spec.params,
            pointee,
            ir: kernel.to_mlir_with_locations(),
            options: Options {
                specialization: Specialization::none(),
                ..options
            },
            interpreter: OnceLock::new(),
        })
    }

    /// The kernel read for the CPU interpreter (once; later calls share
    /// it). An interpreter [`Device`](crate::Device) runs it on launch.
    pub fn interpreter(&self) -> Result<Arc<Interpreter>, CompileError> {
        if let Some(i) = self.interpreter.get() {
            return Ok(i.clone());
        }
        let fail = |stage: &'static str, message: String| CompileError {
            kernel: self.name.clone(),
            stage,
            message,
            diagnostics: vec![],
        };
        let interpreter = with_context(|context| {
            let module = tile_passes::parse_module(context, &self.ir, &self.name)
                .map_err(|e| fail("tile", e.to_string()))?;
            Interpreter::from_module(&module)
                .map(|i| i.debug(self.options.debug))
                .map_err(|e| fail("interpreter", e.to_string()))
        })?;
        Ok(self
            .interpreter
            .get_or_init(|| Arc::new(interpreter))
            .clone())
    }

    /// The options (without a specialization).
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The kernel's IR, with locations, as compiled.
    pub fn ir(&self) -> &str {
        &self.ir
    }

    /// The cache key a compiler of version `compiler` gives the variant
    /// for `specialization` ([`VariantSource::cache_key`] uses
    /// [`COMPILER_VERSION`]): a hash of everything the PTX depends on: the
    /// compiler, the IR (with source locations, which the PTX's line table
    /// holds), warps, target, optimisation level and the argument facts
    /// (one per parameter, so "nothing assumed" has one key however it is
    /// spelled). Dumps do not change the code, so not the key.
    pub fn cache_key_for_compiler(
        &self,
        compiler: &str,
        specialization: &Specialization,
    ) -> CacheKey {
        self.key_with(compiler, &self.options, specialization)
    }

    /// The cache key of the variant for `specialization` compiled with
    /// `o` by compiler `compiler`.
    fn key_with(&self, compiler: &str, o: &Options, specialization: &Specialization) -> CacheKey {
        let facts: String = (0..self.params.len())
            .map(|i| match specialization.fact(i) {
                Fact::None => '-',
                Fact::DivisibleBy16 => 'd',
                Fact::DivisibleBy8 => '8',
                Fact::DivisibleBy4 => '4',
                Fact::EqualToOne => '1',
            })
            .collect();
        KeyBuilder::new("tile-kernel")
            .field("compiler", compiler)
            .field("ir", &self.ir)
            .field("num_warps", o.num_warps.to_string())
            .field("chip", &o.chip)
            .field("features", &o.features)
            .field("opt_level", o.opt_level.to_string())
            .field("num_stages", o.num_stages.to_string())
            .field("debug", o.debug.to_string())
            .field("fp_fusion", o.fp_fusion.to_string())
            .field("launch_order", o.launch_order.to_string())
            .field("facts", facts)
            .finish()
    }

    /// Compiles the variant for `specialization` now, without any cache,
    /// for the chip of the options.
    pub fn compile(&self, specialization: &Specialization) -> Result<Artifact, CompileError> {
        self.compile_with(self.options.clone(), specialization)
    }

    /// The options for a GPU of chip `chip` (see
    /// [`tile_codegen::target::for_chip`]).
    fn options_for(&self, chip: &str) -> Result<Options, CompileError> {
        tile_codegen::target::for_chip(&self.options, chip).map_err(|message| CompileError {
            kernel: self.name.clone(),
            stage: "options",
            message: format!("for the device's chip: {message}"),
            diagnostics: vec![],
        })
    }

    fn compile_with(
        &self,
        options: Options,
        specialization: &Specialization,
    ) -> Result<Artifact, CompileError> {
        let options = options.specialized(specialization.clone());
        let compiled = with_context(|context| {
            tile_codegen::compile_text(context, &self.ir, &self.name, &options)
        })?;
        for warning in &compiled.warnings {
            log::warn!(target: "tile::compile", "`{}`: {warning}", self.name);
        }
        Ok(Artifact {
            spec: compiled.spec,
            ptx: compiled.ptx,
        })
    }
}

impl TileCompiler {
    /// A compile error as the runtime reports it.
    fn runtime_error(&self, e: CompileError) -> RuntimeError {
        RuntimeError::Compile {
            kernel: self.name.clone(),
            message: e.to_string(),
        }
    }
}

impl VariantSource for TileCompiler {
    fn name(&self) -> &str {
        &self.name
    }

    fn params(&self) -> &[(String, ParamType)] {
        &self.params
    }

    fn pointee_types(&self) -> Vec<Option<String>> {
        self.pointee.clone()
    }

    /// Everything the PTX depends on: the compiler, the IR (with source
    /// locations, which the PTX's line table holds), warps, target,
    /// optimisation level and the argument facts (one per parameter, so
    /// "nothing assumed" has one key however it is spelled).
    fn cache_key(&self, specialization: &Specialization) -> Option<CacheKey> {
        Some(self.cache_key_for_compiler(COMPILER_VERSION, specialization))
    }

    fn fresh_reason(&self) -> Option<String> {
        let dump = self.options.dump.as_ref().filter(|d| d.wants(&self.name))?;
        Some(format!(
            "IR dumps requested into {}",
            dump.kernel_dir(&self.name).display()
        ))
    }

    fn produce(&self, specialization: &Specialization) -> tile_runtime::Result<Artifact> {
        self.compile(specialization)
            .map_err(|e| self.runtime_error(e))
    }

    /// The key of the variant compiled for the launch device's chip.
    fn cache_key_for(&self, specialization: &Specialization, chip: &str) -> Option<CacheKey> {
        let options = self.options_for(chip).ok()?;
        Some(self.key_with(COMPILER_VERSION, &options, specialization))
    }

    /// Code for the launch device's chip: the options' chip replaced by
    /// it (and the PTX version raised to its minimum), so a process with
    /// GPUs of several generations runs each its own code.
    fn produce_for(
        &self,
        specialization: &Specialization,
        chip: &str,
    ) -> tile_runtime::Result<Artifact> {
        let options = self.options_for(chip).map_err(|e| self.runtime_error(e))?;
        self.compile_with(options, specialization)
            .map_err(|e| self.runtime_error(e))
    }

    /// The kernel's tile IR, run by the CPU interpreter.
    fn host_kernel(&self) -> tile_runtime::Result<Arc<dyn HostKernel>> {
        let interpreter = self.interpreter().map_err(|e| RuntimeError::Compile {
            kernel: self.name.clone(),
            message: e.to_string(),
        })?;
        Ok(interpreter)
    }
}

/// A [`Jit`] of `kernel` with `options`, using the process's kernel
/// cache (on disk as [`DiskCache::from_env`](tile_runtime::DiskCache::from_env)
/// says).
pub fn jit(kernel: &Kernel, options: Options) -> Result<Jit, CompileError> {
    Ok(Launcher::new(TileCompiler::new(kernel, options)?))
}

/// An [`Autotuner`] over `configs`: `build` makes the kernel of each
/// configuration (its block sizes from [`Config::get`]), compiled with
/// `options` and the configuration's warps and (where it sets them)
/// pipeline stages.
pub fn autotuner<E: std::fmt::Display>(
    name: &str,
    configs: Vec<Config>,
    options: Options,
    build: impl for<'c> Fn(&'c Context, &Config) -> Result<Kernel<'c>, E>,
) -> Result<Autotuner<TileCompiler>, CompileError> {
    autotuner_with_cache(name, configs, options, KernelCache::global(), build)
}

/// [`autotuner`] with its own cache.
pub fn autotuner_with_cache<E: std::fmt::Display>(
    name: &str,
    configs: Vec<Config>,
    options: Options,
    cache: std::sync::Arc<KernelCache>,
    build: impl for<'c> Fn(&'c Context, &Config) -> Result<Kernel<'c>, E>,
) -> Result<Autotuner<TileCompiler>, CompileError> {
    let mut sources = Vec::with_capacity(configs.len());
    for config in configs {
        let source = with_context(|context| {
            let kernel = build(context, &config).map_err(|e| CompileError {
                kernel: name.to_string(),
                stage: "build",
                message: format!("configuration {config}: {e}"),
                diagnostics: vec![],
            })?;
            TileCompiler::new(
                &kernel,
                Options {
                    num_warps: config.num_warps,
                    num_stages: config.num_stages.unwrap_or(options.num_stages),
                    ..options.clone()
                },
            )
        })?;
        sources.push((config, source));
    }
    Autotuner::with_cache(name, sources, cache).map_err(|e| CompileError {
        kernel: name.to_string(),
        stage: "autotune",
        message: e.to_string(),
        diagnostics: vec![],
    })
}

thread_local! {
    /// This thread's compilation context, made on first use.
    static CONTEXT: RefCell<Option<Context>> = const { RefCell::new(None) };
}

/// A [`Jit`] of the kernel `build` makes, with `options`, built in this
/// thread's compilation context (the kernel is kept as IR text).
pub(crate) fn jit_built(
    build: impl for<'c> FnOnce(&'c Context) -> crate::Result<Kernel<'c>>,
    options: Options,
) -> crate::Result<Jit> {
    with_context(|context| {
        let kernel = build(context)?;
        Ok(Launcher::new(TileCompiler::new(&kernel, options)?))
    })
}

/// Runs `f` in this thread's compilation context.
fn with_context<T, E: From<CompileError>>(
    f: impl FnOnce(&Context) -> Result<T, E>,
) -> Result<T, E> {
    CONTEXT.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            let context = crate::context().map_err(|e| CompileError {
                kernel: "?".into(),
                stage: "context",
                message: e.to_string(),
                diagnostics: vec![],
            })?;
            *slot = Some(context);
        }
        f(slot.as_ref().expect("set above"))
    })
}
