//! The tile verifier: what IRDL cannot check, checked on MLIR operations
//! with the same [`crate::rules`] the builder applies.
//!
//! Failures are emitted as MLIR error diagnostics at the op's location, so
//! they read like MLIR's own verifier errors.

use crate::diagnostics::DiagnosticCapture;
use crate::error::{Diagnostic, Rule};
use crate::limits;
use crate::ops::Hint;
use crate::rules;
use crate::types::TileType;
use crate::view::{Constant, ConstantValue, attr};
use crate::view::{TileOp, TypeTable};
use melior::ir::operation::{OperationLike, OperationRef, WalkOrder, WalkResult};
use melior::ir::{BlockLike, RegionLike};
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

/// Checks every tile op nested in `root`, and every op against the
/// [`limits`] (tile sizes, nesting, literals, loop steps,
/// division by zero), emitting an MLIR error for each failure (to whatever
/// diagnostic handler is attached). Returns whether all passed.
pub fn verify_operation(root: &OperationRef) -> bool {
    let mut ok = true;
    // SAFETY: the context outlives the walk.
    let table = TypeTable::new(crate::context_of(root.context()));
    root.walk(WalkOrder::PreOrder, |op| {
        let name = crate::view::op_name(&op);
        let checked = check_limits(&op, name)
            .and_then(|()| check_hints(&table, &op))
            .and_then(|()| {
                if name.starts_with("tile.") {
                    check(&table, &op)
                } else {
                    Ok(())
                }
            });
        if let Err(rule) = checked {
            emit_error(&op, &format!("'{name}' op {rule}"));
            ok = false;
        }
        WalkResult::Advance
    });
    ok
}

/// The integer ops whose second operand must not be zero.
const DIVISIONS: &[&str] = &[
    "arith.divsi",
    "arith.divui",
    "arith.remsi",
    "arith.remui",
    "arith.ceildivsi",
    "arith.ceildivui",
    "arith.floordivsi",
];

