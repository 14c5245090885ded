//! `tile-remove-conversions`: removes layout conversions whose source is
//! cheap to compute again in the wanted layout, and moves the others that
//! a loop repeats with the same source out of the loop.
//!
//! - **Rematerialization.** A `tile.convert_layout` of a value computed
//!   from scalars and constants alone (`arange`, `splat`, constants,
//!   `expand_dims`, `broadcast`, `addptr` and elementwise arithmetic,
//!   through earlier conversions) is replaced by the same ops built again
//!   with results in the wanted layout, each placed just after the op it
//!   copies: an index vector used along two axes (tutorial 03's `offs_k`
//!   for A's columns and B's rows) becomes two index vectors, with no
//!   trip through shared memory. Ops the original value still needs stay;
//!   those no longer used are erased.
//! - **Hoisting.** Any other conversion inside a loop whose source is
//!   defined before the loop moves to just after its source: it runs
//!   once, not every iteration.
//!
//! A conversion whose source reads memory or a loop-carried value stays
//! (it may change every iteration); so does one whose source slice is
//! larger than [`MAX_OPS`].

use crate::edit::{self, key};
use crate::pass::{PassError, PassId, PassInfo, PassResult, kernel_pass};
use melior::ir::attribute::{AttributeLike, DenseElementsAttribute};
use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
use melior::ir::{BlockLike, OperationRef, Type, Value, ValueLike};
use melior::pass::Pass;
use std::collections::HashMap;
use tile_coalesce::Layout;
use tile_dialect::ops::CONVERT_LAYOUT;
use tile_dialect::view::{TileOp, TypeTable, op_name};

static PASS_ID: PassId = PassId;

/// The flag of this pass.
pub const FLAG: &str = "tile-remove-conversions";

/// What `--help` says of it.
pub const INFO: PassInfo = PassInfo {
    name: "TileRemoveConversions",
    flag: FLAG,
    summary: "compute cheap values again in the layout a conversion wants; hoist loop-invariant conversions",
};

/// The most ops one conversion's source may be rebuilt from.
pub const MAX_OPS: usize = 24;

/// Creates the `tile-remove-conversions` pass (on kernels).
pub fn create() -> Pass {
    kernel_pass(&PASS_ID, &INFO, remove_conversions)
}

/// Removes or hoists the conversions of `func` (see the module docs).
pub fn remove_conversions(func: &OperationRef) -> PassResult {
    let types = TypeTable::new(tile_dialect::context_of(func.context()));
    let mut conversions = Vec::new();
    func.walk(WalkOrder::PreOrder, |op| {
        if op_name(&op) == CONVERT_LAYOUT {
            conversions.push(op.to_raw());
        }
        WalkResult::Advance
    });
    let mut erased = std::collections::HashSet::new();
    for raw in conversions {
        if erased.contains(&(raw.ptr as usize)) {
            continue;
        }
        // SAFETY: the conversions collected are live: the ones erased
        // (handled, or found unused on a rebuilt value's way) are skipped.
        let op = unsafe { OperationRef::from_raw(raw) };
        let result: Value = op
            .result(0)
            .map_err(|e| PassError::at(&op, e.to_string()))?
            .into();
        let Some(want) = types.layout(result.r#type()).ok().flatten() else {
            continue;
        };
        let src = op
            .operand(0)
            .map_err(|e| PassError::at(&op, e.to_string()))?;
        let mut plan = Vec::new();
        if plan_rebuild(&types, src, &want, &mut plan) {
            let mut built = HashMap::new();
            let rebuilt = rebuild(&types, &plan, src, &want, &mut built, &op)?;
            edit::replace_all_uses(result, rebuilt);
            erased.insert(op.to_raw().ptr as usize);
            edit::erase(op);
            for (v, _) in plan.iter().rev() {
                if let Some(gone) = erase_if_unused(*v) {
                    erased.insert(gone);
                }
            }
        } else {
            hoist(&op, src);
        }
    }
    Ok(())
}

