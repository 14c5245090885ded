//! The per-thread code emitter behind `tile-to-simt`: the lowered form of
//! every tile value, the thread's ids and indices, and the dispatch of
//! each op to its lowering.

use super::builder::{GLOBAL, Ir, SHARED, Val};
use super::{
    atomic, block_ptr, control, convert, debug, dot, elementwise, math, memory, rearrange, reduce,
    scan,
};
use crate::edit::{key, ops_of};
use crate::pass::{PassError, PassResult};
use melior::dialect::arith::{self, CmpiPredicate};
use melior::ir::operation::OperationLike;
use melior::ir::r#type::TypeLike;
use melior::ir::{BlockRef, OperationRef, Type, Value, ValueLike};
use std::collections::HashMap;
use std::rc::Rc;
use tile_coalesce::{Distribution, Layout, Root};
use tile_dialect::view::{
    ForLoop, IfOp, KernelFunc, TileOp, TypeTable, WhileLoop, op_name, tensor_shape,
};
use tile_dialect::{DType, Elem, TileType};

/// The name of the shared-memory buffer conversions and reductions use.
pub const SHARED_BUFFER: &str = "__tile_shared";

/// A tile value, lowered: one scalar, or the scalars of one thread's
/// registers, or the parts of a block pointer.
#[derive(Clone, Debug)]
pub enum Lowered {
    /// A scalar (the same in every thread).
    Scalar(Val),
    /// One value per register, in register order.
    Regs(Vec<Val>),
    /// A tile in shared memory (a buffer of a pipelined loop): its layout,
    /// its first byte in the shared buffer, and which of its two axes is
    /// contiguous (the layout's columns).
    Shared {
        /// The layout.
        tile: tile_coalesce::SharedTile,
        /// The byte offset in the shared buffer (i32).
        at: Val,
        /// The tensor axis along the layout's columns.
        contiguous: usize,
    },
    /// A block pointer: base pointer, shape and strides (i64) and offsets
    /// (i32), one scalar each axis.
    BlockPtr {
        /// The base pointer.
        base: Val,
        /// Extent of each axis.
        shape: Vec<Val>,
        /// Stride of each axis, in elements.
        strides: Vec<Val>,
        /// The block's current offset along each axis.
        offsets: Vec<Val>,
    },
}

impl Lowered {
    /// The scalars a value is made of, in order (for loop-carried values).
    pub fn parts(&self) -> Vec<Val> {
        match self {
            Lowered::Scalar(s) => vec![*s],
            Lowered::Regs(r) => r.clone(),
            Lowered::Shared { at, .. } => vec![*at],
            Lowered::BlockPtr {
                base,
                shape,
                strides,
                offsets,
            } => std::iter::once(*base)
                .chain(shape.iter().copied())
                .chain(strides.iter().copied())
                .chain(offsets.iter().copied())
                .collect(),
        }
    }
}

/// A distribution and the layout it comes from.
pub type Dist = Rc<(Distribution, Layout)>;

