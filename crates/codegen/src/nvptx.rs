//! The `ptx` stage: the kernel's `gpu.module` (LLVM dialect) to PTX through
//! LLVM's C API, and the `gpu.module` replaced by a `gpu.binary` holding the
//! PTX.
//!
//! It does what upstream `gpu-module-to-binary{format=isa}` does for an
//! `#nvvm.target` (MLIR's `ModuleToObject` and NVPTX serializer): translate
//! the `gpu.module` to LLVM IR, give it the NVPTX data layout and triple,
//! run LLVM's `default<O{n}>` pipeline with loop unrolling, interleaving and
//! both vectorizers on, and emit assembly with a target machine whose
//! code-generation level is `n` too. Three things differ, none of them in
//! the PTX:
//!
//! - The target machine is made once per thread and (chip, features,
//!   level), not once per compilation.
//! - libdevice is never looked up: nothing we emit calls it, and the
//!   pipeline refuses PTX that calls a function nothing provides.
//! - From `-O1` up, `separate-const-offset-from-gep` and `early-cse` run
//!   right after the optimization pipeline. The NVPTX backend runs the
//!   first of these itself, just before straight-line strength reduction
//!   (SLSR); on our per-register code it leaves a fresh copy of the same
//!   `sext` for every address it splits, and SLSR's search for a basis then
//!   compares the candidates pairwise, each comparison a ValueTracking
//!   poison query (`canReuseInstruction`) that scans the block: 3 to 5 ms
//!   of the 10 ms a vector add spent in LLVM. Split and CSE'd beforehand,
//!   the addresses give the backend's own run nothing left to split and
//!   SLSR one candidate where it had one per access. The PTX of every
//!   example, at every level, default and specialized, is byte-identical to
//!   upstream's (the test below checks two kernels; `tile-tools compile-bench
//!   --check-upstream` checks them all).

use crate::options::Options;
use melior::Context;
use melior::ir::attribute::{ArrayAttribute, Attribute, AttributeLike};
use melior::ir::block::BlockLike;
use melior::ir::operation::{OperationBuilder, OperationLike};
use melior::ir::{Identifier, Module, OperationRef};
use mlir_sys::{MlirOperation, mlirGPUObjectAttrGet, mlirOperationDestroy};
use std::cell::RefCell;
use std::ffi::{CStr, CString, c_char, c_void};
use std::sync::Once;
use std::time::{Duration, Instant};

/// The LLVM triple of every kernel.
pub const TRIPLE: &str = "nvptx64-nvidia-cuda";

/// `gpu::CompilationTarget::Assembly`, the format of a PTX `gpu.object`.
const ASSEMBLY_FORMAT: u32 = 2;

/// The passes run after `default<O{n}>` from `-O1` up (see the module
/// documentation).
const ADDRESS_CLEANUP: &str = "function(separate-const-offset-from-gep,early-cse)";

/// The LLVM pass pipeline at optimization level `level`: `default<On>`,
/// then from `-O1` up [`ADDRESS_CLEANUP`].
fn llvm_passes(level: u8) -> String {
    let mut passes = format!("default<O{level}>");
    if level > 0 {
        passes.push(',');
        passes.push_str(ADDRESS_CLEANUP);
    }
    passes
}

