//! The stages from tile IR to PTX, run one at a time so each can be
//! dumped, timed, and each failure names its stage.

use crate::dump::Dump;
use crate::options::Options;
use crate::spec::kernel_spec;
use melior::Context;
use melior::ir::Module;
use melior::ir::operation::OperationLike;
use melior::pass::PassManager;
use std::fmt::Write as _;
use std::time::{Duration, Instant};
use tile_dialect::Diagnostic;
use tile_dialect::diagnostics::DiagnosticCapture;
use tile_runtime::KernelSpec;

/// The variable that, set to `1`, makes every compilation print its
/// [`Compiled::timing_report`] to standard error.
pub const TIMINGS_VAR: &str = "TILE_TIMINGS";

/// The stages after the input, in order: name and pass pipeline (on
/// `builtin.module`). `{chip}`, `{features}` and `{opt}` are filled from
/// the [`Options`]; `{cleanup}` is `,canonicalize,cse` at `-O0` and nothing
/// above, where LLVM's own pipeline does that cleanup (the PTX of every
/// example is byte-identical with and without it from `-O1` up; it costs
/// ~6% of a compile). A pipeline naming one of our passes (`tile-*`) runs
/// that pass alone. The last stage, `ptx`, is run natively through LLVM's
/// C API (see `nvptx.rs`: the same PTX as the upstream pass named here,
/// without the cost of its defaults); `tile-opt` runs the pass itself.
pub const STAGES: &[(&str, &str)] = &[
    (
        "simplified",
        "canonicalize,cse,tile-while-to-for,tile-launch-order",
    ),
    ("layouts", "tile-assign-layouts,tile-remove-conversions"),
    ("predicated", "tile-predicate"),
    ("vectorized", "tile-vectorize"),
    ("pipelined", "tile-software-pipeline"),
    ("simt", "tile-to-simt"),
    (
        "nvvm",
        "nvvm-attach-target{chip={chip} features={features} O={opt}},convert-scf-to-cf,\
         gpu.module(convert-gpu-to-nvvm),convert-index-to-llvm,reconcile-unrealized-casts\
         {cleanup}",
    ),
    (
        "llvm",
        "ensure-debug-info-scope-on-llvm-func{emission-kind=DebugDirectivesOnly}",
    ),
    ("ptx", "gpu-module-to-binary{format=isa}"),
];

/// A compiled kernel: PTX and what launching it needs.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The kernel's name (the PTX entry).
    pub name: String,
    /// The PTX text.
    pub ptx: String,
    /// Name, parameters, warps and shared memory, for the runtime.
    pub spec: KernelSpec,
    /// Time spent in each stage of [`STAGES`], in order.
    pub timings: Vec<(&'static str, Duration)>,
    /// The steps of the `ptx` stage: `translate` (LLVM dialect to LLVM
    /// IR), `optimize` (LLVM's `default<O{n}>`), `codegen` (NVPTX).
    pub ptx_steps: Vec<(&'static str, Duration)>,
    /// The whole compilation, from tile IR to checked PTX: the stages plus
    /// reading the kernel's parameters, specializing, dumping and checking.
    pub total: Duration,
    /// What the compiler noticed that makes the kernel slow without making
    /// it wrong, one sentence each with the user's source line: tiles
    /// that need more registers in each thread than a thread has
    /// ([`tile_passes::register_pressure`]), which spill to local memory.
    /// `tile::jit` logs them (target `tile::compile`, level `warn`).
    pub warnings: Vec<String>,
}

impl Compiled {
    /// Where the compilation's time went, as a Markdown table: one row per
    /// stage (the `ptx` stage's steps below it), the rest of the
    /// work (`other`), and the total, in milliseconds. Printed to standard
    /// error after every compilation when `TILE_TIMINGS=1`.
    pub fn timing_report(&self) -> String {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let mut out = format!("| {} | ms |\n| --- | ---: |\n", self.name);
        for (stage, d) in &self.timings {
            let _ = writeln!(out, "| {stage} | {:.2} |", ms(*d));
            if *stage == "ptx" {
                for (step, d) in &self.ptx_steps {
                    let _ = writeln!(out, "| ptx: {step} | {:.2} |", ms(*d));
                }
            }
        }
        let staged: Duration = self.timings.iter().map(|(_, d)| *d).sum();
        let other = self.total.saturating_sub(staged);
        let _ = writeln!(out, "| other | {:.2} |", ms(other));
        let _ = writeln!(out, "| **total** | **{:.2}** |", ms(self.total));
        out
    }
}

/// A compilation that failed: the kernel, the stage, and why.
#[derive(Clone, Debug, thiserror::Error)]
#[error(
    "kernel {kernel}: stage '{stage}' failed: {message}{}",
    tile_dialect::error::lines(diagnostics)
)]
pub struct CompileError {
    /// The kernel's name, when known.
    pub kernel: String,
    /// The stage that failed.
    pub stage: &'static str,
    /// What went wrong.
    pub message: String,
    /// MLIR's diagnostics (with the user's source locations).
    pub diagnostics: Vec<Diagnostic>,
}

