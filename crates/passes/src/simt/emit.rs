//! The per-thread code emitter behind `tile-to-simt`.

use super::{math, memory, reduce};
use crate::assign_layouts::tensor_shape;
use crate::mirror::{Block, Mirror, Op, ValueId};
use crate::rewrite::PassError;
use std::collections::HashMap;
use std::fmt::Write;
use tile_coalesce::{Blocked, Distribution, Layout};
use tile_dialect::{DType, Elem, TileType, ops};

/// The shared-memory buffer layout conversions go through.
pub const SHARED: &str = "__tile_shared";

/// A tile value, lowered: one scalar, or the scalars of one thread's
/// registers.
#[derive(Clone, Debug)]
pub enum Lowered {
    /// A scalar (same in every thread).
    Scalar(String),
    /// One SSA name per register, in register order.
    Regs(Vec<String>),
    /// A block pointer: base pointer, shape and strides (i64) and offsets
    /// (i32), one scalar each axis.
    BlockPtr {
        /// The base pointer.
        base: String,
        /// Extent of each axis.
        shape: Vec<String>,
        /// Stride of each axis, in elements.
        strides: Vec<String>,
        /// The block's current offset along each axis.
        offsets: Vec<String>,
    },
}

impl Lowered {
    /// The scalars a value is made of, in order (for loop-carried values).
    pub fn parts(&self) -> Vec<String> {
        match self {
            Lowered::Scalar(s) => vec![s.clone()],
            Lowered::Regs(r) => r.clone(),
            Lowered::BlockPtr {
                base,
                shape,
                strides,
                offsets,
            } => std::iter::once(base.clone())
                .chain(shape.iter().cloned())
                .chain(strides.iter().cloned())
                .chain(offsets.iter().cloned())
                .collect(),
        }
    }
}

/// Emits one kernel.
pub struct Emitter<'m> {
    m: &'m Mirror,
    warps: u32,
    /// Values hoisted to the function's entry (ids, bases, constants).
    prologue: String,
    /// The body being written (a stack: one entry per open region).
    body: Vec<String>,
    next: usize,
    vals: HashMap<ValueId, Lowered>,
    consts: HashMap<(String, String), String>,
    bases: HashMap<(Blocked, usize), String>,
    owners: HashMap<(Layout, Vec<i64>), Option<String>>,
    thread: Option<(String, String, String)>,
    shared: Option<String>,
    shared_bytes: usize,
    func_loc: String,
}

impl<'m> Emitter<'m> {
    /// An emitter for kernels of `m` with `warps` warps a program.
    pub fn new(m: &'m Mirror, warps: u32) -> Self {
        Emitter {
            m,
            warps,
            prologue: String::new(),
            body: vec![String::new()],
            next: 0,
            vals: HashMap::new(),
            consts: HashMap::new(),
            bases: HashMap::new(),
            owners: HashMap::new(),
            thread: None,
            shared: None,
            shared_bytes: 0,
            func_loc: "loc(unknown)".into(),
        }
    }

    /// Bytes of shared memory the kernel needs.
    pub fn shared_bytes(&self) -> usize {
        self.shared_bytes
    }

