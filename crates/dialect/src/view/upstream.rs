//! The upstream ops tile IR is made of, read: the kernel's `func.func`,
//! `scf.for`, `scf.if`, `scf.while`, `arith.constant`.

use super::attr;
use crate::error::Rule;
use crate::ops;
use melior::ir::attribute::{
    AttributeLike, BoolAttribute, DenseElementsAttribute, FloatAttribute, IntegerAttribute,
    StringAttribute,
};
use melior::ir::block::BlockLike;
use melior::ir::operation::OperationLike;
use melior::ir::{Attribute, BlockRef, RegionLike, Value, ValueLike};

/// A loop `scf.for %iv = lower to upper step step iter_args(...)`.
#[derive(Clone, Debug)]
pub struct ForLoop<'c, 'a> {
    /// Lower bound.
    pub lower: Value<'c, 'a>,
    /// Upper bound (exclusive).
    pub upper: Value<'c, 'a>,
    /// Step.
    pub step: Value<'c, 'a>,
    /// Initial values of the carried values.
    pub inits: Vec<Value<'c, 'a>>,
    /// The body.
    pub body: BlockRef<'c, 'a>,
    /// The induction variable (the body's first argument).
    pub induction: Value<'c, 'a>,
    /// The carried values inside the body.
    pub iter_args: Vec<Value<'c, 'a>>,
    /// The values the body yields for the next iteration.
    pub yielded: Vec<Value<'c, 'a>>,
    /// The carried values after the loop.
    pub results: Vec<Value<'c, 'a>>,
}

fn malformed(expected: &'static str) -> Rule {
    Rule::BadAttribute {
        name: "(structure)",
        expected,
    }
}

impl<'c: 'a, 'a> ForLoop<'c, 'a> {
    /// Reads an `scf.for` (`None` for any other op).
    pub fn read(op: &impl OperationLike<'c, 'a>) -> Result<Option<Self>, Rule> {
        if super::op_name(op) != "scf.for" {
            return Ok(None);
        }
        let operands: Vec<Value<'c, 'a>> = op.operands().collect();
        if operands.len() < 3 {
            return Err(malformed("bounds, a step and initial values"));
        }
        let body = op
            .region(0)
            .ok()
            .and_then(|r| r.first_block())
            .ok_or(malformed("a loop body"))?;
        let args: Vec<Value<'c, 'a>> = (0..body.argument_count())
            .filter_map(|i| body.argument(i).ok().map(Value::from))
            .collect();
        let yielded: Vec<Value<'c, 'a>> = body
            .terminator()
            .map(|t| t.operands().collect())
            .unwrap_or_default();
        let inits = operands[3..].to_vec();
        let results: Vec<Value<'c, 'a>> = op.results().map(Value::from).collect();
        if args.len() != inits.len() + 1
            || yielded.len() != inits.len()
            || results.len() != inits.len()
        {
            return Err(malformed(
                "one block argument, yielded value and result per carried value",
            ));
        }
        Ok(Some(ForLoop {
            lower: operands[0],
            upper: operands[1],
            step: operands[2],
            inits,
            body,
            induction: args[0],
            iter_args: args[1..].to_vec(),
            yielded,
            results,
        }))
    }
}

/// The values a block ends with: its terminator's operands (an
/// `scf.yield`'s, or an `scf.condition`'s after the condition).
fn block_values<'c: 'a, 'a>(block: &BlockRef<'c, 'a>, skip: usize) -> Vec<Value<'c, 'a>> {
    block
        .terminator()
        .map(|t| t.operands().skip(skip).collect())
        .unwrap_or_default()
}

/// The arguments of `block`.
fn block_arguments<'c: 'a, 'a>(block: &BlockRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    (0..block.argument_count())
        .filter_map(|i| block.argument(i).ok().map(Value::from))
        .collect()
}

/// The first block of region `index` of `op`, if it has one.
fn region_block<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    index: usize,
) -> Option<BlockRef<'c, 'a>> {
    op.region(index).ok().and_then(|r| r.first_block())
}