/// Compiles the kernel in `module` (tile IR, verified) to PTX. The module
/// is transformed in place, stage by stage; at the end it holds the
/// `gpu.binary` with the PTX.
pub fn compile(
    context: &Context,
    module: &mut Module,
    options: &Options,
) -> Result<Compiled, CompileError> {
    let started = Instant::now();
    let mut compiled =
        tile_passes::stack::with_compile_stack(|| run(context, module, options, started))?;
    compiled.total = started.elapsed();
    if std::env::var_os(TIMINGS_VAR).is_some_and(|v| v == "1") {
        eprint!("{}", compiled.timing_report());
    }
    Ok(compiled)
}

fn run(
    context: &Context,
    module: &mut Module,
    options: &Options,
    started: Instant,
) -> Result<Compiled, CompileError> {
    let error = |kernel: &str, stage: &'static str, message: String| CompileError {
        kernel: kernel.to_string(),
        stage,
        message,
        diagnostics: vec![],
    };
    let mut spec = kernel_spec(module, options.num_warps).map_err(|m| error("?", "tile", m))?;
    let name = spec.name.clone();
    crate::target::validate(options).map_err(|m| error(&name, "options", m))?;
    crate::specialize::apply(context, module, &spec, &options.specialization)
        .map_err(|m| error(&name, "tile", m))?;
    spec.specialization = options.specialization.clone();
    let dump = options.dump.as_ref().filter(|d| d.wants(&name));
    set_target_attributes(context, module, options).map_err(|m| error(&name, "options", m))?;
    if let Some(d) = dump {
        write(d, &name, 0, "tile", "mlir", &print(module))?;
    }
    let mut timings = Vec::with_capacity(STAGES.len());
    let mut warnings = Vec::new();
    let mut ptx = None;
    let mut options = std::borrow::Cow::Borrowed(options);
    for (i, (stage, pipeline)) in STAGES.iter().enumerate() {
        if *stage == "nvvm"
            && let Some(chip) = arch_specific_chip(module, options.as_ref())
                .map_err(|m| error(&name, "options", m))?
        {
            options.to_mut().chip = chip;
        }
        let options = options.as_ref();
        let stage_started = Instant::now();
        let failed = |(message, diagnostics)| CompileError {
            kernel: name.clone(),
            stage,
            message,
            diagnostics,
        };
        if *stage == "ptx" {
            let capture = DiagnosticCapture::new(context);
            let result = crate::nvptx::serialize(context, module, options);
            let diagnostics = capture.finish();
            ptx = Some(result.map_err(|m| failed((m, diagnostics)))?);
        } else {
            run_stage(context, module, &fill(pipeline, options)).map_err(failed)?;
        }
        timings.push((*stage, stage_started.elapsed()));
        if *stage == "layouts" {
            warnings.extend(register_warnings(module));
        }
        if let Some(d) = dump {
            write(d, &name, i + 1, stage, "mlir", &print(module))?;
        }
    }
    let ptx = ptx.ok_or_else(|| error(&name, "ptx", "no ptx stage ran".into()))?;
    spec.shared_mem_bytes = dynamic_shared_bytes(module);
    if let Some(d) = dump {
        write(d, &name, STAGES.len() + 1, "kernel", "ptx", &ptx.text)?;
    }
    let external = external_functions(&ptx.text);
    if !external.is_empty() {
        return Err(error(
            &name,
            "ptx",
            format!(
                "the PTX calls functions nothing provides ({}); libdevice is not linked",
                external.join(", ")
            ),
        ));
    }
    Ok(Compiled {
        name,
        ptx: ptx.text,
        spec,
        timings,
        ptx_steps: ptx.steps,
        total: started.elapsed(),
        warnings,
    })
}

