//! `tile-vectorize`: decides how many elements each load, store and atomic
//! add moves per access, and records it as `tile.vector_width` on the op
//! (the lowering of an atomic uses it where the target has a vector form:
//! `atom.add.v4.f32` on sm_90 with PTX 8.1).
//!
//! The width along the tile's fastest register axis (the first axis of its
//! layout's order) is the largest power of two that
//! - the thread holds contiguously in consecutive registers,
//! - the addresses run consecutively for ([`AxisInfo`] contiguity),
//! - their alignment allows (divisibility in bytes),
//! - the mask (or bounds check) stays uniform for, and
//! - fits in 16 bytes (and moves at least a 32-bit word),
//!
//! all from the axis analysis ([`AxisAnalysis`]). Accesses that move one
//! element at a time get no attribute. Runs after `tile-predicate`, so the
//! masks it sees are the ones the lowering predicates on.
//!
//! [`AxisInfo`]: tile_coalesce::AxisInfo
//!
//! ```
//! # use melior::pass::PassManager;
//! # use tile_dialect::{DType, Kernel};
//! # let context = tile_dialect::new_context().unwrap();
//! # tile_passes::register_all(&context).unwrap();
//! let kernel = Kernel::build(&context, "copy", |k| {
//!     let x = k.arg_ptr("x", DType::F32);
//!     let y = k.arg_ptr("y", DType::F32);
//!     let n = k.arg("n", DType::I32);
//!     let offs = k.program_id(0) * 128 + k.arange(0, 128);
//!     let v = k.load(x + offs).mask(offs.lt(n)).build();
//!     k.store(y + offs, v).mask(offs.lt(n)).build();
//! })
//! .unwrap();
//! # let mut module = tile_passes::parse_module(&context, &kernel.to_string(), "copy").unwrap();
//! # let pm = PassManager::new(&context);
//! # let run = |pm: &PassManager, module: &mut melior::ir::Module| pm.run(module).unwrap();
//! // Loads and stores get the widest access the facts allow (here none
//! // are known of `x`, `y` and `n`: one element a thread at a time).
//! tile_passes::pipeline::add_pipeline(&pm.as_operation_pass_manager(), "builtin.module(func.func(tile-assign-layouts,tile-predicate),tile-vectorize)")
//!     .unwrap();
//! run(&pm, &mut module);
//! let text = tile_passes::print_module(&module, false);
//! assert!(text.contains("tile.load"), "{text}");
//! ```

use crate::axis_analysis::AxisAnalysis;
use crate::edit;
use crate::pass::{PassError, PassId, PassInfo, PassResult, kernel_pass};
use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
use melior::ir::{OperationRef, Value, ValueLike};
use melior::pass::Pass;
use tile_coalesce::Distribution;
use tile_dialect::view::{TileOp, TypeTable, attr, tensor_shape};

pub use tile_dialect::ops::VECTOR_WIDTH_ATTR;

static PASS_ID: PassId = PassId;

/// The flag of this pass.
pub const FLAG: &str = "tile-vectorize";

/// What `--help` says of it.
pub const INFO: PassInfo = PassInfo {
    name: "TileVectorize",
    flag: FLAG,
    summary: "give loads and stores the widest access alignment, contiguity and masks allow",
};

/// Creates the `tile-vectorize` pass (on kernels; see [`crate::pass`]).
pub fn create() -> Pass {
    kernel_pass(&PASS_ID, &INFO, vectorize)
}

/// Sets `tile.vector_width` on every load and store of the kernel `func`
/// that can move more than one element per access (and removes it from
/// those that cannot).
pub fn vectorize(func: &OperationRef) -> PassResult {
    let context = tile_dialect::context_of(func.context());
    let types = TypeTable::new(context);
    let analysis = AxisAnalysis::run(&types, func);
    let mut widths = Vec::new();
    let mut failure = None;
    func.walk(WalkOrder::PreOrder, |op| {
        let Ok(Some(view)) = TileOp::read(&op, |v| types.tile_type(v.r#type())) else {
            return WalkResult::Advance;
        };
        let access = match &view {
            // Adds are the atomics with vector forms (`atom.add.v4.f32`).
            TileOp::AtomicRmw(a) if a.kind == tile_dialect::AtomicKind::Add => {
                analysis.atomic_access(a)
            }
            _ => analysis.access(&view),
        };
        let Some(access) = access else {
            return WalkResult::Advance;
        };
        let tensor: Value = match &view {
            TileOp::Load(_) | TileOp::BlockLoad(_) => match crate::edit::result_of(&op, 0) {
                Some(r) => r.into(),
                None => return WalkResult::Advance,
            },
            TileOp::Store(s) => s.value,
            TileOp::BlockStore(s) => s.value,
            TileOp::AtomicRmw(a) => a.ptr,
            _ => return WalkResult::Advance,
        };
        match held_along_fastest(&types, tensor) {
            Ok((axis, held)) => widths.push((op.to_raw(), access.vector_width_within(axis, held))),
            Err(e) => {
                failure = Some(PassError::at(&op, e));
                return WalkResult::Interrupt;
            }
        }
        WalkResult::Advance
    });
    if let Some(e) = failure {
        return Err(e);
    }
    for (raw, width) in widths {
        // SAFETY: the ops collected above are live: this pass erases none.
        let op = unsafe { OperationRef::from_raw(raw) };
        if width > 1 {
            edit::set_attribute(&op, VECTOR_WIDTH_ATTR, attr::i32_attr(context, width));
        } else {
            edit::remove_attribute(&op, VECTOR_WIDTH_ATTR);
        }
    }
    Ok(())
}

/// The tensor axis a thread's consecutive registers run along, and how
/// many elements it holds contiguously there.
pub fn held_along_fastest<'c>(
    types: &TypeTable<'c>,
    tensor: Value<'c, '_>,
) -> Result<(usize, i64), String> {
    let ty = tensor.r#type();
    let shape = tensor_shape(ty);
    if shape.is_empty() {
        return Err(format!("expects a tensor, got {ty}"));
    }
    let layout = types
        .layout(ty)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("the tensor {ty} has no layout; run tile-assign-layouts first"))?;
    let dist = Distribution::new(&layout, &shape).map_err(|e| e.to_string())?;
    dist.contiguous_registers()
        .ok_or_else(|| format!("the layout of {ty} has no axis"))
}
