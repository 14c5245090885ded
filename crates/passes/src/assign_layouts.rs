//! `tile-assign-layouts`: gives every tensor a distributed layout as the
//! encoding of its type.
//!
//! Values that elementwise ops, loads, stores, broadcasts and loop-carried
//! arguments tie together share one layout. `expand_dims` wants its source
//! in the slice of its result's layout, and a reduction yields the slice of
//! its source's layout. Classes of the highest rank get the default
//! blocked layout of their shape ([`Blocked::default_for`]); lower-rank
//! classes take the slice their neighbours ask for. Where two neighbours
//! disagree, a `tile.convert_layout` is inserted. The number of warps comes
//! from the module attribute `tile.num_warps` (4 when absent; the attribute
//! is then added).

use crate::axis_analysis::AxisAnalysis;
use crate::layout_conversions;
use crate::mirror::{Block, Mirror, Op, ValueId};
use crate::rewrite::{PassError, run_mirror_edit};
use melior::ir::OperationRef;
use melior::ir::r#type::TypeId;
use melior::pass::{ExternalPass, Pass, create_external};
use std::collections::HashMap;
use tile_coalesce::{Blocked, Layout};
use tile_dialect::{TileType, ops};

#[repr(align(8))]
struct PassId;
static PASS_ID: PassId = PassId;

/// The flag of this pass.
pub const FLAG: &str = "tile-assign-layouts";

/// The module attribute holding the number of warps of each program.
pub const NUM_WARPS_ATTR: &str = "tile.num_warps";

/// Creates the `tile-assign-layouts` pass (runs on `builtin.module`).
pub fn create() -> Pass {
    create_external(
        |op: OperationRef<'_, '_>, pass: ExternalPass<'_>| {
            run_mirror_edit(&op, &pass, FLAG, assign_layouts);
        },
        TypeId::create(&PASS_ID),
        "TileAssignLayouts",
        FLAG,
        "give every tensor a blocked or sliced layout as its encoding",
        "builtin.module",
        &[],
    )
}

/// The number of warps the module asks for (`tile.num_warps`, default 4).
pub fn num_warps(m: &Mirror) -> Result<u32, PassError> {
    let Some(text) = m.attr(NUM_WARPS_ATTR) else {
        return Ok(4);
    };
    let n: u32 = text
        .split(':')
        .next()
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0);
    if n == 0 || !n.is_power_of_two() || n > 32 {
        return Err(PassError::module(format!(
            "{NUM_WARPS_ATTR} must be a power of two from 1 to 32, got {text}"
        )));
    }
    Ok(n)
}

