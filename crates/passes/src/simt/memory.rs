//! Loads and stores, per run of registers.
//!
//! Where `tile-vectorize` set `tile.vector_width = n`, each run of `n`
//! consecutive registers moves as one access of 32-bit words (16 bytes at
//! most) under the predicate of its first element, which the axis analysis
//! proved uniform across the run; otherwise each register moves alone.
//!
//! - **Plain accesses** (no mask, no bounds check, no owner predicate,
//!   default cache and eviction, not volatile) are aligned `llvm.load` /
//!   `llvm.store`, which LLVM orders against every other access through
//!   the same memory.
//! - **Predicated or qualified accesses** are inline PTX marked as having
//!   side effects, so nothing merges, hoists or reorders them across
//!   stores: a masked load first moves `other` into the destination, then
//!   loads under the mask (`@p ld.global.b32 r, [a]`), so masked lanes
//!   touch no memory and read `other`; a masked store is
//!   `@p st.global.b32 [a], v`.
//!
//! Stores of replicated tensors are further predicated so that exactly one
//! thread writes each element. No branch is ever generated around an
//! access.

use super::block_ptr;
use super::builder::Val;
use super::emit::{Emitter, Lowered};
use super::ptx::{PtxAsm, RegClass};
use super::words::{self, access_type, memory_bits, reg_class};
use crate::pass::{PassError, PassResult};
use melior::dialect::arith;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value};
use tile_dialect::view::{AccessAttrs, BlockLoad, BlockStore, Load, Store};
use tile_dialect::{DType, Elem, Padding, TileType};

/// What the masked-off lanes of a load read.
#[derive(Clone, Debug)]
enum Fill {
    /// Nothing: masked lanes hold whatever the register held.
    Undefined,
    /// One element-typed value per lane of the run.
    Values(Vec<Val>),
}

/// Loads `width` elements of `d` at `ptr`, under `mask` (with `fill` in
/// masked lanes); returns the elements.
fn load_run(
    e: &mut Emitter,
    access: &AccessAttrs,
    d: DType,
    width: usize,
    ptr: Val,
    mask: Option<(Val, Fill)>,
) -> Vec<Val> {
    let bytes = (width as u32 * memory_bits(d) / 8) as u64;
    if mask.is_none() && access.is_default() {
        if width == 1 {
            let ty = block_ptr::memory_type(e, d);
            let v = e.ir.load(ptr, ty, bytes);
            return vec![match d {
                DType::I1 => {
                    let z = e.int(ty, 0);
                    e.ir.cmpi(arith::CmpiPredicate::Ne, v, z)
                }
                _ => v,
            }];
        }
        let lane = words::lane_type(e, d);
        let n = (bytes / 4) as usize;
        let vector = e.ir.vector_type(n as u64, lane);
        let v = e.ir.load(ptr, vector, bytes);
        let lanes: Vec<Val> = (0..n)
            .map(|i| {
                let index = e.i32(i as i64);
                e.ir.extract_element(v, index, lane)
            })
            .collect();
        return words::from_lanes(e, &lanes, d, width);
    }
    let mut asm = PtxAsm::new();
    if width == 1 {
        let carrier = words::carrier_type(e, d);
        let class = reg_class(d);
        let dst = asm.output(class, carrier);
        let guard = match mask {
            None => None,
            Some((m, fill)) => {
                if let Fill::Values(f) = fill {
                    let bits = words::to_bits(e, f[0], d);
                    let src = asm.input(class, bits);
                    asm.mov(words::move_type(d), dst, src);
                }
                Some(m)
            }
        };
        let addr = asm.input(RegClass::B64, ptr);
        let guard = guard.map(|m| asm.input(RegClass::Pred, m));
        asm.load(guard, access, access_type(d), &[dst], addr);
        let bits = asm.emit(&e.ir, true)[0];
        return vec![words::from_bits(e, bits, d)];
    }
    let lane = words::lane_type(e, d);
    let n = (bytes / 4) as usize;
    let dsts: Vec<_> = (0..n)
        .map(|_| asm.output(words::lane_class(d), lane))
        .collect();
    let guard = match mask {
        None => None,
        Some((m, fill)) => {
            if let Fill::Values(f) = fill {
                let lanes = words::to_lanes(e, &f, d);
                for (&dst, w) in dsts.iter().zip(lanes) {
                    let src = asm.input(words::lane_class(d), w);
                    asm.mov(words::lane_ptx(d), dst, src);
                }
            }
            Some(m)
        }
    };
    let addr = asm.input(RegClass::B64, ptr);
    let guard = guard.map(|m| asm.input(RegClass::Pred, m));
    asm.load(guard, access, words::lane_ptx(d), &dsts, addr);
    let lanes = asm.emit(&e.ir, true);
    words::from_lanes(e, &lanes, d, width)
}

