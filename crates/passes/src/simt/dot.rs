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
//! TF32 inputs are staged as they are: tensor cores read an f32 operand
//! with the low 13 bits of its significand dropped, which is `tf32`'s
//! definition, so operands copied ahead into shared memory go to them
//! untouched. For `tf32x3` the high parts and the remainders are rounded
//! while staged (`cvt.rna.tf32.f32`), staged apart, and three products
//! accumulate: the small ones first.

pub mod in_flight;
pub mod invariant;
mod mma_sync;
mod register_a;
pub mod wgmma;

use super::builder::Val;
use super::emit::{Emitter, Lowered};
use super::ptx::{PtxAsm, RegClass};
use crate::pass::{PassError, PassResult};
use melior::dialect::arith;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value, ValueLike};
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
            let a_words = register_a::words(e, op, dot.a, m, inputs)?;
            let staged = stage_operands(e, op, dot, parts, m.version == 3, a_words.as_ref())?;
            if m.version == 3 {
                let in_flight = e.in_flight_products.contains(&crate::edit::key(result));
                let regs = wgmma::product(e, op, m, &out.0, &staged, acc, in_flight)?;
                e.wgmma_pending |= in_flight;
                regs
            } else {
                mma_sync::product(e, op, m, &out.0, &staged, acc)?
            }
        }
        _ if inputs == DType::F32 && dot.precision == InputPrecision::Ieee => {
            let staged = stage_operands(e, op, dot, Parts::Whole(Convert::None), false, None)?;
            let A::Shared(a) = staged.a else {
                return Err(PassError::at(op, "has no staged left operand"));
            };
            fma(e, &out.0, &staged, &a, acc)
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
    /// Rounded to TF32 (to nearest, ties away from zero).
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
            _ => Parts::Whole(Convert::None),
        }
    }
}

/// One operand in shared memory: its layout, where it starts, and whether
/// its contiguous columns are K (else M or N).
#[derive(Clone, Copy, Debug)]
pub struct Staged {
    /// The layout: rows of contiguous columns.
    pub tile: SharedTile,
    /// Its first byte in the shared buffer (i32).
    pub at: Val,
    /// True when the columns are K (rows: M for `a`, N for `b`); else the
    /// rows are K and the columns M or N.
    pub k_major: bool,
}

/// Where a product reads its left operand from.
#[derive(Clone, Copy)]
pub enum A<'w> {
    /// Shared memory.
    Shared(Staged),
    /// Registers, as fragments ([`register_a`]).
    Registers(&'w register_a::Words),
}

/// The operands: `a` in shared memory or registers, `b` in shared
/// memory, and for `tf32x3` the remainders of each in shared memory.
pub struct Operands<'w> {
    /// The inputs' type.
    pub inputs: DType,
    /// K.
    pub k: i64,
    /// `a` (high parts for `tf32x3`).
    pub a: A<'w>,
    /// `b` (high parts for `tf32x3`).
    pub b: Staged,
    /// The remainders of `a` and `b` (`tf32x3`).
    pub low: Option<(Staged, Staged)>,
}