// LLVM's C API (llvm-c/Core.h, Target.h, TargetMachine.h,
// Transforms/PassBuilder.h) and MLIR's translation to LLVM IR
// (mlir-c/Target/LLVMIR.h), all in the LLVM and MLIR libraries mlir-sys
// links. Every handle is an opaque pointer.
unsafe extern "C" {
    fn mlirTranslateModuleToLLVMIR(module: MlirOperation, context: *mut c_void) -> *mut c_void;
    fn LLVMContextCreate() -> *mut c_void;
    fn LLVMContextDispose(context: *mut c_void);
    fn LLVMDisposeModule(module: *mut c_void);
    fn LLVMSetTarget(module: *mut c_void, triple: *const c_char);
    fn LLVMSetModuleDataLayout(module: *mut c_void, layout: *mut c_void);
    fn LLVMInitializeNVPTXTargetInfo();
    fn LLVMInitializeNVPTXTarget();
    fn LLVMInitializeNVPTXTargetMC();
    fn LLVMInitializeNVPTXAsmPrinter();
    fn LLVMGetTargetFromTriple(
        triple: *const c_char,
        target: *mut *mut c_void,
        message: *mut *mut c_char,
    ) -> i32;
    fn LLVMCreateTargetMachine(
        target: *mut c_void,
        triple: *const c_char,
        cpu: *const c_char,
        features: *const c_char,
        level: u32,
        reloc: u32,
        code_model: u32,
    ) -> *mut c_void;
    fn LLVMDisposeTargetMachine(machine: *mut c_void);
    fn LLVMCreateTargetDataLayout(machine: *mut c_void) -> *mut c_void;
    fn LLVMDisposeTargetData(layout: *mut c_void);
    fn LLVMCreatePassBuilderOptions() -> *mut c_void;
    fn LLVMDisposePassBuilderOptions(options: *mut c_void);
    fn LLVMPassBuilderOptionsSetLoopInterleaving(options: *mut c_void, on: i32);
    fn LLVMPassBuilderOptionsSetLoopVectorization(options: *mut c_void, on: i32);
    fn LLVMPassBuilderOptionsSetSLPVectorization(options: *mut c_void, on: i32);
    fn LLVMPassBuilderOptionsSetLoopUnrolling(options: *mut c_void, on: i32);
    fn LLVMRunPasses(
        module: *mut c_void,
        passes: *const c_char,
        machine: *mut c_void,
        options: *mut c_void,
    ) -> *mut c_void;
    fn LLVMGetErrorMessage(error: *mut c_void) -> *mut c_char;
    fn LLVMDisposeErrorMessage(message: *mut c_char);
    fn LLVMTargetMachineEmitToMemoryBuffer(
        machine: *mut c_void,
        module: *mut c_void,
        file_type: u32,
        message: *mut *mut c_char,
        buffer: *mut *mut c_void,
    ) -> i32;
    fn LLVMGetBufferStart(buffer: *mut c_void) -> *const c_char;
    fn LLVMGetBufferSize(buffer: *mut c_void) -> usize;
    fn LLVMDisposeMemoryBuffer(buffer: *mut c_void);
    fn LLVMDisposeMessage(message: *mut c_char);
    fn LLVMParseCommandLineOptions(argc: i32, argv: *const *const c_char, overview: *const c_char);
}

/// The variable whose value (space-separated LLVM options, e.g.
/// `-disable-lsr`) is handed to LLVM's option parser once, before the
/// first compilation in the process: a debugging knob for trying what one
/// of LLVM's passes does to the PTX. Unset, LLVM runs with its defaults.
pub const LLVM_OPTIONS_VAR: &str = "TILE_LLVM_OPTIONS";

/// The PTX of one `gpu.module`, and how long each step took.
pub(crate) struct Ptx {
    /// The PTX text.
    pub text: String,
    /// `translate` (LLVM dialect to LLVM IR), `optimize` (LLVM's
    /// `default<O{n}>`), `codegen` (NVPTX instruction selection onwards).
    pub steps: Vec<(&'static str, Duration)>,
}

/// Compiles the single `gpu.module` of `module` (LLVM dialect, target
/// attached) to PTX and puts a `gpu.binary` holding it in its place.
pub(crate) fn serialize(
    context: &Context,
    module: &mut Module,
    options: &Options,
) -> Result<Ptx, String> {
    let module: &Module = module;
    let gpu_module = find_gpu_module(module)?;
    let ptx = to_ptx(gpu_module, options)?;
    replace_with_binary(context, module, gpu_module, &ptx.text, options)?;
    Ok(ptx)
}

/// The module's `gpu.module`.
fn find_gpu_module<'c, 'a>(module: &'a Module<'c>) -> Result<OperationRef<'c, 'a>, String> {
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        if op.name().as_string_ref().as_str() == Ok("gpu.module") {
            return Ok(op);
        }
        next = op.next_in_block();
    }
    Err("the module holds no gpu.module".into())
}