/// Collects into `plan` (sources first) each value of `v`'s slice and the
/// layout it is wanted in; false when the slice holds an op that cannot
/// be rebuilt (a load, a carried value) or more than [`MAX_OPS`] ops.
fn plan_rebuild<'c: 'a, 'a>(
    types: &TypeTable<'c>,
    v: Value<'c, 'a>,
    want: &Layout,
    plan: &mut Vec<(Value<'c, 'a>, Layout)>,
) -> bool {
    let Some(layout) = types.layout(v.r#type()).ok().flatten() else {
        // A scalar: used as it is.
        return true;
    };
    if &layout == want || plan.iter().any(|(x, l)| *x == v && l == want) {
        return true;
    }
    if plan.len() >= MAX_OPS {
        return false;
    }
    let Some(result) = edit::as_result(v) else {
        return false;
    };
    let op = result.owner();
    if op.result_count() != 1 || op.regions().next().is_some() {
        return false;
    }
    let name = op_name(&op);
    let wants: Vec<(Value<'c, 'a>, Layout)> =
        match TileOp::read(&op, |x| types.tile_type(x.r#type())) {
            Ok(Some(TileOp::Arange(_))) => vec![],
            Ok(Some(TileOp::Splat(_))) => vec![],
            Ok(Some(TileOp::ExpandDims(e))) => vec![(e.src, want.slice(e.axis as usize))],
            Ok(Some(TileOp::Broadcast(u))) => vec![(u.src, want.clone())],
            Ok(Some(TileOp::ConvertLayout(u))) => vec![(u.src, want.clone())],
            Ok(Some(TileOp::AddPtr(a))) => vec![(a.ptr, want.clone()), (a.offset, want.clone())],
            Ok(Some(_)) | Err(_) => return false,
            Ok(None) if name == "arith.constant" => vec![],
            Ok(None) if name.starts_with("arith.") => {
                op.operands().map(|o| (o, want.clone())).collect()
            }
            Ok(None) => return false,
        };
    for (operand, layout) in wants {
        if !plan_rebuild(types, operand, &layout, plan) {
            return false;
        }
    }
    plan.push((v, want.clone()));
    true
}

/// Builds the values of `plan` again in their wanted layouts, each just
/// after the op it copies; returns `root`'s copy in `want`.
fn rebuild<'c, 'a>(
    types: &TypeTable<'c>,
    plan: &[(Value<'c, 'a>, Layout)],
    root: Value<'c, 'a>,
    want: &Layout,
    built: &mut HashMap<(usize, Layout), Value<'c, 'a>>,
    at: &OperationRef<'c, 'a>,
) -> Result<Value<'c, 'a>, PassError> {
    for (v, layout) in plan {
        if built.contains_key(&(key(*v), layout.clone())) {
            continue;
        }
        let original = edit::as_result(*v)
            .ok_or_else(|| PassError::at(at, "rebuilds a value that no op defines"))?
            .owner();
        let copy = if op_name(&original) == CONVERT_LAYOUT {
            // A conversion on the way is skipped: its source is wanted in
            // the layout directly.
            let src = original
                .operand(0)
                .map_err(|e| PassError::at(at, e.to_string()))?;
            lookup(types, built, src, layout)
        } else {
            let clone = edit::clone_op(&original);
            let clone = edit::insert_after(&original, clone);
            let operands: Vec<Value> = original
                .operands()
                .enumerate()
                .map(|(i, o)| {
                    operand_layout(types, &original, i, layout)
                        .map_or(o, |l| lookup(types, built, o, &l))
                })
                .collect();
            edit::set_operands(&clone, &operands);
            let out: Value = clone
                .result(0)
                .map_err(|e| PassError::at(at, e.to_string()))?
                .into();
            let ty: Type = types.with_layout(v.r#type(), Some(layout));
            out.set_type(ty);
            retype_constant(&clone, ty);
            out
        };
        built.insert((key(*v), layout.clone()), copy);
    }
    Ok(lookup(types, built, root, want))
}

/// The layout operand `i` of `op` is rebuilt in when its result is
/// rebuilt in `layout` (`None` for scalars, kept as they are).
fn operand_layout<'c>(
    types: &TypeTable<'c>,
    op: &OperationRef<'c, '_>,
    i: usize,
    layout: &Layout,
) -> Option<Layout> {
    let operand = op.operand(i).ok()?;
    types.layout(operand.r#type()).ok().flatten()?;
    match TileOp::read(op, |x| types.tile_type(x.r#type())) {
        Ok(Some(TileOp::ExpandDims(e))) => Some(layout.slice(e.axis as usize)),
        _ => Some(layout.clone()),
    }
}

/// `v` in `layout`: itself when it has it, else its rebuilt copy.
fn lookup<'c, 'a>(
    types: &TypeTable<'c>,
    built: &HashMap<(usize, Layout), Value<'c, 'a>>,
    v: Value<'c, 'a>,
    layout: &Layout,
) -> Value<'c, 'a> {
    if types.layout(v.r#type()).ok().flatten().as_ref() == Some(layout) {
        return v;
    }
    built.get(&(key(v), layout.clone())).copied().unwrap_or(v)
}

/// A copied tensor constant carries its type in its value too.
fn retype_constant(op: &OperationRef, ty: Type) {
    if op_name(op) != "arith.constant" {
        return;
    }
    if let Ok(value) = op.attribute("value")
        && let Ok(dense) = DenseElementsAttribute::try_from(value)
        && dense.r#type() != ty
    {
        let retyped = if dense.is_splat() {
            DenseElementsAttribute::splat(ty, dense.splat_value())
        } else {
            dense.reshape(ty)
        };
        edit::set_attribute(op, "value", retyped.into());
    }
}

/// Erases the op defining `v` (pure: one of a rebuilt slice) when
/// nothing uses its result any more; returns the erased op's handle.
fn erase_if_unused(v: Value) -> Option<usize> {
    if edit::has_uses(v) {
        return None;
    }
    let op = edit::as_result(v)?.owner();
    if op.result_count() != 1 {
        return None;
    }
    let handle = op.to_raw().ptr as usize;
    edit::erase(op);
    Some(handle)
}

/// Moves the conversion `op` of `src` out of the loops around it that do
/// not define `src`: to just after `src`'s definition (or the start of
/// its block, for a block argument).
fn hoist<'c, 'a>(op: &OperationRef<'c, 'a>, src: Value<'c, 'a>) {
    let Some(block) = op.block() else {
        return;
    };
    let src_block = match edit::as_result(src) {
        Some(r) => r.owner().block(),
        // SAFETY: a live block argument's owner block is read, not kept.
        None => unsafe {
            melior::ir::BlockRef::from_option_raw(mlir_sys::mlirBlockArgumentGetOwner(src.to_raw()))
        },
    };
    let Some(src_block) = src_block else {
        return;
    };
    if src_block == block {
        return;
    }
    // Only out of loops: the source's block must enclose the conversion's
    // through `scf.for`/`scf.while` bodies alone (never out of a branch,
    // which might not run).
    let mut at = block;
    loop {
        let Some(parent) = at.parent_operation() else {
            return;
        };
        if !matches!(op_name(&parent), "scf.for" | "scf.while") {
            return;
        }
        let Some(outer) = parent.block() else {
            return;
        };
        if outer == src_block {
            break;
        }
        at = outer;
    }
    let moved = edit::clone_op(op);
    let placed = match edit::as_result(src) {
        Some(r) => edit::insert_after(&r.owner(), moved),
        None => match src_block.first_operation() {
            Some(first) => edit::insert_before(&first, moved),
            None => return,
        },
    };
    let old: Value = op.result(0).expect("a conversion's result").into();
    let new: Value = placed.result(0).expect("a conversion's result").into();
    edit::replace_all_uses(old, new);
    edit::erase(*op);
}