/// The operands in shared memory. Those a pipelined loop already keeps
/// there are used as they are; the others are written (K-major, or
/// MN-major where 16-bit registers run along M or N) into the
/// scratch part of the buffer, one after the other, each aligned for
/// `wgmma`'s swizzle, with a barrier before (earlier users of the buffer)
/// and after. With `async_readers` the writes are first made visible to
/// the async proxy `wgmma` reads through. With `a_words`, `a` is read
/// from registers and not staged.
fn stage_operands<'c, 'w>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    dot: &Dot<'c, '_>,
    parts: Parts,
    async_readers: bool,
    a_words: Option<&'w register_a::Words>,
) -> Result<Operands<'w>, PassError> {
    let stage_a = a_words.is_none();
    let inputs = e.dtype(dot.a, op)?;
    let [m, k] = shape2(dot.a, op)?;
    let [_, n] = shape2(dot.b, op)?;
    let elem_bytes = i64::from(inputs.bits()) / 8;
    let high = match parts {
        Parts::Whole(c) => c,
        Parts::Split => Convert::Tf32,
    };
    // (operand, its K axis, its rows when staged, the conversion)
    let mut wanted = vec![(dot.a, 1, m, high), (dot.b, 0, n, high)];
    if parts == Parts::Split {
        wanted.push((dot.a, 1, m, Convert::Tf32Remainder));
        wanted.push((dot.b, 0, n, Convert::Tf32Remainder));
    }
    if !stage_a {
        wanted.retain(|w| w.1 != 1);
    }
    let mut staged = Vec::with_capacity(wanted.len());
    let mut writes = Vec::new();
    let mut placed = Vec::new();
    let mut local = 0i64;
    let scratch = e.scratch() as i64;
    for &(v, k_axis, rows, convert) in &wanted {
        let invariant = e
            .invariant_operands
            .get(&(crate::edit::key(v), k_axis))
            .copied();
        if let (Some(s), Convert::None) = (invariant, convert) {
            staged.push(s);
            continue;
        }
        match e.get(v, op)? {
            Lowered::Shared {
                tile,
                at,
                contiguous,
            } if convert == Convert::None => staged.push(Staged {
                tile,
                at,
                k_major: contiguous == k_axis,
            }),
            Lowered::Regs(regs) => {
                // A layout whose fastest axis is M or N goes out along it
                // (in vector stores where a thread holds a run, and with
                // a warp's lanes on consecutive columns, not rows, of the
                // tile) to a tile `wgmma` and `mma.sync` read transposed
                // (16-bit inputs alone have that form); the others
                // K-major.
                let dist = e.dist(v, op)?;
                let mn_runs = dist
                    .0
                    .contiguous_registers()
                    .is_some_and(|(axis, _)| axis != k_axis);
                let mn_major = mn_runs
                    && matches!(inputs, DType::F16 | DType::BF16)
                    && convert == Convert::None;
                let (tile, axes) = if mn_major {
                    (SharedTile::new(k, rows, elem_bytes), [k_axis, 1 - k_axis])
                } else {
                    (SharedTile::new(rows, k, elem_bytes), [1 - k_axis, k_axis])
                };
                // Placed below (`at` is set once the region's size is
                // known).
                let s = Staged {
                    tile,
                    at: e.i32(0),
                    k_major: !mn_major,
                };
                placed.push((staged.len(), local));
                local = align(local + tile.bytes());
                staged.push(s);
                writes.push((v, regs, axes, staged.len() - 1, convert));
            }
            Lowered::Shared { .. } => {
                return Err(PassError::at(
                    op,
                    "splits its f32 operands into TF32 parts (tf32x3) in registers, but one was copied into shared memory as it is (tile.async_copy)",
                ));
            }
            _ => {
                return Err(PassError::at(
                    op,
                    "multiplies an operand that is neither in registers nor in shared memory",
                ));
            }
        }
    }
    // The staged operands' place: the scratch region, or in a pipelined
    // loop whose product stays in flight into the next iteration, one of
    // two regions by the iteration's parity (the group still running
    // reads the other).
    let result = crate::edit::result_of(op, 0).map(crate::edit::key);
    let parity = e
        .staging_parity
        .filter(|_| result.is_some_and(|r| e.in_flight_products.contains(&r)));
    let region = match parity {
        Some(p) => {
            let size = e.i32(local);
            let shift = e.ir.binary(arith::muli, p, size);
            let base = e.i32(scratch);
            Some(e.ir.binary(arith::addi, base, shift))
        }
        None => None,
    };
    for &(i, within) in &placed {
        staged[i].at = match region {
            Some(r) => {
                let w = e.i32(within);
                e.ir.binary(arith::addi, r, w)
            }
            None => e.i32(scratch + within),
        };
    }
    if !writes.is_empty() {
        let copies = if parity.is_some() { 2 } else { 1 };
        e.reserve_shared((local * copies) as usize);
        e.ir.barrier();
        for (v, regs, axes, i, convert) in writes {
            let dist = e.dist(v, op)?;
            write(e, &dist.0, &regs, axes, staged[i], convert, k);
        }
        if async_readers {
            proxy_fence(e);
        }
        e.ir.barrier();
    }
    let (a, rest) = match a_words {
        None => (A::Shared(staged[0]), &staged[1..]),
        Some(words) => (A::Registers(words), &staged[..]),
    };
    let low = match (parts, stage_a) {
        (Parts::Split, true) => Some((rest[1], rest[2])),
        _ => None,
    };
    Ok(Operands {
        inputs,
        k,
        a,
        b: rest[0],
        low,
    })
}

/// `x` rounded up to the alignment of swizzled tiles.
fn align(x: i64) -> i64 {
    let a = tile_coalesce::shared::SWIZZLE_ALIGN;
    (x + a - 1) / a * a
}

/// The two extents of a matrix operand.
fn shape2<'c>(v: Value<'c, '_>, op: &OperationRef) -> Result<[i64; 2], PassError> {
    let shape = tile_dialect::view::tensor_shape(v.r#type());
    match shape[..] {
        [r, c] => Ok([r, c]),
        _ => Err(PassError::at(
            op,
            "multiplies a tensor that is not a matrix",
        )),
    }
}