    /// A fresh SSA name.
    pub fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next)
    }

    /// Writes one line of the body.
    pub fn line(&mut self, text: &str, loc: &str) {
        let depth = self.body.len() + 2;
        let out = self.body.last_mut().expect("an open region");
        let _ = writeln!(out, "{}{text} {loc}", "  ".repeat(depth));
    }

    /// Writes `name = text` in the body and returns `name`.
    pub fn value(&mut self, text: &str, loc: &str) -> String {
        let name = self.fresh();
        self.line(&format!("{name} = {text}"), loc);
        name
    }

    fn pro(&mut self, text: &str) -> String {
        let name = self.fresh();
        let loc = self.func_loc.clone();
        let _ = writeln!(self.prologue, "      {name} = {text} {loc}");
        name
    }

    /// An i32 (or other integer/float/bool) constant, hoisted and shared.
    pub fn constant(&mut self, value: &str, ty: &str) -> String {
        let key = (value.to_string(), ty.to_string());
        if let Some(n) = self.consts.get(&key) {
            return n.clone();
        }
        let text = if ty == "i1" {
            format!("arith.constant {value}")
        } else {
            format!("arith.constant {value} : {ty}")
        };
        let n = self.pro(&text);
        self.consts.insert(key, n.clone());
        n
    }

    /// An i32 constant.
    pub fn i32(&mut self, v: i64) -> String {
        self.constant(&v.to_string(), "i32")
    }

    /// The thread id, lane and warp numbers (hoisted to the entry).
    pub fn thread(&mut self) -> (String, String, String) {
        if let Some(t) = &self.thread {
            return t.clone();
        }
        let tid = self.pro("gpu.thread_id x");
        let tid = self.pro(&format!("arith.index_cast {tid} : index to i32"));
        let c31 = self.i32(31);
        let c5 = self.i32(5);
        let lane = self.pro(&format!("arith.andi {tid}, {c31} : i32"));
        let warp = self.pro(&format!("arith.shrui {tid}, {c5} : i32"));
        let t = (tid, lane, warp);
        self.thread = Some(t.clone());
        t
    }

    /// The thread id (0 .. 32 * num_warps).
    pub fn thread_id(&mut self) -> String {
        self.thread().0
    }

    /// `(id >> shift) & (count - 1)`, hoisted: one digit of a lane or warp
    /// number (`count` a power of two).
    pub fn digit(&mut self, id: &str, shift: u32, count: i64) -> String {
        let mut x = id.to_string();
        if shift > 0 {
            let s = self.i32(i64::from(shift));
            x = self.pro(&format!("arith.shrui {x}, {s} : i32"));
        }
        let mask = self.i32(count - 1);
        self.pro(&format!("arith.andi {x}, {mask} : i32"))
    }

    /// The shared-memory buffer's address (hoisted).
    pub fn shared_base(&mut self) -> String {
        if let Some(b) = &self.shared {
            return b.clone();
        }
        let b = self.pro(&format!("llvm.mlir.addressof @{SHARED} : !llvm.ptr<3>"));
        self.shared = Some(b.clone());
        b
    }

    /// Makes the shared-memory buffer at least `bytes` long.
    pub fn reserve_shared(&mut self, bytes: usize) {
        self.shared_bytes = self.shared_bytes.max(bytes);
    }

    /// Opens a region: writes `head` (ending in `{`) and indents what
    /// follows until [`Emitter::close`].
    pub fn open(&mut self, head: &str) {
        let depth = self.body.len() + 2;
        let out = self.body.last_mut().expect("an open region");
        let _ = writeln!(out, "{}{head}", "  ".repeat(depth));
        self.body.push(String::new());
    }

    /// Closes the region [`Emitter::open`] opened, with `loc` on its `}`.
    pub fn close(&mut self, loc: &str) {
        let inner = self.body.pop().unwrap_or_default();
        let depth = self.body.len() + 2;
        let out = self.body.last_mut().expect("an open region");
        out.push_str(&inner);
        let _ = writeln!(out, "{}}} {loc}", "  ".repeat(depth));
    }

    /// The thread's base index along root axis `k` of `d`'s layout.
    fn base(&mut self, d: &Distribution, k: usize) -> String {
        let key = (d.root.clone(), k);
        if let Some(b) = self.bases.get(&key) {
            return b.clone();
        }
        let (_, lane, warp) = self.thread();
        let t = d.base_terms(k);
        let digit = |e: &mut Self, id: &str, shift: u32, count: i64| {
            (count > 1).then(|| e.digit(id, shift, count))
        };
        let l = digit(self, &lane, t.lane_shift, t.threads);
        let w = digit(self, &warp, t.warp_shift, t.warps);
        let mut sum = match (l, w) {
            (None, None) => None,
            (Some(l), None) => Some(l),
            (None, Some(w)) => {
                let c = self.i32(t.threads);
                Some(self.pro(&format!("arith.muli {w}, {c} : i32")))
            }
            (Some(l), Some(w)) => {
                let c = self.i32(t.threads);
                let w = self.pro(&format!("arith.muli {w}, {c} : i32"));
                Some(self.pro(&format!("arith.addi {l}, {w} : i32")))
            }
        };
        if let Some(s) = &sum
            && t.size_per_thread > 1
        {
            let c = self.i32(t.size_per_thread);
            sum = Some(self.pro(&format!("arith.muli {s}, {c} : i32")));
        }
        let base = sum.unwrap_or_else(|| self.i32(0));
        self.bases.insert(key, base.clone());
        base
    }

    /// The index along tensor axis `i` of the element in register `r`.
    pub fn index(&mut self, d: &Distribution, r: usize, i: usize, loc: &str) -> String {
        let mut x = self.unwrapped_index(d, r, i, loc);
        if d.wraps(i) {
            let c = self.i32(d.shape[i] - 1);
            x = self.value(&format!("arith.andi {x}, {c} : i32"), loc);
        }
        x
    }

    /// Register `r`'s index along tensor axis `i` before wrapping: below
    /// the axis's extent exactly for the first copy of each element.
    pub fn unwrapped_index(&mut self, d: &Distribution, r: usize, i: usize, loc: &str) -> String {
        let base = self.base(d, d.axes[i]);
        match d.offsets[r][i] {
            0 => base,
            off => {
                let c = self.i32(off);
                self.value(&format!("arith.addi {base}, {c} : i32"), loc)
            }
        }
    }

    /// A predicate true in exactly one thread of those holding each
    /// element (`None` when no element is replicated).
    pub fn owner(&mut self, d: &Distribution, layout: &Layout) -> Option<String> {
        let key = (layout.clone(), d.shape.clone());
        if let Some(o) = self.owners.get(&key) {
            return o.clone();
        }
        let mut conds = Vec::new();
        for i in 0..d.shape.len() {
            if d.wraps(i) {
                let b = self.base(d, d.axes[i]);
                let s = self.i32(d.shape[i]);
                conds.push(self.pro(&format!("arith.cmpi ult, {b}, {s} : i32")));
            }
        }
        for k in d.sliced_spread_axes() {
            let b = self.base(d, k);
            let z = self.i32(0);
            conds.push(self.pro(&format!("arith.cmpi eq, {b}, {z} : i32")));
        }
        let mut acc: Option<String> = None;
        for c in conds {
            acc = Some(match acc {
                None => c,
                Some(a) => self.pro(&format!("arith.andi {a}, {c} : i1")),
            });
        }
        self.owners.insert(key, acc.clone());
        acc
    }

    /// The lowered form of a value.
    pub fn get(&self, v: ValueId, op: &Op) -> Result<Lowered, PassError> {
        self.vals
            .get(&v)
            .cloned()
            .ok_or_else(|| PassError::at(op, "uses a value the lowering has not seen"))
    }

    /// The scalar name of register `r` of value `v` (scalars broadcast).
    pub fn reg(&self, v: ValueId, r: usize, op: &Op) -> Result<String, PassError> {
        match self.get(v, op)? {
            Lowered::Scalar(s) => Ok(s),
            Lowered::Regs(regs) => regs
                .get(r)
                .cloned()
                .ok_or_else(|| PassError::at(op, "register count mismatch between operands")),
            Lowered::BlockPtr { .. } => Err(PassError::at(op, "uses a block pointer as a value")),
        }
    }

    /// The tile type of a value.
    pub fn tile_type(&self, v: ValueId, op: &Op) -> Result<TileType, PassError> {
        TileType::parse(self.m.ty(v)).ok_or_else(|| {
            PassError::at(
                op,
                format!("has a value of type {} outside tile IR", self.m.ty(v)),
            )
        })
    }

    /// The distribution of a tensor value.
    pub fn dist(&self, v: ValueId, op: &Op) -> Result<(Distribution, Layout), PassError> {
        let ty = self.m.ty(v);
        let shape = tensor_shape(ty).ok_or_else(|| PassError::at(op, "expects a tensor"))?;
        let layout = Layout::of_type(ty)
            .map_err(|e| PassError::at(op, e.to_string()))?
            .ok_or_else(|| {
                PassError::at(
                    op,
                    format!("has a tensor without a layout ({ty}); run tile-assign-layouts first"),
                )
            })?;
        let d = Distribution::new(&layout, &shape).map_err(|e| PassError::at(op, e.to_string()))?;
        Ok((d, layout))
    }

    /// The per-thread scalar type of a value's elements.
    pub fn scalar_type(&self, v: ValueId, op: &Op) -> Result<String, PassError> {
        let t = self.tile_type(v, op)?;
        match t.elem() {
            Some(e) => Ok(elem_type(e)),
            None => Err(PassError::at(op, "block pointers cannot be lowered yet")),
        }
    }

    /// Records the lowering of a value.
    pub fn set(&mut self, v: ValueId, l: Lowered) {
        self.vals.insert(v, l);
    }

    /// Emits the kernel `func` as a `gpu.func`; returns its text.
    pub fn kernel(&mut self, func: &Op) -> Result<String, PassError> {
        self.func_loc = func.loc.clone();
        let name = func
            .str_attr("sym_name")
            .ok_or_else(|| PassError::at(func, "has no name"))?;
        let body = func
            .regions
            .first()
            .ok_or_else(|| PassError::at(func, "has no body"))?;
        let mut params = Vec::new();
        let arg_attrs = func
            .attr("arg_attrs")
            .map(crate::axis_analysis::split_dicts)
            .unwrap_or_default();
        for (i, &a) in body.args.iter().enumerate() {
            let ty = self.scalar_type(a, func)?;
            if !self.tile_type(a, func)?.is_scalar() {
                return Err(PassError::at(
                    func,
                    "kernel arguments must be scalars or pointers",
                ));
            }
            let n = self.fresh();
            let loc = self.m.values[a].loc.clone().unwrap_or_default();
            params.push(format!("{n}: {ty} {loc}"));
            // An argument specialized as 1 is 1 (the launch checks it), so
            // strides of 1 fold away.
            let one = arg_attrs
                .get(i)
                .is_some_and(|d| d.contains(crate::axis_analysis::EQUAL_TO_ONE_ATTR));
            let value = if one { self.constant("1", &ty) } else { n };
            self.set(a, Lowered::Scalar(value));
        }
        self.block(body)?;
        let threads = 32 * self.warps;
        let body_text = self.body.pop().unwrap_or_default();
        Ok(format!(
            "    gpu.func @{name}({}) kernel attributes {{known_block_size = array<i32: {threads}, 1, 1>}} {{\n{}{}    }} {}\n",
            params.join(", "),
            self.prologue,
            body_text,
            func.loc
        ))
    }

    fn block(&mut self, block: &Block) -> Result<(), PassError> {
        for op in &block.ops {
            self.op(op)?;
        }
        Ok(())
    }

    fn op(&mut self, op: &Op) -> Result<(), PassError> {
        let loc = op.loc.as_str();
        match op.name.as_str() {
            "func.return" => {
                self.line("gpu.return", loc);
                Ok(())
            }
            ops::PROGRAM_ID | ops::NUM_PROGRAMS => {
                let axis = ["x", "y", "z"]
                    .get(op.int_attr("axis").unwrap_or(-1) as usize)
                    .ok_or_else(|| PassError::at(op, "has a grid axis outside 0..3"))?;
                let which = if op.name == ops::PROGRAM_ID {
                    "block_id"
                } else {
                    "grid_dim"
                };
                let i = self.value(&format!("gpu.{which} {axis}"), loc);
                let v = self.value(&format!("arith.index_cast {i} : index to i32"), loc);
                self.set(op.results[0], Lowered::Scalar(v));
                Ok(())
            }
            ops::ARANGE => self.arange(op),
            ops::SPLAT => {
                let s = self.reg(op.operands[0], 0, op)?;
                let (d, _) = self.dist(op.results[0], op)?;
                self.set(op.results[0], Lowered::Regs(vec![s; d.registers()]));
                Ok(())
            }
            ops::BROADCAST | ops::EXPAND_DIMS | ops::CONVERT_LAYOUT => self.renumber(op),
            ops::ADDPTR => self.addptr(op),
            ops::LOAD => memory::load(self, op),
            ops::STORE => memory::store(self, op),
            ops::MAKE_BLOCK_PTR => self.make_block_ptr(op),
            ops::ADVANCE => self.advance(op),
            ops::BLOCK_LOAD => memory::block_load(self, op),
            ops::BLOCK_STORE => memory::block_store(self, op),
            ops::REDUCE => reduce::reduce(self, op),
            "arith.constant" => self.constant_op(op),
            "scf.for" => self.for_op(op),
            _ if math::is_float_math(op) => math::lower(self, op),
            name if name.starts_with("arith.") || name.starts_with("math.") => self.elementwise(op),
            _ => Err(super::unsupported(op)),
        }
    }

    fn arange(&mut self, op: &Op) -> Result<(), PassError> {
        let start = op.int_attr("start").unwrap_or(0);
        let (d, _) = self.dist(op.results[0], op)?;
        let mut regs = Vec::with_capacity(d.registers());
        for r in 0..d.registers() {
            let mut x = self.index(&d, r, 0, &op.loc);
            if start != 0 {
                let c = self.i32(start);
                x = self.value(&format!("arith.addi {x}, {c} : i32"), &op.loc);
            }
            regs.push(x);
        }
        self.set(op.results[0], Lowered::Regs(regs));
        Ok(())
    }

    /// Broadcast, expand_dims and conversions within one root layout only
    /// renumber registers; other conversions go through shared memory.
    fn renumber(&mut self, op: &Op) -> Result<(), PassError> {
        let (src, _) = self.dist(op.operands[0], op)?;
        let (dst, _) = self.dist(op.results[0], op)?;
        let input = self.get(op.operands[0], op)?;
        let Lowered::Regs(regs) = input else {
            return Err(PassError::at(op, "expects a tensor operand"));
        };
        let same_root = src.root == dst.root;
        let mut out = Vec::with_capacity(dst.registers());
        for r in 0..dst.registers() {
            let o = &dst.offsets[r];
            let want: Option<Vec<i64>> = match op.name.as_str() {
                ops::BROADCAST => Some(
                    o.iter()
                        .zip(&src.shape)
                        .map(|(&x, &s)| if s == 1 { 0 } else { x })
                        .collect(),
                ),
                ops::EXPAND_DIMS => {
                    let axis = op.int_attr("axis").unwrap_or(0) as usize;
                    let mut w = o.clone();
                    w.remove(axis);
                    Some(w)
                }
                _ if same_root && src.axes == dst.axes => Some(o.clone()),
                _ => None,
            };
            match want.filter(|_| same_root).and_then(|w| src.register_at(&w)) {
                Some(s) => out.push(regs[s].clone()),
                None if op.name == ops::CONVERT_LAYOUT => {
                    return self.convert_through_shared(op, &src, &dst, &regs);
                }
                None => {
                    return Err(PassError::at(
                        op,
                        "has operand and result layouts that do not line up (a tile.convert_layout is missing)",
                    ));
                }
            }
        }
        self.set(op.results[0], Lowered::Regs(out));
        Ok(())
    }

    /// The row-major index of register `r`'s element within the tensor.
    pub fn linear(&mut self, d: &Distribution, r: usize, loc: &str) -> String {
        let mut acc: Option<String> = None;
        let mut stride = 1i64;
        for i in (0..d.shape.len()).rev() {
            let idx = self.index(d, r, i, loc);
            let term = if stride == 1 {
                idx
            } else {
                let c = self.i32(stride);
                self.value(&format!("arith.muli {idx}, {c} : i32"), loc)
            };
            acc = Some(match acc {
                None => term,
                Some(a) => self.value(&format!("arith.addi {a}, {term} : i32"), loc),
            });
            stride *= d.shape[i];
        }
        acc.unwrap_or_else(|| self.i32(0))
    }

    fn convert_through_shared(
        &mut self,
        op: &Op,
        src: &Distribution,
        dst: &Distribution,
        regs: &[String],
    ) -> Result<(), PassError> {
        let loc = op.loc.as_str();
        let ty = self.scalar_type(op.results[0], op)?;
        let elem_bytes = match ty.as_str() {
            "i1" | "i8" => 1,
            "i16" | "f16" | "bf16" => 2,
            "i32" | "f32" => 4,
            _ => 8,
        };
        let total: i64 = dst.shape.iter().product();
        self.reserve_shared((total as usize) * elem_bytes);
        let base = self.shared_base();
        // Earlier users of the buffer must be done before it is rewritten.
        self.line("gpu.barrier", loc);
        for (r, reg) in regs.iter().enumerate() {
            let at = self.linear(src, r, loc);
            let p = self.value(
                &format!(
                    "llvm.getelementptr {base}[{at}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, {ty}"
                ),
                loc,
            );
            self.line(&format!("llvm.store {reg}, {p} : {ty}, !llvm.ptr<3>"), loc);
        }
        self.line("gpu.barrier", loc);
        let mut out = Vec::with_capacity(dst.registers());
        for r in 0..dst.registers() {
            let at = self.linear(dst, r, loc);
            let p = self.value(
                &format!(
                    "llvm.getelementptr {base}[{at}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, {ty}"
                ),
                loc,
            );
            out.push(self.value(&format!("llvm.load {p} : !llvm.ptr<3> -> {ty}"), loc));
        }
        self.set(op.results[0], Lowered::Regs(out));
        Ok(())
    }

    fn addptr(&mut self, op: &Op) -> Result<(), PassError> {
        let t = self.tile_type(op.results[0], op)?;
        let pointee = t
            .elem()
            .and_then(Elem::pointee)
            .ok_or_else(|| PassError::at(op, "expects pointers"))?;
        let off_ty = self.scalar_type(op.operands[1], op)?;
        let n = self.registers(op.results[0], op)?;
        let mut out = Vec::new();
        for r in 0..n.unwrap_or(1) {
            let p = self.reg(op.operands[0], r, op)?;
            let o = self.reg(op.operands[1], r, op)?;
            out.push(self.value(
                &format!(
                    "llvm.getelementptr {p}[{o}] : (!llvm.ptr<1>, {off_ty}) -> !llvm.ptr<1>, {}",
                    memory_type(pointee)
                ),
                &op.loc,
            ));
        }
        self.set_like(op.results[0], n, out);
        Ok(())
    }

    /// The number of registers of a tensor value; `None` for a scalar.
    pub fn registers(&self, v: ValueId, op: &Op) -> Result<Option<usize>, PassError> {
        if tensor_shape(self.m.ty(v)).is_none() {
            return Ok(None);
        }
        Ok(Some(self.dist(v, op)?.0.registers()))
    }

    /// Records `out` as a scalar (`n` is `None`) or as registers.
    pub fn set_like(&mut self, v: ValueId, n: Option<usize>, mut out: Vec<String>) {
        match n {
            None => self.set(v, Lowered::Scalar(out.remove(0))),
            Some(_) => self.set(v, Lowered::Regs(out)),
        }
    }

    fn constant_op(&mut self, op: &Op) -> Result<(), PassError> {
        let value = op
            .attr("value")
            .ok_or_else(|| PassError::at(op, "has no value"))?
            .to_string();
        let ty = self.scalar_type(op.results[0], op)?;
        let Some(n) = self.registers(op.results[0], op)? else {
            let (v, _) = value.rsplit_once(" : ").unwrap_or((&value, ""));
            let c = self.constant(v.trim(), &ty);
            self.set(op.results[0], Lowered::Scalar(c));
            return Ok(());
        };
        // `dense<V> : tensor<...>`; the type may hold " : " itself (in a
        // slice layout), so split at the first one.
        let inner = value
            .strip_prefix("dense<")
            .and_then(|v| v.split_once("> : tensor<"))
            .map(|(v, _)| v)
            .filter(|v| !v.starts_with('['))
            .ok_or_else(|| {
                PassError::at(
                    op,
                    "is a tensor constant that is not a splat (not supported)",
                )
            })?;
        let c = self.constant(inner, &ty);
        self.set(op.results[0], Lowered::Regs(vec![c; n]));
        Ok(())
    }

    /// Any arith/math op: once per register, in the generic form with
    /// the op's attributes.
    fn elementwise(&mut self, op: &Op) -> Result<(), PassError> {
        if !op.regions.is_empty() {
            return Err(super::unsupported(op));
        }
        let mut n: Option<usize> = None;
        for &v in op.operands.iter().chain(&op.results) {
            if let Some(k) = self.registers(v, op)? {
                if n.is_some_and(|n| n != k) {
                    return Err(PassError::at(
                        op,
                        "mixes tensors with different register counts",
                    ));
                }
                n = Some(k);
            }
        }
        let operand_types: Vec<String> = op
            .operands
            .iter()
            .map(|&v| self.scalar_type(v, op))
            .collect::<Result<_, _>>()?;
        let result_types: Vec<String> = op
            .results
            .iter()
            .map(|&v| self.scalar_type(v, op))
            .collect::<Result<_, _>>()?;
        let attrs: Vec<String> = op
            .attrs
            .iter()
            .map(|(k, v)| format!("\"{k}\" = {v}"))
            .collect();
        let attrs = if attrs.is_empty() {
            String::new()
        } else {
            format!(" {{{}}}", attrs.join(", "))
        };
        let mut outs: Vec<Vec<String>> = vec![Vec::new(); op.results.len()];
        for r in 0..n.unwrap_or(1) {
            let args: Vec<String> = op
                .operands
                .iter()
                .map(|&v| self.reg(v, r, op))
                .collect::<Result<_, _>>()?;
            let text = format!(
                "\"{}\"({}){attrs} : ({}) -> ({})",
                op.name,
                args.join(", "),
                operand_types.join(", "),
                result_types.join(", ")
            );
            match op.results.len() {
                0 => self.line(&text, &op.loc),
                1 => outs[0].push(self.value(&text, &op.loc)),
                k => {
                    let name = self.fresh();
                    self.line(&format!("{name}:{k} = {text}"), &op.loc);
                    for (i, o) in outs.iter_mut().enumerate() {
                        o.push(format!("{name}#{i}"));
                    }
                }
            }
        }
        for (i, &res) in op.results.iter().enumerate() {
            let regs = std::mem::take(&mut outs[i]);
            let k = self.registers(res, op)?;
            self.set_like(res, k, regs);
        }
        Ok(())
    }

    fn for_op(&mut self, op: &Op) -> Result<(), PassError> {
        let loc = op.loc.as_str();
        let lb = self.reg(op.operands[0], 0, op)?;
        let ub = self.reg(op.operands[1], 0, op)?;
        let step = self.reg(op.operands[2], 0, op)?;
        let iv_ty = self.scalar_type(op.operands[0], op)?;
        let body = op
            .regions
            .first()
            .ok_or_else(|| PassError::at(op, "has no body"))?;
        // Flatten loop-carried values into their scalars.
        let mut inits = Vec::new();
        let mut types = Vec::new();
        let mut counts = Vec::new();
        for &v in &op.operands[3..] {
            let parts = self.get(v, op)?.parts();
            let tys = self.part_types(v, op)?;
            if parts.len() != tys.len() {
                return Err(PassError::at(
                    op,
                    "carries a value whose parts do not match its type",
                ));
            }
            counts.push(parts.len());
            inits.extend(parts);
            types.extend(tys);
        }
        let iv = self.fresh();
        self.set(body.args[0], Lowered::Scalar(iv.clone()));
        let mut args = Vec::new();
        for (j, &n) in counts.iter().enumerate() {
            let names: Vec<String> = (0..n).map(|_| self.fresh()).collect();
            args.extend(names.clone());
            let rebuilt = self.rebuild(body.args[j + 1], names, op)?;
            self.set(body.args[j + 1], rebuilt);
        }
        let results = self.fresh();
        let head = if inits.is_empty() {
            format!("scf.for {iv} = {lb} to {ub} step {step} : {iv_ty} {{")
        } else {
            let iter: Vec<String> = args
                .iter()
                .zip(&inits)
                .map(|(a, i)| format!("{a} = {i}"))
                .collect();
            format!(
                "{results}:{} = scf.for {iv} = {lb} to {ub} step {step} iter_args({}) -> ({}) : {iv_ty} {{",
                inits.len(),
                iter.join(", "),
                types.join(", ")
            )
        };
        self.open(&head);
        let (last, rest) = body
            .ops
            .split_last()
            .ok_or_else(|| PassError::at(op, "has an empty body"))?;
        for inner in rest {
            self.op(inner)?;
        }
        let mut yielded = Vec::new();
        for &v in &last.operands {
            yielded.extend(self.get(v, last)?.parts());
        }
        if yielded.is_empty() {
            self.line("scf.yield", &last.loc);
        } else {
            self.line(
                &format!("scf.yield {} : {}", yielded.join(", "), types.join(", ")),
                &last.loc,
            );
        }
        self.close(loc);
        let mut k = 0;
        for (j, &n) in counts.iter().enumerate() {
            let names: Vec<String> = (k..k + n).map(|i| format!("{results}#{i}")).collect();
            k += n;
            let rebuilt = self.rebuild(op.results[j], names, op)?;
            self.set(op.results[j], rebuilt);
        }
        Ok(())
    }
}

