//! The tile verifier: what IRDL cannot check, checked on MLIR operations
//! with the same [`rules`](crate::rules) the builder applies.
//!
//! Failures are emitted as MLIR error diagnostics at the op's location, so
//! they read like MLIR's own verifier errors.

use crate::diagnostics::DiagnosticCapture;
use crate::error::{Diagnostic, Rule};
use crate::ops::{self, CacheModifier, Padding};
use crate::rules;
use crate::types::TileType;
use melior::ir::attribute::AttributeLike;
use melior::ir::attribute::{
    BoolAttribute, DenseI32ArrayAttribute, FloatAttribute, IntegerAttribute, StringAttribute,
};
use melior::ir::operation::{OperationLike, OperationRef, WalkOrder, WalkResult};
use melior::ir::{Attribute, Module, ValueLike};
use mlir_sys::mlirEmitError;
use std::ffi::CString;

/// Checks every tile op in `module`. Returns whether all passed and the
/// diagnostics for those that did not (each also emitted through MLIR).
pub fn verify_module(module: &Module) -> (bool, Vec<Diagnostic>) {
    let context = module.context();
    let capture = DiagnosticCapture::new(unsafe { context.to_ref() });
    let ok = verify_operation(&module.as_operation());
    (ok, capture.finish())
}

