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
        for inner in crate::edit::ops_of(&l.body) {
            if !inner.has_attribute(PREFETCH_ATTR) {
                continue;
            }
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
        })
    }

    /// The registers of every load's first tile (the loop runs at least
    /// once), flattened.
    pub fn first(
        &self,
        e: &mut Emitter<'_, 'c>,
        l: &ForLoop<'c, 'a>,
        op: &OperationRef<'c, '_>,
        lower: Val,
    ) -> Result<Vec<Val>, PassError> {
        let state = self.ahead.initial(e, l, op)?;
        let mut out = Vec::new();
        self.ahead.evaluate(e, l, op, lower, &state, |e| {
            out = self.issue(e)?;
            Ok(())
        })?;
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

    /// After the body: the registers of the next iteration's tiles (the
    /// induction variable `iv` plus `step`), loaded when iteration
    /// `count + 1` runs (below `trips`), else `current` kept.
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
            e.ir.open_block(&[]);
            let loaded = self.issue(e)?;
            let then = e.ir.close_block(&loaded);
            e.ir.open_block(&[]);
            let otherwise = e.ir.close_block(current);
            let types: Vec<_> = loaded.iter().map(|v| v.ty()).collect();
            out = e.ir.if_else(wanted, then, otherwise, &types);
            Ok(())
        })?;
        Ok(out)
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

/// True when `op` is a load the loop issues ahead.
pub(super) fn is_prefetched(op: &OperationRef) -> bool {
    op.has_attribute(PREFETCH_ATTR)
}
