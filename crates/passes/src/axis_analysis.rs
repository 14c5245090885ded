//! The axis analysis over a mirrored module: [`AxisInfo`] for every
//! integer, boolean and pointer value, the facts of every block pointer,
//! and from them the [`Access`] of each load and store.
//!
//! Kernel arguments start from their specialization attributes:
//! `tile.divisibility = 16` (a multiple of 16; for pointers, the address in
//! bytes) and `tile.equal_to_one`. A pointer without them is assumed aligned
//! to its element only. Loop-carried values are iterated to a fixed point
//! (the facts only weaken, so this ends quickly; after a bound they are
//! dropped).

use crate::mirror::{Block, Mirror, Op, ValueId};
use std::collections::HashMap;
use tile_coalesce::axis_info::pow2_divisor;
use tile_coalesce::{Access, AxisInfo};
use tile_dialect::{DType, Elem, TileType, ops};

/// The argument attribute of a multiple of 16 (see the module docs).
pub const DIVISIBILITY_ATTR: &str = "tile.divisibility";
/// The argument attribute of an integer equal to 1.
pub const EQUAL_TO_ONE_ATTR: &str = "tile.equal_to_one";

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

/// The result of the analysis.
#[derive(Clone, Debug, Default)]
pub struct AxisAnalysis {
    facts: HashMap<ValueId, Fact>,
}

impl AxisAnalysis {
    /// Analyses every function of `m`.
    pub fn run(m: &Mirror) -> AxisAnalysis {
        let mut a = AxisAnalysis::default();
        for op in &m.ops {
            if op.name == "func.func"
                && let Some(body) = op.regions.first()
            {
                a.arguments(m, op, body);
                a.block(m, body);
            }
        }
        a
    }

    /// The facts of `v` (nothing known when it was not analysed or is a
    /// block pointer).
    pub fn info(&self, m: &Mirror, v: ValueId) -> AxisInfo {
        match self.facts.get(&v) {
            Some(Fact::Axis(i)) => i.clone(),
            _ => AxisInfo::unknown(shape(m, v).len()),
        }
    }

    /// The facts of a block pointer value.
    pub fn block_ptr(&self, v: ValueId) -> Option<&BlockPtrInfo> {
        match self.facts.get(&v) {
            Some(Fact::Block(b)) => Some(b),
            _ => None,
        }
    }

    /// The access of a `tile.load`, `tile.store`, `tile.block_load` or
    /// `tile.block_store` on a tensor (`None` for scalars and other ops).
    pub fn access(&self, m: &Mirror, op: &Op) -> Option<Access> {
        match op.name.as_str() {
            ops::LOAD | ops::STORE => self.pointer_access(m, op),
            ops::BLOCK_LOAD | ops::BLOCK_STORE => self.block_access(m, op),
            _ => None,
        }
    }

    fn pointer_access(&self, m: &Mirror, op: &Op) -> Option<Access> {
        let ptr = *op.operands.first()?;
        let tile = shape(m, ptr);
        if tile.is_empty() {
            return None;
        }
        let elem_bytes = pointee_bytes(&m.values[ptr].ty)?;
        let seg = op.segments().unwrap_or_default();
        let mask_index = match op.name.as_str() {
            ops::LOAD => (seg.get(1) == Some(&1)).then_some(1),
            _ => (seg.get(2) == Some(&1)).then_some(2),
        };
        let mask_constancy = match mask_index {
            Some(i) => self.info(m, op.operands[i]).constancy,
            None => tile.clone(),
        };
        Some(Access {
            pointer: self.info(m, ptr),
            shape: tile,
            elem_bytes,
            mask_constancy,
            order: None,
        })
    }