/// The tiles of the kernels of `module` (layouts assigned) that cannot
/// stay in registers, as sentences.
fn register_warnings(module: &Module) -> Vec<String> {
    use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
    let mut kernels = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if op.has_attribute(tile_dialect::ops::KERNEL_ATTR) {
            kernels.push(op.to_raw());
        }
        WalkResult::Advance
    });
    kernels
        .into_iter()
        .flat_map(|raw| {
            // SAFETY: the kernels were found in `module`, which outlives
            // this call and is not changed during it.
            let func = unsafe { melior::ir::OperationRef::from_raw(raw) };
            tile_passes::register_pressure::large_tiles(&func)
        })
        .map(|t| t.to_string())
        .collect()
}

/// The PTX of the kernel in `module` (tile IR, verified) made twice from
/// the same `llvm` stage: by the native `ptx` stage that [`compile`] runs,
/// and by the upstream pass that [`STAGES`] names for it
/// (`gpu-module-to-binary{format=isa}`). The two are meant to be
/// byte-identical; this is how tests and `tile-tools compile-bench
/// --check-upstream` check it. `module` is left as it is.
pub fn ptx_both_ways(
    context: &Context,
    module: &Module,
    options: &Options,
) -> Result<(String, String), CompileError> {
    let stop = STAGES.len() - 1;
    // Stages here are run one by one, never dumped (only `compile` reads
    // `dump`).
    let mut options = options.clone();
    crate::target::validate(&options).map_err(|message| CompileError {
        kernel: "?".into(),
        stage: "options",
        message,
        diagnostics: vec![],
    })?;
    let mut native = copy(module)?;
    let spec = kernel_spec(&native, options.num_warps).map_err(|m| CompileError {
        kernel: "?".into(),
        stage: "tile",
        message: m,
        diagnostics: vec![],
    })?;
    let failed = |stage: &'static str| {
        let kernel = spec.name.clone();
        move |(message, diagnostics)| CompileError {
            kernel,
            stage,
            message,
            diagnostics,
        }
    };
    crate::specialize::apply(context, &mut native, &spec, &options.specialization)
        .map_err(|m| failed("tile")((m, vec![])))?;
    set_target_attributes(context, &mut native, &options).map_err(|message| CompileError {
        kernel: spec.name.clone(),
        stage: "options",
        message,
        diagnostics: vec![],
    })?;
    for (stage, pipeline) in &STAGES[..stop] {
        if *stage == "nvvm"
            && let Some(chip) =
                arch_specific_chip(&native, &options).map_err(|message| CompileError {
                    kernel: spec.name.clone(),
                    stage: "options",
                    message,
                    diagnostics: vec![],
                })?
        {
            options.chip = chip;
        }
        run_stage(context, &mut native, &fill(pipeline, &options)).map_err(failed(stage))?;
    }
    let mut upstream = copy(&native)?;
    let ours = crate::nvptx::serialize(context, &mut native, &options)
        .map_err(|m| failed("ptx")((m, vec![])))?
        .text;
    run_stage(context, &mut upstream, STAGES[stop].1).map_err(failed("ptx"))?;
    let theirs = binary_assembly(&upstream)
        .ok_or_else(|| failed("ptx")(("upstream left no PTX in a gpu.binary".into(), vec![])))?;
    Ok((ours, theirs))
}

/// The assembly of the first object of the module's `gpu.binary`.
fn binary_assembly(module: &Module) -> Option<String> {
    use melior::ir::attribute::{ArrayAttribute, AttributeLike};
    use melior::ir::block::BlockLike;
    use melior::ir::operation::OperationLike;
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        if op.name().as_string_ref().as_str() == Ok("gpu.binary") {
            let object = ArrayAttribute::try_from(op.attribute("objects").ok()?)
                .ok()?
                .element(0)
                .ok()?;
            // SAFETY: a live gpu.object attribute; the string is copied
            // before the module can go away.
            let text = unsafe { mlir_sys::mlirGPUObjectAttrGetObject(object.to_raw()) };
            let text = unsafe { melior::StringRef::from_raw(text) };
            return text.as_str().ok().map(str::to_string);
        }
        next = op.next_in_block();
    }
    None
}

