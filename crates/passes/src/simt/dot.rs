//! `tile.dot`: the product of two tiles, on tensor cores or, for f32 with
//! `ieee` precision, with one fused multiply-add per term.
//!
//! Both operands are first staged in shared memory, K-major and swizzled
//! ([`SharedTile`]): `a` [M, K] as M rows of K, `b` [K, N] as N rows of K,
//! whatever layouts their registers are in. From there:
//!
//! - an accumulator in an `#tile.mma` layout of version 2 takes
//!   `mma.sync` fragments loaded from those rows ([`mma_sync`]);
//! - version 3 hands the rows to `wgmma` through matrix descriptors
//!   ([`wgmma`]);
//! - a blocked accumulator (f32 inputs, `ieee`) adds `a[m, k] * b[k, n]`
//!   for each `k` in order, one `fma` each, as the interpreter does.
//!
//! TF32 inputs are rounded once while staged (`cvt.rna.tf32.f32`); for
//! `tf32x3` the high parts and the remainders are staged apart and three
//! products accumulate: the small ones first.

mod mma_sync;
mod wgmma;

use super::builder::Val;
use super::emit::{Emitter, Lowered};
use super::ptx::{PtxAsm, RegClass};
use crate::pass::{PassError, PassResult};
use melior::dialect::arith;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value};
use tile_coalesce::{Distribution, Layout, SharedTile};
use tile_dialect::view::Dot;
use tile_dialect::{DType, InputPrecision};

/// Lowers one `tile.dot`.
pub fn lower<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    dot: &Dot<'c, '_>,
) -> PassResult {
    let result: Value = op
        .result(0)
        .map_err(|_| PassError::at(op, "has no result"))?
        .into();
    let inputs = e.dtype(dot.a, op)?;
    let out = e.dist(result, op)?;
    let Lowered::Regs(acc) = e.get(dot.acc, op)? else {
        return Err(PassError::at(op, "expects a tensor accumulator"));
    };
    let regs = match &out.1 {
        Layout::Mma(m) => {
            let parts = Parts::of(inputs, dot.precision);
            let staged = stage_operands(e, op, dot, parts, m.version == 3)?;
            if m.version == 3 {
                wgmma::product(e, op, m, &out.0, &staged, acc)?
            } else {
                mma_sync::product(e, op, m, &out.0, &staged, acc)?
            }
        }
        _ if inputs == DType::F32 && dot.precision == InputPrecision::Ieee => {
            let staged = stage_operands(e, op, dot, Parts::Whole(Convert::None), false)?;
            fma(e, &out.0, &staged, acc)
        }
        other => {
            return Err(PassError::at(
                op,
                format!(
                    "has its result in layout {other}; a {inputs} product needs a tensor-core layout (#tile.mma)"
                ),
            ));
        }
    };
    e.set(result, Lowered::Regs(regs));
    Ok(())
}

/// What each input element becomes in shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Convert {
    /// Stored as it is.
    None,
    /// Rounded to TF32.
    Tf32,
    /// What TF32 rounding leaves, rounded to TF32.
    Tf32Remainder,
}

/// The staged copies of each operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Parts {
    /// One copy.
    Whole(Convert),
    /// High parts and remainders (`tf32x3`).
    Split,
}

impl Parts {
    fn of(inputs: DType, precision: InputPrecision) -> Parts {
        match (inputs, precision) {
            (DType::F32, InputPrecision::Tf32x3) => Parts::Split,
            (DType::F32, _) => Parts::Whole(Convert::Tf32),
            _ => Parts::Whole(Convert::None),
        }
    }
}

/// One operand in shared memory: its layout and where it starts.
#[derive(Clone, Copy, Debug)]
pub struct Staged {
    /// The layout (rows: M for `a`, N for `b`; columns: K).
    pub tile: SharedTile,
    /// Its first byte in the shared buffer.
    pub at: i64,
}

/// The operands in shared memory: `a` and `b`, and for `tf32x3` the
/// remainders of each.
pub struct Operands {
    /// The inputs' type.
    pub inputs: DType,
    /// K.
    pub k: i64,
    /// `a` (high parts for `tf32x3`).
    pub a: Staged,
    /// `b` (high parts for `tf32x3`).
    pub b: Staged,
    /// The remainders of `a` and `b` (`tf32x3`).
    pub low: Option<(Staged, Staged)>,
}

