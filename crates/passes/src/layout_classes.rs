//! The classes of tensor values that must share a layout, for
//! `tile-assign-layouts`.
//!
//! Elementwise ops, broadcasts, layout-free tile ops and loop-carried
//! values tie their tensors into one class. `expand_dims` wants its source
//! in the slice of its result's layout and a reduction yields the slice of
//! its source's layout ([`Want`]). A `tile.dot` ties its accumulator to its
//! result, not its operands: the product lives in a tensor-core layout.
//!
//! A load's value and its pointers (a store's likewise) are tied too,
//! unless the value belongs to a class holding a product ([`Classes::mma`]):
//! the access then keeps the layout its pointers get, and the value is
//! converted ([`Classes::split_accesses`]), so that addresses are not
//! computed, nor memory moved, in the tensor-core layout.

use crate::edit::key;
use crate::pass::{PassError, PassResult};
use melior::ir::block::BlockLike;
use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
use melior::ir::{OperationRef, RegionLike, Value, ValueLike};
use std::collections::{HashMap, HashSet};
use tile_coalesce::Layout;
use tile_dialect::view::{ForLoop, IfOp, TileOp, TypeTable, WhileLoop, op_name, tensor_shape};

/// The tensor values of a kernel (block arguments and results, in
/// program order) and their indices.
pub struct Tensors<'c, 'a> {
    /// The values.
    pub values: Vec<Value<'c, 'a>>,
    index: HashMap<usize, usize>,
}

impl<'c, 'a> Tensors<'c, 'a> {
    /// The tensors of the kernel `func`.
    pub fn collect(func: &OperationRef<'c, 'a>) -> Self {
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

    /// The index of a tensor value.
    pub fn id(&self, v: Value) -> Option<usize> {
        self.index.get(&key(v)).copied()
    }
}

/// A constraint between classes: `class`'s layout is the slice along
/// `axis` of `source`'s (an expand_dims source, or a reduction result).
pub struct Want {
    class: usize,
    source: usize,
    axis: usize,
}

impl Want {
    /// The tensor whose class takes the slice (an expand_dims source, a
    /// reduction result): an index in [`Tensors`].
    pub fn class(&self) -> usize {
        self.class
    }

    /// The tensor whose layout is sliced (the expand_dims result, the
    /// tensor reduced).
    pub fn source(&self) -> usize {
        self.source
    }

    /// The axis the slice drops.
    pub fn axis(&self) -> usize {
        self.axis
    }

