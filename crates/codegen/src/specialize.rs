//! Writes a [`Specialization`] into the kernel as argument attributes, the
//! form the axis analysis reads: `tile.divisibility = 16 : i32` on a pointer
//! or integer that is a multiple of 16, `tile.equal_to_one` on an integer
//! equal to 1.

use melior::Context;
use melior::ir::Identifier;
use melior::ir::Module;
use melior::ir::attribute::{
    ArrayAttribute, Attribute, DictionaryAttribute, IntegerAttribute, StringAttribute,
};
use melior::ir::block::BlockLike;
use melior::ir::operation::{OperationLike, OperationMutLike};
use melior::ir::r#type::IntegerType;
use tile_dialect::ops;
use tile_runtime::{Fact, KernelSpec, ParamType, Specialization};

pub use tile_dialect::ops::{DIVISIBILITY_ATTR, EQUAL_TO_ONE_ATTR};

/// Checks `specialization` against the kernel's parameters (`spec`) and
/// sets the kernel's `arg_attrs` to the argument names plus the facts.
pub fn apply(
    context: &Context,
    module: &mut Module,
    spec: &KernelSpec,
    specialization: &Specialization,
) -> Result<(), String> {
    if specialization.is_none() {
        return Ok(());
    }
    if specialization.facts.len() > spec.params.len() {
        return Err(format!(
            "the specialization has {} facts for {} parameters",
            specialization.facts.len(),
            spec.params.len()
        ));
    }
    let i32_ty = IntegerType::new(context, 32).into();
    let mut dicts: Vec<Attribute> = Vec::with_capacity(spec.params.len());
    for (i, (name, ty)) in spec.params.iter().enumerate() {
        let integer = matches!(ty, ParamType::I32 | ParamType::I64);
        let fact = specialization.fact(i);
        let mut entries = vec![(
            Identifier::new(context, ops::ARG_NAME_ATTR),
            StringAttribute::new(context, name).into(),
        )];
        match fact {
            Fact::None => {}
            Fact::DivisibleBy16 | Fact::DivisibleBy8 | Fact::DivisibleBy4
                if integer || *ty == ParamType::Ptr =>
            {
                let divisor = fact.divisor().unwrap_or(1);
                entries.push((
                    Identifier::new(context, DIVISIBILITY_ATTR),
                    IntegerAttribute::new(i32_ty, i64::from(divisor)).into(),
                ))
            }
            Fact::EqualToOne if integer => entries.push((
                Identifier::new(context, EQUAL_TO_ONE_ATTR),
                Attribute::unit(context),
            )),
            _ => {
                return Err(format!(
                    "argument {i} (`{name}`: {ty}) cannot be specialized as {fact}"
                ));
            }
        }
        dicts.push(DictionaryAttribute::new(context, &entries).into());
    }
    let attr: Attribute = ArrayAttribute::new(context, &dicts).into();
    let body = module.body();
    let mut next = body.first_operation_mut();
    while let Some(mut op) = next {
        if op.has_attribute(ops::KERNEL_ATTR) {
            op.set_attribute("arg_attrs", attr);
            return Ok(());
        }
        next = op.next_in_block_mut();
    }
    Err("the module holds no kernel".into())
}
