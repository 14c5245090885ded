//! Registration of every dialect and pass, shared by the library and
//! `tile-opt`.

use melior::Context;
use melior::pass::Pass;
use melior::utility::{register_all_llvm_translations, register_all_passes};
use std::sync::Once;
use tile_dialect::Result;

/// A pass of ours: its flag (`tile-<name>`), a one-line summary, and its
/// constructor.
pub struct TilePass {
    /// The command-line flag, without dashes.
    pub flag: &'static str,
    /// What it does, for `--help`.
    pub summary: &'static str,
    /// Creates a fresh instance.
    pub create: fn() -> Pass,
}

static TILE_PASSES: &[TilePass] = &[
    TilePass {
        flag: crate::verify::INFO.flag,
        summary: crate::verify::INFO.summary,
        create: crate::verify::create,
    },
    TilePass {
        flag: crate::while_to_for::INFO.flag,
        summary: crate::while_to_for::INFO.summary,
        create: crate::while_to_for::create,
    },
    TilePass {
        flag: crate::launch_order::INFO.flag,
        summary: crate::launch_order::INFO.summary,
        create: crate::launch_order::create,
    },
    TilePass {
        flag: crate::assign_layouts::INFO.flag,
        summary: crate::assign_layouts::INFO.summary,
        create: crate::assign_layouts::create,
    },
    TilePass {
        flag: crate::remove_conversions::INFO.flag,
        summary: crate::remove_conversions::INFO.summary,
        create: crate::remove_conversions::create,
    },
    TilePass {
        flag: crate::predicate::INFO.flag,
        summary: crate::predicate::INFO.summary,
        create: crate::predicate::create,
    },
    TilePass {
        flag: crate::vectorize::INFO.flag,
        summary: crate::vectorize::INFO.summary,
        create: crate::vectorize::create,
    },
    TilePass {
        flag: crate::software_pipeline::INFO.flag,
        summary: crate::software_pipeline::INFO.summary,
        create: crate::software_pipeline::create,
    },
    TilePass {
        flag: crate::simt::INFO.flag,
        summary: crate::simt::INFO.summary,
        create: crate::simt::create,
    },
];

/// Every pass of ours, in registration order.
pub fn tile_passes() -> &'static [TilePass] {
    TILE_PASSES
}

/// The pass of ours with this flag.
pub fn find_pass(flag: &str) -> Option<&'static TilePass> {
    TILE_PASSES.iter().find(|p| p.flag == flag)
}

/// Makes `context` know every upstream dialect, the tile dialect, the
/// upstream passes the compilation pipeline names ([`PIPELINE_PASSES`]) and
/// the LLVM translations. The library and `tile-opt` both start here
/// (`tile-opt` then registers every other upstream pass too, see
/// [`register_upstream_passes`]). Calling it again is harmless.
pub fn register_all(context: &Context) -> Result<()> {
    register_pipeline_passes();
    tile_dialect::register_dialects(context)?;
    register_all_llvm_translations(context);
    Ok(())
}

/// The upstream passes the compilation pipeline (`tile_codegen::STAGES`)
/// and its check against upstream code generation name, which
/// [`register_all`] registers.
pub const PIPELINE_PASSES: &[&str] = &[
    "canonicalize",
    "cse",
    "nvvm-attach-target",
    "convert-scf-to-cf",
    "convert-gpu-to-nvvm",
    "convert-index-to-llvm",
    "reconcile-unrealized-casts",
    "ensure-debug-info-scope-on-llvm-func",
    "gpu-module-to-binary",
];

/// Registers the passes of [`PIPELINE_PASSES`], once per process.
/// (Registering a pass makes one instance of it to learn its name, so
/// registering all ~300 upstream passes costs ~1.5 ms, once per process;
/// these few cost next to nothing.)
fn register_pipeline_passes() {
    static ONCE: Once = Once::new();
    // SAFETY: the registration functions take no arguments; MLIR's pass
    // registry tolerates registering a pass again (tile-opt registers all).
    ONCE.call_once(|| unsafe {
        mlir_sys::mlirRegisterTransformsCanonicalizer();
        mlir_sys::mlirRegisterTransformsCSE();
        mlir_sys::mlirRegisterGPUGpuNVVMAttachTarget();
        mlir_sys::mlirRegisterConversionSCFToControlFlowPass();
        mlir_sys::mlirRegisterConversionConvertGpuOpsToNVVMOps();
        mlir_sys::mlirRegisterConversionConvertIndexToLLVMPass();
        mlir_sys::mlirRegisterConversionReconcileUnrealizedCastsPass();
        mlir_sys::mlirRegisterLLVMDIScopeForLLVMFuncOpPass();
        mlir_sys::mlirRegisterGPUGpuModuleToBinaryPass();
    });
}

/// Registers every upstream pass, for textual pipelines naming passes the
/// compiler does not use (`tile-opt` calls it after [`register_all`]).
pub fn register_upstream_passes() {
    // melior guards this with a `Once` of its own.
    register_all_passes();
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::pass::PassManager;
    use melior::utility::parse_pass_pipeline;

    #[test]
    fn the_pipeline_passes_are_registered() {
        let context = Context::new();
        register_all(&context).unwrap();
        for pass in PIPELINE_PASSES {
            let pm = PassManager::new(&context);
            let anchor = match *pass {
                "convert-gpu-to-nvvm" => "gpu.module",
                _ => "builtin.module",
            };
            let pipeline = match anchor {
                "gpu.module" => format!("builtin.module(gpu.module({pass}))"),
                _ => format!("builtin.module({pass})"),
            };
            parse_pass_pipeline(pm.as_operation_pass_manager(), &pipeline)
                .unwrap_or_else(|e| panic!("{pass}: {e}"));
        }
    }
}
