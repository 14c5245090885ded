//! The tile verifier: what IRDL cannot check, checked on MLIR operations
//! with the same [`crate::rules`] the builder applies.
//!
//! Failures are emitted as MLIR error diagnostics at the op's location, so
//! they read like MLIR's own verifier errors.

use crate::diagnostics::DiagnosticCapture;
use crate::error::{Diagnostic, Rule};
use crate::rules;
use crate::types::TileType;
use crate::view::{TileOp, TypeTable};
use melior::ir::operation::{OperationLike, OperationRef, WalkOrder, WalkResult};
use melior::ir::{Module, Type, Value, ValueLike};
use mlir_sys::mlirEmitError;
use std::ffi::CString;

/// Checks every tile op in `module`. Returns whether all passed and the
/// diagnostics for those that did not (each also emitted through MLIR).
pub fn verify_module(module: &Module) -> (bool, Vec<Diagnostic>) {
    let capture = DiagnosticCapture::new(crate::context_of(module.context()));
    let ok = verify_operation(&module.as_operation());
    (ok, capture.finish())
}

/// Checks every tile op nested in `root`, emitting an MLIR error for each
/// failure (to whatever diagnostic handler is attached). Returns whether all
/// passed.
pub fn verify_operation(root: &OperationRef) -> bool {
    let mut ok = true;
    // SAFETY: the context outlives the walk.
    let table = TypeTable::new(crate::context_of(root.context()));
    root.walk(WalkOrder::PreOrder, |op| {
        let name = crate::view::op_name(&op);
        if name.starts_with("tile.")
            && let Err(rule) = check(&table, &op)
        {
            emit_error(&op, &format!("'{name}' op {rule}"));
            ok = false;
        }
        WalkResult::Advance
    });
    ok
}

fn emit_error(op: &OperationRef, message: &str) {
    let message = CString::new(message.replace('\0', " ")).expect("no interior NULs");
    // SAFETY: the location belongs to a live op; MLIR copies the message.
    unsafe { mlirEmitError(op.location().to_raw(), message.as_ptr()) };
}

fn forbid(op: &OperationRef, name: &'static str, rule: Rule) -> Result<(), Rule> {
    if op.has_attribute(name) {
        Err(rule)
    } else {
        Ok(())
    }
}

/// The tile type of a value, or the rule an op breaks by using it.
fn tile_type<'c>(
    table: &TypeTable<'c>,
    what: &'static str,
    ty: Type<'c>,
) -> Result<TileType, Rule> {
    table.tile_type(ty).ok_or_else(|| Rule::WrongOperand {
        what,
        expected: "a tile IR type",
        found: ty.to_string(),
    })
}

fn check<'c>(table: &TypeTable<'c>, op: &OperationRef<'c, '_>) -> Result<(), Rule> {
    let operand = |v: Value<'c, '_>| tile_type(table, "operand", v.r#type());
    // Asked only when there is one: melior's error for a missing result
    // prints the op, which prints (and verifies) the whole module.
    let result = match op.result_count() {
        0 => None,
        _ => Some(tile_type(
            table,
            "result",
            op.result(0).expect("counted above").r#type(),
        )?),
    };
    let result_shape = || result.as_ref().map_or(&[][..], |r| r.shape());
    let view =
        TileOp::read(op, |v| table.tile_type(v.r#type()))?.expect("only tile ops are checked");
    let expected = match view {
        TileOp::ProgramId(g) | TileOp::NumPrograms(g) => Some(rules::program_id(g.axis)?),
        TileOp::Arange(a) => Some(rules::arange(a.start, a.end)?),
        TileOp::Splat(u) => Some(rules::splat(&operand(u.src)?, result_shape())?),
        TileOp::Broadcast(u) => Some(rules::broadcast(&operand(u.src)?, result_shape())?),
        TileOp::ExpandDims(e) => Some(rules::expand_dims(&operand(e.src)?, e.axis)?),
        TileOp::AddPtr(a) => Some(rules::addptr(&operand(a.ptr)?, &operand(a.offset)?)?),
        TileOp::Load(l) => {
            forbid(op, "boundary_check", Rule::BoundaryCheckWithoutBlockPointer)?;
            forbid(op, "padding", Rule::PaddingWithoutBlockPointer)?;
            let mask = l.mask.map(operand).transpose()?;
            let other = l.other.map(operand).transpose()?;
            Some(rules::load(
                &operand(l.ptr)?,
                mask.as_ref(),
                other.as_ref(),
                l.access.cache,
            )?)
        }
        TileOp::Store(s) => {
            forbid(op, "boundary_check", Rule::BoundaryCheckWithoutBlockPointer)?;
            let mask = s.mask.map(operand).transpose()?;
            rules::store(
                &operand(s.ptr)?,
                &operand(s.value)?,
                mask.as_ref(),
                s.access.cache,
            )?;
            None
        }
        TileOp::MakeBlockPtr(m) => Some(rules::make_block_ptr(
            &operand(m.base)?,
            m.shape.len(),
            m.strides.len(),
            m.offsets.len(),
            result_shape(),
            &m.order,
        )?),
        TileOp::Advance(a) => Some(rules::advance(&operand(a.ptr)?, a.offsets.len())?),
        TileOp::BlockLoad(l) => Some(rules::block_load(
            &operand(l.ptr)?,
            &l.boundary_check,
            l.padding,
            l.access.cache,
        )?),
        TileOp::BlockStore(s) => {
            rules::block_store(
                &operand(s.ptr)?,
                &operand(s.value)?,
                &s.boundary_check,
                s.access.cache,
            )?;
            None
        }
        TileOp::Reduce(r) => Some(rules::reduce(&operand(r.src)?, r.axis, r.keep_dims)?),
        TileOp::Dot(d) => Some(rules::dot(
            &operand(d.a)?,
            &operand(d.b)?,
            Some(&operand(d.acc)?),
            d.precision,
        )?),
        // A layout conversion keeps the shape and element; only the
        // encoding (not part of `TileType`) changes.
        TileOp::ConvertLayout(u) => Some(operand(u.src)?),
    };
    if let (Some(expected), Some(found)) = (expected, result)
        && expected != found
    {
        return Err(Rule::ResultMismatch {
            expected: expected.to_string(),
            found: found.to_string(),
        });
    }
    Ok(())
}
