//! Reading the attributes of an op as Rust values, and making them.
//!
//! Readers return the [`Rule`] the op breaks when the attribute is
//! missing or of the wrong kind, so that the verifier, the passes and the
//! interpreter report the same error.

use crate::DType;
use crate::error::Rule;
use crate::ops::{
    AtomicKind, CacheModifier, EvictionPolicy, InputPrecision, MemScope, MemSem, Padding,
    ReduceKind, ScanKind,
};
use melior::Context;
use melior::ir::attribute::{
    AttributeLike, BoolAttribute, DenseI32ArrayAttribute, FloatAttribute, IntegerAttribute,
    StringAttribute,
};
use melior::ir::operation::OperationLike;
use melior::ir::r#type::IntegerType;
use melior::ir::{Attribute, Type};

/// The attribute `name` of `op`.
pub fn get<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    name: &'static str,
    expected: &'static str,
) -> Result<Attribute<'c>, Rule> {
    op.attribute(name)
        .map_err(|_| Rule::BadAttribute { name, expected })
}

/// An integer attribute (signed).
pub fn int<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, name: &'static str) -> Result<i64, Rule> {
    let a = get(op, name, "an integer")?;
    IntegerAttribute::try_from(a)
        .map(|i| i.signed_value())
        .map_err(|_| Rule::BadAttribute {
            name,
            expected: "an integer",
        })
}

/// An integer attribute that may be absent.
pub fn int_opt<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    name: &'static str,
) -> Result<Option<i64>, Rule> {
    if op.has_attribute(name) {
        int(op, name).map(Some)
    } else {
        Ok(None)
    }
}

/// A `true`/`false` attribute.
pub fn boolean<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    name: &'static str,
) -> Result<bool, Rule> {
    let a = get(op, name, "true or false")?;
    BoolAttribute::try_from(a)
        .map(|b| b.value())
        .map_err(|_| Rule::BadAttribute {
            name,
            expected: "true or false",
        })
}

/// The bytes of a string attribute. (melior's `StringAttribute::value`
/// cannot read the empty string, which MLIR gives a null data pointer.)
pub fn string_value(a: StringAttribute) -> String {
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

/// A string attribute.
pub fn string<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    name: &'static str,
) -> Result<String, Rule> {
    let a = get(op, name, "a string")?;
    StringAttribute::try_from(a)
        .map(string_value)
        .map_err(|_| Rule::BadAttribute {
            name,
            expected: "a string",
        })
}

/// An `array<i32: ...>` attribute.
pub fn i32_array<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    name: &'static str,
) -> Result<Vec<i64>, Rule> {
    i32_array_of(op, name, "an array<i32: ...>")
}

/// An `array<i32: ...>` attribute of axes (`order`, `boundary_check`).
pub fn axes<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    name: &'static str,
) -> Result<Vec<i64>, Rule> {
    i32_array_of(op, name, "an array<i32: ...> of axes")
}

fn i32_array_of<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    name: &'static str,
    expected: &'static str,
) -> Result<Vec<i64>, Rule> {
    let bad = Rule::BadAttribute { name, expected };
    let a = get(op, name, expected)?;
    let array = DenseI32ArrayAttribute::try_from(a).map_err(|_| bad.clone())?;
    (0..array.len())
        .map(|i| array.element(i).map(i64::from).map_err(|_| bad.clone()))
        .collect()
}

/// How many operands each segment of an op with optional or variadic
/// operands holds (`operandSegmentSizes`), checked against the op's
/// operand count and the number of segments its definition has.
pub fn segments<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    count: usize,
) -> Result<Vec<usize>, Rule> {
    const NAME: &str = "operandSegmentSizes";
    let bad = Rule::BadAttribute {
        name: NAME,
        expected: "one non-negative size per operand group, adding up to the operands",
    };
    let sizes: Vec<usize> = i32_array(op, NAME)?
        .into_iter()
        .map(|n| usize::try_from(n).map_err(|_| bad.clone()))
        .collect::<Result<_, _>>()?;
    if sizes.len() != count || sizes.iter().sum::<usize>() != op.operand_count() {
        return Err(bad);
    }
    Ok(sizes)
}

