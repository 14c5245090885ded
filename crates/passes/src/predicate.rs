//! `tile-predicate`: puts masks in the form the SIMT lowering turns into
//! predicated accesses, in place.
//!
//! - A masked `tile.load` without `other` gets an explicit zero `other`
//!   (masked lanes read zero, never garbage).
//! - A mask known to be all true is dropped (with the load's `other`).
//! - A store whose mask is all false is erased; a load whose mask is all
//!   false is replaced by its `other`.
//!
//! Unmasked accesses and masks computed at run time are left alone.
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
//! // The masked load gets an explicit `other` (zero).
//! tile_passes::pipeline::add_pipeline(&pm.as_operation_pass_manager(), "builtin.module(tile-predicate)")
//!     .unwrap();
//! run(&pm, &mut module);
//! let text = tile_passes::print_module(&module, false);
//! assert!(text.contains("arith.constant dense<0.000000e+00> : tensor<128xf32>"), "{text}");
//! ```

use crate::edit::{self, key};
use crate::pass::{PassError, PassId, PassInfo, PassResult, kernel_pass};
use melior::ir::attribute::DenseElementsAttribute;
use melior::ir::operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult};
use melior::ir::{Attribute, Identifier, OperationRef, Type, Value, ValueLike};
use melior::pass::Pass;
use std::collections::HashMap;
use tile_dialect::DType;
use tile_dialect::view::{
    Constant, ConstantValue, TileOp, TypeTable, attr, dtype_of, element_type,
};

static PASS_ID: PassId = PassId;

/// The flag of this pass.
pub const FLAG: &str = "tile-predicate";

/// What `--help` says of it.
pub const INFO: PassInfo = PassInfo {
    name: "TilePredicate",
    flag: FLAG,
    summary: "give masked loads an explicit other; drop all-true masks and all-false accesses",
};

/// Creates the `tile-predicate` pass (on kernels; see [`crate::pass`]).
pub fn create() -> Pass {
    kernel_pass(&PASS_ID, &INFO, predicate)
}

/// What is known of a mask.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Known {
    AllTrue,
    AllFalse,
}

/// Rewrites the masks of every load and store in the kernel `func`.
pub fn predicate(func: &OperationRef) -> PassResult {
    let types = TypeTable::new(tile_dialect::context_of(func.context()));
    let mut known: HashMap<usize, Known> = HashMap::new();
    let mut ops = Vec::new();
    func.walk(WalkOrder::PreOrder, |op| {
        ops.push(op.to_raw());
        WalkResult::Advance
    });
    for raw in ops {
        // SAFETY: ops are only erased after their last visit (below), and
        // an erased op is never visited again.
        let op = unsafe { OperationRef::from_raw(raw) };
        learn(&types, &op, &mut known);
        let view = TileOp::read(&op, |v| types.tile_type(v.r#type()))
            .map_err(|r| PassError::at(&op, r.to_string()))?;
        match view {
            Some(TileOp::Load(l)) => {
                let Some(mask) = l.mask else { continue };
                match known.get(&key(mask)) {
                    Some(Known::AllTrue) => {
                        edit::set_operands(&op, &[l.ptr]);
                        set_segments(&op, &[1, 0, 0]);
                    }
                    Some(Known::AllFalse) => {
                        let result: Value = op.result(0).expect("a load's result").into();
                        let fill = match l.other {
                            Some(o) => o,
                            None => zero_before(&op, result.r#type())?,
                        };
                        edit::replace_all_uses(result, fill);
                        edit::erase(op);
                    }
                    None if l.other.is_none() => {
                        let result: Value = op.result(0).expect("a load's result").into();
                        let zero = zero_before(&op, result.r#type())?;
                        edit::set_operands(&op, &[l.ptr, mask, zero]);
                        set_segments(&op, &[1, 1, 1]);
                    }
                    None => {}
                }
            }
            Some(TileOp::Store(s)) => match s.mask.and_then(|m| known.get(&key(m))) {
                Some(Known::AllTrue) => {
                    edit::set_operands(&op, &[s.ptr, s.value]);
                    set_segments(&op, &[1, 1, 0]);
                }
                Some(Known::AllFalse) => edit::erase(op),
                None => {}
            },
            _ => {}
        }
    }
    Ok(())
}

fn set_segments(op: &OperationRef, sizes: &[i32]) {
    let context = tile_dialect::context_of(op.context());
    edit::set_attribute(
        op,
        "operandSegmentSizes",
        attr::i32_array_attr(context, sizes),
    );
}

/// Records masks that are constants (a scalar or splat `true`/`false`), or
/// a splat, broadcast, expand_dims or conversion of one.
fn learn<'c>(types: &TypeTable<'c>, op: &OperationRef<'c, '_>, known: &mut HashMap<usize, Known>) {
    let Some(result) = crate::edit::result_of(op, 0) else {
        return;
    };
    let fact = match TileOp::read(op, |v| types.tile_type(v.r#type())) {
        Ok(Some(TileOp::Splat(u) | TileOp::Broadcast(u) | TileOp::ConvertLayout(u))) => {
            known.get(&key(u.src)).copied()
        }
        Ok(Some(TileOp::ExpandDims(e))) => known.get(&key(e.src)).copied(),
        Ok(Some(_)) => None,
        _ => match Constant::read(op) {
            Ok(Some(Constant {
                value: ConstantValue::Bool(b),
            })) => Some(if b { Known::AllTrue } else { Known::AllFalse }),
            _ => None,
        },
    };
    if let Some(f) = fact {
        known.insert(key(result), f);
    }
}

/// An `arith.constant` of zeros of type `ty`, inserted before `at`.
fn zero_before<'c, 'a>(
    at: &OperationRef<'c, 'a>,
    ty: Type<'c>,
) -> Result<Value<'c, 'a>, PassError> {
    let context = tile_dialect::context_of(at.context());
    let elem = element_type(ty);
    let Some(d) = dtype_of(elem) else {
        return Err(PassError::at(
            at,
            format!("loads values of type {ty}, which has no zero"),
        ));
    };
    let scalar: Attribute = match d {
        DType::I1 => melior::ir::attribute::BoolAttribute::new(context, false).into(),
        _ => attr::number_attr(context, elem, 0.0),
    };
    let value = if ty == elem {
        scalar
    } else {
        DenseElementsAttribute::splat(ty, scalar).into()
    };
    let op = OperationBuilder::new("arith.constant", at.location())
        .add_attributes(&[(Identifier::new(context, "value"), value)])
        .add_results(&[ty])
        .build()
        .map_err(|e| PassError::at(at, format!("cannot make a zero: {e}")))?;
    let op = edit::insert_before(at, op);
    Ok(op.result(0).expect("one result").into())
}
