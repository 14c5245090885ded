//! The address slice of a pipelined loop ([`crate::loop_slice`]),
//! evaluated for the iteration whose tiles are copied: `S - 1` iterations
//! ahead of the one running.
//!
//! The slice's carried values (tutorial 03's pointer tensors, advanced by
//! `addptr` each step) are carried a second time, ahead: the prologue
//! evaluates the slice for iterations `0 .. S - 1` from the loop's initial
//! values, each evaluation giving the next iteration's; the loop then
//! carries the values of iteration `i + S - 1` beside its own, and each
//! iteration evaluates the slice once more (the induction variable set to
//! `iv + (S - 1) * step`) to issue its copies and step them on. The
//! body's own evaluation of the slice for the running iteration stays as
//! it was: values only the copies read are dead there, and LLVM drops
//! them.

use crate::loop_slice::{self, Slice};
use crate::pass::{PassError, PassResult};
use crate::simt::builder::Val;
use crate::simt::control;
use crate::simt::emit::{Emitter, Lowered};
use melior::ir::{OperationRef, Value};
use tile_dialect::view::ForLoop;

/// The slice feeding a loop's copies through tensors of pointers.
pub(super) struct Ahead<'c, 'a> {
    slice: Slice<'c, 'a>,
}

impl<'c, 'a> Ahead<'c, 'a> {
    /// The slice computing `values` (pointers and masks of copies).
    pub fn of(
        l: &ForLoop<'c, 'a>,
        values: &[Value<'c, 'a>],
        op: &OperationRef<'c, '_>,
    ) -> Result<Self, PassError> {
        let slice = loop_slice::of(l, values).ok_or_else(|| {
            PassError::at(
                op,
                "copies ahead a load whose addresses depend on more than the loop index, \
                 carried values and invariants",
            )
        })?;
        Ok(Ahead { slice })
    }

    /// The carried values the slice reads (their indices among the
    /// loop's).
    pub fn carried(&self) -> &[usize] {
        &self.slice.carried
    }

    /// The carried values the slice reads, at the loop's start.
    pub fn initial(
        &self,
        e: &Emitter<'_, 'c>,
        l: &ForLoop<'c, 'a>,
        op: &OperationRef<'c, '_>,
    ) -> Result<Vec<Lowered>, PassError> {
        self.slice
            .carried
            .iter()
            .map(|&j| e.get(l.inits[j], op))
            .collect()
    }

    /// The scalars of `state`, flattened (to be carried by the loop).
    pub fn flatten(state: &[Lowered]) -> Vec<Val> {
        state.iter().flat_map(Lowered::parts).collect()
    }

    /// The state the scalars `parts` (as [`Ahead::flatten`] gave them)
    /// stand for.
    pub fn rebuild(
        &self,
        e: &Emitter<'_, 'c>,
        l: &ForLoop<'c, 'a>,
        like: &[Lowered],
        parts: &[Val],
        op: &OperationRef<'c, '_>,
    ) -> Result<Vec<Lowered>, PassError> {
        let mut out = Vec::with_capacity(like.len());
        let mut k = 0;
        for (&j, shape) in self.slice.carried.iter().zip(like) {
            let n = shape.parts().len();
            out.push(control::rebuild(
                e,
                l.iter_args[j],
                parts[k..k + n].to_vec(),
                op,
            )?);
            k += n;
        }
        Ok(out)
    }

    /// Evaluates the slice with the induction variable `iv` and the
    /// carried values `state`, runs `during` while its values stand (the
    /// copies read their pointers and masks there), and returns the
    /// carried values of the next iteration. What the emitter knew of
    /// every value the slice touches is restored afterwards.
    pub fn evaluate(
        &self,
        e: &mut Emitter<'_, 'c>,
        l: &ForLoop<'c, 'a>,
        op: &OperationRef<'c, '_>,
        iv: Val,
        state: &[Lowered],
        during: impl FnOnce(&mut Emitter<'_, 'c>) -> PassResult,
    ) -> Result<Vec<Lowered>, PassError> {
        let carried = &self.slice.carried;
        let mut keys = vec![crate::edit::key(l.induction)];
        keys.extend(carried.iter().map(|&j| crate::edit::key(l.iter_args[j])));
        keys.extend(loop_slice::defined_keys(&self.slice));
        let saved: Vec<(usize, Option<Lowered>)> =
            keys.iter().map(|&k| (k, e.lowered(k))).collect();
        e.set(l.induction, Lowered::Scalar(iv));
        for (&j, v) in carried.iter().zip(state) {
            e.set(l.iter_args[j], v.clone());
        }
        let run = || -> Result<Vec<Lowered>, PassError> {
            for inner in &self.slice.ops {
                e.lower_op(inner)?;
            }
            during(e)?;
            carried.iter().map(|&j| e.get(l.yielded[j], op)).collect()
        };
        let next = run();
        for (k, v) in saved {
            match v {
                Some(v) => e.set_key(k, v),
                None => e.unset_key(k),
            }
        }
        next
    }
}
