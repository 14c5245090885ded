//! `tile-predicate`: puts masks in the form the SIMT lowering turns into
//! predicated accesses.
//!
//! - A masked `tile.load` without `other` gets an explicit zero `other`
//!   (masked lanes read zero, never garbage).
//! - A mask known to be all true is dropped (with the load's `other`).
//! - A store whose mask is all false is removed; a load whose mask is all
//!   false is replaced by its `other`.
//!
//! Unmasked accesses and masks computed at run time are left alone.

use crate::mirror::{Block, Mirror, Op, ValueId};
use crate::rewrite::{PassError, run_mirror_edit};
use melior::ir::OperationRef;
use melior::ir::r#type::TypeId;
use melior::pass::{ExternalPass, Pass, create_external};
use std::collections::HashMap;
use tile_dialect::{DType, TileType, ops};

#[repr(align(8))]
struct PassId;
static PASS_ID: PassId = PassId;

/// The flag of this pass.
pub const FLAG: &str = "tile-predicate";

/// Creates the `tile-predicate` pass (runs on `builtin.module`).
pub fn create() -> Pass {
    create_external(
        |op: OperationRef<'_, '_>, pass: ExternalPass<'_>| {
            run_mirror_edit(&op, &pass, FLAG, predicate);
        },
        TypeId::create(&PASS_ID),
        "TilePredicate",
        FLAG,
        "give masked loads an explicit other; drop all-true masks and all-false accesses",
        "builtin.module",
        &[],
    )
}

/// What is known of a mask.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Known {
    AllTrue,
    AllFalse,
}

/// Rewrites the masks of every load and store in `m`.
pub fn predicate(m: &mut Mirror) -> Result<(), PassError> {
    let mut known = HashMap::new();
    let mut renamed = HashMap::new();
    let mut ops = std::mem::take(&mut m.ops);
    for op in &mut ops {
        for block in &mut op.regions {
            rewrite_block(block, m, &mut known, &mut renamed)?;
        }
    }
    m.ops = ops;
    Ok(())
}

fn rewrite_block(
    block: &mut Block,
    m: &mut Mirror,
    known: &mut HashMap<ValueId, Known>,
    renamed: &mut HashMap<ValueId, ValueId>,
) -> Result<(), PassError> {
    let mut out = Vec::with_capacity(block.ops.len());
    for mut op in std::mem::take(&mut block.ops) {
        for v in &mut op.operands {
            if let Some(&n) = renamed.get(v) {
                *v = n;
            }
        }
        for inner in &mut op.regions {
            rewrite_block(inner, m, known, renamed)?;
        }
        learn(&op, known);
        match op.name.as_str() {
            ops::LOAD => {
                let seg = op.segments().unwrap_or_else(|| vec![1, 0, 0]);
                if seg.get(1) != Some(&1) {
                    out.push(op);
                    continue;
                }
                let mask = op.operands[1];
                let other = (seg.get(2) == Some(&1)).then(|| op.operands[2]);
                match known.get(&mask) {
                    Some(Known::AllTrue) => {
                        op.operands.truncate(1);
                        op.set_attr("operandSegmentSizes", "array<i32: 1, 0, 0>");
                        out.push(op);
                    }
                    Some(Known::AllFalse) => {
                        let fill = match other {
                            Some(o) => o,
                            None => {
                                let (c, v) = zero_like(m, op.results[0], &op)?;
                                out.push(c);
                                v
                            }
                        };
                        renamed.insert(op.results[0], fill);
                    }
                    None => {
                        if other.is_none() {
                            let (c, v) = zero_like(m, op.results[0], &op)?;
                            out.push(c);
                            op.operands.push(v);
                            op.set_attr("operandSegmentSizes", "array<i32: 1, 1, 1>");
                        }
                        out.push(op);
                    }
                }
            }
            ops::STORE => {
                let seg = op.segments().unwrap_or_else(|| vec![1, 1, 0]);
                let mask = (seg.get(2) == Some(&1)).then(|| op.operands[2]);
                match mask.and_then(|k| known.get(&k)) {
                    Some(Known::AllTrue) => {
                        op.operands.truncate(2);
                        op.set_attr("operandSegmentSizes", "array<i32: 1, 1, 0>");
                        out.push(op);
                    }
                    Some(Known::AllFalse) => {}
                    None => out.push(op),
                }
            }
            _ => out.push(op),
        }
    }
    block.ops = out;
    Ok(())
}

/// Records masks that are constants: `arith.constant dense<true>`, a
/// scalar `true`, or a splat or broadcast of one.
fn learn(op: &Op, known: &mut HashMap<ValueId, Known>) {
    let Some(&r) = op.results.first() else {
        return;
    };
    let fact = match op.name.as_str() {
        "arith.constant" => match op.attr("value") {
            Some(v) if v.starts_with("true") || v.starts_with("dense<true>") => {
                Some(Known::AllTrue)
            }
            Some(v) if v.starts_with("false") || v.starts_with("dense<false>") => {
                Some(Known::AllFalse)
            }
            _ => None,
        },
        ops::SPLAT | ops::BROADCAST | ops::EXPAND_DIMS | ops::CONVERT_LAYOUT => {
            known.get(&op.operands[0]).copied()
        }
        _ => None,
    };
    if let Some(f) = fact {
        known.insert(r, f);
    }
}

/// An `arith.constant` of zeros with the type of `like`.
fn zero_like(m: &mut Mirror, like: ValueId, at: &Op) -> Result<(Op, ValueId), PassError> {
    let ty = m.ty(like).to_string();
    let dtype = TileType::parse(&ty).and_then(|t| t.num()).ok_or_else(|| {
        PassError::at(at, format!("loads values of type {ty}, which has no zero"))
    })?;
    let zero = match dtype {
        DType::I1 => "false",
        d if d.is_float() => "0.000000e+00",
        _ => "0",
    };
    let v = m.new_value(ty.clone());
    let mut c = Op::new("arith.constant", vec![], vec![v], at);
    let value = if ty.starts_with("tensor<") {
        format!("dense<{zero}> : {ty}")
    } else if dtype == DType::I1 {
        zero.to_string()
    } else {
        format!("{zero} : {ty}")
    };
    c.set_attr("value", value);
    Ok((c, v))
}
