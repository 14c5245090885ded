//! `tile-assign-layouts`: gives every tensor a distributed layout as the
//! encoding of its type, in place.
//!
//! Values that elementwise ops, loads, stores, broadcasts and loop-carried
//! arguments tie together share one layout. `expand_dims` wants its source
//! in the slice of its result's layout, and a reduction yields the slice of
//! its source's layout. Classes of the highest rank get the layout their
//! largest load or store moves its tile best in (from the axis analysis),
//! else the default blocked layout of their shape
//! ([`Blocked::default_for`]); lower-rank classes take the slice their
//! neighbours ask for. Where two neighbours disagree, a
//! `tile.convert_layout` is inserted (see [`layout_conversions`]). The
//! number of warps comes from the module attribute `tile.num_warps` (4
//! when absent).

use crate::axis_analysis::AxisAnalysis;
use crate::edit::{self, key};
use crate::layout_conversions::{self, OwnLayouts};
use crate::pass::{PassError, PassId, PassInfo, PassResult, kernel_pass};
use melior::ir::attribute::{AttributeLike, DenseElementsAttribute};
use melior::ir::block::BlockLike;
use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
use melior::ir::{OperationRef, RegionLike, Type, Value, ValueLike};
use melior::pass::Pass;
use std::collections::HashMap;
use tile_coalesce::{Blocked, Layout};
use tile_dialect::ops::NUM_WARPS_ATTR;
use tile_dialect::view::{ForLoop, TileOp, TypeTable, op_name, tensor_shape};

static PASS_ID: PassId = PassId;

/// The flag of this pass.
pub const FLAG: &str = "tile-assign-layouts";

/// What `--help` says of it.
pub const INFO: PassInfo = PassInfo {
    name: "TileAssignLayouts",
    flag: FLAG,
    summary: "give every tensor a blocked or sliced layout (module attribute tile.num_warps)",
};

/// Creates the `tile-assign-layouts` pass (on kernels; see [`crate::pass`]).
pub fn create() -> Pass {
    kernel_pass(&PASS_ID, &INFO, assign_layouts)
}

/// The number of warps the module around `op` asks for (`tile.num_warps`,
/// default 4).
pub fn num_warps<'c, 'a>(op: &OperationRef<'c, 'a>) -> Result<u32, PassError> {
    let mut at = Some(*op);
    while let Some(o) = at {
        if o.has_attribute(NUM_WARPS_ATTR) {
            let n = tile_dialect::view::attr::int(&o, NUM_WARPS_ATTR)
                .map_err(|r| PassError::at(&o, r.to_string()))?;
            if n <= 0 || n > 32 || n & (n - 1) != 0 {
                return Err(PassError::at(
                    &o,
                    format!("{NUM_WARPS_ATTR} must be a power of two from 1 to 32, got {n}"),
                ));
            }
            return Ok(n as u32);
        }
        at = o.parent_operation();
    }
    Ok(4)
}

/// The tensor values of a kernel (block arguments and results, in
/// program order) and their indices.
struct Tensors<'c, 'a> {
    values: Vec<Value<'c, 'a>>,
    index: HashMap<usize, usize>,
}

impl<'c, 'a> Tensors<'c, 'a> {
    fn collect(func: &OperationRef<'c, 'a>) -> Self {
        let mut t = Tensors {
            values: Vec::new(),
            index: HashMap::new(),
        };
        let mut add = |v: Value<'c, 'a>| {
            if !tensor_shape(v.r#type()).is_empty() {
                t.index.insert(key(v), t.values.len());
                t.values.push(v);
            }
        };
        // Results before the arguments of the op's regions, as MLIR
        // prints them: classes are numbered in this order.
        func.walk(WalkOrder::PreOrder, |op| {
            for r in op.results() {
                // SAFETY: results live as long as the kernel.
                add(unsafe { Value::from_raw(r.to_raw()) });
            }
            for region in op.regions() {
                let mut next = region.first_block();
                while let Some(b) = next {
                    for i in 0..b.argument_count() {
                        if let Ok(a) = b.argument(i) {
                            // SAFETY: block arguments live as long as the kernel.
                            add(unsafe { Value::from_raw(a.to_raw()) });
                        }
                    }
                    next = b.next_in_region();
                }
            }
            WalkResult::Advance
        });
        t
    }

