//! The ops that move elements between places (`tile.reshape`,
//! `tile.permute`, `tile.join`, `tile.split`, `tile.cat`), through shared
//! memory: every thread writes the elements it holds at the place the
//! op sends them, and after a barrier reads the elements its result
//! registers hold ([`super::exchange`] lays the places out in the buffer,
//! with vectors and without bank conflicts). Any source layout meets any
//! result layout this way; threads holding copies of an element write
//! the same value to the same place.
//!
//! A placement ([`Placement`]) says where element `i` (an index per axis)
//! of a tensor goes: `offset + Σ i[k] · strides[k]`.
//!
//! Where every thread already holds the elements its result registers
//! need (a join or split whose pair axis is within each thread, a reshape
//! that keeps each element in its thread), the registers are only
//! renumbered and no shared memory is used.

use super::emit::{Emitter, Lowered};
use super::exchange::{Held, Placement, Side, exchange};
use crate::pass::{PassError, PassResult};
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value};
use std::collections::HashMap;
use tile_coalesce::Distribution;
use tile_dialect::types::Elem;
use tile_dialect::view::{Pair, Permute};

/// The result of `op` number `i`.
fn result<'c, 'a>(op: &OperationRef<'c, 'a>, i: usize) -> Result<Value<'c, 'a>, PassError> {
    op.result(i)
        .map(Value::from)
        .map_err(|_| PassError::at(op, format!("has no result {i}")))
}

/// Where a tensor value's elements go (an operand) or come from (a
/// result) in the buffer.
struct Moved<'c, 'a> {
    value: Value<'c, 'a>,
    place: Placement,
}

/// Moves the elements of `sources` to `results` as their placements say
/// (`elements` places in all): in registers where each thread holds what
/// it needs, else through shared memory.
fn move_elements<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    sources: &[Moved<'c, '_>],
    results: &[Moved<'c, '_>],
    elements: i64,
) -> PassResult {
    let mut held = Vec::with_capacity(sources.len());
    for s in sources {
        let Lowered::Regs(regs) = e.get(s.value, op)? else {
            return Err(PassError::at(op, "expects a tensor operand in registers"));
        };
        held.push((e.dist(s.value, op)?, regs));
    }
    let mut wanted = Vec::with_capacity(results.len());
    for r in results {
        wanted.push(e.dist(r.value, op)?);
    }
    let source_dists: Vec<(&Distribution, &Placement)> = held
        .iter()
        .zip(sources)
        .map(|((d, _), s)| (&d.0, &s.place))
        .collect();
    let maps: Option<Vec<_>> = wanted
        .iter()
        .zip(results)
        .map(|(d, r)| register_map(&source_dists, &d.0, &r.place))
        .collect();
    if let Some(maps) = maps {
        for (r, map) in results.iter().zip(maps) {
            let regs = map.iter().map(|&(s, k)| held[s].1[k]).collect();
            e.set(r.value, Lowered::Regs(regs));
        }
        return Ok(());
    }
    let elem = e
        .tile_type(result(op, 0)?, op)?
        .elem()
        .ok_or_else(|| PassError::at(op, "moves a block pointer"))?;
    let (bytes, whole) = match elem {
        Elem::Num(d) => (i64::from(d.bits().div_ceil(8)), d.bits().is_multiple_of(8)),
        // Pointers move as scalars.
        Elem::Ptr(_) => (8, false),
    };
    let elem = e.elem_type(elem);
    let writers: Vec<Held> = held
        .iter()
        .zip(sources)
        .map(|((d, regs), s)| Held {
            side: Side::new(&d.0, &s.place),
            regs,
        })
        .collect();
    let readers: Vec<Side> = wanted
        .iter()
        .zip(results)
        .map(|(d, r)| Side::new(&d.0, &r.place))
        .collect();
    let moved = exchange(e, &writers, &readers, elements, elem, bytes, whole)?;
    for (r, regs) in results.iter().zip(moved) {
        e.set(r.value, Lowered::Regs(regs));
    }
    Ok(())
}

/// For each register of `dst`, the source and register that hold the
/// element at its place in every thread; `None` when some thread would
/// need an element another thread holds.
fn register_map(
    sources: &[(&Distribution, &Placement)],
    dst: &Distribution,
    place: &Placement,
) -> Option<Vec<(usize, usize)>> {
    let warps = i64::from(dst.root.num_warps());
    if sources
        .iter()
        .any(|(d, _)| i64::from(d.root.num_warps()) != warps)
    {
        return None;
    }
    let held_by = |lane: i64, warp: i64| -> HashMap<i64, (usize, usize)> {
        let mut held = HashMap::new();
        for (s, (d, p)) in sources.iter().enumerate() {
            for k in 0..d.registers() {
                held.entry(p.at(&d.element(lane, warp, k)))
                    .or_insert((s, k));
            }
        }
        held
    };
    let first = held_by(0, 0);
    let map: Vec<(usize, usize)> = (0..dst.registers())
        .map(|r| first.get(&place.at(&dst.element(0, 0, r))).copied())
        .collect::<Option<_>>()?;
    let agree = (0..warps).all(|warp| {
        (0..32).all(|lane| {
            map.iter().enumerate().all(|(r, &(s, k))| {
                let (d, p) = sources[s];
                p.at(&d.element(lane, warp, k)) == place.at(&dst.element(lane, warp, r))
            })
        })
    });
    agree.then_some(map)
}