/// Writes the operands into shared memory, one after the other, each
/// aligned for `wgmma`'s swizzle; a barrier before (earlier users of the
/// buffer) and after. With `async_readers` the writes are first made
/// visible to the async proxy `wgmma` reads through.
fn stage_operands<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    dot: &Dot<'c, '_>,
    parts: Parts,
    async_readers: bool,
) -> Result<Operands, PassError> {
    let inputs = e.dtype(dot.a, op)?;
    let a_dist = e.dist(dot.a, op)?;
    let b_dist = e.dist(dot.b, op)?;
    let [m, k] = [a_dist.0.shape[0], a_dist.0.shape[1]];
    let n = b_dist.0.shape[1];
    let elem_bytes = i64::from(inputs.bits()) / 8;
    let a_tile = SharedTile::new(m, k, elem_bytes);
    let b_tile = SharedTile::new(n, k, elem_bytes);
    let align = |x: i64| (x + tile_coalesce::shared::SWIZZLE_ALIGN - 1) / 1024 * 1024;
    let mut at = 0;
    let mut place = |tile: SharedTile| {
        let s = Staged { tile, at };
        at = align(at + tile.bytes());
        s
    };
    let (a, b) = (place(a_tile), place(b_tile));
    let low = (parts == Parts::Split).then(|| (place(a_tile), place(b_tile)));
    e.reserve_shared(at as usize);
    let Lowered::Regs(a_regs) = e.get(dot.a, op)? else {
        return Err(PassError::at(op, "expects a tensor operand a"));
    };
    let Lowered::Regs(b_regs) = e.get(dot.b, op)? else {
        return Err(PassError::at(op, "expects a tensor operand b"));
    };
    e.ir.barrier();
    let high = match parts {
        Parts::Whole(c) => c,
        Parts::Split => Convert::Tf32,
    };
    write(e, &a_dist.0, &a_regs, [0, 1], a, high, k);
    write(e, &b_dist.0, &b_regs, [1, 0], b, high, k);
    if let Some((a_low, b_low)) = low {
        write(
            e,
            &a_dist.0,
            &a_regs,
            [0, 1],
            a_low,
            Convert::Tf32Remainder,
            k,
        );
        write(
            e,
            &b_dist.0,
            &b_regs,
            [1, 0],
            b_low,
            Convert::Tf32Remainder,
            k,
        );
    }
    if async_readers {
        let mut asm = PtxAsm::new();
        asm.instruction(None, "fence.proxy.async.shared::cta", vec![]);
        asm.emit(&e.ir, true);
    }
    e.ir.barrier();
    Ok(Operands {
        inputs,
        k,
        a,
        b,
        low,
    })
}

/// Stores each register of a tensor in `dist` at its place in `to`: the
/// tensor's axis `axes[0]` is the tile's rows, `axes[1]` its columns (K).
/// Columns beyond K (narrow i8 rows padded to 32 bytes) are zeroed.
fn write<'c>(
    e: &mut Emitter<'_, 'c>,
    dist: &Distribution,
    regs: &[Val],
    axes: [usize; 2],
    to: Staged,
    convert: Convert,
    k: i64,
) {
    let base = e.shared_base();
    for (r, &value) in regs.iter().enumerate() {
        let row = e.index(dist, r, axes[0]);
        let col = e.index(dist, r, axes[1]);
        let value = convert_element(e, value, convert);
        let at = tile_offset(e, &to, row, col);
        store_shared(e, base, at, value, to.tile.elem_bytes);
        if to.tile.cols > k {
            let kc = e.i32(k);
            let pad = e.ir.binary(arith::addi, col, kc);
            let at = tile_offset(e, &to, row, pad);
            let zero = e.int(value.ty(), 0);
            store_shared(e, base, at, zero, to.tile.elem_bytes);
        }
    }
}

fn store_shared<'c>(e: &mut Emitter<'_, 'c>, base: Val, at: Val, value: Val, align: i64) {
    let i8 = e.ir.int_type(8);
    let p = e.ir.gep(base, at, i8);
    e.ir.store(value, p, align as u64);
}

/// The byte offset in the shared buffer of element (`row`, `col`) of a
/// staged tile (i32 indices).
pub fn tile_offset<'c>(e: &mut Emitter<'_, 'c>, s: &Staged, row: Val, col: Val) -> Val {
    let t = &s.tile;
    let shift = |e: &mut Emitter<'_, 'c>, x: Val, by: i64| {
        let c = e.i32(by);
        e.ir.binary(arith::shrui, x, c)
    };
    let and = |e: &mut Emitter<'_, 'c>, x: Val, mask: i64| {
        let c = e.i32(mask);
        e.ir.binary(arith::andi, x, c)
    };
    let mul = |e: &mut Emitter<'_, 'c>, x: Val, by: i64| {
        let c = e.i32(by);
        e.ir.binary(arith::muli, x, c)
    };
    let block_cols = t.block_cols();
    let block = shift(e, col, block_cols.trailing_zeros().into());
    let within = and(e, col, block_cols - 1);
    let block = mul(e, block, t.rows * t.swizzle);
    let row_bytes = mul(e, row, t.swizzle);
    let within = mul(e, within, t.elem_bytes);
    let linear = e.ir.binary(arith::addi, block, row_bytes);
    let linear = e.ir.binary(arith::addi, linear, within);
    let swizzled = swizzle(e, t, linear);
    let start = e.i32(s.at);
    e.ir.binary(arith::addi, swizzled, start)
}