/// `fence.proxy.async.shared::cta`: shared-memory writes made so far
/// become visible to the async proxy (`wgmma`'s reads).
pub fn proxy_fence(e: &mut Emitter<'_, '_>) {
    let mut asm = PtxAsm::new();
    asm.instruction(None, "fence.proxy.async.shared::cta", vec![]);
    asm.emit(&e.ir, true);
}

/// Stores each register of a tensor in `dist` at its place in `to`: the
/// tensor's axis `axes[0]` is the tile's rows, `axes[1]` its columns (K
/// for a K-major tile, M or N for a transposed one).
/// Registers holding consecutive columns of one row go out together, up to
/// 16 bytes a store (an aligned run stays inside one 16-byte chunk, which
/// the swizzle moves whole), whichever axis the registers run along: a
/// thread holding a 4 x 4 block of f32 along N and K writes four 16-byte
/// rows of K. Columns beyond K (narrow i8 rows padded to 32 bytes) are
/// zeroed.
fn write<'c>(
    e: &mut Emitter<'_, 'c>,
    dist: &Distribution,
    regs: &[Val],
    axes: [usize; 2],
    to: Staged,
    convert: Convert,
    k: i64,
) {
    let base = e.shared_buffer();
    let eb = to.tile.elem_bytes;
    // The columns the tile holds unpadded: K (K-major) or M or N.
    let cols = if to.k_major { k } else { dist.shape[axes[1]] };
    let run = if to.tile.cols == cols {
        column_run(dist, axes[1], 16 / eb)
    } else {
        1
    };
    for r in 0..regs.len() {
        let offsets = &dist.offsets[r];
        if offsets[axes[1]] % run != 0 {
            continue;
        }
        let members: Vec<usize> = (0..run)
            .map(|i| {
                let mut at = offsets.clone();
                at[axes[1]] += i;
                dist.register_at(&at).expect("checked by column_run")
            })
            .collect();
        let row = e.index(dist, r, axes[0]);
        let col = e.index(dist, r, axes[1]);
        let values: Vec<Val> = members
            .iter()
            .map(|&m| convert_element(e, regs[m], convert))
            .collect();
        let run = members.len();
        let at = tile_offset(e, &to, row, col);
        let value = if run == 1 {
            values[0]
        } else {
            let ty = e.ir.vector_type(run as u64, values[0].ty());
            let mut v = e.ir.poison(ty);
            for (i, &x) in values.iter().enumerate() {
                let i = e.i32(i as i64);
                v = e.ir.insert_element(v, x, i);
            }
            v
        };
        store_shared(e, base, at, value, eb * run as i64);
        if to.k_major && to.tile.cols > k {
            let kc = e.i32(k);
            let pad = e.ir.binary(arith::addi, col, kc);
            let at = tile_offset(e, &to, row, pad);
            let zero = e.int(values[0].ty(), 0);
            store_shared(e, base, at, zero, eb);
        }
    }
}

/// The most consecutive columns (along tensor axis `col`, at most `most`,
/// a power of two) that every register of `dist` holds together with the
/// others of its aligned run, in the same row, starting at a multiple of
/// the run in every thread: 1 when registers hold one column each, or the
/// axis wraps (threads hold copies). A thread's registers along an axis
/// come in aligned blocks of its size per thread (a power of two), so the
/// widest run the size allows is whole in every layout the compiler
/// makes; the check is kept, falling back to single columns, for any
/// other.
fn column_run(dist: &Distribution, col: usize, most: i64) -> i64 {
    let held = i64::from(dist.root.size_per_thread(dist.axes[col]));
    let run = most.min(held).min(dist.shape[col]).max(1);
    let run = 1 << (63 - run.leading_zeros());
    if run == 1 || dist.wraps(col) {
        return 1;
    }
    let whole = dist.offsets.iter().all(|o| {
        let first = o[col] - o[col].rem_euclid(run);
        (0..run).all(|i| {
            let mut at = o.clone();
            at[col] = first + i;
            dist.register_at(&at).is_some()
        })
    });
    if whole { run } else { 1 }
}

fn store_shared<'c>(e: &mut Emitter<'_, 'c>, base: Val, at: Val, value: Val, align: i64) {
    let i8 = e.ir.int_type(8);
    let p = e.ir.gep(base, at, i8);
    e.ir.store_for_others(value, p, align as u64);
}

/// The byte offset in the shared buffer of element (`row`, `col`) of a
/// tile in shared memory (tile coordinates: `col` along the contiguous
/// columns; i32 indices).
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
    e.ir.binary(arith::addi, swizzled, s.at)
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
            let f32 = e.reg_type(DType::F32);
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
    a: &Staged,
    acc: Vec<Val>,
) -> Vec<Val> {
    let f32 = e.reg_type(DType::F32);
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
        let at = tile_offset(e, a, row, kk);
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
