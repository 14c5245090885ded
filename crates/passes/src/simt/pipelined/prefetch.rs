//! Loads a pipelined loop issues one iteration ahead into registers
//! (`tile.prefetch`): those feeding a product that cannot be copied
//! asynchronously (accesses under 4 bytes, as rows that no
//! specialization proves aligned; operands converted in registers).
//!
//! ```text
//! registers = load(tile 0)
//! for i in 0 .. n:
//!     the body, reading the load's tile from the registers
//!     if i + 1 < n: registers = load(tile i + 1)
//! ```
//!
//! The next tile's addresses come from the loop's address slice
//! ([`crate::loop_slice`]) evaluated with the induction variable one step
//! on and the carried values the body just yielded. The loads are issued
//! after the body's product, whose `wgmma` group runs while they are in
//! flight; the branch around them (a condition the same in every thread)
//! keeps the last iteration from reading past its tiles.
//!
//! A loop of memory-bound loads (no product) may take its tiles `d > 1`
//! iterations ahead (`tile.prefetch = d`): the loop carries `d` tiles of
//! registers, and the slice's carried values `d` iterations on, beside its
//! own.
//!
//! ```text
//! registers[0 .. d] = load(tile 0), load(tile 1) if 1 < n, ...
//! ahead = the slice's carried values at iteration d
//! for i in 0 .. n:
//!     the body, reading registers[0]
//!     next = load(tile i + d) if i + d < n (addresses from ahead)
//!     registers = registers[1 ..] + [next]; ahead = one step on
//! ```

use super::ahead::Ahead;
use crate::pass::PassError;
use crate::simt::builder::Val;
use crate::simt::emit::{Emitter, Lowered};
use melior::dialect::arith::{self, CmpiPredicate};
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value, ValueLike};
use tile_dialect::ops::PREFETCH_ATTR;
use tile_dialect::view::{ForLoop, TileOp};

/// The loads of one loop issued an iteration ahead, and their slice.
pub(super) struct Prefetch<'c, 'a> {
    loads: Vec<OperationRef<'c, 'a>>,
    ahead: Ahead<'c, 'a>,
    /// Registers of each load's tile.
    counts: Vec<usize>,
    /// Iterations ahead that the tiles are loaded.
    distance: usize,
}

