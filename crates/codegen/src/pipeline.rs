//! The stages from tile IR to PTX, run one at a time so each can be
//! dumped and each failure names its stage.

use crate::dump::Dump;
use crate::options::Options;
use crate::spec::kernel_spec;
use melior::Context;
use melior::ir::Module;
use melior::pass::PassManager;
use melior::utility::parse_pass_pipeline;
use std::fmt;
use std::time::{Duration, Instant};
use tile_dialect::Diagnostic;
use tile_dialect::diagnostics::DiagnosticCapture;
use tile_runtime::KernelSpec;

/// The stages after the input, in order: name and pass pipeline (on
/// `builtin.module`). `{chip}`, `{features}` and `{opt}` are filled from
/// the [`Options`]; a pipeline naming one of our passes (`tile-*`) runs
/// that pass alone.
pub const STAGES: &[(&str, &str)] = &[
    ("simplified", "canonicalize,cse"),
    ("layouts", "tile-assign-layouts"),
    ("predicated", "tile-predicate"),
    ("vectorized", "tile-vectorize"),
    ("simt", "tile-to-simt"),
    (
        "nvvm",
        "nvvm-attach-target{chip={chip} features={features} O={opt}},convert-scf-to-cf,\
         gpu.module(convert-gpu-to-nvvm),convert-index-to-llvm,reconcile-unrealized-casts,\
         canonicalize,cse",
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
    /// Time spent in each stage.
    pub timings: Vec<(&'static str, Duration)>,
}

/// A compilation that failed: the kernel, the stage, and why.
#[derive(Clone, Debug)]
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

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "kernel {}: stage '{}' failed: {}",
            self.kernel, self.stage, self.message
        )?;
        for d in &self.diagnostics {
            write!(f, "\n{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for CompileError {}

/// Compiles the kernel in `module` (tile IR, verified) to PTX. The module
/// is transformed in place, stage by stage.
pub fn compile(
    context: &Context,
    module: &mut Module,
    options: &Options,
) -> Result<Compiled, CompileError> {
    let error = |kernel: &str, stage: &'static str, message: String| CompileError {
        kernel: kernel.to_string(),
        stage,
        message,
        diagnostics: vec![],
    };
    if options.num_warps == 0 || !options.num_warps.is_power_of_two() || options.num_warps > 32 {
        return Err(error(
            "?",
            "options",
            format!(
                "num_warps must be a power of two from 1 to 32, got {}",
                options.num_warps
            ),
        ));
    }
    let mut spec = kernel_spec(module, options.num_warps).map_err(|m| error("?", "tile", m))?;
    let name = spec.name.clone();
    crate::specialize::apply(context, module, &spec, &options.specialization)
        .map_err(|m| error(&name, "tile", m))?;
    spec.specialization = options.specialization.clone();
    let dump = options.dump.as_ref().filter(|d| d.wants(&name));
    set_num_warps(context, module, options.num_warps);
    if let Some(d) = dump {
        write(d, &name, 0, "tile", "mlir", &print(module))?;
    }
    let mut timings = Vec::new();
    for (i, (stage, pipeline)) in STAGES.iter().enumerate() {
        let pipeline = pipeline
            .replace("{chip}", &options.chip)
            .replace("{features}", &options.features)
            .replace("{opt}", &options.opt_level.to_string());
        let started = Instant::now();
        run_stage(context, module, &pipeline).map_err(|(message, diagnostics)| CompileError {
            kernel: name.clone(),
            stage,
            message,
            diagnostics,
        })?;
        timings.push((*stage, started.elapsed()));
        if let Some(d) = dump {
            write(d, &name, i + 1, stage, "mlir", &print(module))?;
        }
    }
    let ptx = extract_ptx(&print(module))
        .ok_or_else(|| error(&name, "ptx", "no PTX assembly in the gpu.binary".into()))?;
    if let Some(d) = dump {
        write(d, &name, STAGES.len() + 1, "kernel", "ptx", &ptx)?;
    }
    let external = external_functions(&ptx);
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
        ptx,
        spec,
        timings,
    })
}