/// A branch `scf.if %condition { then } else { otherwise }`.
#[derive(Clone, Debug)]
pub struct IfOp<'c, 'a> {
    /// The condition (a scalar `i1`).
    pub condition: Value<'c, 'a>,
    /// The `then` block.
    pub then_block: BlockRef<'c, 'a>,
    /// The `else` block (`None` when the `if` has no `else`).
    pub else_block: Option<BlockRef<'c, 'a>>,
    /// The values the `then` block yields.
    pub then_yielded: Vec<Value<'c, 'a>>,
    /// The values the `else` block yields.
    pub else_yielded: Vec<Value<'c, 'a>>,
    /// The results.
    pub results: Vec<Value<'c, 'a>>,
}

impl<'c: 'a, 'a> IfOp<'c, 'a> {
    /// Reads an `scf.if` (`None` for any other op).
    pub fn read(op: &impl OperationLike<'c, 'a>) -> Result<Option<Self>, Rule> {
        if super::op_name(op) != "scf.if" {
            return Ok(None);
        }
        let condition = op.operand(0).map_err(|_| malformed("a condition"))?;
        let then_block = region_block(op, 0).ok_or(malformed("a then block"))?;
        let else_block = region_block(op, 1);
        let results: Vec<Value<'c, 'a>> = op.results().map(Value::from).collect();
        let then_yielded = block_values(&then_block, 0);
        let else_yielded = else_block.map(|b| block_values(&b, 0)).unwrap_or_default();
        if then_yielded.len() != results.len()
            || (else_block.is_some() && else_yielded.len() != results.len())
            || (else_block.is_none() && !results.is_empty())
        {
            return Err(malformed("both branches yielding one value per result"));
        }
        Ok(Some(IfOp {
            condition,
            then_block,
            else_block,
            then_yielded,
            else_yielded,
            results,
        }))
    }
}

/// A loop `scf.while (inits) { before } do { after }`: `before` computes
/// the condition and forwards values to `after` (or out of the loop), and
/// `after` yields the next values for `before`. The carried values (slots
/// of `inits`, `before_args`, `yielded`) and the forwarded ones (slots of
/// `forwarded`, `after_args`, `results`) are two lists.
#[derive(Clone, Debug)]
pub struct WhileLoop<'c, 'a> {
    /// The initial values.
    pub inits: Vec<Value<'c, 'a>>,
    /// The block computing the condition.
    pub before: BlockRef<'c, 'a>,
    /// Its arguments (the carried values).
    pub before_args: Vec<Value<'c, 'a>>,
    /// The condition (`scf.condition`'s first operand).
    pub condition: Value<'c, 'a>,
    /// The values `scf.condition` forwards to the body and the results.
    pub forwarded: Vec<Value<'c, 'a>>,
    /// The body.
    pub after: BlockRef<'c, 'a>,
    /// Its arguments (the forwarded values).
    pub after_args: Vec<Value<'c, 'a>>,
    /// The values the body yields for the next iteration.
    pub yielded: Vec<Value<'c, 'a>>,
    /// The loop's results (the values forwarded when the condition fails).
    pub results: Vec<Value<'c, 'a>>,
}

