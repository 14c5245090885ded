//! `tile-vectorize`: decides how many elements each load and store moves
//! per access, and records it as `tile.vector_width` on the op.
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

use crate::axis_analysis::AxisAnalysis;
use crate::mirror::{Mirror, ValueId};
use crate::rewrite::{PassError, run_mirror_edit};
use melior::ir::OperationRef;
use melior::ir::r#type::TypeId;
use melior::pass::{ExternalPass, Pass, create_external};
use tile_coalesce::{Distribution, Layout};
use tile_dialect::{TileType, ops};

#[repr(align(8))]
struct PassId;
static PASS_ID: PassId = PassId;

/// The flag of this pass.
pub const FLAG: &str = "tile-vectorize";

/// The attribute holding the elements per access of a load or store.
pub const VECTOR_WIDTH_ATTR: &str = "tile.vector_width";

/// Creates the `tile-vectorize` pass (runs on `builtin.module`).
pub fn create() -> Pass {
    create_external(
        |op: OperationRef<'_, '_>, pass: ExternalPass<'_>| {
            run_mirror_edit(&op, &pass, FLAG, vectorize);
        },
        TypeId::create(&PASS_ID),
        "TileVectorize",
        FLAG,
        "give loads and stores the widest access their alignment, contiguity and mask allow",
        "builtin.module",
        &[],
    )
}

/// Sets `tile.vector_width` on every load and store of `m` that can move
/// more than one element per access.
pub fn vectorize(m: &mut Mirror) -> Result<(), PassError> {
    let analysis = AxisAnalysis::run(m);
    let mut widths: Vec<Option<i64>> = Vec::new();
    let mut failure = None;
    m.for_each_op(&mut |op| {
        let width = analysis.access(m, op).and_then(|access| {
            let tensor = match op.name.as_str() {
                ops::LOAD | ops::BLOCK_LOAD => op.results[0],
                _ => op.operands[1],
            };
            match held_along_fastest(m, tensor) {
                Ok((axis, held)) => Some(access.vector_width(axis).min(held)),
                Err(e) => {
                    failure.get_or_insert(PassError::at(op, e));
                    None
                }
            }
        });
        widths.push(width);
    });
    if let Some(e) = failure {
        return Err(e);
    }
    let mut next = widths.into_iter();
    m.for_each_op_mut(&mut |op| {
        if let Some(Some(w)) = next.next() {
            if w > 1 {
                op.set_attr(VECTOR_WIDTH_ATTR, format!("{w} : i32"));
            } else {
                op.attrs.retain(|(n, _)| n != VECTOR_WIDTH_ATTR);
            }
        }
    });
    Ok(())
}

/// The tensor axis a thread's consecutive registers run along, and how
/// many elements it holds contiguously there.
pub fn held_along_fastest(m: &Mirror, tensor: ValueId) -> Result<(usize, i64), String> {
    let ty = &m.values[tensor].ty;
    let shape = match TileType::parse(ty) {
        Some(TileType::Tensor { shape, .. }) => shape,
        _ => return Err(format!("expects a tensor, got {ty}")),
    };
    let layout = Layout::of_type(ty)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("the tensor {ty} has no layout; run tile-assign-layouts first"))?;
    let dist = Distribution::new(&layout, &shape).map_err(|e| e.to_string())?;
    dist.contiguous_registers()
        .ok_or_else(|| format!("the layout of {ty} has no axis"))
}