    /// The layout this constraint proposes for `class`, once its source
    /// has one.
    pub fn proposal(
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

/// A load, store or atomic read-modify-write: its value and its pointer
/// tensor (indices in [`Tensors`]) and the op.
#[derive(Clone, Copy, Debug)]
pub struct Access {
    /// The value loaded or stored.
    pub value: usize,
    /// The pointer tensor.
    pub ptr: usize,
    /// The op's handle.
    pub op: usize,
    /// True for stores and atomics (the value is an operand).
    pub store: bool,
}

/// A `tile.dot`: its result and the shape of the product.
#[derive(Clone, Debug)]
pub struct Product {
    /// The result (an index in [`Tensors`]).
    pub result: usize,
    /// [M, N].
    pub shape: [i64; 2],
    /// The inputs' element type.
    pub inputs: tile_dialect::DType,
    /// How f32 inputs multiply.
    pub precision: tile_dialect::InputPrecision,
    /// The operands `a` and `b` (indices in [`Tensors`]).
    pub operands: [Option<usize>; 2],
}

/// The classes of a kernel's tensors and the constraints between them.
pub struct Classes {
    /// Which values share a layout.
    pub sets: UnionFind,
    /// Slice constraints.
    pub wants: Vec<Want>,
    /// Loads and stores of pointer tensors.
    pub accesses: Vec<Access>,
    /// The products.
    pub products: Vec<Product>,
    /// Reductions and scans: the tensor reduced or scanned (an index in
    /// [`Tensors`]) and the axis.
    pub reductions: Vec<(usize, usize)>,
    /// Scans alone, as in [`Classes::reductions`].
    pub scans: Vec<(usize, usize)>,
}

impl Classes {
    /// Ties the tensors of the kernel `func`.
    pub fn of<'c>(
        types: &TypeTable<'c>,
        func: &OperationRef<'c, '_>,
        tensors: &Tensors,
    ) -> Result<Classes, PassError> {
        let mut c = Classes {
            sets: UnionFind::new(tensors.values.len()),
            wants: Vec::new(),
            accesses: Vec::new(),
            products: Vec::new(),
            reductions: Vec::new(),
            scans: Vec::new(),
        };
        // A kernel's arguments are scalars and pointers: a tensor argument
        // has no layout to start from (and the walk below does not visit
        // the kernel op itself).
        let body = func.region(0).ok().and_then(|r| r.first_block());
        if let Some(b) = body
            && (0..b.argument_count())
                .any(|i| b.argument(i).is_ok_and(|a| tensors.id(a.into()).is_some()))
        {
            return Err(PassError::at(
                func,
                "takes a tensor argument; kernel arguments are scalars and pointers",
            ));
        }
        let mut failure = None;
        func.walk(WalkOrder::PreOrder, |op| {
            if op.to_raw().ptr != func.to_raw().ptr
                && let Err(e) = c.tie(types, &op, tensors)
            {
                failure = Some(e);
                return WalkResult::Interrupt;
            }
            WalkResult::Advance
        });
        if let Some(e) = failure {
            return Err(e);
        }
        // Accesses join their values' classes, except products'.
        let mma = c.mma();
        for a in c.accesses.clone() {
            if !mma.contains(&c.sets.find(a.value)) {
                c.sets.union(a.value, a.ptr);
            }
        }
        Ok(c)
    }

    /// The classes holding a product.
    pub fn mma(&mut self) -> HashSet<usize> {
        let results: Vec<usize> = self.products.iter().map(|p| p.result).collect();
        results.into_iter().map(|r| self.sets.find(r)).collect()
    }

    /// The accesses whose value is in another class than their pointers:
    /// those of products' classes.
    pub fn split_accesses(&mut self) -> Vec<Access> {
        let accesses = self.accesses.clone();
        accesses
            .into_iter()
            .filter(|a| self.sets.find(a.value) != self.sets.find(a.ptr))
            .collect()
    }

    fn tie<'c>(
        &mut self,
        types: &TypeTable<'c>,
        op: &OperationRef<'c, '_>,
        tensors: &Tensors,
    ) -> PassResult {
        let id = |v: Value| tensors.id(v);
        let result = || crate::edit::result_of(op, 0).and_then(|r| id(r.into()));
        match TileOp::read(op, |v| types.tile_type(v.r#type())) {
            Ok(Some(TileOp::ExpandDims(e))) => {
                if let (Some(src), Some(res)) = (id(e.src), result()) {
                    self.wants.push(Want {
                        class: src,
                        source: res,
                        axis: e.axis as usize,
                    });
                }
                return Ok(());
            }
            Ok(Some(TileOp::Reduce(r))) => {
                if let Some(src) = id(r.src) {
                    self.reductions.push((src, r.axis as usize));
                }
                match (id(r.src), result()) {
                    // A 1-d tensor reduces to a scalar.
                    (_, None) | (None, _) => {}
                    (Some(src), Some(out)) if r.keep_dims => self.sets.union(src, out),
                    (Some(src), Some(out)) => self.wants.push(Want {
                        class: out,
                        source: src,
                        axis: r.axis as usize,
                    }),
                }
                return Ok(());
            }
            // Each printed value keeps its own layout (they may differ in
            // shape); an assertion reads its condition in any layout. The
            // ops that move elements (reshape, permute, join, split, cat)
            // go through shared memory from any layout to any other.
            Ok(Some(
                TileOp::ConvertLayout(_)
                | TileOp::Print(_)
                | TileOp::Assert(_)
                | TileOp::Reshape(_)
                | TileOp::Permute(_)
                | TileOp::Join(_)
                | TileOp::Split(_)
                | TileOp::Cat(_),
            )) => {
                return Ok(());
            }
            Ok(Some(TileOp::Scan(c))) => {
                // Tied like any elementwise op below; noted as a reduction
                // along its axis.
                if let Some(src) = id(c.src) {
                    self.reductions.push((src, c.axis as usize));
                    self.scans.push((src, c.axis as usize));
                }
            }
            Ok(Some(TileOp::Dot(d))) => {
                let inputs = types
                    .tile_type(d.a.r#type())
                    .and_then(|t| t.num())
                    .ok_or_else(|| PassError::at(op, "multiplies something other than numbers"))?;
                if let (Some(acc), Some(out)) = (id(d.acc), result()) {
                    self.sets.union(acc, out);
                    let shape = tensor_shape(d.acc.r#type());
                    self.products.push(Product {
                        result: out,
                        shape: [shape[0], shape[1]],
                        inputs,
                        precision: d.precision,
                        operands: [id(d.a), id(d.b)],
                    });
                }
                return Ok(());
            }
            Ok(Some(TileOp::Load(l))) => {
                let address: Vec<usize> = [Some(l.ptr), l.mask, l.other]
                    .into_iter()
                    .flatten()
                    .filter_map(id)
                    .collect();
                self.union_all(&address);
                if let (Some(&ptr), Some(value)) = (address.first(), result()) {
                    self.accesses.push(Access {
                        value,
                        ptr,
                        op: op.to_raw().ptr as usize,
                        store: false,
                    });
                }
                return Ok(());
            }
            Ok(Some(TileOp::AtomicRmw(a))) => {
                // Like a store: the addresses, the mask and the old values
                // (which come back where the addresses are) in one class;
                // the operand joins it unless it is a product's.
                let mut address: Vec<usize> = [Some(a.ptr), a.mask]
                    .into_iter()
                    .flatten()
                    .filter_map(id)
                    .collect();
                address.extend(result());
                self.union_all(&address);
                if let (Some(&ptr), Some(value)) = (address.first(), id(a.val)) {
                    self.accesses.push(Access {
                        value,
                        ptr,
                        op: op.to_raw().ptr as usize,
                        store: true,
                    });
                }
                return Ok(());
            }
            Ok(Some(TileOp::Store(s))) => {
                let address: Vec<usize> = [Some(s.ptr), s.mask]
                    .into_iter()
                    .flatten()
                    .filter_map(id)
                    .collect();
                self.union_all(&address);
                // A scalar stored through pointers is splat: nothing to tie.
                if let (Some(&ptr), Some(value)) = (address.first(), id(s.value)) {
                    self.accesses.push(Access {
                        value,
                        ptr,
                        op: op.to_raw().ptr as usize,
                        store: true,
                    });
                }
                return Ok(());
            }
            _ => {}
        }
        if let Ok(Some(l)) = ForLoop::read(op) {
            for (i, init) in l.inits.iter().enumerate() {
                let Some(init) = id(*init) else { continue };
                for v in [l.results[i], l.iter_args[i], l.yielded[i]] {
                    if let Some(v) = id(v) {
                        self.sets.union(init, v);
                    }
                }
            }
            return Ok(());
        }
        // A branch's results and what each branch yields share a layout,
        // as do the values of each slot of a while loop (carried: the
        // initial value, the condition block's argument, the body's yield;
        // forwarded: the condition's operand, the body's argument, the
        // result).
        if let Ok(Some(b)) = IfOp::read(op) {
            for (i, &r) in b.results.iter().enumerate() {
                let tied: Vec<usize> = [
                    Some(r),
                    b.then_yielded.get(i).copied(),
                    b.else_yielded.get(i).copied(),
                ]
                .into_iter()
                .flatten()
                .filter_map(id)
                .collect();
                self.union_all(&tied);
            }
            return Ok(());
        }
        if let Ok(Some(w)) = WhileLoop::read(op) {
            for i in 0..w.inits.len() {
                let tied: Vec<usize> = [w.inits[i], w.before_args[i], w.yielded[i]]
                    .into_iter()
                    .filter_map(id)
                    .collect();
                self.union_all(&tied);
            }
            for i in 0..w.forwarded.len() {
                let tied: Vec<usize> = [w.forwarded[i], w.after_args[i], w.results[i]]
                    .into_iter()
                    .filter_map(id)
                    .collect();
                self.union_all(&tied);
            }
            return Ok(());
        }
        let name = op_name(op);
        let operands: Vec<usize> = op.operands().filter_map(id).collect();
        let results: Vec<usize> = op.results().filter_map(|r| id(r.into())).collect();
        match name {
            "func.return" | "scf.yield" | "scf.condition" => {}
            _ if name.starts_with("tile.")
                || name.starts_with("arith.")
                || name.starts_with("math.") =>
            {
                let all: Vec<usize> = operands.into_iter().chain(results).collect();
                self.union_all(&all);
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

    fn union_all(&mut self, values: &[usize]) {
        for pair in values.windows(2) {
            self.sets.union(pair[0], pair[1]);
        }
    }
}

/// A small union-find over value indices.
pub struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    /// `n` singletons.
    pub fn new(n: usize) -> Self {
        UnionFind {
            parent: (0..n).collect(),
        }
    }

    /// The representative of `x`'s set (the smallest index in it).
    pub fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    /// Merges the sets of `a` and `b`.
    pub fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.parent[a.max(b)] = a.min(b);
        }
    }
}