impl<'c: 'a, 'a> WhileLoop<'c, 'a> {
    /// Reads an `scf.while` (`None` for any other op).
    pub fn read(op: &impl OperationLike<'c, 'a>) -> Result<Option<Self>, Rule> {
        if super::op_name(op) != "scf.while" {
            return Ok(None);
        }
        let before = region_block(op, 0).ok_or(malformed("a condition block"))?;
        let after = region_block(op, 1).ok_or(malformed("a loop body"))?;
        let condition = before
            .terminator()
            .filter(|t| super::op_name(t) == "scf.condition")
            .and_then(|t| t.operand(0).ok())
            .ok_or(malformed("a condition block ending in scf.condition"))?;
        let inits: Vec<Value<'c, 'a>> = op.operands().collect();
        let results: Vec<Value<'c, 'a>> = op.results().map(Value::from).collect();
        let w = WhileLoop {
            before_args: block_arguments(&before),
            forwarded: block_values(&before, 1),
            after_args: block_arguments(&after),
            yielded: block_values(&after, 0),
            inits,
            before,
            condition,
            after,
            results,
        };
        // The carried values (inits, the condition block's arguments, the
        // body's yields) and the forwarded ones (the body's arguments, the
        // results) may differ in number: canonicalization drops forwarded
        // values nothing uses.
        let (n, m) = (w.inits.len(), w.forwarded.len());
        if w.before_args.len() != n
            || w.yielded.len() != n
            || w.after_args.len() != m
            || w.results.len() != m
        {
            return Err(malformed(
                "an argument of the condition block and a yielded value per initial value, and an argument of the body and a result per forwarded value",
            ));
        }
        Ok(Some(w))
    }
}

/// The value of an `arith.constant` of tile IR.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ConstantValue {
    /// An integer (sign-extended from its width).
    Int(i64),
    /// A float.
    Float(f64),
    /// An `i1`.
    Bool(bool),
}

impl ConstantValue {
    /// The value as an integer (booleans as 0 and 1, floats truncated).
    pub fn as_i64(self) -> i64 {
        match self {
            ConstantValue::Int(v) => v,
            ConstantValue::Float(v) => v as i64,
            ConstantValue::Bool(b) => i64::from(b),
        }
    }

    /// The value as a float.
    pub fn as_f64(self) -> f64 {
        match self {
            ConstantValue::Int(v) => v as f64,
            ConstantValue::Float(v) => v,
            ConstantValue::Bool(b) => f64::from(u8::from(b)),
        }
    }
}

/// An `arith.constant`: a scalar, or a tensor with every element equal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Constant {
    /// The value (of every element).
    pub value: ConstantValue,
}

fn scalar_value(a: Attribute) -> Option<ConstantValue> {
    if let Ok(b) = BoolAttribute::try_from(a) {
        return Some(ConstantValue::Bool(b.value()));
    }
    if let Ok(i) = IntegerAttribute::try_from(a) {
        return Some(ConstantValue::Int(i.signed_value()));
    }
    FloatAttribute::try_from(a)
        .ok()
        .map(|f| ConstantValue::Float(f.value()))
}

impl Constant {
    /// Reads an `arith.constant` (`None` for any other op). Tensors whose
    /// elements differ are refused: tile IR makes only splats.
    pub fn read<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Result<Option<Self>, Rule> {
        if super::op_name(op) != "arith.constant" {
            return Ok(None);
        }
        const EXPECTED: &str = "a number, or a tensor with every element equal";
        let bad = Rule::BadAttribute {
            name: "value",
            expected: EXPECTED,
        };
        let a = attr::get(op, "value", EXPECTED)?;
        if let Some(value) = scalar_value(a) {
            return Ok(Some(Constant { value }));
        }
        let dense = DenseElementsAttribute::try_from(a).map_err(|_| bad.clone())?;
        if !dense.is_splat() {
            return Err(bad);
        }
        let value = scalar_value(dense.splat_value()).ok_or(bad)?;
        Ok(Some(Constant { value }))
    }

    /// The constant every element of `value` holds, when an
    /// `arith.constant` defines it, directly or through `tile.splat`,
    /// `tile.broadcast` and `tile.expand_dims` (`None` for a block argument
    /// or any other op's result).
    pub fn of_value(value: Value) -> Option<ConstantValue> {
        let mut raw = value.to_raw();
        loop {
            // SAFETY: `raw` is a live value; its owner is queried only for
            // an op result, which is checked first.
            let op = unsafe {
                if !mlir_sys::mlirValueIsAOpResult(raw) {
                    return None;
                }
                melior::ir::OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(raw))
            };
            match super::op_name(&op) {
                ops::SPLAT | ops::BROADCAST | ops::EXPAND_DIMS => {
                    raw = op.operand(0).ok()?.to_raw();
                }
                _ => return Constant::read(&op).ok().flatten().map(|c| c.value),
            }
        }
    }
}