fn shape_of(e: &Emitter<'_, '_>, v: Value, op: &OperationRef) -> Result<Vec<i64>, PassError> {
    Ok(e.tile_type(v, op)?.shape().to_vec())
}

fn moved<'c, 'a>(value: Value<'c, 'a>, place: Placement) -> Moved<'c, 'a> {
    Moved { value, place }
}

/// `tile.reshape`: row-major in both shapes.
pub fn reshape<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    src: Value<'c, '_>,
) -> PassResult {
    let out = result(op, 0)?;
    let (from, to) = (shape_of(e, src, op)?, shape_of(e, out, op)?);
    let sources = [moved(src, Placement::row_major(&from, 1, 0))];
    let results = [moved(out, Placement::row_major(&to, 1, 0))];
    move_elements(e, op, &sources, &results, to.iter().product())
}

/// `tile.permute`: source axis `order[k]` takes the result's stride `k`.
pub fn permute<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    p: &Permute<'c, '_>,
) -> PassResult {
    let out = result(op, 0)?;
    if let Lowered::Shared {
        tile,
        at,
        contiguous,
    } = e.get(p.src, op)?
    {
        // A tile a pipelined loop keeps in shared memory (read only by a
        // product): the same bytes with its axes relabelled.
        let contiguous = p
            .order
            .iter()
            .position(|&a| a as usize == contiguous)
            .ok_or_else(|| PassError::at(op, "has an order outside its rank"))?;
        e.set(
            out,
            Lowered::Shared {
                tile,
                at,
                contiguous,
            },
        );
        return Ok(());
    }
    let to = shape_of(e, out, op)?;
    let dst = Placement::row_major(&to, 1, 0);
    let mut strides = vec![0; to.len()];
    for (k, &a) in p.order.iter().enumerate() {
        let slot = strides
            .get_mut(a as usize)
            .ok_or_else(|| PassError::at(op, "has an order outside its rank"))?;
        *slot = dst.strides[k];
    }
    let sources = [moved(p.src, Placement { strides, offset: 0 })];
    move_elements(e, op, &sources, &[moved(out, dst)], to.iter().product())
}

/// `tile.join`: the operands at the even and odd places.
pub fn join<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    j: &Pair<'c, '_>,
) -> PassResult {
    let out = result(op, 0)?;
    let (half, to) = (shape_of(e, j.lhs, op)?, shape_of(e, out, op)?);
    let sources = [
        moved(j.lhs, Placement::row_major(&half, 2, 0)),
        moved(j.rhs, Placement::row_major(&half, 2, 1)),
    ];
    let results = [moved(out, Placement::row_major(&to, 1, 0))];
    move_elements(e, op, &sources, &results, to.iter().product())
}

/// `tile.split`: the results from the even and odd places.
pub fn split<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    src: Value<'c, '_>,
) -> PassResult {
    let (lo, hi) = (result(op, 0)?, result(op, 1)?);
    let (from, half) = (shape_of(e, src, op)?, shape_of(e, lo, op)?);
    let sources = [moved(src, Placement::row_major(&from, 1, 0))];
    let results = [
        moved(lo, Placement::row_major(&half, 2, 0)),
        moved(hi, Placement::row_major(&half, 2, 1)),
    ];
    move_elements(e, op, &sources, &results, from.iter().product())
}

/// `tile.cat`: both operands in the result's row-major places, the second
/// after the first along the axis.
pub fn cat<'c>(e: &mut Emitter<'_, 'c>, op: &OperationRef<'c, '_>, c: &Pair<'c, '_>) -> PassResult {
    let out = result(op, 0)?;
    let (first, to) = (shape_of(e, c.lhs, op)?, shape_of(e, out, op)?);
    let axis = usize::try_from(c.axis)
        .ok()
        .filter(|&a| a < to.len())
        .ok_or_else(|| PassError::at(op, "has an axis outside its rank"))?;
    let dst = Placement::row_major(&to, 1, 0);
    let after = Placement {
        strides: dst.strides.clone(),
        offset: first[axis] * dst.strides[axis],
    };
    let sources = [
        moved(c.lhs, Placement::row_major(&to, 1, 0)),
        moved(c.rhs, after),
    ];
    move_elements(e, op, &sources, &[moved(out, dst)], to.iter().product())
}