/// Emits kernels into a `gpu.module`.
pub struct Emitter<'t, 'c> {
    /// Where ops go.
    pub ir: Ir<'c>,
    /// Types of the tile IR being lowered.
    pub types: &'t TypeTable<'c>,
    vals: HashMap<usize, Lowered>,
    consts: HashMap<(usize, u64), Val>,
    /// The values of `consts`.
    constants: std::collections::HashSet<Val>,
    /// Conversions of constants, hoisted: (constant, type) to result.
    const_casts: HashMap<(Val, usize), Val>,
    bases: HashMap<(Root, usize), Val>,
    owners: HashMap<(Layout, Vec<i64>), Option<Val>>,
    dists: HashMap<usize, Dist>,
    /// Registers known to be `root + constant` (indices and what is added
    /// to them uniformly), so that addresses become one shared base and a
    /// constant offset each (see [`Emitter::affine`]).
    affine: HashMap<Val, (Val, i64)>,
    thread: Option<(Val, Val, Val)>,
    uniform_warp: Option<Val>,
    /// Which values are uniform across a warp, and the sums recorded as
    /// uniform plus per-thread ([`super::uniform`]).
    pub uniform: super::uniform::Uniformity,
    shared: Option<Val>,
    shared_bytes: usize,
    /// The ops being lowered, outermost first, and the innermost of them
    /// when the shared buffer last grew (what a kernel over the chip's
    /// shared memory is blamed on).
    lowering: Vec<mlir_sys::MlirOperation>,
    shared_peak: Option<mlir_sys::MlirOperation>,
    /// Where scratch users of the shared buffer (conversions, reductions,
    /// staged operands) start: after the buffers of the pipelined loop
    /// being lowered.
    scratch: usize,
    /// Set when the kernel uses instructions of the `a` variant of its
    /// chip (`wgmma`).
    pub arch_specific: bool,
    /// A debug build: assertions are compiled in.
    pub debug: bool,
    /// Float products and sums are marked `contract` (LLVM may fuse them
    /// into `fma`).
    pub fp_fusion: bool,
    /// The target has `atom.add.v2/v4.f32` (sm_90, PTX 8.1).
    pub vector_atomics: bool,
    /// The target converts 8-bit floats (`cvt .e4m3x2`: sm_89, PTX 7.8).
    pub fp8_convert: bool,
    /// The axis analysis of the kernel being lowered: where an
    /// elementwise result is constant over groups of a thread's registers,
    /// each group's value is computed once ([`Emitter::constant_groups`]).
    pub axis_facts: Option<crate::axis_analysis::AxisAnalysis<'t, 'c>>,
    /// The products of the pipelined loop whose body is being lowered that
    /// leave their `wgmma` group in flight ([`super::dot::in_flight`]).
    pub in_flight_products: std::collections::HashSet<usize>,
    /// Values whose registers an in-flight `wgmma` group still writes.
    pub pending: Vec<usize>,
    /// Set when a product left a `wgmma` group in flight (the loop waits
    /// for it after its last iteration).
    pub wgmma_pending: bool,
    /// False only where every `wgmma` group committed so far is known to
    /// have retired (a `wgmma.wait_group 0` since the last commit, on
    /// straight-line code): an in-flight product then needs no
    /// `wgmma.wait_group 1` for the groups before it.
    pub wgmma_may_run: bool,
    /// In the body of a pipelined loop, the iteration's parity (i32, 0 or
    /// 1): operands staged from registers for a product that stays in
    /// flight alternate between two regions by it.
    pub staging_parity: Option<Val>,
    /// Product operands staged in shared memory before a loop
    /// ([`super::dot::invariant`]), by value and K axis. They stay there
    /// (later loops of the same block read them too) until the block that
    /// holds the loop ends ([`Emitter::end_pin_scope`]).
    pub invariant_operands: HashMap<(usize, usize), super::dot::Staged>,
    /// The keys of `invariant_operands`, in the order they were staged.
    pinned: Vec<(usize, usize)>,
}

/// What [`Emitter::pin_scope`] saves: the scratch start and the number of
/// staged operands when a block began.
#[derive(Clone, Copy, Debug)]
pub struct PinScope {
    scratch: usize,
    pinned: usize,
}

impl<'t, 'c> Emitter<'t, 'c> {
    /// An emitter building with `ir`.
    pub fn new(ir: Ir<'c>, types: &'t TypeTable<'c>) -> Self {
        Emitter {
            ir,
            types,
            vals: HashMap::new(),
            consts: HashMap::new(),
            constants: Default::default(),
            const_casts: HashMap::new(),
            bases: HashMap::new(),
            owners: HashMap::new(),
            dists: HashMap::new(),
            affine: HashMap::new(),
            thread: None,
            uniform_warp: None,
            uniform: Default::default(),
            shared: None,
            shared_bytes: 0,
            lowering: Vec::new(),
            shared_peak: None,
            scratch: 0,
            arch_specific: false,
            debug: false,
            fp_fusion: false,
            vector_atomics: false,
            fp8_convert: true,
            axis_facts: None,
            in_flight_products: Default::default(),
            pending: Vec::new(),
            wgmma_pending: false,
            wgmma_may_run: true,
            staging_parity: None,
            invariant_operands: HashMap::new(),
            pinned: Vec::new(),
        }
    }

