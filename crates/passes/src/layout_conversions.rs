//! Layout conversions around accesses, and the removal of redundant ones.
//!
//! A block-pointer load or store whose best layout differs from the layout
//! of the values around it (a virtual transpose read in column order, then
//! stored in row order) keeps its own layout: the load yields its tile in
//! its layout and a `tile.convert_layout` hands it on; a store converts its
//! value first. Afterwards conversions that change nothing, and pairs that
//! convert a value there and back, are removed.

use crate::assign_layouts::with_layout;
use crate::mirror::{Block, Mirror, Op, ValueId};
use std::collections::HashMap;
use tile_coalesce::Layout;
use tile_dialect::ops;

/// Block-pointer accesses that keep a layout of their own.
#[derive(Clone, Debug, Default)]
pub struct OwnLayouts {
    /// Loads, by their result.
    pub loads: HashMap<ValueId, Layout>,
    /// Stores, by their block pointer and value.
    pub stores: HashMap<(ValueId, ValueId), Layout>,
}

/// Gives each block-pointer access in `own` its layout, converting from or
/// to the layout of the value loaded or stored.
pub fn convert_at_accesses(m: &mut Mirror, own: &OwnLayouts) {
    let mut ops = std::mem::take(&mut m.ops);
    convert_in(&mut ops, m, own);
    m.ops = ops;
}

fn convert_in(ops: &mut Vec<Op>, m: &mut Mirror, own: &OwnLayouts) {
    let mut out = Vec::with_capacity(ops.len());
    for mut op in std::mem::take(ops) {
        for block in &mut op.regions {
            convert_in(&mut block.ops, m, own);
        }
        match op.name.as_str() {
            ops::BLOCK_LOAD if own.loads.contains_key(&op.results[0]) => {
                let result = op.results[0];
                let ty = with_layout(&m.values[result].ty, &own.loads[&result]);
                let loaded = m.new_value(ty);
                op.results[0] = loaded;
                let convert = Op::new(ops::CONVERT_LAYOUT, vec![loaded], vec![result], &op);
                out.push(op);
                out.push(convert);
            }
            ops::BLOCK_STORE if own.stores.contains_key(&(op.operands[0], op.operands[1])) => {
                let value = op.operands[1];
                let ty = with_layout(&m.values[value].ty, &own.stores[&(op.operands[0], value)]);
                let converted = m.new_value(ty);
                out.push(Op::new(
                    ops::CONVERT_LAYOUT,
                    vec![value],
                    vec![converted],
                    &op,
                ));
                op.operands[1] = converted;
                out.push(op);
            }
            _ => out.push(op),
        }
    }
    *ops = out;
}

/// Removes conversions to the layout a value already has, and a
/// conversion of a conversion's result back to the original layout (uses
/// read the original instead). Conversions left without uses are dropped.
pub fn fold(m: &mut Mirror) {
    let mut source: HashMap<ValueId, ValueId> = HashMap::new();
    let mut renamed: HashMap<ValueId, ValueId> = HashMap::new();
    let types: Vec<String> = m.values.iter().map(|v| v.ty.clone()).collect();
    m.for_each_op_mut(&mut |op| {
        for v in &mut op.operands {
            if let Some(&n) = renamed.get(v) {
                *v = n;
            }
        }
        if op.name != ops::CONVERT_LAYOUT {
            return;
        }
        let (src, res) = (op.operands[0], op.results[0]);
        if types[src] == types[res] {
            renamed.insert(res, src);
        } else if let Some(&origin) = source.get(&src)
            && types[origin] == types[res]
        {
            renamed.insert(res, origin);
        } else {
            source.insert(res, src);
        }
    });
    loop {
        let mut used = vec![false; m.values.len()];
        m.for_each_op(&mut |op| {
            for &v in &op.operands {
                used[v] = true;
            }
        });
        let mut removed = false;
        remove_unused(&mut m.ops, &used, &mut removed);
        if !removed {
            break;
        }
    }
}

fn remove_unused(ops: &mut Vec<Op>, used: &[bool], removed: &mut bool) {
    let before = ops.len();
    ops.retain(|op| op.name != ops::CONVERT_LAYOUT || used[op.results[0]]);
    *removed |= ops.len() != before;
    for op in ops.iter_mut() {
        for Block { ops, .. } in &mut op.regions {
            remove_unused(ops, used, removed);
        }
    }
}