/// Checks every tile op nested in `root`, emitting an MLIR error for each
/// failure (to whatever diagnostic handler is attached). Returns whether all
/// passed.
pub fn verify_operation(root: &OperationRef) -> bool {
    let mut ok = true;
    root.walk(WalkOrder::PreOrder, |op| {
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or("");
        if name.starts_with("tile.")
            && let Err(rule) = check(name, &op)
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

fn operand_types(op: &OperationRef) -> Result<Vec<TileType>, Rule> {
    op.operands()
        .map(|v| {
            let text = v.r#type().to_string();
            TileType::parse(&text).ok_or(Rule::WrongOperand {
                what: "operand",
                expected: "a tile IR type",
                found: text,
            })
        })
        .collect()
}

fn result_type(op: &OperationRef) -> Result<Option<TileType>, Rule> {
    match op.result(0) {
        Ok(r) => {
            let text = r.r#type().to_string();
            TileType::parse(&text).map(Some).ok_or(Rule::WrongOperand {
                what: "result",
                expected: "a tile IR type",
                found: text,
            })
        }
        Err(_) => Ok(None),
    }
}

fn attr<'c>(
    op: &OperationRef<'c, '_>,
    name: &'static str,
    expected: &'static str,
) -> Result<Attribute<'c>, Rule> {
    op.attribute(name)
        .map_err(|_| Rule::BadAttribute { name, expected })
}

fn int_attr(op: &OperationRef, name: &'static str) -> Result<i64, Rule> {
    let a = attr(op, name, "an integer")?;
    IntegerAttribute::try_from(a)
        .map(|i| i.signed_value())
        .map_err(|_| Rule::BadAttribute {
            name,
            expected: "an integer",
        })
}

fn axes_attr(op: &OperationRef, name: &'static str) -> Result<Vec<i64>, Rule> {
    let bad = Rule::BadAttribute {
        name,
        expected: "an array<i32: ...> of axes",
    };
    let a = attr(op, name, "an array<i32: ...> of axes")?;
    let array = DenseI32ArrayAttribute::try_from(a).map_err(|_| bad.clone())?;
    (0..array.len())
        .map(|i| array.element(i).map(i64::from).map_err(|_| bad.clone()))
        .collect()
}

/// The value of a string attribute. melior's `StringAttribute::value`
/// cannot read the empty string (MLIR gives it a null data pointer), so
/// this reads the bytes directly.
fn string_value(a: StringAttribute) -> String {
    // SAFETY: `a` is a live string attribute; MLIR owns the bytes, which
    // live as long as the context.
    let r = unsafe { mlir_sys::mlirStringAttrGetValue(a.to_raw()) };
    if r.length == 0 || r.data.is_null() {
        return String::new();
    }
    // SAFETY: MLIR guarantees `length` readable bytes at `data`.
    let bytes = unsafe { std::slice::from_raw_parts(r.data as *const u8, r.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

fn string_attr(op: &OperationRef, name: &'static str) -> Result<String, Rule> {
    let a = attr(op, name, "a string")?;
    StringAttribute::try_from(a)
        .map(string_value)
        .map_err(|_| Rule::BadAttribute {
            name,
            expected: "a string",
        })
}

fn cache_attr(op: &OperationRef) -> Result<CacheModifier, Rule> {
    let s = string_attr(op, "cache_modifier")?;
    [
        CacheModifier::Default,
        CacheModifier::CacheAll,
        CacheModifier::CacheGlobal,
        CacheModifier::WriteBack,
        CacheModifier::Streaming,
        CacheModifier::WriteThrough,
    ]
    .into_iter()
    .find(|c| c.name() == s)
    .ok_or(Rule::BadAttribute {
        name: "cache_modifier",
        expected: "a cache modifier",
    })
}

fn padding_attr(op: &OperationRef, ptr: &TileType) -> Result<Padding, Rule> {
    let a = attr(op, "padding", "zero, nan, undefined or a constant")?;
    if let Ok(s) = StringAttribute::try_from(a) {
        return Padding::from_name(&string_value(s)).ok_or(Rule::BadAttribute {
            name: "padding",
            expected: "zero, nan, undefined or a constant",
        });
    }
    let elem = match ptr {
        TileType::BlockPtr { dtype, .. } => dtype.mlir_name(),
        _ => "?",
    };
    let ty = a.r#type().to_string();
    if ty != elem {
        return Err(Rule::BadPadding {
            reason: format!("constant of type {ty} for elements of type {elem}"),
        });
    }
    if let Ok(f) = FloatAttribute::try_from(a) {
        return Ok(Padding::Value(f.value()));
    }
    if let Ok(i) = IntegerAttribute::try_from(a) {
        return Ok(Padding::Value(i.signed_value() as f64));
    }
    Err(Rule::BadAttribute {
        name: "padding",
        expected: "zero, nan, undefined or a constant",
    })
}

fn bool_attr(op: &OperationRef, name: &'static str) -> Result<bool, Rule> {
    let a = attr(op, name, "true or false")?;
    BoolAttribute::try_from(a)
        .map(|b| b.value())
        .map_err(|_| Rule::BadAttribute {
            name,
            expected: "true or false",
        })
}

/// How many operands each segment of a variadic op holds.
fn segments(op: &OperationRef) -> Result<Vec<usize>, Rule> {
    Ok(axes_attr(op, "operandSegmentSizes")?
        .into_iter()
        .map(|n| n as usize)
        .collect())
}

fn forbid(op: &OperationRef, name: &'static str, rule: Rule) -> Result<(), Rule> {
    if op.has_attribute(name) {
        Err(rule)
    } else {
        Ok(())
    }
}

fn check(name: &str, op: &OperationRef) -> Result<(), Rule> {
    let operands = operand_types(op)?;
    let result = result_type(op)?;
    let o = |i: usize| {
        operands.get(i).ok_or(Rule::BadAttribute {
            name: "(operands)",
            expected: "the op's operands",
        })
    };
    let expected = match name {
        ops::PROGRAM_ID | ops::NUM_PROGRAMS => Some(rules::program_id(int_attr(op, "axis")?)?),
        ops::ARANGE => Some(rules::arange(int_attr(op, "start")?, int_attr(op, "end")?)?),
        ops::SPLAT => Some(rules::splat(
            o(0)?,
            result.as_ref().map_or(&[][..], |r| r.shape()),
        )?),
        ops::BROADCAST => Some(rules::broadcast(
            o(0)?,
            result.as_ref().map_or(&[][..], |r| r.shape()),
        )?),
        ops::EXPAND_DIMS => Some(rules::expand_dims(o(0)?, int_attr(op, "axis")?)?),
        ops::ADDPTR => Some(rules::addptr(o(0)?, o(1)?)?),
        ops::LOAD => {
            forbid(op, "boundary_check", Rule::BoundaryCheckWithoutBlockPointer)?;
            forbid(op, "padding", Rule::PaddingWithoutBlockPointer)?;
            let seg = segments(op)?;
            let mask = (seg.get(1) == Some(&1)).then(|| o(1)).transpose()?;
            let other = (seg.get(2) == Some(&1))
                .then(|| o(1 + seg[1]))
                .transpose()?;
            Some(rules::load(o(0)?, mask, other, cache_attr(op)?)?)
        }
        ops::STORE => {
            forbid(op, "boundary_check", Rule::BoundaryCheckWithoutBlockPointer)?;
            let seg = segments(op)?;
            let mask = (seg.get(2) == Some(&1)).then(|| o(2)).transpose()?;
            rules::store(o(0)?, o(1)?, mask, cache_attr(op)?)?;
            None
        }
        ops::MAKE_BLOCK_PTR => {
            let seg = segments(op)?;
            let block = result
                .as_ref()
                .map(|r| r.shape().to_vec())
                .unwrap_or_default();
            let order = axes_attr(op, "order")?;
            let (s, st, of) = (seg.get(1), seg.get(2), seg.get(3));
            Some(rules::make_block_ptr(
                o(0)?,
                s.copied().unwrap_or(0),
                st.copied().unwrap_or(0),
                of.copied().unwrap_or(0),
                &block,
                &order,
            )?)
        }
        ops::ADVANCE => Some(rules::advance(o(0)?, operands.len() - 1)?),
        ops::BLOCK_LOAD => {
            let ptr = o(0)?;
            Some(rules::block_load(
                ptr,
                &axes_attr(op, "boundary_check")?,
                padding_attr(op, ptr)?,
                cache_attr(op)?,
            )?)
        }
        ops::BLOCK_STORE => {
            rules::block_store(
                o(0)?,
                o(1)?,
                &axes_attr(op, "boundary_check")?,
                cache_attr(op)?,
            )?;
            None
        }
        ops::REDUCE => {
            let _ = string_attr(op, "kind")?;
            Some(rules::reduce(
                o(0)?,
                int_attr(op, "axis")?,
                bool_attr(op, "keep_dims")?,
            )?)
        }
        // A layout conversion keeps the shape and element; only the
        // encoding (ignored by `TileType`) changes.
        ops::CONVERT_LAYOUT => Some(o(0)?.clone()),
        _ => None,
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