    /// For each register of the tensor `v`, the first register holding
    /// the same value in every thread, from the axis analysis' constancy
    /// ([`tile_coalesce::Distribution::constant_groups`]: a mask's rows a
    /// thread holds when the row bound is a multiple of them, the
    /// elements of a vector); `None` when no two share one.
    pub fn constant_groups(
        &mut self,
        v: Value<'c, '_>,
        op: &OperationRef,
    ) -> Result<Option<Vec<usize>>, PassError> {
        let Some(facts) = &self.axis_facts else {
            return Ok(None);
        };
        let info = facts.info(v);
        if tensor_shape(v.r#type()).is_empty() || info.constancy.iter().all(|&c| c <= 1) {
            return Ok(None);
        }
        let dist = self.dist(v, op)?;
        Ok(dist.0.constant_groups(&info.constancy))
    }

    /// Bytes of shared memory the kernel needs, rounded up to a whole
    /// 16-byte chunk (the buffer's alignment). LLVM's NVPTX back end may
    /// widen the last loads of an exchange to the aligned word or vector
    /// around them (a 3-byte tail of i8 read as 4 bytes); inside a buffer
    /// of whole chunks such a load stays in bounds, where one byte past an
    /// odd-sized buffer is an out-of-bounds shared read on the GPU.
    pub fn shared_bytes(&self) -> usize {
        self.shared_bytes.next_multiple_of(16)
    }

    // ---- constants and ids ----

    /// An integer constant of type `ty`, hoisted and shared.
    pub fn int(&mut self, ty: Type<'c>, v: i64) -> Val {
        let k = (ty.to_raw().ptr as usize, v as u64);
        if let Some(c) = self.consts.get(&k) {
            return *c;
        }
        let c = self.ir.int_constant(ty, v);
        self.consts.insert(k, c);
        self.constants.insert(c);
        c
    }

    /// A float constant of type `ty`, hoisted and shared.
    pub fn float(&mut self, ty: Type<'c>, v: f64) -> Val {
        let k = (ty.to_raw().ptr as usize, v.to_bits());
        if let Some(c) = self.consts.get(&k) {
            return *c;
        }
        let c = self.ir.float_constant(ty, v);
        self.consts.insert(k, c);
        self.constants.insert(c);
        c
    }

    /// `make(v, ty)` (a conversion): once, in the prologue, when `v` is a
    /// hoisted constant (a masked load's `other`, a padding); appended
    /// otherwise.
    pub fn convert(
        &mut self,
        make: fn(Value<'c, '_>, Type<'c>, melior::ir::Location<'c>) -> melior::ir::Operation<'c>,
        v: Val,
        ty: Type<'c>,
    ) -> Val {
        if !self.constants.contains(&v) {
            return self.ir.cast(make, v, ty);
        }
        let key = (v, ty.to_raw().ptr as usize);
        if let Some(&c) = self.const_casts.get(&key) {
            return c;
        }
        let c = self.ir.hoist1(make(v.value(), ty, self.ir.location()));
        self.const_casts.insert(key, c);
        c
    }