impl<'c, 'a> Prefetch<'c, 'a> {
    /// The loads of `l`'s body marked `tile.prefetch`.
    pub fn of(
        e: &mut Emitter<'_, 'c>,
        l: &ForLoop<'c, 'a>,
        op: &OperationRef<'c, '_>,
    ) -> Result<Self, PassError> {
        let mut loads = Vec::new();
        let mut values = Vec::new();
        let mut counts = Vec::new();
        let mut distance = None;
        for inner in crate::edit::ops_of(&l.body) {
            if !inner.has_attribute(PREFETCH_ATTR) {
                continue;
            }
            let d = marked_distance(&inner)?;
            if distance.is_some_and(|x| x != d) {
                return Err(PassError::at(
                    &inner,
                    "is prefetched a different number of iterations ahead than its loop's other loads",
                ));
            }
            distance = Some(d);
            match TileOp::read(&inner, |v| e.types.tile_type(v.r#type())) {
                Ok(Some(TileOp::Load(ld))) => {
                    values.extend([Some(ld.ptr), ld.mask, ld.other].into_iter().flatten())
                }
                Ok(Some(TileOp::BlockLoad(b))) => values.push(b.ptr),
                _ => {
                    return Err(PassError::at(
                        &inner,
                        "is marked tile.prefetch but is no load",
                    ));
                }
            }
            let result: Value = inner.result(0).expect("a load's result").into();
            counts.push(
                e.registers(result, &inner)?
                    .ok_or_else(|| PassError::at(&inner, "prefetches a scalar"))?,
            );
            loads.push(inner);
        }
        Ok(Prefetch {
            ahead: Ahead::of(l, &values, op)?,
            loads,
            counts,
            distance: distance.unwrap_or(1),
        })
    }

    /// The registers of one tile of every load.
    fn tile_parts(&self) -> usize {
        self.counts.iter().sum()
    }

    /// What the loop carries for its loads, flattened: the registers of
    /// every load's first tile (the loop runs at least once); at a
    /// distance `d > 1`, those of tiles `0 .. d` (tile `s` loaded when
    /// `s < trips`) and then the slice's carried values at iteration `d`.
    pub fn first(
        &self,
        e: &mut Emitter<'_, 'c>,
        l: &ForLoop<'c, 'a>,
        op: &OperationRef<'c, '_>,
        lower: Val,
        step: Val,
        trips: Val,
    ) -> Result<Vec<Val>, PassError> {
        let mut state = self.ahead.initial(e, l, op)?;
        let mut out: Vec<Val> = Vec::new();
        for s in 0..self.distance {
            let at = e.i32(s as i64);
            let offset = e.ir.binary(arith::muli, at, step);
            let iv = e.ir.binary(arith::addi, lower, offset);
            let first = out.get(..self.tile_parts()).map(<[Val]>::to_vec);
            state = self.ahead.evaluate(e, l, op, iv, &state, |e| {
                let loaded = match first {
                    None => self.issue(e)?,
                    Some(first) => {
                        let wanted = e.ir.cmpi(CmpiPredicate::Slt, at, trips);
                        let unread: Vec<Val> = first.iter().map(|v| e.ir.poison(v.ty())).collect();
                        self.issue_if(e, wanted, &unread)?
                    }
                };
                out.extend(loaded);
                Ok(())
            })?;
        }
        if self.distance > 1 {
            out.extend(Ahead::flatten(&state));
        }
        Ok(out)
    }

    /// Gives each load's result the registers `parts` (as [`Self::first`]
    /// flattened them), at the start of the body.
    pub fn set(&self, e: &mut Emitter<'_, 'c>, parts: &[Val]) {
        let mut k = 0;
        for (load, &n) in self.loads.iter().zip(&self.counts) {
            let result: Value = load.result(0).expect("a load's result").into();
            e.set(result, Lowered::Regs(parts[k..k + n].to_vec()));
            k += n;
        }
    }

    /// After the body: what the next iteration carries (as
    /// [`Self::first`] laid it out; `current` is this iteration's): the
    /// tiles of iteration `count + d` loaded when it runs (below
    /// `trips`; the induction variable `iv` plus `d` steps).
    #[allow(clippy::too_many_arguments)]
    pub fn next(
        &self,
        e: &mut Emitter<'_, 'c>,
        l: &ForLoop<'c, 'a>,
        op: &OperationRef<'c, '_>,
        iv: Val,
        step: Val,
        count: Val,
        trips: Val,
        current: &[Val],
    ) -> Result<Vec<Val>, PassError> {
        if self.distance > 1 {
            return self.next_far(e, l, op, iv, step, count, trips, current);
        }
        let one = e.i32(1);
        let following = e.ir.binary(arith::addi, count, one);
        let wanted = e.ir.cmpi(CmpiPredicate::Slt, following, trips);
        let iv = e.ir.binary(arith::addi, iv, step);
        // The carried values of the next iteration: what the body yields.
        let state = self
            .ahead
            .carried()
            .iter()
            .map(|&j| e.get(l.yielded[j], op))
            .collect::<Result<Vec<Lowered>, PassError>>()?;
        let mut out = Vec::new();
        self.ahead.evaluate(e, l, op, iv, &state, |e| {
            out = self.issue_if(e, wanted, current)?;
            Ok(())
        })?;
        Ok(out)
    }

    /// [`Self::next`] at a distance `d > 1`: the slice's carried values
    /// come from `current` (after its `d` tiles), not from what the body
    /// yields.
    #[allow(clippy::too_many_arguments)]
    fn next_far(
        &self,
        e: &mut Emitter<'_, 'c>,
        l: &ForLoop<'c, 'a>,
        op: &OperationRef<'c, '_>,
        iv: Val,
        step: Val,
        count: Val,
        trips: Val,
        current: &[Val],
    ) -> Result<Vec<Val>, PassError> {
        let d = self.distance;
        let n = self.tile_parts();
        let ahead = e.i32(d as i64);
        let target = e.ir.binary(arith::addi, count, ahead);
        let wanted = e.ir.cmpi(CmpiPredicate::Slt, target, trips);
        let offset = e.ir.binary(arith::muli, ahead, step);
        let iv = e.ir.binary(arith::addi, iv, offset);
        let like = self.ahead.initial(e, l, op)?;
        let state = self.ahead.rebuild(e, l, &like, &current[d * n..], op)?;
        let mut out: Vec<Val> = current[n..d * n].to_vec();
        // Past the last tile nothing reads these registers: poison keeps
        // this iteration's tile from living on to the branch.
        let fallback: Vec<Val> = current[..n].iter().map(|v| e.ir.poison(v.ty())).collect();
        let next = self.ahead.evaluate(e, l, op, iv, &state, |e| {
            out.extend(self.issue_if(e, wanted, &fallback)?);
            Ok(())
        })?;
        out.extend(Ahead::flatten(&next));
        Ok(out)
    }

    /// The loads' registers when `wanted` holds, else `fallback`.
    fn issue_if(
        &self,
        e: &mut Emitter<'_, 'c>,
        wanted: Val,
        fallback: &[Val],
    ) -> Result<Vec<Val>, PassError> {
        e.ir.open_block(&[]);
        let loaded = self.issue(e)?;
        let then = e.ir.close_block(&loaded);
        e.ir.open_block(&[]);
        let otherwise = e.ir.close_block(fallback);
        let types: Vec<_> = loaded.iter().map(|v| v.ty()).collect();
        Ok(e.ir.if_else(wanted, then, otherwise, &types))
    }

    /// Lowers every load (its operands as the slice left them) and
    /// returns their registers, flattened.
    fn issue(&self, e: &mut Emitter<'_, 'c>) -> Result<Vec<Val>, PassError> {
        let mut out = Vec::new();
        for load in &self.loads {
            e.lower_op(load)?;
            let result: Value = load.result(0).expect("a load's result").into();
            out.extend(e.get(result, load)?.parts());
        }
        Ok(out)
    }
}

/// The iterations ahead that the load `op` is issued: `tile.prefetch`'s
/// value, 1 for the unit attribute.
fn marked_distance(op: &OperationRef) -> Result<usize, PassError> {
    let a = op
        .attribute(PREFETCH_ATTR)
        .map_err(|_| PassError::at(op, "has no tile.prefetch"))?;
    if melior::ir::attribute::AttributeLike::is_unit(&a) {
        return Ok(1);
    }
    let d = melior::ir::attribute::IntegerAttribute::try_from(a)
        .map(|i| i.signed_value())
        .map_err(|_| {
            PassError::at(
                op,
                "has a tile.prefetch that is neither unit nor an integer",
            )
        })?;
    if !(1..=7).contains(&d) {
        return Err(PassError::at(
            op,
            format!("prefetches {d} iterations ahead (from 1 to 7)"),
        ));
    }
    Ok(d as usize)
}

/// True when `op` is a load the loop issues ahead.
pub(super) fn is_prefetched(op: &OperationRef) -> bool {
    op.has_attribute(PREFETCH_ATTR)
}