/// The functions `ptx` declares `.extern` (each would fail to link when the
/// module is loaded).
fn external_functions(ptx: &str) -> Vec<String> {
    ptx.lines()
        .filter_map(|l| l.trim().strip_prefix(".extern .func"))
        .filter_map(|rest| {
            rest.split(|c: char| c.is_whitespace() || c == '(' || c == ')')
                .rfind(|w| !w.is_empty() && !w.starts_with('.') && !w.contains("func_retval"))
                .map(str::to_string)
        })
        .collect()
}

/// Compiles a copy of `module`, leaving it as it is.
pub fn compile_copy(
    context: &Context,
    module: &Module,
    options: &Options,
) -> Result<Compiled, CompileError> {
    // SAFETY: cloning a live op gives a new op we own.
    let copy = unsafe {
        melior::ir::Operation::from_raw(mlir_sys::mlirOperationClone(
            module.as_operation().to_raw(),
        ))
    };
    let mut copy = Module::from_operation(copy).ok_or_else(|| CompileError {
        kernel: "?".into(),
        stage: "tile",
        message: "not a module".into(),
        diagnostics: vec![],
    })?;
    compile(context, &mut copy, options)
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

fn set_num_warps(context: &Context, module: &mut Module, warps: u32) {
    use melior::ir::attribute::IntegerAttribute;
    use melior::ir::operation::OperationMutLike;
    use melior::ir::r#type::IntegerType;
    let attr = IntegerAttribute::new(IntegerType::new(context, 32).into(), i64::from(warps));
    module
        .as_operation_mut()
        .set_attribute(tile_passes::assign_layouts::NUM_WARPS_ATTR, attr.into());
}

fn run_stage(
    context: &Context,
    module: &mut Module,
    pipeline: &str,
) -> Result<(), (String, Vec<Diagnostic>)> {
    let capture = DiagnosticCapture::new(context);
    let pm = PassManager::new(context);
    pm.enable_verifier(true);
    match tile_passes::find_pass(pipeline) {
        Some(pass) => pm.add_pass((pass.create)()),
        None => parse_pass_pipeline(
            pm.as_operation_pass_manager(),
            &format!("builtin.module({pipeline})"),
        )
        .map_err(|e| (format!("invalid pipeline '{pipeline}': {e}"), vec![]))?,
    }
    let result = pm.run(module);
    let diagnostics = capture.finish();
    match result {
        Ok(()) => Ok(()),
        Err(_) => Err((format!("{pipeline} failed"), diagnostics)),
    }
}

fn print(module: &Module) -> String {
    tile_passes::print_module(module, true)
}

/// The PTX held, hex-escaped, in the `assembly` of a printed `gpu.binary`.
fn extract_ptx(printed: &str) -> Option<String> {
    let start = printed.find("assembly = \"")? + "assembly = \"".len();
    let bytes = &printed.as_bytes()[start..];
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return String::from_utf8(out).ok(),
            b'\\'
                if i + 2 < bytes.len()
                    && bytes[i + 1].is_ascii_hexdigit()
                    && bytes[i + 2].is_ascii_hexdigit() =>
            {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'\\' if i + 1 < bytes.len() => {
                out.push(bytes[i + 1]);
                i += 2;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::external_functions;

    #[test]
    fn external_functions_are_named() {
        let ptx = ".version 8.0\n.extern .func  (.param .b32 func_retval0) __nv_expf\n(\n\t.param .b32 __nv_expf_param_0\n)\n;\n.extern .func __trap\n;\n.visible .entry k()\n{\n}\n";
        assert_eq!(external_functions(ptx), vec!["__nv_expf", "__trap"]);
        assert!(external_functions(".visible .entry k()\n{\n}\n").is_empty());
    }
}