fn to_ptx(gpu_module: OperationRef, options: &Options) -> Result<Ptx, String> {
    let level = options.opt_level;
    if level > 3 {
        return Err(format!("invalid optimization level {level}: 0 to 3"));
    }
    with_machine(options, |machine| {
        let mut steps = Vec::with_capacity(3);
        let started = Instant::now();
        let context = LlvmContext::new();
        // SAFETY: the op is a live gpu.module; the LLVM context outlives
        // the module made in it (`LlvmModule` is dropped first).
        let raw = unsafe { mlirTranslateModuleToLLVMIR(gpu_module.to_raw(), context.0) };
        if raw.is_null() {
            return Err("the translation to LLVM IR failed (see the diagnostics)".into());
        }
        let llvm_module = LlvmModule(raw);
        let triple = CString::new(TRIPLE).expect("no NUL");
        // SAFETY: module and machine are live; LLVM copies the layout.
        unsafe {
            let layout = LLVMCreateTargetDataLayout(machine);
            LLVMSetModuleDataLayout(llvm_module.0, layout);
            LLVMDisposeTargetData(layout);
            LLVMSetTarget(llvm_module.0, triple.as_ptr());
        }
        steps.push(("translate", started.elapsed()));

        let started = Instant::now();
        optimize(&llvm_module, machine, &llvm_passes(level))?;
        steps.push(("optimize", started.elapsed()));

        let started = Instant::now();
        let text = emit_assembly(&llvm_module, machine)?;
        steps.push(("codegen", started.elapsed()));
        drop(llvm_module);
        drop(context);
        Ok(Ptx { text, steps })
    })
}

/// Runs `passes` (new pass manager syntax) on the module, with the tuning
/// MLIR's `makeOptimizingTransformer` uses.
fn optimize(module: &LlvmModule, machine: *mut c_void, passes: &str) -> Result<(), String> {
    let passes = CString::new(passes).expect("no NUL");
    // SAFETY: module and machine are live; the options are ours and freed
    // here; an error is read once and freed.
    unsafe {
        let options = LLVMCreatePassBuilderOptions();
        LLVMPassBuilderOptionsSetLoopUnrolling(options, 1);
        LLVMPassBuilderOptionsSetLoopInterleaving(options, 1);
        LLVMPassBuilderOptionsSetLoopVectorization(options, 1);
        LLVMPassBuilderOptionsSetSLPVectorization(options, 1);
        let error = LLVMRunPasses(module.0, passes.as_ptr(), machine, options);
        LLVMDisposePassBuilderOptions(options);
        if error.is_null() {
            Ok(())
        } else {
            let message = LLVMGetErrorMessage(error);
            let text = CStr::from_ptr(message).to_string_lossy().into_owned();
            LLVMDisposeErrorMessage(message);
            Err(format!("LLVM's optimization pipeline failed: {text}"))
        }
    }
}

/// The module as PTX.
fn emit_assembly(module: &LlvmModule, machine: *mut c_void) -> Result<String, String> {
    let mut message: *mut c_char = std::ptr::null_mut();
    let mut buffer: *mut c_void = std::ptr::null_mut();
    // SAFETY: module and machine are live; the buffer or the message is
    // ours to free.
    unsafe {
        let failed =
            LLVMTargetMachineEmitToMemoryBuffer(machine, module.0, 0, &mut message, &mut buffer);
        if failed != 0 {
            let text = take_message(message);
            return Err(format!("NVPTX code generation failed: {text}"));
        }
        let bytes = std::slice::from_raw_parts(
            LLVMGetBufferStart(buffer) as *const u8,
            LLVMGetBufferSize(buffer),
        );
        let text = String::from_utf8_lossy(bytes).into_owned();
        LLVMDisposeMemoryBuffer(buffer);
        Ok(text)
    }
}

