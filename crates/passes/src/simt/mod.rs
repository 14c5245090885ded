//! `tile-to-simt`: from laid-out tile IR to per-thread code on the `gpu`
//! dialect.
//!
//! Each tensor becomes the list of scalars one thread holds, in the
//! register order of its [`Distribution`]; scalars stay scalars. The thread
//! and program ids come from `gpu.thread_id` and `gpu.block_id`. Every
//! element op is repeated per register; broadcasts and `expand_dims` only
//! renumber registers; loads and stores become one predicated PTX access a
//! register (`@p ld.global.b32`, see [`memory`]); layout conversions go
//! through shared memory; reductions combine in the thread, across lanes
//! with shuffles and across warps through shared memory (see [`reduce`]);
//! float math avoids libdevice (see [`math`]). Every emitted op keeps the
//! location of the tile op it comes from, so the PTX line table points at
//! the user's source.
//!
//! The output is a module with one `gpu.module @tile` holding the kernel
//! as a `gpu.func` with `known_block_size = [32 * num_warps, 1, 1]`.

mod emit;
mod math;
mod memory;
mod reduce;

use crate::assign_layouts::num_warps;
use crate::mirror::{Mirror, Op};
use crate::rewrite::{PassError, run_mirror_pass};
use emit::Emitter;
use melior::ir::OperationRef;
use melior::ir::r#type::TypeId;
use melior::pass::{ExternalPass, Pass, create_external};

#[repr(align(8))]
struct PassId;
static PASS_ID: PassId = PassId;

/// The flag of this pass.
pub const FLAG: &str = "tile-to-simt";

/// The name of the `gpu.module` the kernel is placed in.
pub const GPU_MODULE: &str = "tile";

/// Creates the `tile-to-simt` pass (runs on `builtin.module`).
pub fn create() -> Pass {
    create_external(
        |op: OperationRef<'_, '_>, pass: ExternalPass<'_>| {
            run_mirror_pass(&op, &pass, FLAG, lower_module);
        },
        TypeId::create(&PASS_ID),
        "TileToSimt",
        FLAG,
        "lower laid-out tile IR to per-thread code in a gpu.module",
        "builtin.module",
        &[],
    )
}

/// Lowers every kernel of the module; returns the new module's text.
pub fn lower_module(m: Mirror) -> Result<String, PassError> {
    let warps = num_warps(&m)?;
    let mut funcs = Vec::new();
    let mut shared_bytes = 0usize;
    for op in &m.ops {
        if op.name != "func.func" {
            return Err(PassError::at(
                op,
                "cannot be lowered: only kernels (func.func) may appear at the top level",
            ));
        }
        if op.attr(tile_dialect::ops::KERNEL_ATTR).is_none() {
            return Err(PassError::at(
                op,
                "is not a tile kernel (no tile.kernel attribute); helper functions are not supported",
            ));
        }
        let mut e = Emitter::new(&m, warps);
        funcs.push(e.kernel(op)?);
        shared_bytes = shared_bytes.max(e.shared_bytes());
    }
    let mut out = String::new();
    let mut attrs: Vec<String> = vec!["gpu.container_module".into()];
    for (n, v) in &m.attrs {
        attrs.push(format!("\"{n}\" = {v}"));
    }
    out.push_str(&format!("module attributes {{{}}} {{\n", attrs.join(", ")));
    out.push_str(&format!("  gpu.module @{GPU_MODULE} {{\n"));
    if shared_bytes > 0 {
        out.push_str(&format!(
            "    llvm.mlir.global internal @{}() {{addr_space = 3 : i32, alignment = 16 : i64}} : !llvm.array<{shared_bytes} x i8>\n",
            emit::SHARED
        ));
    }
    for f in funcs {
        out.push_str(&f);
    }
    out.push_str("  }\n}\n");
    Ok(out)
}

/// The words of the error for an op this pass cannot lower yet (kept for
/// ops added to the dialect before their lowering).
pub const NOT_LOWERED_YET: &str = "cannot be lowered to SIMT code yet";

/// The failure for an op this pass does not lower.
pub(crate) fn unsupported(op: &Op) -> PassError {
    PassError::at(op, NOT_LOWERED_YET)
}