/// The `cache_modifier` of a load or store.
pub fn cache<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Result<CacheModifier, Rule> {
    let s = string(op, "cache_modifier")?;
    CacheModifier::from_name(&s).ok_or(Rule::BadAttribute {
        name: "cache_modifier",
        expected: "a cache modifier",
    })
}

/// The `eviction_policy` of a load or store.
pub fn eviction<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Result<EvictionPolicy, Rule> {
    let s = string(op, "eviction_policy")?;
    EvictionPolicy::from_name(&s).ok_or(Rule::BadAttribute {
        name: "eviction_policy",
        expected: "\"\", \"evict_first\" or \"evict_last\"",
    })
}

/// The `kind` of a reduction.
pub fn reduce_kind<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Result<ReduceKind, Rule> {
    let s = string(op, "kind")?;
    ReduceKind::from_name(&s).ok_or(Rule::BadAttribute {
        name: "kind",
        expected: "sum, max, min, argmax or argmin",
    })
}

/// The `kind` of a scan.
pub fn scan_kind<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Result<ScanKind, Rule> {
    let s = string(op, "kind")?;
    ScanKind::from_name(&s).ok_or(Rule::BadAttribute {
        name: "kind",
        expected: "sum, prod, max or min",
    })
}

/// The `kind` of an atomic read-modify-write.
pub fn atomic_kind<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Result<AtomicKind, Rule> {
    let s = string(op, "kind")?;
    AtomicKind::from_name(&s).ok_or(Rule::BadAttribute {
        name: "kind",
        expected: "add, max, min, and, or, xor or xchg",
    })
}

/// The `sem` of an atomic.
pub fn mem_sem<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Result<MemSem, Rule> {
    let s = string(op, "sem")?;
    MemSem::from_name(&s).ok_or(Rule::BadAttribute {
        name: "sem",
        expected: "relaxed, acquire, release or acq_rel",
    })
}

/// The `scope` of an atomic.
pub fn mem_scope<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Result<MemScope, Rule> {
    let s = string(op, "scope")?;
    MemScope::from_name(&s).ok_or(Rule::BadAttribute {
        name: "scope",
        expected: "cta, gpu or sys",
    })
}

/// The `input_precision` of a `tile.dot`.
pub fn input_precision<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
) -> Result<InputPrecision, Rule> {
    let s = string(op, "input_precision")?;
    InputPrecision::from_name(&s).ok_or(Rule::BadAttribute {
        name: "input_precision",
        expected: "tf32, tf32x3 or ieee",
    })
}

/// The `padding` of a block load of `dtype` elements: a named option, or
/// a constant of the element type (of any number type when `dtype` is not
/// known: the op's pointer is then wrong, which the verifier reports).
pub fn padding<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    dtype: Option<DType>,
) -> Result<Padding, Rule> {
    const EXPECTED: &str = "zero, nan, undefined or a constant";
    let a = get(op, "padding", EXPECTED)?;
    if let Ok(s) = StringAttribute::try_from(a) {
        return Padding::from_name(&string_value(s)).ok_or(Rule::BadAttribute {
            name: "padding",
            expected: EXPECTED,
        });
    }
    let ty = a.r#type();
    if let Some(dtype) = dtype
        && super::dtype_of(ty) != Some(dtype)
    {
        return Err(Rule::BadPadding {
            reason: format!("constant of type {ty} for elements of type {dtype}"),
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
        expected: EXPECTED,
    })
}

/// An `i32` integer attribute.
pub fn i32_attr(context: &Context, value: i64) -> Attribute<'_> {
    IntegerAttribute::new(IntegerType::new(context, 32).into(), value).into()
}

/// An `array<i32: ...>` attribute.
pub fn i32_array_attr<'c>(context: &'c Context, values: &[i32]) -> Attribute<'c> {
    DenseI32ArrayAttribute::new(context, values).into()
}

/// An integer or float attribute of type `ty` holding `value` (floats
/// rounded to the type by MLIR; integers truncated to its width).
pub fn number_attr<'c>(context: &'c Context, ty: Type<'c>, value: f64) -> Attribute<'c> {
    match super::dtype_of(ty) {
        Some(d) if d.is_float() => FloatAttribute::new(context, ty, value).into(),
        _ => IntegerAttribute::new(ty, value as i64).into(),
    }
}