    fn id(&self, v: Value) -> Option<usize> {
        self.index.get(&key(v)).copied()
    }
}

/// Assigns layouts in the kernel `func` (see the module docs).
pub fn assign_layouts(func: &OperationRef) -> PassResult {
    let types = TypeTable::new(tile_dialect::context_of(func.context()));
    let warps = num_warps(func)?;
    let tensors = Tensors::collect(func);
    let mut laid_out = 0;
    for &v in &tensors.values {
        if types
            .layout(v.r#type())
            .map_err(|e| PassError::at(func, e.to_string()))?
            .is_some()
        {
            laid_out += 1;
        }
    }
    if laid_out == tensors.values.len() {
        return Ok(());
    }
    if laid_out > 0 {
        return Err(PassError::at(
            func,
            "has some tensors with layouts and others without; tile-assign-layouts wants all or none",
        ));
    }

    // Classes of values that must share a layout.
    let mut classes = UnionFind::new(tensors.values.len());
    let mut wants: Vec<Want> = Vec::new();
    let mut failure = None;
    func.walk(WalkOrder::PreOrder, |op| {
        if op.to_raw().ptr != func.to_raw().ptr
            && let Err(e) = tie(&types, &op, &tensors, &mut classes, &mut wants)
        {
            failure = Some(e);
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    if let Some(e) = failure {
        return Err(e);
    }

    // Per class: rank and the largest extent along each axis.
    let mut shape_of: HashMap<usize, Vec<i64>> = HashMap::new();
    for (i, v) in tensors.values.iter().enumerate() {
        let shape = tensor_shape(v.r#type());
        let entry = shape_of
            .entry(classes.find(i))
            .or_insert_with(|| shape.clone());
        for (e, s) in entry.iter_mut().zip(&shape) {
            *e = (*e).max(*s);
        }
    }
    let mut order: Vec<usize> = shape_of.keys().copied().collect();
    order.sort_by_key(|c| (std::cmp::Reverse(shape_of[c].len()), *c));

    // The layout each load and store would move its tile best in.
    let accesses = preferred_layouts(&types, func, &tensors, warps)?;
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
                    .map_err(|e| PassError::at(func, e.to_string()))?,
            ),
        };
        layout_of.insert(class, layout);
    }
    // Block-pointer accesses whose best order differs from their class's
    // keep their own layout, with a conversion between.
    let mut own = OwnLayouts::default();
    for a in accesses.iter().filter(|a| a.block_ptr) {
        let class = classes.find(a.tensor);
        if let Layout::Blocked(b) = &layout_of[&class]
            && b.order != a.layout.order
            && shape_of.get(&class) == Some(&a.shape)
        {
            let layout = Layout::Blocked(a.layout.clone());
            let value = key(tensors.values[a.tensor]);
            match a.store {
                Some(op) => own.stores.insert(op, layout),
                None => own.loads.insert(value, layout),
            };
        }
    }

    // Types with encodings, in place.
    for (i, v) in tensors.values.iter().enumerate() {
        let layout = &layout_of[&classes.find(i)];
        v.set_type(types.with_layout(v.r#type(), Some(layout)));
    }
    fix_constants(func);
    insert_conversions(&types, func)?;
    layout_conversions::convert_at_accesses(&types, func, &own)?;
    layout_conversions::fold(func);
    Ok(())
}

/// A load or store and the layout it moves its tile best in.
struct PreferredLayout {
    /// The tensor loaded or stored (its index in [`Tensors`]).
    tensor: usize,
    /// Its shape.
    shape: Vec<i64>,
    /// Bytes moved.
    bytes: i64,
    /// True for block-pointer accesses.
    block_ptr: bool,
    /// For a store, the op (`None` for loads).
    store: Option<usize>,
    /// The layout from the axis analysis.
    layout: Blocked,
}

fn preferred_layouts<'c>(
    types: &TypeTable<'c>,
    func: &OperationRef<'c, '_>,
    tensors: &Tensors,
    warps: u32,
) -> Result<Vec<PreferredLayout>, PassError> {
    let analysis = AxisAnalysis::run(types, func);
    let mut out = Vec::new();
    let mut failure = None;
    func.walk(WalkOrder::PreOrder, |op| {
        let Ok(Some(view)) = TileOp::read(&op, |v| types.tile_type(v.r#type())) else {
            return WalkResult::Advance;
        };
        let Some(access) = analysis.access(&view) else {
            return WalkResult::Advance;
        };
        let (tensor, store) = match &view {
            TileOp::Load(_) | TileOp::BlockLoad(_) => match op.result(0) {
                Ok(r) => (Value::from(r), None),
                Err(_) => return WalkResult::Advance,
            },
            TileOp::Store(s) => (s.value, Some(op.to_raw().ptr as usize)),
            TileOp::BlockStore(s) => (s.value, Some(op.to_raw().ptr as usize)),
            _ => return WalkResult::Advance,
        };
        let Some(tensor) = tensors.id(tensor) else {
            return WalkResult::Advance;
        };
        match access.layout(warps) {
            Ok(layout) => out.push(PreferredLayout {
                tensor,
                bytes: access.shape.iter().product::<i64>() * access.elem_bytes,
                shape: access.shape,
                block_ptr: matches!(view, TileOp::BlockLoad(_) | TileOp::BlockStore(_)),
                store,
                layout,
            }),
            Err(e) => {
                failure = Some(PassError::at(&op, e.to_string()));
                return WalkResult::Interrupt;
            }
        }
        WalkResult::Advance
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// Constants carry their type in their value: give each tensor constant's
/// value the type (with layout) of its result.
fn fix_constants(func: &OperationRef) {
    func.walk(WalkOrder::PreOrder, |op| {
        if op_name(&op) == "arith.constant"
            && let Ok(r) = op.result(0)
            && let Ok(value) = op.attribute("value")
            && let Ok(dense) = DenseElementsAttribute::try_from(value)
            && dense.r#type() != r.r#type()
        {
            let retyped = if dense.is_splat() {
                DenseElementsAttribute::splat(r.r#type(), dense.splat_value())
            } else {
                dense.reshape(r.r#type())
            };
            edit::set_attribute(&op, "value", retyped.into());
        }
        WalkResult::Advance
    });
}

/// A constraint between classes: `class`'s layout is the slice along
/// `axis` of `source`'s (an expand_dims source, or a reduction result).
struct Want {
    class: usize,
    source: usize,
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

fn tie<'c>(
    types: &TypeTable<'c>,
    op: &OperationRef<'c, '_>,
    tensors: &Tensors,
    classes: &mut UnionFind,
    wants: &mut Vec<Want>,
) -> PassResult {
    let id = |v: Value| tensors.id(v);
    let result = || op.result(0).ok().and_then(|r| id(r.into()));
    match TileOp::read(op, |v| types.tile_type(v.r#type())) {
        Ok(Some(TileOp::ExpandDims(e))) => {
            if let (Some(src), Some(res)) = (id(e.src), result()) {
                wants.push(Want {
                    class: src,
                    source: res,
                    axis: e.axis as usize,
                });
            }
            return Ok(());
        }
        Ok(Some(TileOp::Reduce(r))) => {
            match (id(r.src), result()) {
                // A 1-d tensor reduces to a scalar.
                (_, None) | (None, _) => {}
                (Some(src), Some(out)) if r.keep_dims => classes.union(src, out),
                (Some(src), Some(out)) => wants.push(Want {
                    class: out,
                    source: src,
                    axis: r.axis as usize,
                }),
            }
            return Ok(());
        }
        Ok(Some(TileOp::ConvertLayout(_))) => return Ok(()),
        _ => {}
    }
    if let Ok(Some(l)) = ForLoop::read(op) {
        for (i, init) in l.inits.iter().enumerate() {
            let Some(init) = id(*init) else { continue };
            for v in [l.results[i], l.iter_args[i], l.yielded[i]] {
                if let Some(v) = id(v) {
                    classes.union(init, v);
                }
            }
        }
        return Ok(());
    }
    let name = op_name(op);
    let operands: Vec<usize> = op.operands().filter_map(id).collect();
    let results: Vec<usize> = op.results().filter_map(|r| id(r.into())).collect();
    match name {
        "func.func" => {
            let body = op.region(0).ok().and_then(|r| r.first_block());
            if let Some(b) = body
                && (0..b.argument_count())
                    .any(|i| b.argument(i).is_ok_and(|a| id(a.into()).is_some()))
            {
                return Err(PassError::at(
                    op,
                    "takes a tensor argument; kernel arguments are scalars and pointers",
                ));
            }
        }
        "func.return" | "scf.yield" => {}
        _ if name.starts_with("tile.")
            || name.starts_with("arith.")
            || name.starts_with("math.") =>
        {
            let all: Vec<usize> = operands.into_iter().chain(results).collect();
            for pair in all.windows(2) {
                classes.union(pair[0], pair[1]);
            }
        }
        _ => {
            if !operands.is_empty() || !results.is_empty() {
                return Err(PassError::at(
                    op,
                    "on tensors is not supported by tile-assign-layouts",
                ));
            }
        }
    }
    Ok(())
}

/// Where an `expand_dims` source or a reduction result is not in the slice
/// of its neighbour's layout, converts it.
fn insert_conversions<'c>(types: &TypeTable<'c>, func: &OperationRef<'c, '_>) -> PassResult {
    let mut todo = Vec::new();
    func.walk(WalkOrder::PreOrder, |op| {
        match TileOp::read(&op, |v| types.tile_type(v.r#type())) {
            Ok(Some(TileOp::ExpandDims(_))) => todo.push(op.to_raw()),
            Ok(Some(TileOp::Reduce(r))) if !r.keep_dims => todo.push(op.to_raw()),
            _ => {}
        }
        WalkResult::Advance
    });
    let layout = |ty: Type<'c>, op: &OperationRef| -> Result<Layout, PassError> {
        types
            .layout(ty)
            .map_err(|e| PassError::at(op, e.to_string()))?
            .ok_or_else(|| PassError::at(op, format!("has a value of type {ty} without a layout")))
    };
    for raw in todo {
        // SAFETY: the ops collected above are live; inserting conversions
        // next to them destroys none.
        let op = unsafe { OperationRef::from_raw(raw) };
        let view = TileOp::read(&op, |v| types.tile_type(v.r#type()))
            .map_err(|r| PassError::at(&op, r.to_string()))?;
        let result: Value = op
            .result(0)
            .map_err(|e| PassError::at(&op, e.to_string()))?
            .into();
        match view {
            Some(TileOp::ExpandDims(e)) => {
                let want = layout(result.r#type(), &op)?.slice(e.axis as usize);
                if layout(e.src.r#type(), &op)? != want {
                    let ty = types.with_layout(e.src.r#type(), Some(&want));
                    let converted = layout_conversions::convert_before(&op, e.src, ty)?;
                    edit::set_operands(&op, &[converted]);
                }
            }
            Some(TileOp::Reduce(r)) if !tensor_shape(result.r#type()).is_empty() => {
                let want = layout(r.src.r#type(), &op)?.slice(r.axis as usize);
                if layout(result.r#type(), &op)? != want {
                    let class_ty = result.r#type();
                    result.set_type(types.with_layout(class_ty, Some(&want)));
                    layout_conversions::convert_after(&op, result, class_ty)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// A small union-find over value indices.
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