/// A stage's pipeline with the options filled in.
fn fill(pipeline: &str, options: &Options) -> String {
    let cleanup = if options.opt_level == 0 {
        ",canonicalize,cse"
    } else {
        ""
    };
    pipeline
        .replace("{chip}", &options.chip)
        .replace("{features}", &options.features)
        .replace("{opt}", &options.opt_level.to_string())
        .replace("{cleanup}", cleanup)
}

/// The functions `ptx` declares `.extern` (each would fail to link when the
/// module is loaded).
fn external_functions(ptx: &str) -> Vec<String> {
    // The driver's JIT provides CUDA's device-side printf and assertion
    // failure (`device_print`, `device_assert`).
    const PROVIDED: [&str; 2] = ["vprintf", "__assertfail"];
    ptx.lines()
        .filter_map(|l| l.trim().strip_prefix(".extern .func"))
        .filter_map(extern_name)
        .filter(|f| !PROVIDED.contains(f))
        .map(str::to_string)
        .collect()
}

/// The function's name in the rest of an `.extern .func` line: after the
/// return parameter in parentheses, if any, up to its own parameter list,
/// a space or the `;`.
fn extern_name(rest: &str) -> Option<&str> {
    let rest = rest.trim_start();
    let rest = match rest.strip_prefix('(') {
        Some(returns) => returns.split_once(')')?.1.trim_start(),
        None => rest,
    };
    let name = rest
        .split(|c: char| c.is_whitespace() || c == '(' || c == ';')
        .next()?;
    (!name.is_empty()).then_some(name)
}

/// Compiles a copy of `module`, leaving it as it is.
pub fn compile_copy(
    context: &Context,
    module: &Module,
    options: &Options,
) -> Result<Compiled, CompileError> {
    compile(context, &mut copy(module)?, options)
}

/// A copy of `module`.
fn copy<'c>(module: &Module<'c>) -> Result<Module<'c>, CompileError> {
    // SAFETY: cloning a live op gives a new op we own.
    let copy = unsafe {
        melior::ir::Operation::from_raw(mlir_sys::mlirOperationClone(
            module.as_operation().to_raw(),
        ))
    };
    Module::from_operation(copy).ok_or_else(|| CompileError {
        kernel: "?".into(),
        stage: "tile",
        message: "not a module".into(),
        diagnostics: vec![],
    })
}

/// Parses `text` (tile IR) and compiles it; `source_name` names it in
/// diagnostics.
pub fn compile_text(
    context: &Context,
    text: &str,
    source_name: &str,
    options: &Options,
) -> Result<Compiled, CompileError> {
    let mut module =
        tile_passes::parse_module(context, text, source_name).map_err(|e| CompileError {
            kernel: "?".into(),
            stage: "tile",
            message: "the input is not valid tile IR".into(),
            diagnostics: match e {
                tile_dialect::Error::Parse { diagnostics }
                | tile_dialect::Error::Invalid { diagnostics, .. } => diagnostics,
                _ => vec![],
            },
        })?;
    compile(context, &mut module, options)
}

fn write(
    d: &Dump,
    name: &str,
    index: usize,
    stage: &'static str,
    ext: &str,
    text: &str,
) -> Result<(), CompileError> {
    d.write(name, index, stage, ext, text)
        .map(|_| ())
        .map_err(|e| CompileError {
            kernel: name.to_string(),
            stage,
            message: format!(
                "cannot write the dump to {}: {e}",
                d.kernel_dir(name).display()
            ),
            diagnostics: vec![],
        })
}