/// An argument of a kernel, with what its attributes say.
#[derive(Clone, Debug)]
pub struct KernelArg<'c, 'a> {
    /// The block argument.
    pub value: Value<'c, 'a>,
    /// Its source name (`tile.name`).
    pub name: Option<String>,
    /// `tile.divisibility`: a multiple of this (16), when specialized.
    pub divisibility: Option<i64>,
    /// `tile.equal_to_one`: specialized as equal to 1.
    pub equal_to_one: bool,
}

/// A `func.func`: its name, whether it is a tile kernel, its body and
/// arguments.
#[derive(Clone, Debug)]
pub struct KernelFunc<'c, 'a> {
    /// `sym_name`.
    pub name: String,
    /// True when it carries `tile.kernel`.
    pub is_kernel: bool,
    /// The body's entry block (`None` for a declaration).
    pub body: Option<BlockRef<'c, 'a>>,
    /// The arguments of the entry block.
    pub args: Vec<KernelArg<'c, 'a>>,
}

/// The entry named `name` of a dictionary attribute.
fn dict_entry<'c>(dict: Attribute<'c>, name: &str) -> Option<Attribute<'c>> {
    // SAFETY: `dict` is live; the name is copied for the call.
    unsafe {
        if !mlir_sys::mlirAttributeIsADictionary(dict.to_raw()) {
            return None;
        }
        let raw = mlir_sys::mlirDictionaryAttrGetElementByName(
            dict.to_raw(),
            melior::StringRef::new(name).to_raw(),
        );
        Attribute::from_option_raw(raw)
    }
}

impl<'c: 'a, 'a> KernelFunc<'c, 'a> {
    /// Reads a `func.func` (`None` for any other op).
    pub fn read(op: &impl OperationLike<'c, 'a>) -> Result<Option<Self>, Rule> {
        if super::op_name(op) != "func.func" {
            return Ok(None);
        }
        let name = attr::string(op, "sym_name")?;
        let is_kernel = op.has_attribute(ops::KERNEL_ATTR);
        let body = op.region(0).ok().and_then(|r| r.first_block());
        let arg_attrs: Vec<Attribute<'c>> = match op.attribute("arg_attrs") {
            Ok(a) => {
                // SAFETY: `a` is live; array elements are read in range.
                unsafe {
                    if !mlir_sys::mlirAttributeIsAArray(a.to_raw()) {
                        return Err(Rule::BadAttribute {
                            name: "arg_attrs",
                            expected: "an array of dictionaries",
                        });
                    }
                    (0..mlir_sys::mlirArrayAttrGetNumElements(a.to_raw()))
                        .map(|i| {
                            Attribute::from_raw(mlir_sys::mlirArrayAttrGetElement(a.to_raw(), i))
                        })
                        .collect()
                }
            }
            Err(_) => Vec::new(),
        };
        let mut args = Vec::new();
        if let Some(b) = body {
            for i in 0..b.argument_count() {
                let value: Value<'c, 'a> = b
                    .argument(i)
                    .map_err(|_| malformed("readable block arguments"))?
                    .into();
                let dict = arg_attrs.get(i).copied();
                let entry = |n: &str| dict.and_then(|d| dict_entry(d, n));
                args.push(KernelArg {
                    value,
                    name: entry(ops::ARG_NAME_ATTR)
                        .and_then(|a| StringAttribute::try_from(a).ok())
                        .map(attr::string_value),
                    divisibility: entry(ops::DIVISIBILITY_ATTR)
                        .and_then(|a| IntegerAttribute::try_from(a).ok())
                        .map(|i| i.signed_value()),
                    equal_to_one: entry(ops::EQUAL_TO_ONE_ATTR).is_some(),
                });
            }
        }
        Ok(Some(KernelFunc {
            name,
            is_kernel,
            body,
            args,
        }))
    }
}