    fn block_access(&self, m: &Mirror, op: &Op) -> Option<Access> {
        let bp_value = *op.operands.first()?;
        let bp = self.block_ptr(bp_value)?;
        let (tile, dtype) = match TileType::parse(&m.values[bp_value].ty)? {
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
        let checked = op.array_attr("boundary_check").unwrap_or_default();
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

    fn set(&mut self, v: ValueId, info: AxisInfo) {
        self.facts.insert(v, Fact::Axis(info));
    }

    fn arguments(&mut self, m: &Mirror, func: &Op, body: &Block) {
        let attrs = func.attr("arg_attrs").map(split_dicts).unwrap_or_default();
        for (i, &arg) in body.args.iter().enumerate() {
            let dict = attrs.get(i).map(String::as_str).unwrap_or("");
            let ty = &m.values[arg].ty;
            let divisibility = dict
                .split_once(DIVISIBILITY_ATTR)
                .and_then(|(_, rest)| rest.trim_start().strip_prefix('='))
                .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit() && c != ' ').next())
                .and_then(|n| n.trim().parse::<i64>().ok())
                .map(pow2_divisor);
            let info = if dict.contains(EQUAL_TO_ONE_ATTR) {
                AxisInfo::constant(1, &[])
            } else if let Some(bytes) = pointee_bytes(ty) {
                AxisInfo::scalar(divisibility.unwrap_or(bytes).max(bytes))
            } else {
                AxisInfo::scalar(divisibility.unwrap_or(1))
            };
            self.set(arg, info);
        }
    }

    fn block(&mut self, m: &Mirror, block: &Block) {
        for op in &block.ops {
            self.op(m, op);
        }
    }

    fn op(&mut self, m: &Mirror, op: &Op) {
        if op.name == "scf.for" {
            self.for_loop(m, op);
            return;
        }
        if let Some(fact) = self.transfer(m, op)
            && let Some(&r) = op.results.first()
        {
            self.facts.insert(r, fact);
        }
        for region in &op.regions {
            self.block(m, region);
        }
    }