/// Replaces `gpu_module` with `gpu.binary @<name> [#gpu.object<target,
/// properties = {O = n : i32}, assembly = "<ptx>">]`, as upstream does
/// (without its timing property, which would make dumps differ from run to
/// run).
fn replace_with_binary(
    context: &Context,
    module: &Module,
    gpu_module: OperationRef,
    ptx: &str,
    options: &Options,
) -> Result<(), String> {
    let targets = gpu_module
        .attribute("targets")
        .ok()
        .and_then(|a| ArrayAttribute::try_from(a).ok())
        .and_then(|a| a.element(0).ok())
        .ok_or("the gpu.module has no target attached")?;
    let name = gpu_module
        .attribute("sym_name")
        .map_err(|_| "the gpu.module has no name")?;
    let properties = Attribute::parse(context, &format!("{{O = {} : i32}}", options.opt_level))
        .ok_or("cannot make the object's properties")?;
    // SAFETY: every handle belongs to the live context; MLIR copies the
    // PTX into the attribute.
    let object = unsafe {
        Attribute::from_raw(mlirGPUObjectAttrGet(
            context.to_raw(),
            targets.to_raw(),
            ASSEMBLY_FORMAT,
            melior::StringRef::new(ptx).to_raw(),
            properties.to_raw(),
        ))
    };
    // The default handler (`#gpu.select_object` without a target), which
    // upstream's builder sets and the printer leaves out.
    let handler = Attribute::parse(context, "#gpu.select_object")
        .ok_or("cannot make the gpu.binary's offloading handler")?;
    let binary = OperationBuilder::new("gpu.binary", gpu_module.location())
        .add_attributes(&[
            (Identifier::new(context, "sym_name"), name),
            (Identifier::new(context, "offloadingHandler"), handler),
            (
                Identifier::new(context, "objects"),
                ArrayAttribute::new(context, &[object]).into(),
            ),
        ])
        .build()
        .map_err(|e| format!("cannot build the gpu.binary: {e}"))?;
    let body = module.body();
    body.insert_operation_before(gpu_module, binary);
    // SAFETY: the gpu.module is live and in the body; once removed it is
    // ours, and nothing refers to it any more.
    unsafe {
        mlir_sys::mlirOperationRemoveFromParent(gpu_module.to_raw());
        mlirOperationDestroy(gpu_module.to_raw());
    }
    Ok(())
}

/// Runs `f` with this thread's NVPTX target machine for `options`, made
/// on first use. (A target machine is not thread-safe; one per thread
/// never runs two compilations at once.)
fn with_machine<T>(
    options: &Options,
    f: impl FnOnce(*mut c_void) -> Result<T, String>,
) -> Result<T, String> {
    thread_local! {
        static MACHINES: RefCell<Vec<Machine>> = const { RefCell::new(Vec::new()) };
    }
    let key = (
        options.chip.clone(),
        options.features.clone(),
        options.opt_level,
    );
    let machine = MACHINES.with(|machines| {
        let mut machines = machines.borrow_mut();
        if let Some(m) = machines.iter().find(|m| m.key == key) {
            return Ok(m.raw);
        }
        let m = Machine::new(key)?;
        let raw = m.raw;
        machines.push(m);
        Ok::<_, String>(raw)
    })?;
    f(machine)
}

/// An NVPTX target machine for one (chip, features, level).
struct Machine {
    key: (String, String, u8),
    raw: *mut c_void,
}