/// Puts the warps, the compute capability, the pipeline stages and the
/// PTX version, and the debug and fusion flags of `options` on the
/// module, for the passes (`tile.num_warps`, `tile.compute_capability`,
/// `tile.num_stages`, `tile.ptx_version`, `tile.debug`, `tile.fp_fusion`,
/// `tile.keep_launch_order`).
fn set_target_attributes(
    context: &Context,
    module: &mut Module,
    options: &Options,
) -> Result<(), String> {
    use melior::ir::attribute::IntegerAttribute;
    use melior::ir::operation::OperationMutLike;
    use melior::ir::r#type::IntegerType;
    let capability = compute_capability(&options.chip)?;
    let i32 = IntegerType::new(context, 32).into();
    let op = &mut module.as_operation_mut();
    op.set_attribute(
        tile_dialect::ops::NUM_WARPS_ATTR,
        IntegerAttribute::new(i32, i64::from(options.num_warps)).into(),
    );
    op.set_attribute(
        tile_dialect::ops::COMPUTE_CAPABILITY_ATTR,
        IntegerAttribute::new(i32, i64::from(capability)).into(),
    );
    op.set_attribute(
        tile_dialect::ops::NUM_STAGES_ATTR,
        IntegerAttribute::new(i32, i64::from(options.num_stages)).into(),
    );
    if let Some(ptx) = crate::target::ptx_version(&options.features)? {
        op.set_attribute(
            tile_dialect::ops::PTX_VERSION_ATTR,
            IntegerAttribute::new(i32, i64::from(ptx)).into(),
        );
    }
    for (on, name) in [
        (options.debug, tile_dialect::ops::DEBUG_ATTR),
        (options.fp_fusion, tile_dialect::ops::FP_FUSION_ATTR),
        (
            !options.launch_order,
            tile_dialect::ops::KEEP_LAUNCH_ORDER_ATTR,
        ),
    ] {
        if on {
            op.set_attribute(name, melior::ir::Attribute::unit(context));
        }
    }
    Ok(())
}

/// The dynamic shared memory the lowered kernel asks for at launch (0 when
/// its shared memory is a static array).
fn dynamic_shared_bytes(module: &Module) -> u32 {
    use melior::ir::attribute::IntegerAttribute;
    module
        .as_operation()
        .attribute(tile_dialect::ops::DYNAMIC_SHARED_ATTR)
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map_or(0, |i| u32::try_from(i.value()).unwrap_or(u32::MAX))
}

/// The compute capability of a chip name: `sm_90` and `sm_90a` are 90.
pub fn compute_capability(chip: &str) -> Result<u32, String> {
    chip.strip_prefix("sm_")
        .map(|rest| rest.trim_end_matches(['a', 'f']))
        .and_then(|digits| digits.parse().ok())
        .filter(|&c| (50..1000).contains(&c))
        .ok_or_else(|| format!("chip must be like sm_80 or sm_90, got '{chip}'"))
}

/// The chip to compile for when the lowered module uses instructions of
/// the `a` variant of the options' chip (`sm_90` becomes `sm_90a`);
/// `None` when it does not, or the chip is already one. An error when the
/// features' PTX version cannot target that variant.
fn arch_specific_chip(module: &Module, options: &Options) -> Result<Option<String>, String> {
    let chip = &options.chip;
    let needs = module
        .as_operation()
        .has_attribute(tile_dialect::ops::ARCH_SPECIFIC_ATTR);
    if !needs || chip.ends_with('a') {
        return Ok(None);
    }
    let variant = format!("{chip}a");
    crate::target::check_chip(&variant, crate::target::ptx_version(&options.features)?)
        .map_err(|m| format!("the kernel uses {variant} instructions (wgmma): {m}"))?;
    Ok(Some(variant))
}

/// Runs one stage's pipeline on `module` and verifies the result once,
/// at the end of the stage. (MLIR's pass manager would verify after every
/// pass: fourteen times a compilation, ~10% of its time. `tile-opt` still
/// verifies after every pass.)
fn run_stage(
    context: &Context,
    module: &mut Module,
    pipeline: &str,
) -> Result<(), (String, Vec<Diagnostic>)> {
    let capture = DiagnosticCapture::new(context);
    let pm = PassManager::new(context);
    pm.enable_verifier(false);
    tile_passes::pipeline::add_pipeline(&pm.as_operation_pass_manager(), pipeline)
        .map_err(|e| (e, vec![]))?;
    let result = pm.run(module);
    let verified = result.is_ok() && module.as_operation().verify();
    let diagnostics = capture.finish();
    match (result, verified) {
        (Ok(()), true) => Ok(()),
        (Ok(()), false) => Err((
            format!("{pipeline} produced IR that does not verify"),
            diagnostics,
        )),
        (Err(_), _) => Err((format!("{pipeline} failed"), diagnostics)),
    }
}

fn print(module: &Module) -> String {
    tile_passes::print_module(module, true)
}