/// Stores `values` (elements of `d`) at `ptr` under `pred`.
fn store_run(
    e: &mut Emitter,
    access: &AccessAttrs,
    d: DType,
    ptr: Val,
    values: &[Val],
    pred: Option<Val>,
) {
    let bytes = (values.len() as u32 * memory_bits(d) / 8) as u64;
    if pred.is_none() && access.is_default() {
        if values.len() == 1 {
            let v = match d {
                DType::I1 => {
                    let ty = block_ptr::memory_type(e, d);
                    e.ir.cast(arith::extui, values[0], ty)
                }
                _ => values[0],
            };
            e.ir.store(v, ptr, bytes);
            return;
        }
        let lanes = words::to_lanes(e, values, d);
        let lane = words::lane_type(e, d);
        let vector_ty = e.ir.vector_type(lanes.len() as u64, lane);
        let mut vector = e.ir.poison(vector_ty);
        for (i, w) in lanes.into_iter().enumerate() {
            let index = e.i32(i as i64);
            vector = e.ir.insert_element(vector, w, index);
        }
        e.ir.store(vector, ptr, bytes);
        return;
    }
    let mut asm = PtxAsm::new();
    let addr = asm.input(RegClass::B64, ptr);
    let srcs: Vec<_> = if values.len() == 1 {
        let bits = words::to_bits(e, values[0], d);
        vec![asm.input(reg_class(d), bits)]
    } else {
        words::to_lanes(e, values, d)
            .into_iter()
            .map(|w| asm.input(words::lane_class(d), w))
            .collect()
    };
    let guard = pred.map(|p| asm.input(RegClass::Pred, p));
    let ty = if values.len() == 1 {
        words::store_type(d)
    } else {
        words::lane_ptx(d)
    };
    asm.store(guard, access, ty, addr, &srcs);
    asm.emit(&e.ir, true);
}

/// The elements per access `op` asks for (`tile.vector_width`, 1 when
/// absent), checked against the registers the thread holds contiguously.
pub(super) fn vector_width<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef,
    asked: Option<i64>,
    tensor: Value<'c, '_>,
    d: DType,
) -> Result<usize, PassError> {
    let Some(width) = asked else {
        return Ok(1);
    };
    let dist = e.dist(tensor, op)?;
    let held = dist.0.contiguous_registers().map_or(1, |(_, h)| h);
    let bytes = width * i64::from(memory_bits(d) / 8);
    if width < 1
        || (width & (width - 1)) != 0
        || held % width != 0
        || (width > 1 && !(4..=16).contains(&bytes))
    {
        return Err(PassError::at(
            op,
            format!(
                "has {} = {width}, which its layout cannot give: the thread holds {held} \
                 contiguous elements, and a vector must move 4 to 16 bytes",
                tile_dialect::ops::VECTOR_WIDTH_ATTR
            ),
        ));
    }
    Ok(width as usize)
}

pub(super) fn pointee(e: &Emitter, ptr: Value, op: &OperationRef) -> Result<DType, PassError> {
    e.tile_type(ptr, op)?
        .elem()
        .and_then(Elem::pointee)
        .ok_or_else(|| PassError::at(op, "expects pointers"))
}

/// `a && b` where either may be absent (true).
pub(super) fn and(e: &mut Emitter, a: Option<Val>, b: Option<Val>) -> Option<Val> {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(a), Some(b)) => Some(e.ir.binary(arith::andi, a, b)),
    }
}

/// The predicate of the one thread that writes each element through `ptr`
/// (a tensor of pointers: the owner of each element, `None` when no element
/// is held twice; a scalar pointer: thread 0).
pub(super) fn writer<'c>(
    e: &mut Emitter<'_, 'c>,
    ptr: Value<'c, '_>,
    op: &OperationRef<'c, '_>,
) -> Result<Option<Val>, PassError> {
    Ok(match e.registers(ptr, op)? {
        Some(_) => {
            let dist = e.dist(ptr, op)?;
            e.owner(&dist.0, &dist.1)
        }
        None => {
            let (tid, _, _) = e.thread();
            let z = e.i32(0);
            Some(e.ir.cmpi(arith::CmpiPredicate::Eq, tid, z))
        }
    })
}

/// Lowers `tile.load`.
pub fn load<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    l: &Load<'c, '_>,
) -> PassResult {
    let d = pointee(e, l.ptr, op)?;
    let result: Value = op.result(0).expect("a load's result").into();
    let n = e.registers(result, op)?;
    let width = match n {
        Some(_) => vector_width(e, op, l.vector_width, result, d)?,
        None => 1,
    };
    let mut out = Vec::with_capacity(n.unwrap_or(1));
    for r in (0..n.unwrap_or(1)).step_by(width) {
        let ptr = e.reg(l.ptr, r, op)?;
        let mask = match l.mask {
            None => None,
            Some(m) => {
                let mut fill = Vec::with_capacity(width);
                for i in r..r + width {
                    fill.push(match l.other {
                        Some(o) => e.reg(o, i, op)?,
                        None => e.number(d, 0.0),
                    });
                }
                Some((e.reg(m, r, op)?, Fill::Values(fill)))
            }
        };
        out.extend(load_run(e, &l.access, d, width, ptr, mask));
    }
    e.set_like(result, out);
    Ok(())
}