impl Machine {
    fn new(key: (String, String, u8)) -> Result<Machine, String> {
        static INIT: Once = Once::new();
        // SAFETY: LLVM's target registration functions take no arguments
        // and are run once.
        INIT.call_once(|| unsafe {
            LLVMInitializeNVPTXTargetInfo();
            LLVMInitializeNVPTXTarget();
            LLVMInitializeNVPTXTargetMC();
            LLVMInitializeNVPTXAsmPrinter();
            if let Ok(options) = std::env::var(LLVM_OPTIONS_VAR) {
                let args: Vec<CString> = std::iter::once("tile")
                    .chain(options.split_whitespace())
                    .filter_map(|a| CString::new(a).ok())
                    .collect();
                let argv: Vec<*const c_char> = args.iter().map(|a| a.as_ptr()).collect();
                LLVMParseCommandLineOptions(argv.len() as i32, argv.as_ptr(), c"tile".as_ptr());
            }
        });
        let cstr = |s: &str| CString::new(s).map_err(|_| format!("'{s}' holds a NUL"));
        let (triple, chip, features) = (cstr(TRIPLE)?, cstr(&key.0)?, cstr(&key.1)?);
        let mut target: *mut c_void = std::ptr::null_mut();
        let mut message: *mut c_char = std::ptr::null_mut();
        // SAFETY: the strings outlive the calls; LLVM copies them.
        unsafe {
            if LLVMGetTargetFromTriple(triple.as_ptr(), &mut target, &mut message) != 0 {
                return Err(format!(
                    "no NVPTX target in LLVM: {}",
                    take_message(message)
                ));
            }
            // Reloc and code model 0: LLVM's defaults, as upstream.
            let raw = LLVMCreateTargetMachine(
                target,
                triple.as_ptr(),
                chip.as_ptr(),
                features.as_ptr(),
                u32::from(key.2),
                0,
                0,
            );
            if raw.is_null() {
                return Err(format!(
                    "LLVM made no target machine for {} {}",
                    key.0, key.1
                ));
            }
            Ok(Machine { key, raw })
        }
    }
}

impl Drop for Machine {
    fn drop(&mut self) {
        // SAFETY: the machine is ours and no longer used.
        unsafe { LLVMDisposeTargetMachine(self.raw) }
    }
}

/// An LLVM context of our own.
struct LlvmContext(*mut c_void);

impl LlvmContext {
    fn new() -> LlvmContext {
        // SAFETY: no arguments; the context is ours.
        LlvmContext(unsafe { LLVMContextCreate() })
    }
}

impl Drop for LlvmContext {
    fn drop(&mut self) {
        // SAFETY: the context is ours; its modules are gone.
        unsafe { LLVMContextDispose(self.0) }
    }
}

/// An LLVM module of our own.
struct LlvmModule(*mut c_void);

impl Drop for LlvmModule {
    fn drop(&mut self) {
        // SAFETY: the module is ours.
        unsafe { LLVMDisposeModule(self.0) }
    }
}

/// The text of an LLVM message, freed.
///
/// # Safety
/// `message` is null or a message LLVM handed over.
unsafe fn take_message(message: *mut c_char) -> String {
    if message.is_null() {
        return "(no message)".into();
    }
    // SAFETY: a NUL-terminated string from LLVM, freed once.
    unsafe {
        let text = CStr::from_ptr(message).to_string_lossy().into_owned();
        LLVMDisposeMessage(message);
        text
    }
}

#[cfg(test)]
mod tests {
    use crate::{Fact, Options, STAGES, Specialization, compile_copy, ptx_both_ways};
    use tile_dialect::{DType, Kernel, KernelBuilder};

    const BLOCK: i32 = 256;

    /// The masked vector add.
    fn vector_add(k: &KernelBuilder<'_>) {
        let x = k.arg_ptr("x", DType::F32);
        let y = k.arg_ptr("y", DType::F32);
        let out = k.arg_ptr("out", DType::F32);
        let n = k.arg("n", DType::I32);
        let offs = k.program_id(0) * BLOCK + k.arange(0, BLOCK);
        let m = offs.lt(n);
        let a = k.load(x + offs).mask(m).other(0.0).build();
        let b = k.load(y + offs).mask(m).other(0.0).build();
        k.store(out + offs, a + b).mask(m).build();
    }

    /// A loop over blocks of a row, summed (a loop, a reduction, shared
    /// memory).
    fn row_sum(k: &KernelBuilder<'_>) {
        let x = k.arg_ptr("x", DType::F32);
        let out = k.arg_ptr("out", DType::F32);
        let n = k.arg("n", DType::I32);
        let row = x + k.program_id(0) * n;
        let acc = k.zeros(&[BLOCK as i64], DType::F32);
        let [acc] = k.for_range(0, n, BLOCK, [acc], |start, [acc]| {
            let offs = start + k.arange(0, BLOCK);
            let v = k.load(row + offs).mask(offs.lt(n)).other(0.0).build();
            [acc + v]
        });
        k.store(out + k.program_id(0), acc.sum(0)).build();
    }

