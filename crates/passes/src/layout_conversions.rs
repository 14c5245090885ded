//! Layout conversions: making them, around accesses, and removing the
//! redundant ones.
//!
//! A block-pointer load or store whose best layout differs from the layout
//! of the values around it (a virtual transpose read in column order, then
//! stored in row order) keeps its own layout: the load yields its tile in
//! its layout and a `tile.convert_layout` hands it on; a store converts its
//! value first. Loads and stores through pointer tensors whose values live
//! in a tensor-core layout do the same, in the layout of their pointers. Afterwards conversions that change nothing, and pairs that
//! convert a value there and back, are removed.

use crate::edit::{self, key};
use crate::pass::{PassError, PassResult};
use melior::ir::operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult};
use melior::ir::{OperationRef, Type, Value, ValueLike};
use std::collections::HashMap;
use tile_coalesce::Layout;
use tile_dialect::ops::CONVERT_LAYOUT;
use tile_dialect::view::{TileOp, TypeTable};

/// Accesses that keep a layout of their own.
#[derive(Clone, Debug, Default)]
pub struct OwnLayouts {
    /// Loads, by their result ([`edit::key`]).
    pub loads: HashMap<usize, Layout>,
    /// Stores, by the op's handle.
    pub stores: HashMap<usize, Layout>,
}

/// A `tile.convert_layout` of `src` to type `ty`, inserted before `at`;
/// returns its result.
pub fn convert_before<'c, 'a>(
    at: &OperationRef<'c, 'a>,
    src: Value<'c, 'a>,
    ty: Type<'c>,
) -> Result<Value<'c, 'a>, PassError> {
    let op = build(at, src, ty)?;
    let op = edit::insert_before(at, op);
    Ok(op.result(0).expect("one result").into())
}

/// Converts the result `value` of `at` to type `ty` just after `at`, and
/// makes every other use read the converted value.
pub fn convert_after<'c, 'a>(
    at: &OperationRef<'c, 'a>,
    value: Value<'c, 'a>,
    ty: Type<'c>,
) -> PassResult {
    let op = build(at, value, ty)?;
    let op = edit::insert_after(at, op);
    let converted: Value = op.result(0).expect("one result").into();
    edit::replace_uses_except(value, converted, &op);
    Ok(())
}

fn build<'c>(
    at: &OperationRef<'c, '_>,
    src: Value<'c, '_>,
    ty: Type<'c>,
) -> Result<melior::ir::Operation<'c>, PassError> {
    OperationBuilder::new(CONVERT_LAYOUT, at.location())
        .add_operands(&[src])
        .add_results(&[ty])
        .build()
        .map_err(|e| PassError::at(at, format!("cannot convert a layout: {e}")))
}