impl Emitter<'_> {
    /// The types of the scalars [`Lowered::parts`] gives for value `v`.
    pub fn part_types(&self, v: ValueId, op: &Op) -> Result<Vec<String>, PassError> {
        match self.tile_type(v, op)? {
            TileType::BlockPtr { shape, .. } => {
                let r = shape.len();
                let mut t = vec!["!llvm.ptr<1>".to_string()];
                t.extend(std::iter::repeat_n("i64".to_string(), 2 * r));
                t.extend(std::iter::repeat_n("i32".to_string(), r));
                Ok(t)
            }
            t => {
                let ty = elem_type(
                    t.elem()
                        .ok_or_else(|| PassError::at(op, "has an untyped value"))?,
                );
                let n = self.registers(v, op)?.unwrap_or(1);
                Ok(vec![ty; n])
            }
        }
    }

    /// A value of `v`'s type made of the scalars `names` (see
    /// [`Lowered::parts`]).
    pub fn rebuild(
        &self,
        v: ValueId,
        mut names: Vec<String>,
        op: &Op,
    ) -> Result<Lowered, PassError> {
        Ok(match self.tile_type(v, op)? {
            TileType::BlockPtr { shape, .. } => {
                let r = shape.len();
                let offsets = names.split_off(1 + 2 * r);
                let strides = names.split_off(1 + r);
                let shape = names.split_off(1);
                Lowered::BlockPtr {
                    base: names.remove(0),
                    shape,
                    strides,
                    offsets,
                }
            }
            t if t.is_scalar() => Lowered::Scalar(names.remove(0)),
            _ => Lowered::Regs(names),
        })
    }

    fn make_block_ptr(&mut self, op: &Op) -> Result<(), PassError> {
        let seg = op
            .segments()
            .ok_or_else(|| PassError::at(op, "has no operandSegmentSizes"))?;
        let r = seg.get(1).copied().unwrap_or(0) as usize;
        if seg != [1, r as i64, r as i64, r as i64] {
            return Err(PassError::at(
                op,
                "needs as many shape, stride and offset values as block axes",
            ));
        }
        let part = |e: &Self, i: usize| e.reg(op.operands[i], 0, op);
        let base = part(self, 0)?;
        let shape = (1..1 + r)
            .map(|i| part(self, i))
            .collect::<Result<_, _>>()?;
        let strides = (1 + r..1 + 2 * r)
            .map(|i| part(self, i))
            .collect::<Result<_, _>>()?;
        let offsets = (1 + 2 * r..1 + 3 * r)
            .map(|i| part(self, i))
            .collect::<Result<_, _>>()?;
        self.set(
            op.results[0],
            Lowered::BlockPtr {
                base,
                shape,
                strides,
                offsets,
            },
        );
        Ok(())
    }

    fn advance(&mut self, op: &Op) -> Result<(), PassError> {
        let mut bp = self.get(op.operands[0], op)?;
        let Lowered::BlockPtr { offsets, .. } = &mut bp else {
            return Err(PassError::at(op, "expects a block pointer"));
        };
        for (i, off) in offsets.iter_mut().enumerate() {
            let delta = self.reg(op.operands[1 + i], 0, op)?;
            *off = self.value(&format!("arith.addi {off}, {delta} : i32"), &op.loc);
        }
        self.set(op.results[0], bp);
        Ok(())
    }

    /// For register `r` of a block of distribution `d` at block pointer
    /// `bp`: the element's address and, when `checked` lists axes, whether
    /// it lies inside the shape along them.
    pub fn block_element(
        &mut self,
        bp: &Lowered,
        d: &Distribution,
        r: usize,
        checked: &[i64],
        elem: &str,
        loc: &str,
    ) -> Result<(String, Option<String>), String> {
        let Lowered::BlockPtr {
            base,
            shape,
            strides,
            offsets,
        } = bp
        else {
            return Err("expects a block pointer".into());
        };
        let mut address: Option<String> = None;
        let mut inside: Option<String> = None;
        for i in 0..d.shape.len() {
            let idx = self.index(d, r, i, loc);
            let pos = self.value(&format!("arith.addi {}, {idx} : i32", offsets[i]), loc);
            let wide = self.value(&format!("arith.extsi {pos} : i32 to i64"), loc);
            let term = self.value(&format!("arith.muli {wide}, {} : i64", strides[i]), loc);
            address = Some(match address {
                None => term,
                Some(a) => self.value(&format!("arith.addi {a}, {term} : i64"), loc),
            });
            if checked.contains(&(i as i64)) {
                let zero = self.constant("0", "i64");
                let low = self.value(&format!("arith.cmpi sge, {wide}, {zero} : i64"), loc);
                let high = self.value(&format!("arith.cmpi slt, {wide}, {} : i64", shape[i]), loc);
                let both = self.value(&format!("arith.andi {low}, {high} : i1"), loc);
                inside = Some(match inside {
                    None => both,
                    Some(a) => self.value(&format!("arith.andi {a}, {both} : i1"), loc),
                });
            }
        }
        let offset = address.unwrap_or_else(|| self.constant("0", "i64"));
        let ptr = self.value(
            &format!(
                "llvm.getelementptr {base}[{offset}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, {elem}"
            ),
            loc,
        );
        Ok((ptr, inside))
    }
}

/// The per-thread type of a tile element.
pub fn elem_type(e: Elem) -> String {
    match e {
        Elem::Num(d) => d.to_string(),
        Elem::Ptr(_) => "!llvm.ptr<1>".into(),
    }
}

/// The type an element of `d` has in memory (booleans are bytes).
pub fn memory_type(d: DType) -> String {
    match d {
        DType::I1 => "i8".into(),
        d => d.to_string(),
    }
}