    /// The cleanup changes no PTX (the test below), only the time LLVM
    /// takes: it runs from `-O1` up, never at `-O0`.
    #[test]
    fn address_cleanup_runs_from_o1_up() {
        use super::{ADDRESS_CLEANUP, llvm_passes};
        assert_eq!(llvm_passes(0), "default<O0>");
        for level in 1..=3 {
            assert_eq!(
                llvm_passes(level),
                format!("default<O{level}>,{ADDRESS_CLEANUP}")
            );
        }
    }

    #[test]
    fn the_native_ptx_stage_matches_upstream() {
        let context = tile_dialect::new_context().unwrap();
        tile_passes::register_all(&context).unwrap();
        type Body = fn(&KernelBuilder<'_>);
        let kernels: [(&str, Body); 2] = [("vector_add", vector_add), ("row_sum", row_sum)];
        for (name, body) in kernels {
            let kernel = Kernel::build(&context, name, body).unwrap();
            let aligned = Specialization {
                facts: vec![Fact::DivisibleBy16; kernel.params().len()],
            };
            for opt_level in [0, 3] {
                for specialization in [Specialization::none(), aligned.clone()] {
                    let options = Options {
                        opt_level,
                        dump: None,
                        ..Options::default()
                    }
                    .specialized(specialization);
                    let (ours, upstream) =
                        ptx_both_ways(&context, kernel.module(), &options).unwrap();
                    assert!(ours.contains(".entry"), "{ours}");
                    assert!(
                        ours == upstream,
                        "{name} at -O{opt_level}: the PTX differs\n{ours}\n---\n{upstream}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_stage_and_ptx_step_is_timed() {
        let context = tile_dialect::new_context().unwrap();
        tile_passes::register_all(&context).unwrap();
        let kernel = Kernel::build(&context, "vector_add", vector_add).unwrap();
        let options = Options {
            dump: None,
            ..Options::default()
        };
        let compiled = compile_copy(&context, kernel.module(), &options).unwrap();
        let stages: Vec<&str> = compiled.timings.iter().map(|(s, _)| *s).collect();
        let expected: Vec<&str> = STAGES.iter().map(|(s, _)| *s).collect();
        assert_eq!(stages, expected);
        let steps: Vec<&str> = compiled.ptx_steps.iter().map(|(s, _)| *s).collect();
        assert_eq!(steps, ["translate", "optimize", "codegen"]);
        let staged: std::time::Duration = compiled.timings.iter().map(|(_, d)| *d).sum();
        assert!(compiled.total >= staged);
        let report = compiled.timing_report();
        for stage in expected {
            assert!(report.contains(&format!("| {stage} |")), "{report}");
        }
        assert!(report.contains("| ptx: codegen |") && report.contains("| **total** |"));
    }

    #[test]
    fn fused_and_staged_passes_give_the_same_ptx() {
        let context = tile_dialect::new_context().unwrap();
        tile_passes::register_all(&context).unwrap();
        let dir = std::env::temp_dir().join(format!("tile-fused-{}", std::process::id()));
        type Body = fn(&KernelBuilder<'_>);
        let kernels: [(&str, Body); 2] = [("vector_add", vector_add), ("row_sum", row_sum)];
        for (name, body) in kernels {
            let kernel = Kernel::build(&context, name, body).unwrap();
            let fused = Options {
                dump: None,
                ..Options::default()
            };
            let staged = Options {
                dump: Some(crate::Dump::to(&dir)),
                ..Options::default()
            };
            let a = compile_copy(&context, kernel.module(), &fused).unwrap();
            let b = compile_copy(&context, kernel.module(), &staged).unwrap();
            assert!(a.ptx == b.ptx, "{name}: fused and staged PTX differ");
            assert!(dir.join(name).join("06-simt.mlir").exists());
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