    fn for_loop(&mut self, m: &Mirror, op: &Op) {
        let Some(body) = op.regions.first() else {
            return;
        };
        let (lb, step) = (op.operands[0], op.operands[2]);
        let inits = &op.operands[3..];
        let mut carried: Vec<Option<Fact>> =
            inits.iter().map(|v| self.facts.get(v).cloned()).collect();
        let iv = AxisInfo::scalar(
            self.info(m, lb)
                .element_divisibility()
                .min(self.info(m, step).element_divisibility()),
        );
        let mut stable = false;
        for _ in 0..MAX_LOOP_ROUNDS {
            if let Some(&v) = body.args.first() {
                self.set(v, iv.clone());
            }
            for (i, fact) in carried.iter().enumerate() {
                if let (Some(&arg), Some(f)) = (body.args.get(i + 1), fact) {
                    self.facts.insert(arg, f.clone());
                }
            }
            self.block(m, body);
            let yields = body
                .ops
                .last()
                .map(|y| y.operands.clone())
                .unwrap_or_default();
            let next: Vec<Option<Fact>> = carried
                .iter()
                .zip(&yields)
                .map(|(c, y)| match (c, self.facts.get(y)) {
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
            carried = vec![None; inits.len()];
            for &arg in &body.args[1..] {
                self.facts.remove(&arg);
            }
            self.block(m, body);
        }
        for (r, fact) in op.results.iter().zip(carried) {
            match fact {
                Some(f) => {
                    self.facts.insert(*r, f);
                }
                None => {
                    self.facts.remove(r);
                }
            }
        }
    }

    /// The facts of `op`'s first result.
    fn transfer(&self, m: &Mirror, op: &Op) -> Option<Fact> {
        let res = *op.results.first()?;
        let out_shape = shape(m, res);
        let rank = out_shape.len().max(1);
        let arg = |i: usize| self.info(m, op.operands[i]);
        let info = match op.name.as_str() {
            "arith.constant" => constant(op, &out_shape),
            ops::ARANGE => AxisInfo::arange(op.int_attr("start")?, op.int_attr("end")?),
            ops::PROGRAM_ID | ops::NUM_PROGRAMS => AxisInfo::scalar(1),
            ops::SPLAT => AxisInfo::splat(&arg(0), &out_shape),
            ops::BROADCAST => arg(0).broadcast(&shape(m, op.operands[0]), &out_shape),
            ops::EXPAND_DIMS => arg(0).expand_dims(op.int_attr("axis")? as usize),
            ops::CONVERT_LAYOUT => arg(0),
            ops::ADDPTR => {
                AxisInfo::add_pointer(&arg(0), &arg(1), pointee_bytes(&m.values[res].ty)?)
            }
            ops::MAKE_BLOCK_PTR => return self.make_block_ptr(m, op),
            ops::ADVANCE => return self.advance(m, op),
            "arith.addi" => AxisInfo::add(&arg(0), &arg(1)),
            "arith.subi" => AxisInfo::sub(&arg(0), &arg(1)),
            "arith.muli" => AxisInfo::mul(&arg(0), &arg(1)),
            "arith.cmpi" => AxisInfo::compare(&predicate(op), &arg(0), &arg(1)),
            "arith.select" => AxisInfo::select(&arg(0), &arg(1), &arg(2)),
            "arith.extsi" | "arith.extui" | "arith.trunci" | "arith.index_cast"
            | "arith.index_castui" => arg(0),
            name if name.starts_with("arith.") || name.starts_with("math.") => {
                let operands: Vec<AxisInfo> = (0..op.operands.len()).map(arg).collect();
                let refs: Vec<&AxisInfo> = operands.iter().collect();
                AxisInfo::uniform_where_all(&refs, rank)
            }
            _ => return None,
        };
        Some(Fact::Axis(info))
    }

    fn make_block_ptr(&self, m: &Mirror, op: &Op) -> Option<Fact> {
        let seg = op.segments()?;
        let (n_shape, n_strides, n_offsets) = (
            *seg.get(1)? as usize,
            *seg.get(2)? as usize,
            *seg.get(3)? as usize,
        );
        let scalars = |from: usize, n: usize| -> Vec<AxisInfo> {
            op.operands[from..from + n]
                .iter()
                .map(|&v| self.info(m, v))
                .collect()
        };
        Some(Fact::Block(BlockPtrInfo {
            base: self.info(m, op.operands[0]),
            shape: scalars(1, n_shape),
            strides: scalars(1 + n_shape, n_strides),
            offsets: scalars(1 + n_shape + n_strides, n_offsets),
            order: op
                .array_attr("order")?
                .into_iter()
                .map(|a| a as usize)
                .collect(),
        }))
    }

    fn advance(&self, m: &Mirror, op: &Op) -> Option<Fact> {
        let mut bp = self.block_ptr(op.operands[0])?.clone();
        for (offset, &delta) in bp.offsets.iter_mut().zip(&op.operands[1..]) {
            *offset = AxisInfo::add(offset, &self.info(m, delta));
        }
        Some(Fact::Block(bp))
    }
}

/// The `arith.cmpi` predicate's name (the generic form prints a number).
fn predicate(op: &Op) -> String {
    const NAMES: [&str; 10] = [
        "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
    ];
    match op.int_attr("predicate") {
        Some(n) => NAMES.get(n as usize).copied().unwrap_or("").to_string(),
        None => op.attr("predicate").unwrap_or("").trim().to_string(),
    }
}

/// An `arith.constant`: integers (and booleans) are known; any other
/// constant is at least uniform.
fn constant(op: &Op, shape: &[i64]) -> AxisInfo {
    let text = op.attr("value").unwrap_or("");
    let inner = text
        .strip_prefix("dense<")
        .and_then(|t| t.split('>').next())
        .unwrap_or_else(|| text.split(':').next().unwrap_or(""))
        .trim();
    if inner.starts_with('[') || inner.starts_with('"') {
        // Elements that differ (or hex-encoded data): nothing is known.
        return AxisInfo::unknown(shape.len());
    }
    let value = match inner {
        "true" => Some(1),
        "false" => Some(0),
        n => n.parse::<i64>().ok(),
    };
    match value {
        Some(v) => AxisInfo::constant(v, shape),
        None => {
            let mut info = AxisInfo::constant(0, shape);
            info.constant = None;
            info.divisibility = vec![1; info.rank()];
            info
        }
    }
}

/// The shape of a value's tensor type (empty for scalars).
fn shape(m: &Mirror, v: ValueId) -> Vec<i64> {
    match TileType::parse(&m.values[v].ty) {
        Some(TileType::Tensor { shape, .. }) => shape,
        _ => vec![],
    }
}

/// Bytes of a pointer's (or tensor of pointers') element.
fn pointee_bytes(ty: &str) -> Option<i64> {
    match TileType::parse(ty)?.elem()? {
        Elem::Ptr(d) => Some(elem_bytes(d)),
        Elem::Num(_) => None,
    }
}

fn elem_bytes(d: DType) -> i64 {
    i64::from(d.bits().div_ceil(8).max(1))
}

/// The dictionaries of a printed `arg_attrs` array, one per argument
/// (`[{tile.name = "x"}, {}]` gives `{tile.name = "x"` and `{}`: each
/// still holds its entries as printed).
pub fn split_dicts(text: &str) -> Vec<String> {
    let inner = text.trim().trim_start_matches('[').trim_end_matches(']');
    inner.split("},").map(|d| d.trim().to_string()).collect()
}
