//! The axis analysis of one kernel: [`AxisInfo`] for every integer,
//! boolean and pointer value, the facts of every block pointer, and from
//! them the [`Access`] of each load and store.
//!
//! Ops may carry the user's hints (`tile.multiple_of`, `tile.max_contiguous`,
//! `tile.max_constancy`, from the builder's `multiple_of`, ...): their
//! results get the larger of what is proven and what is stated.
//!
//! Kernel arguments start from their specialization attributes:
//! `tile.divisibility = 16` (a multiple of 16; for pointers, the address in
//! bytes) and `tile.equal_to_one`. A pointer without them is assumed aligned
//! to its element only. Loop-carried values are iterated to a fixed point
//! (the facts only weaken, so this ends quickly; after a bound they are
//! dropped).

use crate::edit::{key, ops_of};
use melior::ir::block::BlockLike;
use melior::ir::operation::OperationLike;
use melior::ir::{BlockRef, OperationRef, RegionLike, Value, ValueLike};
use std::collections::HashMap;
use tile_coalesce::axis_info::pow2_divisor;
use tile_coalesce::{Access, AxisInfo};
use tile_dialect::ops::Hint;
use tile_dialect::view::{
    Constant, ConstantValue, ForLoop, IfOp, KernelFunc, TileOp, TypeTable, WhileLoop, attr, op_name,
};
use tile_dialect::{DType, Elem, TileType};

pub use tile_dialect::ops::{DIVISIBILITY_ATTR, EQUAL_TO_ONE_ATTR};

/// Loop iterations before the facts of loop-carried values are dropped.
const MAX_LOOP_ROUNDS: usize = 8;

/// What is known of a block pointer: its base (bytes) and, per axis, the
/// shape, stride and offset scalars.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockPtrInfo {
    /// The base pointer (a scalar).
    pub base: AxisInfo,
    /// Per axis: the extent.
    pub shape: Vec<AxisInfo>,
    /// Per axis: the stride, in elements.
    pub strides: Vec<AxisInfo>,
    /// Per axis: the offset, in elements.
    pub offsets: Vec<AxisInfo>,
    /// The `order` attribute (fastest axis first).
    pub order: Vec<usize>,
}

impl BlockPtrInfo {
    fn join(&self, other: &BlockPtrInfo) -> BlockPtrInfo {
        let each = |a: &[AxisInfo], b: &[AxisInfo]| -> Vec<AxisInfo> {
            a.iter().zip(b).map(|(x, y)| x.join(y)).collect()
        };
        BlockPtrInfo {
            base: self.base.join(&other.base),
            shape: each(&self.shape, &other.shape),
            strides: each(&self.strides, &other.strides),
            offsets: each(&self.offsets, &other.offsets),
            order: self.order.clone(),
        }
    }
}

/// The facts of one value.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Fact {
    Axis(AxisInfo),
    Block(BlockPtrInfo),
}

impl Fact {
    fn join(&self, other: &Fact) -> Option<Fact> {
        match (self, other) {
            (Fact::Axis(a), Fact::Axis(b)) => Some(Fact::Axis(a.join(b))),
            (Fact::Block(a), Fact::Block(b)) if a.order == b.order => Some(Fact::Block(a.join(b))),
            _ => None,
        }
    }
}

/// The result of the analysis of one kernel.
pub struct AxisAnalysis<'t, 'c> {
    types: &'t TypeTable<'c>,
    facts: HashMap<usize, Fact>,
}

impl<'t, 'c> AxisAnalysis<'t, 'c> {
    /// Analyses the `func.func` `func`.
    pub fn run(types: &'t TypeTable<'c>, func: &OperationRef<'c, '_>) -> Self {
        let mut a = AxisAnalysis {
            types,
            facts: HashMap::new(),
        };
        if let Ok(Some(f)) = KernelFunc::read(func)
            && let Some(body) = f.body
        {
            a.arguments(&f);
            a.block(&body);
        }
        a
    }

    /// The facts of `v` (nothing known when it was not analysed or is a
    /// block pointer).
    pub fn info(&self, v: Value<'c, '_>) -> AxisInfo {
        match self.facts.get(&key(v)) {
            Some(Fact::Axis(i)) => i.clone(),
            _ => AxisInfo::unknown(self.shape(v).len()),
        }
    }