/// Gives each access in `own` its layout, converting from or to the layout
/// of the value loaded, stored or atomically combined.
pub fn convert_at_accesses<'c>(
    types: &TypeTable<'c>,
    func: &OperationRef<'c, '_>,
    own: &OwnLayouts,
) -> PassResult {
    if own.loads.is_empty() && own.stores.is_empty() {
        return Ok(());
    }
    let mut todo = Vec::new();
    func.walk(WalkOrder::PreOrder, |op| {
        todo.push(op.to_raw());
        WalkResult::Advance
    });
    for raw in todo {
        // SAFETY: the ops collected above are live; conversions are only
        // inserted next to them.
        let op = unsafe { OperationRef::from_raw(raw) };
        match TileOp::read(&op, |v| types.tile_type(v.r#type())) {
            Ok(Some(TileOp::BlockLoad(_) | TileOp::Load(_))) => {
                let result: Value = op.result(0).expect("a block load's result").into();
                if let Some(layout) = own.loads.get(&key(result)) {
                    let class_ty = result.r#type();
                    result.set_type(types.with_layout(class_ty, Some(layout)));
                    convert_after(&op, result, class_ty)?;
                }
            }
            Ok(Some(TileOp::BlockStore(s))) => {
                if let Some(layout) = own.stores.get(&(raw.ptr as usize)) {
                    let ty = types.with_layout(s.value.r#type(), Some(layout));
                    let converted = convert_before(&op, s.value, ty)?;
                    edit::set_operands(&op, &[s.ptr, converted]);
                }
            }
            Ok(Some(TileOp::AtomicRmw(a))) => {
                if let Some(layout) = own.stores.get(&(raw.ptr as usize)) {
                    let ty = types.with_layout(a.val.r#type(), Some(layout));
                    let converted = convert_before(&op, a.val, ty)?;
                    let mut operands = vec![a.ptr, converted];
                    operands.extend(a.mask);
                    edit::set_operands(&op, &operands);
                }
            }
            Ok(Some(TileOp::Store(s))) => {
                if let Some(layout) = own.stores.get(&(raw.ptr as usize)) {
                    let ty = types.with_layout(s.value.r#type(), Some(layout));
                    let converted = convert_before(&op, s.value, ty)?;
                    let mut operands = vec![s.ptr, converted];
                    operands.extend(s.mask);
                    edit::set_operands(&op, &operands);
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Removes conversions to the layout a value already has, and a
/// conversion of a conversion's result back to the original layout (uses
/// read the original instead). Conversions left without uses are erased.
pub fn fold(func: &OperationRef) {
    let mut converts = Vec::new();
    func.walk(WalkOrder::PreOrder, |op| {
        if tile_dialect::view::op_name(&op) == CONVERT_LAYOUT {
            converts.push(op.to_raw());
        }
        WalkResult::Advance
    });
    // SAFETY (for every `from_raw` below): the conversions collected are
    // live until erased, and each is erased once, at the end.
    let ops: Vec<OperationRef> = converts
        .iter()
        .map(|&raw| unsafe { OperationRef::from_raw(raw) })
        .collect();
    // The value each conversion's result was converted from.
    let mut source: HashMap<usize, Value> = HashMap::new();
    for op in &ops {
        let src = op.operand(0).expect("a conversion's operand");
        let res: Value = op.result(0).expect("a conversion's result").into();
        if src.r#type() == res.r#type() {
            edit::replace_all_uses(res, src);
            continue;
        }
        let origin = source.get(&key(src)).copied();
        match origin {
            Some(origin) if origin.r#type() == res.r#type() => {
                edit::replace_all_uses(res, origin);
            }
            _ => {
                source.insert(key(res), src);
            }
        }
    }
    // Erase unused conversions, latest first (so a chain goes at once).
    for op in ops.iter().rev() {
        if !edit::has_uses(op.result(0).expect("a conversion's result")) {
            edit::erase(*op);
        }
    }
}

#[cfg(test)]
mod tests {
    use melior::ir::BlockLike;

    const ROWS: &str = "#tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, \
                        array<i32: 1, 0>>";
    const COLUMNS: &str = "#tile.blocked<array<i32: 4, 1>, array<i32: 8, 4>, array<i32: 1, 4>, \
                           array<i32: 0, 1>>";

    /// `fold` on the one function of `text`, printed after.
    fn folded(text: &str) -> String {
        let context = melior::Context::new();
        crate::register_all(&context).unwrap();
        let module = melior::ir::Module::parse(&context, text).unwrap();
        let func = module.body().first_operation().unwrap();
        super::fold(&func);
        module.as_operation().to_string()
    }

    /// A conversion to the layout a value has, and a conversion back of a
    /// conversion's result, both go: their uses read the original. A
    /// conversion something still reads stays, and one left unused goes.
    #[test]
    fn round_trips_and_conversions_to_the_same_layout_fold() {
        let (r, c) = (
            format!("tensor<32x32xf32, {ROWS}>"),
            format!("tensor<32x32xf32, {COLUMNS}>"),
        );
        let text = format!(
            "func.func @k(%a: {r}) -> ({r}, {r}, {c}) {{
               %same = \"tile.convert_layout\"(%a) : ({r}) -> {r}
               %there = \"tile.convert_layout\"(%a) : ({r}) -> {c}
               %back = \"tile.convert_layout\"(%there) : ({c}) -> {r}
               return %same, %back, %there : {r}, {r}, {c}
             }}"
        );
        let out = folded(&text);
        assert_eq!(out.matches("tile.convert_layout").count(), 1, "{out}");
        assert!(out.contains("return %arg0, %arg0, %0"), "{out}");
        // Without that use the conversion there is left unused: it goes.
        let text = format!(
            "func.func @k(%a: {r}) -> ({r}, {r}) {{
               %same = \"tile.convert_layout\"(%a) : ({r}) -> {r}
               %there = \"tile.convert_layout\"(%a) : ({r}) -> {c}
               %back = \"tile.convert_layout\"(%there) : ({c}) -> {r}
               return %same, %back : {r}, {r}
             }}"
        );
        let out = folded(&text);
        assert!(!out.contains("tile.convert_layout"), "{out}");
        assert!(out.contains("return %arg0, %arg0"), "{out}");
    }

    /// A conversion to a third layout is not a round trip, even from a
    /// conversion's result.
    #[test]
    fn a_chain_to_a_third_layout_stays() {
        let third = "#tile.blocked<array<i32: 2, 2>, array<i32: 4, 8>, array<i32: 2, 2>, \
                     array<i32: 1, 0>>";
        let (r, c, t) = (
            format!("tensor<32x32xf32, {ROWS}>"),
            format!("tensor<32x32xf32, {COLUMNS}>"),
            format!("tensor<32x32xf32, {third}>"),
        );
        let text = format!(
            "func.func @k(%a: {r}) -> {t} {{
               %there = \"tile.convert_layout\"(%a) : ({r}) -> {c}
               %on = \"tile.convert_layout\"(%there) : ({c}) -> {t}
               return %on : {t}
             }}"
        );
        let out = folded(&text);
        assert_eq!(out.matches("tile.convert_layout").count(), 2, "{out}");
    }
}