/// What every op, of any dialect, is held to: see [`crate::limits`].
fn check_limits(op: &OperationRef, name: &str) -> Result<(), Rule> {
    for i in 0..op.result_count() {
        let ty = op.result(i).expect("counted").r#type();
        limits::check_tile(&crate::view::tensor_shape(ty))?;
    }
    check_signature_limits(op)?;
    if op.region_count() > 0 {
        limits::check_depth(region_depth(op))?;
    }
    if !crate::ops::takes_fp8(name) {
        let types = op
            .operands()
            .map(|v| v.r#type())
            .chain(op.results().map(|r| r.r#type()));
        for ty in types {
            if let Some(d) = crate::view::dtype_of(crate::view::element_type(ty))
                && d.is_fp8()
            {
                return Err(Rule::Fp8Arithmetic {
                    dtype: d.to_string(),
                });
            }
        }
    }
    match name {
        "scf.for" => {
            if let Some(step) = op.operand(2).ok().and_then(Constant::of_value)
                && step.as_i64() <= 0
            {
                return Err(Rule::NonPositiveStep {
                    step: step.as_i64(),
                });
            }
            // The stages a user asked of the loop, and those the pipeliner
            // chose (which IR written by hand may carry too): each sizes a
            // ring of buffers, so both are held to the same range.
            for name in [crate::ops::LOOP_STAGES_ATTR, crate::ops::NUM_STAGES_ATTR] {
                if op.has_attribute(name) {
                    let stages = crate::view::attr::int(op, name)?;
                    if !(1..=i64::from(crate::limits::MAX_NUM_STAGES)).contains(&stages) {
                        return Err(Rule::LoopStages { stages });
                    }
                }
            }
        }
        "arith.constant" => {
            if let Ok(Some(c)) = Constant::read(op)
                && let ConstantValue::Float(v) = c.value
                && let Some(d) = op
                    .result(0)
                    .ok()
                    .and_then(|r| crate::view::dtype_of(crate::view::element_type(r.r#type())))
            {
                limits::check_literal(v, d)?;
            }
        }
        _ if DIVISIONS.contains(&name)
            && op
                .operand(1)
                .ok()
                .and_then(Constant::of_value)
                .is_some_and(|c| c.as_i64() == 0) =>
        {
            return Err(Rule::DivisionByZero);
        }
        _ => {}
    }
    Ok(())
}

/// The tile limit on the types values get without an op making them: the
/// arguments of `op`'s blocks (a kernel's arguments, a loop's carried
/// values) and, for a function, its declared argument and result types
/// (a declaration has no body). Checked before any pass allocates for them.
fn check_signature_limits(op: &OperationRef) -> Result<(), Rule> {
    for r in 0..op.region_count() {
        let mut block = op.region(r).ok().and_then(|region| region.first_block());
        while let Some(b) = block {
            for i in 0..b.argument_count() {
                let ty = b.argument(i).expect("counted").r#type();
                limits::check_tile(&crate::view::tensor_shape(ty))?;
            }
            block = b.next_in_region();
        }
    }
    if let Ok(attr) = op.attribute("function_type")
        && let Ok(ty) = melior::ir::attribute::TypeAttribute::try_from(attr)
        && let Ok(f) = melior::ir::r#type::FunctionType::try_from(ty.value())
    {
        let inputs = (0..f.input_count()).filter_map(|i| f.input(i).ok());
        let results = (0..f.result_count()).filter_map(|i| f.result(i).ok());
        for t in inputs.chain(results) {
            limits::check_tile(&crate::view::tensor_shape(t))?;
        }
    }
    Ok(())
}

/// The depth of the regions of `op`: 1 for a function's body (the ops a
/// module holds are at depth 0), one more for each op around it. Counted
/// up to one past the limit.
fn region_depth(op: &OperationRef) -> usize {
    let mut depth = 1;
    let mut at = op.parent_operation();
    while let Some(parent) = at {
        if crate::view::op_name(&parent) == "builtin.module" || depth > limits::MAX_NESTING_DEPTH {
            break;
        }
        depth += 1;
        at = parent.parent_operation();
    }
    depth
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

/// The hints of any op (`tile.multiple_of`, ...): on its only result, of
/// an integer or pointer type, with the values [`rules::hint`] allows.
fn check_hints<'c>(table: &TypeTable<'c>, op: &OperationRef<'c, '_>) -> Result<(), Rule> {
    for hint in Hint::ALL {
        if !op.has_attribute(hint.attribute()) {
            continue;
        }
        let values = attr::i32_array(op, hint.attribute())?;
        if op.result_count() != 1 || op.region_count() != 0 {
            return Err(Rule::HintTarget { hint: hint.name() });
        }
        let ty = op.result(0).expect("counted above").r#type();
        let ty = table.tile_type(ty).ok_or_else(|| Rule::HintType {
            hint: hint.name(),
            ty: ty.to_string(),
        })?;
        rules::hint(hint, &ty, &values)?;
    }
    Ok(())
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
        TileOp::Reduce(r) => Some(rules::reduce(
            &operand(r.src)?,
            r.kind,
            r.axis,
            r.keep_dims,
        )?),
        TileOp::Scan(s) => Some(rules::scan(&operand(s.src)?, s.axis)?),
        TileOp::AtomicRmw(a) => Some(rules::atomic_rmw(
            &operand(a.ptr)?,
            &operand(a.val)?,
            a.mask.map(operand).transpose()?.as_ref(),
            a.kind,
        )?),
        TileOp::AtomicCas(a) => Some(rules::atomic_cas(
            &operand(a.ptr)?,
            &operand(a.cmp)?,
            &operand(a.val)?,
        )?),
        TileOp::Dot(d) => Some(rules::dot(
            &operand(d.a)?,
            &operand(d.b)?,
            Some(&operand(d.acc)?),
            d.precision,
        )?),
        TileOp::Print(p) => {
            rules::print(p.value.map(operand).transpose()?.as_ref())?;
            None
        }
        TileOp::Assert(a) => {
            rules::assert(&operand(a.condition)?)?;
            None
        }
        TileOp::Reshape(u) => Some(rules::reshape(&operand(u.src)?, result_shape())?),
        TileOp::Permute(p) => Some(rules::permute(&operand(p.src)?, &p.order)?),
        TileOp::Join(j) => Some(rules::join(&operand(j.lhs)?, &operand(j.rhs)?)?),
        TileOp::Cat(c) => Some(rules::cat(&operand(c.lhs)?, &operand(c.rhs)?, c.axis)?),
        TileOp::Split(u) => {
            // Both halves have the one type the rule gives.
            let half = rules::split(&operand(u.src)?)?;
            if op.result_count() != 2 {
                return Err(Rule::BadAttribute {
                    name: "(results)",
                    expected: "two halves",
                });
            }
            let rhs = tile_type(table, "result", op.result(1).expect("counted").r#type())?;
            if rhs != half {
                return Err(Rule::ResultMismatch {
                    expected: half.to_string(),
                    found: rhs.to_string(),
                });
            }
            Some(half)
        }
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