    /// The facts of a block pointer value.
    pub fn block_ptr(&self, v: Value<'c, '_>) -> Option<&BlockPtrInfo> {
        match self.facts.get(&key(v)) {
            Some(Fact::Block(b)) => Some(b),
            _ => None,
        }
    }

    /// The access of a load or store on a tensor (`None` for scalars and
    /// other ops).
    pub fn access(&self, op: &TileOp<'c, '_>) -> Option<Access> {
        match op {
            TileOp::Load(l) => self.pointer_access(l.ptr, l.mask),
            TileOp::Store(s) => self.pointer_access(s.ptr, s.mask),
            TileOp::BlockLoad(l) => self.block_access(l.ptr, &l.boundary_check),
            TileOp::BlockStore(s) => self.block_access(s.ptr, &s.boundary_check),
            _ => None,
        }
    }

    /// What an atomic read-modify-write through a tensor of pointers
    /// accesses (for vector atomics; `None` for a scalar pointer). Not
    /// part of [`AxisAnalysis::access`]: atomics do not choose layouts.
    pub fn atomic_access(&self, a: &tile_dialect::view::AtomicRmw<'c, '_>) -> Option<Access> {
        self.pointer_access(a.ptr, a.mask)
    }

    fn shape(&self, v: Value<'c, '_>) -> Vec<i64> {
        tile_dialect::view::tensor_shape(v.r#type())
    }

    fn tile_type(&self, v: Value<'c, '_>) -> Option<TileType> {
        self.types.tile_type(v.r#type())
    }

    fn pointer_access(&self, ptr: Value<'c, '_>, mask: Option<Value<'c, '_>>) -> Option<Access> {
        let tile = self.shape(ptr);
        if tile.is_empty() {
            return None;
        }
        let elem_bytes = pointee_bytes(&self.tile_type(ptr)?)?;
        let mask_constancy = match mask {
            Some(m) => self.info(m).constancy,
            None => tile.clone(),
        };
        Some(Access {
            pointer: self.info(ptr),
            shape: tile,
            elem_bytes,
            mask_constancy,
            order: None,
        })
    }

    fn block_access(&self, ptr: Value<'c, '_>, checked: &[i64]) -> Option<Access> {
        let bp = self.block_ptr(ptr)?;
        let (tile, dtype) = match self.tile_type(ptr)? {
            TileType::BlockPtr { shape, dtype } => (shape, dtype),
            _ => return None,
        };
        let rank = tile.len();
        if bp.strides.len() != rank || bp.offsets.len() != rank || bp.shape.len() != rank {
            return None;
        }
        let e = elem_bytes(dtype);
        let scaled = |x: i64, y: i64| {
            x.saturating_mul(y)
                .min(tile_coalesce::axis_info::MAX_DIVISIBILITY)
        };
        let unit = |k: usize| bp.strides[k].constant == Some(1);
        let mut contiguity = vec![1; rank];
        let mut divisibility = vec![1; rank];
        let mut mask_constancy = tile.clone();
        for d in 0..rank {
            // The address of the first element of each run along `d`:
            // base + sum_k (offset_k + i_k) * stride_k * e, with i_d = 0
            // when the whole block along d is one run.
            let mut div = bp.base.element_divisibility();
            for k in 0..rank {
                let stride = bp.strides[k].element_divisibility();
                let term = if k == d && unit(d) {
                    bp.offsets[d].element_divisibility()
                } else {
                    stride
                };
                div = div.min(scaled(term, e));
            }
            contiguity[d] = if unit(d) { tile[d] } else { 1 };
            divisibility[d] = div;
            if checked.contains(&(d as i64)) {
                mask_constancy[d] = tile[d]
                    .min(bp.offsets[d].element_divisibility())
                    .min(bp.shape[d].element_divisibility());
            }
        }
        Some(Access {
            pointer: AxisInfo {
                contiguity,
                divisibility,
                constancy: vec![1; rank],
                constant: None,
            },
            shape: tile,
            elem_bytes: e,
            mask_constancy,
            order: Some(bp.order.clone()),
        })
    }

    fn set(&mut self, v: Value<'c, '_>, info: AxisInfo) {
        self.facts.insert(key(v), Fact::Axis(info));
    }

    fn arguments(&mut self, func: &KernelFunc<'c, '_>) {
        for arg in &func.args {
            let ty = self.tile_type(arg.value);
            let divisibility = arg.divisibility.map(pow2_divisor);
            let info = if arg.equal_to_one {
                AxisInfo::constant(1, &[])
            } else if let Some(bytes) = ty.as_ref().and_then(pointee_bytes) {
                AxisInfo::scalar(divisibility.unwrap_or(bytes).max(bytes))
            } else {
                AxisInfo::scalar(divisibility.unwrap_or(1))
            };
            self.set(arg.value, info);
        }
    }

    fn block(&mut self, block: &BlockRef<'c, '_>) {
        for op in ops_of(block) {
            self.op(&op);
        }
    }

    fn op(&mut self, op: &OperationRef<'c, '_>) {
        if let Ok(Some(l)) = ForLoop::read(op) {
            self.for_loop(&l);
            return;
        }
        if let Ok(Some(b)) = IfOp::read(op) {
            self.branch(&b);
            return;
        }
        if let Ok(Some(w)) = WhileLoop::read(op) {
            self.while_loop(&w);
            return;
        }
        // Anything else with regions is walked with its block arguments
        // unknown, so its results are unknown too.
        if let Some(fact) = self.with_hints(op, self.transfer(op))
            && let Some(r) = crate::edit::result_of(op, 0)
        {
            self.facts.insert(key(r), fact);
        }
        for region in op.regions() {
            let mut next = region.first_block();
            while let Some(b) = next {
                self.block(&b);
                next = b.next_in_region();
            }
        }
    }

    /// An `scf.if`: what both branches yield is known of its results.
    fn branch(&mut self, b: &IfOp<'c, '_>) {
        self.block(&b.then_block);
        if let Some(e) = &b.else_block {
            self.block(e);
        }
        for (i, r) in b.results.iter().enumerate() {
            let joined = match (
                self.facts.get(&key(b.then_yielded[i])),
                self.facts.get(&key(b.else_yielded[i])),
            ) {
                (Some(t), Some(e)) => t.join(e),
                _ => None,
            };
            match joined {
                Some(f) => self.facts.insert(key(*r), f),
                None => self.facts.remove(&key(*r)),
            };
        }
    }

    fn for_loop(&mut self, l: &ForLoop<'c, '_>) {
        let mut carried: Vec<Option<Fact>> = l
            .inits
            .iter()
            .map(|v| self.facts.get(&key(*v)).cloned())
            .collect();
        let iv = AxisInfo::scalar(
            self.info(l.lower)
                .element_divisibility()
                .min(self.info(l.step).element_divisibility()),
        );
        let mut stable = false;
        for _ in 0..MAX_LOOP_ROUNDS {
            self.set(l.induction, iv.clone());
            for (arg, fact) in l.iter_args.iter().zip(&carried) {
                match fact {
                    Some(f) => self.facts.insert(key(*arg), f.clone()),
                    None => self.facts.remove(&key(*arg)),
                };
            }
            self.block(&l.body);
            let next: Vec<Option<Fact>> = carried
                .iter()
                .zip(&l.yielded)
                .map(|(c, y)| match (c, self.facts.get(&key(*y))) {
                    (Some(c), Some(y)) => c.join(y),
                    _ => None,
                })
                .collect();
            if next == carried {
                stable = true;
                break;
            }
            carried = next;
        }
        if !stable {
            carried = vec![None; l.inits.len()];
            for arg in &l.iter_args {
                self.facts.remove(&key(*arg));
            }
            self.block(&l.body);
        }
        for (r, fact) in l.results.iter().zip(carried) {
            match fact {
                Some(f) => self.facts.insert(key(*r), f),
                None => self.facts.remove(&key(*r)),
            };
        }
    }

    /// An `scf.while`: its carried values iterated to a fixed point as a
    /// `for` loop's are. The condition block sees the initial values
    /// joined with what the body yields; the body and the results see
    /// what the condition forwards.
    fn while_loop(&mut self, w: &WhileLoop<'c, '_>) {
        let mut carried: Vec<Option<Fact>> = w
            .inits
            .iter()
            .map(|v| self.facts.get(&key(*v)).cloned())
            .collect();
        let mut stable = false;
        for _ in 0..MAX_LOOP_ROUNDS {
            self.set_all(&w.before_args, &carried);
            self.block(&w.before);
            let forwarded: Vec<Option<Fact>> = w
                .forwarded
                .iter()
                .map(|v| self.facts.get(&key(*v)).cloned())
                .collect();
            self.set_all(&w.after_args, &forwarded);
            self.block(&w.after);
            let next: Vec<Option<Fact>> = carried
                .iter()
                .zip(&w.yielded)
                .map(|(c, y)| match (c, self.facts.get(&key(*y))) {
                    (Some(c), Some(y)) => c.join(y),
                    _ => None,
                })
                .collect();
            if next == carried {
                stable = true;
                break;
            }
            carried = next;
        }
        if !stable {
            let unknown = vec![None; w.inits.len()];
            self.set_all(&w.before_args, &unknown);
            self.block(&w.before);
            self.set_all(&w.after_args, &vec![None; w.after_args.len()]);
            self.block(&w.after);
        }
        // The results are what the condition forwards when it fails.
        for (r, v) in w.results.iter().zip(&w.forwarded) {
            match self.facts.get(&key(*v)).cloned() {
                Some(f) if stable => self.facts.insert(key(*r), f),
                _ => self.facts.remove(&key(*r)),
            };
        }
    }

    /// Sets (or forgets) the facts of `values`.
    fn set_all(&mut self, values: &[Value<'c, '_>], facts: &[Option<Fact>]) {
        for (v, f) in values.iter().zip(facts) {
            match f {
                Some(f) => self.facts.insert(key(*v), f.clone()),
                None => self.facts.remove(&key(*v)),
            };
        }
    }

    /// `fact`, the facts proven of `op`'s result, with the hints the op
    /// carries (`tile.multiple_of`, `tile.max_contiguous`,
    /// `tile.max_constancy`): each axis keeps the larger of the proven
    /// and the stated value (runs no longer than the axis). A result
    /// nothing is proven of starts from nothing known.
    fn with_hints(&self, op: &OperationRef<'c, '_>, fact: Option<Fact>) -> Option<Fact> {
        if !Hint::ALL.iter().any(|h| op.has_attribute(h.attribute())) || op.result_count() != 1 {
            return fact;
        }
        let res: Value = crate::edit::result_of(op, 0)?.into();
        let shape = self.shape(res);
        let mut info = match fact {
            Some(Fact::Axis(info)) => info,
            None => AxisInfo::unknown(shape.len().max(1)),
            block => return block,
        };
        for hint in Hint::ALL {
            let Ok(values) = attr::i32_array(op, hint.attribute()) else {
                continue;
            };
            if values.len() != info.rank() {
                continue;
            }
            for (axis, &v) in values.iter().enumerate() {
                let extent = shape.get(axis).copied().unwrap_or(1).max(1);
                match hint {
                    Hint::MultipleOf => {
                        let d = &mut info.divisibility[axis];
                        *d = (*d).max(pow2_divisor(v.max(1)));
                    }
                    Hint::MaxContiguous => {
                        let c = &mut info.contiguity[axis];
                        *c = (*c).max(v.clamp(1, extent));
                    }
                    Hint::MaxConstancy => {
                        let c = &mut info.constancy[axis];
                        *c = (*c).max(v.clamp(1, extent));
                    }
                }
            }
        }
        Some(Fact::Axis(info))
    }

    /// The facts of `op`'s first result.
    fn transfer(&self, op: &OperationRef<'c, '_>) -> Option<Fact> {
        let res: Value = crate::edit::result_of(op, 0)?.into();
        let out_shape = self.shape(res);
        let rank = out_shape.len().max(1);
        let arg = |i: usize| -> AxisInfo {
            op.operand(i)
                .map(|v| self.info(v))
                .unwrap_or_else(|_| AxisInfo::unknown(rank))
        };
        if let Ok(Some(view)) = TileOp::read(op, |v| self.tile_type(v)) {
            let info = match view {
                TileOp::Arange(a) => AxisInfo::arange(a.start, a.end),
                TileOp::ProgramId(_) | TileOp::NumPrograms(_) => AxisInfo::scalar(1),
                TileOp::Splat(u) => AxisInfo::splat(&self.info(u.src), &out_shape),
                TileOp::Broadcast(u) => self.info(u.src).broadcast(&self.shape(u.src), &out_shape),
                TileOp::ExpandDims(e) => self.info(e.src).expand_dims(e.axis as usize),
                TileOp::ConvertLayout(u) => self.info(u.src),
                TileOp::AddPtr(a) => AxisInfo::add_pointer(
                    &self.info(a.ptr),
                    &self.info(a.offset),
                    pointee_bytes(&self.tile_type(res)?)?,
                ),
                TileOp::MakeBlockPtr(m) => {
                    let infos = |vs: &[Value<'c, '_>]| vs.iter().map(|&v| self.info(v)).collect();
                    return Some(Fact::Block(BlockPtrInfo {
                        base: self.info(m.base),
                        shape: infos(&m.shape),
                        strides: infos(&m.strides),
                        offsets: infos(&m.offsets),
                        order: m.order.iter().map(|&a| a as usize).collect(),
                    }));
                }
                TileOp::Advance(a) => {
                    let mut bp = self.block_ptr(a.ptr)?.clone();
                    for (offset, &delta) in bp.offsets.iter_mut().zip(&a.offsets) {
                        *offset = AxisInfo::add(offset, &self.info(delta));
                    }
                    return Some(Fact::Block(bp));
                }
                _ => return None,
            };
            return Some(Fact::Axis(info));
        }
        let name = op_name(op);
        let info = match name {
            "arith.constant" => constant(op, &out_shape),
            "arith.addi" => AxisInfo::add(&arg(0), &arg(1)),
            "arith.subi" => AxisInfo::sub(&arg(0), &arg(1)),
            "arith.muli" => AxisInfo::mul(&arg(0), &arg(1)),
            // As Triton does, a remainder's or quotient's dividend is taken
            // to be non-negative: offsets that address memory are (a
            // negative one wraps at multiples of the divisor the other way;
            // see `AxisInfo::rem`).
            "arith.remsi" | "arith.remui" => AxisInfo::rem(&arg(0), &arg(1), true),
            "arith.divsi" | "arith.divui" => AxisInfo::div(&arg(0), &arg(1), true),
            "arith.cmpi" => AxisInfo::compare(&cmpi_predicate(op), &arg(0), &arg(1)),
            "arith.minsi" | "arith.maxsi" | "arith.minui" | "arith.maxui" => {
                AxisInfo::min_max(&arg(0), &arg(1))
            }
            // A scalar condition chooses one operand for the whole tile:
            // it is constant along every axis (a splat of it).
            "arith.select" => {
                let scalar = op
                    .operand(0)
                    .is_ok_and(|c| self.shape(c).is_empty() && !out_shape.is_empty());
                let cond = if scalar {
                    AxisInfo::splat(&arg(0), &out_shape)
                } else {
                    arg(0)
                };
                AxisInfo::select(&cond, &arg(1), &arg(2))
            }
            "arith.extsi" | "arith.extui" | "arith.trunci" | "arith.index_cast"
            | "arith.index_castui" => arg(0),
            _ if name.starts_with("arith.") || name.starts_with("math.") => {
                let operands: Vec<AxisInfo> = (0..op.operand_count()).map(arg).collect();
                let refs: Vec<&AxisInfo> = operands.iter().collect();
                AxisInfo::uniform_where_all(&refs, rank)
            }
            _ => return None,
        };
        Some(Fact::Axis(info))
    }
}

/// The name of an `arith.cmpi` predicate.
fn cmpi_predicate(op: &OperationRef) -> String {
    const NAMES: [&str; 10] = [
        "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
    ];
    tile_dialect::view::attr::int(op, "predicate")
        .ok()
        .and_then(|n| NAMES.get(n as usize))
        .copied()
        .unwrap_or("")
        .to_string()
}

/// An `arith.constant`: integers (and booleans) are known; any other
/// constant is at least uniform.
fn constant(op: &OperationRef, shape: &[i64]) -> AxisInfo {
    match Constant::read(op) {
        Ok(Some(Constant {
            value: v @ (ConstantValue::Int(_) | ConstantValue::Bool(_)),
        })) => AxisInfo::constant(v.as_i64(), shape),
        Ok(Some(_)) => {
            let mut info = AxisInfo::constant(0, shape);
            info.constant = None;
            info.divisibility = vec![1; info.rank()];
            info
        }
        _ => AxisInfo::unknown(shape.len()),
    }
}

/// Bytes of a pointer's (or tensor of pointers') element.
fn pointee_bytes(t: &TileType) -> Option<i64> {
    match t.elem()? {
        Elem::Ptr(d) => Some(elem_bytes(d)),
        Elem::Num(_) => None,
    }
}

fn elem_bytes(d: DType) -> i64 {
    i64::from(d.bits().div_ceil(8).max(1))
}