/// Lowers `tile.store`.
pub fn store<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    s: &Store<'c, '_>,
) -> PassResult {
    let d = pointee(e, s.ptr, op)?;
    let n = e.registers(s.ptr, op)?;
    // Exactly one thread writes each element.
    let owner = writer(e, s.ptr, op)?;
    let width = match n {
        Some(_) => vector_width(e, op, s.vector_width, s.value, d)?,
        None => 1,
    };
    for r in (0..n.unwrap_or(1)).step_by(width) {
        let ptr = e.reg(s.ptr, r, op)?;
        let m = s.mask.map(|m| e.reg(m, r, op)).transpose()?;
        let pred = and(e, m, owner);
        let values = (r..r + width)
            .map(|i| e.reg(s.value, i, op))
            .collect::<Result<Vec<_>, _>>()?;
        store_run(e, &s.access, d, ptr, &values, pred);
    }
    Ok(())
}

fn block_dtype(e: &Emitter, ptr: Value, op: &OperationRef) -> Result<DType, PassError> {
    match e.tile_type(ptr, op)? {
        TileType::BlockPtr { dtype, .. } => Ok(dtype),
        _ => Err(PassError::at(op, "expects a block pointer")),
    }
}

/// What out-of-bounds elements of a block load read.
fn padding(e: &mut Emitter, op: &OperationRef, p: Padding, d: DType) -> Result<Fill, PassError> {
    let value = match p {
        Padding::Undefined => return Ok(Fill::Undefined),
        Padding::Zero => 0.0,
        Padding::Nan if d.is_float() => f64::NAN,
        Padding::Nan => return Err(PassError::at(op, "pads an integer block with nan")),
        Padding::Value(v) => v,
    };
    Ok(Fill::Values(vec![e.number(d, value)]))
}

/// Lowers `tile.block_load`: each register's address from the block
/// pointer's offsets and strides, predicated on the checked axes.
pub fn block_load<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    l: &BlockLoad<'c, '_>,
) -> PassResult {
    let d = block_dtype(e, l.ptr, op)?;
    let bp = e.get(l.ptr, op)?;
    let result: Value = op.result(0).expect("a block load's result").into();
    let dist = e.dist(result, op)?;
    let elem = block_ptr::memory_type(e, d);
    let fill = if l.boundary_check.is_empty() {
        Fill::Undefined
    } else {
        padding(e, op, l.padding, d)?
    };
    let width = vector_width(e, op, l.vector_width, result, d)?;
    let mut out = Vec::with_capacity(dist.0.registers());
    let mut checks = block_ptr::BoundsChecks::new(e, l.ptr, &dist.0, &l.boundary_check);
    for r in (0..dist.0.registers()).step_by(width) {
        let (ptr, inside) = checks
            .element(e, (&bp, &dist.0), r, elem)
            .map_err(|m| PassError::at(op, m))?;
        let mask = inside.map(|m| {
            let f = match &fill {
                Fill::Values(v) => Fill::Values(vec![v[0]; width]),
                Fill::Undefined => Fill::Undefined,
            };
            (m, f)
        });
        out.extend(load_run(e, &l.access, d, width, ptr, mask));
    }
    e.set(result, Lowered::Regs(out));
    Ok(())
}

/// Lowers `tile.block_store`: like [`block_load`], and only the owner of
/// each element writes it.
pub fn block_store<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    s: &BlockStore<'c, '_>,
) -> PassResult {
    let d = block_dtype(e, s.ptr, op)?;
    let bp = e.get(s.ptr, op)?;
    let dist = e.dist(s.value, op)?;
    let owner = e.owner(&dist.0, &dist.1);
    let elem = block_ptr::memory_type(e, d);
    let width = vector_width(e, op, s.vector_width, s.value, d)?;
    let mut checks = block_ptr::BoundsChecks::new(e, s.ptr, &dist.0, &s.boundary_check);
    for r in (0..dist.0.registers()).step_by(width) {
        let (ptr, inside) = checks
            .element(e, (&bp, &dist.0), r, elem)
            .map_err(|m| PassError::at(op, m))?;
        let pred = and(e, inside, owner);
        let values = (r..r + width)
            .map(|i| e.reg(s.value, i, op))
            .collect::<Result<Vec<_>, _>>()?;
        store_run(e, &s.access, d, ptr, &values, pred);
    }
    Ok(())
}