#[cfg(test)]
mod tests {
    use super::{Compiled, Module, Options, external_functions, fill, run_stage};
    use std::time::Duration;

    /// The report lists each stage, the `ptx` stage's steps under it, the
    /// time no stage took (`other`) and the total, in milliseconds.
    #[test]
    fn the_timing_report_adds_up_in_milliseconds() {
        let context = tile_dialect::new_context().unwrap();
        let kernel = tile_dialect::Kernel::build(&context, "k", |k| {
            let x = k.arg_ptr("x", tile_dialect::DType::F32);
            k.store(x, k.f32(1.0)).build();
        })
        .unwrap();
        let ms = Duration::from_millis;
        let compiled = Compiled {
            name: "k".into(),
            ptx: String::new(),
            spec: crate::kernel_spec(kernel.module(), 4).unwrap(),
            timings: vec![("tile", ms(2)), ("ptx", ms(3)), ("after", ms(1))],
            ptx_steps: vec![("translate", ms(1)), ("codegen", ms(2))],
            total: ms(10),
            warnings: Vec::new(),
        };
        assert_eq!(
            compiled.timing_report(),
            "| k | ms |\n| --- | ---: |\n| tile | 2.00 |\n| ptx | 3.00 |\n\
             | ptx: translate | 1.00 |\n| ptx: codegen | 2.00 |\n| after | 1.00 |\n\
             | other | 4.00 |\n| **total** | **10.00** |\n"
        );
    }

    #[test]
    fn external_functions_are_named() {
        let ptx = ".version 8.0\n.extern .func  (.param .b32 func_retval0) __nv_expf\n(\n\t.param .b32 __nv_expf_param_0\n)\n;\n.extern .func __trap\n;\n.visible .entry k()\n{\n}\n";
        assert_eq!(external_functions(ptx), vec!["__nv_expf", "__trap"]);
        assert!(external_functions(".visible .entry k()\n{\n}\n").is_empty());
        let debug = ".extern .func __assertfail\n(\n\t.param .b64 p\n)\n.noreturn;\n.extern .func  (.param .b32 func_retval0) vprintf\n(\n)\n;\n";
        assert!(external_functions(debug).is_empty());
        // A name followed by its parameter list or its `;` without a
        // space; a line that names no function.
        let tight = ".extern .func  (.param .b32 func_retval0) __nv_powf(\n\t.param .b32 a\n)\n;\n\
                     .extern .func __nv_abort;\n.extern .func  (.param .b32 func_retval0)\n";
        assert_eq!(external_functions(tight), vec!["__nv_powf", "__nv_abort"]);
    }

    /// A stage whose passes succeed but leave IR that does not verify is
    /// an error of that stage, not IR handed to the next one.
    #[test]
    fn a_stage_that_leaves_invalid_ir_fails() {
        use melior::ir::block::BlockLike;
        use melior::ir::operation::OperationBuilder;
        let context = tile_dialect::new_context().unwrap();
        tile_passes::register_all(&context).unwrap();
        let location = melior::ir::Location::unknown(&context);
        let mut module = Module::new(location);
        // A `func.return` outside any function.
        module.body().append_operation(
            OperationBuilder::new("func.return", location)
                .build()
                .unwrap(),
        );
        let (message, _) = run_stage(&context, &mut module, "builtin.module()").unwrap_err();
        assert!(message.contains("does not verify"), "{message}");
        let mut fine = Module::new(location);
        run_stage(&context, &mut fine, "builtin.module()").unwrap();
    }

    /// `{cleanup}` is canonicalize and cse at -O0 only (LLVM's pipeline
    /// cleans up from -O1); the other placeholders take the options.
    #[test]
    fn stages_are_filled_from_the_options() {
        let at = |opt_level| Options {
            opt_level,
            chip: "sm_80".into(),
            features: "+ptx80".into(),
            dump: None,
            ..Options::default()
        };
        let stage = "attach{chip={chip} features={features} O={opt}}{cleanup}";
        assert_eq!(
            fill(stage, &at(0)),
            "attach{chip=sm_80 features=+ptx80 O=0},canonicalize,cse"
        );
        for level in [1, 2, 3] {
            assert_eq!(
                fill(stage, &at(level)),
                format!("attach{{chip=sm_80 features=+ptx80 O={level}}}")
            );
        }
    }
}