/// The stored offset of linear offset `x` in tile `t` (see [`SharedTile`]).
pub fn swizzle<'c>(e: &mut Emitter<'_, 'c>, t: &SharedTile, x: Val) -> Val {
    let seven = e.i32(7);
    let hi = e.ir.binary(arith::shrui, x, seven);
    let mask = e.i32(t.chunk_mask());
    let hi = e.ir.binary(arith::andi, hi, mask);
    let four = e.i32(4);
    let hi = e.ir.binary(arith::shli, hi, four);
    e.ir.binary(arith::xori, x, hi)
}

fn convert_element<'c>(e: &mut Emitter<'_, 'c>, x: Val, convert: Convert) -> Val {
    match convert {
        Convert::None => x,
        Convert::Tf32 => tf32(e, x),
        Convert::Tf32Remainder => {
            let hi = tf32(e, x);
            let f32 = e.types.dtype(DType::F32);
            let hi = e.ir.cast(arith::bitcast, hi, f32);
            let rest = e.ir.binary(arith::subf, x, hi);
            tf32(e, rest)
        }
    }
}

/// `cvt.rna.tf32.f32`: `x` rounded to TF32 (to nearest, ties away), its
/// bits in an i32.
fn tf32<'c>(e: &mut Emitter<'_, 'c>, x: Val) -> Val {
    let i32 = e.ir.int_type(32);
    let mut asm = PtxAsm::new();
    let out = asm.output(RegClass::B32, i32);
    let input = asm.input(RegClass::F32, x);
    asm.unary("cvt.rna.tf32.f32", out, input);
    asm.emit(&e.ir, false)[0]
}

/// The accumulator in a blocked layout: for each `k` in order, every
/// register adds `a[m, k] * b[k, n]` with one `fma` (f32).
fn fma<'c>(
    e: &mut Emitter<'_, 'c>,
    out: &Distribution,
    staged: &Operands,
    acc: Vec<Val>,
) -> Vec<Val> {
    let f32 = e.types.dtype(DType::F32);
    let base = e.shared_base();
    // The rows and columns this thread's registers hold.
    let mut rows = std::collections::BTreeMap::new();
    let mut cols = std::collections::BTreeMap::new();
    let mut which = Vec::with_capacity(acc.len());
    for r in 0..acc.len() {
        let [ro, co] = [out.offsets[r][0], out.offsets[r][1]];
        if let std::collections::btree_map::Entry::Vacant(v) = rows.entry(ro) {
            v.insert(e.index(out, r, 0));
        }
        if let std::collections::btree_map::Entry::Vacant(v) = cols.entry(co) {
            v.insert(e.index(out, r, 1));
        }
        which.push((ro, co));
    }
    let zero = e.i32(0);
    let one = e.i32(1);
    let k = e.i32(staged.k);
    let mut types = vec![e.ir.int_type(32)];
    types.extend(acc.iter().map(|v| v.ty()));
    // The index, then the accumulators.
    let mut carried = e.ir.open_block(&types);
    let kk = carried.remove(0);
    let mut a_vals = std::collections::BTreeMap::new();
    for (&o, &row) in &rows {
        let at = tile_offset(e, &staged.a, row, kk);
        let i8 = e.ir.int_type(8);
        let p = e.ir.gep(base, at, i8);
        a_vals.insert(o, e.ir.load(p, f32, 4));
    }
    let mut b_vals = std::collections::BTreeMap::new();
    for (&o, &col) in &cols {
        let at = tile_offset(e, &staged.b, col, kk);
        let i8 = e.ir.int_type(8);
        let p = e.ir.gep(base, at, i8);
        b_vals.insert(o, e.ir.load(p, f32, 4));
    }
    let next: Vec<Val> = which
        .iter()
        .zip(&carried)
        .map(|(&(ro, co), &c)| {
            e.ir.intrinsic("llvm.fma.f32", &[a_vals[&ro], b_vals[&co], c], f32)
        })
        .collect();
    let body = e.ir.close_block(&next);
    e.ir.for_loop([zero, k, one], &acc, body)
}