    /// The register type of an element of `d`: the type itself, but an
    /// 8-bit float travels as its bits (`i8`). LLVM has no such type, and
    /// only conversions look inside one (see [`DType::is_fp8`]).
    pub fn reg_type(&self, d: DType) -> Type<'c> {
        self.types.dtype(if d.is_fp8() { DType::I8 } else { d })
    }

    /// A constant of element type `d` (integers truncated to its width;
    /// 8-bit floats rounded, saturating, to their bits).
    pub fn number(&mut self, d: DType, v: f64) -> Val {
        let ty = self.reg_type(d);
        match d {
            DType::I1 => self.int(ty, i64::from(v != 0.0)),
            d if d.is_fp8() => self.int(ty, i64::from(tile_dialect::fp8::encode(d, v) as i8)),
            d if d.is_float() => self.float(ty, v),
            _ => self.int(ty, v as i64),
        }
    }

    /// An i32 constant.
    pub fn i32(&mut self, v: i64) -> Val {
        let ty = self.ir.int_type(32);
        self.int(ty, v)
    }

    /// The thread id, lane and warp numbers (hoisted to the entry).
    pub fn thread(&mut self) -> (Val, Val, Val) {
        if let Some(t) = self.thread {
            return t;
        }
        let tid = self.ir.thread_id();
        let c31 = self.i32(31);
        let c5 = self.i32(5);
        let lane = self.ir.hoisted_binary(arith::andi, tid, c31);
        let warp = self.ir.hoisted_binary(arith::shrui, tid, c5);
        let t = (tid, lane, warp);
        self.thread = Some(t);
        t
    }

    /// The warp number, broadcast from lane 0 (`shfl.sync.idx`), which
    /// `ptxas` then knows to be uniform across the warp (it keeps values
    /// derived from it in uniform registers, as `wgmma` descriptors want).
    pub fn uniform_warp(&mut self) -> Val {
        if let Some(w) = self.uniform_warp {
            return w;
        }
        let (_, _, warp) = self.thread();
        let i32 = self.ir.int_type(32);
        let mut asm = super::ptx::PtxAsm::new();
        let out = asm.output(super::ptx::RegClass::B32, i32);
        let input = asm.input(super::ptx::RegClass::B32, warp);
        asm.instruction(
            None,
            "shfl.sync.idx.b32",
            vec![
                super::ptx::Arg::Reg(out),
                super::ptx::Arg::Reg(input),
                super::ptx::Arg::Imm(0),
                super::ptx::Arg::Imm(31),
                super::ptx::Arg::Imm(-1),
            ],
        );
        let w = asm.emit_hoisted(&self.ir);
        self.uniform_warp = Some(w);
        self.uniform.assume(w);
        w
    }

    /// `(id >> shift) & (count - 1)`, hoisted: one digit of a lane or warp
    /// number (`count` a power of two).
    pub fn digit(&mut self, id: Val, shift: u32, count: i64) -> Val {
        let mut x = id;
        if shift > 0 {
            let s = self.i32(i64::from(shift));
            x = self.ir.hoisted_binary(arith::shrui, x, s);
        }
        let mask = self.i32(count - 1);
        self.ir.hoisted_binary(arith::andi, x, mask)
    }

    /// The shared-memory buffer's address (hoisted).
    pub fn shared_buffer(&mut self) -> Val {
        if let Some(b) = self.shared {
            return b;
        }
        let b = self.ir.address_of(SHARED_BUFFER, SHARED);
        self.shared = Some(b);
        b
    }

    /// Where scratch users of the shared buffer start (see
    /// [`Emitter::set_scratch`]).
    pub fn shared_base(&mut self) -> Val {
        let b = self.shared_buffer();
        if self.scratch == 0 {
            return b;
        }
        let i8 = self.ir.int_type(8);
        self.ir.gep_const(b, self.scratch as i64, i8)
    }

    /// The byte offset where scratch users start.
    pub fn scratch(&self) -> usize {
        self.scratch
    }

    /// Keeps bytes `0..start` of the shared buffer for long-lived buffers:
    /// scratch users start after them (until set back to 0).
    pub fn set_scratch(&mut self, start: usize) {
        self.scratch = start;
        self.grow_shared(start);
    }

    /// Makes the shared buffer at least `bytes` long, remembering the op
    /// being lowered when it grows.
    fn grow_shared(&mut self, bytes: usize) {
        if bytes > self.shared_bytes {
            self.shared_bytes = bytes;
            self.shared_peak = self.lowering.last().copied();
        }
    }

    /// The op being lowered when the shared buffer grew to its size (see
    /// [`Emitter::shared_bytes`]), if any; it lives as long as the kernel
    /// being lowered.
    pub fn shared_peak(&self) -> Option<OperationRef<'c, '_>> {
        // SAFETY: the op is one of the kernel's, alive until the kernel is
        // erased after its lowering.
        self.shared_peak
            .map(|raw| unsafe { OperationRef::from_raw(raw) })
    }

    /// Records `staged` as the shared copy of operand `key`, kept below
    /// the scratch start until the current pin scope ends.
    pub fn pin(&mut self, key: (usize, usize), staged: super::dot::Staged) {
        self.invariant_operands.insert(key, staged);
        self.pinned.push(key);
    }

    /// The state to restore when the block being lowered ends.
    pub fn pin_scope(&self) -> PinScope {
        PinScope {
            scratch: self.scratch,
            pinned: self.pinned.len(),
        }
    }

    /// Ends a block: forgets the operands staged since `scope` began and
    /// gives their bytes back to scratch users.
    pub fn end_pin_scope(&mut self, scope: PinScope) {
        for key in self.pinned.drain(scope.pinned..) {
            self.invariant_operands.remove(&key);
        }
        self.set_scratch(scope.scratch);
    }

    /// Makes the scratch part of the shared buffer at least `bytes` long.
    pub fn reserve_shared(&mut self, bytes: usize) {
        self.grow_shared(self.scratch + bytes);
    }

    // ---- distributions and indices ----

    /// The distribution of a tensor value's elements over the threads.
    pub fn dist(&mut self, v: Value<'c, '_>, op: &OperationRef) -> Result<Dist, PassError> {
        let ty = v.r#type();
        let k = ty.to_raw().ptr as usize;
        if let Some(d) = self.dists.get(&k) {
            return Ok(d.clone());
        }
        let shape = tensor_shape(ty);
        if shape.is_empty() {
            return Err(PassError::at(op, format!("expects a tensor, got {ty}")));
        }
        let layout = self
            .types
            .layout(ty)
            .map_err(|e| PassError::at(op, e.to_string()))?
            .ok_or_else(|| {
                PassError::at(
                    op,
                    format!("has a tensor without a layout ({ty}); run tile-assign-layouts first"),
                )
            })?;
        let d = Distribution::new(&layout, &shape).map_err(|e| PassError::at(op, e.to_string()))?;
        let d = Rc::new((d, layout));
        self.dists.insert(k, d.clone());
        Ok(d)
    }

    /// The thread's base index along root axis `k` of `d`'s layout.
    fn base(&mut self, d: &Distribution, k: usize) -> Val {
        let key = (d.root.clone(), k);
        if let Some(b) = self.bases.get(&key) {
            return *b;
        }
        let (_, lane, warp) = self.thread();
        let t = d.base_terms(k);
        let l = (t.threads > 1).then(|| self.digit(lane, t.lane_shift, t.threads));
        let w = (t.warps > 1).then(|| self.digit(warp, t.warp_shift, t.warps));
        let sum = if t.warp_scale == t.lane_scale * t.threads {
            // Blocked: (lane digit + threads * warp digit) * size per thread.
            let w = w.map(|w| {
                let c = self.i32(t.threads);
                self.ir.hoisted_binary(arith::muli, w, c)
            });
            let sum = self.hoisted_sum(l, w);
            sum.map(|s| self.hoisted_scale(s, t.lane_scale))
        } else {
            let l = l.map(|l| self.hoisted_scale(l, t.lane_scale));
            let w = w.map(|w| self.hoisted_scale(w, t.warp_scale));
            self.hoisted_sum(l, w)
        };
        let base = sum.unwrap_or_else(|| self.i32(0));
        self.bases.insert(key, base);
        base
    }

    fn hoisted_sum(&mut self, a: Option<Val>, b: Option<Val>) -> Option<Val> {
        match (a, b) {
            (None, None) => None,
            (Some(x), None) | (None, Some(x)) => Some(x),
            (Some(a), Some(b)) => Some(self.ir.hoisted_binary(arith::addi, a, b)),
        }
    }

    fn hoisted_scale(&mut self, x: Val, scale: i64) -> Val {
        if scale == 1 {
            return x;
        }
        let c = self.i32(scale);
        self.ir.hoisted_binary(arith::muli, x, c)
    }

    /// The index along tensor axis `i` of the element in register `r`.
    pub fn index(&mut self, d: &Distribution, r: usize, i: usize) -> Val {
        let mut x = self.unwrapped_index(d, r, i);
        if d.wraps(i) {
            let c = self.i32(d.shape[i] - 1);
            x = self.ir.binary(arith::andi, x, c);
        }
        x
    }

    /// Register `r`'s index along tensor axis `i` before wrapping: below
    /// the axis's extent exactly for the first copy of each element.
    pub fn unwrapped_index(&mut self, d: &Distribution, r: usize, i: usize) -> Val {
        let base = self.base(d, d.axes[i]);
        let v = match d.offsets[r][i] {
            0 => base,
            off => {
                let c = self.i32(off);
                self.ir.binary(arith::addi, base, c)
            }
        };
        self.set_affine(v, base, d.offsets[r][i]);
        v
    }

    /// `(root, c)` when register value `v` is known to be `root + c`.
    pub fn affine(&self, v: Val) -> Option<(Val, i64)> {
        self.affine.get(&v).copied()
    }

    /// Records that `v` is `root + c`.
    pub fn set_affine(&mut self, v: Val, root: Val, c: i64) {
        self.affine.insert(v, (root, c));
    }

    /// The row-major index of register `r`'s element within the tensor.
    pub fn linear(&mut self, d: &Distribution, r: usize) -> Val {
        let mut acc: Option<Val> = None;
        let mut stride = 1i64;
        for i in (0..d.shape.len()).rev() {
            let idx = self.index(d, r, i);
            let term = if stride == 1 {
                idx
            } else {
                let c = self.i32(stride);
                self.ir.binary(arith::muli, idx, c)
            };
            acc = Some(match acc {
                None => term,
                Some(a) => self.ir.binary(arith::addi, a, term),
            });
            stride *= d.shape[i];
        }
        acc.unwrap_or_else(|| self.i32(0))
    }

    /// A predicate true in exactly one thread of those holding each
    /// element (`None` when no element is replicated).
    pub fn owner(&mut self, d: &Distribution, layout: &Layout) -> Option<Val> {
        let key = (layout.clone(), d.shape.clone());
        if let Some(o) = self.owners.get(&key) {
            return *o;
        }
        let mut conds = Vec::new();
        for i in 0..d.shape.len() {
            if d.wraps(i) {
                let b = self.base(d, d.axes[i]);
                let s = self.i32(d.shape[i]);
                conds.push(self.ir.hoisted_cmpi(CmpiPredicate::Ult, b, s));
            }
        }
        for k in d.sliced_spread_axes() {
            let b = self.base(d, k);
            let z = self.i32(0);
            conds.push(self.ir.hoisted_cmpi(CmpiPredicate::Eq, b, z));
        }
        let acc = conds
            .into_iter()
            .reduce(|a, c| self.ir.hoisted_binary(arith::andi, a, c));
        self.owners.insert(key, acc);
        acc
    }

    // ---- values ----

    /// The lowered form of a tile value.
    pub fn get(&self, v: Value<'c, '_>, op: &OperationRef) -> Result<Lowered, PassError> {
        self.vals
            .get(&key(v))
            .cloned()
            .ok_or_else(|| PassError::at(op, "uses a value the lowering has not seen"))
    }

    /// The lowered form of a tile value, if the lowering has seen it.
    pub fn get_unchecked(&self, v: Value<'c, '_>) -> Option<Lowered> {
        self.vals.get(&key(v)).cloned()
    }

    /// Register `r` of value `v` (scalars broadcast).
    pub fn reg(&self, v: Value<'c, '_>, r: usize, op: &OperationRef) -> Result<Val, PassError> {
        match self.get(v, op)? {
            Lowered::Scalar(s) => Ok(s),
            Lowered::Regs(regs) => regs
                .get(r)
                .copied()
                .ok_or_else(|| PassError::at(op, "register count mismatch between operands")),
            Lowered::BlockPtr { .. } => {
                Err(PassError::at(op, "expects a tensor, got a block pointer"))
            }
            Lowered::Shared { .. } => Err(PassError::at(
                op,
                "reads a tile a pipelined loop keeps in shared memory (only tile.dot may)",
            )),
        }
    }

    /// Records the lowering of a tile value.
    pub fn set(&mut self, v: Value<'c, '_>, l: Lowered) {
        self.vals.insert(key(v), l);
    }

    /// The lowered form of the value with key `k` (see [`crate::edit::key`]).
    pub fn lowered(&self, k: usize) -> Option<Lowered> {
        self.vals.get(&k).cloned()
    }

    /// Records the lowering of the value with key `k`.
    pub fn set_key(&mut self, k: usize, l: Lowered) {
        self.vals.insert(k, l);
    }

    /// Forgets the lowering of the value with key `k`.
    pub fn unset_key(&mut self, k: usize) {
        self.vals.remove(&k);
    }

    /// Records `out` as a scalar (`v` is a scalar) or as registers.
    pub fn set_like(&mut self, v: Value<'c, '_>, mut out: Vec<Val>) {
        if tensor_shape(v.r#type()).is_empty() {
            self.set(v, Lowered::Scalar(out.remove(0)));
        } else {
            self.set(v, Lowered::Regs(out));
        }
    }

    /// The number of registers of a tensor value; `None` for a scalar.
    pub fn registers(
        &mut self,
        v: Value<'c, '_>,
        op: &OperationRef,
    ) -> Result<Option<usize>, PassError> {
        if tensor_shape(v.r#type()).is_empty() {
            return Ok(None);
        }
        Ok(Some(self.dist(v, op)?.0.registers()))
    }

    /// The tile type of a value.
    pub fn tile_type(&self, v: Value<'c, '_>, op: &OperationRef) -> Result<TileType, PassError> {
        self.types.tile_type(v.r#type()).ok_or_else(|| {
            PassError::at(
                op,
                format!("has a value of type {} outside tile IR", v.r#type()),
            )
        })
    }

    /// The per-thread type of an element of tile type `e`.
    pub fn elem_type(&self, e: Elem) -> Type<'c> {
        match e {
            Elem::Num(d) => self.reg_type(d),
            Elem::Ptr(_) => self.ir.ptr_type(GLOBAL),
        }
    }

    /// The per-thread scalar type of a value's elements.
    pub fn scalar_type(&self, v: Value<'c, '_>, op: &OperationRef) -> Result<Type<'c>, PassError> {
        match self.tile_type(v, op)?.elem() {
            Some(e) => Ok(self.elem_type(e)),
            None => Err(PassError::at(
                op,
                "expects a number or pointer, got a block pointer",
            )),
        }
    }

    /// The number type of a value's elements.
    pub fn dtype(&self, v: Value<'c, '_>, op: &OperationRef) -> Result<DType, PassError> {
        self.tile_type(v, op)?
            .num()
            .ok_or_else(|| PassError::at(op, "expects numbers"))
    }

    // ---- the kernel ----

    /// Lowers the ops of the kernel `func` (its arguments already set).
    pub fn kernel_body(
        &mut self,
        func: &KernelFunc<'c, '_>,
        op: &OperationRef<'c, '_>,
    ) -> PassResult {
        let body = func
            .body
            .ok_or_else(|| PassError::at(op, "is a declaration, not a kernel"))?;
        self.block(&body)
    }

    /// Lowers every op of `block`.
    pub fn block(&mut self, block: &BlockRef<'c, '_>) -> PassResult {
        for op in ops_of(block) {
            self.lower_op(&op)?;
        }
        Ok(())
    }

    /// Lowers one op of tile IR.
    pub fn lower_op(&mut self, op: &OperationRef<'c, '_>) -> PassResult {
        self.ir.set_location(op.location());
        dot::in_flight::settle_before(self, op)?;
        self.lowering.push(op.to_raw());
        let lowered = self.lower_op_here(op);
        self.lowering.pop();
        if op.regions().next().is_some() {
            // What the op's blocks (a loop's iterations, one branch or
            // another) leave running is not known after it.
            self.wgmma_may_run = true;
        }
        lowered
    }

    /// Lowers `op` (its pending values settled).
    fn lower_op_here(&mut self, op: &OperationRef<'c, '_>) -> PassResult {
        let view = TileOp::read(op, |v| self.types.tile_type(v.r#type()))
            .map_err(|r| PassError::at(op, r.to_string()))?;
        if let Some(view) = view {
            return self.tile_op(op, view);
        }
        if let Some(l) = ForLoop::read(op).map_err(|r| PassError::at(op, r.to_string()))? {
            return control::for_loop(self, op, &l);
        }
        if let Some(b) = IfOp::read(op).map_err(|r| PassError::at(op, r.to_string()))? {
            return control::branch(self, op, &b);
        }
        if let Some(w) = WhileLoop::read(op).map_err(|r| PassError::at(op, r.to_string()))? {
            return control::while_loop(self, op, &w);
        }
        let name = op_name(op);
        match name {
            "func.return" => {
                self.ir.generic("gpu.return", &[], &[], &[]);
                Ok(())
            }
            "arith.constant" => elementwise::constant(self, op),
            "math.absi" => math::integer_abs(self, op),
            "arith.fptosi" => math::saturating_fptosi(self, op),
            _ if math::handles(name) => math::lower(self, op),
            _ if name.starts_with("arith.") || name.starts_with("math.") => {
                elementwise::lower(self, op)
            }
            _ => Err(super::unsupported(op)),
        }
    }

    fn tile_op(&mut self, op: &OperationRef<'c, '_>, view: TileOp<'c, '_>) -> PassResult {
        let result = || -> Result<Value<'c, '_>, PassError> {
            op.result(0)
                .map(Value::from)
                .map_err(|_| PassError::at(op, "has no result"))
        };
        match view {
            TileOp::ProgramId(g) | TileOp::NumPrograms(g) => {
                let axis = usize::try_from(g.axis)
                    .ok()
                    .filter(|&a| a < 3)
                    .ok_or_else(|| PassError::at(op, "has a grid axis outside 0..3"))?;
                let grid = matches!(view, TileOp::NumPrograms(_));
                let v = self.ir.block_query(axis, grid);
                self.set(result()?, Lowered::Scalar(v));
                Ok(())
            }
            TileOp::Arange(a) => convert::arange(self, op, a.start),
            TileOp::Splat(u) => {
                let s = self.reg(u.src, 0, op)?;
                let n = self.dist(result()?, op)?.0.registers();
                self.set(result()?, Lowered::Regs(vec![s; n]));
                Ok(())
            }
            TileOp::Broadcast(u) | TileOp::ConvertLayout(u) => {
                convert::renumber(self, op, u.src, None)
            }
            TileOp::ExpandDims(e) => convert::renumber(self, op, e.src, Some(e.axis as usize)),
            TileOp::AddPtr(a) => block_ptr::addptr(self, op, &a),
            TileOp::Load(l) => memory::load(self, op, &l),
            TileOp::Store(s) => memory::store(self, op, &s),
            TileOp::MakeBlockPtr(m) => block_ptr::make(self, op, &m),
            TileOp::Advance(a) => block_ptr::advance(self, op, &a),
            TileOp::BlockLoad(l) => memory::block_load(self, op, &l),
            TileOp::BlockStore(s) => memory::block_store(self, op, &s),
            TileOp::Reduce(r) => reduce::reduce(self, op, &r),
            TileOp::Scan(s) => scan::scan(self, op, &s),
            TileOp::AtomicRmw(a) => atomic::rmw(self, op, &a),
            TileOp::AtomicCas(a) => atomic::cas(self, op, &a),
            TileOp::Print(p) => debug::print(self, op, &p),
            TileOp::Assert(a) => debug::assert(self, op, &a),
            TileOp::Dot(d) => dot::lower(self, op, &d),
            TileOp::Reshape(u) => rearrange::reshape(self, op, u.src),
            TileOp::Permute(p) => rearrange::permute(self, op, &p),
            TileOp::Join(j) => rearrange::join(self, op, &j),
            TileOp::Split(u) => rearrange::split(self, op, u.src),
            TileOp::Cat(c) => rearrange::cat(self, op, &c),
        }
    }
}