/// Assigns layouts in `m` (see the module docs).
pub fn assign_layouts(m: &mut Mirror) -> Result<(), PassError> {
    let warps = num_warps(m)?;
    if m.attr(NUM_WARPS_ATTR).is_none() {
        m.attrs
            .push((NUM_WARPS_ATTR.into(), format!("{warps} : i32")));
    }
    let tensors: Vec<bool> = m
        .values
        .iter()
        .map(|v| tensor_shape(&v.ty).is_some())
        .collect();
    let laid_out = m
        .values
        .iter()
        .filter(|v| tensor_shape(&v.ty).is_some() && v.ty.contains(", #tile."))
        .count();
    let total = tensors.iter().filter(|&&t| t).count();
    if laid_out == total {
        return Ok(());
    }
    if laid_out > 0 {
        return Err(PassError::module(
            "some tensors already have layouts and others do not; \
             tile-assign-layouts wants all or none",
        ));
    }

    // Classes of values that must share a layout.
    let mut classes = UnionFind::new(m.values.len());
    let mut wants: Vec<Want> = Vec::new();
    let mut failure = None;
    m.for_each_op(&mut |op| {
        if failure.is_none()
            && let Err(e) = tie(op, &tensors, &mut classes, &mut wants)
        {
            failure = Some(e);
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }

    // Per class: rank and the largest extent along each axis.
    let mut shape_of: HashMap<usize, Vec<i64>> = HashMap::new();
    for (v, &is_tensor) in tensors.iter().enumerate() {
        if !is_tensor {
            continue;
        }
        let shape = tensor_shape(&m.values[v].ty).unwrap_or_default();
        let entry = shape_of
            .entry(classes.find(v))
            .or_insert_with(|| shape.clone());
        for (e, s) in entry.iter_mut().zip(&shape) {
            *e = (*e).max(*s);
        }
    }
    let mut order: Vec<usize> = shape_of.keys().copied().collect();
    order.sort_by_key(|c| (std::cmp::Reverse(shape_of[c].len()), *c));

    // The layout each load and store would move its tile best in.
    let accesses = preferred_layouts(m, warps)?;
    let mut best: HashMap<usize, (i64, Blocked)> = HashMap::new();
    for a in &accesses {
        let class = classes.find(a.tensor);
        if shape_of.get(&class) != Some(&a.shape) {
            continue;
        }
        let entry = best.entry(class).or_insert((a.bytes, a.layout.clone()));
        if a.bytes > entry.0 {
            *entry = (a.bytes, a.layout.clone());
        }
    }

    let mut layout_of: HashMap<usize, Layout> = HashMap::new();
    for class in order {
        let proposal = wants
            .iter()
            .find_map(|w| w.proposal(class, &mut classes, &layout_of));
        let layout = match (proposal, best.get(&class)) {
            (Some(l), _) => l,
            (None, Some((_, access))) => Layout::Blocked(access.clone()),
            (None, None) => Layout::Blocked(
                Blocked::default_for(&shape_of[&class], warps)
                    .map_err(|e| PassError::module(e.to_string()))?,
            ),
        };
        layout_of.insert(class, layout);
    }
    // Block-pointer accesses whose best order differs from their class's
    // keep their own layout, with a conversion between.
    let mut own = layout_conversions::OwnLayouts::default();
    for a in accesses.iter().filter(|a| a.block_ptr) {
        let class_layout = &layout_of[&classes.find(a.tensor)];
        if let Layout::Blocked(b) = class_layout
            && b.order != a.layout.order
            && shape_of.get(&classes.find(a.tensor)) == Some(&a.shape)
        {
            let layout = Layout::Blocked(a.layout.clone());
            match a.pointer {
                Some(bp) => own.stores.insert((bp, a.tensor), layout),
                None => own.loads.insert(a.tensor, layout),
            };
        }
    }

    // Types with encodings.
    for v in 0..m.values.len() {
        if tensors[v] {
            let layout = &layout_of[&classes.find(v)];
            m.values[v].ty = with_layout(&m.values[v].ty, layout);
        }
    }
    // Conversions where a slice relation does not hold.
    let mut ops = std::mem::take(&mut m.ops);
    insert_conversions(&mut ops, m)?;
    m.ops = ops;
    if !own.loads.is_empty() || !own.stores.is_empty() {
        layout_conversions::convert_at_accesses(m, &own);
    }
    layout_conversions::fold(m);
    // Constants carry their type in their value.
    fix_constant_types(m);
    Ok(())
}

/// A load or store and the layout it moves its tile best in.
struct PreferredLayout {
    /// The tensor loaded or stored.
    tensor: ValueId,
    /// Its shape.
    shape: Vec<i64>,
    /// Bytes moved.
    bytes: i64,
    /// True for block-pointer accesses.
    block_ptr: bool,
    /// For a store, the pointer operand (`None` for loads).
    pointer: Option<ValueId>,
    /// The layout from the axis analysis.
    layout: Blocked,
}

fn preferred_layouts(m: &Mirror, warps: u32) -> Result<Vec<PreferredLayout>, PassError> {
    let analysis = AxisAnalysis::run(m);
    let mut out = Vec::new();
    let mut failure = None;
    m.for_each_op(&mut |op| {
        let Some(access) = analysis.access(m, op) else {
            return;
        };
        let tensor = match op.name.as_str() {
            ops::LOAD | ops::BLOCK_LOAD => op.results[0],
            _ => op.operands[1],
        };
        match access.layout(warps) {
            Ok(layout) => out.push(PreferredLayout {
                tensor,
                bytes: access.shape.iter().product::<i64>() * access.elem_bytes,
                shape: access.shape,
                block_ptr: op.name.starts_with("tile.block_"),
                pointer: (op.name == ops::STORE || op.name == ops::BLOCK_STORE)
                    .then(|| op.operands[0]),
                layout,
            }),
            Err(e) => failure = Some(PassError::at(op, e.to_string())),
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

fn fix_constant_types(m: &mut Mirror) {
    let types: Vec<String> = m.values.iter().map(|v| v.ty.clone()).collect();
    m.for_each_op_mut(&mut |op| {
        if op.name == "arith.constant"
            && let Some(value) = op.attr("value").map(str::to_string)
            && let Some(&r) = op.results.first()
            && let Some(at) = value.find("> : tensor<")
            && value.starts_with("dense<")
        {
            op.set_attr("value", format!("{}> : {}", &value[..at], types[r]));
        }
    });
}

/// A constraint between classes: `from`'s layout is the slice along
/// `axis` of `to`'s (expand_dims source) or `to`'s is the slice of
/// `from`'s (reduction result).
struct Want {
    /// The class whose layout is proposed.
    class: ValueId,
    /// The class it derives from.
    source: ValueId,
    /// The axis sliced away.
    axis: usize,
}

impl Want {
    fn proposal(
        &self,
        class: usize,
        classes: &mut UnionFind,
        layout_of: &HashMap<usize, Layout>,
    ) -> Option<Layout> {
        if classes.find(self.class) != class {
            return None;
        }
        let source = layout_of.get(&classes.find(self.source))?;
        Some(source.slice(self.axis))
    }
}

fn tie(
    op: &Op,
    tensors: &[bool],
    classes: &mut UnionFind,
    wants: &mut Vec<Want>,
) -> Result<(), PassError> {
    let tensor_values =
        |vs: &[ValueId]| -> Vec<ValueId> { vs.iter().copied().filter(|&v| tensors[v]).collect() };
    match op.name.as_str() {
        ops::EXPAND_DIMS => {
            let axis = op.int_attr("axis").unwrap_or(0) as usize;
            wants.push(Want {
                class: op.operands[0],
                source: op.results[0],
                axis,
            });
        }
        ops::REDUCE => {
            let axis = op.int_attr("axis").unwrap_or(0) as usize;
            let keep = op.attr("keep_dims") == Some("true");
            let (src, out) = (op.operands[0], op.results[0]);
            if !tensors[out] {
                // A 1-d tensor reduces to a scalar.
            } else if keep {
                classes.union(src, out);
            } else {
                wants.push(Want {
                    class: out,
                    source: src,
                    axis,
                });
            }
        }
        ops::CONVERT_LAYOUT => {}
        "scf.for" => {
            let body = &op.regions[0];
            let inits = &op.operands[3..];
            let yields = body
                .ops
                .last()
                .map(|y| y.operands.clone())
                .unwrap_or_default();
            for (i, &init) in inits.iter().enumerate() {
                if !tensors[init] {
                    continue;
                }
                classes.union(init, op.results[i]);
                classes.union(init, body.args[i + 1]);
                if let Some(&y) = yields.get(i) {
                    classes.union(init, y);
                }
            }
        }
        "func.func" => {
            let args = op
                .regions
                .first()
                .map(|b| b.args.clone())
                .unwrap_or_default();
            if args.iter().any(|&a| tensors[a]) {
                return Err(PassError::at(
                    op,
                    "takes a tensor argument; kernel arguments are scalars and pointers",
                ));
            }
        }
        "func.return" | "scf.yield" => {}
        name if name.starts_with("tile.")
            || name.starts_with("arith.")
            || name.starts_with("math.") =>
        {
            let all: Vec<ValueId> = tensor_values(&op.operands)
                .into_iter()
                .chain(tensor_values(&op.results))
                .collect();
            for pair in all.windows(2) {
                classes.union(pair[0], pair[1]);
            }
        }
        _ => {
            if op.results.iter().chain(&op.operands).any(|&v| tensors[v]) {
                return Err(PassError::at(
                    op,
                    "on tensors is not supported by tile-assign-layouts",
                ));
            }
        }
    }
    Ok(())
}

fn insert_conversions(ops: &mut Vec<Op>, m: &mut Mirror) -> Result<(), PassError> {
    let mut out = Vec::with_capacity(ops.len());
    let mut renamed: HashMap<ValueId, ValueId> = HashMap::new();
    for mut op in std::mem::take(ops) {
        for v in &mut op.operands {
            if let Some(&n) = renamed.get(v) {
                *v = n;
            }
        }
        for block in &mut op.regions {
            insert_conversions_in(block, m, &mut renamed)?;
        }
        match op.name.as_str() {
            ops::EXPAND_DIMS => {
                let axis = op.int_attr("axis").unwrap_or(0) as usize;
                let (src, res) = (op.operands[0], op.results[0]);
                let want = layout(m, res)?.slice(axis);
                if layout(m, src)? != want {
                    let converted = m.new_value(with_layout(&m.values[src].ty, &want));
                    out.push(Op::new(
                        ops::CONVERT_LAYOUT,
                        vec![src],
                        vec![converted],
                        &op,
                    ));
                    op.operands[0] = converted;
                }
                out.push(op);
            }
            ops::REDUCE if op.attr("keep_dims") != Some("true") => {
                let axis = op.int_attr("axis").unwrap_or(0) as usize;
                let (src, res) = (op.operands[0], op.results[0]);
                if tensor_shape(&m.values[res].ty).is_some() {
                    let want = layout(m, src)?.slice(axis);
                    if layout(m, res)? != want {
                        let class_ty = m.values[res].ty.clone();
                        let sliced = m.new_value(with_layout(&class_ty, &want));
                        let converted = m.new_value(class_ty);
                        op.results[0] = sliced;
                        let convert =
                            Op::new(ops::CONVERT_LAYOUT, vec![sliced], vec![converted], &op);
                        renamed.insert(res, converted);
                        out.push(op);
                        out.push(convert);
                        continue;
                    }
                }
                out.push(op);
            }
            _ => out.push(op),
        }
    }
    *ops = out;
    Ok(())
}

fn insert_conversions_in(
    block: &mut Block,
    m: &mut Mirror,
    renamed: &mut HashMap<ValueId, ValueId>,
) -> Result<(), PassError> {
    let mut ops = std::mem::take(&mut block.ops);
    for op in &mut ops {
        for v in &mut op.operands {
            if let Some(&n) = renamed.get(v) {
                *v = n;
            }
        }
    }
    insert_conversions(&mut ops, m)?;
    block.ops = ops;
    Ok(())
}

fn layout(m: &Mirror, v: ValueId) -> Result<Layout, PassError> {
    Layout::of_type(&m.values[v].ty)
        .map_err(|e| PassError::module(e.to_string()))?
        .ok_or_else(|| PassError::module(format!("value of type {} has no layout", m.values[v].ty)))
}

/// The shape of a ranked tensor type (with or without encoding).
pub fn tensor_shape(ty: &str) -> Option<Vec<i64>> {
    match TileType::parse(ty)? {
        TileType::Tensor { shape, .. } if !shape.is_empty() => Some(shape),
        _ => None,
    }
}

/// `tensor<...>` with `layout` as its encoding (replacing any).
pub fn with_layout(ty: &str, layout: &Layout) -> String {
    let inner = ty
        .trim()
        .strip_prefix("tensor<")
        .and_then(|t| t.strip_suffix('>'))
        .unwrap_or(ty);
    let bare = inner.split_once(',').map_or(inner, |(t, _)| t).trim();
    format!("tensor<{bare}, {layout}>")
}

/// A small union-find over value ids.
struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    fn new(n: usize) -> Self {
        UnionFind {
            parent: (0..n).collect(),
        }
    }

    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.parent[a.max(b)] = a.min(b);
        }
    }
}
